// Seeded query keys drawn from the corpus: a key is taken from a random document, so common
// values come up as often as they occur (a city, a name prefix, a description word), and a
// range is cut from the sorted values so that a chosen number of rows fall inside it.

import StockpotJSON
import StockpotTools

/// Draws query keys from the corpus documents.
struct QueryKeys {
    private let documents: [[UInt8]]
    private var random: SeededRandom

    init(documents: [[UInt8]], seed: UInt64) {
        self.documents = documents
        random = SeededRandom(seed: seed)
    }

    /// The text at `path` of a random document (skipping documents where it is not text).
    mutating func text(at path: String) throws -> String {
        let extractor = JSONFieldExtractor(fields: [IndexField(path: JSONPath(path), type: .string)])
        while true {
            if case .text(let text) = try extractor.indexValues(in: documents[random.below(documents.count)])[0] {
                return text
            }
        }
    }

    /// The first `length` characters of a random document's text at `path`, lower-cased
    /// (so matching relies on LIKE ignoring ASCII case).
    mutating func prefix(at path: String, length: Int) throws -> String {
        String(try text(at: path).prefix(length)).lowercased()
    }

    /// `length` ASCII letters in a row from a random place in a random document's text at
    /// `path`, lower-cased.
    mutating func infix(at path: String, length: Int) throws -> String {
        while true {
            let characters = Array(try text(at: path))
            guard characters.count >= length else { continue }
            let start = random.below(characters.count - length + 1)
            let window = characters[start..<start + length]
            if window.allSatisfy({ $0.isASCII && $0.isLetter }) { return String(window).lowercased() }
        }
    }

    /// A word of a random document's text at `path`, as the full-text tokenizer sees it: a run
    /// of letters and digits, lower-cased.
    mutating func word(at path: String) throws -> String {
        while true {
            let words = try text(at: path).split { !($0.isLetter || $0.isNumber) }
            if !words.isEmpty { return words[random.below(words.count)].lowercased() }
        }
    }

    /// `count` inclusive ranges `(begin, end)` over the numbers at `path`, each spanning
    /// `rows` consecutive values of the sorted column, at random places.
    mutating func ranges(at path: String, type: IndexType, rows: Int, count: Int) throws -> [(JSONValue, JSONValue)] {
        let extractor = JSONFieldExtractor(fields: [IndexField(path: JSONPath(path), type: type)])
        var values: [IndexValue] = []
        values.reserveCapacity(documents.count)
        for document in documents {
            let value = try extractor.indexValues(in: document)[0]
            if !value.isNull { values.append(value) }
        }
        values.sort { $0.compare($1) < 0 }
        let span = min(rows, values.count)
        return (0..<count).map { _ in
            let start = random.below(values.count - span + 1)
            return (Self.json(values[start]), Self.json(values[start + span - 1]))
        }
    }

    /// A random number below `bound`.
    mutating func below(_ bound: Int) -> Int { random.below(bound) }

    private static func json(_ value: IndexValue) -> JSONValue {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .double(let double): .double(double)
        case .text(let text): .string(text)
        }
    }
}
