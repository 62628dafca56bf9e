#if GnuTLS
import Foundation
import ReceiptKit
import Testing
import ReceiptTestSupport

/// GnuTLS-specific checks of `GnuTLSBackend` on the real Apple receipts and the generated test PKI:
/// verification without process-wide state, BER input, chain anchoring, signed
/// attributes, every failure class, and concurrent use of one trust store.
@Suite("GnuTLSBackend")
struct GnuTLSBackendTests {
    let backend = GnuTLSBackend()

    // MARK: Real receipts

    @Test("real receipt verifies at its creation time with the exact signed content", arguments: GnuTLSRealReceipt.all)
    func realReceiptVerifiesAtCreation(receipt: GnuTLSRealReceipt) throws {
        let store = try backend.makeTrustStore(anchors: [try loadCertificate(receipt.anchorPath)])
        let result = try backend.verifySignedData(receipt.bytes, trustStore: store)
        #expect(hex(TestDigest.sha256(result.content)) == receipt.payloadSHA256)
        #expect(result.digestAlgorithm.description == receipt.digestAlgorithm)
        #expect(result.hasSignedAttributes == false)
        #expect(result.signerChain.count == (receipt.isXcode ? 1 : 3))
        #expect(result.signerChain.last == store.anchors.first)
    }

    @Test("real Apple receipt verifies now; its chain has expired (the validator's rule)", arguments: GnuTLSRealReceipt.all.filter { !$0.isXcode })
    func realAppleReceiptExpiredNow(receipt: GnuTLSRealReceipt) throws {
        let store = try backend.makeTrustStore(anchors: [try loadCertificate(receipt.anchorPath)])
        _ = try backend.verifySignedData(receipt.bytes, trustStore: store)
        let error = #expect(throws: ReceiptValidationError.self) {
            try backend.verifySignedData(receipt.bytes, trustStore: store, checkingTimesAt: Date())
        }
        #expect(error?.code == .certificateExpired)
    }

    @Test("Xcode receipt does not chain to the Apple root", arguments: GnuTLSRealReceipt.all.filter(\.isXcode))
    func xcodeReceiptUntrustedUnderAppleRoot(receipt: GnuTLSRealReceipt) throws {
        let store = try backend.makeTrustStore(anchors: [try loadCertificate("real/certs/AppleIncRootCertificate.cer")])
        let error = #expect(throws: ReceiptValidationError.self) {
            try backend.verifySignedData(receipt.bytes, trustStore: store)
        }
        #expect(error?.code == .untrustedChain)
    }

    @Test("one flipped content byte fails with invalid_signature", arguments: GnuTLSRealReceipt.all)
    func flippedContentByte(receipt: GnuTLSRealReceipt) throws {
        let store = try backend.makeTrustStore(anchors: [try loadCertificate(receipt.anchorPath)])
        let verified = try backend.verifySignedData(receipt.bytes, trustStore: store)
        let probe = Array(verified.content.prefix(24))
        let offset = try #require(firstIndex(of: probe, in: receipt.bytes))
        var tampered = receipt.bytes
        tampered[offset + probe.count - 1] ^= 0x01
        let error = #expect(throws: ReceiptValidationError.self) {
            try backend.verifySignedData(tampered, trustStore: store)
        }
        #expect(error?.code == .invalidSignature)
    }

    // MARK: Generated fixtures

    @Test("generated receipt is classified like every backend must", arguments: GnuTLSGeneratedCase.all)
    func generatedCase(testCase: GnuTLSGeneratedCase) throws {
        let store = try backend.makeTrustStore(anchors: [try loadCertificate(testCase.anchor)])
        let bytes = try fixture(testCase.file)
        if let expected = testCase.expectedError {
            let error = #expect(throws: ReceiptValidationError.self) {
                try backend.verifySignedData(bytes, trustStore: store, checkingTimesAt: testCase.time)
            }
            #expect(error?.code == expected, "\(error?.description ?? "no error")")
        } else {
            let result = try backend.verifySignedData(bytes, trustStore: store, checkingTimesAt: testCase.time)
            #expect(result.signerChain.count == 3)
            #expect(result.signerChain.last == store.anchors.first)
            #expect(result.hasSignedAttributes == testCase.file.contains("-attrs"))
            #expect(result.digestAlgorithm == (testCase.file.contains("sha1") ? .sha1 : .sha256))
            if testCase.file.contains("valid-sha"), !testCase.file.contains("iap") {
                #expect(result.content == (try fixture("generated/payloads/valid.der")))
            }
        }
    }

    @Test("BER and DER encodings of one payload give identical content")
    func berAndDERGiveSameContent() throws {
        let store = try backend.makeTrustStore(anchors: [try loadCertificate("generated/pki/root.cer")])
        let der = try backend.verifySignedData(try fixture("generated/receipts/valid-sha256-attrs.receipt"), trustStore: store)
        let ber = try backend.verifySignedData(try fixture("generated/receipts/valid-sha256-attrs-ber.receipt"), trustStore: store)
        #expect(der.content == ber.content)
        #expect(der.content == (try fixture("generated/payloads/valid.der")))
    }

    @Test("an embedded root that is byte-identical to no anchor is never trusted")
    func sameNameRootIsNotTrusted() throws {
        let store = try backend.makeTrustStore(anchors: [try loadCertificate("generated/pki/samename-root.cer")])
        let error = #expect(throws: ReceiptValidationError.self) {
            try backend.verifySignedData(
                try fixture("generated/receipts/valid-sha256-noattr.receipt"), trustStore: store
            )
        }
        #expect(error?.code == .untrustedChain)
        #expect(error?.libraryMessage?.isEmpty == false)
    }

    // MARK: Certificates, trust stores, SHA-1

    @Test("certificates load from DER and PEM to the same DER")
    func loadsDERAndPEM() throws {
        let der = try backend.loadCertificate(try fixture("generated/pki/root.cer"))
        let pem = try backend.loadCertificate(try fixture("generated/pki/root.pem"))
        #expect(der == pem)
        #expect(der.derBytes == (try fixture("generated/pki/root.cer")))
    }

    @Test("garbage is not a certificate", arguments: [[], [0x30, 0x03, 0x02, 0x01, 0x01], Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8)])
    func garbageCertificate(bytes: [UInt8]) {
        let error = #expect(throws: ReceiptValidationError.self) { try backend.loadCertificate(bytes) }
        #expect(error?.code == .invalidCertificate)
        if !bytes.isEmpty { #expect(error?.libraryMessage?.isEmpty == false) }
    }

    @Test("an empty anchor set is refused")
    func emptyTrustStore() {
        let error = #expect(throws: ReceiptValidationError.self) { try backend.makeTrustStore(anchors: []) }
        #expect(error?.code == .rootCertificateNotFound)
    }

    @Test("a store from another backend is refused")
    func foreignStore() {
        final class ForeignStore: TrustStore { let anchors: [Certificate] = [] }
        let error = #expect(throws: ReceiptValidationError.self) {
            try backend.verifySignedData([0x30, 0x00], trustStore: ForeignStore())
        }
        #expect(error?.code == .backendFailure)
    }

    @Test("SHA-1 of concatenated parts")
    func sha1OfParts() throws {
        #expect(hex(try backend.sha1([Array("a".utf8), [], Array("bc".utf8)])) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(try backend.sha1([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    @Test("one trust store serves many concurrent verifications")
    func concurrentVerification() async throws {
        let store = try backend.makeTrustStore(anchors: [try loadCertificate("real/certs/AppleIncRootCertificate.cer")])
        let receipts = GnuTLSRealReceipt.all.filter { !$0.isXcode }
        let backend = self.backend
        let hashes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for round in 0..<64 {
                let receipt = receipts[round % receipts.count]
                group.addTask {
                    let result = try backend.verifySignedData(receipt.bytes, trustStore: store)
                    return hex(TestDigest.sha256(result.content)) == receipt.payloadSHA256
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(hashes.count == 64)
        #expect(hashes.allSatisfy { $0 })
    }

    // MARK: Helpers

    func loadCertificate(_ path: String) throws -> Certificate {
        try backend.loadCertificate(try fixture(path))
    }
}

private func fixture(_ path: String) throws -> [UInt8] {
    try Fixtures.bytes(atPath: path)
}

private func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
    return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
}

/// One real receipt with the facts from `Fixtures/real/expected/<name>.json`.
struct GnuTLSRealReceipt: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let anchorPath: String
    let verificationTime: Date
    let payloadSHA256: String
    let digestAlgorithm: String
    let isXcode: Bool
    var testDescription: String { name }

    static let all: [GnuTLSRealReceipt] = RealReceipt.all.compactMap { receipt in
        guard let bytes = try? receipt.bytes(), let digest = receipt.expected.container.signerInfos.first?.digestAlgorithm else {
            return nil
        }
        return GnuTLSRealReceipt(
            name: receipt.name, bytes: bytes, anchorPath: receipt.anchorPath, verificationTime: receipt.verificationTime,
            payloadSHA256: receipt.expected.payloadSha256, digestAlgorithm: digest, isXcode: receipt.isXcode
        )
    }
}

/// A generated fixture with the backend-level outcome (payload and Apple-policy failures verify).
struct GnuTLSGeneratedCase: Sendable, CustomTestStringConvertible {
    let file: String
    let anchor: String
    let time: Date
    let expectedError: ReceiptValidationError.Code?
    var testDescription: String { "\(file) → \(expectedError?.rawValue ?? "verifies")" }

    static let creation = Date(timeIntervalSince1970: 1_717_243_200)  // 2024-06-01T12:00:00Z

    static let all: [GnuTLSGeneratedCase] = {
        let root = "generated/pki/root.cer"
        func receipt(_ name: String, _ error: ReceiptValidationError.Code?, time: Date = creation, anchor: String = root) -> GnuTLSGeneratedCase {
            GnuTLSGeneratedCase(file: "generated/receipts/\(name).receipt", anchor: anchor, time: time, expectedError: error)
        }
        func hostile(_ name: String, _ error: ReceiptValidationError.Code?) -> GnuTLSGeneratedCase {
            let file = name.contains(".") ? "generated/hostile/\(name)" : "generated/hostile/\(name).receipt"
            return GnuTLSGeneratedCase(file: file, anchor: root, time: creation, expectedError: error)
        }
        let y2018 = Date(timeIntervalSince1970: 1_527_854_400)
        return [
            receipt("valid-sha256-noattr", nil), receipt("valid-sha256-attrs", nil),
            receipt("valid-sha1-noattr", nil), receipt("valid-sha1-attrs", nil),
            receipt("valid-sha256-noattr-ber", nil), receipt("valid-sha256-attrs-ber", nil),
            receipt("valid-sha1-noattr-ber", nil), receipt("valid-sha256-noattr-iap5000", nil),
            receipt("valid-sha256-noattr", .untrustedChain, anchor: "generated/pki/other-root.cer"),
            receipt("valid-sha256-noattr", .untrustedChain, anchor: "generated/pki/samename-root.cer"),
            receipt("valid-2018-expired-chain", nil, time: y2018),
            receipt("valid-2018-expired-chain", .certificateExpired, time: Date()),
            receipt("valid-2018-expired-chain", .certificateNotYetValid, time: Date(timeIntervalSince1970: 1_401_580_800)),
            hostile("not-pkcs7-random-256.bin", .notPKCS7), hostile("not-pkcs7-certificate.cer", .notPKCS7),
            hostile("truncated-1-byte", .notPKCS7), hostile("truncated-in-header", .notPKCS7),
            hostile("truncated-before-content", .notPKCS7), hostile("truncated-in-content", .notPKCS7),
            hostile("truncated-in-certificates", .notPKCS7), hostile("truncated-in-signature", .notPKCS7),
            hostile("truncated-last-byte-missing", .notPKCS7),
            hostile("not-signed-enveloped-data", .notSigned), hostile("not-signed-data-only", .notSigned),
            hostile("not-signed-certs-only", .notSigned),
            hostile("untrusted-other-root", .untrustedChain), hostile("untrusted-same-name-root-other-key", .untrustedChain),
            hostile("untrusted-leaf-only", .untrustedChain), hostile("untrusted-self-signed-leaf", .untrustedChain),
            hostile("untrusted-no-certificates", .untrustedChain), hostile("untrusted-intermediate-not-ca", .untrustedChain),
            hostile("tampered-content-der", .invalidSignature), hostile("tampered-content-ber", .invalidSignature),
            hostile("tampered-content-attrs", .invalidSignature), hostile("tampered-content-sha1", .invalidSignature),
            hostile("bad-signature-flipped", .invalidSignature), hostile("bad-signature-flipped-attrs", .invalidSignature),
            hostile("bad-signature-wrong-key", .invalidSignature),
            hostile("bad-signature-signed-attributes-modified", .invalidSignature),
            hostile("bad-signature-message-digest-mismatch", .invalidSignature),
            hostile("certificate-not-yet-valid", .certificateNotYetValid),
            hostile("missing-marker-intermediate", nil), hostile("missing-marker-leaf", nil),
            hostile("malformed-nesting-10000", nil), hostile("malformed-trailing-bytes", nil),
            hostile("malformed-empty-payload", nil),
        ]
    }()
}

#endif
