#if GnuTLS
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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

    /// The verified chain, leaf first, ending with the anchor object from `store`.
    /// - Parameter time: the verification time, used only to choose between several issuers that
    ///   carry the right name and signed the certificate (one valid at `time` is preferred, as
    ///   OpenSSL's issuer lookup prefers one); validity itself is checked by the caller.
    /// - Throws: ``ReceiptValidationError/Code/untrustedChain``.
    static func verifiedChain(
        leaf: GnuTLSX509Certificate,
        embedded: [GnuTLSX509Certificate],
        store: GnuTLSTrustStore,
        at time: Date
    ) throws(ReceiptValidationError) -> [GnuTLSX509Certificate] {
        let chain = try path(from: leaf, embedded: embedded, anchors: store.anchorCertificates, at: time)
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
        anchors: [GnuTLSX509Certificate],
        at time: Date
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
            // among several, one valid at `time`, else the one expiring last (OpenSSL's choice).
            if let anchor = preferred(namedAnchors.filter { current.isSigned(by: $0) }, at: time) {
                chain.append(anchor)
                return chain
            }
            if let next = preferred(namedUnused.filter { current.isSigned(by: $0) }, at: time) {
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

    /// The first of `candidates` valid at `time`; otherwise the one with the latest notAfter
    /// (the first of equals); `nil` when there is none.
    static func preferred(_ candidates: [GnuTLSX509Certificate], at time: Date) -> GnuTLSX509Certificate? {
        guard candidates.count > 1 else { return candidates.first }
        let second = ValidityPeriod.second(of: time)
        if let second, let current = candidates.first(where: { candidate in
            ValidityPeriod(certificate: candidate.derBytes)?.contains(second: second) ?? false
        }) {
            return current
        }
        var latest = candidates[0]
        for candidate in candidates.dropFirst() where (candidate.expirationTime ?? Int.min) > (latest.expirationTime ?? Int.min) {
            latest = candidate
        }
        return latest
    }
}
#endif
