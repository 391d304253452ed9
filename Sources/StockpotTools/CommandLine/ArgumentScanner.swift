// The hand-written argument parser: takes options, flags and positional arguments out of a
// command line by name, then complains about whatever is left.

/// A command line being taken apart.
///
/// A command takes its options and flags first (`--name value`, `--name=value`, `--flag`),
/// then its positional arguments in order, then calls ``finish()`` so that anything left over
/// is a usage error. Everything after a lone `--` is positional.
public struct ArgumentScanner: Sendable {
    private var tokens: [String]
    private var used: [Bool]
    /// The position of the first `--`, or the count when there is none.
    private let optionEnd: Int

    /// Creates a scanner over the arguments that follow the command name.
    public init(_ tokens: [String]) {
        self.tokens = tokens
        used = Array(repeating: false, count: tokens.count)
        if let end = tokens.firstIndex(of: "--") {
            optionEnd = end
            used[end] = true
        } else {
            optionEnd = tokens.count
        }
    }

    /// Whether `--help` or `-h` appears before any `--`; takes it out.
    public mutating func takeHelpFlag() -> Bool {
        var found = false
        for position in 0..<optionEnd where !used[position] {
            if tokens[position] == "--help" || tokens[position] == "-h" {
                used[position] = true
                found = true
            }
        }
        return found
    }

    /// Whether the flag `name` (`--verbose`) was given; takes it out.
    ///
    /// - Throws: when the flag is given a value (`--verbose=yes`) or more than once.
    public mutating func takeFlag(_ name: String) throws(UsageError) -> Bool {
        var found = false
        for position in 0..<optionEnd where !used[position] {
            let token = tokens[position]
            if token.hasPrefix(name + "=") {
                throw UsageError("The flag '\(name)' takes no value.")
            }
            guard token == name else { continue }
            if found { throw UsageError("The flag '\(name)' is given more than once.") }
            used[position] = true
            found = true
        }
        return found
    }

    /// The value of the option `name` (`--durability none` or `--durability=none`), or `nil`
    /// when it is absent; takes it out.
    ///
    /// - Throws: when the value is missing or the option is given more than once.
    public mutating func takeOption(_ name: String) throws(UsageError) -> String? {
        var value: String? = nil
        var position = 0
        while position < optionEnd {
            defer { position += 1 }
            guard !used[position] else { continue }
            let token = tokens[position]
            let found: String
            if token == name {
                guard position + 1 < optionEnd, !used[position + 1] else {
                    throw UsageError("The option '\(name)' needs a value.")
                }
                used[position] = true
                used[position + 1] = true
                found = tokens[position + 1]
                position += 1
            } else if token.hasPrefix(name + "=") {
                used[position] = true
                found = String(token.dropFirst(name.count + 1))
            } else {
                continue
            }
            if value != nil { throw UsageError("The option '\(name)' is given more than once.") }
            value = found
        }
        return value
    }

    /// Every value of the option `name`, which may be given any number of times
    /// (`--index a:string --index b:integer`), in order; takes them out.
    ///
    /// - Throws: when an occurrence has no value.
    public mutating func takeRepeatedOption(_ name: String) throws(UsageError) -> [String] {
        var values: [String] = []
        var position = 0
        while position < optionEnd {
            defer { position += 1 }
            guard !used[position] else { continue }
            let token = tokens[position]
            if token == name {
                guard position + 1 < optionEnd, !used[position + 1] else {
                    throw UsageError("The option '\(name)' needs a value.")
                }
                used[position] = true
                used[position + 1] = true
                values.append(tokens[position + 1])
                position += 1
            } else if token.hasPrefix(name + "=") {
                used[position] = true
                values.append(String(token.dropFirst(name.count + 1)))
            }
        }
        return values
    }

    /// The value of the option `name` as an integer within `range`, or `nil` when absent.
    ///
    /// - Throws: when the value is not a decimal integer in `range`.
    public mutating func takeInteger(
        _ name: String, in range: ClosedRange<Int>
    ) throws(UsageError) -> Int? {
        guard let text = try takeOption(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "The option '\(name)' needs an integer from \(range.lowerBound) to \(range.upperBound), not '\(text)'.")
        }
        return value
    }

    /// The next positional argument, called `name` in messages; takes it out.
    ///
    /// - Throws: when there is none left.
    public mutating func takePositional(_ name: String) throws(UsageError) -> String {
        guard let value = takeOptionalPositional() else {
            throw UsageError("Missing the argument \(name).")
        }
        return value
    }

    /// The next positional argument, or `nil` when there is none left; takes it out.
    public mutating func takeOptionalPositional() -> String? {
        for position in tokens.indices where !used[position] {
            let token = tokens[position]
            if position < optionEnd, token.hasPrefix("-"), token != "-" { continue }
            used[position] = true
            return token
        }
        return nil
    }

    /// Checks that every argument was taken.
    ///
    /// - Throws: naming the first unknown option or unexpected argument.
    public func finish() throws(UsageError) {
        for position in tokens.indices where !used[position] {
            let token = tokens[position]
            if position < optionEnd, token.hasPrefix("-"), token != "-" {
                throw UsageError("Unknown option '\(token)'.")
            }
            throw UsageError("Unexpected argument '\(token)'.")
        }
    }
}
