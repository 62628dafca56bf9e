import Foundation
import ReceiptKit
import Testing
import ReceiptTestSupport

/// The ``CryptoBackend`` contract, checked on every compiled-in backend against real Apple and
/// Xcode receipts and generated fixtures. Nothing here names a particular backend.
@Suite struct BackendVerificationTests {
    static let appleRoot = "real/certs/AppleIncRootCertificate.cer"
    static let storeKitCertificate = "real/certs/StoreKitTestCertificate.cer"

    // MARK: Fixtures

    @Test func realFixturesLoad() throws {
        let receipts = try RealReceipt.load()
        #expect(receipts.count >= 20)
        #expect(receipts.contains { $0.isXcode })
        #expect(receipts.contains { !$0.isXcode })
        #expect(!CryptoBackends.all.isEmpty)
    }

    @Test func testSHA256MatchesKnownVectors() {
        #expect(hex(TestDigest.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(TestDigest.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(TestDigest.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    // MARK: Real Apple receipts

    @Test(arguments: BackendFixtures.backends, BackendFixtures.appleReceipts)
    func appleReceiptVerifiesAtItsCreationTime(_ backendCase: BackendCase, _ receipt: RealReceipt) throws {
        let backend = backendCase.backend
        let anchor = try BackendFixtures.certificate(Self.appleRoot, with: backend)
        let store = try backend.makeTrustStore(anchors: [anchor])
        let verified = try backend.verifySignedData(try receipt.bytes(), trustStore: store)

        #expect(hex(TestDigest.sha256(verified.content)) == receipt.expected.payloadSha256)
        #expect(verified.signerChain.count == 3)
        #expect(verified.signerChain.last == anchor)
        // Leaf first: the leaf and the intermediate are certificates embedded in the receipt.
        let embedded = Set(receipt.expected.container.certificates.map(\.sha256))
        for certificate in verified.signerChain.dropLast() {
            #expect(embedded.contains(hex(TestDigest.sha256(certificate.derBytes))))
        }
        #expect(verified.signerChain.first != verified.signerChain.last)
        let signer = try #require(receipt.expected.container.signerInfos.first)
        #expect(verified.digestAlgorithm.description == signer.digestAlgorithm)
        #expect(verified.hasSignedAttributes == signer.hasSignedAttributes)
    }

    /// Every backend verifies a DER receipt's content where it lies in the input and returns it
    /// there (no copy): the validator then keeps the receipt it parsed from those very bytes before
    /// verification instead of parsing them again.
    @Test(arguments: BackendFixtures.backends, BackendFixtures.appleReceipts)
    func appleReceiptContentIsReturnedWhereItLiesInTheInput(_ backendCase: BackendCase, _ receipt: RealReceipt) throws {
        let backend = backendCase.backend
        let store = try BackendFixtures.trustStore(Self.appleRoot, with: backend)
        let bytes = try receipt.bytes()
        let verified = try backend.verifySignedData(bytes, trustStore: store)
        let input = bytes.withUnsafeBufferPointer { $0.baseAddress }
        #expect(verified.contentSource.withUnsafeBufferPointer { $0.baseAddress } == input)
        #expect(verified.contentRange.count < bytes.count)
        #expect(hex(TestDigest.sha256(Array(bytes[verified.contentRange]))) == receipt.expected.payloadSha256)
    }

    /// A backend checks no validity period: an Apple receipt whose chain has expired since verifies,
    /// and the validator's time rule on the chain it returns reports the expiry.
    @Test(arguments: BackendFixtures.backends, BackendFixtures.appleReceipts)
    func appleReceiptVerifiesNowAndItsChainHasExpired(_ backendCase: BackendCase, _ receipt: RealReceipt) throws {
        let backend = backendCase.backend
        let store = try BackendFixtures.trustStore(Self.appleRoot, with: backend)
        let verified = try backend.verifySignedData(try receipt.bytes(), trustStore: store)
        let error = try #require(throws: ReceiptValidationError.self) {
            try backend.verifySignedData(try receipt.bytes(), trustStore: store, checkingTimesAt: Date())
        }
        #expect(error.code == .certificateExpired, "\(error)")
        #expect(!error.message.isEmpty)
        #expect(verified.signerChain.count == 3)
    }

    @Test(arguments: BackendFixtures.backends, BackendFixtures.appleReceipts)
    func appleReceiptIsNotYetValidBeforeItsCertificates(_ backendCase: BackendCase, _ receipt: RealReceipt) throws {
        let backend = backendCase.backend
        let store = try BackendFixtures.trustStore(Self.appleRoot, with: backend)
        let error = try #require(throws: ReceiptValidationError.self) {
            try backend.verifySignedData(
                try receipt.bytes(), trustStore: store, checkingTimesAt: Date(timeIntervalSince1970: 946_684_800))  // 2000-01-01
        }
        #expect(error.code == .certificateNotYetValid, "\(error)")
    }

    /// The chain must end at the caller's anchor, never at the root the receipt embeds; a broken
    /// chain is reported before expired certificates ("now").
    @Test(arguments: BackendFixtures.backends, BackendFixtures.appleReceipts)
    func appleReceiptIsUntrustedUnderAnotherAnchor(_ backendCase: BackendCase, _ receipt: RealReceipt) throws {
        let backend = backendCase.backend
        let bytes = try receipt.bytes()
        for anchor in [Self.storeKitCertificate, "real/certs/AppleRootCA-G3.cer"] {
            let store = try BackendFixtures.trustStore(anchor, with: backend)
            for time in [receipt.verificationTime, Date()] {
                let error = try #require(throws: ReceiptValidationError.self) {
                    try backend.verifySignedData(bytes, trustStore: store, checkingTimesAt: time)
                }
                #expect(error.code == .untrustedChain, "\(anchor) at \(time): \(error)")
            }
        }
    }

    // MARK: Real Xcode receipts (BER)

    @Test(arguments: BackendFixtures.backends, BackendFixtures.xcodeReceipts)
    func xcodeReceiptVerifiesAgainstStoreKitCertificate(_ backendCase: BackendCase, _ receipt: RealReceipt) throws {
        let backend = backendCase.backend
        let anchor = try BackendFixtures.certificate(Self.storeKitCertificate, with: backend)
        let store = try backend.makeTrustStore(anchors: [anchor])
        let bytes = try receipt.bytes()
        #expect(receipt.expected.container.encoding == "BER")
        for time in [receipt.verificationTime, Date()] {
            let verified = try backend.verifySignedData(bytes, trustStore: store, checkingTimesAt: time)
            #expect(hex(TestDigest.sha256(verified.content)) == receipt.expected.payloadSha256)
            #expect(verified.signerChain == [anchor])
            #expect(verified.digestAlgorithm.description == receipt.expected.container.signerInfos.first?.digestAlgorithm)
            #expect(verified.hasSignedAttributes == false)
        }
    }

    @Test(arguments: BackendFixtures.backends, BackendFixtures.xcodeReceipts)
    func xcodeReceiptIsUntrustedUnderAppleRoot(_ backendCase: BackendCase, _ receipt: RealReceipt) throws {
        let backend = backendCase.backend
        let store = try BackendFixtures.trustStore(Self.appleRoot, with: backend)
        let error = try #require(throws: ReceiptValidationError.self) {
            try backend.verifySignedData(try receipt.bytes(), trustStore: store)
        }
        #expect(error.code == .untrustedChain, "\(error)")
        #expect(!error.message.isEmpty)
    }

    @Test(arguments: BackendFixtures.backends)
    func storeWithBothAnchorsVerifiesBothKinds(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let store = try backend.makeTrustStore(anchors: [
            try BackendFixtures.certificate(Self.appleRoot, with: backend),
            try BackendFixtures.certificate(Self.storeKitCertificate, with: backend),
        ])
        for receipt in BackendFixtures.realReceipts {
            let verified = try backend.verifySignedData(try receipt.bytes(), trustStore: store)
            #expect(verified.signerChain.count == (receipt.isXcode ? 1 : 3), "\(receipt.name)")
        }
    }

    // MARK: Tampering

    /// One flipped byte inside the signed content must fail the signature (and nothing earlier).
    @Test(arguments: BackendFixtures.backends, BackendFixtures.realReceipts)
    func flippedContentByteFailsTheSignature(_ backendCase: BackendCase, _ receipt: RealReceipt) throws {
        let backend = backendCase.backend
        let store = try BackendFixtures.trustStore(receipt.anchorPath, with: backend)
        var bytes = try receipt.bytes()
        let content = try backend.verifySignedData(bytes, trustStore: store).content
        let offset = try #require(Self.offset(of: content, in: bytes), "content not contiguous in \(receipt.name)")
        bytes[offset + content.count / 2] ^= 0x01
        let error = try #require(throws: ReceiptValidationError.self) {
            try backend.verifySignedData(bytes, trustStore: store)
        }
        #expect(error.code == .invalidSignature, "\(error)")
    }

    // MARK: Generated fixtures (test PKI, with and without signed attributes)

    @Test(arguments: BackendFixtures.backends, GeneratedReceipt.valid)
    func generatedReceiptVerifies(_ backendCase: BackendCase, _ receipt: GeneratedReceipt) throws {
        let backend = backendCase.backend
        let anchor = try BackendFixtures.certificate(GeneratedReceipt.rootPath, with: backend)
        let store = try backend.makeTrustStore(anchors: [anchor])
        let bytes = try BackendFixtures.bytes(receipt.path)
        for time in [GeneratedReceipt.creationTime, Date(timeIntervalSince1970: 1_893_456_000)] {  // 2024-06-01, 2030-01-01
            let verified = try backend.verifySignedData(bytes, trustStore: store, checkingTimesAt: time)
            #expect(verified.content == (try BackendFixtures.bytes(receipt.payloadPath)))
            #expect(verified.signerChain.count == 3)
            #expect(verified.signerChain.last == anchor)
            #expect(verified.signerChain.first == (try BackendFixtures.certificate(receipt.leafPath, with: backend)))
            #expect(verified.digestAlgorithm == receipt.digestAlgorithm)
            #expect(verified.hasSignedAttributes == receipt.hasSignedAttributes)
        }
    }

    /// Every generated case whose outcome the backend alone decides.
    @Test(arguments: BackendFixtures.backends, GeneratedReceipt.classified)
    func generatedReceiptIsClassified(_ backendCase: BackendCase, _ receipt: GeneratedReceipt) throws {
        let backend = backendCase.backend
        let store = try BackendFixtures.trustStore(receipt.anchorPath, with: backend)
        let bytes = try BackendFixtures.bytes(receipt.path)
        guard let expected = receipt.expectedError else {
            _ = try backend.verifySignedData(bytes, trustStore: store, checkingTimesAt: receipt.time)
            return
        }
        let error = try #require(throws: ReceiptValidationError.self) {
            try backend.verifySignedData(bytes, trustStore: store, checkingTimesAt: receipt.time)
        }
        #expect(error.code == expected, "\(error)")
    }

    /// A chain certificate whose signature does not verify is an untrusted chain, even when an
    /// expired certificate sits above it: the backend reports the chain, and the time rule only
    /// ever runs on a chain it returned.
    @Test(arguments: BackendFixtures.backends)
    func brokenCertificateSignatureOutranksExpiry(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let store = try BackendFixtures.trustStore(GeneratedReceipt.rootPath, with: backend)
        var bytes = try BackendFixtures.bytes("generated/receipts/valid-2018-expired-chain.receipt")
        let leaf = try BackendFixtures.bytes("generated/pki/leaf-expired.cer")
        let offset = try #require(Self.offset(of: leaf, in: bytes), "the leaf is not embedded")
        bytes[offset + leaf.count - 1] ^= 0x01  // last byte of the leaf's signatureValue
        for time in [Date(timeIntervalSince1970: 1_527_854_460), Date()] {  // 2018 (valid dates), now (expired)
            let error = try #require(throws: ReceiptValidationError.self) {
                try backend.verifySignedData(bytes, trustStore: store, checkingTimesAt: time)
            }
            #expect(error.code == .untrustedChain, "at \(time): \(error)")
        }
    }

    // MARK: Not PKCS #7, not signed

    @Test(arguments: BackendFixtures.backends)
    func inputThatIsNotPKCS7IsRejected(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let store = try BackendFixtures.trustStore(Self.appleRoot, with: backend)
        let receipt = try #require(BackendFixtures.appleReceipts.first)
        let receiptBytes = try receipt.bytes()
        let inputs: [(String, [UInt8])] = [
            ("empty", []),
            ("garbage", Array("this is not a receipt".utf8)),
            ("zeros", [UInt8](repeating: 0, count: 64)),
            ("certificate", try BackendFixtures.bytes(Self.appleRoot)),
            ("truncated receipt", Array(receiptBytes.prefix(receiptBytes.count / 2))),
            ("lone SEQUENCE header", [0x30, 0x84, 0xff, 0xff, 0xff, 0xff]),
        ]
        for (label, input) in inputs {
            let error = try #require(throws: ReceiptValidationError.self, "\(label)") {
                try backend.verifySignedData(input, trustStore: store)
            }
            #expect(error.code == .notPKCS7, "\(label): \(error)")
        }
    }

    @Test(arguments: BackendFixtures.backends)
    func contentInfoThatIsNotSignedDataIsNotSigned(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let store = try BackendFixtures.trustStore(Self.appleRoot, with: backend)
        // ContentInfo { id-data, [0] EXPLICIT OCTET STRING "hello" }
        let dataContentInfo: [UInt8] = [
            0x30, 0x18, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01,
            0xa0, 0x0b, 0x04, 0x09, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x70, 0x37, 0x21,
        ]
        let error = try #require(throws: ReceiptValidationError.self) {
            try backend.verifySignedData(dataContentInfo, trustStore: store)
        }
        #expect(error.code == .notSigned, "\(error)")
    }

    @Test(arguments: BackendFixtures.backends)
    func trustStoreOfAnotherKindIsABackendFailure(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let receipt = try #require(BackendFixtures.appleReceipts.first)
        let error = try #require(throws: ReceiptValidationError.self) {
            try backend.verifySignedData(try receipt.bytes(), trustStore: ForeignTrustStore())
        }
        #expect(error.code == .backendFailure)
    }

    // MARK: Certificates and trust stores

    @Test(arguments: BackendFixtures.backends)
    func pemCertificateEqualsDERCertificate(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let derBytes = try BackendFixtures.bytes(Self.appleRoot)
        let der = try backend.loadCertificate(derBytes)
        #expect(der.derBytes == derBytes)
        let base64 = Data(derBytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        let pem = "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
        #expect(try backend.loadCertificate(Array(pem.utf8)) == der)
    }

    @Test(arguments: BackendFixtures.backends)
    func undecodableCertificateIsInvalid(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let derBytes = try BackendFixtures.bytes(Self.appleRoot)
        let inputs: [(String, [UInt8])] = [
            ("empty", []),
            ("garbage", Array("certainly not a certificate".utf8)),
            ("truncated DER", Array(derBytes.prefix(derBytes.count - 10))),
            ("PEM without body", Array("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n".utf8)),
            ("receipt", try #require(BackendFixtures.realReceipts.first).bytes()),
        ]
        for (label, input) in inputs {
            let error = try #require(throws: ReceiptValidationError.self, "\(label)") {
                try backend.loadCertificate(input)
            }
            #expect(error.code == .invalidCertificate, "\(label): \(error)")
        }
    }

    @Test(arguments: BackendFixtures.backends)
    func emptyAnchorSetHasNoRoot(_ backendCase: BackendCase) throws {
        let error = try #require(throws: ReceiptValidationError.self) {
            try backendCase.backend.makeTrustStore(anchors: [])
        }
        #expect(error.code == .rootCertificateNotFound)
    }

    @Test(arguments: BackendFixtures.backends)
    func undecodableAnchorIsInvalid(_ backendCase: BackendCase) throws {
        let error = try #require(throws: ReceiptValidationError.self) {
            try backendCase.backend.makeTrustStore(anchors: [Certificate(derBytes: [0x30, 0x03, 0x02, 0x01, 0x00])])
        }
        #expect(error.code == .invalidCertificate)
    }

    // MARK: SHA-1

    @Test(arguments: BackendFixtures.backends)
    func sha1OfConcatenatedParts(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let abc = "a9993e364706816aba3e25717850c26c9cd0d89d"
        #expect(hex(try backend.sha1([Array("abc".utf8)])) == abc)
        #expect(hex(try backend.sha1([Array("a".utf8), [], Array("bc".utf8)])) == abc)
        #expect(hex(try backend.sha1([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(try backend.sha1([[UInt8](repeating: 0x61, count: 1_000_000)])) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    // MARK: Concurrency

    @Test(arguments: BackendFixtures.backends)
    func oneTrustStoreServesManyConcurrentVerifications(_ backendCase: BackendCase) async throws {
        let backend = backendCase.backend
        let store = try BackendFixtures.trustStore(Self.appleRoot, with: backend)
        let receipts = BackendFixtures.appleReceipts
        try #require(!receipts.isEmpty)
        let inputs = try receipts.map { ($0, try $0.bytes()) }
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for round in 0..<64 {
                let (receipt, bytes) = inputs[round % inputs.count]
                group.addTask {
                    let verified = try backend.verifySignedData(bytes, trustStore: store)
                    let expiredNow = (try? backend.verifySignedData(bytes, trustStore: store, checkingTimesAt: Date())) == nil
                    return hex(TestDigest.sha256(verified.content)) == receipt.expected.payloadSha256 && expiredNow ? 0 : 1
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    // MARK: Backends agree

    @Test(.enabled(if: CryptoBackends.all.count > 1, "needs two compiled-in backends"))
    func everyBackendReturnsTheSameBytes() throws {
        let real = BackendFixtures.realReceipts.map { ($0.name, $0.receiptPath, $0.anchorPath, $0.verificationTime) }
        let generated = GeneratedReceipt.valid.map { ($0.name, $0.path, $0.anchorPath, $0.time) }
        #expect(real.count + generated.count >= 30)
        for (label, path, anchorPath, time) in real + generated {
            let bytes = try BackendFixtures.bytes(path)
            var results: [(String, VerifiedSignedData)] = []
            for backend in CryptoBackends.all {
                let store = try BackendFixtures.trustStore(anchorPath, with: backend)
                results.append((backend.name, try backend.verifySignedData(bytes, trustStore: store, checkingTimesAt: time)))
            }
            for (name, result) in results.dropFirst() {
                #expect(result.content == results[0].1.content, "\(label): \(name) content differs from \(results[0].0)")
                #expect(result == results[0].1, "\(label): \(name) differs from \(results[0].0)")
            }
        }
    }

    // MARK: Helpers

    static func offset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}

/// A generated fixture, its anchor, the verification time and the expected backend outcome.
struct GeneratedReceipt: Sendable, CustomTestStringConvertible {
    static let rootPath = "generated/pki/root.cer"
    /// 2024-06-01T12:01:00Z: the generated receipts' creation date + 60 s.
    static let creationTime = Date(timeIntervalSince1970: 1_717_243_260)
    static let now = Date()

    let path: String
    var anchorPath = rootPath
    var time = creationTime
    var expectedError: ReceiptValidationError.Code?
    var label: String?

    var testDescription: String { label ?? String(path.split(separator: "/").last ?? "") }
    var name: String { String(path.split(separator: "/").last?.split(separator: ".").first ?? "") }
    var hasSignedAttributes: Bool { name.contains("-attrs") }
    var digestAlgorithm: DigestAlgorithm { name.contains("sha1") ? .sha1 : .sha256 }
    var leafPath: String { name.contains("sha1") ? "generated/pki/leaf-sha1.cer" : "generated/pki/leaf.cer" }
    var payloadPath: String {
        if let range = name.range(of: "-iap") { return "generated/payloads/valid\(name[range.lowerBound...]).der" }
        return "generated/payloads/valid.der"
    }

    static let valid: [GeneratedReceipt] = [
        "valid-sha1-attrs", "valid-sha1-noattr", "valid-sha1-noattr-ber", "valid-sha256-attrs", "valid-sha256-attrs-ber",
        "valid-sha256-noattr", "valid-sha256-noattr-ber", "valid-sha256-noattr-iap1", "valid-sha256-noattr-iap50",
        "valid-sha256-noattr-iap5000",
    ].map { GeneratedReceipt(path: "generated/receipts/\($0).receipt") }

    static let classified: [GeneratedReceipt] = {
        func hostile(_ name: String, _ code: ReceiptValidationError.Code?) -> GeneratedReceipt {
            GeneratedReceipt(path: "generated/hostile/\(name)", expectedError: code)
        }
        let expiredChain = "generated/receipts/valid-2018-expired-chain.receipt"
        return [
            hostile("empty.receipt", .notPKCS7),
            hostile("not-pkcs7-random-256.bin", .notPKCS7),
            hostile("not-pkcs7-certificate.cer", .notPKCS7),
            hostile("truncated-1-byte.receipt", .notPKCS7),
            hostile("truncated-in-header.receipt", .notPKCS7),
            hostile("truncated-before-content.receipt", .notPKCS7),
            hostile("truncated-in-content.receipt", .notPKCS7),
            hostile("truncated-in-certificates.receipt", .notPKCS7),
            hostile("truncated-in-signature.receipt", .notPKCS7),
            hostile("truncated-last-byte-missing.receipt", .notPKCS7),
            hostile("not-signed-enveloped-data.receipt", .notSigned),
            hostile("not-signed-data-only.receipt", .notSigned),
            hostile("not-signed-certs-only.receipt", .notSigned),
            hostile("untrusted-other-root.receipt", .untrustedChain),
            hostile("untrusted-same-name-root-other-key.receipt", .untrustedChain),
            hostile("untrusted-leaf-only.receipt", .untrustedChain),
            hostile("untrusted-self-signed-leaf.receipt", .untrustedChain),
            hostile("untrusted-no-certificates.receipt", .untrustedChain),
            hostile("untrusted-intermediate-not-ca.receipt", .untrustedChain),
            hostile("tampered-content-der.receipt", .invalidSignature),
            hostile("tampered-content-ber.receipt", .invalidSignature),
            hostile("tampered-content-attrs.receipt", .invalidSignature),
            hostile("tampered-content-sha1.receipt", .invalidSignature),
            hostile("bad-signature-flipped.receipt", .invalidSignature),
            hostile("bad-signature-flipped-attrs.receipt", .invalidSignature),
            hostile("bad-signature-wrong-key.receipt", .invalidSignature),
            hostile("bad-signature-signed-attributes-modified.receipt", .invalidSignature),
            hostile("certificate-not-yet-valid.receipt", .certificateNotYetValid),
            // Policy failures are not the backend's: these verify.
            hostile("missing-marker-leaf.receipt", nil),
            hostile("malformed-nesting-10000.receipt", nil),
            hostile("malformed-empty-payload.receipt", nil),
            // Time: the 2015–2020 chain.
            GeneratedReceipt(path: expiredChain, time: Date(timeIntervalSince1970: 1_527_854_460), label: "2018-expired-chain at 2018"),
            GeneratedReceipt(path: expiredChain, expectedError: .certificateExpired, label: "2018-expired-chain at 2024"),
            GeneratedReceipt(path: expiredChain, time: now, expectedError: .certificateExpired, label: "2018-expired-chain now"),
            GeneratedReceipt(path: expiredChain, time: Date(timeIntervalSince1970: 1_401_580_800), expectedError: .certificateNotYetValid, label: "2018-expired-chain at 2014"),
            // Precedence: an untrusted chain is reported before expired certificates.
            GeneratedReceipt(path: expiredChain, anchorPath: "generated/pki/other-root.cer", time: now, expectedError: .untrustedChain, label: "2018-expired-chain, other root, now"),
            GeneratedReceipt(path: "generated/receipts/valid-sha256-noattr.receipt", anchorPath: "generated/pki/samename-root.cer", expectedError: .untrustedChain, label: "anchor with the same name, other key"),
        ]
    }()
}

/// A trust store no backend made.
private final class ForeignTrustStore: TrustStore {
    let anchors: [Certificate] = []
}
