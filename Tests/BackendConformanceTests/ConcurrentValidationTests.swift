import Foundation
import ReceiptKit
import Testing

extension Tag {
    /// Longer-running concurrency and soak-style tests (`swift test --filter` or `--skip` by suite).
    @Tag static var stress: Self
}

/// One shared validator per backend used from many tasks at once: every result must equal the
/// sequential result for the same input. (The full 8 × 10,000 run is `Scripts/leak-check.sh`,
/// in a release build; this is 8 × 250 so that it also runs under ThreadSanitizer in the suite.)
@Suite(.tags(.stress)) struct ConcurrentValidationTests {
    /// Everything observable about one validation.
    struct Outcome: Hashable, Sendable {
        var error: ReceiptValidationError?
        var receipt: Receipt?
        var signerChain: [Certificate]
        var digestAlgorithm: DigestAlgorithm?
        var verificationTime: Date?
        var trust: ReceiptTrust?

        init(_ report: ReceiptValidationReport) {
            error = report.error
            receipt = report.receipt
            signerChain = report.signerChain
            digestAlgorithm = report.digestAlgorithm
            verificationTime = report.verificationTime
            trust = report.trust
        }
    }

    /// Real Apple and Xcode receipts, generated valid receipts and the hostile corpus.
    static func workload() throws -> [[UInt8]] {
        var inputs: [[UInt8]] = []
        for folder in ["real/receipts", "generated/receipts", "generated/hostile"] {
            let directory = BackendFixtures.directory.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            where !name.contains("iap5000") {  // keep the debug-build run short
                inputs.append(try BackendFixtures.bytes("\(folder)/\(name)"))
            }
        }
        return inputs
    }

    /// The generated test root and Apple Inc. Root CA as anchors, Xcode receipts accepted, fixed "now".
    static func validator(_ backend: any CryptoBackend) throws -> ReceiptValidator {
        let testRoot = try BackendFixtures.certificate("generated/pki/root.cer", with: backend)
        let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        return try ReceiptValidator(backend: backend, configuration: .init(
            trustAnchors: [testRoot, AppleRootCertificates.appleIncRootCA],
            acceptsStoreKitTestReceipts: true,
            currentDate: { now }
        ))
    }

    @Test(arguments: BackendFixtures.backends)
    func sharedValidatorGivesTheSequentialResultFromEightTasks(_ backend: BackendCase) async throws {
        let inputs = try Self.workload()
        let validator = try Self.validator(backend.backend)
        let expected = inputs.map { Outcome(validator.report(for: $0)) }
        let validCount = expected.filter { $0.error == nil }.count
        #expect(validCount > 10 && validCount < inputs.count - 10, "the workload mixes valid and invalid inputs")

        let tasks = 8
        let iterations = 250
        let mismatches = await withTaskGroup(of: [Int].self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var wrong: [Int] = []
                    for iteration in 0..<iterations {
                        let index = (iteration * 7 + task * 13) % inputs.count
                        if Outcome(await validator.report(for: inputs[index])) != expected[index] { wrong.append(index) }
                        if iteration % 16 == 0 { await Task.yield() }
                    }
                    return wrong
                }
            }
            var all: [Int] = []
            for await wrong in group { all += wrong }
            return all
        }
        #expect(mismatches.isEmpty, "inputs whose concurrent result differed: \(Set(mismatches).sorted())")
    }

    @Test(arguments: BackendFixtures.backends)
    func receiptJustOverTheConfiguredMaximumIsRejectedBeforeVerification(_ backend: BackendCase) throws {
        let bytes = try BackendFixtures.bytes("generated/receipts/valid-sha256-noattr.receipt")
        var configuration = ReceiptValidator.Configuration(trustAnchors: [try BackendFixtures.certificate("generated/pki/root.cer", with: backend.backend)])
        configuration.maximumReceiptSize = bytes.count - 1
        let report = try ReceiptValidator(backend: backend.backend, configuration: configuration).report(for: bytes)
        #expect(report.error?.code == .receiptTooLarge)
        #expect(report.verificationTime == nil, "rejected before any verification")
        configuration.maximumReceiptSize = bytes.count
        #expect(try ReceiptValidator(backend: backend.backend, configuration: configuration).report(for: bytes).isValid)
    }
}
