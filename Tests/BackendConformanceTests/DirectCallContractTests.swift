import Foundation
import ReceiptConformance
import ReceiptCore
import ReceiptKit
import Testing

/// What a backend promises when ``CryptoBackend/verifySignedData(_:trustStore:)`` is called
/// directly, without ``ReceiptValidator``: it applies no structure rule (those are the
/// validator's), so each input its library refuses gets a code the contract lists, as the
/// library classifies it; and the structure rules' codes come from the validator, on every
/// backend.
@Suite struct DirectCallContractTests {
    /// The codes a direct call may throw for what the input holds (`backend_failure` is for what
    /// says nothing about the input: out of memory, another backend's store).
    static let inputCodes: Set<ReceiptValidationError.Code> = [
        .notPKCS7, .notSigned, .invalidCertificate, .untrustedChain, .invalidSignature,
    ]

    /// The receipt cases whose code a structure rule of the validator decides: the agreement
    /// fixtures (inputs the libraries once classified differently) and the `edge/` cases that
    /// are not about validity times.
    static let structureRuleCases: [ConformanceCase] = DetachedSignedDataTests.manifestCases.filter { testCase in
        guard testCase.format != .jws, let code = testCase.expect.error,
              !["certificate_expired", "certificate_not_yet_valid"].contains(code)
        else { return false }
        return testCase.category == "backend-agreement" || testCase.name.hasPrefix("edge/")
    }

    /// Every manifest receipt and fuzz regression, called directly on every backend with the
    /// case's anchors (the generated root for a regression): a verification, or a code the
    /// contract lists — never `backend_failure` or a time code, which a backend does not decide.
    @Test(arguments: BackendFixtures.backends)
    func everyFixtureGetsACodeTheContractLists(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let root = try BackendFixtures.trustStore("generated/pki/root.cer", with: backend)
        var refused = 0
        var verified = 0
        for input in DetachedSignedDataTests.inputs {
            let testCase = DetachedSignedDataTests.manifestCases.first { $0.file == input.path }
            let store = try testCase.map { try DetachedSignedDataTests.store(for: $0, backend: backend) } ?? root
            do throws(ReceiptValidationError) {
                let result = try backend.verifySignedData(input.bytes, trustStore: store)
                #expect(!result.signerChain.isEmpty, "\(input.path)")
                verified += 1
            } catch {
                #expect(Self.inputCodes.contains(error.code), "\(backend.name) \(input.path): \(error)")
                #expect(!error.message.isEmpty, "\(input.path)")
                refused += 1
            }
        }
        #expect(verified >= 50, "\(verified) verified")
        #expect(refused >= 50, "\(refused) refused")
    }

    /// The structure rules' codes are the validator's: on every backend, ``ReceiptValidator``
    /// gives each such case its manifest code, and a direct call on the same bytes gives a code
    /// the contract lists or verifies (its library decides; the rule is not the adapter's).
    @Test(arguments: BackendFixtures.backends)
    func structureRuleCodesComeFromTheValidator(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let suite = ConformanceSuite(fixturesDirectory: BackendFixtures.directory, cases: Self.structureRuleCases)
        #expect(Self.structureRuleCases.count >= 25, "\(Self.structureRuleCases.count) structure-rule cases")
        #expect(Self.structureRuleCases.contains { $0.name == "edge/signed-attributes-unsorted-signed-as-sent" })
        let report = suite.run(on: backend)
        #expect(report.results.count == Self.structureRuleCases.count)
        for result in report.results {
            #expect(result.passed, "\(backend.name) \(result.testCase.name): expected \(result.expected), got \(result.actual)")
            guard let input = DetachedSignedDataTests.inputs.first(where: { $0.path == result.testCase.file }) else {
                Issue.record("\(result.testCase.file) did not load")
                continue
            }
            let store = try DetachedSignedDataTests.store(for: result.testCase, backend: backend)
            do throws(ReceiptValidationError) {
                _ = try backend.verifySignedData(input.bytes, trustStore: store)
            } catch {
                #expect(Self.inputCodes.contains(error.code), "\(backend.name) \(result.testCase.name): \(error)")
            }
        }
    }
}
