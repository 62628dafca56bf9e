#if GnuTLS
import ReceiptCore

/// The signedData as GnuTLS imports it for verification.
///
/// A canonical DER envelope (``SignedDataEnvelope``'s shape) is imported as its
/// ``DetachedSignedData``: the same SignedData with the content detached and every embedded
/// certificate kept, so `gnutls_pkcs7_import` decodes no copy of a large receipt's content (it
/// otherwise keeps the content three times: in the ContentInfo's tree, in the SignedData's tree
/// and as the embedded data). The content is then read in place from the caller's bytes at
/// ``detached``'s `content` range. Nothing a signature covers differs between the two: the
/// SignerInfo, version, digest algorithms and certificates are copied byte for byte.
///
/// Anything else (BER, another shape, or a copy GnuTLS refuses) is imported as given, with its
/// content.
package struct GnuTLSImportedSignedData {
    /// The imported structure.
    let pkcs7: GnuTLSPKCS7
    /// The detached copy `pkcs7` was imported from, or `nil` when it was imported from the
    /// original bytes (then it holds the content).
    package let detached: DetachedSignedData?

    /// Imports `bytes` as the detached copy of `envelope` (`SignedDataEnvelope(bytes)`, read by the
    /// caller), or as given when `envelope` is `nil` or GnuTLS refuses the copy. `certificates`: the
    /// embedded certificates' ranges when the validator handed them (``SignedDataRanges``).
    /// `isDetached`: `bytes` already hold no content (a detached rebuild, its content handed
    /// beside them at `envelope`'s content range): imported as given, never with a content.
    package init(
        _ bytes: [UInt8], envelope: SignedDataEnvelope?, certificates: [Range<Int>]? = nil, isDetached: Bool = false
    ) throws(ReceiptValidationError) {
        if isDetached, let envelope {
            self.pkcs7 = try GnuTLSPKCS7(bytes: bytes)
            self.detached = DetachedSignedData(alreadyDetached: bytes, content: envelope.content)
            return
        }
        if let detached = DetachedSignedData(bytes, envelope: envelope, certificates: certificates, omitting: { _ in false }),
           let pkcs7 = try? GnuTLSPKCS7(bytes: detached.der) {
            self.pkcs7 = pkcs7
            self.detached = detached
            return
        }
        self.pkcs7 = try GnuTLSPKCS7(bytes: bytes)
        self.detached = nil
    }
}
#endif
