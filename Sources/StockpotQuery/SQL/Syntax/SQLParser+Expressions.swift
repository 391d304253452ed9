// Smart SQL's operators with SQLite's precedence and grouping. Operators are kept on an
// explicit stack (operator precedence parsing), so a long chain `a OR b OR ...` or `- - - 1`
// costs no recursion; only parentheses and the operands of BETWEEN, IS, LIKE, IN and MATCH
// descend. SQLite's levels, loosest first (parse.y): OR; AND; NOT (prefix);
// = == != <> IS IN LIKE GLOB MATCH BETWEEN ISNULL NOTNULL; < <= > >=; ESCAPE; bitwise; + -;
// * / %; || -> ->>; COLLATE; unary - + ~.

import StockpotCore

/// An expression with the height of its tree (a leaf is 1), checked against SQLite's limit.
struct Parsed {
    var expression: SQLExpression
    var height: Int
}

/// SQLite's binding levels, loosest first.
enum SQLLevel {
    static let or = 1, and = 2, not = 3, equality = 4, comparison = 5, additive = 8
    static let multiplicative = 9, concatenation = 10, unary = 12
}

extension SQLParser {
    /// An operator waiting on the stack for its right operand to be complete.
    struct PendingOperator {
        enum Operator {
            case binary(SQLBinaryOperator)
            case prefix(SQLUnaryOperator)
        }
        var op: Operator
        var level: Int
        /// Where a prefix operator's token starts.
        var position: Int
    }

    /// A full expression.
    mutating func parseExpression() throws(SQLSyntaxError) -> Parsed {
        try parseOperand(above: SQLLevel.or)
    }

    /// An expression that ends at the first operator looser than `minimumLevel` — unless a
    /// prefix NOT inside it is still open, which, as in SQLite's grammar, takes every operator
    /// tighter than NOT into its own operand (`x IS NOT NOT 1 = 1` is `x IS NOT (NOT (1 = 1))`).
    mutating func parseOperand(above minimumLevel: Int) throws(SQLSyntaxError) -> Parsed {
        try enterNesting()
        defer { nesting -= 1 }
        var stack = OperatorStack()
        repeat {
            try readPrefixes(into: &stack)
            stack.operands.append(try parsePrimary())
        } while try readInfix(into: &stack, above: minimumLevel)
        try reduce(&stack, downTo: 0)
        return stack.operands[0]
    }

    /// Operands and the operators waiting for their right operand.
    struct OperatorStack {
        var operands: [Parsed] = []
        var operators: [PendingOperator] = []
    }

    /// Pushes the prefix operators at the current token.
    mutating func readPrefixes(into stack: inout OperatorStack) throws(SQLSyntaxError) {
        while true {
            let token = current
            let op: SQLUnaryOperator
            switch token.kind {
            case .minus: op = .negate
            case .plus: op = .plus
            case .keyword(.not): op = .not
            case .bitwise: throw unsupported("bitwise operators", plural: true)
            default: return
            }
            stack.operators.append(
                PendingOperator(
                    op: .prefix(op), level: op == .not ? SQLLevel.not : SQLLevel.unary, position: token.start))
            advance()
        }
    }

    /// Reads the operators after an operand: those that complete in place (IS, IN, LIKE, ...)
    /// are applied; returns true after pushing a binary operator (an operand must follow),
    /// false at the end of the expression.
    mutating func readInfix(into stack: inout OperatorStack, above minimumLevel: Int) throws(SQLSyntaxError) -> Bool {
        while true {
            let token = current
            guard let level = infixLevel(token) else { return false }
            try reduce(&stack, downTo: level)
            if stack.operators.isEmpty && level < minimumLevel { return false }
            if let binary = binaryOperator(token) {
                advance()
                stack.operators.append(PendingOperator(op: .binary(binary), level: level, position: token.start))
                return true
            }
            let left = stack.operands.removeLast()
            stack.operands.append(try parsePostfix(left))
        }
    }

    /// Applies the stacked operators whose level is at least `level`.
    mutating func reduce(_ stack: inout OperatorStack, downTo level: Int) throws(SQLSyntaxError) {
        while let top = stack.operators.last, top.level >= level {
            stack.operators.removeLast()
            let right = stack.operands.removeLast()
            switch top.op {
            case .prefix(let op):
                stack.operands.append(try prefix(op, right, at: top.position))
            case .binary(let op):
                let left = stack.operands.removeLast()
                stack.operands.append(try node(.binary(op, left.expression, right.expression), at: left.expression.position, left, right))
            }
        }
    }

    /// A prefix operator applied; `-` before the literal 9223372036854775808 is Int64.min, as
    /// in SQLite (the literal alone is too large for an integer and reads as a real).
    mutating func prefix(_ op: SQLUnaryOperator, _ operand: Parsed, at position: Int) throws(SQLSyntaxError) -> Parsed {
        if op == .negate, case .literal(.real) = operand.expression.kind,
            int64MinMagnitudes.contains(operand.expression.position)
        {
            return Parsed(expression: SQLExpression(.literal(.integer(.min)), at: position), height: 1)
        }
        return try node(.unary(op, operand.expression), at: position, operand)
    }

    /// The level of the operator at `token` when it is one in infix position.
    mutating func infixLevel(_ token: SQLToken) -> Int? {
        switch token.kind {
        case .keyword(.or): SQLLevel.or
        case .keyword(.and): SQLLevel.and
        case .equal, .notEqual, .keyword(.is), .keyword(.in), .keyword(.like), .keyword(.glob),
            .keyword(.regexp), .keyword(.match), .keyword(.between), .keyword(.isnull),
            .keyword(.notnull), .keyword(.not):
            SQLLevel.equality
        case .less, .lessOrEqual, .greater, .greaterOrEqual: SQLLevel.comparison
        case .bitwise: 7
        case .plus, .minus: SQLLevel.additive
        case .star, .slash, .percent: SQLLevel.multiplicative
        case .concatenate, .jsonArrow: SQLLevel.concatenation
        case .keyword(.collate): 11
        default: nil
        }
    }

    /// The binary operator at `token`, or nil for an operator with its own grammar.
    func binaryOperator(_ token: SQLToken) -> SQLBinaryOperator? {
        switch token.kind {
        case .keyword(.or): .or
        case .keyword(.and): .and
        case .equal: .equal
        case .notEqual: .notEqual
        case .less: .less
        case .lessOrEqual: .lessOrEqual
        case .greater: .greater
        case .greaterOrEqual: .greaterOrEqual
        case .plus: .add
        case .minus: .subtract
        case .star: .multiply
        case .slash: .divide
        case .percent: .remainder
        case .concatenate: .concatenate
        default: nil
        }
    }

    /// The operators that complete in place after their left operand: IS [NOT] [DISTINCT
    /// FROM], ISNULL, NOTNULL, [NOT] NULL, [NOT] IN, [NOT] LIKE [ESCAPE], [NOT] BETWEEN,
    /// [NOT] MATCH; and the unsupported ones (bitwise, COLLATE, GLOB, REGEXP, -> ->>).
    mutating func parsePostfix(_ left: Parsed) throws(SQLSyntaxError) -> Parsed {
        let token = current
        let start = left.expression.position
        switch token.kind {
        case .bitwise: throw unsupported("bitwise operators", plural: true)
        case .jsonArrow: throw unsupported("the -> and ->> operators", plural: true, "; name a value with {soup:path}")
        case .keyword(.collate): throw unsupported("COLLATE")
        case .keyword(.glob), .keyword(.regexp): throw unsupported(text(of: token).uppercased(), "; use LIKE")
        case .keyword(.isnull):
            advance()
            return try node(.isNull(left.expression, negated: false), at: start, left)
        case .keyword(.notnull):
            advance()
            return try node(.isNull(left.expression, negated: true), at: start, left)
        case .keyword(.is):
            advance()
            return try parseIs(left)
        case .keyword(.not):
            advance()
            let next = current
            switch next.kind {
            case .keyword(.null):
                advance()
                return try node(.isNull(left.expression, negated: true), at: start, left)
            case .keyword(.in), .keyword(.like), .keyword(.between), .keyword(.match):
                return try parseNegatable(left, negated: true)
            case .keyword(.glob), .keyword(.regexp):
                throw unsupported(text(of: next).uppercased(), "; use LIKE")
            default:
                throw failure(expected: "IN, LIKE, BETWEEN, MATCH or NULL after NOT")
            }
        default:
            return try parseNegatable(left, negated: false)
        }
    }

    /// x IS [NOT] y, x IS [NOT] DISTINCT FROM y. With NULL on the right it is IS [NOT] NULL;
    /// with TRUE or FALSE written on the right it tests truth, as in SQLite 3.23+ (`2 IS TRUE`
    /// is 1, `NULL IS NOT FALSE` is 1), built from NOT: `x IS TRUE` is `(NOT NOT x) IS 1`,
    /// `x IS FALSE` is `(NOT x) IS 1`. SQLite reads `y IN ()` as FALSE and `y NOT IN ()` as
    /// TRUE there too (`5 IS (1 NOT IN ())` is 1).
    mutating func parseIs(_ left: Parsed) throws(SQLSyntaxError) -> Parsed {
        let start = left.expression.position
        var negated = accept(.not)
        if accept(.distinct) {
            try expect(.from, "FROM after IS DISTINCT")
            negated.toggle()
        }
        let right = try parseOperand(above: SQLLevel.comparison)
        var truthValue: Bool?
        switch right.expression.kind {
        case .literal(.integer(let value)) where booleanLiterals.contains(right.expression.position):
            truthValue = value == 1
        case .inList(_, let items, let negatedIn) where items.isEmpty:
            // SQLite parses `y IN ()` as the constant FALSE and `y NOT IN ()` as TRUE.
            truthValue = negatedIn
        default:
            break
        }
        switch right.expression.kind {
        case .literal(.null):
            return try node(.isNull(left.expression, negated: negated), at: start, left, right)
        case _ where truthValue != nil:
            let value = truthValue == true ? 1 : 0
            var truth = try node(.unary(.not, left.expression), at: start, left)
            if value == 1 { truth = try node(.unary(.not, truth.expression), at: start, truth) }
            let one = Parsed(expression: SQLExpression(.literal(.integer(1)), at: right.expression.position), height: 1)
            return try node(.binary(negated ? .isNot : .isOperator, truth.expression, one.expression), at: start, truth, one)
        default:
            return try node(.binary(negated ? .isNot : .isOperator, left.expression, right.expression), at: start, left, right)
        }
    }

    /// [NOT] IN (...), [NOT] LIKE p [ESCAPE e], [NOT] BETWEEN a AND b, [NOT] MATCH e, at the
    /// keyword. `x NOT MATCH e` is `NOT (x MATCH e)`.
    mutating func parseNegatable(_ left: Parsed, negated: Bool) throws(SQLSyntaxError) -> Parsed {
        let token = current
        let start = left.expression.position
        advance()
        switch token.kind {
        case .keyword(.in):
            return try parseIn(left, negated: negated)
        case .keyword(.like):
            let pattern = try parseOperand(above: SQLLevel.comparison)
            var escape: Parsed?
            if accept(.escape) { escape = try parseOperand(above: SQLLevel.comparison) }
            return try node(
                .like(left.expression, pattern: pattern.expression, escape: escape?.expression, negated: negated),
                at: start, left, pattern, escape)
        case .keyword(.between):
            // The low bound stops at AND (SQLite's BETWEEN binds its AND); the high bound at
            // the first operator as loose as BETWEEN.
            let low = try parseOperand(above: SQLLevel.equality)
            try expect(.and, "AND after the BETWEEN low bound")
            let high = try parseOperand(above: SQLLevel.comparison)
            return try node(
                .between(left.expression, low: low.expression, high: high.expression, negated: negated),
                at: start, left, low, high)
        case .keyword(.match):
            let target: SQLMatchTarget
            switch left.expression.kind {
            case .path(let reference): target = .path(reference)
            case .name(let name): target = .soup(qualifier: name, position: start)
            default:
                throw failure(
                    at: token, expected: nil,
                    detail: "MATCH searches {soup}, an alias or {soup:path}; put one of them on its left")
            }
            let pattern = try parseOperand(above: SQLLevel.comparison)
            let match = try node(.match(target, pattern.expression), at: start, left, pattern)
            return negated ? try node(.unary(.not, match.expression), at: start, match) : match
        default:
            throw failure(at: token, expected: "an operator")
        }
    }

    /// ( ) | ( e, ... ) | ( SELECT ... ), after IN.
    mutating func parseIn(_ left: Parsed, negated: Bool) throws(SQLSyntaxError) -> Parsed {
        let start = left.expression.position
        try expect(.leftParenthesis, "( after IN")
        if at(.select) {
            let (select, height, follow) = try parseSelect()
            try expect(.rightParenthesis, Self.either(follow, ")"))
            return try node(
                .inSelect(left.expression, select, negated: negated), at: start, left,
                Parsed(expression: left.expression, height: height))
        }
        var items: [SQLExpression] = []
        var height = left.height
        if !accept(.rightParenthesis) {
            repeat {
                let item = try parseExpression()
                height = max(height, item.height)
                items.append(item.expression)
            } while accept(.comma)
            try expect(.rightParenthesis, "a comma or )")
        }
        return try node(
            .inList(left.expression, items, negated: negated), at: start,
            Parsed(expression: left.expression, height: height))
    }

    /// A node over `children`, one higher than the tallest.
    mutating func node(
        _ kind: SQLExpression.Kind, at position: Int, _ children: Parsed?...
    ) throws(SQLSyntaxError) -> Parsed {
        var height = 0
        for child in children { if let child { height = max(height, child.height) } }
        guard height < Self.maximumExpressionHeight else { throw tooDeep() }
        return Parsed(expression: SQLExpression(kind, at: position), height: height + 1)
    }

    /// Counts one more level of nesting; throws past `maximumNesting`, when the parse has
    /// used `stackBudget` bytes of stack (debug builds use far more stack per level), or when
    /// fewer than `stackHeadroom` bytes of the thread's stack are left (a thread that had used
    /// much of its stack before the parse began).
    mutating func enterNesting() throws(SQLSyntaxError) {
        nesting += 1
        let here = ThreadStack.currentAddress()
        if nesting >= 8, stackFloor == nil {
            stackFloor = ThreadStack.lowestAddress().map { $0 + UInt(Self.stackHeadroom) } ?? 0
        }
        guard nesting <= Self.maximumNesting,
            abs(Int(bitPattern: stackBase) - Int(bitPattern: here)) < Self.stackBudget, here > stackFloor ?? 0
        else { throw tooDeep() }
    }

    /// The error for input nested deeper than the limits.
    mutating func tooDeep() -> SQLSyntaxError {
        failure(
            expected: nil,
            detail: "the expression is nested too deeply (at most \(Self.maximumNesting) levels of "
                + "parentheses and \(Self.maximumExpressionHeight) of operators); simplify it")
    }
}
