import Foundation
import SwiftASN1
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// The chain policy's strict-cursor extension scan must give exactly CertificateInfo's answer.
@Suite struct CertificateExtensionScanTests {
    /// Every certificate embedded in a real receipt, every generated test PKI certificate and the
    /// bundled roots.
    static let certificates: [(String, Certificate)] = {
        var result: [(String, Certificate)] = []
        for name in Fixtures.receiptNames {
            guard let container = try? PKCS7Container(bytes: Fixtures.receipt(name)) else { continue }
            for (index, certificate) in container.certificates.enumerated() { result.append(("\(name)#\(index)", certificate)) }
        }
        let pki = Fixtures.realDirectory.deletingLastPathComponent().appending(path: "generated/pki")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: pki.path(percentEncoded: false))) ?? []
        for file in files.sorted() where file.hasSuffix(".cer") {
            if let bytes = try? Fixtures.bytes(pki.appending(path: file)) { result.append((file, Certificate(derBytes: bytes))) }
        }
        result += AppleRootCertificates.allAppleRoots.enumerated().map { ("apple root \($0.offset)", $0.element) }
        result.append(("StoreKit test", AppleRootCertificates.storeKitTest))
        return result
    }()

    @Test func thereAreCertificatesWithAndWithoutEachMarker() {
        #expect(Self.certificates.count > 30)
        let leafAnswers = Self.certificates.map { CertificateExtensionScan.contains(AppleChainPolicy.leafMarkerTLV, in: $0.1.derBytes) }
        let intermediateAnswers = Self.certificates.map {
            CertificateExtensionScan.contains(AppleChainPolicy.intermediateMarkerTLV, in: $0.1.derBytes)
        }
        #expect(leafAnswers.contains(true) && leafAnswers.contains(false))
        #expect(intermediateAnswers.contains(true) && intermediateAnswers.contains(false))
    }

    @Test func scanAgreesWithTheFullDecodeOnEveryCertificate() throws {
        for (label, certificate) in Self.certificates {
            let info = try CertificateInfo(certificate)
            for (tlv, dotted) in [
                (AppleChainPolicy.leafMarkerTLV, AppleChainPolicy.leafMarkerOID),
                (AppleChainPolicy.intermediateMarkerTLV, AppleChainPolicy.intermediateMarkerOID),
                ([0x06, 0x03, 0x55, 0x1D, 0x13] as [UInt8], "2.5.29.19"),
            ] {
                let answer = CertificateExtensionScan.contains(tlv, in: certificate.derBytes)
                #expect(answer == info.extensionOIDs.contains(dotted), "\(label) \(dotted)")
            }
        }
    }

    @Test func markerEncodingsAreSwiftASN1s() throws {
        for (tlv, dotted) in [
            (AppleChainPolicy.leafMarkerTLV, AppleChainPolicy.leafMarkerOID),
            (AppleChainPolicy.intermediateMarkerTLV, AppleChainPolicy.intermediateMarkerOID),
        ] {
            var serializer = SwiftASN1.DER.Serializer()
            try serializer.serialize(ASN1ObjectIdentifier(dotRepresentation: dotted))
            #expect(serializer.serializedBytes == tlv)
        }
    }

    @Test func anythingOutsideTheStrictShapeIsLeftToTheFullDecode() throws {
        let leaf = try Fixtures.bytes(Fixtures.realDirectory.deletingLastPathComponent().appending(path: "generated/pki/leaf.cer"))
        #expect(CertificateExtensionScan.contains(AppleChainPolicy.leafMarkerTLV, in: leaf) == true)
        // Truncated, trailing byte, long-form length where short form fits, empty.
        #expect(CertificateExtensionScan.contains(AppleChainPolicy.leafMarkerTLV, in: Array(leaf.dropLast())) == nil)
        #expect(CertificateExtensionScan.contains(AppleChainPolicy.leafMarkerTLV, in: leaf + [0]) == nil)
        #expect(CertificateExtensionScan.contains(AppleChainPolicy.leafMarkerTLV, in: []) == nil)
        var nonMinimal = leaf
        nonMinimal[1] = 0x83  // 30 82 xx xx → 30 83 00 xx xx: same length, non-minimal
        nonMinimal.insert(0x00, at: 2)
        #expect(CertificateExtensionScan.contains(AppleChainPolicy.leafMarkerTLV, in: nonMinimal) == nil)
        // The policy then reports the full decode's error.
        #expect(throws: ReceiptValidationError.self) {
            try AppleChainPolicy().check([Certificate(derBytes: Array(leaf.dropLast())), Certificate(derBytes: leaf), Certificate(derBytes: leaf)])
        }
    }
}
