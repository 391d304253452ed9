// The content hash sync keeps in each entry state: stable across member order, and pinned to
// a value, since states written by earlier builds are compared against it.

import StockpotJSON
@testable import StockpotSync
import Testing

@Suite("Document content")
struct DocumentContentTests {
    static let document: JSONValue = [
        "name": "Ünïcode \"quoted\"", "b": [["z": 1, "a": 2.5], "x", .null, true], "a": ["y": -7, "é": ["k": false]],
    ]

    @Test func theHashIgnoresMemberOrderAtEveryDepth() throws {
        let reordered: JSONValue = [
            "a": ["é": ["k": false], "y": -7], "b": [["a": 2.5, "z": 1], "x", .null, true], "name": "Ünïcode \"quoted\"",
        ]
        #expect(DocumentContent.hash(Self.document) == DocumentContent.hash(reordered))
        let changed: JSONValue = [
            "a": ["é": ["k": true], "y": -7], "b": [["a": 2.5, "z": 1], "x", .null, true], "name": "Ünïcode \"quoted\"",
        ]
        #expect(DocumentContent.hash(Self.document) != DocumentContent.hash(changed))
    }

    @Test func theHashOfAKnownDocumentIsPinned() {
        #expect(DocumentContent.hash(Self.document) == -7_909_429_596_667_688_016)
    }
}
