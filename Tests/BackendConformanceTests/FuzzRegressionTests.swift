import Foundation
import ReceiptKit
import Testing

/// Every input in `Fixtures/fuzz-regressions/<target>/` (crashes and hangs found by `Scripts/fuzz.sh`,
/// and boundary inputs) goes through every stage — loader, container walk, parser, and the whole
/// validator on every compiled-in backend — without trapping, and reports obey the invariants the
/// fuzz targets check.
@Suite struct FuzzRegressionTests {
    static let directory = BackendFixtures.directory.appendingPathComponent("fuzz-regressions")

    /// `target/file` paths, sorted.
    static let inputs: [String] = {
        let manager = FileManager.default
        let targets = ((try? manager.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        return targets.flatMap { target -> [String] in
            let files = (try? manager.contentsOfDirectory(atPath: directory.appendingPathComponent(target).path)) ?? []
            return files.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map { "\(target)/\($0)" }
        }
    }()

    @Test func regressionCorpusIsPresent() {
        #expect(!Self.inputs.isEmpty, "Fixtures/fuzz-regressions holds the inputs the fuzzers produced")
    }

    @Test(arguments: inputs)
    func inputPassesEveryStageWithoutTrapping(_ path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(path)))
        _ = try? ReceiptLoader.load(bytes)
        if let container = try? PKCS7Container(bytes: bytes) {
            #expect(container.content.count <= bytes.count)
            for certificate in container.certificates { _ = try? CertificateInfo(certificate) }
        }
        if let receipt = try? ReceiptParser.parse(bytes) {
            #expect(try ReceiptParser.creationDate(in: bytes) == receipt.creationDate)
        }
        for backend in BackendFixtures.backends {
            let validator = try ConcurrentValidationTests.validator(backend.backend)
            let report = validator.report(for: bytes)
            if report.isValid {
                #expect(report.receipt != nil && !report.signerChain.isEmpty, "\(backend.backend.name): valid without receipt or chain")
            } else {
                #expect(report.error != nil)
            }
            #expect(report.receipt == nil || report.digestAlgorithm != nil, "\(backend.backend.name): receipt from unverified bytes")
        }
    }
}
