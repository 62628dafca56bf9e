/// The `receiptkit` codes of what only the HTTP service meets (status 21000), beside the
/// library's request-level codes (`AppleVerifyReceiptEndpoint.FailureCode`).
enum HTTPFailureCode {
    /// The request is not a POST (HTTP 200, as Apple's endpoint answers).
    static let notPOST = "not_post"
    /// The body is larger than ``ServerOptions/maximumBodySize`` (HTTP 413).
    static let bodyTooLarge = "body_too_large"
    /// More requests wait for validation than the service queues (HTTP 503, `Retry-After`).
    static let overloaded = "overloaded"
}
