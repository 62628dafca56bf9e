import Foundation
import ReceiptConformance
import ReceiptKit
import Testing
import ReceiptTestSupport

/// The whole pipeline (loader → backend → parser → policy) on the real receipts, for every
/// compiled-in backend.
@Suite struct ReceiptValidatorTests {
    /// Receipts whose device identifier is recorded in Fixtures/real/SOURCES.md.
    static let knownDevices: [(receipt: String, device: String)] = [
        ("tpinapp-sandbox-g5-sha256-2025-2iap", "956328D9-CC6A-47F4-BE40-6953FB0AB6C7"),
        ("aiv-production-macos-mindnode-2017", "6c:40:08:b5:94:5e"),
        ("aiv-production-macos-mindnode-g5-sha256-2023-3iap", "f8:ff:c2:1e:91:82"),
        ("aiv-sandbox-ios-mindnode-2017a", "3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CD"),
        ("aiv-sandbox-g7-sha1-2023-2iap", "E6181098-62DD-433F-BB94-675D3815D263"),
    ]

    static func validator(
        _ backend: any CryptoBackend,
        _ configure: (inout ReceiptValidator.Configuration) -> Void = { _ in }
    ) throws -> ReceiptValidator {
        var configuration = ReceiptValidator.Configuration()
        configure(&configuration)
        return try ReceiptValidator(backend: backend, configuration: configuration)
    }

    @Test(arguments: BackendFixtures.backends, BackendFixtures.realReceipts)
    func validatedReceiptEqualsTheIndependentDecode(_ backend: BackendCase, _ fixture: RealReceipt) throws {
        let validator = try Self.validator(backend.backend) { $0.acceptsStoreKitTestReceipts = fixture.isXcode }
        let validated = try validator.validate(fixture.bytes())
        let expected = try ExpectedReceipt(contentsOf: BackendFixtures.directory.appendingPathComponent("real/expected/\(fixture.name).json"))
        #expect(expected.mismatches(with: validated.receipt) == [])
        #expect(validated.trust == (fixture.isXcode ? .storeKitTesting : .appleReceiptSigning))
        #expect(validated.signerChain.count == (fixture.isXcode ? 1 : 3))
        #expect(validated.verificationTime == validated.receipt.creationDate)
    }

    @Test(arguments: BackendFixtures.backends, BackendFixtures.appleReceipts)
    func appleReceiptFailsNowWithExpiredCertificate(_ backend: BackendCase, _ fixture: RealReceipt) throws {
        let validator = try Self.validator(backend.backend) { $0.verificationTime = .now }
        let report = validator.report(for: try fixture.bytes())
        #expect(report.error?.code == .certificateExpired)
        #expect(report.receipt == nil, "nothing is parsed from bytes that did not verify")
    }

    /// The validator parses a canonical receipt's payload before verification (in place, for the
    /// creation date and to keep the result); a payload changed after signing still parses, but
    /// nothing of it may be reported, and the error is the signature's.
    @Test(arguments: BackendFixtures.backends, BackendFixtures.appleReceipts)
    func aReceiptWhosePayloadWasChangedReportsNothingOfIt(_ backend: BackendCase, _ fixture: RealReceipt) throws {
        var bytes = try fixture.bytes()
        let bundleID = try #require(try ReceiptParser.parse(PKCS7Container(bytes: bytes).content).bundleID)
        let needle = Array(bundleID.utf8)
        let start = try #require((0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle })
        bytes[start + needle.count - 1] ^= 0x01  // still ASCII: the changed payload still parses
        let tampered = try ReceiptParser.parse(PKCS7Container(bytes: bytes).content)
        #expect(tampered.bundleID != bundleID)
        let report = try Self.validator(backend.backend).report(for: bytes)
        #expect(report.error?.code == .invalidSignature, "\(String(describing: report.error))")
        #expect(report.receipt == nil, "nothing is reported from bytes that did not verify")
    }

    /// Certificate time outranks a bad signature: the backend reports the signature (it checks no
    /// time), and the validator then checks the chain of the path it handed over. The same
    /// changed receipt at "now", when Apple's chain has expired, is `certificate_expired`.
    @Test(arguments: BackendFixtures.backends, BackendFixtures.appleReceipts)
    func certificateTimeOutranksABadSignature(_ backend: BackendCase, _ fixture: RealReceipt) throws {
        var bytes = try fixture.bytes()
        let content = try PKCS7Container(bytes: bytes).content
        let probe = Array(content.prefix(32))
        let start = try #require((0...(bytes.count - probe.count)).first { Array(bytes[$0..<($0 + probe.count)]) == probe })
        bytes[start + probe.count - 1] ^= 0x01
        let atCreation = try Self.validator(backend.backend) { $0.verificationTime = .fixed(fixture.verificationTime) }
        #expect(atCreation.report(for: bytes).error?.code == .invalidSignature)
        let now = try Self.validator(backend.backend) { $0.verificationTime = .now }
        let report = now.report(for: bytes)
        #expect(report.error?.code == .certificateExpired, "\(String(describing: report.error))")
        #expect(report.receipt == nil)
    }

    @Test(arguments: BackendFixtures.backends)
    func deviceHashMatchesOnlyTheRecordedDevice(_ backend: BackendCase) throws {
        for (name, device) in Self.knownDevices {
            let bytes = try BackendFixtures.bytes("real/receipts/\(name).receipt")
            let identifier = try DeviceIdentifier(parsing: device)
            let matching = try Self.validator(backend.backend) { $0.deviceIdentifier = identifier }
            let validated = try matching.validate(bytes)
            #expect(validated.deviceHashMatches == true, "\(name)")

            for other in ["00000000-0000-0000-0000-000000000000", "00:11:22:33:44:55", "ffff"] {
                let otherIdentifier = try DeviceIdentifier(parsing: other)
                let wrong = try Self.validator(backend.backend) { $0.deviceIdentifier = otherIdentifier }
                let report = wrong.report(for: bytes)
                #expect(report.error?.code == .hashMismatch, "\(name) with \(other)")
                #expect(report.deviceHashMatches == false)
                #expect(report.receipt != nil, "the verified receipt is still reported")
            }
        }
    }

    @Test(arguments: BackendFixtures.backends, BackendFixtures.xcodeReceipts)
    func xcodeReceiptNeedsTheOptIn(_ backend: BackendCase, _ fixture: RealReceipt) throws {
        let bytes = try fixture.bytes()
        // Default anchors: the StoreKit certificate is not an Apple root.
        #expect(try Self.validator(backend.backend).report(for: bytes).error?.code == .untrustedChain)
        // The StoreKit certificate passed as an ordinary anchor still gets Apple's chain policy.
        let asAnchor = try Self.validator(backend.backend) { $0.trustAnchors = [AppleRootCertificates.storeKitTest] }
        #expect(asAnchor.report(for: bytes).error?.code == .missingAppleMarker)
        // The explicit opt-in accepts it.
        let optedIn = try Self.validator(backend.backend) { $0.acceptsStoreKitTestReceipts = true }
        let validated = try optedIn.validate(bytes)
        #expect(validated.trust == .storeKitTesting)
        #expect(validated.receipt.environment == .xcode)
    }

    @Test(arguments: BackendFixtures.backends)
    func environmentFieldNeverSelectsTheStoreKitPolicy(_ backend: BackendCase) throws {
        // Apple receipts say "Production"/"ProductionSandbox", Xcode ones "Xcode"; with the opt-in on,
        // each is still verified by its signer: an Apple receipt through Apple's chain policy.
        let optedIn = try Self.validator(backend.backend) { $0.acceptsStoreKitTestReceipts = true }
        for fixture in BackendFixtures.appleReceipts.prefix(3) {
            let validated = try optedIn.validate(fixture.bytes())
            #expect(validated.trust == .appleReceiptSigning)
            #expect(validated.receipt.environment != .xcode)
        }
    }

    @Test(arguments: BackendFixtures.backends)
    func generatedReceiptWithoutMarkersIsRejected(_ backend: BackendCase) throws {
        let root = try backend.backend.loadCertificate(BackendFixtures.bytes("generated/pki/root.cer"))
        let validator = try Self.validator(backend.backend) { $0.trustAnchors = [root] }
        for name in ["missing-marker-leaf", "missing-marker-intermediate"] {
            let report = validator.report(for: try BackendFixtures.bytes("generated/hostile/\(name).receipt"))
            #expect(report.error?.code == .missingAppleMarker, "\(name)")
            #expect(report.signerChain.isEmpty, "a chain that failed the policy is not reported as trusted")
        }
        #expect(try validator.validate(BackendFixtures.bytes("generated/receipts/valid-sha256-noattr.receipt")).trust == .appleReceiptSigning)
    }

    @Test(arguments: BackendFixtures.backends)
    func bundleVersionAndExpiryPolicies(_ backend: BackendCase) throws {
        let fixture = try #require(BackendFixtures.appleReceipts.first { $0.name == "tpinapp-sandbox-g5-sha256-2025-2iap" })
        let bytes = try fixture.bytes()
        let receipt = try Self.validator(backend.backend).validate(bytes).receipt
        let bundle = try #require(receipt.bundleID)
        let version = try #require(receipt.applicationVersion)

        #expect(throws: Never.self) {
            try Self.validator(backend.backend) {
                $0.expectedBundleID = bundle
                $0.expectedApplicationVersion = version
            }.validate(bytes)
        }
        #expect(try Self.validator(backend.backend) { $0.expectedBundleID = bundle + ".other" }.report(for: bytes).error?.code == .bundleIDMismatch)
        #expect(try Self.validator(backend.backend) { $0.expectedApplicationVersion = version + ".1" }.report(for: bytes).error?.code == .versionMismatch)

        // A clock before the receipt was made: its creation date is in the future.
        let created = try #require(receipt.creationDate)
        let early = try Self.validator(backend.backend) { $0.currentDate = { created.addingTimeInterval(-3600) } }
        #expect(early.report(for: bytes).error?.code == .creationDateInFuture)
        let withinSkew = try Self.validator(backend.backend) { $0.currentDate = { created.addingTimeInterval(-60) } }
        #expect(withinSkew.report(for: bytes).error == nil)
    }

    @Test(arguments: BackendFixtures.backends)
    func xcodeReceiptExpiresIn4001(_ backend: BackendCase) throws {
        let fixture = try #require(BackendFixtures.xcodeReceipts.first { $0.name == "apple-xcode-2023-with-transaction" })
        let bytes = try fixture.bytes()
        let expiration = try #require(try Self.validator(backend.backend) { $0.acceptsStoreKitTestReceipts = true }.validate(bytes).receipt.expirationDate)
        let late = try Self.validator(backend.backend) {
            $0.acceptsStoreKitTestReceipts = true
            $0.verificationTime = .creationDate
            $0.currentDate = { expiration.addingTimeInterval(1) }
        }
        #expect(late.report(for: bytes).error?.code == .receiptExpired)
    }

    @Test(arguments: BackendFixtures.backends)
    func unreadableInputsGiveTheirOwnErrors(_ backend: BackendCase) throws {
        let validator = try Self.validator(backend.backend)
        #expect(validator.report(for: []).error?.code == .emptyReceipt)
        #expect(validator.report(for: Array("%%% not base64 %%%".utf8)).error?.code == .invalidEncoding)
        #expect(validator.report(contentsOf: URL(fileURLWithPath: "/nonexistent/receipt")).error?.code == .receiptNotFound)
        for legacy in ["ios6-transaction-receipt-1.b64", "ios6-transaction-receipt-2.b64"] {
            #expect(validator.report(for: try BackendFixtures.bytes("real/legacy/\(legacy)")).error?.code == .notPKCS7)
        }
        let real = try BackendFixtures.bytes("real/receipts/tpinapp-sandbox-g5-sha256-2025-2iap.receipt")
        #expect(validator.report(for: Array(real.prefix(real.count / 2))).error?.code == .notPKCS7)
        let base64 = Array(Data(real).base64EncodedString(options: .lineLength64Characters).utf8)
        #expect(validator.report(for: base64).error == nil, "base64 with line breaks, as clients send it")
    }

    @Test func defaultBackendIsTheTraitDefault() {
        #expect(CryptoBackends.all.first?.name == DefaultCryptoBackend().name)
        #expect(CryptoBackends.named(DefaultCryptoBackend().name) != nil)
    }
}
