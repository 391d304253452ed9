// The engine half of `stockpot salvage`: every segment file of a damaged store read with the
// tolerant reader, the newest readable record of each key chosen by sequence number, and its
// value decoded; everything that could not be read is a loss naming file and offset.

/// A key and its newest readable value.
package struct SalvagedRecord: Sendable {
    package var key: [UInt8]
    package var value: [UInt8]
    package var sequence: UInt64
    /// The segment file and offset of the record.
    package var file: String
    package var offset: Int
}

/// Something that could not be saved.
package struct SalvageLoss: Sendable {
    /// The file it was in.
    package var file: String
    /// Where in the file, and how many bytes, when known.
    package var offset: Int?
    package var length: Int?
    /// The key it concerned, when known (for a damaged record, as its unverified header claims).
    package var key: [UInt8]?
    /// What went wrong.
    package var reason: String
}

/// What a salvage read from a store's files.
package struct StorageSalvage: Sendable {
    /// The newest readable value of every key whose newest readable record is a put, by key.
    package var records: [SalvagedRecord] = []
    /// What could not be read.
    package var losses: [SalvageLoss] = []
    /// Segment files read, records that verified, bytes read.
    package var segments = 0
    package var recordsRead = 0
    package var bytesRead = 0
}

/// Reads what it can of a store's files. Stateless.
package enum EngineSalvager {
    /// Reads every segment of `directory` (named by the manifest or not), without opening the
    /// engine and without changing a file.
    ///
    /// A record whose batch was cut by damage is kept (it verifies on its own), so salvage
    /// may save part of a batch; the newest readable record of a key wins, which may be older
    /// than a record lost in a damaged range.
    ///
    /// An encrypted store is read with the key `encryption` gives; what does not authenticate
    /// is reported as damage, never guessed at.
    ///
    /// - Throws: `storeLocked` when the store is open; `notFound` when there is no directory;
    ///   `keyRequired`, `wrongKey` or `notEncrypted` as an open would.
    package static func salvage(directory: String, encryption: StoreEncryption? = nil) throws(StorageError) -> StorageSalvage {
        let files = try EngineFiles(directory: directory, encryption: encryption)
        var result = StorageSalvage()
        let (dictionaries, dictionaryProblems) = files.dictionaries()
        for problem in dictionaryProblems {
            result.losses.append(SalvageLoss(file: problem.file, reason: "dictionary file unreadable: \(problem.reason)"))
        }
        // The newest record of each key: its segment (index into `segments`) and record.
        var segments: [(file: String, bytes: [UInt8])] = []
        var newest: [[UInt8]: (segment: Int, record: TolerantSegmentScan.Record)] = [:]
        let identity = files.storeIdentity()
        for number in files.numbered(.segment) {
            let name = FileNames.name(.segment, number)
            let path = files.path(name)
            let bytes: [UInt8]
            do throws(StorageError) {
                bytes = try files.read(name)
            } catch {
                result.losses.append(SalvageLoss(file: path, reason: "segment unreadable: \(error.message)"))
                continue
            }
            result.segments += 1
            result.bytesRead += bytes.count
            let scan = bytes.withUnsafeBytes {
                TolerantSegmentReader.scan($0, fileNumber: number, identity: identity, file: path, cipher: files.cipher)
            }
            if scan.foreign {
                result.losses.append(
                    SalvageLoss(
                        file: path, reason: "the segment belongs to another store (its header names another identity); none of its records were used")
                )
                continue
            }
            for damage in scan.damage {
                result.losses.append(
                    SalvageLoss(
                        file: path, offset: damage.offset, length: damage.length, key: damage.claimedKey,
                        reason: "damaged bytes: \(damage.reason)"))
            }
            if scan.unfinishedBatchRecords > 0 {
                result.losses.append(
                    SalvageLoss(
                        file: path, reason: "\(scan.unfinishedBatchRecords) records of a batch that never ended (never committed)"))
            }
            let index = segments.count
            segments.append((path, bytes))
            result.recordsRead += scan.records.count
            for record in scan.records {
                if let known = newest[record.key], known.record.header.sequence >= record.header.sequence { continue }
                newest[record.key] = (index, record)
            }
        }
        for (key, found) in newest where found.record.header.tag != .delete {
            let segment = segments[found.segment]
            do throws(StorageError) {
                let value = try files.value(of: found.record, file: segment.file, dictionaries: dictionaries)
                result.records.append(
                    SalvagedRecord(
                        key: key, value: value, sequence: found.record.header.sequence, file: segment.file,
                        offset: found.record.offset))
            } catch {
                result.losses.append(
                    SalvageLoss(
                        file: error.file ?? segment.file, offset: error.file == segment.file ? found.record.offset : error.offset,
                        key: key, reason: error.message))
            }
        }
        result.records.sort { $0.key.lexicographicallyPrecedes($1.key) }
        return result
    }
}
