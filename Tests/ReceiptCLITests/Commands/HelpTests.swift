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
        #expect(result.stdout.contains("\nExamples:\n  receipt "), "\(arguments)")
        let command = arguments.first { $0 != "help" && $0 != "--help" }.map { " " + $0 } ?? ""
        #expect(result.stdout.contains("\nUSAGE: receipt\(command) "), "\(arguments)")
    }

    @Test("verify --help lists every option")
    func verifyOptions() throws {
        let text = try ReceiptCLI.run(["verify", "--help"]).stdout
        for option in ["--root <cert>", "--xcode", "--bundle-id <id>", "--app-version <version>", "--device-id <uuid|mac|hex>",
                       "--at <creation|now|date>", "--backend <name>", "--json", "--ndjson", "--format <format>"] {
            // The option's line: its description follows on the same line, or on the next for a long one.
            #expect(text.contains("\n  \(option) ") || text.contains("\n  \(option)\n"), "\(option)")
        }
        #expect(text.contains("(values: apple)"), "--format lists its value")
    }

    /// The single-valued options are parsed as lists (so that a second value can be refused), so
    /// each command writes its usage line out; this holds that line to the options the help lists,
    /// shown once each, and the repeatable ones (`--root`, files) shown with `...`.
    @Test("every command's usage line names each option its help lists, as single or repeatable", arguments: ["verify", "entitlements", "timeline", "conformance", "dump"])
    func usageLineMatchesTheOptions(command: String) throws {
        let text = try ReceiptCLI.run([command, "--help"]).stdout
        let usage = try #require(text.split(separator: "\n").first { $0.hasPrefix("USAGE: ") })
        let optionLines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0 != "OPTIONS:" }.dropFirst()
            .filter { $0.hasPrefix("  --") && !$0.hasPrefix("  --version") && !$0.hasPrefix("  --help") }
        #expect(!optionLines.isEmpty, "\(command)")
        for line in optionLines {
            // `  --name <value>   description`, or the option alone on its line.
            let words = line.dropFirst(2).split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            let option = words.count > 1 && words[1].hasPrefix("<") ? "\(words[0]) \(words[1])" : String(words[0])
            let repeatable = option.hasPrefix("--root ")
            #expect(usage.components(separatedBy: option).count == 2, "\(command): \(option) is in the usage line once: \(usage)")
            #expect(usage.contains(option + " ...") == repeatable, "\(command): \(option) is shown as \(repeatable ? "" : "not ")repeatable: \(usage)")
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
