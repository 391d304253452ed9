// The published store state: its catalog's shape version is renewed by every change of shape
// (a prepared Smart SQL statement trusts it), and a copy never sees a later change.

@testable import Stockpot
import StockpotTestSupport
import Testing

@Suite struct StoreStateTests {
    @Test func everyChangeOfShapeRenewsTheSchemaVersionAndOldViewsKeepTheirs() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            var versions: [UInt64] = [store.view().state.schemaVersion]
            try store.registerSoup("a", indexSpecs: [IndexSpec(path: "k", type: .string)])
            versions.append(store.view().state.schemaVersion)
            try store.registerSoup("b", indexSpecs: [IndexSpec(path: "k", type: .string)])
            versions.append(store.view().state.schemaVersion)
            let beforeRemoval = store.view()
            try store.removeSoup("a")
            versions.append(store.view().state.schemaVersion)
            try store.alterSoup("b", indexSpecs: [IndexSpec(path: "k", type: .integer)])
            versions.append(store.view().state.schemaVersion)
            #expect(Set(versions).count == versions.count, "\(versions)")

            // A write that keeps the shape keeps the version.
            try store.upsert([["k": "x"]], into: "b")
            #expect(store.view().state.schemaVersion == versions.last)

            #expect(beforeRemoval.soupExists("a") && beforeRemoval.state.schemaVersion == versions[2])
            #expect(!store.view().soupExists("a"))
        }
    }
}
