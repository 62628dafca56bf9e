import CBaseline
import Foundation
import ReceiptKit

/// Runs every measurement and renders the table and the target checks.
struct Benchmark {
    let fixtures: [Fixture]
    let backends: [any CryptoBackend]
    /// The standalone `receipt-memory` executables by backend name, each built with that backend
    /// alone (Scripts/bench.sh builds them).
    var memoryProbes: [String: String] = [:]
    let cores = 2

    private struct Row {
        var backend: String
        var fixture: String
        var size: Int
        var what: String
        var secondsPerOp: Double?
        var opsPerSecond: Double?
        var comparison: String
    }

    /// Figures the target checks need, per backend and fixture.
    private struct Key: Hashable {
        var backend: String
        var fixture: String
        var what: String
    }

    func run() throws -> String {
        var rows: [Row] = []
        var figures: [Key: Double] = [:]  // seconds per op (or ops/s for "*2cores")
        var memory: [(backend: String, fixture: Fixture, result: MemoryProbe.Result)] = []

        // The bare C DER walk and parse only are measured with each backend's group below (same
        // moments as the figures they are compared with); the table shows the last ones.
        var walkTime: [String: Double] = [:]
        for fixture in fixtures {
            guard bl_der_walk(fixture.payload, fixture.payload.count) > 0 else {
                throw BenchError("\(fixture.name): the C DER walk rejects the payload")
            }
            _ = try ReceiptParser.parse(fixture.payload)
        }

        for backend in backends {
            for (index, fixture) in fixtures.enumerated() {
                let name = fixture.name
                let size = fixture.der.count
                func add(_ what: String, _ seconds: Double?, _ comparison: String = "") {
                    rows.append(Row(
                        backend: backend.name, fixture: name, size: size, what: what, secondsPerOp: seconds,
                        opsPerSecond: seconds.map { 1 / $0 }, comparison: comparison))
                    if let seconds { figures[Key(backend: backend.name, fixture: name, what: what)] = seconds }
                }

                // Everything on one core is measured in one interleaved group (see Measure.interleaved):
                // the C baseline (the library's own PKCS #7 verification), the bare C DER walk, the
                // adapter's full verification, parse only, and full validation with the cache off,
                // cold and warm.
                let der = fixture.der
                let payload = fixture.payload
                let store = try backend.makeTrustStore(anchors: [fixture.anchor])
                _ = try backend.verifySignedData(der, trustStore: store)
                let uncached = try ReceiptValidator(backend: backend, configuration: fixture.configuration(cache: false))
                let cached = try ReceiptValidator(backend: backend, configuration: fixture.configuration(cache: true))
                let coldValidator = try ReceiptValidator(backend: backend, configuration: fixture.configuration(cache: true))
                _ = try uncached.validate(der)
                _ = try cached.validate(der)
                let walkCount = bl_der_walk(payload, payload.count)
                let c = try CBaselineRunner(backend: backend.name, fixture: fixture)
                var bodies: [(Int) -> Void] = [
                    { n in precondition(bl_der_walk_run(payload, payload.count, n) == walkCount) },
                    { n in for _ in 0..<n { precondition((try? backend.verifySignedData(der, trustStore: store)) != nil) } },
                    { n in for _ in 0..<n { precondition((try? ReceiptParser.parse(payload)) != nil) } },
                    { n in for _ in 0..<n { precondition((try? uncached.validate(der)) != nil) } },
                    { n in
                        for _ in 0..<n {
                            coldValidator.removeCachedChains()
                            precondition((try? coldValidator.validate(der)) != nil)
                        }
                    },
                    { n in for _ in 0..<n { precondition((try? cached.validate(der)) != nil) } },
                ]
                if let runner = c.runner { bodies.insert(runner, at: 0) }
                var roundsOfGroup = Measure.interleaved(bodies)
                let cRounds = c.runner == nil ? nil : roundsOfGroup.removeFirst()
                let (walkRounds, verifyRounds, parseRounds, offRounds, coldRounds, warmRounds) = (
                    roundsOfGroup[0], roundsOfGroup[1], roundsOfGroup[2], roundsOfGroup[3], roundsOfGroup[4], roundsOfGroup[5]
                )
                let walk = Measure.fastest(walkRounds)
                walkTime[name] = walk
                let baseline = cRounds.map { (single: Measure.fastest($0), rounds: $0) }
                let missing = c.missing

                add("C: library PKCS7 verify", baseline?.single, baseline == nil ? "n/a: \(missing)" : "= 1.00 (reference)")
                add("C: bare DER walk of payload", walk, baseline.map { "\(percent(walk / $0.single)) of C verify" } ?? "")

                /// The median per-round ratio to the C baseline (also kept for the target checks).
                func versusC(_ what: String, _ rounds: [Double]) -> String {
                    guard let baseline else { return "" }
                    let ratio = Measure.medianRatio(rounds, baseline.rounds)  // time / C time
                    figures[Key(backend: backend.name, fixture: name, what: "ratio " + what)] = ratio
                    return ratio <= 1 ? String(format: "%.2f× faster than C verify", 1 / ratio) : String(format: "%.2f× C verify time", ratio)
                }

                add("verify only (adapter, full path)", Measure.fastest(verifyRounds), versusC("verify", verifyRounds))
                add("parse only (ReceiptParser)", Measure.fastest(parseRounds),
                    String(format: "%.2f× C DER walk time", Measure.medianRatio(parseRounds, walkRounds)))
                add("full, cache off", Measure.fastest(offRounds), versusC("off", offRounds))
                add("full, cold cache (1st of chain)", Measure.fastest(coldRounds), versusC("cold", coldRounds))
                add("full, warm cache", Measure.fastest(warmRounds), versusC("warm", warmRounds))
                if let baseline {
                    // Full validation against the C library's verification plus a bare walk of the payload.
                    let references = zip(baseline.rounds, walkRounds).map { $0 + $1 }
                    for (offset, what, rounds) in [(1, "warm", warmRounds), (3, "off", offRounds), (2, "cold", coldRounds)] {
                        let ratio = Measure.medianRatio(rounds, references)
                        figures[Key(backend: backend.name, fixture: name, what: "ratio+walk " + what)] = ratio
                        if walk / baseline.single >= 0.005 {
                            rows[rows.count - offset].comparison += String(format: "; %.2f× (C verify + walk) time", ratio)
                        }
                    }
                }

                // Two cores: one thread and two threads in alternating rounds, for the warm cache
                // and for the C baseline.
                let validator = cached
                let scaling = Measure.scaling(threads: cores) { n in
                    for _ in 0..<n { precondition((try? validator.validate(der)) != nil) }
                }
                figures[Key(backend: backend.name, fixture: name, what: "scaling")] = scaling.median
                rows.append(Row(
                    backend: backend.name, fixture: name, size: size, what: "full, warm cache, \(cores) cores",
                    secondsPerOp: nil, opsPerSecond: scaling.all,
                    comparison: String(format: "%.2f× one core (%.2f–%.2f; %.0f ops/s alongside)", scaling.median, scaling.low, scaling.high, scaling.one)))
                if let runner = c.sendableRunner {
                    let cScaling = Measure.scaling(threads: cores, runner)
                    rows.append(Row(
                        backend: backend.name, fixture: name, size: size, what: "C: library PKCS7 verify, \(cores) cores",
                        secondsPerOp: nil, opsPerSecond: cScaling.all,
                        comparison: String(format: "%.2f× one core (%.2f–%.2f)", cScaling.median, cScaling.low, cScaling.high)))
                }

                // Peak memory (child process, cold cache, from the file).
                let probe = try MemoryProbe.measure(backend: backend.name, fixtureIndex: index, mode: "cold", file: fixture.file.path)
                memory.append((backend.name, fixture, probe))
            }
        }
        var standalone: [(backend: String, fixture: Fixture, mode: String, result: MemoryProbe.Result)] = []
        let priming = fixtures.first { $0.name == "iap50 sha256" }
        for backend in backends.map(\.name) {
            guard let probe = memoryProbes[backend] else { continue }
            for fixture in fixtures where ["iap1 sha256", "iap5000 sha256"].contains(fixture.name) {
                for mode in ["cold", "warm", "primed"] {
                    guard mode != "primed" || priming != nil else { continue }
                    let result = try MemoryProbe.standalone(
                        probe: probe, backend: backend, fixture: fixture, mode: mode, anchorFile: fixture.anchorFile.path,
                        primingFile: mode == "primed" ? priming?.file.path : nil)
                    standalone.append((backend, fixture, mode, result))
                }
            }
        }
        return render(rows: rows, figures: figures, memory: memory, walkTime: walkTime)
            + renderStandalone(standalone)
    }

    /// The whole-process table and targets of the standalone probes.
    private func renderStandalone(_ entries: [(backend: String, fixture: Fixture, mode: String, result: MemoryProbe.Result)]) -> String {
        guard !entries.isEmpty else {
            return "\nWhole-process peak: not measured (pass --memory-probe BACKEND=PATH; Scripts/bench.sh builds receipt-memory per backend).\n"
        }
        var out = "\nWhole-process peak memory (receipt-memory: a process built with one backend's trait, static Swift runtime, FoundationEssentials, nothing else held).\n"
        out += "cold: fresh process, one validation; warm: the same file again, cache warm; primed: a process that already validated another receipt (iap50), then a new validator (cold cache) validates this one.\n"
        out += "anon / file: resident memory after the validation that is anonymous (heap, stacks) / file-backed (code and read-only data of the binary and shared libraries: clean, shared pages).\n"
        var table: [[String]] = []
        for entry in entries {
            let limit = 4 * entry.fixture.der.count / 1024 + 10 * 1024
            table.append([
                entry.backend, entry.fixture.name, bytes(entry.fixture.der.count), entry.mode,
                "\(entry.result.before) KiB", "\(entry.result.peak) KiB", "\(entry.result.added) KiB",
                entry.result.anonymous.map { "\($0) KiB" } ?? "—", entry.result.fileBacked.map { "\($0) KiB" } ?? "—",
                "\(limit) KiB",
            ])
        }
        out += format(
            header: ["backend", "fixture", "size", "mode", "RSS at start / before", "peak (VmHWM)", "peak − before", "anon after", "file after", "4×size+10MB"],
            rows: table)
        out += "\nMemory targets (whole process):\n"
        for backend in Set(entries.map(\.backend)).sorted() {
            for entry in entries where entry.backend == backend && entry.fixture.name.contains("iap5000") {
                let limit = 4 * entry.fixture.der.count / 1024 + 10 * 1024
                let own = 4 * entry.fixture.der.count / 1024
                switch entry.mode {
                case "cold":
                    out += line(entry.result.peak <= limit, "\(backend): 5000 purchases, fresh process, whole-process peak ≤ 4×size+10MB (\(limit) KiB)", "\(entry.result.peak) KiB")
                default:
                    out += line(entry.result.added <= own, "\(backend): 5000 purchases, \(entry.mode), peak above the RSS before that validation ≤ 4×size (\(own) KiB)", "\(entry.result.added) KiB")
                }
            }
        }
        return out
    }

    // MARK: Rendering

    private func render(
        rows: [Row], figures: [Key: Double], memory: [(backend: String, fixture: Fixture, result: MemoryProbe.Result)],
        walkTime: [String: Double]
    ) -> String {
        var out = "ReceiptKit benchmarks — \(cores) cores, \(ProcessInfo.processInfo.operatingSystemVersionString)\n"
        out += "µs/op = fastest of \(Measure.rounds) rounds of ~\(Int(Measure.batchSeconds * 1000)) ms, every measurement of a fixture alternating with the others (C baseline included); ratios = median over the rounds of the ratio within each round (two cores: median of \(Measure.scalingRounds) rounds, range in brackets); "
        out += "C baseline measured in the same run on the same files.\n\n"
        let header = ["backend", "fixture", "size", "measurement", "µs/op", "ops/s", "MB/s", "vs C baseline"]
        var table: [[String]] = []
        for row in rows {
            let mbps = row.opsPerSecond.map { String(format: "%.1f", $0 * Double(row.size) / 1e6) } ?? "—"
            table.append([
                row.backend, row.fixture, bytes(row.size), row.what,
                row.secondsPerOp.map { String(format: "%.1f", $0 * 1e6) } ?? "—",
                row.opsPerSecond.map { String(format: "%.0f", $0) } ?? "—",
                mbps, row.comparison,
            ])
        }
        out += format(header: header, rows: table)

        out += "\nPeak memory (child process, one validation from the file, cold cache):\n"
        var memoryTable: [[String]] = []
        for entry in memory {
            let limit = 4 * entry.fixture.der.count / 1024 + 10 * 1024
            memoryTable.append([
                entry.backend, entry.fixture.name, bytes(entry.fixture.der.count),
                "\(entry.result.before) KiB", "\(entry.result.peak) KiB", "\(entry.result.added) KiB", "\(limit) KiB",
            ])
        }
        out += format(header: ["backend", "fixture", "size", "RSS before", "peak (VmHWM)", "added", "4×size+10MB"], rows: memoryTable)

        out += "\nTargets:\n"
        for backend in backends.map(\.name) {
            func figure(_ fixture: String, _ what: String) -> Double? { figures[Key(backend: backend, fixture: fixture, what: what)] }
            if let ratio = figure("iap1 sha256", "ratio warm") {
                out += line(1 / ratio >= 10, "\(backend): 1 purchase, full validation, warm cache ≥ 10× C throughput", String(format: "%.1f×", 1 / ratio))
            }
            for mode in ["warm", "off", "cold"] {
                if let ratio = figure("iap5000 sha256", "ratio+walk " + mode) {
                    out += line(ratio <= 1.5, "\(backend): 5000 purchases, full, cache \(mode) ≤ 1.5× (C verify + DER walk)", String(format: "%.2f×", ratio))
                }
            }
            for fixture in fixtures {
                if let ratio = figure(fixture.name, "ratio+walk cold") {
                    out += line(ratio <= 1.2, "\(backend): \(fixture.name), cold cache ≤ 1.2× (C verify + DER walk)", String(format: "%.2f×", ratio))
                }
            }
            for fixture in ["iap1 sha256", "iap5000 sha256"] {
                if let scaling = figure(fixture, "scaling") {
                    out += line(scaling >= 1.8, "\(backend): \(fixture), warm, \(cores) cores ≥ 1.8× one core", String(format: "%.2f×", scaling))
                }
            }
            for entry in memory where entry.backend == backend && entry.fixture.name.contains("iap5000") {
                let limit = 4 * entry.fixture.der.count / 1024 + 10 * 1024
                out += line(entry.result.added <= limit, "\(backend): 5000 purchases, memory added by one validation ≤ 4×size+10MB (\(limit) KiB)", "\(entry.result.added) KiB")
                // Not a target: this child is the benchmark itself (every fixture, both backends);
                // the whole-process target is checked on receipt-memory, below.
                out += "  [info] \(backend): 5000 purchases, peak of the benchmark's child (holds every fixture and both backends; the whole-process target is receipt-memory's, below): \(entry.result.peak) KiB\n"
            }
        }
        return out
    }

    private func line(_ ok: Bool, _ text: String, _ value: String) -> String {
        "  [\(ok ? "PASS" : "FAIL")] \(text): \(value)\n"
    }

    private func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

    private func bytes(_ count: Int) -> String {
        count >= 1_000_000 ? String(format: "%.2f MB", Double(count) / 1e6) : String(format: "%.1f KB", Double(count) / 1e3)
    }

    private func format(header: [String], rows: [[String]]) -> String {
        Table.format(header: header, rows: rows, numeric: 4...6)
    }
}

/// Hands a C context pointer to worker threads (each C call only reads the shared store).
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
