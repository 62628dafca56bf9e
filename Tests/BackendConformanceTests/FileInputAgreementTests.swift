import Foundation
@testable import ReceiptCore
import ReceiptKit
import Testing

/// A receipt validated from its file gets the answer its bytes get, on every backend, with the
/// verified-chain cache off and on: from a file the validator owns the bytes it read, and the parse
/// gives back the pages of the payload it has read past (``ReadPageRelease``), which the
/// validator must then never read again (the cache fill reads the parts around the payload).
@Suite struct FileInputAgreementTests {
    typealias Outcome = CacheAgreementTests.Outcome

    /// The files of the cache-agreement folders (the bit-flipped copies are not files).
    static let folders = [
        "real/receipts", "generated/receipts", "generated/hostile", "generated/edges", "backend-disagreements",
        "signed-data-classes", "fuzz-regressions/validator-openssl", "fuzz-regressions/validator-gnutls",
    ]

    @Test func aFileAndItsBytesGetOneAnswer() throws {
        let inputs = Self.folders.flatMap(CacheAgreementTests.files(in:))
        #expect(inputs.count >= 50, "\(inputs.count) files")
        var differences: [String] = []
        var large = 0
        for backend in CryptoBackends.all {
            for cache in [false, true] {
                let validator = try CacheAgreementTests.validator(backend, cache: cache)
                // Each file twice: the second time the cache (when on) may hold its chain.
                for _ in 0..<2 {
                    for input in inputs {
                        let file = BackendFixtures.directory.appendingPathComponent(input.name)
                        let fromFile = Outcome(validator.report(contentsOf: file))
                        let fromBytes = Outcome(validator.report(for: input.bytes))
                        if fromFile.isValid, input.bytes.count > 1_000_000 { large += 1 }
                        if fromFile != fromBytes {
                            differences.append("\(backend.name) cache \(cache ? "on" : "off"): \(input.name): \(fromFile) vs \(fromBytes)")
                        }
                    }
                }
            }
        }
        // The 5000-purchase receipt (1.26 MB) is valid from its file each time: its pages were released.
        #expect(large == 4 * CryptoBackends.all.count, "\(large) valid validations of a file over 1 MB")
        #expect(differences.isEmpty, "\(differences.prefix(20).joined(separator: "\n"))")
    }
}
