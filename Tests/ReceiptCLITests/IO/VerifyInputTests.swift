import Foundation
import ReceiptTestSupport
import Testing

/// Inputs: standard input (DER and base64 text), base64 files, directories.
@Suite("verify inputs")
struct VerifyInputTests {
    static let sampleName = "tpinapp-sandbox-g5-sha256-2025-2iap.receipt"
    static var sample: URL { ReceiptCLI.realReceipt(sampleName) }

    @Test("stdin (-) with DER bytes")
    func standardInputDER() throws {
        let result = try ReceiptCLI.run(["verify", "--json", "-"], stdin: try Data(contentsOf: Self.sample))
        #expect(result.status == 0, "\(result.stdout)")
        let output = try VerifyOutputShape.decode(result.stdout)
        #expect(output.valid)
        #expect(output.file == "-")
    }

    @Test("stdin (-) with base64 text, wrapped at 76 columns with a trailing newline")
    func standardInputBase64() throws {
        let text = try Data(contentsOf: Self.sample).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed]) + "\n"
        let result = try ReceiptCLI.run(["verify", "--json", "-"], stdin: Data(text.utf8))
        #expect(result.status == 0, "\(result.stdout)")
        #expect(try VerifyOutputShape.decode(result.stdout).valid)
    }

    @Test("empty stdin is invalid (exit 1), not a crash")
    func emptyStandardInput() throws {
        let result = try ReceiptCLI.run(["verify", "--json", "-"], stdin: Data())
        #expect(result.status == 1)
        #expect(try VerifyOutputShape.decode(result.stdout).error?.code == "empty_receipt")
    }

    @Test("a base64 text file")
    func base64File() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("receipt.b64")
        try Data(try Data(contentsOf: Self.sample).base64EncodedString().utf8).write(to: file)
        let result = try ReceiptCLI.run(["verify", "--json", file.path])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(try VerifyOutputShape.decode(result.stdout).valid)
    }

    @Test("a file that is neither DER nor base64 is invalid, exit 1")
    func garbageFile() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("garbage")
        try Data("this is not a receipt at all!".utf8).write(to: file)
        let result = try ReceiptCLI.run(["verify", "--json", file.path])
        #expect(result.status == 1)
        let output = try VerifyOutputShape.decode(result.stdout)
        #expect(output.valid == false)
        #expect(output.receipt == nil)
    }

    @Test("an empty path is unreadable (exit 3) and said to be empty, in verify and dump, not read as the working directory")
    func emptyPath() throws {
        let verify = try ReceiptCLI.run(["verify", ""])
        #expect(verify.status == 3, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("An empty path names no receipt file."), "\(verify.stdout)")
        #expect(!verify.stdout.contains("is not a regular file"), "\(verify.stdout)")
        let dump = try ReceiptCLI.run(["dump", ""])
        #expect(dump.status == 3, "\(dump.stdout)\(dump.stderr)")
        #expect((dump.stdout + dump.stderr).contains("An empty path names no receipt file."), "\(dump.stdout)\(dump.stderr)")
    }

    @Test("a named pipe given as a receipt is unreadable (exit 3), refused at once without waiting for a writer")
    func namedPipe() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("receipt").path
        try #require(mkfifo(path, 0o600) == 0)
        // Should the tool wait in open(2) for a writer, the watchdog lets it go every 10 s and says so.
        let (result, hadToOpen) = try NamedPipeWatchdog.run(path: path, every: 10) { try ReceiptCLI.run(["verify", path]) }
        #expect(!hadToOpen, "receipt waited in open(2) for a writer")
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("is not a regular file"), "\(result.stdout)")
    }

    /// `--root` and `--catalog` naming a FIFO that nothing writes to: the tool held in open(2)
    /// for ever; now the FIFO reads as empty, which is no certificate or catalog (a usage error).
    @Test("a named pipe given as --root or --catalog does not hold the tool: an empty file, exit 2")
    func namedPipeAsOption() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("fifo").path
        try #require(mkfifo(path, 0o600) == 0)
        for arguments in [["verify", "--root", path, Self.sample.path], ["entitlements", "--catalog", path, Self.sample.path]] {
            let (result, hadToOpen) = try NamedPipeWatchdog.run(path: path, every: 10) { try ReceiptCLI.run(arguments) }
            #expect(!hadToOpen, "receipt waited in open(2) for a writer: \(arguments)")
            #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
        }
    }

    @Test("a directory of the Apple fixtures with --ndjson: one valid line per file, sorted by name; a subdirectory skipped and counted; summary on stderr; no progress bar off a terminal")
    func directoryNDJSON() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = try ReceiptCLI.appleReceiptNames()
        #expect(names.count == 22, "the Apple-signed receipts of Fixtures/real/receipts")
        // Copy in reverse order, so that listing order cannot pass for sorted order by accident.
        for name in names.reversed() {
            try FileManager.default.copyItem(at: ReceiptCLI.realReceipt(name), to: directory.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("subdirectory-skipped"), withIntermediateDirectories: false)
        let result = try ReceiptCLI.run(["verify", "--ndjson", directory.path])
        #expect(result.status == 3, "\(result.stdout)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == names.count)
        let outputs = try lines.map(VerifyOutputShape.decode)
        #expect(outputs.map { URL(fileURLWithPath: $0.file).lastPathComponent } == names)
        for output in outputs {
            #expect(output.valid, "\(output.file): \(output.error?.code ?? "") \(output.error?.message ?? "")")
        }
        #expect(result.stderr.contains("receipt: skipped \(directory.path)/subdirectory-skipped: a directory (directories are not read recursively)\n"))
        #expect(result.stderr.contains("\(names.count) valid, 0 invalid, 1 unreadable"))
        #expect(!result.stderr.contains("\r"))
        #expect(!result.stderr.contains("#"))
    }

    @Test("names beyond ASCII in a directory: sorted as Swift sorts the paths; a name that is not UTF-8 verified and shown escaped")
    func directoryNames() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = ["b.receipt", "é.receipt", "e\u{301}x.receipt", "Z.receipt", "ä.receipt", "a.receipt", "日本.receipt", "a-much-longer-name-than-fifteen-bytes.receipt"]
        for name in names {
            try FileManager.default.copyItem(at: Self.sample, to: directory.appendingPathComponent(name))
        }
        // A name of a byte that is not UTF-8 (0xFF): its label is `\xff`.
        try ReceiptCLI.createFile(named: [0xFF], in: directory, contents: try Data(contentsOf: Self.sample))
        let result = try ReceiptCLI.run(["verify", "--ndjson", directory.path])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let outputs = try result.stdout.split(separator: "\n").map { try VerifyOutputShape.decode(String($0)) }
        let prefix = directory.path + "/"
        #expect(outputs.map(\.file) == (names + ["\\xff"]).map { prefix + $0 }.sorted())
        #expect(outputs.allSatisfy { $0.valid })
        #expect(result.stderr == "\(names.count + 1) valid, 0 invalid, 0 unreadable\n")
    }

    @Test("a batch large enough to be verified in chunks: every file once, in name order, its own verdict; the tally counts each")
    func largeBatchInChunks() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 16 × 32 × 2 cores and more: the runner gives each task up to 16 consecutive files.
        let valid = try Data(contentsOf: ReceiptCLI.realReceipt("tpinapp-sandbox-g5-sha256-2025-2iap.receipt"))
        var invalid = valid
        invalid[invalid.count - 10] ^= 0x01  // the signature
        let count = 1_100
        var expected: [String: Bool] = [:]
        for index in 0..<count {
            let name = String(format: "r%05d.receipt", index)
            let isValid = index % 7 != 3
            try (isValid ? valid : invalid).write(to: directory.appendingPathComponent(name))
            expected[name] = isValid
        }
        let invalidCount = expected.values.filter { !$0 }.count
        for flags in [["--ndjson"], ["--json"]] {
            let result = try ReceiptCLI.run(["verify"] + flags + [directory.path])
            #expect(result.status == 1)
            let outputs: [VerifyOutputShape]
            if flags == ["--json"] {
                outputs = try JSONDecoder().decode([VerifyOutputShape].self, from: Data(result.stdout.utf8))
            } else {
                outputs = try result.stdout.split(separator: "\n").map { try VerifyOutputShape.decode(String($0)) }
            }
            let names = outputs.map { URL(fileURLWithPath: $0.file).lastPathComponent }
            #expect(names == expected.keys.sorted(), "\(flags)")
            for output in outputs {
                let name = URL(fileURLWithPath: output.file).lastPathComponent
                #expect(output.valid == expected[name], "\(flags) \(name)")
            }
            if flags == ["--ndjson"] {
                #expect(result.stderr.contains("\(count - invalidCount) valid, \(invalidCount) invalid, 0 unreadable"), "\(result.stderr)")
            }
        }
    }

    @Test("several files in human form: one block each, in input order, summary on stderr")
    func severalHuman() throws {
        let names = ["voltrue2-production-sha1-2015-noiap.receipt", "aiv-sandbox-ios-mindnode-2017a.receipt", "tpinapp-sandbox-g7-sha1-2023.receipt"]
        let result = try ReceiptCLI.run(["verify"] + names.map { ReceiptCLI.realReceipt($0).path })
        #expect(result.status == 0)
        let positions = names.compactMap { result.stdout.range(of: "\($0): VALID")?.lowerBound }
        #expect(positions.count == 3)
        #expect(positions == positions.sorted())
        #expect(result.stderr.contains("3 valid, 0 invalid, 0 unreadable"))
        #expect(!result.stderr.contains("\r"))
    }

    @Test("a directory without receipt files verifies nothing, says so and exits 3, in every format")
    func emptyDirectory() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("only-a-subdirectory"), withIntermediateDirectories: false)
        for format in [["--ndjson"], [], ["--json"]] {
            let result = try ReceiptCLI.run(["verify"] + format + [directory.path])
            #expect(result.status == 3, "\(format)")
            #expect(result.stderr.contains("\(directory.path) holds no receipt file"))
            #expect(format == ["--json"] ? result.stdout == "[]\n" : result.stdout.isEmpty)
        }
        // Beside a valid receipt, the empty directory still makes the run exit 3.
        let mixed = try ReceiptCLI.run(["verify", "--ndjson", Self.sample.path, directory.path])
        #expect(mixed.status == 3)
        #expect(mixed.stdout.split(separator: "\n").count == 1)
    }

    @Test("links in a directory: to a receipt verified under the link's name; to nothing or to a directory skipped, said and counted")
    func directoryLinks() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = FileManager.default
        try manager.copyItem(at: Self.sample, to: directory.appendingPathComponent("a.receipt"))
        try manager.createSymbolicLink(atPath: directory.appendingPathComponent("b-link.receipt").path, withDestinationPath: Self.sample.path)
        try manager.createSymbolicLink(atPath: directory.appendingPathComponent("c-dangling.receipt").path, withDestinationPath: "/nonexistent/receipt")
        try manager.createSymbolicLink(atPath: directory.appendingPathComponent("d-dir-link").path, withDestinationPath: directory.path)
        let result = try ReceiptCLI.run(["verify", "--ndjson", directory.path + "/"])
        #expect(result.status == 3, "\(result.stderr)")
        let files = try result.stdout.split(separator: "\n").map { try VerifyOutputShape.decode(String($0)).file }
        #expect(files == [directory.path + "/a.receipt", directory.path + "/b-link.receipt"])
        #expect(result.stderr == """
            receipt: skipped \(directory.path)/c-dangling.receipt: a link to nothing
            receipt: skipped \(directory.path)/d-dir-link: a link to a directory (directories are not read recursively)
            2 valid, 0 invalid, 2 unreadable

            """)
    }

    @Test("standard input is named - in text, JSON and NDJSON output")
    func standardInputName() throws {
        let bytes = try Data(contentsOf: Self.sample)
        let text = try ReceiptCLI.run(["verify", "-"], stdin: bytes)
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("-: VALID\n"))
        for format in ["--json", "--ndjson"] {
            let result = try ReceiptCLI.run(["verify", format, "-"], stdin: bytes)
            #expect(try VerifyOutputShape.decode(result.stdout).file == "-")
        }
    }

    @Test("a --root that can not be read is reported at once while standard input stays open (the inputs are listed on another thread)")
    func rootRejectedBeforeStandardInputEnds() throws {
        let directory = try ReceiptCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing-root.cer").path
        let standardInput = Pipe()  // its writing end stays open: reading it to its end would wait for ever
        let standardError = Pipe()
        let process = Process()
        process.executableURL = try ReceiptCLI.executable()
        process.arguments = ["verify", "--root", missing, "--ndjson", "-", Self.sample.path]
        process.standardInput = standardInput
        process.standardOutput = FileHandle.nullDevice
        process.standardError = standardError
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let finished = !process.isRunning
        if !finished { process.terminate() }
        try standardInput.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(finished, "the tool waited for standard input before reporting the unreadable --root")
        #expect(process.terminationStatus == 3)
        let message = String(decoding: standardError.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("the root certificate \(missing) could not be read"), "\(message)")
    }
}
