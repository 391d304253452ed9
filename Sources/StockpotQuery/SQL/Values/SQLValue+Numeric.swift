// How SQLite reads a value as a number or as text: the numeric type arithmetic uses, the real
// and integer values functions use, numeric affinity, and the text of a number.

extension SQLValue {
    /// The operand arithmetic sees (SQLite's `numericType`): numbers as they are, NULL as NULL,
    /// text as the integer or real it starts with (`'12abc'` 12, `'1.5x'` 1.5, `'abc'` 0,
    /// `'9223372036854775808'` a real).
    @inline(__always)
    var arithmeticOperand: SQLValue {
        guard case .text(let text) = self else { return self }
        return text.withSQLBytes { bytes in
            let (real, form) = SQLNumberText.real(bytes)
            switch form {
            case .none:
                let (integer, integerForm) = SQLNumberText.integer(bytes)
                return integerForm == .exact || integerForm == .prefix ? .integer(integer) : .real(real)
            case .prefix, .real:
                return .real(real)
            case .integer:
                let (integer, integerForm) = SQLNumberText.integer(bytes)
                return integerForm == .exact ? .integer(integer) : .real(real)
            }
        }
    }

    /// SQLite's real value of any value (what its value_double gives): NULL 0.0, text the real its
    /// longest numeric prefix spells (0.0 when none).
    @inline(__always)
    package var realValue: Double {
        switch self {
        case .null: 0
        case .integer(let integer): Double(integer)
        case .real(let real): real
        case .text(let text): text.withSQLBytes { SQLNumberText.real($0).value }
        }
    }

    /// SQLite's integer value of any value (what its value_int64 gives): NULL 0, a real truncated
    /// and clamped, text its leading integer digits (`'1e3'` 1, `'abc'` 0).
    @inline(__always)
    package var integerValue: Int64 {
        switch self {
        case .null: 0
        case .integer(let integer): integer
        case .real(let real): Self.clampedInteger(real)
        case .text(let text): text.withSQLBytes { SQLNumberText.integer($0).value }
        }
    }

    /// A real truncated toward zero and clamped to Int64 (SQLite's `doubleToInt64`).
    static func clampedInteger(_ real: Double) -> Int64 {
        if real <= -9_223_372_036_854_775_808.0 { return .min }
        if real >= 9_223_372_036_854_775_807.0 { return .max }
        if real.isNaN { return .min }
        return Int64(real)
    }

    /// The value with numeric affinity applied: text that is wholly a number (spaces aside)
    /// becomes that integer or real (`' 12 '` 12, `'1e3'` 1000.0); anything else is unchanged.
    @inline(__always)
    package var withNumericAffinity: SQLValue {
        guard case .text(let text) = self else { return self }
        return text.withSQLBytes { bytes in
            let (real, form) = SQLNumberText.real(bytes)
            switch form {
            case .none, .prefix:
                return self
            case .real:
                return .real(real)
            case .integer:
                let (integer, integerForm) = SQLNumberText.integer(bytes)
                return integerForm == .exact ? .integer(integer) : .real(real)
            }
        }
    }

    /// The value with text affinity applied: numbers become their text; NULL and text stay.
    @inline(__always)
    package var withTextAffinity: SQLValue {
        switch self {
        case .null, .text: self
        case .integer, .real: .text(textValue!)
        }
    }

    /// The value as text (what its value_text gives): integers in decimal, reals as SQLite prints
    /// them (`1.0`, `1.0e+20`, `0.1`), nil for NULL.
    package var textValue: String? {
        switch self {
        case .null: nil
        case .integer(let integer): String(integer)
        case .real(let real): SQLRealFormat.text(of: real)
        case .text(let text): text
        }
    }
}
