import Foundation
import ReceiptConformance
@testable import ReceiptCore
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

    /// The count of entries behind the question every validation asks first (is the cache
    /// empty?) follows the shards' entries through a validator's fills of every real chain (in
    /// shards of one entry each), the same chains again, a removal, and fills after it.
    @Test(arguments: BackendFixtures.backends)
    func theEmptinessEveryValidationAsksFollowsTheEntries(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let now = Date()
        let validator = try ReceiptValidator(
            backend: backend, configuration: .init(currentDate: { now }, verifiedChainCacheCapacity: 1))
        func expectAgreement(_ step: String) throws {
            let statistics = try #require(validator.verifiedChainCacheStatistics)
            #expect(validator.chainCacheIsEmpty == (statistics.count == 0), "\(step): \(statistics)")
        }
        #expect(validator.chainCacheIsEmpty == true)
        let receipts = BackendFixtures.realReceipts
        try #require(!receipts.isEmpty)
        for round in 0..<2 {
            for receipt in receipts {
                _ = validator.report(for: try receipt.bytes())
                try expectAgreement("round \(round), \(receipt.name)")
            }
        }
        let filled = try #require(validator.verifiedChainCacheStatistics)
        #expect(filled.count >= 2, "several chains: \(filled)")
        validator.removeCachedChains()
        try expectAgreement("removed")
        #expect(validator.chainCacheIsEmpty == true)
        _ = validator.report(for: try receipts[0].bytes())
        try expectAgreement("after the removal")
        #expect(validator.chainCacheIsEmpty == false)
        let off = try ReceiptValidator(backend: backend, configuration: .init(usesVerifiedChainCache: false))
        #expect(off.chainCacheIsEmpty == nil)
    }

    /// The same count through each way an entry comes and goes, with fingerprints chosen for
    /// their shard (fingerprint mod 8): a new entry, one evicting the only entry of its shard, one
    /// replacing an entry of the same fingerprint, one in another shard, then the removal of all.
    /// A count raised on an eviction or a replacement would leave the cache "not empty" after it.
    @Test(arguments: BackendFixtures.backends)
    func theEntryCountFollowsFillsEvictionsReplacementsAndRemoval(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let primitives = try #require(backend as? any SignaturePrimitives)
        let anchor = try BackendFixtures.certificate("generated/pki/root.cer", with: backend)
        let store = try backend.makeTrustStore(anchors: [anchor])
        let key = try primitives.makeVerificationKey(for: anchor)
        func entry(_ fingerprint: Int) -> VerifiedChainCache.Entry {
            VerifiedChainCache.Entry(
                trustStore: store, fingerprint: fingerprint, head: [], certificates: anchor.derBytes, signerHead: [],
                signatureAlgorithm: [], attributes: nil, digestAlgorithm: .sha256, chain: [anchor],
                window: ValidityPeriod(notBefore: 0, notAfter: 1), key: key)
        }
        let cache = VerifiedChainCache(capacity: 1)  // one entry per shard
        func expectCount(_ count: Int, _ step: String) {
            #expect(cache.statistics.count == count, "\(step)")
            #expect(cache.isEmpty == (count == 0), "\(step)")
        }
        expectCount(0, "new")
        cache.insert(entry(0))
        expectCount(1, "a first entry in shard 0")
        cache.insert(entry(8))
        expectCount(1, "fingerprint 8 evicts fingerprint 0 from shard 0")
        #expect(cache.entry(fingerprint: 0, store: store) == nil && cache.entry(fingerprint: 8, store: store) != nil)
        cache.insert(entry(8))
        expectCount(1, "fingerprint 8 replaced")
        cache.insert(entry(3))
        expectCount(2, "fingerprint 3 in shard 3")
        cache.removeAll()
        expectCount(0, "removed")
        cache.insert(entry(5))
        expectCount(1, "filled after the removal")
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
