/// Why the store could not do what it was asked.
public struct TokenStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public enum Code: String, Hashable, Sendable {
        /// The database cannot be reached or refused the work (stopped, connection lost, disk full).
        case unavailable = "store_unavailable"
        /// The database did not answer within the store's time limit.
        case timeout = "store_timeout"
        /// The database location is not one the store understands.
        case invalidLocation = "store_invalid_location"
        /// The database holds a schema newer than this build knows, or rows it cannot read.
        case incompatible = "store_incompatible"
        /// The request was more than the store takes in one call (or a page size below one).
        case tooLarge = "store_request_too_large"
    }

    /// What kind of failure.
    public var code: Code
    /// A sentence for people, naming what failed.
    public var message: String

    /// A store error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
