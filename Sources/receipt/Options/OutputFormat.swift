import ArgumentParser

/// A value of `verify --format`.
enum ResponseFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Apple's `verifyReceipt` response.
    case apple
}

/// How `verify` prints its results, as its flags (`--json`, `--ndjson`, `--format`) choose.
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
