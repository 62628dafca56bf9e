import Foundation
import SwiftASN1
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// ``X509Certificate``, ``TBSCertificate``, ``SubjectPublicKeyInfo`` and ``DERAlgorithmIdentifier``
/// say what swift-asn1's separate reading says about every fixture certificate (the same byte
/// range for every field of RFC 5280 §4.1, every extension and the RSA key's numbers), and refuse
/// truncations, wrong tags, trailing bytes, missing, extra and misplaced fields and nesting.
@Suite struct X509CertificateTests {
    static func range(_ node: ASN1Node) -> Range<Int> { node.encodedBytes.startIndex..<node.encodedBytes.endIndex }

    static func children(_ node: ASN1Node) -> [ASN1Node] {
        guard case .constructed(let items) = node.content else { return [] }
        return Array(items)
    }

    static func read(_ der: [UInt8]) -> X509Certificate? {
        der.withUnsafeBufferPointer { X509Certificate(DERCursor($0)) }
    }

    @Test func agreesWithSwiftASN1OnEveryCertificate() throws {
        let certificates = CertificateExtensionScanTests.certificates
        #expect(certificates.count >= 4)
        var extensionsSeen = 0
        for (name, certificate) in certificates {
            let der = certificate.derBytes
            let root = try SwiftASN1.DER.parse(der)
            let parts = Self.children(root)
            try #require(parts.count == 3, "\(name)")
            var fields = Self.children(parts[0])[...]
            let read = try #require(Self.read(der), "\(name)")
            let tbs = read.tbsCertificate

            #expect(read.node.whole == Self.range(root), "\(name)")
            #expect(tbs.node.whole == Self.range(parts[0]), "\(name)")
            #expect(read.signatureAlgorithm.node.whole == Self.range(parts[1]), "\(name)")
            #expect(read.signatureValue.whole == Self.range(parts[2]), "\(name)")

            let context = { (number: UInt) in ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific) }
            if fields.first?.identifier == context(0) {
                let version = Self.children(fields.removeFirst())
                #expect(tbs.version?.whole == version.first.map(Self.range), "\(name)")
                let number = try Int(derEncoded: version[0])
                #expect(der.withUnsafeBufferPointer { tbs.versionNumber(DERCursor($0)) } == number, "\(name)")
            } else {
                #expect(tbs.version == nil && der.withUnsafeBufferPointer { tbs.versionNumber(DERCursor($0)) } == 0, "\(name)")
            }
            let required = Array(fields.prefix(6))
            try #require(required.count == 6, "\(name)")
            #expect(tbs.serialNumber.whole == Self.range(required[0]), "\(name)")
            #expect(tbs.signature.node.whole == Self.range(required[1]), "\(name)")
            #expect(tbs.signature.algorithm.whole == Self.range(Self.children(required[1])[0]), "\(name)")
            #expect(tbs.signature.parameters?.whole == Self.children(required[1]).dropFirst().first.map(Self.range), "\(name)")
            #expect(tbs.issuer.whole == Self.range(required[2]), "\(name)")
            #expect(tbs.validity.node.whole == Self.range(required[3]), "\(name)")
            #expect(tbs.subject.whole == Self.range(required[4]), "\(name)")
            let key = Self.children(required[5])
            #expect(tbs.subjectPublicKeyInfo.node.whole == Self.range(required[5]), "\(name)")
            #expect(tbs.subjectPublicKeyInfo.algorithm.node.whole == Self.range(key[0]), "\(name)")
            #expect(tbs.subjectPublicKeyInfo.subjectPublicKey.whole == Self.range(key[1]), "\(name)")

            var rest = fields.dropFirst(6)
            let issuerUniqueID = rest.first?.identifier == context(1) ? rest.removeFirst() : nil
            let subjectUniqueID = rest.first?.identifier == context(2) ? rest.removeFirst() : nil
            let extensionsField = rest.first?.identifier == context(3) ? rest.removeFirst() : nil
            #expect(rest.isEmpty, "\(name)")
            #expect(tbs.issuerUniqueID?.whole == issuerUniqueID.map(Self.range), "\(name)")
            #expect(tbs.subjectUniqueID?.whole == subjectUniqueID.map(Self.range), "\(name)")
            let list = extensionsField.map { Self.children($0)[0] }
            #expect(tbs.extensions?.whole == list.map(Self.range), "\(name)")
            let extensions = try #require(der.withUnsafeBufferPointer { tbs.extensionList(DERCursor($0)) }, "\(name)")
            let expected = list.map(Self.children) ?? []
            #expect(extensions.count == expected.count, "\(name)")
            for (extensionRead, node) in zip(extensions, expected) {
                let members = Self.children(node)
                #expect(extensionRead.node.whole == Self.range(node))
                #expect(extensionRead.extnID.whole == Self.range(members[0]))
                #expect(extensionRead.critical?.whole == (members.count == 3 ? Self.range(members[1]) : nil))
                #expect(extensionRead.extnValue.whole == Self.range(members[members.count - 1]))
                let critical = members.count == 3 ? try Bool(derEncoded: members[1]) : false
                #expect(der.withUnsafeBufferPointer { extensionRead.isCritical(DERCursor($0)) } == critical)
                extensionsSeen += 1
            }

            // An RSA key: its two numbers where swift-asn1 finds them inside the BIT STRING.
            let oid = try ASN1ObjectIdentifier(derEncoded: Self.children(key[0])[0])
            if oid == ASN1ObjectIdentifier("1.2.840.113549.1.1.1") {
                let bits = try ASN1BitString(derEncoded: key[1])
                let numbers = Self.children(try SwiftASN1.DER.parse(bits.bytes))  // indices stay those of `der`
                let found = try #require(der.withUnsafeBufferPointer { tbs.subjectPublicKeyInfo.rsaPublicKey(DERCursor($0)) })
                #expect(found.modulus.whole == Self.range(numbers[0]), "\(name)")
                #expect(found.exponent.whole == Self.range(numbers[1]), "\(name)")
                #expect(tbs.subjectPublicKeyInfo.algorithm.hasAbsentOrNullParameters)
            }

            // The same value read from inside a larger buffer, at its range.
            let padded: [UInt8] = [0x05, 0x00] + der + [0x05, 0x00]
            let inner = padded.withUnsafeBufferPointer { X509Certificate(DERCursor($0), in: 2..<(2 + der.count)) }
            #expect(inner?.tbsCertificate.serialNumber.start == tbs.serialNumber.start + 2, "\(name)")
            #expect(CertificateStructure.isCertificate(der), "\(name)")
        }
        #expect(extensionsSeen >= 10)
    }

    /// A well-formed v3 certificate to mutate: the first fixture certificate with extensions.
    static func template() throws -> DERTree {
        let certificate = try #require(CertificateExtensionScanTests.certificates.first { _, certificate in
            guard let read = Self.read(certificate.derBytes) else { return false }
            return read.tbsCertificate.extensions != nil && CertificateStructure.isCertificate(certificate.derBytes)
        })
        return try #require(DERTree(certificate.1.derBytes))
    }

    @Test func refusesWhatIsNotTheSchema() throws {
        let tree = try Self.template()
        let der = tree.bytes
        #expect(Self.read(der) != nil)
        // Every truncation, and trailing bytes.
        for count in stride(from: 0, to: der.count, by: 1) {
            #expect(Self.read(Array(der.prefix(count))) == nil, "prefix \(count)")
        }
        #expect(Self.read(der + [0]) == nil)
        #expect(Self.read(der + [0x05, 0x00]) == nil)

        var variants: [(String, DERTree)] = []
        func variant(_ name: String, _ edit: (inout DERTree) -> Void) {
            var copy = tree
            edit(&copy)
            variants.append((name, copy))
        }
        let tbs = [0]
        let hasVersion = tree[tbs].children[0].tag == 0xA0
        let first = hasVersion ? 1 : 0  // serialNumber
        variant("a SET, not a SEQUENCE") { $0.tag = 0x31 }
        variant("nested in a SEQUENCE") { $0 = DERTree(tag: 0x30, children: [$0]) }
        variant("no signatureValue") { $0.children.removeLast() }
        variant("a fourth element") { $0.children.append(DERTree(tag: 0x05, content: [])) }
        variant("signatureValue an OCTET STRING") { $0.children[2].tag = 0x04 }
        variant("signatureAlgorithm without OID") { $0.children[1].children[0].tag = 0x04 }
        variant("signatureAlgorithm with two parameters") {
            $0.children[1].children += [DERTree(tag: 0x05, content: []), DERTree(tag: 0x05, content: [])]
        }
        variant("TBSCertificate a SET") { $0[tbs].tag = 0x31 }
        variant("serialNumber an ENUMERATED") { $0[tbs].children[first].tag = 0x0A }
        variant("no serialNumber") { $0[tbs].children.remove(at: first) }
        variant("issuer a SET") { $0[tbs].children[first + 2].tag = 0x31 }
        variant("validity of one time") { $0[tbs].children[first + 3].children.removeLast() }
        variant("validity time a PrintableString") { $0[tbs].children[first + 3].children[0].tag = 0x13 }
        variant("no subject") { $0[tbs].children.remove(at: first + 4) }
        variant("key without BIT STRING") { $0[tbs].children[first + 5].children.removeLast() }
        variant("key a BIT STRING in an extra SEQUENCE") {
            let bits = $0[tbs].children[first + 5].children[1]
            $0[tbs].children[first + 5].children[1] = DERTree(tag: 0x30, children: [bits])
        }
        variant("version holding two INTEGERs") {
            $0[tbs].children.insert(DERTree(tag: 0xA0, children: [DERTree(tag: 0x02, content: [2]), DERTree(tag: 0x02, content: [2])]), at: 0)
            if hasVersion { $0[tbs].children.remove(at: 1) }
        }
        variant("version after the serial") {
            $0[tbs].children.insert(DERTree(tag: 0xA0, children: [DERTree(tag: 0x02, content: [2])]), at: first + 1)
        }
        variant("a trailing field after the extensions") { $0[tbs].children.append(DERTree(tag: 0x05, content: [])) }
        variant("two [3] fields") { $0[tbs].children.append($0[tbs].children[$0[tbs].children.count - 1]) }
        variant("[3] holding a SET") { $0[tbs].children[$0[tbs].children.count - 1].children[0].tag = 0x31 }
        variant("issuerUniqueID after the extensions") { $0[tbs].children.append(DERTree(tag: 0x81, content: [0])) }
        variant("issuerUniqueID constructed") {
            $0[tbs].children.insert(DERTree(tag: 0xA1, children: [DERTree(tag: 0x03, content: [0])]), at: first + 6)
        }
        for (name, mutated) in variants {
            #expect(Self.read(mutated.bytes) == nil, "\(name)")
            #expect(!CertificateStructure.isCertificate(mutated.bytes), "\(name)")
        }

        // Extensions the list refuses (the certificate's shape itself is fine).
        let extensionsPath = tbs + [tree[tbs].children.count - 1, 0]
        for (name, edit) in [
            ("an Extension without OID", { (list: inout DERTree) in list.children[0].children[0].tag = 0x04 }),
            ("an Extension without value", { (list: inout DERTree) in list.children[0].children = [list.children[0].children[0]] }),
            ("an Extension of four or more", { (list: inout DERTree) in
                list.children[0].children.insert(contentsOf: [DERTree(tag: 0x05, content: []), DERTree(tag: 0x05, content: [])], at: 1)
            }),
            ("an Extension value a BIT STRING", { (list: inout DERTree) in
                list.children[0].children[list.children[0].children.count - 1].tag = 0x03
            }),
            ("an Extension a SET", { (list: inout DERTree) in list.children[0].tag = 0x31 }),
        ] as [(String, (inout DERTree) -> Void)] {
            var copy = tree
            edit(&copy[extensionsPath])
            let bytes = copy.bytes
            let read = try #require(Self.read(bytes), "\(name)")
            #expect(bytes.withUnsafeBufferPointer { read.tbsCertificate.extensionList(DERCursor($0)) } == nil, "\(name)")
            #expect(CertificateExtensionScan.contains(KnownObjectIdentifier.subjectAltName.tlv, in: bytes) == nil, "\(name)")
        }
    }

    /// The v1 shape (no version, no extensions) and the unique identifiers are read where they are.
    @Test func readsTheOptionalFields() throws {
        var tree = try Self.template()
        let tbs = [0]
        if tree[tbs].children[0].tag == 0xA0 { tree[tbs].children.removeFirst() }
        tree[tbs].children.removeLast()  // the [3] extensions
        let v1 = try #require(Self.read(tree.bytes))
        #expect(v1.tbsCertificate.version == nil && v1.tbsCertificate.extensions == nil)
        #expect(tree.bytes.withUnsafeBufferPointer { v1.tbsCertificate.extensionList(DERCursor($0)) } == [])
        tree[tbs].children += [DERTree(tag: 0x81, content: [0]), DERTree(tag: 0x82, content: [0, 0x80])]
        let bytes = tree.bytes
        let v2 = try #require(Self.read(bytes))
        let issuerID = try #require(v2.tbsCertificate.issuerUniqueID)
        let subjectID = try #require(v2.tbsCertificate.subjectUniqueID)
        #expect(Array(bytes[issuerID.whole]) == [0x81, 1, 0] && Array(bytes[subjectID.whole]) == [0x82, 2, 0, 0x80])
        #expect(!CertificateStructure.isCertificate(bytes))  // unique identifiers need v2: the structure rule
    }
}

