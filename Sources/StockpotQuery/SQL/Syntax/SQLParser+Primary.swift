// Smart SQL's primary expressions: literals, `?`, `{soup:path}` and its qualified forms, names,
// function calls, CASE and parentheses; and the refusals of what Smart SQL leaves out (CAST,
// EXISTS, scalar subqueries, row values, window functions).

extension SQLParser {
    /// A leaf node (height 1) at the token's start.
    func leaf(_ kind: SQLExpression.Kind, _ token: SQLToken) -> Parsed {
        Parsed(expression: SQLExpression(kind, at: token.start), height: 1)
    }

    /// primary := literal | ? | {soup:path} | name.{soup:path} | {soup}.{soup:path}
    ///          | {soup} (before MATCH) | name | function | CASE ... END | ( expression )
    mutating func parsePrimary() throws(SQLSyntaxError) -> Parsed {
        let token = current
        switch token.kind {
        case .integer, .real, .hexInteger, .string, .placeholder, .soupPath:
            return parseLeaf(token)
        case .soup:
            return try parseSoupInExpression(token)
        case .identifier, .quotedIdentifier:
            return try parseName(token)
        case .keyword(let keyword):
            return try parseKeywordPrimary(keyword, token)
        case .leftParenthesis:
            return try parseParenthesized()
        default:
            throw failure(expected: "an expression")
        }
    }

    /// A literal, `?` or `{soup:path}`, at the token.
    mutating func parseLeaf(_ token: SQLToken) -> Parsed {
        advance()
        switch token.kind {
        case .integer:
            return leaf(.literal(decimalLiteral(token)), token)
        case .real:
            return leaf(.literal(.real(Double(text(of: token)) ?? .nan)), token)
        case .hexInteger:
            var value: UInt64 = 0
            for byte in bytes[(token.start + 2)..<token.end] {
                value = value &* 16 &+ UInt64(Self.hexValue(byte))
            }
            return leaf(.literal(.integer(Int64(bitPattern: value))), token)
        case .string:
            return leaf(.literal(.text(unquote(token))), token)
        case .placeholder:
            placeholderCount += 1
            return leaf(.parameter(index: placeholderCount - 1), token)
        default:
            return leaf(.path(pathReference(token, qualifier: nil, position: token.start)), token)
        }
    }

    /// ( expression ), at the parenthesis; the expression keeps its own node and position.
    mutating func parseParenthesized() throws(SQLSyntaxError) -> Parsed {
        advance()
        if at(.select) {
            throw unsupported("a scalar subquery", "; use x IN (SELECT ...)")
        }
        let inner = try parseExpression()
        if current.kind == .comma { throw unsupported("a row value") }
        try expect(.rightParenthesis, "an operator or )")
        return inner
    }

    /// `{soup}` in an expression: `{soup}.{soup:path}`, or `{soup}` right before MATCH (made a
    /// name here; the MATCH turns it into its target).
    mutating func parseSoupInExpression(_ token: SQLToken) throws(SQLSyntaxError) -> Parsed {
        if peek(1).kind == .dot {
            return try parseQualifiedPath(qualifier: soupName(token), token)
        }
        let next = peek(1)
        if next.kind == .keyword(.match) || (next.kind == .keyword(.not) && peek(2).kind == .keyword(.match)) {
            advance()
            return leaf(.name(soupName(token)), token)
        }
        throw failure(
            expected: nil,
            detail: "a soup can stand only in FROM, before MATCH or before .{soup:path}; "
                + "name a value with {soup:path}")
    }

    /// `qualifier.{soup:path}`, at the qualifier token.
    mutating func parseQualifiedPath(qualifier: String, _ token: SQLToken) throws(SQLSyntaxError) -> Parsed {
        advance()
        advance()
        let path = current
        switch path.kind {
        case .soupPath:
            advance()
            return leaf(.path(pathReference(path, qualifier: qualifier, position: token.start)), token)
        case .star:
            throw unsupported("x.*", "; name each value with {soup:path} (the whole entry is {soup:_soup})")
        default:
            throw failure(
                expected: "{soup:path} after the dot",
                detail: "expected {soup:path} after the dot (write \(qualifier).{soup:path}; columns are named by paths)")
        }
    }

    /// A name: a function call before `(`, a qualified path before `.`, TRUE and FALSE, or a
    /// bare name (a result alias).
    mutating func parseName(_ token: SQLToken) throws(SQLSyntaxError) -> Parsed {
        let next = peek(1)
        let name = token.kind == .identifier ? text(of: token) : unquote(token)
        if next.kind == .leftParenthesis { return try parseFunction(name: name, token) }
        if next.kind == .dot { return try parseQualifiedPath(qualifier: name, token) }
        advance()
        if token.kind == .identifier {
            switch name.utf8.count == 4 || name.utf8.count == 5 ? name.uppercased() : "" {
            case "TRUE":
                booleanLiterals.insert(token.start)
                return leaf(.literal(.integer(1)), token)
            case "FALSE":
                booleanLiterals.insert(token.start)
                return leaf(.literal(.integer(0)), token)
            default:
                break
            }
        }
        return leaf(.name(name), token)
    }

    /// A keyword where an expression starts: NULL, CASE, a keyword-named function (`like(...)`),
    /// or something Smart SQL refuses.
    mutating func parseKeywordPrimary(_ keyword: SQLKeyword, _ token: SQLToken) throws(SQLSyntaxError) -> Parsed {
        switch keyword {
        case .null:
            advance()
            return leaf(.literal(.null), token)
        case .case:
            return try parseCase(token)
        case .select:
            throw unsupported("a scalar subquery", "; use x IN (SELECT ...)")
        case .cast:
            throw unsupported("CAST")
        case .exists:
            throw unsupported("EXISTS", "; use x IN (SELECT ...)")
        default:
            if keyword.canBeName && peek(1).kind == .leftParenthesis {
                return try parseFunction(name: text(of: token), token)
            }
            throw failure(expected: "an expression")
        }
    }

    /// function := name "(" [ "*" | [DISTINCT | ALL] expression ("," expression)* ] ")",
    /// at the name.
    mutating func parseFunction(name: String, _ token: SQLToken) throws(SQLSyntaxError) -> Parsed {
        advance()
        advance()
        var arguments: [SQLExpression] = []
        var height = 0
        var distinct = false
        var star = false
        if accept(.star) {
            star = true
            try expect(.rightParenthesis, ") after *")
        } else if !accept(.rightParenthesis) {
            if accept(.distinct) {
                distinct = true
            } else {
                _ = accept(.all)
            }
            repeat {
                let argument = try parseExpression()
                height = max(height, argument.height)
                arguments.append(argument.expression)
            } while accept(.comma)
            try expect(.rightParenthesis, "a comma or )")
        }
        if let word = currentWord(), word == "FILTER" || word == "OVER",
            peek(1).kind == .leftParenthesis || word == "OVER" && peek(1).kind == .identifier
        {
            throw unsupported(word == "OVER" ? "a window function" : "FILTER")
        }
        let call = SQLExpression(
            .function(name: name, arguments: arguments, distinct: distinct, star: star), at: token.start)
        guard height < Self.maximumExpressionHeight else { throw tooDeep() }
        return Parsed(expression: call, height: height + 1)
    }

    /// CASE [base] WHEN condition THEN result ... [ELSE otherwise] END, at CASE.
    mutating func parseCase(_ token: SQLToken) throws(SQLSyntaxError) -> Parsed {
        advance()
        var height = 0
        func taller(_ parsed: Parsed) -> SQLExpression {
            height = max(height, parsed.height)
            return parsed.expression
        }
        var base: SQLExpression?
        switch current.kind {
        case .keyword(.when): break
        case .keyword(.end), .keyword(.else), .keyword(.then): throw failure(expected: "WHEN")
        default: base = taller(try parseExpression())
        }
        var branches: [SQLCaseBranch] = []
        guard at(.when) else { throw failure(expected: "WHEN") }
        while accept(.when) {
            let condition = taller(try parseExpression())
            try expect(.then, "THEN")
            branches.append(SQLCaseBranch(condition: condition, result: taller(try parseExpression())))
        }
        var otherwise: SQLExpression?
        if accept(.else) { otherwise = taller(try parseExpression()) }
        try expect(SQLKeyword.end, otherwise == nil ? "WHEN, ELSE or END" : "END")
        guard height < Self.maximumExpressionHeight else { throw tooDeep() }
        return Parsed(
            expression: SQLExpression(.caseWhen(base: base, branches: branches, otherwise: otherwise), at: token.start),
            height: height + 1)
    }
}
