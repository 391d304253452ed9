// What `stockpot stats` reports, gathered from an open store: the engine's space (live and
// dead segment bytes, blobs, segments), the snapshot's age, and index memory per soup and kind.

import Foundation
import Stockpot
import StockpotJSON

/// A store's statistics as the `stats` command prints them.
struct StoreReport {
    /// One index's memory.
    struct Index {
        var kind: String
        var path: String?
        var bytes: Int
    }

    /// One soup's entries and indexes.
    struct Soup {
        var name: String
        var entries: Int
        var indexes: [Index]
        var bytes: Int { indexes.reduce(0) { $0 + $1.bytes } }
    }

    var stats: StoreStats
    var soups: [Soup] = []
    /// The snapshot file's name and age in seconds, when there is one.
    var snapshot: (name: String, ageSeconds: Double)?

    var deadBytes: Int { stats.dataBytes - stats.liveBytes }

    /// Gathers the report of an open store.
    init(store: Store) throws(ToolFailure) {
        do {
            stats = try store.stats()
        } catch {
            throw ToolFailure(error, doing: "cannot read the statistics of \(store.directory)")
        }
        let view = store.view()
        for memory in stats.indexMemory {
            var indexes = [
                Index(kind: "entry_id", path: "_soupEntryId", bytes: memory.entryIDIndexBytes),
                Index(kind: "changes", path: "(sequence)", bytes: memory.changeIndexBytes),
            ]
            let specs = (try? view.indexSpecs(of: memory.soup)) ?? []
            for spec in specs {
                indexes.append(Index(kind: spec.type.rawValue, path: spec.path, bytes: memory.orderedIndexBytes[spec.path] ?? 0))
            }
            if memory.fullTextIndexBytes > 0 {
                indexes.append(Index(kind: "full_text_terms", path: nil, bytes: memory.fullTextIndexBytes))
            }
            soups.append(Soup(name: memory.soup, entries: memory.entries, indexes: indexes))
        }
        snapshot = Self.newestSnapshot(in: store.directory)
    }

    /// The newest `*.snap` file and its age.
    private static func newestSnapshot(in directory: String) -> (String, Double)? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        guard let name = names.filter({ $0.hasSuffix(".snap") }).max(),
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory + "/" + name),
            let modified = attributes[.modificationDate] as? Date
        else { return nil }
        return (name, max(0, Date().timeIntervalSince(modified)))
    }

    /// The report as text, one fact per line.
    var text: String {
        var lines = [
            "soups                 \(stats.soups)",
            "entries               \(stats.entries)",
            "segments              \(stats.segments)",
            "segment bytes         \(stats.dataBytes) (\(ByteCount.describe(stats.dataBytes)))",
            "  live                \(stats.liveBytes) (\(ByteCount.describe(stats.liveBytes)))",
            "  dead                \(deadBytes) (\(ByteCount.describe(deadBytes)))",
            "blob bytes            \(stats.blobBytes) (\(ByteCount.describe(stats.blobBytes)))",
            "key directory bytes   \(stats.keyDirectoryBytes) (\(ByteCount.describe(stats.keyDirectoryBytes)))",
            "log since snapshot    \(stats.logBytesSinceSnapshot) bytes",
        ]
        if let snapshot {
            lines.append("snapshot              \(snapshot.name), " + ProgressBar.decimal(snapshot.ageSeconds, places: 0) + " s old")
        } else {
            lines.append("snapshot              none")
        }
        for soup in soups {
            lines.append("")
            lines.append("soup \"\(soup.name)\": \(soup.entries) entries, index memory \(soup.bytes) bytes (\(ByteCount.describe(soup.bytes)))")
            for index in soup.indexes {
                let what = index.path.map { "\(index.kind) \"\($0)\"" } ?? index.kind
                lines.append("  " + what.padding(toLength: max(what.count + 1, 36), withPad: " ", startingAt: 0) + "\(index.bytes) bytes")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as one JSON object.
    var json: JSONValue {
        var object = JSONObject()
        let figures: [(String, Int)] = [
            ("soups", stats.soups), ("entries", stats.entries), ("segments", stats.segments),
            ("segmentBytes", stats.dataBytes), ("liveBytes", stats.liveBytes), ("deadBytes", deadBytes),
            ("blobBytes", stats.blobBytes), ("keyDirectoryBytes", stats.keyDirectoryBytes),
            ("logBytesSinceSnapshot", stats.logBytesSinceSnapshot),
        ]
        for (key, value) in figures { object[key] = .integer(Int64(value)) }
        if let snapshot {
            object["snapshot"] = ["file": .string(snapshot.name), "ageSeconds": .double(snapshot.ageSeconds.rounded())]
        } else {
            object["snapshot"] = .null
        }
        var details: [JSONValue] = []
        for soup in soups {
            var indexes: [JSONValue] = []
            for index in soup.indexes {
                var entry = JSONObject()
                entry["kind"] = .string(index.kind)
                entry["path"] = index.path.map(JSONValue.string) ?? .null
                entry["bytes"] = .integer(Int64(index.bytes))
                indexes.append(.object(entry))
            }
            var detail = JSONObject()
            detail["name"] = .string(soup.name)
            detail["entries"] = .integer(Int64(soup.entries))
            detail["indexMemoryBytes"] = .integer(Int64(soup.bytes))
            detail["indexes"] = .array(indexes)
            details.append(.object(detail))
        }
        object["soupDetails"] = .array(details)
        return .object(object)
    }
}
