#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptCore

/// The cross-backend conformance kit: runs every case of a ``ConformanceManifest`` through a
/// ``ReceiptValidator`` on a given ``CryptoBackend`` and reports expected against actual outcomes.
///
/// A third-party backend proves it behaves like OpenSSL and GnuTLS by running the kit on itself:
///
/// ```swift
/// import ReceiptConformance
/// let suite = try ConformanceSuite(fixturesDirectory: URL(fileURLWithPath: "Fixtures"))
/// let report = suite.run(on: MyBackend())
/// #expect(report.failed.isEmpty, "\(report.table())")
/// ```
public struct ConformanceSuite: Sendable {
    /// The directory the manifest's paths are relative to (the package's `Fixtures/`).
    public let fixturesDirectory: URL
    /// The cases to run.
    public let cases: [ConformanceCase]

    /// Loads `manifest.json` from a fixtures directory.
    public init(fixturesDirectory: URL, manifestName: String = "manifest.json") throws {
        self.fixturesDirectory = fixturesDirectory
        self.cases = try ConformanceManifest(contentsOf: fixturesDirectory.appendingPathComponent(manifestName)).cases
    }

    /// Uses the given cases, with paths relative to `fixturesDirectory`.
    public init(fixturesDirectory: URL, cases: [ConformanceCase]) {
        self.fixturesDirectory = fixturesDirectory
        self.cases = cases
    }

    /// How a run uses the validators' verified-chain cache
    /// (``ReceiptValidator/Configuration/usesVerifiedChainCache``).
    public enum ChainCacheMode: String, Sendable, CaseIterable {
        /// Cache off: every receipt takes the full verification path.
        case off
        /// Cache on but emptied before every case: each receipt is the first of its chain.
        case cold
        /// Cache on and warmed by a first pass over every case; the second pass is reported, so
        /// every receipt whose chain was accepted before meets a warm cache.
        case warm
    }

    /// Runs every case on `backend` (validators with the default cache setting, shared by the
    /// cases that need the same configuration, as a server would share them).
    public func run(on backend: any CryptoBackend) -> ConformanceReport {
        run(on: backend, chainCache: nil)
    }

    /// Runs every case on `backend` with the verified-chain cache off, cold or warm.
    public func run(on backend: any CryptoBackend, chainCache mode: ChainCacheMode) -> ConformanceReport {
        run(on: backend, chainCache: Optional(mode))
    }

    private func run(on backend: any CryptoBackend, chainCache mode: ChainCacheMode?) -> ConformanceReport {
        var validators: [ValidatorKey: Result<ReceiptValidator, ReceiptValidationError>] = [:]
        func outcome(of testCase: ConformanceCase) -> ConformanceOutcome {
            do {
                let key = try ValidatorKey(testCase, fixturesDirectory: fixturesDirectory)
                let validator: ReceiptValidator
                if let cached = validators[key] {
                    validator = try cached.get()
                } else {
                    let made = Result { () throws(ReceiptValidationError) in
                        try key.makeValidator(backend: backend, usesChainCache: mode.map { $0 != .off })
                    }
                    validators[key] = made
                    validator = try made.get()
                }
                if mode == .cold { validator.removeCachedChains() }
                let url = fixturesDirectory.appendingPathComponent(testCase.file)
                if testCase.format == .jws {
                    return Self.tokenOutcome(validator: validator, contentsOf: url, fields: testCase.expect.payload.map { Array($0.keys) } ?? [])
                }
                return Self.outcome(validator.report(contentsOf: url))
            } catch {
                return .failure(error.code)
            }
        }
        if mode == .warm {
            for testCase in cases { _ = outcome(of: testCase) }
        }
        var results: [ConformanceResult] = []
        results.reserveCapacity(cases.count)
        let before = Self.statistics(validators)
        for testCase in cases {
            results.append(ConformanceResult(
                testCase: testCase, backendName: backend.name, expected: Self.expectedOutcome(testCase), actual: outcome(of: testCase)))
        }
        var report = ConformanceReport(backendName: backend.name, results: results)
        let after = Self.statistics(validators)
        report.chainCacheStatistics = after.map { after in
            VerifiedChainCacheStatistics(
                hits: after.hits - (before?.hits ?? 0), fallbacks: after.fallbacks - (before?.fallbacks ?? 0),
                fills: after.fills - (before?.fills ?? 0), count: after.count)
        }
        return report
    }

    /// The validators' cache counters summed, or nil when no validator has a cache.
    private static func statistics(_ validators: [ValidatorKey: Result<ReceiptValidator, ReceiptValidationError>]) -> VerifiedChainCacheStatistics? {
        var total: VerifiedChainCacheStatistics?
        for case .success(let validator) in validators.values {
            guard let statistics = validator.verifiedChainCacheStatistics else { continue }
            var sum = total ?? VerifiedChainCacheStatistics(hits: 0, fallbacks: 0, fills: 0, count: 0)
            sum.hits += statistics.hits
            sum.fallbacks += statistics.fallbacks
            sum.fills += statistics.fills
            sum.count += statistics.count
            total = sum
        }
        return total
    }

    /// Runs one case on `backend`.
    public func run(_ testCase: ConformanceCase, on backend: any CryptoBackend) -> ConformanceResult {
        ConformanceSuite(fixturesDirectory: fixturesDirectory, cases: [testCase]).run(on: backend).results[0]
    }

    /// The outcome a manifest case expects.
    public static func expectedOutcome(_ testCase: ConformanceCase) -> ConformanceOutcome {
        let expect = testCase.expect
        if let code = expect.error {
            return .failure(ReceiptValidationError.Code(rawValue: code))
        }
        if testCase.format == .jws {
            return .validToken(ConformanceOutcome.TokenFields(
                kind: expect.kind ?? "-", signedDate: expect.signedDate ?? "-", payload: expect.payload ?? [:]))
        }
        return .valid(
            ConformanceOutcome.KeyFields(
                bundleID: expect.bundleID,
                applicationVersion: expect.applicationVersion,
                receiptCreationDate: expect.receiptCreationDate.flatMap(normalizedDate),
                inAppCount: expect.inAppCount ?? 0,
                environment: expect.environment
            )
        )
    }

    /// Reduces a validation report to the outcome backends must agree on.
    public static func outcome(_ report: ReceiptValidationReport) -> ConformanceOutcome {
        if let error = report.error { return .failure(error.code) }
        guard let receipt = report.receipt else { return .failure(.backendFailure) }
        return .valid(
            ConformanceOutcome.KeyFields(
                bundleID: receipt.bundleID,
                applicationVersion: receipt.applicationVersion,
                receiptCreationDate: receipt.creationDate.map(format),
                inAppCount: receipt.inAppPurchases.count,
                environment: receipt.environment?.rawValue
            )
        )
    }

    private static func normalizedDate(_ text: String) -> String? {
        parse(text).map(format)
    }

    private static func parse(_ text: String) -> Date? {
        RFC3339.parse(text)
    }

    /// The date to the whole second (both sides are compared at that precision), in UTC.
    private static func format(_ date: Date) -> String {
        RFC3339.string(from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }
}

/// The validator configuration a case needs; cases that share one share a validator (and so its
/// trust stores), as a server would.
private struct ValidatorKey: Hashable {
    var anchors: [Certificate]
    var storeKit: Certificate?
    var time: VerificationTime
    var deviceID: String?
    var expectedBundleID: String?
    var expectedApplicationVersion: String?

    init(_ testCase: ConformanceCase, fixturesDirectory: URL) throws(ReceiptValidationError) {
        var anchors: [Certificate] = []
        for anchor in testCase.anchors {
            switch anchor {
            case "embedded:apple-root":
                // A receipt's Apple root is Apple Inc. Root CA; every Apple JWS chains to Apple Root CA - G3.
                anchors += testCase.format == .jws ? [AppleRootCertificates.appleRootCAG3] : AppleRootCertificates.appleRoots
            case "embedded:storekit": anchors.append(AppleRootCertificates.storeKitTest)
            default:
                let url = fixturesDirectory.appendingPathComponent(anchor)
                guard let data = try? Data(contentsOf: url) else {
                    throw ReceiptValidationError(.rootCertificateNotFound, "The anchor \(anchor) could not be read.")
                }
                anchors.append(Certificate(derBytes: Array(data)))
            }
        }
        if testCase.policy == "storekit" {
            // The StoreKit anchor is trusted through the opt-in, with its own policy; the App Store
            // anchors stay the embedded Apple roots.
            self.storeKit = anchors.first
            self.anchors = AppleRootCertificates.appleRoots
        } else {
            self.storeKit = nil
            self.anchors = anchors
        }
        switch testCase.time ?? "creation" {
        case "creation": self.time = .creationDate
        case "now": self.time = .now
        case let text:
            guard let date = RFC3339.parse(text) else {
                throw ReceiptValidationError(.invalidEncoding, "Case \(testCase.name): the time '\(text)' is not RFC 3339.")
            }
            self.time = .fixed(date)
        }
        self.deviceID = testCase.deviceID
        self.expectedBundleID = testCase.expectedBundleID
        self.expectedApplicationVersion = testCase.expectedApplicationVersion
    }

    func makeValidator(backend: any CryptoBackend, usesChainCache: Bool?) throws(ReceiptValidationError) -> ReceiptValidator {
        // Anchors from files go through the backend (DER or PEM) like any user's anchors.
        var loaded: [Certificate] = []
        for anchor in anchors { loaded.append(try backend.loadCertificate(anchor.derBytes)) }
        var configuration = ReceiptValidator.Configuration(
            trustAnchors: loaded,
            verificationTime: time,
            expectedBundleID: expectedBundleID,
            expectedApplicationVersion: expectedApplicationVersion
        )
        // The same anchors for both formats: a case names the anchors its file is checked with.
        configuration.jwsTrustAnchors = loaded
        if let usesChainCache { configuration.usesVerifiedChainCache = usesChainCache }
        if let storeKit {
            configuration.acceptsStoreKitTestReceipts = true
            configuration.storeKitTestCertificate = try backend.loadCertificate(storeKit.derBytes)
        }
        if let deviceID {
            configuration.deviceIdentifier = try DeviceIdentifier(parsing: deviceID)
        }
        return try ReceiptValidator(backend: backend, configuration: configuration)
    }
}
