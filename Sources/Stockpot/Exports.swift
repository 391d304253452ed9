// The JSON layer is part of the Stockpot API: documents come and go as `JSONValue`s or as
// UTF-8 JSON bytes read and written by `JSONReader` and `JSONWriter`.

@_exported import StockpotJSON
