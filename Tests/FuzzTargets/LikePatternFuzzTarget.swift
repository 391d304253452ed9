// Fuzz target `like-pattern`: LIKE patterns compiled and matched (docs/smart-sql.md, "LIKE"),
// and the index walk of LIKE compared with a scan over the same soup.

import Stockpot
import StockpotJSON
import StockpotQuery

/// Reads an input as a pattern line, then text lines; the pattern must match each text the
/// same way from a string and from its bytes, and a LIKE on an indexed path must count the
/// same rows as the same LIKE on an expression no index answers.
enum LikePatternFuzzTarget {
    static let name = "like-pattern"
    nonisolated(unsafe) private static var scratch: ScratchStore?

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let pattern = String(decoding: lines.first ?? [], as: UTF8.self)
        let texts = lines.dropFirst().prefix(8).map { String(decoding: $0, as: UTF8.self) }
        for escape in [nil, Unicode.Scalar("\\")] {
            guard let like = LikePattern(pattern, escape: escape) else { continue }
            for text in texts {
                var copy = text
                let byBytes = copy.withUTF8 { like.matches(UnsafeRawBufferPointer($0)) }
                if like.matches(text) != byBytes {
                    throw FuzzFailure(name, "the pattern matches \(text.debugDescription) from a string and from bytes differently")
                }
            }
        }
        try compareIndexWithScan(pattern)
    }

    private static func compareIndexWithScan(_ pattern: String) throws(FuzzFailure) {
        let store: Store
        if let scratch {
            store = scratch.store
        } else {
            do {
                let opened = try ScratchStore()
                scratch = opened
                store = opened.store
            } catch {
                throw FuzzFailure(name, "the scratch store does not open: \(error)")
            }
        }
        for path in ["name", "email"] {
            let indexed = Result { () throws(StockpotError) in
                try store.smartCount("SELECT count(*) FROM {people} WHERE {people:\(path)} LIKE ?", arguments: [.string(pattern)])
            }
            let scanned = Result { () throws(StockpotError) in
                try store.smartCount("SELECT count(*) FROM {people} WHERE ({people:\(path)} || '') LIKE ?", arguments: [.string(pattern)])
            }
            switch (indexed, scanned) {
            case (.success(let a), .success(let b)) where a == b: continue
            case (.failure(let a), .failure(let b)) where a.code == b.code && a.code != .internal: continue
            default:
                throw FuzzFailure(name, "LIKE \(pattern.debugDescription) on \(path): the index gives \(indexed), a scan \(scanned)")
            }
        }
    }
}
