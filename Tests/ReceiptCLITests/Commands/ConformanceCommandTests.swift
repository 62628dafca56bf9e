import Foundation
import ReceiptKit
import ReceiptTestSupport
import Testing

/// `receipt conformance`: a table, the closing `N passed, N failed` line, exit 1 iff a case failed.
@Suite("conformance")
struct ConformanceCommandTests {
    @Test("every case of the manifest passes on every backend: one `N passed, 0 failed` a backend, their sum last, exit 0")
    func runsManifest() throws {
        let manifest = try ReceiptCLI.jsonObject(String(decoding: try Data(contentsOf: Fixtures.directory.appendingPathComponent("manifest.json")), as: UTF8.self))
        // Receipt cases and JWS cases (issue 31) alike.
        let cases = try #require(manifest["cases"] as? [Any]).count + (manifest["jws_cases"] as? [Any] ?? []).count
        let backends = CryptoBackends.all.count
        let result = try ReceiptCLI.run(["conformance", "--fixtures", Fixtures.directory.path])
        let failures = try ReceiptCLI.run(["conformance", "--fixtures", Fixtures.directory.path, "--failures-only"]).stdout
        #expect(result.status == 0, "\(failures)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0 == "\(cases) passed, 0 failed" }.count == backends, "\(failures)")
        if backends > 1 {
            #expect(lines.last == "\(cases * backends) passed, 0 failed")
        }
        #expect(result.stdout.contains("real-apple"))
        #expect(result.stdout.contains("jws-real"))
    }

    @Test("a fixtures directory without a manifest is a usage error; an unknown backend too")
    func usage() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try ReceiptCLI.run(["conformance", "--fixtures", directory.path]).status == 2)
        #expect(try ReceiptCLI.run(["conformance", "--backend", "nosuchlib"]).status == 2)
    }
}
