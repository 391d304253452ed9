// Random inputs for the function differential tests: SQL values of every class (NULL,
// small and extreme integers, reals, numeric and Unicode text), printf formats, time values
// and modifiers, JSON documents and paths (well-formed and not). Seeded; never 'now',
// 'localtime' or 'utc' (their results depend on the clock and the machine's zone).

import StockpotJSON
import StockpotTestSupport

struct FunctionInputs {
    var random: SeededRandom

    mutating func chance(_ percent: Int) -> Bool { random.chance(percent) }
    mutating func below(_ bound: Int) -> Int { random.below(bound) }
    mutating func pick<T>(_ items: [T]) -> T { random.pick(items) }

    static let texts = [
        "", " ", "a", "abc", "ABC", "Abc", "  padded  ", "x y z", "aaa", "abcabc", "12", "1.5", " 12 ", "12abc", "-7",
        "1e3", "0x1F", "-0", "é", "Élan", "naïve", "日本語", "🙂 smile", "straße", "O'Brien", "a\"b", "%", "%d", "a,b",
        "true", "null", "2020-01-01", "9223372036854775808", "-9223372036854775809", "1e400", "\t x \n",
    ]

    mutating func integer() -> Int64 {
        switch below(10) {
        case 0: return pick([Int64.min, Int64.max, Int64.min + 1, Int64.max - 1, 4_294_967_296, -4_294_967_297])
        case 1: return Int64(bitPattern: random.next())
        case 2: return Int64(below(2_000_000_000)) - 1_000_000_000
        default: return Int64(below(41)) - 20
        }
    }

    mutating func real() -> Double {
        switch below(10) {
        case 0:
            return pick([
                0.0, -0.0, 1e300, -1e300, 1e-300, Double.leastNonzeroMagnitude, 1.7976931348623157e308, 0.1, 0.5, 2.5, -2.5, 1e15, 1e16,
                123456789.123456789,
            ])
        case 1: return Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (chance(50) ? 1 : -1)
        case 2: return Double(below(2_000_000)) / 1000 - 1000
        case 3: return Double(below(100)) + 0.5
        default: return (Double(below(20_000)) - 10_000) / Double(pick([1, 3, 7, 8, 100, 1000, 1_000_000]))
        }
    }

    mutating func text() -> String {
        if chance(20) { return String((0..<(1 + below(6))).map { _ in pick(Array("aé日🙂 bx1'%-.")) }) }
        return pick(Self.texts)
    }

    /// Any value: NULL, an integer, a real or text.
    mutating func value() -> SQLArgument {
        switch below(10) {
        case 0: return .null
        case 1, 2, 3: return .integer(integer())
        case 4, 5, 6: return .real(real())
        default: return .text(text())
        }
    }

    // MARK: printf

    static let conversions = Array("ddiiuffeEgGssqQwcxXo%rpnzyT")

    /// A format with literal text and 1–3 conversions, and arguments for them (sometimes too
    /// few or too many).
    mutating func printfCall() -> [SQLArgument] {
        if chance(15) {
            // Any string of format characters, with small arguments (no width can be huge).
            let alphabet = Array("%%%%-+ #!0,.*l123sdiufeEgGqQwcxXopnrzTy|é")
            let format = String((0..<(1 + below(14))).map { _ in pick(alphabet) })
            let arguments: [SQLArgument] = (0..<below(6)).map { _ in
                chance(50) ? starArgument() : pick([.real(Double(below(200)) / 8 - 10), .text(text()), .null])
            }
            return [.text(format)] + arguments
        }
        var format = chance(50) ? pick(["", "x", "<", "é "]) : ""
        var arguments: [SQLArgument] = []
        for _ in 0..<(1 + below(3)) {
            format += "%"
            for flag in Array("-+ #!0,") where chance(12) { format.append(flag) }
            switch below(6) {
            case 0:
                format += "*"
                arguments.append(starArgument())
            case 1, 2: format += String(below(25))
            default: break
            }
            switch below(6) {
            case 0:
                format += ".*"
                arguments.append(starArgument())
            case 1, 2: format += "." + String(below(chance(10) ? 40 : 8))
            default: break
            }
            if chance(5) { format += pick(["l", "ll"]) }
            let conversion = pick(Self.conversions)
            format.append(conversion)
            switch conversion {
            case "d", "i", "u", "x", "X", "o", "r", "p": arguments.append(chance(70) ? .integer(integer()) : value())
            case "f", "e", "E", "g", "G": arguments.append(chance(70) ? .real(real()) : value())
            case "%", "n": break  // no argument
            default: arguments.append(value())
            }
            if chance(30) { format += pick(["|", " ", "é", "%%", "ab"]) }
        }
        // Arguments that shift could put a huge integer in a `*`: a width past the text limit.
        if !format.contains("*") {
            if chance(10), !arguments.isEmpty { arguments.removeLast() }
            if chance(10) { arguments.append(value()) }
        }
        return [.text(format)] + arguments
    }

    /// A `*` width or precision: small, of any class (text and reals are read as integers).
    mutating func starArgument() -> SQLArgument {
        if chance(80) { return .integer(Int64(below(30)) - 10) }
        return pick([.null, .text("12"), .text("x"), .text("-3"), .real(3.7), .real(-2.5), .integer(-2_147_483_648), .integer(4_294_967_297)])
    }

    // MARK: dates

    mutating func twoDigits(_ range: ClosedRange<Int>) -> String {
        let value = chance(95) ? Int.random(in: range, using: &random) : below(100)
        return value < 10 ? "0\(value)" : "\(value)"
    }

    /// A time value: ISO-8601 text in SQLite's forms (sometimes out of range or malformed),
    /// a Julian day or unix time as a number or text, or NULL.
    mutating func timeValue() -> SQLArgument {
        switch below(12) {
        case 0:
            return chance(90)
                ? .real(Double(below(5_373_485_000)) / 1000)
                : pick([.real(1e308), .real(-1e308), .integer(.max), .integer(.min), .real(5_373_484.5), .real(-0.0)])
        case 1: return .integer(Int64(below(4_000_000_000)) - 1_000_000_000)
        case 2: return .real(Double(below(2_000_000)) + pick([0, 0.25, 0.5, 0.999]))
        case 3:
            return pick([
                .null, .text("now!"), .text("2020-01-01 12:00:00." + String(repeating: "9", count: 400)), .text(""), .text("2020-13-01"),
                .text("2020-1-1"), .text(" 2020-01-01"), .text("12:60"), .text("abc"), .text("2459000.5"), .text("1e3"),
            ])
        default:
            var text = ""
            if below(5) > 0 {
                let year = chance(90) ? 1900 + below(200) : below(10000)
                text = (chance(3) ? "-" : "") + String(repeating: "0", count: 4 - String(year).count) + "\(year)"
                text += "-" + twoDigits(1...12) + "-" + twoDigits(1...31)
                guard chance(70) else { return .text(text + (chance(10) ? " " : "")) }
                text += pick([" ", "T", "  ", "TT"])
            }
            text += twoDigits(0...24) + ":" + twoDigits(0...59)
            if chance(70) {
                text += ":" + twoDigits(0...59)
                if chance(50) { text += "." + String(below(100_000)) }
            }
            if chance(20) { text += pick(["Z", "z", " +05:30", "-01:00", "+14:00", "+15:00", " ", "x"]) }
            return .text(text)
        }
    }

    mutating func modifier() -> String {
        let amount =
            chance(90)
            ? pick(["1", "-1", "+2", "10", "-400", "1.5", "-0.25", "+100000", "1e2", "0"])
            : pick(["1e308", "-1e999", "9223372036854775807", "176545.5", "-14712.9", "5373484", "464269060799", "1e-320"])
        switch below(14) {
        case 0, 1, 2: return "\(amount) \(pick(["day", "days", "hour", "hours", "minute", "minutes", "second", "seconds"]))"
        case 3, 4: return "\(amount) \(pick(["month", "months", "year", "years", "MONTHS", "fortnight"]))"
        case 5: return pick(["start of month", "start of year", "start of day", "START OF MONTH", "start of week"])
        case 6: return "weekday \(pick(["0", "1", "3", "6", "7", "2.5", "-1"]))"
        case 7: return pick(["unixepoch", "auto", "julianday", "UnixEpoch"])
        case 8: return pick(["+01:30", "-00:00:10.5", "+24:00", "12:00", "-23:59:59", "+1:00", "+01:30:00Z"])
        default: return pick(["+1 day", "-1 month", "+1 year", "start of month", "+12 hours", "bogus"])
        }
    }

    static let strftimeCodes = ["%d", "%f", "%H", "%j", "%J", "%m", "%M", "%s", "%S", "%w", "%W", "%Y", "%%", "-", " ", "T", "x", "é"]

    mutating func strftimeFormat() -> String {
        var format = (0..<(1 + below(5))).map { _ in pick(Self.strftimeCodes) }.joined()
        if chance(5) { format += pick(["%", "%Q", "%e"]) }
        return format
    }

    // MARK: JSON

    /// A JSON document's text, with insignificant white space sometimes, numbers in many
    /// spellings, and strings and member names with escapes.
    mutating func jsonText(depth: Int = 3) -> String {
        let space = chance(15) ? pick([" ", "\n ", "\t"]) : ""
        switch depth <= 0 ? below(7) : below(10) {
        case 0: return "null"
        case 1: return pick(["true", "false"])
        case 2: return String(integer())
        case 3: return String(real())
        case 4:
            return "\"" + pick(["", "a", "abc", "é", "日本", "x y", "12", "$", "a\\\"b", "\\u00e9", "\\n", "\\/", "\\\\", "\\ud83d\\ude42"]) + "\""
        case 5: return String(below(100))
        case 6:
            return pick([
                "1.50", "1E5", "-0", "0.0", "1e-7", "-2.5e+3", "123456789012345678901234", "-9223372036854775808",
                "9223372036854775808", "9223372036854775807", "0.1e1", "1e308",
            ])
        case 7, 8:
            let elements = (0..<below(5)).map { _ in jsonText(depth: depth - 1) }
            return "[" + space + elements.joined(separator: "," + space) + space + "]"
        default:
            let keys = ["a", "b", "c", "a b", "é", "x.y", "0", "", "a\\u0062"].shuffled(using: &random).prefix(below(5))
            let members = keys.map { "\"\($0)\"" + space + ":" + space + jsonText(depth: depth - 1) }
            return "{" + space + members.joined(separator: "," + space) + space + "}"
        }
    }

    mutating func jsonDocument() -> SQLArgument {
        switch below(20) {
        case 0: return .null
        case 1: return pick([.text("{"), .text("[1,]"), .text("abc"), .text(""), .text("{\"a\":1}x"), .text("[01]"), .text("{'a':1}")])
        case 2: return pick([.integer(integer()), .real(real())])
        default: return .text(jsonText())
        }
    }

    mutating func jsonPath() -> SQLArgument {
        if chance(3) { return .null }
        if chance(10) {
            return .text(pick(["", "a", "$.", "$[", "$[x]", "$[1", "$a", "$.\"a", "$[#-]", "$[#+1]", "$..a", "$.a[", "$[-1]"]))
        }
        var path = "$"
        for _ in 0..<below(4) {
            switch below(6) {
            case 0, 1: path += "." + pick(["a", "b", "c", "é", "0", "x", "a\\u0062", "ab"])
            case 2: path += "." + pick(["\"a b\"", "\"x.y\"", "\"\"", "\"a\""])
            case 3, 4: path += "[\(below(5))]"
            default: path += pick(["[#-1]", "[#-2]", "[#]", "[#-9]", "[4294967296]"])
            }
        }
        return .text(path)
    }
}
