// How the SQLite baseline handles documents in memory: stamp system fields, serialize for the
// `soup` column, project index values, parse on read. Two implementations: StockpotJSON and
// Foundation (SmartStore's own choice on iOS), so store comparisons can isolate the engine.

/// The JSON library the SmartStore baseline uses around SQLite.
protocol SoupCodec {
    /// A parsed document.
    associatedtype Document
    /// A short name for reports (`StockpotJSON`, `Foundation`).
    var name: String { get }
    /// `document` with `_soupEntryId`, `_soupCreatedDate` and `_soupLastModifiedDate` set.
    func stamped(_ document: Document, id: Int64, now: Int64) -> Document
    /// Compact JSON text for the `soup` column.
    func serialize(_ document: Document) throws -> [UInt8]
    /// The value the column (or json_extract expression) of `spec` holds for `document`.
    func indexValue(of document: Document, spec: SoupIndexSpec) -> SQLiteValue
    /// A document read back from the `soup` column.
    func parse(_ bytes: UnsafeRawBufferPointer) throws -> Document
}
