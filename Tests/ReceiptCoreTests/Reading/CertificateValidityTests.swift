import Foundation
import SwiftASN1
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// ``CertificateValidity`` and its two ``CertificateTime``s say what swift-asn1's separate reading
/// says about every fixture certificate (the same byte ranges, the same calendar fields), and each
/// node lies inside the production that holds it.
@Suite struct CertificateValidityTests {
    @Test func agreesWithSwiftASN1OnEveryCertificate() throws {
        let certificates = CertificateExtensionScanTests.certificates
        #expect(certificates.count >= 4)
        for (name, certificate) in certificates {
            let der = certificate.derBytes
            // swift-asn1: Certificate → TBSCertificate → (optional [0] version) serial, signature,
            // issuer, validity.
            let root = try SwiftASN1.DER.parse(der)
            guard case .constructed(let items) = root.content, let tbs = items.first(where: { _ in true }),
                  case .constructed(let fields) = tbs.content
            else { Issue.record("\(name): no TBSCertificate"); continue }
            var tbsFields = Array(fields)
            if tbsFields.first?.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
                tbsFields.removeFirst()
            }
            let validityNode = tbsFields[3]
            guard case .constructed(let times) = validityNode.content else { Issue.record("\(name): no Validity"); continue }
            let timeNodes = Array(times)
            try #require(timeNodes.count == 2)

            let read = der.withUnsafeBufferPointer { pointer -> CertificateValidity? in
                X509Certificate(DERCursor(pointer))?.tbsCertificate.validity
            }
            let validity = try #require(read, "\(name)")

            func range(_ node: ASN1Node) -> Range<Int> { node.encodedBytes.startIndex..<node.encodedBytes.endIndex }
            #expect(validity.node.whole == range(validityNode), "\(name)")
            #expect(validity.notBefore.node.whole == range(timeNodes[0]), "\(name)")
            #expect(validity.notAfter.node.whole == range(timeNodes[1]), "\(name)")

            for (time, node) in [(validity.notBefore, timeNodes[0]), (validity.notAfter, timeNodes[1])] {
                let expected: [Int]
                if node.identifier == .utcTime {
                    let utc = try SwiftASN1.UTCTime(derEncoded: node)
                    expected = [utc.year, utc.month, utc.day, utc.hours, utc.minutes, utc.seconds]
                } else {
                    let general = try SwiftASN1.GeneralizedTime(derEncoded: node)
                    expected = [general.year, general.month, general.day, general.hours, general.minutes, general.seconds]
                }
                #expect([time.year, time.month, time.day, time.hour, time.minute, time.second] == expected, "\(name)")
            }

            // Each node inside its parent.
            func inside(_ node: DERCursor.Element, _ parent: DERCursor.Element) -> Bool {
                parent.contentStart <= node.start && node.end <= parent.end
            }
            #expect(inside(validity.notBefore.node, validity.node) && inside(validity.notAfter.node, validity.node))
            #expect(validity.notBefore.node.end == validity.notAfter.node.start)
            #expect(validity.node.start >= range(tbs).lowerBound && validity.node.end <= range(tbs).upperBound)

            // The rule's period is the value's, and the certificate passes the structure check.
            let period = try #require(ValidityPeriod(certificate: der))
            #expect(period == ValidityPeriod(validity))
            #expect(CertificateStructure.isCertificate(der))
        }
    }

    @Test func rejectsAValidityThatIsNotTwoTimes() throws {
        let time: [UInt8] = [0x17, 13] + Array("250101000000Z".utf8)
        for (bytes, accepted) in [
            ([0x30, 30] + time + time, true),
            ([0x30, 15] + time, false),  // one time
            ([0x30, 45] + time + time + time, false),  // three
            ([0x31, 30] + time + time, false),  // a SET
            ([0x30, 30] + time + [0x17, 13] + Array("250230000000Z".utf8), false),  // February 30
        ] as [([UInt8], Bool)] {
            let read = bytes.withUnsafeBufferPointer { pointer -> CertificateValidity? in
                let cursor = DERCursor(pointer)
                return cursor.element(at: 0, within: pointer.count).flatMap { CertificateValidity(cursor, $0) }
            }
            #expect((read != nil) == accepted, "\(bytes)")
        }
    }
}
