import Foundation
import ReceiptConformance
import ReceiptKit
import Testing

/// Runs the conformance manifest on every compiled-in backend: each case must give the expected
/// outcome, and all backends must give the same one.
@Suite struct ConformanceSuiteTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static let cases: [ConformanceCase] = (try? ConformanceManifest(contentsOf: fixtures.appendingPathComponent("manifest.json")))?.cases ?? []

    @Test func manifestLoadsAndCoversEveryCategory() throws {
        let manifest = try ConformanceManifest(contentsOf: Self.fixtures.appendingPathComponent("manifest.json"))
        let categories = Set(manifest.cases.map(\.category))
        for required in ["valid", "not-pkcs7", "not-signed", "untrusted-chain", "tampered-content", "bad-signature",
                         "missing-marker", "certificate-time", "malformed-payload", "policy", "missing-component", "hash", "real-apple", "real-xcode", "legacy"] {
            #expect(categories.contains(required), "no case in category \(required)")
        }
        #expect(Set(manifest.cases.map(\.name)).count == manifest.cases.count, "case names must be unique")
    }

    @Test func manifestHoldsTheJWSCases() throws {
        let manifest = try ConformanceManifest(contentsOf: Self.fixtures.appendingPathComponent("manifest.json"))
        let tokens = manifest.cases.filter { $0.format == .jws }
        #expect(tokens.count >= 65, "JWS cases: \(tokens.count)")
        let categories = Set(tokens.map(\.category))
        for required in ["jws-valid", "jws-time", "jws-policy", "jws-missing-marker", "jws-chain", "jws-signature",
                         "jws-algorithm", "jws-encoding", "jws-nested", "jws-real"] {
            #expect(categories.contains(required), "no JWS case in category \(required)")
        }
        // Every kind is expected valid somewhere, with fields to compare.
        let kinds = Set(tokens.compactMap { $0.expect.valid == true ? $0.expect.kind : nil })
        #expect(kinds == ["transaction", "renewal_info", "notification", "app_transaction"])
        #expect(tokens.allSatisfy { $0.expect.valid != true || ($0.expect.payload?.isEmpty == false && $0.expect.signedDate != nil) })
        // Receipts first, then tokens, as the manifest lists them.
        #expect(manifest.cases.firstIndex { $0.format == .jws } == manifest.cases.count - tokens.count)
    }

    @Test(arguments: cases)
    func everyBackendGivesTheExpectedOutcome(_ testCase: ConformanceCase) {
        let suite = ConformanceSuite(fixturesDirectory: Self.fixtures, cases: [testCase])
        let results = CryptoBackends.all.map { suite.run(on: $0).results[0] }
        for result in results {
            #expect(result.actual == result.expected, "\(result.backendName): expected \(result.expected), got \(result.actual)")
        }
        let outcomes = Set(results.map(\.actual))
        #expect(outcomes.count == 1, "backends disagree: \(results.map { "\($0.backendName)=\($0.actual)" })")
    }

    @Test func wholeSuiteReportCountsEveryCase() throws {
        let suite = try ConformanceSuite(fixturesDirectory: Self.fixtures)
        for backend in CryptoBackends.all {
            let report = suite.run(on: backend)
            #expect(report.results.count == suite.cases.count)
            #expect(report.failed.isEmpty, "\(report.table(onlyFailures: true))")
            #expect(report.table().hasSuffix("\(report.passedCount) passed, \(report.failed.count) failed"))
        }
    }
}
