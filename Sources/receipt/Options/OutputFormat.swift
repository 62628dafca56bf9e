/// How `verify` and `dump` print their results.
enum OutputFormat: Sendable {
    /// Text for people.
    case human
    /// One JSON object (an array of objects for several receipts).
    case json
    /// One compact JSON object per line, one line per receipt.
    case ndjson
    /// Apple's `verifyReceipt` response (an array of them for several receipts).
    case apple
    /// Apple's `verifyReceipt` response, compact, one line per receipt.
    case appleNDJSON
}
