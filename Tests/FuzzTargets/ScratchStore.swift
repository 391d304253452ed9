// A small store in a temporary directory for the targets that run requests against a store:
// three soups over every index kind, a few entries each, made through an exec session.

import Foundation
import Stockpot
import StockpotJSON
import StockpotTools

/// A fresh store with the fixture soups, removed when closed.
///
/// The store lives in `/dev/shm` when there is one (the targets write to it on every input),
/// else in the temporary directory. Not thread-safe: one per fuzzing process or test.
package final class ScratchStore {
    /// The store directory.
    package let directory: String
    /// The open store.
    package let store: Store

    /// The fixture, as exec request lines.
    package static let fixture: [String] = [
        #"{"id":1,"op":"registerSoup","soupName":"people","indexSpecs":[{"path":"name","type":"string"},{"path":"age","type":"integer"},{"path":"email","type":"string","unique":true},{"path":"bio","type":"full_text"},{"path":"score","type":"floating"},{"path":"tags","type":"json1"}]}"#,
        #"{"id":2,"op":"registerSoup","soupName":"notes","indexSpecs":[{"path":"owner","type":"integer"},{"path":"text","type":"full_text"},{"path":"title","type":"string"}]}"#,
        #"{"id":3,"op":"registerSoup","soupName":"empty","indexSpecs":[{"path":"k","type":"string"}]}"#,
        #"{"id":4,"op":"upsertSoupEntries","soupName":"people","entries":[{"name":"Ann","age":30,"email":"ann@x","bio":"likes green tea","score":1.5,"tags":["a","b"]},{"name":"Bob","age":40,"email":"bob@x","bio":"tea and coffee","score":-2},{"name":"Cy","email":"cy@x","bio":"Über café"},{"name":"Di","age":-7,"email":"di@x","score":1e300}]}"#,
        #"{"id":5,"op":"upsertSoupEntries","soupName":"notes","entries":[{"owner":1,"text":"green tea notes","title":"t1"},{"owner":2,"text":"coffee","title":"t2"},{"owner":1,"text":"more tea please","title":null}]}"#,
    ]

    /// Creates the directory, opens the store and runs the fixture.
    ///
    /// - Throws: a `StockpotError` when the store does not open, or `FuzzFailure` when a
    ///   fixture request fails.
    package init(durability: StoreOptions.Durability = .none) throws {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        directory = base + "/stockpot-fuzz-\(getpid())-\(UUID().uuidString)"
        var options = StoreOptions()
        options.durability = durability
        options.backgroundCompaction = false
        store = try Store.open(directory: directory, options: options)
        var session = ExecSession(store: store, jsonLimits: .default)
        for line in Self.fixture {
            let response = session.respond(to: Array(line.utf8))
            guard case .object(let object)? = try? JSONReader.parse(response), object["error"] == nil else {
                throw FuzzFailure("fixture", "the fixture request \(line) failed: \(String(decoding: response, as: UTF8.self))")
            }
        }
    }

    /// Closes the store and removes its directory.
    package func close() {
        try? store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
