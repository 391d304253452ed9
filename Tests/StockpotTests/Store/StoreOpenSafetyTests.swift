// What a caller sees when a store's files are damaged or contended: damage at the log's end
// after a clean close costs the damaged batch, never a wrong answer or `internal`; the lock
// excludes a second opener whatever happens to files in the directory.

import Foundation
import Stockpot
import Testing
import StockpotTestSupport

@Suite struct StoreOpenSafetyTests {
    static let specs = [IndexSpec(path: "name", type: .string)]

    /// The newest segment file of the store in `directory`: the active one after a small store's close.
    private func activeSegment(_ directory: String) throws -> String {
        let segments = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".seg") }.sorted()
        return directory + "/" + (try #require(segments.last))
    }

    @Test func damageAtTheLogsEndAfterACleanCloseLosesOnlyTheLastBatch() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            try store.registerSoup("people", indexSpecs: Self.specs)
            for batch in 0..<5 {
                _ = try store.upsert((0..<4).map { ["name": .string("p\(batch)-\($0)")] }, into: "people")
            }
            try store.close()
            // One byte of the last record flipped: the open reads it as a torn tail.
            let path = try activeSegment(directory)
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            bytes[bytes.count - 2] ^= 0x20
            try bytes.write(to: URL(fileURLWithPath: path))

            let reopened = try Store.open(directory: directory, options: fastOptions())
            #expect(reopened.openWarnings.contains { $0.contains("lost") }, "\(reopened.openWarnings)")
            let page = try reopened.query(QuerySpec.all(orderPath: "name", pageSize: 100), in: "people")
            #expect(page.rows.count == 16, "the last batch of 4 is lost, the other 16 are read")
            #expect(try reopened.stats().entries == 16)
            #expect(try reopened.stats().openWarnings == reopened.openWarnings)
            #expect(reopened.view().checkIndexes().allSatisfy { $0.problems.isEmpty })
            try reopened.close()

            let again = try Store.open(directory: directory, options: fastOptions())
            #expect(again.openWarnings.isEmpty, "the snapshot was rewritten: \(again.openWarnings)")
            #expect(try again.query(QuerySpec.all(orderPath: "name", pageSize: 100), in: "people").rows.count == 16)
            try again.close()
        }
    }

    @Test func aReadOnlyStoreAnswersReadsAndRefusesWrites() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            try store.registerSoup("people", indexSpecs: Self.specs)
            _ = try store.upsert([["name": "Ann"], ["name": "Bob"]], into: "people")
            try store.close()
            var options = fastOptions()
            options.readOnly = true
            let reader = try Store.open(directory: directory, options: options)
            #expect(try reader.query(QuerySpec.all(orderPath: "name"), in: "people").rows.count == 2)
            #expect(errorCode { _ = try reader.upsert([["name": "Cy"]], into: "people") } == .readOnly)
            #expect(errorCode { try reader.registerSoup("more", indexSpecs: Self.specs) } == .readOnly)
            try reader.close()
            #expect(errorCode { _ = try Store.open(directory: directory + "/none", options: options) } == .ioError)
        }
    }

    @Test func theLockExcludesASecondOpenerWhateverHappensToFilesInTheDirectory() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            #expect(!FileManager.default.fileExists(atPath: directory + "/LOCK"), "no lock file to delete")
            #expect(errorCode { _ = try Store.open(directory: directory, options: fastOptions()) } == .storeLocked)
            // A file named like an earlier release's lock file changes nothing.
            _ = FileManager.default.createFile(atPath: directory + "/LOCK", contents: nil)
            try FileManager.default.removeItem(atPath: directory + "/LOCK")
            #expect(errorCode { _ = try Store.open(directory: directory, options: fastOptions()) } == .storeLocked)
        }
    }
}
