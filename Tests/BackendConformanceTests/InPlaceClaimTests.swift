import Foundation
import ReceiptConformance
import ReceiptKit
import Testing

/// ``VerifiedSignedData/inputContentRange``: every backend states where in its input it verified a
/// canonical receipt's content, and the validator believes that claim only when its own input
/// holds the returned content there.
@Suite struct InPlaceClaimTests {
    /// A real backend whose answers are passed on, the in-place claim made about a copy of the
    /// input with one content octet changed when `tampers` (a claim the input does not bear out).
    struct ClaimOnCopy: CryptoBackend {
        let base: any CryptoBackend
        let tampers: Bool
        var name: String { base.name }

        func loadCertificate(_ bytes: [UInt8]) throws(ReceiptValidationError) -> Certificate { try base.loadCertificate(bytes) }
        func makeTrustStore(anchors: [Certificate]) throws(ReceiptValidationError) -> any TrustStore {
            try base.makeTrustStore(anchors: anchors)
        }
        func sha1(_ parts: [[UInt8]]) throws(ReceiptValidationError) -> [UInt8] { try base.sha1(parts) }

        func verifySignedData(_ bytes: [UInt8], trustStore: any TrustStore) throws(ReceiptValidationError) -> VerifiedSignedData {
            let verified = try base.verifySignedData(bytes, trustStore: trustStore)
            guard let range = verified.inputContentRange, !range.isEmpty else { return verified }
            var copy = bytes
            if tampers { copy[range.lowerBound + range.count / 2] ^= 0x01 }
            return VerifiedSignedData(
                contentVerifiedIn: copy, range: range,
                signerChain: verified.signerChain, digestAlgorithm: verified.digestAlgorithm,
                hasSignedAttributes: verified.hasSignedAttributes)
        }
    }

    static func outcome(_ backend: any CryptoBackend, _ path: String) throws -> ReceiptValidationReport {
        let root = try BackendFixtures.certificate("generated/pki/root.cer", with: backend)
        let validator = try ReceiptValidator(backend: backend, configuration: .init(trustAnchors: [root], usesVerifiedChainCache: false))
        return validator.report(for: try BackendFixtures.bytes(path))
    }

    @Test(arguments: BackendFixtures.backends)
    func everyBackendStatesWhereItVerifiedACanonicalReceipt(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        for path in ["generated/receipts/valid-sha256-noattr.receipt", "generated/receipts/valid-sha256-attrs.receipt"] {
            let bytes = try BackendFixtures.bytes(path)
            let store = try BackendFixtures.trustStore("generated/pki/root.cer", with: backend)
            let verified = try backend.verifySignedData(bytes, trustStore: store)
            let range = try #require(verified.inputContentRange, "\(backend.name) \(path)")
            #expect(Array(bytes[range]) == verified.content)
            #expect(try Self.outcome(ClaimOnCopy(base: backend, tampers: false), path).isValid)
            let tampered = try Self.outcome(ClaimOnCopy(base: backend, tampers: true), path)
            #expect(tampered.error?.code == .backendFailure && tampered.receipt == nil, "\(backend.name) \(path)")
        }
        // A BER receipt is verified from a copy: no claim.
        let ber = try BackendFixtures.bytes("generated/receipts/valid-sha256-noattr-ber.receipt")
        let store = try BackendFixtures.trustStore("generated/pki/root.cer", with: backend)
        let verified = try backend.verifySignedData(ber, trustStore: store)
        #expect(verified.inputContentRange == nil)
    }

    /// The conformance kit holds a backend to its claim: a backend whose in-place claims do not hold
    /// fails every valid case it verified in place (`backend_failure`), and passes them when the claim
    /// holds, so a third-party backend cannot pass the kit with a false claim.
    @Test(arguments: BackendFixtures.backends)
    func theConformanceKitFailsABackendWhoseClaimDoesNotHold(_ backendCase: BackendCase) throws {
        let suite = try ConformanceSuite(fixturesDirectory: ConformanceSuiteTests.fixtures)
        // Receipt cases: the in-place claim is about signedData (the wrapper adopts no
        // SignaturePrimitives, so a JWS case could only report backend_failure).
        let valid = suite.cases.filter { $0.expect.error == nil && $0.format == .receipt }
        let honest = ConformanceSuite(fixturesDirectory: suite.fixturesDirectory, cases: valid)
            .run(on: ClaimOnCopy(base: backendCase.backend, tampers: false), chainCache: .off)
        #expect(honest.failed.isEmpty, "\(honest.table(onlyFailures: true))")
        let lying = ConformanceSuite(fixturesDirectory: suite.fixturesDirectory, cases: valid)
            .run(on: ClaimOnCopy(base: backendCase.backend, tampers: true), chainCache: .off)
        let failures = lying.failed.map(\.actual)
        #expect(!failures.isEmpty)
        #expect(failures.allSatisfy { $0 == .failure(.backendFailure) }, "\(lying.table(onlyFailures: true))")
    }
}
