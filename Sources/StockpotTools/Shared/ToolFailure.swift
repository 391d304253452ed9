// Why a data command stopped: one sentence for the `Error: ...` line and the exit status it
// maps to (1 failure, 65 bad input data, 74 I/O error).

import Stockpot

/// A data command's failure: what to print and how to exit.
public struct ToolFailure: Error, Sendable, CustomStringConvertible {
    /// One sentence, printed after `Error: `.
    public var message: String
    /// The exit status.
    public var status: ExitCode

    /// Creates a failure.
    public init(_ message: String, status: ExitCode = .failure) {
        self.message = message
        self.status = status
    }

    /// A store error: I/O errors exit 74, everything else 1.
    public init(_ error: StockpotError, doing what: String, hint: String? = nil) {
        self.init(
            "\(what): \(error.message)" + (hint.map { "; \($0)" } ?? ""),
            status: error.code == .ioError ? .ioError : .failure)
    }

    /// The message.
    public var description: String { message }

    /// Prints `Error: message` on standard error and returns the status.
    public func report() -> ExitCode {
        StandardStream.error.write("Error: \(message)\n")
        return status
    }
}
