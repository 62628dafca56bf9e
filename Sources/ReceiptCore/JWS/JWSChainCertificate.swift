import SwiftASN1

/// One `x5c` certificate (or a trust anchor) read for the JWS chain: the parts its signature
/// check and the chain rules need, read once per chain (the verified-chain cache keeps them).
///
/// Strict: exactly one strict-DER certificate (``CertificateStructure/isCertificate(_:)``), signed
/// with ECDSA (SHA-256 or SHA-384), its signature a DER `ECDSA-Sig-Value`; anything else is
/// `invalid_certificate`.
struct JWSChainCertificate: Sendable {
    let certificate: Certificate
    /// The TBSCertificate's DER bytes (what the issuer signed).
    let tbs: ArraySlice<UInt8>
    /// The scheme the issuer signed with (from signatureAlgorithm), `nil` when not ECDSA with
    /// SHA-256 or SHA-384 (allowed for a trust anchor only, whose own signature is not checked).
    let scheme: SignatureScheme?
    /// The signature BIT STRING's content (a DER ECDSA-Sig-Value).
    let signature: ArraySlice<UInt8>
    /// The issuer and subject Names' DER bytes.
    let issuer: ArraySlice<UInt8>
    let subject: ArraySlice<UInt8>
    /// The field width of the subject key's curve (32 for P-256, 48 for P-384), `nil` for another key.
    let keyWidth: Int?
    let validity: ValidityPeriod
    let isCA: Bool
    let extensionOIDs: [String]

    /// Reads `certificate`; `role` names it in errors ("x5c[0]", "trust anchor 1").
    init(_ certificate: Certificate, role: String) throws(ReceiptValidationError) {
        let der = certificate.derBytes
        guard der.count <= JWSLimits.maximumCertificateSize else {
            throw ReceiptValidationError(.malformedJWS, "\(role) is larger than \(JWSLimits.maximumCertificateSize) bytes.")
        }
        guard CertificateStructure.isCertificate(der), let validity = ValidityPeriod(certificate: der) else {
            throw ReceiptValidationError(.invalidCertificate, "\(role) is not a strict-DER X.509 certificate.")
        }
        let info: CertificateInfo
        do throws(ReceiptValidationError) {
            info = try CertificateInfo(derBytes: der)
        } catch {
            throw ReceiptValidationError(.invalidCertificate, "\(role) could not be decoded: \(error.message)")
        }
        do {
            let root = try DER.parse(der)
            guard case .constructed(let top) = root.content else { throw Self.invalid }
            let parts = Array(top)
            guard parts.count == 3, case .constructed(let algorithm) = parts[1].content,
                  let algorithmOID = Array(algorithm).first, case .primitive(let bits) = parts[2].content,
                  bits.first == 0, case .constructed(let tbsFields) = parts[0].content
            else { throw Self.invalid }
            let oid = try ASN1ObjectIdentifier(derEncoded: algorithmOID)
            switch oid.description {
            case KnownObjectIdentifier.ecdsaWithSHA256.dotted: scheme = .ecdsa(.sha256)
            case KnownObjectIdentifier.ecdsaWithSHA384.dotted: scheme = .ecdsa(.sha384)
            default: scheme = nil
            }
            var fields = Array(tbsFields)[...]
            if let first = fields.first, first.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
                fields = fields.dropFirst()
            }
            guard fields.count >= 6 else { throw Self.invalid }
            let list = Array(fields)
            self.certificate = certificate
            self.tbs = parts[0].encodedBytes
            self.signature = bits.dropFirst()
            self.issuer = list[2].encodedBytes
            self.subject = list[4].encodedBytes
            self.keyWidth = Self.curveWidth(list[5])
            self.validity = validity
            self.isCA = info.isCA
            self.extensionOIDs = info.extensionOIDs
        } catch let error as ReceiptValidationError {
            throw error
        } catch {
            throw ReceiptValidationError(.invalidCertificate, "\(role) could not be decoded: \(error).")
        }
    }

    private static let invalid = ReceiptValidationError(.invalidCertificate, "A certificate is not in the X.509 shape.")

    /// 32 or 48 for an id-ecPublicKey on P-256 or P-384, else `nil`.
    private static func curveWidth(_ keyInfo: ASN1Node) -> Int? {
        guard case .constructed(let parts) = keyInfo.content, let algorithm = Array(parts).first,
              case .constructed(let identifiers) = algorithm.content
        else { return nil }
        let oids = Array(identifiers).compactMap { try? ASN1ObjectIdentifier(derEncoded: $0).description }
        guard oids.count == 2, oids[0] == KnownObjectIdentifier.ecPublicKey.dotted else { return nil }
        switch oids[1] {
        case KnownObjectIdentifier.prime256v1.dotted: return ECDSASignature.p256Width
        case KnownObjectIdentifier.secp384r1.dotted: return ECDSASignature.p384Width
        default: return nil
        }
    }

    /// Whether the certificate carries the extension `oid`.
    func hasExtension(_ oid: KnownObjectIdentifier) -> Bool {
        extensionOIDs.contains(oid.dotted)
    }

    /// Whether `issuer`'s key verifies this certificate's signature, through `primitives`.
    func isSigned(by issuer: JWSChainCertificate, key: any SignatureVerificationKey, primitives: any SignaturePrimitives) -> Bool {
        guard let scheme, let width = issuer.keyWidth, let raw = ECDSASignature.raw(fromDER: signature, width: width) else {
            return false
        }
        return primitives.verifySignature(raw[...], of: [tbs], scheme: scheme, key: key)
    }
}
