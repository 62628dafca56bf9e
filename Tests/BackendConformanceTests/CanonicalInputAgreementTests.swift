import Foundation
@testable import ReceiptCore
import ReceiptKit
import ReceiptTestSupport
import Testing

/// Same bytes, same verdict, whether the validator hands the backend an input that already is its
/// canonical form as it is (``CanonicalSignedData/isInput``, no copy) or the copy it rebuilds:
/// on every backend, with the verified-chain cache off, and on, whatever it holds.
///
/// Inputs: the cache-agreement inputs (every fixture folder and bit-flips of every real receipt,
/// ``CacheAgreementTests/inputs()``), and each accepted one rebuilt in the canonical form of its
/// first certificate path: a receipt (Apple's, or the generated ones) embeds its root too, so it
/// is not its own canonical form, while its rebuild is (certificates are not signed: a genuine
/// receipt stays genuine).
@Suite struct CanonicalInputAgreementTests {
    typealias Outcome = CacheAgreementTests.Outcome

    /// A validator like the cache-agreement one, handing the backend the input as it is or not.
    static func validator(_ backend: any CryptoBackend, cache: Bool, reusesInput: Bool) throws -> ReceiptValidator {
        var validator = try CacheAgreementTests.validator(backend, cache: cache)
        validator.reusesCanonicalInput = reusesInput
        return validator
    }

    @Test func theInputAsItIsAndItsRebuildGetOneAnswer() throws {
        let fixtures = CacheAgreementTests.inputs()
        let anchors = try [BackendFixtures.bytes("generated/pki/root.cer"), AppleRootCertificates.appleIncRootCA.derBytes]
            .map { try #require(ChainCertificate($0)) }
        // The shortcut's decision as the validator takes it: the first path's canonical form.
        func firstPathForm(_ bytes: [UInt8]) -> CanonicalSignedData? {
            guard let structure = try? SignedDataStructure(checking: bytes),
                  let path = try? SignerPaths(structure: structure, anchors: anchors).paths.first
            else { return nil }
            return try? structure.canonical(certificates: path.certificates)
        }
        var inputs = fixtures
        for input in fixtures {
            if let form = firstPathForm(input.bytes), !form.isInput {
                inputs.append(.init(name: "\(input.name)#canonical", bytes: form.der))
            }
        }
        let canonical = inputs.filter { firstPathForm($0.bytes)?.isInput == true }
        #expect(canonical.count >= 100, "\(canonical.count) inputs their own canonical form")
        var differences: [String] = []
        var valid = 0
        for (index, backend) in CryptoBackends.all.enumerated() {
            // Every input in the plain runs; a sample under the sanitizers' divisor
            // (TestIterations), a different one for each backend.
            let sampled = TestIterations.sample(inputs, offset: index)
            // Cache off: every input goes the full path.
            let shortcut = try Self.validator(backend, cache: false, reusesInput: true)
            let rebuild = try Self.validator(backend, cache: false, reusesInput: false)
            for input in sampled {
                let (a, b) = (Outcome(shortcut.report(for: input.bytes)), Outcome(rebuild.report(for: input.bytes)))
                if a.isValid { valid += 1 }
                if a != b { differences.append("\(backend.name) cache off: \(input.name): \(a) vs rebuilt \(b)") }
            }
            // Cache on: each validator's cache holds what the inputs before put in it; every
            // input is asked twice (the second time after it may have warmed the cache itself).
            let warmShortcut = try Self.validator(backend, cache: true, reusesInput: true)
            let warmRebuild = try Self.validator(backend, cache: true, reusesInput: false)
            for round in 0..<2 {
                for input in sampled {
                    let a = Outcome(warmShortcut.report(for: input.bytes))
                    let b = Outcome(warmRebuild.report(for: input.bytes))
                    if a != b { differences.append("\(backend.name) cache on, round \(round): \(input.name): \(a) vs rebuilt \(b)") }
                }
            }
        }
        print("canonical-input agreement: \(inputs.count) inputs (\(canonical.count) their own canonical form) × "
            + "\(CryptoBackends.all.count) backends, cache off and on: \(differences.count) differences")
        #expect(valid >= TestIterations.sampled(20 * CryptoBackends.all.count), "\(valid) valid")
        #expect(differences.isEmpty, "\(differences.prefix(20).joined(separator: "\n"))")
    }
}
