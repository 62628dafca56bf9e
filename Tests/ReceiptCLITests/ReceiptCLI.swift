import Foundation
import ReceiptTestSupport
import Testing

/// Runs the built `receipt` executable and captures its exit status, stdout and stderr.
///
/// The executable is found next to the test binary (SwiftPM puts both in the bin directory of the
/// scratch path), or at `$RECEIPT_CLI`.
enum ReceiptCLI {
    /// What one run produced.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A real receipt by file name.
    static func realReceipt(_ name: String) -> URL {
        Fixtures.realDirectory.appendingPathComponent("receipts/\(name)")
    }

    /// The file names of the Apple-signed real receipts (not the Xcode StoreKit-testing ones),
    /// sorted by name.
    static func appleReceiptNames() throws -> [String] {
        let names = RealReceipt.apple.map { "\($0.name).receipt" }.sorted()
        guard !names.isEmpty else { throw CocoaError(.fileReadUnknown) }
        return names
    }

    /// The `receipt` executable.
    static func executable() throws -> URL {
        let manager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["RECEIPT_CLI"] {
            return URL(fileURLWithPath: path)
        }
        var starts: [URL] = [URL(fileURLWithPath: CommandLine.arguments.first ?? "")]
        starts.append(Bundle.main.bundleURL)
        if let url = Bundle.main.executableURL { starts.append(url) }
        starts += Bundle.allBundles.map(\.bundleURL)
        for start in starts {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<5 {
                let candidate = directory.appendingPathComponent("receipt")
                var isDirectory: ObjCBool = false
                if manager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   manager.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw CLIError("the receipt executable was not found next to the test binary (\(starts.map(\.path))); build it or set RECEIPT_CLI")
    }

    /// Runs `receipt arguments…` with `stdin` as standard input (empty when nil) and standard
    /// output to `stdoutPath` when given (a device such as `/dev/full`; `stdout` is then empty).
    static func run(_ arguments: [String], stdin: Data? = nil, stdoutPath: String? = nil) throws -> Result {
        let manager = FileManager.default
        let directory = try temporaryDirectory()
        defer { try? manager.removeItem(at: directory) }
        let inURL = directory.appendingPathComponent("stdin")
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        try (stdin ?? Data()).write(to: inURL)
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let input = try FileHandle(forReadingFrom: inURL)
        let output = try stdoutPath.map { try FileHandle(forWritingTo: URL(fileURLWithPath: $0)) } ?? FileHandle(forWritingTo: outURL)
        let error = try FileHandle(forWritingTo: errURL)
        defer {
            try? input.close()
            try? output.close()
            try? error.close()
        }
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        )
    }

    /// Runs `receipt` with `arguments` given as bytes, as the kernel passes them (`Process` takes
    /// strings: it cannot pass an argument that is not UTF-8); stdin empty.
    static func run(rawArguments arguments: [[UInt8]]) throws -> Result {
        let capture = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: capture) }
        let outPath = capture.appendingPathComponent("stdout").path
        let errPath = capture.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let executable = try executable().path
        let strings = [Array(executable.utf8)] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = strings.map { bytes in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        }
        argv.append(nil)
        defer { for pointer in argv { pointer?.deallocate() } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw CLIError("posix_spawn failed: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw CLIError("waitpid failed: \(errno)") }
        }
        return Result(
            status: (status >> 8) & 0xFF,
            stdout: String(decoding: try Data(contentsOf: URL(fileURLWithPath: outPath)), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self)
        )
    }

    /// Creates the file whose path is `directory`'s followed by `/` and the bytes `name` (which
    /// need not be UTF-8: `FileManager` cannot name such a file) holding `contents`.
    static func createFile(named name: [UInt8], in directory: URL, contents: Data) throws {
        let path = Array(directory.path.utf8) + [UInt8(ascii: "/")] + name
        let descriptor = (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
            open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        guard descriptor >= 0 else { throw CLIError("cannot create \(name): errno \(errno)") }
        defer { close(descriptor) }
        let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == contents.count else { throw CLIError("short write to \(name)") }
    }

    /// A fresh empty temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("receipt-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Parses one JSON object.
    static func jsonObject(_ text: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        guard let object = value as? [String: Any] else {
            throw CLIError("not a JSON object: \(text.prefix(200))")
        }
        return object
    }
}

/// A test-support failure with a message.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
