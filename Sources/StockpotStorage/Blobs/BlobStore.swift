// Values over the blob threshold, each in a file of its own (docs/format/blob.md): written
// and made durable before any record refers to them, read back and verified on demand.

import StockpotCore

/// Writes and reads blob files in a store directory.
struct BlobStore {
    let directory: String
    let fileSystem: any FileSystem
    /// Seals and opens blob files in an encrypted store (docs/format/encryption.md).
    let cipher: FileCipher?

    func path(_ number: UInt64) -> String {
        directory + "/" + FileNames.name(.blob, number)
    }

    /// Writes `value` as blob file `number` by the durability protocol (temporary file, fsync,
    /// rename, directory fsync) and returns the reference a record stores.
    func write(_ value: [UInt8], number: UInt64) throws(StorageError) -> BlobReference {
        let final = path(number)
        let reference = BlobReference(
            fileNumber: number, length: UInt64(value.count), checksum: Checksum.xxh3(value))
        let header = value.withUnsafeBytes { BlobFormat.header(fileNumber: number, value: $0) }
        if let cipher {
            let sealed = cipher.sealFile(header + value, kind: .blob, number: number)
            try DurableReplacement.writeFile(sealed, to: final, directory: directory, fileSystem: fileSystem)
        } else {
            try DurableReplacement.writeFile(header, value, to: final, directory: directory, fileSystem: fileSystem)
        }
        return reference
    }

    /// Reads and verifies the blob `reference` names.
    func read(_ reference: BlobReference) throws(StorageError) -> [UInt8] {
        let file = path(reference.fileNumber)
        let handle: any FileHandle
        do throws(StorageError) {
            handle = try fileSystem.openFile(file, mode: .readOnly)
        } catch  where error.code == .notFound {
            throw .corruption("A blob file that a record refers to is missing.", file: file)
        }
        defer { handle.close() }
        if let cipher {
            // Bounded by the reference: a longer file is not read past its expected size.
            let expected =
                Int(min(reference.length, UInt64(Int32.max))) + BlobFormat.headerSize
                + FileCipher.envelopeHeaderSize + FileCipher.tagSize
            let sealed = try handle.read(count: min(try handle.size(), expected + 1), at: 0)
            let plain = try cipher.openFile(sealed, kind: .blob, number: reference.fileNumber, file: file)
            return try plain.withBytes { (bytes) throws(StorageError) -> [UInt8] in
                try BlobFormat.verifyHeader(bytes, expected: reference, file: file)
                let value = Array(bytes[BlobFormat.headerSize...])
                guard value.count == Int(reference.length), Checksum.xxh3(value) == reference.checksum else {
                    throw .corruption("A blob's value does not match its checksum.", file: file, offset: BlobFormat.headerSize)
                }
                return value
            }
        }
        let header = try handle.read(count: BlobFormat.headerSize, at: 0)
        guard header.count == BlobFormat.headerSize else {
            throw .corruption("A blob file is shorter than its header.", file: file, offset: 0)
        }
        try header.withBytes { (bytes) throws(StorageError) in
            try BlobFormat.verifyHeader(bytes, expected: reference, file: file)
        }
        guard reference.length <= UInt64(Int.max - BlobFormat.headerSize) else {
            throw .corruption("A blob reference has an impossible length.", file: file, offset: 0)
        }
        let value = try handle.read(count: Int(reference.length), at: BlobFormat.headerSize)
        guard value.count == Int(reference.length), Checksum.xxh3(value) == reference.checksum else {
            throw .corruption("A blob's value does not match its checksum.", file: file, offset: BlobFormat.headerSize)
        }
        return value
    }
}
