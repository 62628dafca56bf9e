import ArgumentParser
import Testing

@testable import receipt

/// `VerifyCommand.parseDirectly` (the tool's shortcut past ArgumentParser for plain `verify`
/// command lines) against ArgumentParser's own parse of the same words.
@Suite("verify: direct argument reading")
struct VerifyDirectParseTests {
    /// Every field of a parsed `verify`, as text.
    private static func fields(_ command: VerifyCommand) -> [String] {
        let validation = command.validation
        return [
            "files=\(command.files)", "roots=\(validation.roots)", "xcode=\(validation.xcode)",
            "bundleID=\(String(describing: validation.bundleID))",
            "applicationVersion=\(String(describing: validation.applicationVersion))",
            "deviceID=\(String(describing: validation.deviceID))", "backend=\(String(describing: validation.backend))",
            "at=\(command.verificationTime)", "json=\(command.json)", "ndjson=\(command.ndjson)",
            "format=\(String(describing: command.format))",
        ]
    }

    /// The words the generated command lines are made of: every option (known or not, with `=`,
    /// doubled, missing its value), values that are wrong for their option, and files.
    private static let words: [String] = [
        "--root", "--xcode", "--bundle-id", "--app-version", "--device-id", "--backend", "--at", "--json", "--ndjson",
        "--format", "apple", "text", "creation", "now", "2025-01-31T12:00:00Z", "not-a-date", "openssl", "gnutls", "OpenSSL",
        "nope", "com.example.app", "42", "956328D9-CC6A-47F4-BE40-6953FB0AB6C7", "00:11:22:33:44:55", "zz", "a.receipt",
        "dir/", "-", "--", "-h", "--help", "--version", "--root=x.pem", "--jso", "-x", "", "verify", "dump", "--no-json",
        "--generate-completion-script", "bash", "a b.receipt", "é.receipt",
    ]

    /// A small deterministic generator (SplitMix64), so that a failure names a line that
    /// comes back on the next run.
    private struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Command lines: the plain ones a batch uses, then random ones of up to 7 words after `verify`.
    private static func commandLines() -> [[String]] {
        var lines: [[String]] = [
            ["verify", "a.receipt"],
            ["verify", "--ndjson", "dir/"],
            // The build's own default backend: a GnuTLS-only build rejects `--backend openssl`.
            ["verify", "--backend", BackendOption.availableNames.first ?? "", "--root", "r.cer", "--ndjson", "dir/"],
            ["verify", "--json", "--bundle-id", "com.example.app", "--app-version", "42", "a.receipt", "-"],
            ["verify", "--format", "apple", "--ndjson", "--at", "now", "--xcode", "a.receipt"],
            ["verify", "--device-id", "956328D9-CC6A-47F4-BE40-6953FB0AB6C7", "--root", "a.pem", "--root", "b.pem", "a.receipt"],
        ]
        var random = SplitMix64(state: 20_261_125)
        for _ in 0..<1000 {
            let count = Int.random(in: 0...7, using: &random)
            lines.append(["verify"] + (0..<count).map { _ in words.randomElement(using: &random) ?? "" })
        }
        return lines
    }

    @Test("every line read directly is read the same by ArgumentParser, field by field")
    func sameAsArgumentParser() throws {
        var direct = 0
        for line in Self.commandLines() {
            guard let command = VerifyCommand.parseDirectly(line[...]) else { continue }
            direct += 1
            let parsed = try #require(
                try? ReceiptCommand.parseAsRoot(line) as? VerifyCommand, "ArgumentParser rejects \(line), read directly")
            #expect(Self.fields(command) == Self.fields(parsed), "\(line)")
        }
        // The shortcut must be taken often enough to mean something, including every plain line.
        #expect(direct > 100, "\(direct) lines read directly")
        for line in Self.commandLines().prefix(6) {
            #expect(VerifyCommand.parseDirectly(line[...]) != nil, "\(line)")
        }
    }

    @Test("lines ArgumentParser must answer itself are left to it", arguments: [
        ["verify"], ["verify", "--help"], ["verify", "-h", "a.receipt"], ["verify", "--json", "--json", "a"],
        ["verify", "--root=x.pem", "a"], ["verify", "--", "a"], ["verify", "--bundle-id"], ["verify", "--at", "-", "a"],
        ["verify", "--json", "--ndjson", "a"], ["verify", "--format", "text", "a"], ["verify", "--backend", "nope", "a"],
        ["verify", "--device-id", "zz", "a"], ["verify", "--at", "not-a-date", "a"], ["verify", "-", "-"], ["verify", ""],
        ["dump", "a"], ["--version"], ["verify", "--generate-completion-script", "bash"],
    ])
    func leftToArgumentParser(line: [String]) {
        #expect(VerifyCommand.parseDirectly(line[...]) == nil)
    }

    @Test("every property of the command and its option group is set (none reads as an unset definition)")
    func everyPropertySet() throws {
        let command = try #require(VerifyCommand.parseDirectly(["verify", "a.receipt"]))
        // ArgumentParser's wrappers trap when a property that was never parsed or assigned is
        // read; a property added to VerifyCommand and not to parseDirectly shows here.
        for value in [Mirror(reflecting: command), Mirror(reflecting: command.validation)].flatMap(\.children).map(\.value) {
            let text = String(reflecting: value)
            #expect(!text.contains("definition"), "\(text.prefix(200))")
        }
        // The check sees an unset property: a command made with `init()` has only definitions.
        let unset = Mirror(reflecting: VerifyCommand()).children.map { String(reflecting: $0.value) }
        #expect(unset.allSatisfy { $0.contains("definition") })
        #expect(Mirror(reflecting: command).children.count == 6)
        #expect(Mirror(reflecting: command.validation).children.count == 6)
    }
}
