// One libpq connection: connect, run a statement with text parameters, read its rows. Every
// libpq call and every pointer into libpq's memory stays in this file and PGResult.swift.

import CLibPQ
import Glibc

/// A connection to a PostgreSQL server through libpq.
///
/// Not thread-safe: one caller at a time (a sync holds its connection for its whole run).
package final class PGConnection: @unchecked Sendable {  // used by one sync at a time, never shared
    private let handle: OpaquePointer
    /// The connection string without its password, for messages.
    package let redactedServer: String

    /// Connects to the server `connectionString` names (a libpq URI or key=value string).
    ///
    /// - Throws: `bad_connection_string`, `connection_failed`, `permission_denied`.
    package init(_ connectionString: String, applicationName: String = "stockpot-sync") throws(SyncError) {
        redactedServer = ConnectionString.redacted(connectionString)
        // Our defaults first, the caller's string last: expand_dbname applies what it names
        // over the defaults.
        let keywords = ["connect_timeout", "application_name", "keepalives_idle", "dbname"]
        let values = ["10", applicationName, "30", connectionString]
        var errorText: UnsafeMutablePointer<CChar>?
        let parsed = PQconninfoParse(connectionString, &errorText)
        if parsed == nil {
            let reason = errorText.map { String(cString: $0) } ?? "it does not parse"
            if let errorText { PQfreemem(errorText) }
            throw SyncError(.badConnectionString, "The server connection string \(redactedServer) is not valid: \(Self.trimmed(reason)).")
        }
        PQconninfoFree(parsed)
        let connection: OpaquePointer? = Self.withCStrings(keywords) { keywordPointers in
            Self.withCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let connection else {
            throw SyncError(.connectionFailed, "libpq could not allocate a connection to \(redactedServer).")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = ConnectionString.scrub(Self.trimmed(String(cString: PQerrorMessage(connection))), of: connectionString)
            PQfinish(connection)
            let denied = reason.contains("permission denied")
            throw SyncError(denied ? .permissionDenied : .connectionFailed, "Cannot connect to \(redactedServer): \(reason)")
        }
        handle = connection
        PQsetNoticeProcessor(handle, { _, _ in }, nil)  // notices are not errors; keep them off stderr
    }

    deinit { PQfinish(handle) }

    /// Runs one statement (or, without parameters, several separated by `;`, returning the
    /// last one's result) with text parameters (nil: SQL NULL).
    ///
    /// - Throws: `connection_lost` when the connection dropped; otherwise the server's error
    ///   mapped by ``SyncError/fromServer(sqlState:message:soup:)``.
    @discardableResult
    package func execute(_ sql: String, _ parameters: [[UInt8]?] = [], soup: String? = nil) throws(SyncError) -> PGResult {
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = PQexec(handle, sql)
        } else {
            result = Self.withParameters(parameters) { values in
                PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
            }
        }
        return try checked(result, soup: soup)
    }

    /// Sends `data` through `COPY ... FROM STDIN` (the statement in `sql`), in the text format.
    package func copyIn(_ sql: String, data: [UInt8], soup: String? = nil) throws(SyncError) {
        let start = try checked(PQexec(handle, sql), soup: soup, accepting: PGRES_COPY_IN)
        _ = start
        let sent = data.withUnsafeBufferPointer { buffer -> Int32 in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                PQputCopyData(handle, chars.baseAddress, Int32(chars.count))
            }
        }
        guard sent == 1, PQputCopyEnd(handle, nil) == 1 else { throw lostOrFailed(soup: soup) }
        _ = try checked(PQgetResult(handle), soup: soup)
        while let extra = PQgetResult(handle) { PQclear(extra) }
    }

    /// Whether the connection is still usable.
    package var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// The server's major version (15 for 15.x).
    package var serverMajorVersion: Int { Int(PQserverVersion(handle)) / 10_000 }

    private func checked(_ result: OpaquePointer?, soup: String?, accepting accepted: ExecStatusType? = nil) throws(SyncError) -> PGResult {
        guard let result else { throw lostOrFailed(soup: soup) }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == accepted {
            return PGResult(owning: result)
        }
        let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let message = Self.trimmed(String(cString: PQresultErrorMessage(result)))
        PQclear(result)
        if PQstatus(handle) != CONNECTION_OK || sqlState == nil || sqlState?.hasPrefix("08") == true
            || sqlState == "57P01" || sqlState == "57P02" || sqlState == "57P03"
        {
            throw SyncError(.connectionLost, "The connection to \(redactedServer) was lost: \(message)", soup: soup, sqlState: sqlState)
        }
        throw SyncError.fromServer(sqlState: sqlState ?? "", message: message, soup: soup)
    }

    private func lostOrFailed(soup: String?) -> SyncError {
        let message = Self.trimmed(String(cString: PQerrorMessage(handle)))
        return SyncError(.connectionLost, "The connection to \(redactedServer) was lost: \(message)", soup: soup)
    }

    private static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last == "\n" || last == " " { text.removeLast() }
        return String(text.map { $0 == "\n" ? " " : $0 })
    }

    /// Runs `body` with NUL-terminated copies of `strings`, as libpq's `const char *const *`.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
        pointers.append(nil)
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// Runs `body` with NUL-terminated copies of the parameters (nil stays a null pointer).
    private static func withParameters<R>(_ parameters: [[UInt8]?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = parameters.map { bytes in
            guard let bytes else { return nil }
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            bytes.withUnsafeBytes { raw in
                UnsafeMutableRawPointer(copy).copyMemory(from: raw.baseAddress ?? UnsafeRawPointer(copy), byteCount: bytes.count)
            }
            copy[bytes.count] = 0
            return copy
        }
        defer { for copy in copies { copy?.deallocate() } }
        let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
