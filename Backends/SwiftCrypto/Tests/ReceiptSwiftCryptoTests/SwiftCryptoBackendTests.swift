import Foundation
import ReceiptKit
import ReceiptSwiftCrypto
import Testing

/// What the contract asks of the backend itself, on the root package's fixtures.
@Suite struct SwiftCryptoBackendTests {
    let backend = SwiftCryptoBackend()

    static func fixture(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: ConformanceKitTests.fixtures.appendingPathComponent(path)))
    }

    /// Apple's 2015 receipt-signing chain is SHA-1 RSA throughout: it verifies, and the chain ends
    /// at the caller's anchor.
    @Test func appleSHA1ChainVerifies() throws {
        let root = try backend.loadCertificate(try Self.fixture("real/certs/AppleIncRootCertificate.cer"))
        let store = try backend.makeTrustStore(anchors: [root])
        let intermediate = try Self.fixture("real/certs/AppleWWDRCA-2008-2016.cer")
        let receipts = try FileManager.default.contentsOfDirectory(
            atPath: ConformanceKitTests.fixtures.appendingPathComponent("real/receipts").path)
        var verified = 0
        for name in receipts.sorted() where name.hasSuffix(".receipt") {
            let bytes = try Self.fixture("real/receipts/\(name)")
            guard let result = try? backend.verifySignedData(bytes, trustStore: store),
                  result.signerChain.dropFirst().first?.derBytes == intermediate
            else { continue }
            #expect(result.signerChain.count == 3)
            #expect(result.signerChain.last == root)
            #expect(result.digestAlgorithm == .sha1)
            verified += 1
        }
        #expect(verified > 0, "no real receipt chains through the 2008–2016 SHA-1 intermediate")
    }

    /// No validity period is checked: the generated 2018 chain, long expired, verifies.
    @Test func noValidityPeriodIsChecked() throws {
        let store = try backend.makeTrustStore(anchors: [try backend.loadCertificate(try Self.fixture("generated/pki/root.cer"))])
        let result = try backend.verifySignedData(try Self.fixture("generated/receipts/valid-2018-expired-chain.receipt"), trustStore: store)
        #expect(result.signerChain.count == 3)
    }

    /// A DER receipt's content is verified and returned where it lies in the input; a BER one is joined.
    @Test func contentInPlaceForDERAndJoinedForBER() throws {
        let store = try backend.makeTrustStore(anchors: [try backend.loadCertificate(try Self.fixture("generated/pki/root.cer"))])
        let der = try Self.fixture("generated/receipts/valid-sha256-attrs.receipt")
        let ber = try Self.fixture("generated/receipts/valid-sha256-attrs-ber.receipt")
        let fromDER = try backend.verifySignedData(der, trustStore: store)
        let fromBER = try backend.verifySignedData(ber, trustStore: store)
        #expect(fromDER.inputContentRange != nil)
        #expect(fromBER.inputContentRange == nil)
        #expect(fromDER.content == fromBER.content)
        #expect(fromDER.content == (try Self.fixture("generated/payloads/valid.der")))
        #expect(fromDER.hasSignedAttributes)
    }

    @Test func untrustedChainOutranksABadSignature() throws {
        let store = try backend.makeTrustStore(anchors: [try backend.loadCertificate(try Self.fixture("generated/pki/other-root.cer"))])
        #expect {
            _ = try backend.verifySignedData(try Self.fixture("generated/hostile/bad-signature-flipped.receipt"), trustStore: store)
        } throws: { ($0 as? ReceiptValidationError)?.code == .untrustedChain }
    }

    /// Through the validator: a changed Apple receipt is `invalid_signature` at its creation date
    /// and `certificate_expired` now (time outranks the signature; the backend checks no time).
    @Test func certificateTimeOutranksABadSignature() throws {
        var bytes = try Self.fixture("real/receipts/aiv-production-macos-mindnode-2017.receipt")
        let store = try backend.makeTrustStore(anchors: AppleRootCertificates.appleRoots)
        let range = try #require(try backend.verifySignedData(bytes, trustStore: store).inputContentRange)
        bytes[range.upperBound - 1] ^= 0x01
        let atCreation = try ReceiptValidator(backend: backend, configuration: .init(verificationTime: .creationDate))
        #expect(atCreation.report(for: bytes).error?.code == .invalidSignature)
        let now = try ReceiptValidator(backend: backend, configuration: .init(verificationTime: .now))
        #expect(now.report(for: bytes).error?.code == .certificateExpired)
    }

    @Test func loadsPEMAndRefusesGarbage() throws {
        let der = try Self.fixture("generated/pki/root.cer")
        let pem = "-----BEGIN CERTIFICATE-----\n" + Data(der).base64EncodedString(options: .lineLength64Characters)
            + "\n-----END CERTIFICATE-----\n"
        #expect(try backend.loadCertificate(Array(pem.utf8)).derBytes == der)
        #expect { _ = try backend.loadCertificate([0x30, 0x03, 0x02, 0x01, 0x01]) } throws: {
            ($0 as? ReceiptValidationError)?.code == .invalidCertificate
        }
        #expect { _ = try backend.makeTrustStore(anchors: []) } throws: {
            ($0 as? ReceiptValidationError)?.code == .rootCertificateNotFound
        }
    }

    @Test func sha1OfParts() throws {
        let abc = try backend.sha1([Array("a".utf8), [], Array("bc".utf8)])
        #expect(abc.map { String(format: "%02x", $0) }.joined() == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }
}
