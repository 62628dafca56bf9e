/// A backend's native trust store for one set of anchors, built once and reused for every receipt.
///
/// Backends return their own final class from ``CryptoBackend/makeTrustStore(anchors:)``; it owns
/// the library handles and frees them in `deinit`. A store must be safe to use from many tasks at
/// once. Passing one backend's store to another backend fails with ``ReceiptValidationError/Code/backendFailure``.
public protocol TrustStore: AnyObject, Sendable {
    /// The anchors this store trusts, as given.
    var anchors: [Certificate] { get }
}
