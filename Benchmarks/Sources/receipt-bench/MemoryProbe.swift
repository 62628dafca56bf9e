import CBaseline
import Foundation
import ReceiptKit

/// Peak memory of one validation, measured in a child process so earlier measurements do not count.
enum MemoryProbe {
    struct Result {
        /// Resident memory just before the validation (KiB).
        var before: Int
        /// Peak resident memory (VmHWM) during the validation (KiB); includes `before`.
        var peak: Int
        /// Anonymous resident memory after the validation (KiB), when the probe reports it.
        var anonymous: Int?
        /// File-backed resident memory after the validation (KiB), when the probe reports it.
        var fileBacked: Int?
        /// Peak minus before: what the validation itself added.
        var added: Int { peak - before }
    }

    /// In the child: builds the validator, resets the peak, validates once, prints `before peak`.
    static func runChild(backend: any CryptoBackend, fixture: Fixture, mode: String) throws {
        let validator = try ReceiptValidator(backend: backend, configuration: fixture.configuration(cache: mode != "off"))
        if mode == "warm" { _ = try validator.validate(fixture.der) }
        // The receipt arrives as a file, as on a server: reading it is part of the validation.
        let path = CommandLine.arguments.last ?? ""
        let before = bl_current_rss_kib()
        guard bl_reset_peak_rss() == 0 else { throw BenchError("cannot reset VmHWM (/proc/self/clear_refs)") }
        let validated = try validator.validate(contentsOf: URL(fileURLWithPath: path))
        let peak = bl_peak_rss_kib()
        precondition(validated.receipt.inAppPurchases.count >= 0)
        print("\(before) \(peak)")
    }

    /// In the parent: runs the child and reads its answer.
    static func measure(backend: String, fixtureIndex: Int, mode: String, file: String) throws -> Result {
        var childArguments = ["--memory", backend, String(fixtureIndex), mode]
        if let fixtures = argumentValue("--fixtures") { childArguments = ["--fixtures", fixtures] + childArguments }
        return try run(
            URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL, childArguments + [file],
            what: "memory probe for \(backend) fixture \(fixtureIndex)")
    }

    /// Runs the standalone `receipt-memory` executable (a process holding nothing but the
    /// validator) on one file: `before` is its resident memory when it starts (cold) or before the
    /// second validation (warm), `peak` its whole-process peak.
    /// `primingFile`: for mode `primed`, the receipt validated first.
    static func standalone(
        probe: String, backend: String, fixture: Fixture, mode: String, anchorFile: String, primingFile: String? = nil
    ) throws -> Result {
        try run(
            URL(fileURLWithPath: probe), [backend, fixture.file.path, anchorFile, mode] + (primingFile.map { [$0] } ?? []),
            what: "receipt-memory for \(backend) \(fixture.name)")
    }

    /// Runs `executable` and reads the numbers it prints (`before peak [anon file]`, KiB).
    private static func run(_ executable: URL, _ arguments: [String], what: String) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        let fields = output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard process.terminationStatus == 0, fields.count == 2 || fields.count == 4 else { throw BenchError("\(what) failed: \(output)") }
        return Result(
            before: fields[0], peak: fields[1], anonymous: fields.count == 4 ? fields[2] : nil,
            fileBacked: fields.count == 4 ? fields[3] : nil)
    }
}
