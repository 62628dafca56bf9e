import Foundation
import ReceiptKit
import Testing
import ReceiptTestSupport

/// A receipt whose creation date cannot be read before verification is not verified at "now"
/// instead (which answers certificate_expired for every real receipt and hides the cause): the
/// answer names what is wrong, the same on every backend, cold and warm (issue 30).
@Suite struct UnreadableCreationDateTests {
    static let name = "tpinapp-sandbox-g5-sha256-2025-2iap"

    /// The real receipt with its creation date's text replaced by `replacement` (same length).
    static func tampered(_ replacement: String) throws -> [UInt8] {
        var bytes = try Fixtures.receipt(name)
        let date = Array("2025-12-26T18:39:47Z".utf8)
        let starts = bytes.indices.filter { bytes[$0..<min($0 + date.count, bytes.count)].elementsEqual(date) }
        #expect(starts.count == 1, "the creation date's text appears once")
        let start = try #require(starts.first)
        bytes.replaceSubrange(start..<(start + date.count), with: Array(replacement.utf8))
        return bytes
    }

    @Test(arguments: BackendFixtures.backends)
    func aTamperedCreationDateIsATamperedReceipt(_ backendCase: BackendCase) throws {
        let bytes = try Self.tampered("2025-12-26T18:39:4xZ")
        for cache in [false, true] {
            let validator = try ReceiptValidator(
                backend: backendCase.backend, configuration: .init(usesVerifiedChainCache: cache))
            if cache { #expect(validator.report(for: try Fixtures.receipt(Self.name)).error == nil) }
            let error = validator.report(for: bytes).error
            // Before: certificate_expired (verified at now, the Apple certificates long expired).
            #expect(error?.code == .invalidSignature, "cache \(cache): \(error?.description ?? "valid")")
        }
    }

    @Test(arguments: BackendFixtures.backends)
    func anUntamperedReceiptStillVerifiesAtItsDate(_ backendCase: BackendCase) throws {
        let validator = try ReceiptValidator(backend: backendCase.backend)
        #expect(validator.report(for: try Fixtures.receipt(Self.name)).error == nil)
        // The same edit that keeps the text a date verifies at that (wrong) date and is caught by the signature.
        #expect(validator.report(for: try Self.tampered("2025-12-26T18:39:48Z")).error?.code == .invalidSignature)
    }
}
