import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptConformance
import ReceiptKit

/// `receipt conformance`: run the conformance kit (every fixture of the manifest) on a backend.
struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run the conformance kit: every fixture of Fixtures/manifest.json on a crypto backend.",
        // Written out: ArgumentParser shows the single-valued options, parsed as lists
        // (SingleValuedOption), as repeatable. HelpTests holds it to the options the help lists.
        usage:
            "receipt conformance [--backend <name>] [--fixtures <dir>] [--failures-only]",
        discussion: """
            Prints one row per case (expected → actual outcome), counts per category, and the final \
            line `N passed, N failed`. Without --backend every backend compiled into this build is \
            run. The fixtures directory defaults to ./Fixtures, then to the Fixtures directory of the \
            source checkout this tool was built from.

            Exit status: 0 every case passed, 1 a case failed, 2 usage error (no fixtures found).

            Examples:
              receipt conformance
              receipt conformance --backend gnutls --failures-only
              receipt conformance --fixtures path/to/ReceiptKit/Fixtures
            """
    )

    @Option(name: .customLong("backend"), help: ArgumentHelp("The crypto backend (default: every one this build offers).", valueName: "name"))
    var backends: [BackendChoice] = []

    @Option(name: .customLong("fixtures"), help: ArgumentHelp("The fixtures directory holding manifest.json.", valueName: "dir"))
    var fixturesArguments: [String] = []

    @Flag(help: "List only the cases that failed.")
    var failuresOnly = false

    /// `--backend` (each of the two given at most once: ``validate()``).
    var backend: BackendChoice? { backends.first }
    /// `--fixtures`.
    var fixtures: String? { fixturesArguments.first }

    func validate() throws {
        _ = try SingleValuedOption.value(backends, "--backend")
        _ = try SingleValuedOption.value(fixturesArguments, "--fixtures")
        _ = try backend?.resolve()
    }

    func run() throws {
        let backends: [any CryptoBackend] = try backend.map { [try $0.resolve()] } ?? CryptoBackends.all
        let directory = try fixturesDirectory()
        let suite: ConformanceSuite
        do {
            suite = try ConformanceSuite(fixturesDirectory: directory)
        } catch {
            throw CommandFailure(status: .usage, message: "the manifest in \(directory.path) could not be read: \(error)")
        }
        var passed = 0
        var failed = 0
        for (index, backend) in backends.enumerated() {
            let report = suite.run(on: backend)
            if index > 0 { try StandardOutput.writeLine("") }
            try StandardOutput.writeLine(report.table(onlyFailures: failuresOnly))
            passed += report.passedCount
            failed += report.failed.count
        }
        if backends.count > 1 {
            try StandardOutput.writeLine("\(passed) passed, \(failed) failed")
        }
        if failed > 0 { throw ExitStatus.invalid.exitCode }
    }

    /// `--fixtures`, else `./Fixtures`, else the source checkout's `Fixtures`.
    private func fixturesDirectory() throws -> URL {
        let manager = FileManager.default
        if let fixtures {
            return URL(fileURLWithPath: fixtures, isDirectory: true)
        }
        let candidates = [
            URL(fileURLWithPath: manager.currentDirectoryPath).appendingPathComponent("Fixtures", isDirectory: true),
            // This file is Sources/receipt/Commands/ConformanceCommand.swift in the checkout.
            URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
                .appendingPathComponent("Fixtures", isDirectory: true),
        ]
        for candidate in candidates where manager.fileExists(atPath: candidate.appendingPathComponent("manifest.json").path) {
            return candidate
        }
        throw CommandFailure(
            status: .usage,
            message: "no Fixtures/manifest.json found in the current directory or the source checkout; pass --fixtures DIR"
        )
    }
}
