// The sysexits.h statuses the data commands use beyond success, failure and usage: bad input
// data (65) and an I/O error (74).

extension ExitCode {
    /// The input data is wrong: a bad JSON line, a broken dump (`EX_DATAERR` of sysexits.h).
    public static let dataError = ExitCode(rawValue: 65)
    /// Reading or writing a file failed (`EX_IOERR` of sysexits.h).
    public static let ioError = ExitCode(rawValue: 74)
}
