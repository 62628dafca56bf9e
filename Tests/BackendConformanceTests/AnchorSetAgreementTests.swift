import Foundation
import ReceiptKit
import ReceiptTestSupport
import Testing

/// Custom anchor sets that hold more than roots: the verdict is the same on every backend. A
/// path ends only at a self-issued anchor (OpenSSL verifies without partial chains, and the
/// validator's paths end so); a leaf or an intermediate among the anchors is not an end. GnuTLS
/// once ended at a leaf given beside the root, and refused the receipt as missing_apple_marker
/// where OpenSSL verified the whole chain.
@Suite struct AnchorSetAgreementTests {
    /// Every non-empty set of up to three of the generated PKI's root, intermediate and leaf,
    /// and another root.
    static let anchorSets: [[String]] = {
        let names = ["root", "intermediate", "leaf", "other-root"]
        var sets: [[String]] = []
        for mask in 1..<(1 << names.count) where mask.nonzeroBitCount <= 3 {
            sets.append(names.indices.filter { mask & (1 << $0) != 0 }.map { names[$0] })
        }
        return sets
    }()

    /// valid, or the error code.
    static func verdict(_ bytes: [UInt8], anchors: [[UInt8]], backend: any CryptoBackend) throws -> String {
        var configuration = ReceiptValidator.Configuration()
        configuration.trustAnchors = try anchors.map { try backend.loadCertificate($0) }
        configuration.usesVerifiedChainCache = false
        do throws(ReceiptValidationError) {
            _ = try ReceiptValidator(backend: backend, configuration: configuration).validate(bytes)
            return "valid"
        } catch {
            return error.code.rawValue
        }
    }

    @Test(arguments: anchorSets)
    func generatedReceiptsGetOneVerdict(_ names: [String]) throws {
        let anchors = try names.map { try BackendFixtures.bytes("generated/pki/\($0).cer") }
        for receipt in ["valid-sha256-noattr", "valid-sha256-attrs"] {
            let bytes = try BackendFixtures.bytes("generated/receipts/\(receipt).receipt")
            let verdicts = try BackendFixtures.backends.map { try Self.verdict(bytes, anchors: anchors, backend: $0.backend) }
            #expect(Set(verdicts).count == 1, "\(names) \(receipt): \(zip(BackendFixtures.backends.map(\.backend.name), verdicts).map { "\($0) \($1)" })")
            // The chain reaches the root whenever it is an anchor and the intermediate is not
            // (an intermediate among the anchors is refused as not self-issued).
            let expected = names.contains("root") && !names.contains("intermediate")
            #expect((verdicts.first == "valid") == expected, "\(names) \(receipt): \(verdicts)")
        }
    }

    /// Apple's root beside the receipt-signing leaf of the real receipts signed in 2025: valid on
    /// every backend; the leaf alone: untrusted_chain on every backend.
    @Test func aRealLeafBesideAppleRootIsNotAnEnd() throws {
        let root = try BackendFixtures.bytes("real/certs/AppleIncRootCertificate.cer")
        let leaf = try BackendFixtures.bytes("real/certs/ReceiptSigning-G5-2024-2026.cer")
        let receipts = BackendFixtures.appleReceipts.filter { $0.name.contains("2025") }
        #expect(receipts.count >= 2)
        for fixture in receipts {
            let bytes = try fixture.bytes()
            for backend in BackendFixtures.backends {
                #expect(try Self.verdict(bytes, anchors: [root, leaf], backend: backend.backend) == "valid", "\(fixture.name) \(backend.backend.name)")
                #expect(try Self.verdict(bytes, anchors: [leaf], backend: backend.backend) == "untrusted_chain", "\(fixture.name) \(backend.backend.name)")
            }
        }
    }
}
