// Bridges between the standard library's rethrowing buffer accessors and typed throws, so
// that storage code keeps `throws(StorageError)` through closures.

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a body that throws `StorageError`.
    func withBytes<Result>(
        _ body: (UnsafeRawBufferPointer) throws(StorageError) -> Result
    ) throws(StorageError) -> Result {
        let outcome: Swift.Result<Result, StorageError> = withUnsafeBytes { bytes in
            Swift.Result { () throws(StorageError) -> Result in try body(bytes) }
        }
        return try outcome.get()
    }
}
