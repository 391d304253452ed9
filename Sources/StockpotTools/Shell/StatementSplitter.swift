// Cuts the shell's input lines into Smart SQL statements at each `;` that is outside quotes,
// `{soup:path}` braces and comments, following the Smart SQL lexer's rules: '...', "...",
// `...` (a doubled quote stays inside), [...], {...} up to the first `}`, -- to the end of
// the line, /* ... */.

/// Accumulates input lines and hands out complete statements. Not thread-safe.
struct StatementSplitter {
    /// Where the next byte falls.
    enum State: Equatable {
        case normal
        /// Inside a quoted string or name, until this byte.
        case quoted(closing: UInt8)
        /// Inside `{...}`.
        case brace
        /// After `--`, until the end of the line.
        case lineComment
        /// Inside `/* ... */`.
        case blockComment
    }

    /// What is left at the end of the input.
    enum Remainder: Equatable {
        /// Nothing but white space and comments.
        case nothing
        /// A statement without its `;`, outside any quote: it is run like the others.
        case statement(String)
        /// Text inside an unterminated quote, brace or block comment.
        case incomplete(String)
    }

    private(set) var state = State.normal
    private var pending: [UInt8] = []
    /// Whether `pending` holds anything but white space and comments.
    private var hasContent = false

    /// Whether no statement is under way: the next line may be a dot-command.
    var isIdle: Bool { !hasContent && state == .normal }

    /// Takes one input line (without its `\n`) and returns the statements it completes, in
    /// order, each without its `;` and trimmed of surrounding white space. Empty statements
    /// (`;` alone) are dropped.
    mutating func feed(line: some Sequence<UInt8>) -> [String] {
        var bytes = Array(line)
        bytes.append(0x0A)
        var statements: [String] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            index += 1
            switch state {
            case .normal:
                switch byte {
                case UInt8(ascii: ";"):
                    if hasContent { statements.append(Self.trimmed(pending)) }
                    pending.removeAll(keepingCapacity: true)
                    hasContent = false
                    continue
                case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
                    state = .quoted(closing: byte)
                case UInt8(ascii: "["):
                    state = .quoted(closing: UInt8(ascii: "]"))
                case UInt8(ascii: "{"):
                    state = .brace
                case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
                    state = .lineComment
                    pending.append(byte)
                    pending.append(next)
                    index += 1
                    continue
                case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                    state = .blockComment
                    pending.append(byte)
                    pending.append(next)
                    index += 1
                    continue
                default:
                    break
                }
                if !Self.isSpace(byte) { hasContent = true }
            case .quoted(let closing):
                if byte == closing { state = .normal }
            case .brace:
                if byte == UInt8(ascii: "}") { state = .normal }
            case .lineComment:
                if byte == 0x0A { state = .normal }
            case .blockComment:
                if byte == UInt8(ascii: "*") && next == UInt8(ascii: "/") {
                    state = .normal
                    pending.append(byte)
                    pending.append(next)
                    index += 1
                    continue
                }
            }
            pending.append(byte)
        }
        if !hasContent && state == .normal { pending.removeAll(keepingCapacity: true) }
        return statements
    }

    /// Takes what is left at the end of the input and empties the splitter.
    mutating func finish() -> Remainder {
        defer {
            pending.removeAll()
            hasContent = false
            state = .normal
        }
        guard hasContent || state == .blockComment else { return .nothing }
        let text = Self.trimmed(pending)
        switch state {
        case .normal, .lineComment: return .statement(text)
        case .quoted, .brace, .blockComment: return .incomplete(text)
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    private static func trimmed(_ bytes: [UInt8]) -> String {
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
