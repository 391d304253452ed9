// Restore's all-or-nothing installation (docs/format/dump.md, "What restore checks"): the store
// is built in `STORE.restore-<pid>.tmp` and renamed into place when complete and durable, else
// removed; what killed restores left there (their pid gone) the next restore removes.

import Foundation
import Stockpot
import StockpotStorage

/// A store being built beside its final place. Not thread-safe.
final class StagedStore {
    /// Where the store will live.
    let target: String
    /// Where it is being built.
    let stagingPath: String
    /// The store being built (relaxed durability; its close makes it durable).
    let store: Store

    /// Creates an empty store beside `target`, encrypted with `encryption` when it is given.
    ///
    /// - Throws: a ``ToolFailure`` when it cannot be created.
    init(target: String, encryption: StoreEncryption? = nil) throws(ToolFailure) {
        var trimmed = target
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.target = trimmed
        stagingPath = trimmed + ".restore-\(getpid()).tmp"
        Self.removeStaleStaging(beside: trimmed)
        try? FileManager.default.removeItem(atPath: stagingPath)
        var options = StoreOptions()
        options.durability = .none
        options.backgroundCompaction = false
        options.encryption = encryption
        store = try StoreAccess.open(stagingPath, options: options)
    }

    /// Removes what killed restores of `target` left beside it: `target.restore-<pid>.tmp`
    /// and `target.replaced-<pid>.tmp` whose process no longer runs. A folder whose pid is
    /// alive (another restore, or a reused pid) is left alone.
    static func removeStaleStaging(beside target: String) {
        let parent = (target as NSString).deletingLastPathComponent
        let base = (target as NSString).lastPathComponent
        let directory = parent.isEmpty ? "." : parent
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard let pid = stagingPID(name, base: base), pid != getpid(), !isRunning(pid) else { continue }
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    /// The pid in `base.restore-<pid>.tmp` or `base.replaced-<pid>.tmp`; nil for other names.
    static func stagingPID(_ name: String, base: String) -> pid_t? {
        for infix in [".restore-", ".replaced-"] {
            let prefix = base + infix
            guard name.hasPrefix(prefix), name.hasSuffix(".tmp") else { continue }
            let digits = name.dropFirst(prefix.count).dropLast(4)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let pid = pid_t(digits), pid > 0 else {
                return nil
            }
            return pid
        }
        return nil
    }

    /// Whether process `pid` exists (signal 0 probes without sending anything).
    private static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Closes and removes the staged store.
    func abandon() {
        try? store.close()
        try? FileManager.default.removeItem(atPath: stagingPath)
    }

    /// Makes the staged store durable and puts it at the target. `existing` (the store at the
    /// target, held open so that nobody else uses it meanwhile) is closed and moved aside
    /// first, then removed once the new store is in place.
    func install(replacing existing: Store?, targetExists: Bool) throws(ToolFailure) {
        try StoreAccess.close(store)
        if let existing { try StoreAccess.close(existing) }
        let parent = (target as NSString).deletingLastPathComponent
        do throws(StorageError) {
            try DurableReplacement.installDirectory(
                stagingPath, at: target, aside: target + ".replaced-\(getpid()).tmp",
                parent: parent.isEmpty ? "." : parent, fileSystem: RealFileSystem())
        } catch {
            throw ToolFailure("cannot put the restored store at \(target): \(error.message)", status: .ioError)
        }
    }
}
