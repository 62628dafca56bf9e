import Foundation
import ReceiptConformance
import ReceiptKit
import ReceiptSwiftCrypto
import Testing

/// The whole `ReceiptConformance` kit (`Fixtures/manifest.json` of the root package) on
/// ``SwiftCryptoBackend``, with the verified-chain cache off, cold and warm: every case must give
/// the outcome the built-in backends give.
@Suite struct ConformanceKitTests {
    /// `<repository>/Fixtures`: this file is `<repository>/Backends/SwiftCrypto/Tests/ReceiptSwiftCryptoTests/…`.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    @Test(arguments: ConformanceSuite.ChainCacheMode.allCases)
    func everyCasePasses(_ mode: ConformanceSuite.ChainCacheMode) throws {
        let suite = try ConformanceSuite(fixturesDirectory: Self.fixtures)
        let report = suite.run(on: SwiftCryptoBackend(), chainCache: mode)
        #expect(report.results.count == suite.cases.count)
        #expect(report.results.count >= 200, "the manifest holds \(report.results.count) cases")
        #expect(report.failed.isEmpty, "\(report.table(onlyFailures: true))")
        // The closing line of the kit's table, for the log: `swift-crypto (warm): N passed, N failed`.
        print("swift-crypto (\(mode.rawValue)): \(report.passedCount) passed, \(report.failed.count) failed")
        if mode == .warm {
            // The warm pass meets the cache: the SignaturePrimitives path really ran.
            #expect((report.chainCacheStatistics?.hits ?? 0) > 0, "\(String(describing: report.chainCacheStatistics))")
        }
    }
}
