import Foundation
import ReceiptCore
import ReceiptTestSupport
import Testing

/// `--help` on every command (with examples) and `--version`.
@Suite("help and version")
struct HelpTests {
    @Test("--help exits 0 and shows examples", arguments: [["--help"], ["verify", "--help"], ["dump", "--help"], ["conformance", "--help"], ["help", "verify"]])
    func help(arguments: [String]) throws {
        let result = try ReceiptCLI.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.contains("Examples:"))
        #expect(result.stdout.contains("USAGE"))
    }

    @Test("verify --help lists every option")
    func verifyOptions() throws {
        let text = try ReceiptCLI.run(["verify", "--help"]).stdout
        for option in ["--root", "--xcode", "--bundle-id", "--app-version", "--device-id", "--at", "--backend", "--json", "--ndjson"] {
            #expect(text.contains(option), "\(option)")
        }
    }

    @Test("--version prints the package version, which is CHANGELOG.md's newest release")
    func version() throws {
        let result = try ReceiptCLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == ReceiptKitVersion.current)
        let changelog = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let releases = changelog.split(separator: "\n").filter { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        #expect(releases.first?.hasPrefix("## [\(ReceiptKitVersion.current)]") == true, "\(releases.first ?? "no release")")
    }
}
