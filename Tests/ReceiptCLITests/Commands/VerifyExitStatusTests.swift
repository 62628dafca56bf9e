import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ReceiptTestSupport
import Testing

/// Exit statuses of `receipt verify`: 0 valid, 1 invalid, 2 usage, 3 unreadable.
@Suite("verify exit status")
struct VerifyExitStatusTests {
    static let sample = ReceiptCLI.realReceipt("tpinapp-sandbox-g5-sha256-2025-2iap.receipt").path

    @Test("a real Apple receipt verifies at its creation date: exit 0, VALID")
    func validReceipt() throws {
        let result = try ReceiptCLI.run(["verify", Self.sample])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(Self.sample): VALID\n"))
        #expect(result.stdout.contains("\n  Certificate chain (verified, leaf first):\n    0  "))
        #expect(result.stdout.contains("\n  Purchases (2):\n"))
    }

    @Test("--at now: the expired Apple certificate makes it invalid, exit 1, certificate_expired")
    func atNow() throws {
        let result = try ReceiptCLI.run(["verify", "--at", "now", "--json", Self.sample])
        #expect(result.status == 1)
        let output = try VerifyOutputShape.decode(result.stdout)
        #expect(output.valid == false)
        #expect(output.error?.code == "certificate_expired")
        let human = try ReceiptCLI.run(["verify", "--at", "now", Self.sample])
        #expect(human.status == 1)
        #expect(human.stdout.contains("INVALID: certificate_expired"))
    }

    @Test("--at with a fixed RFC 3339 date before the leaf was issued: certificate_not_yet_valid")
    func atFixedDate() throws {
        let result = try ReceiptCLI.run(["verify", "--at", "2020-01-01T00:00:00Z", "--json", Self.sample])
        #expect(result.status == 1)
        #expect(try VerifyOutputShape.decode(result.stdout).error?.code == "certificate_not_yet_valid")
    }

    @Test(
        "--at reads RFC 3339 as the receipts' dates are read: offsets, fractions, lowercase, years before 1583 proleptic Gregorian",
        arguments: [
            ("2025-01-31T13:00:00+01:00", "2025-01-31T12:00:00Z"),
            ("2025-01-31T12:00:00.5Z", "2025-01-31T12:00:00.500Z"),
            ("2025-01-31t12:00:00z", "2025-01-31T12:00:00Z"),
            ("2024-02-29T23:00:00-01:00", "2024-03-01T00:00:00Z"),
            // Foundation's parser read this as the Julian date, 1000-01-06 in the Gregorian calendar.
            ("1000-01-01T00:00:00Z", "1000-01-01T00:00:00Z"),
        ]
    )
    func atReadsRFC3339(text: String, checkedAt: String) throws {
        let result = try ReceiptCLI.run(["verify", "--at", text, Self.sample])
        let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("  Verified:") || $0.hasPrefix("  Checked at:") }
        #expect(line?.contains(" \(checkedAt) by ") == true, "\(text): \(result.stdout.prefix(400)) \(result.stderr)")
    }

    @Test("a missing file: exit 3, receipt_not_found")
    func missingFile() throws {
        let result = try ReceiptCLI.run(["verify", "--json", "/nonexistent/receipt-\(UUID().uuidString)"])
        #expect(result.status == 3)
        #expect(try VerifyOutputShape.decode(result.stdout).error?.code == "receipt_not_found")
    }

    @Test("a missing file among valid ones: exit 3 wins over 0")
    func missingAmongValid() throws {
        let result = try ReceiptCLI.run(["verify", "--ndjson", Self.sample, "/nonexistent/\(UUID().uuidString)"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("1 valid, 0 invalid, 1 unreadable"))
    }

    @Test(
        "usage errors exit 2 and say what is wrong on stderr",
        arguments: [
            (["verify", "--no-such-flag", sample], "Error: Unknown option '--no-such-flag'\n"),
            (["verify"], "Error: Missing expected argument '<file> ...'\n"),
            (["verify", "--device-id", "not-a-device", sample], "Error: --device-id expects a UUID, a MAC address or hex bytes, not 'not-a-device'\n"),
            (["verify", "--at", "yesterday", sample], "Error: The value 'yesterday' is invalid for '--at <creation|now|date>'\n"),
            // Fields out of range: Foundation's parser read these as 2025-03-02 and 2025-02-01.
            (["verify", "--at", "2025-02-30T12:00:00Z", sample], "Error: The value '2025-02-30T12:00:00Z' is invalid for '--at <creation|now|date>'\n"),
            (["verify", "--at", "2025-01-31T24:00:00Z", sample], "Error: The value '2025-01-31T24:00:00Z' is invalid for '--at <creation|now|date>'\n"),
            (["entitlements", "--at", "2023-02-29T00:00:00Z", sample], "Error: The value '2023-02-29T00:00:00Z' is invalid for '--at <now|creation|date>'\n"),
            // An option that takes one value, given twice: ArgumentParser kept the last without a
            // word, so the first check asked for was not made (the receipt's own bundle id last: VALID).
            (["verify", "--bundle-id", "com.wrong", "--bundle-id", "dev.bonzer.weeka.app", sample], "Error: --bundle-id can be given once, not 2 times\n"),
            (["verify", "--app-version", "1", "--app-version", "2", sample], "Error: --app-version can be given once, not 2 times\n"),
            (["verify", "--device-id", "00", "--device-id", "01", "--device-id", "02", sample], "Error: --device-id can be given once, not 3 times\n"),
            (["verify", "--backend", "gnutls", "--backend", "openssl", sample], "Error: --backend can be given once, not 2 times\n"),
            (["verify", "--at", "now", "--at", "creation", sample], "Error: --at can be given once, not 2 times\n"),
            (["verify", "--format", "apple", "--format", "apple", sample], "Error: --format can be given once, not 2 times\n"),
            (["entitlements", "--at", "now", "--at", "creation", sample], "Error: --at can be given once, not 2 times\n"),
            (["entitlements", "--catalog", "a.json", "--catalog", "b.json", sample], "Error: --catalog can be given once, not 2 times\n"),
            (["timeline", "--svg", "-", "--svg", "-", sample], "Error: --svg can be given once, not 2 times\n"),
            (["timeline", sample], "Error: Missing expected argument '--svg <out.svg>'\n"),
            (["conformance", "--backend", "openssl", "--backend", "gnutls"], "Error: --backend can be given once, not 2 times\n"),
            (["conformance", "--fixtures", "a", "--fixtures", "b"], "Error: --fixtures can be given once, not 2 times\n"),
            (["verify", "--backend", "nosuchlib", sample], "Error: The value 'nosuchlib' is invalid for '--backend <name>'. Please provide one of "),
            (["verify", "--format", "xml", sample], "Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'apple'.\n"),
            (["verify", "--json", "--ndjson", sample], "Error: --json and --ndjson cannot be combined\n"),
            (["verify", "-", "-"], "Error: standard input (-) can be named only once\n"),
            (["frobnicate"], "Error: Unexpected argument 'frobnicate'\n"),
        ]
    )
    func usageErrors(arguments: [String], message: String) throws {
        let result = try ReceiptCLI.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("\nUsage: receipt"), "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("a --root that is not a certificate is a usage error; an unreadable one exits 3")
    func badRoot() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let garbage = directory.appendingPathComponent("garbage.pem")
        try Data("not a certificate".utf8).write(to: garbage)
        #expect(try ReceiptCLI.run(["verify", "--root", garbage.path, Self.sample]).status == 2)
        #expect(try ReceiptCLI.run(["verify", "--root", directory.appendingPathComponent("missing.cer").path, Self.sample]).status == 3)
    }

    @Test("--root with the Apple root file verifies like the embedded default; another root rejects")
    func customRoot() throws {
        let certs = Fixtures.realDirectory.appendingPathComponent("certs")
        let apple = try ReceiptCLI.run(["verify", "--root", certs.appendingPathComponent("AppleIncRootCertificate.cer").path, Self.sample])
        #expect(apple.status == 0, "\(apple.stdout)")
        let other = try ReceiptCLI.run(["verify", "--json", "--root", certs.appendingPathComponent("AppleRootCA-G3.cer").path, Self.sample])
        #expect(other.status == 1)
        #expect(try VerifyOutputShape.decode(other.stdout).error?.code == "untrusted_chain")
    }

    @Test("output that cannot be written (a full device): exit 3 and the reason, in every command and format")
    func unwritableOutput() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Enough copies that the batch's text outgrows the output buffer and is written mid-run.
        let receipt = try Data(contentsOf: URL(fileURLWithPath: Self.sample))
        for index in 0..<200 {
            try receipt.write(to: directory.appendingPathComponent(String(format: "r%03d.receipt", index)))
        }
        let commands: [[String]] = [
            ["verify", Self.sample], ["verify", "--json", Self.sample], ["verify", "--ndjson", directory.path],
            ["verify", "--format", "apple", Self.sample], ["dump", Self.sample], ["dump", "--json", Self.sample],
            ["entitlements", Self.sample], ["entitlements", "--json", Self.sample],
        ]
        for arguments in commands {
            let result = try ReceiptCLI.run(arguments, stdoutPath: "/dev/full")
            #expect(result.status == 3, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("the output could not be written: No space left on device"), "\(arguments): \(result.stderr)")
            // The same command to a file succeeds: the failure is the output's, not the receipt's.
            #expect(try ReceiptCLI.run(arguments).status == 0, "\(arguments)")
        }
    }

    /// Standard output a pipe whose reader has gone: the write fails with EPIPE, which the tool
    /// reports (exit status 3 and a line on standard error, as the README says) instead of dying
    /// of SIGPIPE without a word (status 141 in a shell).
    @Test("a closed pipe: exit status 3 and a line on standard error, not death by SIGPIPE")
    func closedPipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let errorURL = directory.appendingPathComponent("stderr")
        try Data().write(to: errorURL)
        let error = try FileHandle(forWritingTo: errorURL)
        let process = Process()
        process.executableURL = try ReceiptCLI.executable()
        process.arguments = ["verify", Self.sample]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
        process.standardError = error
        try process.run()
        close(ends[1])
        process.waitUntilExit()
        try error.close()
        let stderr = String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
        #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
        #expect(process.terminationStatus == 3, "\(stderr)")
        #expect(stderr.contains("the output could not be written: Broken pipe"), "\(stderr)")
    }
}
