/// The few fields of an X.509 certificate the verified-chain cache needs, read with the strict
/// DER cursor (no swift-asn1 tree, no string rendering): the validity period and comparison keys
/// for the issuer and subject names.
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
        guard let certificate = cursor.element(at: 0, within: bytes.count), certificate.tag == 0x30,
              certificate.end == bytes.count,
              let tbs = cursor.element(at: certificate.contentStart, within: certificate.end), tbs.tag == 0x30,
              var field = cursor.element(at: tbs.contentStart, within: tbs.end)
        else { return nil }
        if field.tag == 0xA0 {  // [0] version
            guard let next = cursor.element(at: field.end, within: tbs.end) else { return nil }
            field = next
        }
        guard field.tag == 0x02,  // serialNumber
              let signature = cursor.element(at: field.end, within: tbs.end), signature.tag == 0x30,
              let issuer = cursor.element(at: signature.end, within: tbs.end), issuer.tag == 0x30,
              let validity = cursor.element(at: issuer.end, within: tbs.end), validity.tag == 0x30,
              let period = ValidityPeriod(cursor, validity),
              let subject = cursor.element(at: validity.end, within: tbs.end), subject.tag == 0x30,
              let issuerKey = nameKey(cursor, issuer), let subjectKey = nameKey(cursor, subject)
        else { return nil }
        return CertificateFields(validity: period, issuerKey: issuerKey, subjectKey: subjectKey)
    }

    /// A key that two names OpenSSL or GnuTLS could consider equal always share: the attribute
    /// values only (types ignored), ASCII lowercased, whitespace removed, separated by 0x00.
    /// Equal keys for different names only make the cache more cautious.
    private static func nameKey(_ cursor: DERCursor, _ name: DERCursor.Element) -> [UInt8]? {
        var key: [UInt8] = []
        var rdnPosition = name.contentStart
        while rdnPosition < name.end {
            guard let rdn = cursor.element(at: rdnPosition, within: name.end), rdn.tag == 0x31 else { return nil }
            var position = rdn.contentStart
            while position < rdn.end {
                guard let pair = cursor.element(at: position, within: rdn.end), pair.tag == 0x30,
                      let type = cursor.element(at: pair.contentStart, within: pair.end), type.tag == 0x06,
                      let value = cursor.element(at: type.end, within: pair.end), value.end == pair.end,
                      value.tag == 0x13 || value.tag == 0x0C || value.tag == 0x16
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
