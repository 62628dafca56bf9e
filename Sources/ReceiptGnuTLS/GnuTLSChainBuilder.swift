#if GnuTLS
internal import CReceiptGnuTLS
import ReceiptCore

/// Builds the chain leaf → … → anchor from a signedData's embedded certificates and the caller's
/// anchors, then has GnuTLS verify it against the trust list with time checks disabled.
///
/// Embedded certificates are only ever candidates for the path, never trusted: the chain must end
/// at one of the caller's anchors (a hostile receipt may embed a same-name root with another key).
enum GnuTLSChainBuilder {
    /// Longer chains are refused (Apple's is 3).
    static let maximumLength = 8

    /// The verified chain, leaf first, ending with the anchor object from `store`. No validity
    /// period is checked (the validator checks the returned chain at its verification time).
    /// - Throws: ``ReceiptValidationError/Code/untrustedChain``.
    static func verifiedChain(
        leaf: GnuTLSX509Certificate,
        embedded: [GnuTLSX509Certificate],
        store: GnuTLSTrustStore
    ) throws(ReceiptValidationError) -> [GnuTLSX509Certificate] {
        // As OpenSSL verifies (no partial chains), and as the validator's paths end: a path ends
        // only at a self-issued anchor. An anchor issued by another certificate (a leaf or an
        // intermediate given as a root) is one more candidate on the way to one, not an end:
        // ending at it made a one-certificate chain of a leaf given beside Apple's root, refused
        // as missing_apple_marker where OpenSSL verified the whole chain.
        let anchors = store.anchorCertificates
        let roots = anchors.filter { $0.isNamedAsIssued(by: $0) }
        let others = anchors.filter { anchor in !roots.contains { $0 === anchor } }
        let chain = try path(from: leaf, embedded: embedded + others, anchors: roots)
        var handles: [OpaquePointer?] = chain.map(\.handle)
        var status: UInt32 = 0
        let result = gnutls_x509_trust_list_verify_crt2(
            store.trustList, &handles, UInt32(handles.count), nil, 0,
            GnuTLSX509Certificate.signatureFlags, &status, nil
        )
        guard result >= 0 else {
            throw ReceiptValidationError(
                .untrustedChain,
                "GnuTLS could not verify the signer's certificate chain.",
                libraryMessage: GnuTLSMessage.text(for: result)
            )
        }
        guard status == 0 else {
            throw ReceiptValidationError(
                .untrustedChain,
                "The signer's certificate chain does not verify to a trust anchor.",
                libraryMessage: GnuTLSMessage.verificationText(for: status)
            )
        }
        return chain
    }

    /// Walks issuer links from `leaf` until a certificate is an anchor or is issued by one.
    private static func path(
        from leaf: GnuTLSX509Certificate,
        embedded: [GnuTLSX509Certificate],
        anchors: [GnuTLSX509Certificate]
    ) throws(ReceiptValidationError) -> [GnuTLSX509Certificate] {
        var chain: [GnuTLSX509Certificate] = []
        var current = leaf
        while true {
            if let anchor = anchors.first(where: { $0.derBytes == current.derBytes }) {
                chain.append(anchor)
                return chain
            }
            chain.append(current)
            guard chain.count < maximumLength else {
                throw ReceiptValidationError(
                    .untrustedChain,
                    "The signer's certificate chain is longer than \(maximumLength) certificates.",
                    libraryMessage: GnuTLSMessage.verificationText(for: GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE)
                )
            }
            let unused = embedded.filter { candidate in
                !chain.contains { $0.derBytes == candidate.derBytes }
            }
            // The name check once per candidate (it is a pure function of the two certificates).
            let namedAnchors = anchors.filter { current.isNamedAsIssued(by: $0) }
            let namedUnused = unused.filter { candidate in
                // An embedded copy of an anchor is named exactly when the anchor is.
                if let twin = anchors.first(where: { $0.derBytes == candidate.derBytes }) {
                    return namedAnchors.contains { $0 === twin }
                }
                return current.isNamedAsIssued(by: candidate)
            }
            // With a single candidate the choice below cannot depend on which key signed `current`
            // (the signed choice and the name-only fallback are the same certificate), so its
            // signature is left to the trust-list verification. An embedded copy of a named
            // anchor never changes the choice either: if it verifies, so does the anchor, which
            // is preferred; if not, the anchor is the name-only fallback.
            let distinctUnused = namedUnused.filter { candidate in !namedAnchors.contains { $0.derBytes == candidate.derBytes } }
            if namedAnchors.count + distinctUnused.count == 1 {
                if let anchor = namedAnchors.first {
                    chain.append(anchor)
                    return chain
                }
                if let next = distinctUnused.first {
                    current = next
                    continue
                }
            }
            // Prefer an issuer whose key really signed `current`; anchors before embedded ones;
            // among several, the first (the validator hands over one candidate path at a time, so
            // only a direct call with several same-name issuers meets this choice).
            if let anchor = namedAnchors.first(where: { current.isSigned(by: $0) }) {
                chain.append(anchor)
                return chain
            }
            if let next = namedUnused.first(where: { current.isSigned(by: $0) }) {
                current = next
                continue
            }
            // No verifying issuer: keep a name match so GnuTLS reports why it fails.
            if let anchor = namedAnchors.first {
                chain.append(anchor)
                return chain
            }
            if let next = namedUnused.first {
                current = next
                continue
            }
            throw ReceiptValidationError(
                .untrustedChain,
                "No trust anchor or embedded certificate issued \(current.subjectDescription) "
                    + "(issuer \(current.issuerDescription)).",
                libraryMessage: GnuTLSMessage.verificationText(for: GNUTLS_CERT_SIGNER_NOT_FOUND)
            )
        }
    }
}
#endif
