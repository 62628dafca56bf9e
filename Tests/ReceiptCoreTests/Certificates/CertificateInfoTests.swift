import Foundation
import ReceiptConformance
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

@Suite struct CertificateInfoTests {
    @Test(arguments: Fixtures.receiptNames)
    func embeddedCertificatesMatchTheIndependentDecode(_ name: String) throws {
        let container = try PKCS7Container(bytes: Fixtures.receipt(name))
        let expected = try ExpectedReceipt(contentsOf: Fixtures.expectedURL(name))
        #expect(container.certificates.count == expected.certificates.count)
        for (certificate, want) in zip(container.certificates, expected.certificates) {
            let info = try CertificateInfo(certificate)
            #expect(info.subject == want.subject)
            #expect(info.issuer == want.issuer)
            #expect(info.serialHex == want.serialHex)
            #expect(info.notBefore == RFC3339.parse(want.notBefore))
            #expect(info.notAfter == RFC3339.parse(want.notAfter))
        }
    }

    @Test(arguments: RealReceipt.apple.map(\.name))
    func appleChainsCarryTheMarkerOIDs(_ name: String) throws {
        let container = try PKCS7Container(bytes: Fixtures.receipt(name))
        let infos = try container.certificates.map { try CertificateInfo($0) }
        let leaf = try #require(infos.first { $0.subject.contains("Receipt Signing") })
        let intermediate = try #require(infos.first { $0.subject.contains("Worldwide Developer Relations Certification Authority") })
        #expect(leaf.extensionOIDs.contains("1.2.840.113635.100.6.11.1"))
        #expect(!leaf.isCA)
        #expect(!leaf.isSelfIssued)
        #expect(intermediate.extensionOIDs.contains("1.2.840.113635.100.6.2.1"))
        #expect(intermediate.isCA)
        #expect(intermediate.extensionOIDs.contains("2.5.29.19"))
    }

    @Test func rootIsSelfIssuedCA() throws {
        let info = try CertificateInfo(AppleRootCertificates.appleIncRootCA)
        #expect(info.subject == "CN=Apple Root CA,OU=Apple Certification Authority,O=Apple Inc.,C=US")
        #expect(info.isSelfIssued)
        #expect(info.isCA)
        #expect(info.serialHex == "2")
        #expect(info.signatureAlgorithmOID == "1.2.840.113549.1.1.5")
        #expect(RFC3339.string(from: info.notAfter) == "2035-02-09T21:40:36Z")
    }

    @Test func storeKitCertificateNamesEmailAddressByOID() throws {
        let info = try CertificateInfo(AppleRootCertificates.storeKitTest)
        #expect(info.subject == "1.2.840.113549.1.9.1=StoreKit,C=US,OU=StoreKit,O=StoreKit,CN=StoreKit")
        #expect(info.isSelfIssued)
    }

    @Test(arguments: [[], [0x30, 0x00], [0x02, 0x01, 0x01], [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF]] as [[UInt8]])
    func garbageIsAnInvalidCertificate(_ bytes: [UInt8]) {
        let error = #expect(throws: ReceiptValidationError.self) { try CertificateInfo(derBytes: bytes) }
        #expect(error?.code == .invalidCertificate)
    }

    @Test func truncatedCertificatesFailCleanly() {
        let der = AppleRootCertificates.appleIncRootCA.derBytes
        for length in stride(from: 0, to: der.count, by: 37) {
            #expect(throws: ReceiptValidationError.self) { try CertificateInfo(derBytes: Array(der.prefix(length))) }
        }
    }
}
