import ReceiptKit
import X509

/// The anchors of one ``SwiftCryptoBackend`` trust store, decoded once by swift-certificates.
final class SwiftCryptoTrustStore: TrustStore {
    /// The anchors as given (DER).
    let anchors: [ReceiptCore.Certificate]
    /// The same anchors decoded, in the same order.
    let decoded: [X509.Certificate]

    init(anchors: [ReceiptCore.Certificate], decoded: [X509.Certificate]) {
        self.anchors = anchors
        self.decoded = decoded
    }
}
