import Foundation
import ReceiptTestSupport
import Testing

/// `receipt conformance`: a table, the closing `N passed, N failed` line, exit 1 iff a case failed.
@Suite("conformance")
struct ConformanceCommandTests {
    @Test("runs the manifest, ends with `N passed, N failed`, exit status agrees with the count")
    func runsManifest() throws {
        let fixtures = Fixtures.directory.path
        let result = try ReceiptCLI.run(["conformance", "--fixtures", fixtures])
        let lastLine = try #require(result.stdout.split(separator: "\n").last.map(String.init))
        let numbers = lastLine.split(separator: " ").compactMap { Int($0) }
        #expect(lastLine.hasSuffix(" failed"), "\(lastLine)")
        #expect(numbers.count == 2)
        let passed = numbers.first ?? 0
        let failed = numbers.last ?? -1
        #expect(passed > 0)
        #expect(result.status == (failed == 0 ? 0 : 1))
        #expect(result.stdout.contains("real-apple"))
    }

    @Test("a fixtures directory without a manifest is a usage error; an unknown backend too")
    func usage() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try ReceiptCLI.run(["conformance", "--fixtures", directory.path]).status == 2)
        #expect(try ReceiptCLI.run(["conformance", "--backend", "nosuchlib"]).status == 2)
    }
}
