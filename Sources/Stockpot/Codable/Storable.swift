// A Codable type kept in one soup: it names its soup and carries its entry id, so that it can
// be upserted, retrieved and queried as itself (Codable/Store+Storable.swift).

/// A `Codable` type whose values are the entries of one soup.
///
/// ```swift
/// struct Account: Storable {
///     static let soupName = "Account"
///     var entryID: Int64?
///     var Name: String
///     var Industry: String?
/// }
/// let saved = try store.upsert([Account(Name: "Acme")])   // saved[0].entryID is set
/// let page = try store.view().query(.exact("Name", "Acme"), as: Account.self)
/// ```
///
/// The store keeps ``entryID`` in the document's `_soupEntryId`, whatever the type's coding
/// keys: on upsert it writes `_soupEntryId` from ``entryID`` (nil: a new entry), and on
/// reading it sets ``entryID`` from `_soupEntryId`. A type may also map its property to
/// `_soupEntryId` in its `CodingKeys`; it then reads and writes the same value.
public protocol Storable: Codable {
    /// The soup the type's values live in.
    static var soupName: String { get }
    /// The entry id: nil for a value not stored yet.
    var entryID: Int64? { get set }
}
