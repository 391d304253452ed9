// The JSON and query-spec layers are part of the Stockpot API: documents come and go as
// `JSONValue`s or UTF-8 JSON bytes (`JSONReader`, `JSONWriter`); queries as `QuerySpec`s.

@_exported import StockpotJSON
@_exported import StockpotQuery

// How an encrypted store is keyed (docs/encryption.md): `StoreOptions.encryption`; and when a
// commit is durable: `StoreOptions.durability`. The rest of the engine is not public API.
@_exported import enum StockpotStorage.Durability
@_exported import enum StockpotStorage.StoreEncryption
@_exported import struct StockpotStorage.PassphraseCost

// Index kinds callers register (docs/indexes.md): `IndexKinds.register`, `IndexSpec.kind`.
@_exported import protocol StockpotIndex.PathIndex
@_exported import enum StockpotIndex.IndexKinds
@_exported import enum StockpotIndex.IndexOperation
@_exported import struct StockpotIndex.LikeCondition
