// Seeded query keys drawn from the corpus: a key is taken from a random document (uniform over
// the corpus, or Zipf-skewed over a seeded shuffle of it), so common values come up as often
// as they occur (a city, a name prefix, a description word); a range is cut from the sorted
// values so that a chosen number of rows fall inside it; a page is the one holding a drawn
// document.

import StockpotJSON
import StockpotTools

/// Draws query keys from the corpus documents.
struct QueryKeys {
    private let documents: [[UInt8]]
    private var random: SeededRandom
    /// Zipf ranks for the skewed variants; `nil` draws uniformly.
    private let skew: ZipfDistribution?
    /// Rank -> document index for the skewed variants: a seeded shuffle, so that the hot
    /// documents are spread over the corpus rather than the first ones loaded.
    private let rankedDocuments: [Int]
    /// Per path: each document's text there and its position among the documents holding
    /// the same text, in entry-id order (what ``pageHolding(at:pageSize:)`` needs).
    private var positions: [String: (texts: [String?], positions: [Int])] = [:]
    /// The Zipf ranks of ``position(below:)``, for the last count asked for.
    private var positionSkew: (count: Int, distribution: ZipfDistribution)?

    init(documents: [[UInt8]], seed: UInt64, skewed: Bool = false) {
        self.documents = documents
        random = SeededRandom(seed: seed)
        if skewed {
            skew = ZipfDistribution(count: documents.count)
            var order = Array(0..<documents.count)
            var shuffle = SeededRandom(seed: seed ^ 0x5A1F_0DD5)
            for index in stride(from: order.count - 1, to: 0, by: -1) {
                order.swapAt(index, shuffle.below(index + 1))
            }
            rankedDocuments = order
        } else {
            skew = nil
            rankedDocuments = []
        }
    }

    /// A document index: uniform over the corpus, or Zipf-skewed.
    mutating func documentIndex() -> Int {
        guard let skew else { return random.below(documents.count) }
        return rankedDocuments[skew.next(&random)]
    }

    /// A start position below `count`: uniform, or Zipf-skewed over a seeded shuffle of the
    /// positions.
    mutating func position(below count: Int) -> Int {
        guard skew != nil else { return random.below(count) }
        if positionSkew?.count != count { positionSkew = (count, ZipfDistribution(count: count)) }
        let rank = positionSkew!.distribution.next(&random)
        return Int((UInt64(rank) &* 0x9E37_79B9_7F4A_7C15 &+ 0x632B_E59B_D9B4_E019) % UInt64(count))
    }

    /// The text at `path` of a drawn document (skipping documents where it is not text).
    mutating func text(at path: String) throws -> String {
        let extractor = JSONFieldExtractor(fields: [IndexField(path: JSONPath(path), type: .string)])
        while true {
            if case .text(let text) = try extractor.indexValues(in: documents[documentIndex()])[0] {
                return text
            }
        }
    }

    /// For a drawn document holding text at `path`: that text and the number of the page of
    /// `pageSize` holding the document among all documents with the same text, in entry-id
    /// order (as an exact query on `path` returns them on both sides).
    mutating func pageHolding(at path: String, pageSize: Int) throws -> (key: String, page: Int) {
        if positions[path] == nil {
            let extractor = JSONFieldExtractor(fields: [IndexField(path: JSONPath(path), type: .string)])
            var texts = [String?](), places = [Int](), seen: [String: Int] = [:]
            for document in documents {
                if case .text(let text) = try extractor.indexValues(in: document)[0] {
                    texts.append(text)
                    places.append(seen[text, default: 0])
                    seen[text, default: 0] += 1
                } else {
                    texts.append(nil)
                    places.append(0)
                }
            }
            positions[path] = (texts, places)
        }
        let (texts, places) = positions[path]!
        while true {
            let index = documentIndex()
            if let text = texts[index] { return (text, places[index] / pageSize) }
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
            let start = position(below: values.count - span + 1)
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
