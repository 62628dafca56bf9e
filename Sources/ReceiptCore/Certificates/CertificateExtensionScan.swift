/// Whether a certificate carries an extension, read with the strict DER cursor: no tree, no
/// allocation. The chain policy's cheap first look (``AppleChainPolicy``).
///
/// It answers only when everything on the way to the extensions is strict DER in the X.509 v3
/// shape ``CertificateInfo`` expects (Certificate a SEQUENCE of three, TBSCertificate a SEQUENCE of
/// at least six fields after the optional `[0]` version, each `[3]` holding a SEQUENCE of
/// Extension SEQUENCEs that begin with an OID and end with an OCTET STRING). Anything else is
/// `nil`, and the caller asks ``CertificateInfo``, which decodes the whole certificate with
/// swift-asn1 and explains what is wrong. The certificates it is asked about were already
/// decoded and verified by the crypto library.
enum CertificateExtensionScan {
    /// `true` or `false` when the certificate `der` was read; `nil` when it is not in the shape above.
    /// - Parameter oid: the extension's OBJECT IDENTIFIER as a whole DER TLV (tag, length, content).
    static func contains(_ oid: [UInt8], in der: [UInt8]) -> Bool? {
        der.withUnsafeBufferPointer { pointer -> Bool? in
            let cursor = DERCursor(pointer)
            guard let certificate = cursor.element(at: 0, within: pointer.count), certificate.identifier == .sequence,
                  certificate.end == pointer.count,
                  let tbs = cursor.element(at: certificate.contentStart, within: certificate.end), tbs.identifier == .sequence,
                  let algorithm = cursor.element(at: tbs.end, within: certificate.end), algorithm.identifier == .sequence,
                  let signature = cursor.element(at: algorithm.end, within: certificate.end), signature.identifier == .bitString,
                  signature.end == certificate.end
            else { return nil }

            var found = false
            var fields = 0
            var position = tbs.contentStart
            var first = true
            while position < tbs.end {
                guard let field = cursor.element(at: position, within: tbs.end) else { return nil }
                position = field.end
                if first, field.identifier == .contextSpecific(0, constructed: true) {  // [0] version
                    first = false
                    continue
                }
                first = false
                fields += 1
                guard fields > 6, field.identifier == .contextSpecific(3, constructed: true) else { continue }
                guard let list = cursor.element(at: field.contentStart, within: field.end), list.identifier == .sequence,
                      list.end == field.end
                else { return nil }
                var next = list.contentStart
                while next < list.end {
                    guard let ext = cursor.element(at: next, within: list.end), ext.identifier == .sequence,
                          let identifier = cursor.element(at: ext.contentStart, within: ext.end),
                          identifier.identifier == .objectIdentifier,
                          identifier.end < ext.end
                    else { return nil }
                    // The value is the last element and an OCTET STRING (critical BOOLEAN optional between).
                    var last = identifier
                    while last.end < ext.end {
                        guard let element = cursor.element(at: last.end, within: ext.end) else { return nil }
                        last = element
                    }
                    guard last.identifier == .octetString else { return nil }
                    if cursor.equals(identifier.whole, oid) { found = true }
                    next = ext.end
                }
            }
            guard fields >= 6 else { return nil }
            return found
        }
    }
}
