import Foundation
import Testing
@testable import receipt

/// Issue 30's "every input counted": paths are bytes (opened as given, shown escaped), and every
/// directory entry that is not read is said on stderr, counted as unreadable and exits 3.
@Suite("verify: every input counted")
struct EveryInputCountedTests {
    static let sample = ReceiptCLI.realReceipt("tpinapp-sandbox-g5-sha256-2025-2iap.receipt")
    static let appleRoot = ReceiptCLI.realReceipt("../certs/AppleIncRootCertificate.cer")

    /// A fresh directory holding the sample as `a.receipt`.
    static func directoryWithSample() throws -> URL {
        let directory = try ReceiptCLI.temporaryDirectory()
        try FileManager.default.copyItem(at: sample, to: directory.appendingPathComponent("a.receipt"))
        return directory
    }

    @Test("a file whose name is not UTF-8, in a directory: verified, shown escaped, counted")
    func nonUTF8NameInDirectory() throws {
        let directory = try Self.directoryWithSample()
        defer { try? FileManager.default.removeItem(at: directory) }
        try ReceiptCLI.createFile(named: [0x62, 0xFF] + Array(".receipt".utf8), in: directory, contents: Data(contentsOf: Self.sample))
        let result = try ReceiptCLI.run(["verify", "--ndjson", directory.path])
        #expect(result.status == 0, "\(result.stderr)")
        let outputs = try result.stdout.split(separator: "\n").map { try VerifyOutputShape.decode(String($0)) }
        #expect(outputs.map(\.file) == [directory.path + "/a.receipt", directory.path + "/b\\xff.receipt"])
        #expect(outputs.allSatisfy { $0.valid })
        #expect(result.stderr == "2 valid, 0 invalid, 0 unreadable\n")
    }

    @Test("a file and a --root whose names are not UTF-8, on the command line: opened as given, shown escaped")
    func nonUTF8NameOnCommandLine() throws {
        let directory = try Self.directoryWithSample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let prefix = Array(directory.path.utf8) + [UInt8(ascii: "/")]
        let name: [UInt8] = [0x62, 0xFF] + Array(".receipt".utf8)
        try ReceiptCLI.createFile(named: name, in: directory, contents: Data(contentsOf: Self.sample))
        let verify = Array("verify".utf8)
        let json = try ReceiptCLI.run(rawArguments: [verify, Array("--json".utf8), prefix + name])
        #expect(json.status == 0, "\(json.stdout) \(json.stderr)")
        let output = try VerifyOutputShape.decode(json.stdout)
        #expect(output.file == directory.path + "/b\\xff.receipt")
        #expect(output.valid)
        let text = try ReceiptCLI.run(rawArguments: [verify, prefix + name])
        #expect(text.stdout.hasPrefix(directory.path + "/b\\xff.receipt: VALID\n"), "\(text.stdout)")
        // A --root named by bytes that are not UTF-8, as a separate value and after `=`.
        let root: [UInt8] = [0xFE] + Array(".cer".utf8)
        try ReceiptCLI.createFile(named: root, in: directory, contents: Data(contentsOf: Self.appleRoot))
        let plain = prefix + Array("a.receipt".utf8)
        for arguments in [[verify, Array("--root".utf8), prefix + root, prefix + name], [verify, Array("--root=".utf8) + prefix + root, plain]] {
            let result = try ReceiptCLI.run(rawArguments: arguments)
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        }
        // A missing one is named escaped in the error.
        let missing = try ReceiptCLI.run(rawArguments: [verify, Array("--root".utf8), prefix + [0xFD], plain])
        #expect(missing.status == 3)
        #expect(missing.stderr == "receipt: the root certificate \(directory.path)/\\xfd could not be read: No such file or directory\n")
    }

    @Test("a named pipe called x.receipt in a directory: never opened, skipped with a line, counted, exit 3")
    func namedPipeInDirectory() throws {
        let directory = try Self.directoryWithSample()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #require(mkfifo(directory.appendingPathComponent("x.receipt").path, 0o600) == 0)
        for format in [["--ndjson"], ["--json"]] {
            let result = try ReceiptCLI.run(["verify"] + format + [directory.path])
            #expect(result.status == 3, "\(format) \(result.stderr)")
            #expect(result.stderr.hasPrefix("receipt: skipped \(directory.path)/x.receipt: a named pipe (FIFO), not a regular file\n"))
            #expect(result.stderr.contains("1 valid, 0 invalid, 1 unreadable") == (format == ["--ndjson"]), "\(result.stderr)")
        }
    }

    @Test("a link to nothing in a directory: skipped with a line, counted, exit 3")
    func danglingLink() throws {
        let directory = try Self.directoryWithSample()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("c.receipt").path, withDestinationPath: "/nonexistent/receipt")
        let result = try ReceiptCLI.run(["verify", "--ndjson", directory.path])
        #expect(result.status == 3)
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(result.stderr == """
            receipt: skipped \(directory.path)/c.receipt: a link to nothing
            1 valid, 0 invalid, 1 unreadable

            """)
    }

    @Test("labels: a path shown as it is unless it is not UTF-8 or holds a control character or a backslash")
    func labels() {
        let cases: [([UInt8], String)] = [
            (Array("dir/a.receipt".utf8), "dir/a.receipt"),
            (Array("日本/é.receipt".utf8), "日本/é.receipt"),
            ([0x61, 0xFF, 0x62], "a\\xffb"),
            (Array("a\\xff".utf8), "a\\\\xff"),
            (Array("a\nb\u{7F}".utf8), "a\\x0ab\\x7f"),
            (Array("a\u{85}b".utf8), "a\\xc2\\x85b"),
            ([0xE6, 0x97, 0x61], "\\xe6\\x97a"),
            ([0xC0, 0x80], "\\xc0\\x80"),
            (Array("a\u{1B}[31m".utf8), "a\\x1b[31m"),
        ]
        for (bytes, label) in cases {
            let path = InputPath(bytes: bytes)
            #expect(path.label == label, "\(bytes)")
            #expect(path.bytes == bytes)
            #expect(path.isShownAsItIs == (label.utf8.elementsEqual(bytes)))
        }
    }

    @Test("command-line stand-ins: an argument that is not UTF-8 reads as its label, unique among the arguments")
    func standIns() {
        let literal = Array("\\xff".utf8)  // four characters: the label of 0xFF as text
        let line = CommandLineBytes([Array("verify".utf8), literal, [0xFF], Array("--root=".utf8) + [0xFE], [0xFE]])
        #expect(line.arguments[0] == "verify")
        #expect(line.arguments[1] == "\\xff")
        #expect(line.bytes(standingFor: "\\xff") == nil)
        #expect(line.arguments[2] != "\\xff" && line.arguments[2].hasPrefix("\\xff"))
        #expect(line.bytes(standingFor: line.arguments[2]) == [0xFF])
        #expect(line.arguments[3] == "--root=\\xfe")
        #expect(line.bytes(standingFor: "\\xfe") == [0xFE])
        #expect(line.bytes(standingFor: line.arguments[3]) == Array("--root=".utf8) + [0xFE])
        #expect(line.arguments[4] != "\\xfe" && line.bytes(standingFor: line.arguments[4]) == [0xFE])
    }
}
