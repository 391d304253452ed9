// Test helpers for the full-text tests: a seeded random generator and random text made of the
// character classes the tokenizer must get right.

import StockpotTestSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Random text mixing the character classes that matter to the tokenizer.
enum FullTextSamples {
    static let ascii = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    static let punctuation = Array(" ,.;:!?'\"()[]{}<>-_/\\@#$%^&*+=~`|\t\n\r")
    static let latin = Array("éÉèÈêëÅåÀàÁáÂâÃãÄäßẞØøœŒÆæİıÇçÑñÜüÿŸŁłđĐǖǕệẤǰĳŉſÞþðȺⱥǅǈ")
    static let greek = Array("αβγδεζηθικλμνξοπρσςτυφχψωΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩάέήίόύώΆΈΊϐϑϕϰϱϵ")
    static let cyrillic = Array("абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯіїєґ")
    static let cjk = Array("中文字符日本語漢字カタカナひらがなｶﾀｶﾅ한국어가나다가〇々ー")
    static let emoji = Array("😀👍🏽👨‍👩‍👧🇫🇷❤️✨🔥")
    static let digits = Array("٠١٢٣٤٥٦٧٨٩۰۱۲०१२३४५৫੬૭୮௯౧೨൩๓໔༥၆០᠑０１２¹²³½¼①⑳Ⅻⅻ")
    static let apostrophesAndHyphens = Array("'’ʼ‘`´-‐‑‒–—―\u{AD}\u{200D}\u{200C}\u{A0}\u{2009}\u{3000}")
    static let privateUse: [Character] = [
        "\u{E000}", "\u{E123}", "\u{F8FF}", "\u{F0000}", "\u{FFFFD}", "\u{100000}", "\u{10FFFD}",
    ]
    /// Case pairs and letters newer than FTS5's tables, unassigned code points, noncharacters.
    static let newer: [Character] = [
        0x13A0, 0xAB70, 0x1C90, 0x10D0, 0xA7C0, 0x104B0, 0x1E900, 0x1E922, 0x10400, 0x10428, 0x19B0,
        0x1CF2, 0x2B740, 0x378, 0xFDD0, 0xFFFE, 0xFFFF, 0x1FFFE, 0x1F000,
    ].map { Character(Unicode.Scalar(UInt32($0))!) }

    /// A combining mark: mostly U+0300...U+036F (some are FTS5 diacritics), some from other scripts.
    static func combiningMark(_ random: inout SeededRandom) -> Character {
        let others: [UInt32] = [0x0483, 0x05B0, 0x0610, 0x093C, 0x0E31, 0x1AB0, 0x1DC0, 0x20D0, 0xFE20]
        let value =
            Int.random(in: 0..<4, using: &random) == 0
            ? others.randomElement(using: &random)! : UInt32.random(in: 0x300...0x36F, using: &random)
        return Character(Unicode.Scalar(value)!)
    }

    /// Any Unicode scalar value.
    static func anyScalar(_ random: inout SeededRandom) -> Character {
        while true {
            let value =
                Int.random(in: 0..<4, using: &random) == 0
                ? UInt32.random(in: 0...0x10FFFF, using: &random)
                : UInt32.random(in: 0x80...0x3_0000, using: &random)
            if let scalar = Unicode.Scalar(value) { return Character(scalar) }
        }
    }

    /// A random string of up to `maxLength` pieces.
    static func text(_ random: inout SeededRandom, maxLength: Int = 40) -> String {
        var result = ""
        // Each string leans on a few classes so that runs of one script form real tokens.
        let classes = (0..<3).map { _ in Int.random(in: 0..<13, using: &random) }
        for _ in 0..<Int.random(in: 0...maxLength, using: &random) {
            let pick =
                Int.random(in: 0..<4, using: &random) == 0
                ? Int.random(in: 0..<13, using: &random) : classes.randomElement(using: &random)!
            switch pick {
            case 0, 1: result.unicodeScalars.append(ascii.randomElement(using: &random)!.unicodeScalars.first!)
            case 2: result.append(punctuation.randomElement(using: &random)!)
            case 3: result.append(latin.randomElement(using: &random)!)
            case 4: result.append(greek.randomElement(using: &random)!)
            case 5: result.append(cyrillic.randomElement(using: &random)!)
            case 6: result.append(cjk.randomElement(using: &random)!)
            case 7: result.append(emoji.randomElement(using: &random)!)
            case 8: result.append(digits.randomElement(using: &random)!)
            case 9: result.append(apostrophesAndHyphens.randomElement(using: &random)!)
            case 10:
                result.append(
                    Bool.random(using: &random)
                        ? privateUse.randomElement(using: &random)! : newer.randomElement(using: &random)!)
            case 11: result.unicodeScalars.append(combiningMark(&random).unicodeScalars.first!)
            default: result.unicodeScalars.append(anyScalar(&random).unicodeScalars.first!)
            }
        }
        return result
    }

    /// Random bytes that are mostly UTF-8 pieces, with stray, truncated and overlong sequences.
    static func bytes(_ random: inout SeededRandom) -> [UInt8] {
        var result: [UInt8] = []
        for _ in 0..<Int.random(in: 0...30, using: &random) {
            switch Int.random(in: 0..<6, using: &random) {
            case 0: result += Array(text(&random, maxLength: 3).utf8)
            case 1: result.append(UInt8.random(in: 0x80...0xFF, using: &random))
            case 2:  // a valid sequence cut short
                let piece = Array(String(anyScalar(&random)).utf8)
                result += piece.prefix(Int.random(in: 1...piece.count, using: &random))
            case 3:  // a lead byte and a random number of continuation bytes
                result.append(UInt8.random(in: 0xC0...0xFF, using: &random))
                for _ in 0..<Int.random(in: 0...7, using: &random) {
                    result.append(UInt8.random(in: 0x80...0xBF, using: &random))
                }
            case 4: result.append(UInt8.random(in: 0...0x7F, using: &random))
            default: result += Array("ab".utf8)
            }
        }
        return result
    }
}
