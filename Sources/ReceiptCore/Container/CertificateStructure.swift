/// Strict DER checks of X.509 structures, shared by every backend (see ``SignedDataStructure``).
///
/// Stricter than OpenSSL's and GnuTLS's decoders where they differ, so that a certificate either
/// passes here and then decodes the same way in both, or is `invalid_certificate` in both.
package enum CertificateStructure {
    /// Whether `der` is exactly one strict-DER Certificate: `SEQUENCE { TBSCertificate,
    /// AlgorithmIdentifier (equal to the TBS signature field), BIT STRING }`, the TBSCertificate
    /// with version 1–3, a minimal serial INTEGER, well-formed issuer and subject Names (valid
    /// UTF8String, BMPString and UniversalString values), a Validity of two well-formed times, a
    /// SubjectPublicKeyInfo (an rsaEncryption key exactly one RSAPublicKey), unique identifiers only
    /// from version 2 and extensions (unique OIDs,
    /// DER BOOLEAN critical flags) only in version 3.
    package static func isCertificate(_ der: [UInt8]) -> Bool {
        der.withUnsafeBufferPointer { pointer in
            let cursor = DERCursor(pointer)
            guard let certificate = X509Certificate(cursor) else { return false }
            let tbs = certificate.tbsCertificate
            let key = tbs.subjectPublicKeyInfo
            guard let version = tbs.versionNumber(cursor), version <= 2,
                  isAlgorithmIdentifier(cursor, certificate.signatureAlgorithm), isBitString(cursor, certificate.signatureValue),
                  isMinimalInteger(content(cursor, tbs.serialNumber)),
                  isAlgorithmIdentifier(cursor, tbs.signature),
                  cursor.equals(tbs.signature.node.whole, Array(pointer[certificate.signatureAlgorithm.node.whole])),
                  isName(cursor, tbs.issuer), isName(cursor, tbs.subject),
                  isAlgorithmIdentifier(cursor, key.algorithm), isBitString(cursor, key.subjectPublicKey), isPublicKey(cursor, key)
            else { return false }
            for uniqueID in [tbs.issuerUniqueID, tbs.subjectUniqueID] {
                guard let uniqueID else { continue }
                guard version >= 1, isBitStringContent(content(cursor, uniqueID)) else { return false }
            }
            guard tbs.extensions == nil || (version == 2 && isExtensions(cursor, tbs)) else { return false }
            return true
        }
    }

    /// Whether `der` is exactly one strict-DER Name with well-formed attribute values.
    package static func isName(_ der: [UInt8]) -> Bool {
        der.withUnsafeBufferPointer { pointer in
            let cursor = DERCursor(pointer)
            guard let name = cursor.element(at: 0, within: pointer.count), name.end == pointer.count else { return false }
            return isName(cursor, name)
        }
    }

    /// The byte ranges of the issuer Name and serial number INTEGER TLVs of the certificate at
    /// `range` of the cursor's buffer (one ``isCertificate(_:)`` accepted).
    package static func issuerAndSerial(_ cursor: DERCursor, _ range: Range<Int>) -> (issuer: Range<Int>, serial: Range<Int>)? {
        guard let tbs = X509Certificate(cursor, in: range)?.tbsCertificate else { return nil }
        return (tbs.issuer.whole, tbs.serialNumber.whole)
    }

    /// A comparison key for a DER Name under which every two names OpenSSL's canonical comparison
    /// finds equal are equal too (it is looser): per attribute, the OID and the value decoded to
    /// Unicode (UTF8String, BMPString, UniversalString; other types octet by octet), ASCII
    /// lower-cased, all whitespace removed. `nil` when `der` is not a Name.
    package static func looseNameKey(_ der: [UInt8]) -> [[UInt8]]? {
        der.withUnsafeBufferPointer { pointer -> [[UInt8]]? in
            let cursor = DERCursor(pointer)
            guard let name = cursor.element(at: 0, within: pointer.count), name.identifier == .sequence,
                  let relatives = children(cursor, name)
            else { return nil }
            var key: [[UInt8]] = []
            for relative in relatives {
                guard let attributes = children(cursor, relative) else { return nil }
                key.append([])  // RDN boundary
                for attribute in attributes {
                    guard let pair = children(cursor, attribute), pair.count == 2 else { return nil }
                    var item = Array(pointer[pair[0].contentStart..<pair[0].end])
                    item.append(0)
                    let value = pointer[pair[1].contentStart..<pair[1].end]
                    for scalar in looseScalars(value, tag: pair[1].identifier) {
                        if scalar == 0x20 || (0x09...0x0D).contains(scalar) { continue }
                        let lowered = (0x41...0x5A).contains(scalar) ? scalar + 0x20 : scalar
                        guard let unicode = Unicode.Scalar(lowered) else { continue }
                        UTF8.encode(unicode) { item.append($0) }
                    }
                    key.append(item)
                }
            }
            return key
        }
    }

    private static func looseScalars(_ value: Slice<UnsafeBufferPointer<UInt8>>, tag: ASN1Tag) -> [UInt32] {
        switch tag {
        case .utf8String:
            return String(decoding: value, as: UTF8.self).unicodeScalars.map(\.value)
        case .bmpString, .universalString:
            let width = tag == .bmpString ? 2 : 4
            var scalars: [UInt32] = []
            var index = value.startIndex
            while value.endIndex - index >= width {
                var scalar: UInt32 = 0
                for offset in 0..<width { scalar = (scalar << 8) | UInt32(value[index + offset]) }
                scalars.append(scalar)
                index += width
            }
            return scalars
        default:
            return value.map { UInt32($0) }
        }
    }

    /// Whether the content octets of a universal primitive are a valid encoding of its type:
    /// BOOLEAN one octet, INTEGER and ENUMERATED minimal, BIT STRING well-formed, NULL empty,
    /// OBJECT IDENTIFIER decodable, BMPString a whole number of 2-octet and UniversalString of
    /// 4-octet characters (OpenSSL refuses other lengths wherever it decodes an ANY, GnuTLS keeps
    /// them); tag 0 (end-of-contents) and a primitive SEQUENCE or SET are refused. Other types are
    /// not checked.
    package static func isWellFormedPrimitive<Octets: Collection<UInt8>>(tag: UInt32, _ content: Octets) -> Bool {
        switch tag {
        case 0: return false  // end-of-contents is no value
        case 1: return content.count == 1
        case 2, 10: return isMinimalInteger(content)
        case 3:
            guard let unused = content.first else { return false }
            return unused <= 7 && (content.count > 1 || unused == 0)
        case 5: return content.isEmpty
        case 16, 17: return false  // SEQUENCE and SET are constructed (OpenSSL refuses a primitive one, GnuTLS read it)
        case 6: return isObjectIdentifier(content)
        case 28: return content.count % 4 == 0
        case 30: return content.count % 2 == 0
        default: return true
        }
    }

    /// Whether OBJECT IDENTIFIER content octets are what `decodeObjectIdentifier` accepts
    /// (``ObjectIdentifierContent/isValid(_:)``), without building the dotted string.
    package static func isObjectIdentifier<Octets: Collection<UInt8>>(_ content: Octets) -> Bool {
        ObjectIdentifierContent.isValid(content)
    }

    /// Whether INTEGER content octets are non-empty and minimal (``ASN1Integer/isMinimal(_:)``).
    package static func isMinimalInteger<Octets: Collection<UInt8>>(_ content: Octets) -> Bool {
        ASN1Integer.isMinimal(content)
    }

    // MARK: Internals

    private static let maximumDepth = 16

    private static func children(_ cursor: DERCursor, _ parent: DERCursor.Element) -> [DERCursor.Element]? {
        cursor.children(of: parent)
    }

    private static func isOID(_ cursor: DERCursor, _ element: DERCursor.Element) -> Bool {
        element.identifier == .objectIdentifier && isObjectIdentifier(cursor.bytes[element.contentStart..<element.end])
    }

    /// An AlgorithmIdentifier whose OID decodes and whose parameters are strict DER throughout.
    private static func isAlgorithmIdentifier(_ cursor: DERCursor, _ algorithm: DERAlgorithmIdentifier) -> Bool {
        guard isOID(cursor, algorithm.algorithm) else { return false }
        return algorithm.parameters.map { isWellFormed(cursor, $0, depth: 0) } ?? true
    }

    /// The content octets of `element`.
    private static func content(_ cursor: DERCursor, _ element: DERCursor.Element) -> Slice<UnsafeBufferPointer<UInt8>> {
        cursor.bytes[element.contentStart..<element.end]
    }

    /// Whether a constructed element's content tiles into strict DER elements, recursively (bounded).
    private static func isWellFormed(_ cursor: DERCursor, _ element: DERCursor.Element, depth: Int) -> Bool {
        let tag = element.identifier
        guard tag.isConstructed else {
            guard tag.isUniversal else { return true }
            return isWellFormedPrimitive(tag: UInt32(tag.number), cursor.bytes[element.contentStart..<element.end])
        }
        // Universal types in constructed form: in DER only SEQUENCE and SET.
        guard tag.mayBeConstructed else { return false }
        guard depth < maximumDepth, let items = children(cursor, element) else { return false }
        return items.allSatisfy { isWellFormed(cursor, $0, depth: depth + 1) }
    }

    private static func isBitString(_ cursor: DERCursor, _ element: DERCursor.Element) -> Bool {
        element.identifier == .bitString && isBitStringContent(cursor.bytes[element.contentStart..<element.end])
    }

    /// BIT STRING content: an unused-bits octet 0…7 (0 when empty), the unused bits zero.
    private static func isBitStringContent(_ content: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let unused = content.first, unused <= 7 else { return false }
        if content.count == 1 { return unused == 0 }
        guard let last = content.last else { return false }
        return last & ((1 << unused) - 1) == 0
    }

    /// An rsaEncryption key's BIT STRING holds exactly one RSAPublicKey ::= SEQUENCE { modulus
    /// INTEGER, publicExponent INTEGER } of minimal INTEGERs and nothing after it (OpenSSL refuses
    /// trailing bytes there as an undecodable key, GnuTLS ignores them); other algorithms' keys
    /// are left to the library.
    private static func isPublicKey(_ cursor: DERCursor, _ key: SubjectPublicKeyInfo) -> Bool {
        guard cursor.equals(key.algorithm.algorithm.whole, KnownObjectIdentifier.rsaEncryption.tlv) else { return true }
        guard let numbers = key.rsaPublicKey(cursor) else { return false }
        return isMinimalInteger(content(cursor, numbers.modulus)) && isMinimalInteger(content(cursor, numbers.exponent))
    }

    /// Name ::= SEQUENCE OF RelativeDistinguishedName (SET SIZE (1..MAX) OF
    /// SEQUENCE { OBJECT IDENTIFIER, value }), values of a directory string type (or a SEQUENCE).
    private static func isName(_ cursor: DERCursor, _ element: DERCursor.Element) -> Bool {
        guard element.identifier == .sequence, let names = children(cursor, element) else { return false }
        for relative in names {
            guard relative.identifier == .set, let attributes = children(cursor, relative), !attributes.isEmpty else { return false }
            for attribute in attributes {
                guard attribute.identifier == .sequence, let pair = children(cursor, attribute), pair.count == 2,
                      isOID(cursor, pair[0]), isDirectoryValue(cursor, pair[1])
                else { return false }
            }
        }
        return true
    }

    /// The directory string types both libraries decode in a Name (a subset of OpenSSL's
    /// `ASN1_PRINTABLE` set), with the encodings OpenSSL converts (UTF-8, UCS-2, UCS-4) valid.
    private static func isDirectoryValue(_ cursor: DERCursor, _ element: DERCursor.Element) -> Bool {
        let content = cursor.bytes[element.contentStart..<element.end]
        switch element.identifier {
        case .numericString, .printableString, .teletexString, .ia5String:
            return true
        case .utf8String:
            return isUTF8(content)
        case .bmpString:
            return content.count % 2 == 0 && isScalars(content, width: 2)
        case .universalString:
            return content.count % 4 == 0 && isScalars(content, width: 4)
        default:
            return false
        }
    }

    private static func isUTF8(_ content: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var iterator = content.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Big-endian code units of `width` octets, each a Unicode scalar (no surrogates, at most U+10FFFF).
    private static func isScalars(_ content: Slice<UnsafeBufferPointer<UInt8>>, width: Int) -> Bool {
        var index = content.startIndex
        while index < content.endIndex {
            var value: UInt32 = 0
            for offset in 0..<width { value = (value << 8) | UInt32(content[index + offset]) }
            guard value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return false }
            index += width
        }
        return true
    }

    /// `[3] EXPLICIT SEQUENCE SIZE (1..MAX) OF Extension`, Extension ::= SEQUENCE { OBJECT IDENTIFIER,
    /// critical BOOLEAN (DER TRUE only) OPTIONAL, extnValue OCTET STRING }, no OID twice.
    private static func isExtensions(_ cursor: DERCursor, _ tbs: TBSCertificate) -> Bool {
        guard let extensions = tbs.extensionList(cursor), !extensions.isEmpty else { return false }
        var seen: [ArraySlice<UInt8>] = []
        for item in extensions {
            guard isOID(cursor, item.extnID) else { return false }
            if let critical = item.critical {
                guard critical.identifier == .boolean, critical.end - critical.contentStart == 1,
                      cursor.bytes[critical.contentStart] == 0xFF
                else { return false }
            }
            let oid = ArraySlice(content(cursor, item.extnID))
            guard !seen.contains(oid) else { return false }
            seen.append(oid)
            // GnuTLS decodes the alternative names when it imports a certificate; OpenSSL only
            // when asked. Both must see well-formed GeneralNames or neither decodes the certificate.
            if oid.elementsEqual(subjectAltNameOID) || oid.elementsEqual(issuerAltNameOID) {
                let value = item.extnValue
                guard let names = cursor.element(at: value.contentStart, within: value.end), names.end == value.end,
                      isGeneralNames(cursor, names)
                else { return false }
            }
        }
        return true
    }

    private static let subjectAltNameOID = KnownObjectIdentifier.subjectAltName.content
    private static let issuerAltNameOID = KnownObjectIdentifier.issuerAltName.content

    /// GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName (context tags [0]–[8], constructed
    /// exactly for otherName, x400Address, directoryName and ediPartyName).
    private static func isGeneralNames(_ cursor: DERCursor, _ element: DERCursor.Element) -> Bool {
        guard element.identifier == .sequence, let names = children(cursor, element), !names.isEmpty else { return false }
        for name in names {
            guard name.identifier.isContextSpecific else { return false }
            let number = name.identifier.number
            let constructed = name.identifier.isConstructed
            switch number {
            case 0:
                guard constructed, let parts = children(cursor, name), parts.count == 2, isOID(cursor, parts[0]),
                      parts[1].identifier == .contextSpecific(0, constructed: true), isWellFormed(cursor, parts[1], depth: 0)
                else { return false }
            case 3, 5:
                guard constructed, isWellFormed(cursor, name, depth: 0) else { return false }
            case 4:
                guard constructed, let inner = children(cursor, name), inner.count == 1, isName(cursor, inner[0]) else {
                    return false
                }
            case 1, 2, 6:
                guard !constructed else { return false }
            case 7:
                guard !constructed, [4, 8, 16, 32].contains(name.end - name.contentStart) else { return false }
            case 8:
                guard !constructed, isObjectIdentifier(cursor.bytes[name.contentStart..<name.end]) else {
                    return false
                }
            default:
                return false
            }
        }
        return true
    }
}
