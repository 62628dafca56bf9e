import Foundation
import ReceiptConformance
import ReceiptKit
import Testing

/// The public API has no traps: every input kind gives the same verdict, a report cannot be
/// forged into "valid", the default anchors are what the documentation says, and every message
/// reads the same way.
@Suite struct PublicAPITests {
    static let receipt = "real/receipts/tpinapp-sandbox-g5-sha256-2025-2iap.receipt"

    @Test("[UInt8], Data, base64 String and URL give the same receipt, sync and async", arguments: BackendFixtures.backends)
    func everyInputKindGivesTheSameReceipt(_ backend: BackendCase) async throws {
        let validator = try ReceiptValidator(backend: backend.backend)
        let bytes = try BackendFixtures.bytes(Self.receipt)
        let data = Data(bytes)
        let base64 = data.base64EncodedString(options: .lineLength76Characters)
        let url = BackendFixtures.directory.appendingPathComponent(Self.receipt)

        let expected = try Self.synchronousResults(validator, bytes: bytes, base64: base64, url: url)
        #expect(try await validator.validate(bytes) == expected)
        #expect(try await validator.validate(data) == expected)
        #expect(try await validator.validate(base64Encoded: base64) == expected)
        #expect(try await validator.validate(contentsOf: url) == expected)
        #expect(await validator.report(for: data).receipt == expected.receipt)
        #expect(await validator.report(base64Encoded: base64).receipt == expected.receipt)
        #expect(await validator.report(contentsOf: url).receipt == expected.receipt)
    }

    /// The synchronous entry points (an async context would pick the async overloads).
    static func synchronousResults(_ validator: ReceiptValidator, bytes: [UInt8], base64: String, url: URL) throws -> ValidatedReceipt {
        let data = Data(bytes)
        let expected = try validator.validate(bytes)
        #expect(expected.receipt.bundleID == "dev.bonzer.weeka.app")
        #expect(try validator.validate(data) == expected)
        #expect(try validator.validate(Data(base64.utf8)) == expected)
        #expect(try validator.validate(base64Encoded: base64) == expected)
        #expect(try validator.validate(contentsOf: url) == expected)
        #expect(validator.report(for: data).receipt == expected.receipt)
        #expect(validator.report(base64Encoded: base64).receipt == expected.receipt)
        #expect(try ReceiptLoader.load(data) == bytes)
        return expected
    }

    @Test("a damaged receipt fails with the same code through every input kind", arguments: BackendFixtures.backends)
    func everyInputKindGivesTheSameError(_ backend: BackendCase) async throws {
        let validator = try ReceiptValidator(backend: backend.backend)
        var bytes = try BackendFixtures.bytes(Self.receipt)
        bytes[bytes.count - 10] ^= 0x01
        let codes = Self.synchronousCodes(validator, bytes) + [
            await validator.report(for: bytes).error?.code,
            await validator.report(for: Data(bytes)).error?.code,
        ]
        #expect(codes.allSatisfy { $0 != nil && $0 == codes[0] }, "\(codes)")
        await #expect(throws: ReceiptValidationError.self) { try await validator.validate(Data(bytes)) }
        #expect(await validator.report(for: Data()).error?.code == .emptyReceipt)
    }

    static func synchronousCodes(_ validator: ReceiptValidator, _ bytes: [UInt8]) -> [ReceiptValidationError.Code?] {
        [
            validator.report(for: bytes).error?.code,
            validator.report(for: Data(bytes)).error?.code,
            validator.report(base64Encoded: Data(bytes).base64EncodedString()).error?.code,
        ]
    }

    @Test("a report's and a validated receipt's fields cannot be set by a client")
    func reportStateIsReadOnly() {
        // Overload resolution picks the `WritableKeyPath` overload exactly when this module may set
        // the property, so these lines compile to "read-only" only while no setter is public.
        let report = [
            Self.access(\ReceiptValidationReport.receipt), Self.access(\ReceiptValidationReport.signerChain),
            Self.access(\ReceiptValidationReport.digestAlgorithm), Self.access(\ReceiptValidationReport.verificationTime),
            Self.access(\ReceiptValidationReport.trust), Self.access(\ReceiptValidationReport.deviceHashMatches),
            Self.access(\ReceiptValidationReport.error),
        ]
        #expect(report == Array(repeating: "read-only", count: 7))
        let validated = [
            Self.access(\ValidatedReceipt.receipt), Self.access(\ValidatedReceipt.signerChain),
            Self.access(\ValidatedReceipt.digestAlgorithm), Self.access(\ValidatedReceipt.verificationTime),
            Self.access(\ValidatedReceipt.trust), Self.access(\ValidatedReceipt.deviceHashMatches),
        ]
        #expect(validated == Array(repeating: "read-only", count: 6))

        let failed = ReceiptValidationReport(failure: ReceiptValidationError(.receiptNotFound, "No file."))
        #expect(!failed.isValid)
        #expect(failed.error?.code == .receiptNotFound)
    }

    static func access<Root, Value>(_ path: KeyPath<Root, Value>) -> String { "read-only" }
    static func access<Root, Value>(_ path: WritableKeyPath<Root, Value>) -> String { "writable" }

    @Test("the default anchors are the Apple Inc. root only, as documented, and it verifies every App Store receipt")
    func defaultAnchorsAreTheIncRoot() throws {
        #expect(ReceiptValidator.Configuration().trustAnchors == [AppleRootCertificates.appleIncRootCA])
        #expect(AppleRootCertificates.appleRoots == [AppleRootCertificates.appleIncRootCA])
        #expect(AppleRootCertificates.allAppleRoots.count == 3)
        for backend in CryptoBackends.all {
            for root in AppleRootCertificates.allAppleRoots {
                _ = try backend.loadCertificate(root.derBytes)
            }
            let validator = try ReceiptValidator(backend: backend)
            for fixture in BackendFixtures.appleReceipts {
                #expect(validator.report(for: try fixture.bytes()).isValid, "\(backend.name) \(fixture.name)")
            }
        }
    }

    @Test("every error message is a sentence: a capital first, a full stop last", arguments: BackendFixtures.backends)
    func everyMessageIsASentence(_ backend: BackendCase) throws {
        let fixtures = BackendFixtures.directory
        let generatedRoot = try BackendFixtures.certificate("generated/pki/root.cer", with: backend.backend)
        let validators = [
            try ReceiptValidator(backend: backend.backend),
            try ReceiptValidator(backend: backend.backend, configuration: .init(verificationTime: .now)),
            try ReceiptValidator(backend: backend.backend, configuration: .init(
                trustAnchors: [generatedRoot], expectedBundleID: "com.example.other", expectedApplicationVersion: "0",
                deviceIdentifier: try DeviceIdentifier(parsing: "00ff"))),
        ]
        var messages: Set<String> = []
        for folder in ["real/receipts", "generated/receipts", "generated/hostile", "backend-disagreements", "fuzz-regressions/validator-openssl"] {
            let directory = fixtures.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !name.hasSuffix(".md") && !name.hasSuffix(".txt") {
                for validator in validators {
                    if let error = validator.report(contentsOf: directory.appendingPathComponent(name)).error {
                        messages.insert(error.message)
                    }
                }
            }
        }
        do {
            _ = try DeviceIdentifier(parsing: "x")
        } catch {
            messages.insert(error.message)
        }
        #expect(messages.count > 20, "the fixtures reach many different failures")
        for message in messages {
            #expect(message.first?.isUppercase == true && message.hasSuffix("."), "\(message)")
        }
    }
}
