import Foundation
@testable import ReceiptCore
import ReceiptKit
import ReceiptTestSupport
import Testing

/// One answer per input: for every input the project has, validating it cold and validating it
/// after any one genuine receipt has warmed the verified-chain cache give the same report, on every
/// backend, and every backend gives the same report.
///
/// Inputs: every fixture folder (real, legacy, generated, hostile, the SignerInfo edges, the
/// backend-disagreement and fuzz-regression inputs) and bit-flips of every real receipt
/// (`RECEIPTKIT_AGREEMENT_FLIPS` per receipt, spread over the file; 12 by default, scaled by
/// ``TestIterations`` like other generated inputs (2 in the AddressSanitizer run), Scripts/test.sh's
/// agreement step runs more). A warm validation is `fastPathReport(der) ?? full path`, and the full
/// path reads nothing from the cache, so the warm report of input I under warmer W is the fast
/// path's answer when it gives one and the cold report otherwise: each (W, I) pair asks only the
/// fast path, after W alone warmed the cache.
@Suite struct CacheAgreementTests {
    struct Input: Sendable {
        var name: String
        var bytes: [UInt8]
    }

    /// What a report says about an input: the verdict, its code, the receipt and what was verified.
    struct Outcome: Equatable, CustomStringConvertible {
        var isValid: Bool
        var code: String?
        var receipt: Receipt?
        var signerChain: [Certificate]
        var digestAlgorithm: DigestAlgorithm?

        init(_ report: ReceiptValidationReport) {
            isValid = report.isValid
            code = report.error?.code.rawValue
            receipt = report.receipt
            signerChain = report.signerChain
            digestAlgorithm = report.digestAlgorithm
        }

        var description: String {
            (isValid ? "valid" : code ?? "?") + " (\(signerChain.count) certificates, receipt \(receipt == nil ? "none" : "kept"))"
        }
    }

    /// The harnesses' fixed "now" (2026-01-01T00:00:00Z), so receipts verified at "now" compare equal.
    static let now = Date(timeIntervalSince1970: 1_767_225_600)

    static let flipsPerReceipt: Int = {
        guard let text = ProcessInfo.processInfo.environment["RECEIPTKIT_AGREEMENT_FLIPS"], let count = Int(text), count >= 0
        else { return TestIterations.count(12) }
        return count
    }()

    static func files(in directory: String) -> [Input] {
        let folder = BackendFixtures.directory.appendingPathComponent(directory)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        return names.compactMap { name in
            guard !name.hasSuffix(".md"), !name.hasSuffix(".txt"),
                  let bytes = try? BackendFixtures.bytes("\(directory)/\(name)")
            else { return nil }
            return Input(name: "\(directory)/\(name)", bytes: bytes)
        }
    }

    /// Every input of the run.
    static func inputs() -> [Input] {
        let folders = [
            "real/receipts", "real/legacy", "generated/receipts", "generated/hostile", "generated/edges",
            "backend-disagreements", "signed-data-classes", "fuzz-regressions/container", "fuzz-regressions/loader",
            "fuzz-regressions/parser", "fuzz-regressions/validator-openssl", "fuzz-regressions/validator-gnutls",
        ]
        var inputs = folders.flatMap(files(in:))
        for receipt in files(in: "real/receipts") where flipsPerReceipt > 0 {
            let count = receipt.bytes.count
            for flip in 0..<flipsPerReceipt {
                // Offsets spread over the whole file, a different bit each time.
                let offset = (count * flip + count / 2) / flipsPerReceipt % count
                var bytes = receipt.bytes
                bytes[offset] ^= UInt8(1) << UInt8(flip % 8)
                inputs.append(Input(name: "\(receipt.name)#flip\(offset).\(flip % 8)", bytes: bytes))
            }
        }
        return inputs
    }

    static func validator(
        _ backend: any CryptoBackend, cache: Bool, time: VerificationTime = .creationDate
    ) throws -> ReceiptValidator {
        let root = try BackendFixtures.certificate("generated/pki/root.cer", with: backend)
        return try ReceiptValidator(backend: backend, configuration: ReceiptValidator.Configuration(
            trustAnchors: [root, AppleRootCertificates.appleIncRootCA], acceptsStoreKitTestReceipts: true,
            verificationTime: time, currentDate: { now }, usesVerifiedChainCache: cache))
    }

    /// The warm outcome of every input under every warmer, compared with its cold outcome.
    /// - Returns: the cold outcomes, the number of fast-path answers and the differences found.
    static func coldAndWarm(
        _ backend: any CryptoBackend, _ inputs: [Input], time: VerificationTime = .creationDate
    ) throws -> (cold: [Outcome], fastAnswers: Int, warmers: Int, differences: [String]) {
        let cold = try validator(backend, cache: false, time: time)
        let coldOutcomes = inputs.map { Outcome(cold.report(for: $0.bytes)) }
        let warm = try validator(backend, cache: true, time: time)
        let loaded = inputs.map { try? ReceiptLoader.load($0.bytes, maximumSize: ReceiptLoader.maximumReceiptSize) }
        var fastAnswers = 0
        var warmers = 0
        var differences: [String] = []
        for (index, warmer) in inputs.enumerated() where !coldOutcomes[index].signerChain.isEmpty {
            warm.removeCachedChains()
            let before = warm.verifiedChainCacheStatistics?.fills ?? 0
            let warmed = Outcome(warm.report(for: warmer.bytes))
            if warmed != coldOutcomes[index] {
                differences.append("\(backend.name): \(warmer.name) while warming: \(warmed) vs cold \(coldOutcomes[index])")
            }
            guard (warm.verifiedChainCacheStatistics?.fills ?? 0) > before else { continue }
            warmers += 1
            for (position, der) in loaded.enumerated() {
                guard let der, let report = warm.fastPathReport(der, envelope: SignedDataEnvelope(der)) else { continue }
                fastAnswers += 1
                let outcome = Outcome(report)
                if outcome != coldOutcomes[position] {
                    differences.append(
                        "\(backend.name): \(inputs[position].name) warmed by \(warmer.name): \(outcome) vs cold \(coldOutcomes[position])")
                }
            }
        }
        return (coldOutcomes, fastAnswers, warmers, differences)
    }

    @Test func everyInputGetsOneAnswerColdWarmAndOnEveryBackend() throws {
        let inputs = Self.inputs()
        #expect(inputs.count >= 130 + 26 * Self.flipsPerReceipt)
        var differences: [String] = []
        var perBackend: [(name: String, cold: [Outcome])] = []
        var summary: [String] = []
        for backend in CryptoBackends.all {
            let run = try Self.coldAndWarm(backend, inputs)
            differences += run.differences
            perBackend.append((backend.name, run.cold))
            summary.append("\(backend.name): \(run.warmers) warmers, \(run.fastAnswers) fast-path answers")
            // The fast path really answered: each warmer at least for itself.
            #expect(run.fastAnswers >= run.warmers && run.warmers >= 30, "\(backend.name): \(run.warmers) warmers, \(run.fastAnswers) answers")
        }
        if let reference = perBackend.first {
            for other in perBackend.dropFirst() {
                for (index, input) in inputs.enumerated() where reference.cold[index] != other.cold[index] {
                    differences.append(
                        "\(input.name): \(reference.name) \(reference.cold[index]) vs \(other.name) \(other.cold[index])")
                }
            }
        }
        print("cache agreement: \(inputs.count) inputs × \(perBackend.count) backends, cold and warm "
            + "(\(summary.joined(separator: "; "))): \(differences.count) differences")
        #expect(differences.isEmpty, "\(differences.prefix(20).joined(separator: "\n"))")
    }

    /// The chain's validity bounds (RFC 5280: notBefore and notAfter seconds included), cold and
    /// warm (warmed by another receipt of the same chain at the same time), on every backend.
    @Test func theValidityBoundsGetOneAnswer() throws {
        let expected: [(String, String)] = [
            ("2045-01-01T00:00:00Z", "valid"), ("2045-01-01T00:00:00.999Z", "valid"),
            ("2045-01-01T00:00:01Z", "certificate_expired"), ("2020-01-01T00:00:00Z", "valid"),
            ("2019-12-31T23:59:59.999Z", "certificate_not_yet_valid"),
        ]
        let inputs = ["generated/receipts/valid-sha256-noattr-iap1.receipt", "generated/receipts/valid-sha256-noattr.receipt",
                      "generated/receipts/valid-sha256-attrs.receipt", "generated/receipts/valid-sha1-attrs.receipt"]
            .map { Input(name: $0, bytes: (try? BackendFixtures.bytes($0)) ?? []) }
        for (text, code) in expected {
            let time = try #require(RFC3339.parse(text))
            var answers: [String: [Outcome]] = [:]
            for backend in CryptoBackends.all {
                let run = try Self.coldAndWarm(backend, inputs, time: .fixed(time))
                #expect(run.differences.isEmpty, "\(text): \(run.differences)")
                for (input, outcome) in zip(inputs, run.cold) {
                    #expect((outcome.isValid ? "valid" : outcome.code) == code, "\(backend.name) \(input.name) at \(text)")
                }
                if code == "valid" { #expect(run.fastAnswers >= inputs.count, "\(backend.name) at \(text)") }
                answers[backend.name] = run.cold
            }
            #expect(Set(answers.values.map { $0.map(\.description) }).count == 1, "\(text): \(answers)")
        }
    }
}
