import Foundation
import ReceiptConformance
import ReceiptKit
import Testing

/// The verified-chain cache never changes an outcome: the conformance manifest gives identical
/// results with the cache off, cold and warm, and receipts that meet a warm cache (tampered,
/// re-signed, outside the cached validity window) get exactly the full path's report.
@Suite struct VerifiedChainCacheTests {
    static let fixtures = BackendFixtures.directory

    @Test(arguments: BackendFixtures.backends)
    func conformanceIsIdenticalWithTheCacheOffColdAndWarm(_ backendCase: BackendCase) throws {
        let suite = try ConformanceSuite(fixturesDirectory: Self.fixtures)
        let off = suite.run(on: backendCase.backend, chainCache: .off)
        let cold = suite.run(on: backendCase.backend, chainCache: .cold)
        let warm = suite.run(on: backendCase.backend, chainCache: .warm)
        for report in [off, cold, warm] {
            #expect(report.failed.isEmpty, "\(report.table(onlyFailures: true))")
        }
        for (index, reference) in off.results.enumerated() {
            #expect(cold.results[index].actual == reference.actual, "\(reference.testCase.name): cold cache differs")
            #expect(warm.results[index].actual == reference.actual, "\(reference.testCase.name): warm cache differs")
        }
        #expect(off.chainCacheStatistics == nil)
        let coldStatistics = try #require(cold.chainCacheStatistics)
        #expect(coldStatistics.hits == 0, "a cold cache must never be hit")
        let warmStatistics = try #require(warm.chainCacheStatistics)
        // The fast path really ran: most valid receipts were accepted from the cache.
        #expect(warmStatistics.accepted >= 20, "\(warmStatistics)")
    }

    /// Every generated receipt (valid and hostile) after the generated PKI's chains are cached.
    @Test(arguments: BackendFixtures.backends)
    func receiptsUnderACachedChainGetTheFullPathsReport(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let anchor = try BackendFixtures.certificate("generated/pki/root.cer", with: backend)
        let device = try DeviceIdentifier(parsing: "00112233-4455-6677-8899-AABBCCDDEEFF")
        // One fixed "now", so that receipts verified at "now" (no creation date) compare equal.
        let now = Date()
        func configuration(cache: Bool) -> ReceiptValidator.Configuration {
            ReceiptValidator.Configuration(
                trustAnchors: [anchor], deviceIdentifier: device, currentDate: { now }, usesVerifiedChainCache: cache)
        }
        let cached = try ReceiptValidator(backend: backend, configuration: configuration(cache: true))
        let reference = try ReceiptValidator(backend: backend, configuration: configuration(cache: false))

        let directories = ["generated/receipts", "generated/hostile"]
        var files: [String] = []
        for directory in directories {
            let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.appendingPathComponent(directory).path)
            files += names.sorted().map { "\(directory)/\($0)" }
        }
        // Warm every chain the valid receipts use.
        for file in files where file.hasPrefix("generated/receipts/") {
            _ = cached.report(for: try BackendFixtures.bytes(file))
        }
        let warmed = try #require(cached.verifiedChainCacheStatistics)
        #expect(warmed.count >= 2, "the SHA-1 and SHA-256 chains are cached: \(warmed)")

        for _ in 0..<2 {
            for file in files {
                let bytes = try BackendFixtures.bytes(file)
                expectSameReport(cached.report(for: bytes), reference.report(for: bytes), file)
            }
        }
        let statistics = try #require(cached.verifiedChainCacheStatistics)
        #expect(statistics.accepted > warmed.accepted, "valid receipts were accepted from the cache: \(statistics)")
        #expect(statistics.fallbacks > warmed.fallbacks, "tampered receipts fell back to the full path: \(statistics)")
    }

    /// Real Apple receipts (SHA-1 and SHA-256, several intermediates) twice through a warm cache.
    @Test(arguments: BackendFixtures.backends)
    func realReceiptsUnderAWarmCacheGetTheFullPathsReport(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let now = Date()
        let cached = try ReceiptValidator(backend: backend, configuration: .init(currentDate: { now }, usesVerifiedChainCache: true))
        let reference = try ReceiptValidator(backend: backend, configuration: .init(currentDate: { now }, usesVerifiedChainCache: false))
        let receipts = BackendFixtures.realReceipts
        try #require(!receipts.isEmpty)
        for _ in 0..<2 {
            for receipt in receipts {
                let bytes = try receipt.bytes()
                expectSameReport(cached.report(for: bytes), reference.report(for: bytes), receipt.name)
            }
        }
        let statistics = try #require(cached.verifiedChainCacheStatistics)
        #expect(statistics.accepted >= BackendFixtures.appleReceipts.count / 2, "\(statistics)")
    }

    /// A receipt whose verification time leaves the cached chain's validity window is verified in
    /// full again, with the full path's error.
    @Test(arguments: BackendFixtures.backends)
    func aTimeOutsideTheCachedWindowTakesTheFullPath(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let anchor = try BackendFixtures.certificate("generated/pki/root.cer", with: backend)
        let clock = TestClock(RFC3339.parse("2019-01-01T00:00:00Z") ?? Date())
        func configuration(cache: Bool) -> ReceiptValidator.Configuration {
            ReceiptValidator.Configuration(
                trustAnchors: [anchor], verificationTime: .now, currentDate: { clock.now }, usesVerifiedChainCache: cache)
        }
        let cached = try ReceiptValidator(backend: backend, configuration: configuration(cache: true))
        let reference = try ReceiptValidator(backend: backend, configuration: configuration(cache: false))
        // 2018 receipt on the 2015–2020 pair.
        let bytes = try BackendFixtures.bytes("generated/receipts/valid-2018-expired-chain.receipt")

        #expect(cached.report(for: bytes).isValid)
        #expect(cached.report(for: bytes).isValid)
        #expect(cached.verifiedChainCacheStatistics?.accepted == 1)

        for moment in ["2021-01-01T00:00:00Z", "2014-06-01T00:00:00Z", "2019-06-01T00:00:00Z"] {
            clock.now = try #require(RFC3339.parse(moment))
            expectSameReport(cached.report(for: bytes), reference.report(for: bytes), "at \(moment)")
        }
        clock.now = try #require(RFC3339.parse("2021-01-01T00:00:00Z"))
        #expect(cached.report(for: bytes).error?.code == .certificateExpired)
    }

    /// The cache off: no statistics, and removing chains is harmless.
    @Test func theCacheCanBeSwitchedOff() throws {
        let validator = try ReceiptValidator(configuration: .init(usesVerifiedChainCache: false))
        #expect(validator.verifiedChainCacheStatistics == nil)
        validator.removeCachedChains()
        let enabled = try ReceiptValidator(configuration: .init())
        #expect(enabled.verifiedChainCacheStatistics?.count == 0)
    }

    private func expectSameReport(
        _ actual: ReceiptValidationReport, _ expected: ReceiptValidationReport, _ name: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(actual.error == expected.error, "\(name): error", sourceLocation: sourceLocation)
        #expect(actual.receipt == expected.receipt, "\(name): receipt", sourceLocation: sourceLocation)
        #expect(actual.signerChain == expected.signerChain, "\(name): signer chain", sourceLocation: sourceLocation)
        #expect(actual.digestAlgorithm == expected.digestAlgorithm, "\(name): digest", sourceLocation: sourceLocation)
        #expect(actual.verificationTime == expected.verificationTime, "\(name): time", sourceLocation: sourceLocation)
        #expect(actual.trust == expected.trust, "\(name): trust", sourceLocation: sourceLocation)
        #expect(actual.deviceHashMatches == expected.deviceHashMatches, "\(name): device hash", sourceLocation: sourceLocation)
    }
}

/// A settable clock for ``ReceiptValidator/Configuration/currentDate``.
final class TestClock: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var value: Date

    init(_ date: Date) { value = date }

    var now: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
