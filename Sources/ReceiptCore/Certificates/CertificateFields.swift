/// The few fields of an X.509 certificate the verified-chain cache needs, taken from its
/// ``X509Certificate`` reading (no swift-asn1 tree, no string rendering): the validity period and
/// comparison keys for the issuer and subject names.
///
/// Conservative by design: any form it does not fully understand (times other than
/// `YYMMDDHHMMSSZ` / `YYYYMMDDHHMMSSZ`, name values other than ASCII PrintableString / UTF8String /
/// IA5String) gives `nil`, and the cache then does not keep the chain.
struct CertificateFields {
    /// The validity period.
    var validity: ValidityPeriod
    /// The issuer name's comparison key (see ``nameKey``).
    var issuerKey: [UInt8]
    /// The subject name's comparison key.
    var subjectKey: [UInt8]

    init?(_ certificate: Certificate) {
        guard let fields = certificate.derBytes.withUnsafeBufferPointer({ Self.read($0) }) else { return nil }
        self = fields
    }

    private init(validity: ValidityPeriod, issuerKey: [UInt8], subjectKey: [UInt8]) {
        self.validity = validity
        self.issuerKey = issuerKey
        self.subjectKey = subjectKey
    }

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> CertificateFields? {
        let cursor = DERCursor(bytes)
        guard let tbs = X509Certificate(cursor)?.tbsCertificate,
              let issuerKey = nameKey(cursor, tbs.issuer), let subjectKey = nameKey(cursor, tbs.subject)
        else { return nil }
        return CertificateFields(validity: ValidityPeriod(tbs.validity), issuerKey: issuerKey, subjectKey: subjectKey)
    }

    /// A key that two names OpenSSL or GnuTLS could consider equal always share: the attribute
    /// values only (types ignored), ASCII lowercased, whitespace removed, separated by 0x00.
    /// Equal keys for different names only make the cache more cautious.
    private static func nameKey(_ cursor: DERCursor, _ name: DERCursor.Element) -> [UInt8]? {
        var key: [UInt8] = []
        var rdnPosition = name.contentStart
        while rdnPosition < name.end {
            guard let rdn = cursor.element(at: rdnPosition, within: name.end), rdn.identifier == .set else { return nil }
            var position = rdn.contentStart
            while position < rdn.end {
                guard let pair = cursor.element(at: position, within: rdn.end), pair.identifier == .sequence,
                      let type = cursor.element(at: pair.contentStart, within: pair.end), type.identifier == .objectIdentifier,
                      let value = cursor.element(at: type.end, within: pair.end), value.end == pair.end,
                      value.identifier == .printableString || value.identifier == .utf8String || value.identifier == .ia5String
                else { return nil }
                for offset in value.contentStart..<value.end {
                    let byte = cursor.bytes[offset]
                    guard byte < 0x80 else { return nil }
                    if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
                    key.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
                }
                key.append(0)
                position = pair.end
            }
            rdnPosition = rdn.end
        }
        return key
    }
}
