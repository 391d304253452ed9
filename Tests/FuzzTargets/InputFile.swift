// The file a fuzz target writes each input to and reads back from, as the tools read their
// input files: one per target and process, in /dev/shm when there is one (a write per input).

import Foundation

/// A target's input file, kept between inputs. @unchecked Sendable: its fields never change,
/// and each target has its own and runs one input at a time.
final class InputFile: @unchecked Sendable {
    private let target: String
    private let path: String

    init(target: String) {
        self.target = target
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        path = base + "/stockpot-fuzz-\(target)-\(getpid())"
    }

    /// Writes `bytes` to the file and calls `body` with it open for reading.
    func withContents<R>(_ bytes: some Sequence<UInt8>, _ body: (Int32) throws(FuzzFailure) -> R) throws(FuzzFailure) -> R {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw FuzzFailure(target, "cannot write \(path)")
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FuzzFailure(target, "cannot open \(path)") }
        defer { close(descriptor) }
        return try body(descriptor)
    }
}
