import Foundation
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

@Suite struct AppleRootCertificatesTests {
    @Test(arguments: [
        ("AppleIncRootCertificate.cer", "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024"),
        ("AppleRootCA-G2.cer", "c2b9b042dd57830e7d117dac55ac8ae19407d38e41d88f3215bc3a890444a050"),
        ("AppleRootCA-G3.cer", "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179"),
        ("StoreKitTestCertificate.cer", "ff0ba36e721d2db741d2aa11e6112ef78bf7131b46c7f035b00891d045c864fe"),
    ])
    func embeddedBytesMatchFixturesAndFingerprints(_ file: String, _ fingerprint: String) throws {
        let embedded: Certificate =
            switch file {
            case "AppleIncRootCertificate.cer": AppleRootCertificates.appleIncRootCA
            case "AppleRootCA-G2.cer": AppleRootCertificates.appleRootCAG2
            case "AppleRootCA-G3.cer": AppleRootCertificates.appleRootCAG3
            default: AppleRootCertificates.storeKitTest
            }
        #expect(hex(TestDigest.sha256(embedded.derBytes)) == fingerprint)
        #expect(embedded.derBytes == (try Fixtures.bytes(Fixtures.certificateURL(file))))
    }

    @Test func defaultAnchorsAreTheAppleIncRootOnly() {
        #expect(AppleRootCertificates.appleRoots == [AppleRootCertificates.appleIncRootCA])
        #expect(AppleRootCertificates.allAppleRoots.count == 3)
        #expect(!AppleRootCertificates.allAppleRoots.contains(AppleRootCertificates.storeKitTest))
    }

    @Test func digestSelfCheck() {
        #expect(hex(TestDigest.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(TestDigest.sha1(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }
}
