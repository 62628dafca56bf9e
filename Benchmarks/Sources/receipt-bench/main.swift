import CBaseline
import Foundation
import ReceiptKit

// receipt-bench: measures ReceiptKit against a C baseline in the same run and prints a table.
//
//   receipt-bench [--fixtures DIR] [--quick] [--memory-probe BACKEND=PATH-TO-receipt-memory …] [--cli [BACKEND=]PATH-TO-receipt … [--cli-only]]
//   receipt-bench [--fixtures DIR] --worst-only    (only the issue-27 lines: worst hostile inputs, CPU per validation)
//   receipt-bench [--fixtures DIR] [--quick] --jws-only    (only the issue-31 lines: JWS warm / cold against C)
//   receipt-bench --memory BACKEND FIXTURE-INDEX MODE    (child process: one validation, prints peak RSS)

let arguments = Array(CommandLine.arguments.dropFirst())

func argumentValue(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let fixturesDirectory: URL = {
    if let path = argumentValue("--fixtures") { return URL(fileURLWithPath: path) }
    // Benchmarks/Sources/receipt-bench/main.swift → ../../../Fixtures
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
}()

let backends: [any CryptoBackend] = [OpenSSLBackend(), GnuTLSBackend()]

do {
    let fixtures = try Fixture.load(fixtures: fixturesDirectory)
    if let index = arguments.firstIndex(of: "--memory") {
        guard index + 3 < arguments.count, let backend = CryptoBackends.named(arguments[index + 1]),
              let fixtureIndex = Int(arguments[index + 2]), fixtures.indices.contains(fixtureIndex)
        else { throw BenchError("usage: --memory BACKEND FIXTURE-INDEX MODE") }
        try MemoryProbe.runChild(backend: backend, fixture: fixtures[fixtureIndex], mode: arguments[index + 3])
        exit(0)
    }
    if let index = arguments.firstIndex(of: "--loop") {
        // Profiling aid: `--loop parse|validate|cold|c-verify|c-walk BACKEND FIXTURE-INDEX COUNT` repeats one
        // operation (c-verify: the C library's PKCS #7 verification; c-walk: the bare C DER walk).
        guard index + 4 < arguments.count, let backend = CryptoBackends.named(arguments[index + 2]),
              let fixtureIndex = Int(arguments[index + 3]), fixtures.indices.contains(fixtureIndex),
              let count = Int(arguments[index + 4])
        else { throw BenchError("usage: --loop parse|validate|cold BACKEND FIXTURE-INDEX COUNT") }
        guard bl_fix_malloc_thresholds() == 1 else { throw BenchError("mallopt refused the thresholds") }
        let fixture = fixtures[fixtureIndex]
        let validator = try ReceiptValidator(backend: backend, configuration: fixture.configuration(cache: true))
        switch arguments[index + 1] {
        case "c-verify":
            // The C baseline alone (instruction counts under callgrind): COUNT library verifications.
            let der = fixture.der
            let anchor = fixture.anchor.derBytes
            if backend.name == "openssl" {
                guard let context = bl_openssl_new(anchor, anchor.count, Int64(fixture.creationDate.timeIntervalSince1970)) else {
                    throw BenchError("OpenSSL baseline: cannot build the store")
                }
                defer { bl_openssl_free(context) }
                guard bl_openssl_run(context, der, der.count, count) == count else { throw BenchError("C verify failed") }
            } else {
                guard let context = bl_gnutls_new(anchor, anchor.count, fixture.usesSHA1 ? 1 : 0) else {
                    throw BenchError("GnuTLS baseline: cannot build the trust list")
                }
                defer { bl_gnutls_free(context) }
                guard bl_gnutls_run(context, der, der.count, count) == count else { throw BenchError("C verify failed") }
            }
            exit(0)
        case "c-walk":
            let payload = fixture.payload
            guard bl_der_walk_run(payload, payload.count, count) > 0 else { throw BenchError("C walk failed") }
            exit(0)
        default:
            break
        }
        for _ in 0..<count {
            switch arguments[index + 1] {
            case "parse": _ = try ReceiptParser.parse(fixture.payload)
            case "cold": validator.removeCachedChains(); _ = try validator.validate(fixture.der)
            default: _ = try validator.validate(fixture.der)
            }
        }
        exit(0)
    }
    // The issue-27 lines (WorstInputs): the hostile inputs built from the real 187-purchase receipt.
    func worstInputs() throws -> String {
        guard let fixture = fixtures.first(where: { $0.name == "real 187iap sha1" }) else { throw BenchError("no 187-purchase fixture") }
        return try WorstInputs(fixture: fixture, backends: backends).run()
    }
    if arguments.contains("--worst-only") {
        print(try worstInputs())
        exit(0)
    }
    // The issue-31 lines (JWSBenchmark): one real StoreKit 2 token, warm and cold, against C.
    func jwsLines() throws -> String {
        try JWSBenchmark(fixtures: fixturesDirectory, backends: backends).run()
    }
    let quick = arguments.contains("--quick")
    if quick {
        Measure.batchSeconds = 0.03
        Measure.batches = 2
        Measure.rounds = 3
        Measure.scalingRounds = 5
    }
    if arguments.contains("--jws-only") {
        guard bl_fix_malloc_thresholds() == 1 else { throw BenchError("mallopt refused the thresholds") }
        print(try jwsLines())
        exit(0)
    }
    // The end-to-end lines of the `receipt` tool (Scripts/bench.sh builds it and passes --cli).
    // `--cli BACKEND=PATH`: the tool built with that backend's trait alone (as a user builds it);
    // `--cli PATH`: one tool for every backend.
    var executables: [String: String] = [:]
    for (index, argument) in arguments.enumerated() where argument == "--cli" && index + 1 < arguments.count {
        let value = arguments[index + 1]
        let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2, backends.contains(where: { $0.name == parts[0] }) {
            executables[parts[0]] = parts[1]
        } else {
            executables[""] = value
        }
    }
    let cli = executables.isEmpty ? nil : CLIBenchmark(
        executables: executables, fixtures: fixtures, backends: backends, rounds: quick ? 3 : 7,
        copies: quick ? (2_000, 40, 400) : (20_000, 200, 2_000))
    if arguments.contains("--cli-only") {
        guard let cli else { throw BenchError("--cli-only needs --cli PATH") }
        guard bl_fix_malloc_thresholds() == 1 else { throw BenchError("mallopt refused the thresholds") }
        print(try cli.run())
        exit(0)
    }
    // One whole-process probe per backend, each built with that backend's trait alone.
    var probes: [String: String] = [:]
    for (index, argument) in arguments.enumerated() where argument == "--memory-probe" && index + 1 < arguments.count {
        let parts = arguments[index + 1].split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw BenchError("usage: --memory-probe BACKEND=PATH") }
        probes[parts[0]] = parts[1]
    }
    // Every timed measurement with the same allocator thresholds (see bl_fix_malloc_thresholds).
    guard bl_fix_malloc_thresholds() == 1 else { throw BenchError("mallopt refused the thresholds") }
    let report = try Benchmark(fixtures: fixtures, backends: backends, memoryProbes: probes).run()
    print(report + (try cli?.run() ?? "\nEnd to end: not measured (pass --cli PATH-TO-receipt; Scripts/bench.sh builds it).\n")
        + (try worstInputs()) + (try jwsLines()))
} catch {
    FileHandle.standardError.write(Data("receipt-bench: \(error)\n".utf8))
    exit(1)
}
