/// How `verify` and `dump` print their results.
enum OutputFormat: Sendable {
    /// Text for people.
    case human
    /// One JSON object (an array of objects for several receipts).
    case json
    /// One compact JSON object per line, one line per receipt.
    case ndjson
}
