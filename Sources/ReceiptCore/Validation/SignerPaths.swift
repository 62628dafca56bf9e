/// The certificate paths from a signedData's signer to the trust anchors that a backend is asked
/// to verify, one at a time, and the chain rules each must meet first — decided here, in Swift,
/// so that no library's own path building or leniency decides a verdict.
///
/// Path building (RFC 5280 §6.1 leaves it to the implementation; RFC 5652 §5.1 lets a signedData
/// carry more certificates than needed): from the signer's certificate, each next certificate is
/// an embedded one whose subject equals the current certificate's issuer **byte for byte**; a path
/// ends where the issuer is a trust anchor's subject (byte for byte), at a self-issued certificate,
/// or where no embedded certificate qualifies. Several candidates for one link are tried in the
/// order the input lists them (at most ``SignedDataLimits/maximumCandidateIssuers``), every path at
/// most ``SignedDataLimits/maximumPathLength`` certificates long, at most
/// ``SignedDataLimits/maximumPaths`` paths in all. The anchor itself is never taken from the input.
///
/// Chain rules, each a `untrusted_chain` failure of the path that breaks it:
/// - every issuer (the next certificate, or the anchor) of a version 3 certificate's link has
///   basicConstraints cA TRUE and, when it has keyUsage, keyCertSign (RFC 5280 §4.2.1.9, §4.2.1.3);
/// - a certificate's authorityKeyIdentifier, when present, matches its issuer: keyIdentifier equals
///   the issuer's subjectKeyIdentifier when the issuer has one, authorityCertIssuer equals the
///   issuer's issuer name and authorityCertSerialNumber its serial number (RFC 5280 §4.2.1.1);
/// - every path certificate is signed with RSA (SHA-1 or SHA-2) or ECDSA (SHA-2): MD2, MD4, MD5 and
///   anything unknown are refused;
/// - no path certificate and no anchor carries a critical extension outside those the rules and
///   the libraries apply alike (basicConstraints, keyUsage, extKeyUsage, subjectAltName, the key
///   identifiers) (RFC 5280 §4.2: an unrecognised critical extension must be rejected);
/// - the anchor that ends the path is self-issued.
package struct SignerPaths: Sendable {
    /// One path: the ranges of its certificates in the input (leaf first) and the anchor it ends at.
    package struct Path: Sendable {
        /// The embedded certificates' ranges, leaf first, the anchor not included.
        package var certificates: [Range<Int>]
        /// Why the path cannot be verified, when a chain rule refuses it before any library sees it.
        package var refusal: ReceiptValidationError?
        /// The anchor the path ends at by these rules: the first anchor named as the top
        /// certificate's issuer that they accept (the top certificate itself when it is an
        /// anchor); `nil` when no anchor is named or the path is refused.
        package var anchor: Certificate?
    }

    /// The candidate paths, in the order they are tried.
    package var paths: [Path]

    /// The signature algorithms a path certificate may be signed with (OID content octets).
    static let acceptedSignatureAlgorithms: [[UInt8]] = [
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x05],  // sha1WithRSAEncryption
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0E],  // sha224WithRSAEncryption
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B],  // sha256WithRSAEncryption
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0C],  // sha384WithRSAEncryption
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0D],  // sha512WithRSAEncryption
        [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02],  // ecdsa-with-SHA256
        [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x03],  // ecdsa-with-SHA384
        [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x04],  // ecdsa-with-SHA512
    ]

    /// Builds the paths from `structure`'s signer certificate over its embedded certificates to
    /// `anchors`, and applies the chain rules to each.
    /// - Throws: `untrusted_chain` when a link has more candidate issuers than the bound.
    package init(structure: SignedDataStructure, anchors: [ChainCertificate]) throws(ReceiptValidationError) {
        let bytes = structure.bytes
        var embedded: [(range: Range<Int>, certificate: ChainCertificate)] = []
        for range in structure.certificates {
            let der = Array(bytes[range])
            // Certificates repeated byte for byte are one candidate.
            guard !embedded.contains(where: { $0.certificate.der == der }), let certificate = ChainCertificate(der) else {
                continue
            }
            embedded.append((range, certificate))
        }
        let signer = Array(bytes[structure.signerCertificate])
        guard let leaf = embedded.firstIndex(where: { $0.certificate.der == signer }) else {
            throw ReceiptValidationError(.untrustedChain, "The signer's certificate could not be read.")
        }

        var found: [[Int]] = []
        var overflow = false
        func extend(_ path: [Int]) throws(ReceiptValidationError) {
            guard found.count < SignedDataLimits.maximumPaths else {
                overflow = true
                return
            }
            let current = embedded[path[path.count - 1]].certificate
            if anchors.contains(where: { $0.subject == current.issuer }) || current.isSelfIssued
                || path.count == SignedDataLimits.maximumPathLength {
                found.append(path)
                return
            }
            let candidates = embedded.indices.filter { !path.contains($0) && embedded[$0].certificate.subject == current.issuer }
            guard candidates.count <= SignedDataLimits.maximumCandidateIssuers else {
                throw ReceiptValidationError(
                    .untrustedChain,
                    "The signedData embeds \(candidates.count) certificates named as one issuer; at most \(SignedDataLimits.maximumCandidateIssuers) are tried.")
            }
            guard !candidates.isEmpty else {
                found.append(path)
                return
            }
            for candidate in candidates { try extend(path + [candidate]) }
        }
        try extend([leaf])
        if overflow {
            throw ReceiptValidationError(
                .untrustedChain,
                "The embedded certificates form more than \(SignedDataLimits.maximumPaths) candidate paths to an anchor.")
        }
        self.paths = found.map { indices in
            let chain = indices.map { embedded[$0].certificate }
            let verdict = Self.verdict(on: chain, anchors: anchors)
            return Path(
                certificates: indices.map { embedded[$0].range }, refusal: verdict.refusal,
                anchor: verdict.anchor.map { Certificate(derBytes: $0.der) })
        }
    }

    /// The first chain rule `chain` (leaf first, the anchor not included) breaks, or `nil`.
    static func refusal(of chain: [ChainCertificate], anchors: [ChainCertificate]) -> ReceiptValidationError? {
        verdict(on: chain, anchors: anchors).refusal
    }

    /// The first chain rule `chain` breaks, or else the anchor it ends at (``Path/anchor``).
    private static func verdict(
        on chain: [ChainCertificate], anchors: [ChainCertificate]
    ) -> (refusal: ReceiptValidationError?, anchor: ChainCertificate?) {
        for (depth, certificate) in chain.enumerated() {
            guard acceptedSignatureAlgorithms.contains(certificate.signatureAlgorithm) else {
                return refused("The certificate at depth \(depth) is signed with an algorithm that is not accepted (only RSA with SHA-1 or SHA-2, and ECDSA with SHA-2).")
            }
            if let problem = criticalProblem(certificate) {
                return refused("The certificate at depth \(depth) \(problem).")
            }
        }
        for depth in 0..<(chain.count - 1) {
            if let problem = linkProblem(chain[depth], issuedBy: chain[depth + 1]) {
                return refused("The certificate at depth \(depth) \(problem).")
            }
        }
        guard let top = chain.last else { return refused("The path holds no certificate.") }
        let named = anchors.filter { $0.subject == top.issuer }
        guard !named.isEmpty else { return (nil, nil) }  // no anchor by that name: the library says untrusted_chain
        var problems: [String] = []
        for anchor in named {
            if anchor.der == top.der { return (nil, anchor) }  // the signer is itself the anchor
            if !anchor.isSelfIssued {
                problems.append("is not self-issued")
            } else if let problem = criticalProblem(anchor) {
                problems.append(problem)
            } else if let problem = linkProblem(top, issuedBy: anchor) {
                problems.append("ends a path whose top certificate \(problem)")
            } else {
                return (nil, anchor)
            }
        }
        return refused("The trust anchor named as the chain's issuer \(problems[0]).")
    }

    private static func refused(_ message: String) -> (refusal: ReceiptValidationError?, anchor: ChainCertificate?) {
        (ReceiptValidationError(.untrustedChain, message), nil)
    }

    private static func criticalProblem(_ certificate: ChainCertificate) -> String? {
        for item in certificate.extensions where item.isCritical {
            guard ChainCertificate.ExtensionIdentifier.processed.contains(item.identifier) else {
                return "carries a critical extension \(dottedObjectIdentifier(item.identifier[...]) ?? "?") that is not processed"
            }
        }
        return nil
    }

    /// What is wrong with `issuer` issuing `certificate` beyond the signature, or `nil`.
    private static func linkProblem(_ certificate: ChainCertificate, issuedBy issuer: ChainCertificate) -> String? {
        if issuer.version == 2 {
            guard issuer.isCertificateAuthority else { return "is issued by a certificate that is not a CA (basicConstraints)" }
            guard issuer.allowsCertificateSigning else { return "is issued by a certificate whose keyUsage lacks keyCertSign" }
        }
        if let authority = certificate.authorityKeyIdentifier {
            if let keyIdentifier = authority.keyIdentifier, let subjectKey = issuer.subjectKeyIdentifier,
               keyIdentifier != subjectKey {
                return "names another issuer key in its authorityKeyIdentifier"
            }
            if let name = authority.issuer, name != issuer.issuer {
                return "names another issuer's issuer in its authorityKeyIdentifier"
            }
            if let serial = authority.serialNumber, serial != issuer.serialNumber {
                return "names another issuer serial number in its authorityKeyIdentifier"
            }
        }
        return nil
    }
}
