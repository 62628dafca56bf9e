import Foundation
import ReceiptKit

/// The end-to-end lines: the `receipt` tool over a directory of copies of one receipt, in each
/// output format, on one core and on two (the child pinned with `taskset`), output to a file,
/// against the C loop (`PKCS7_verify` / `gnutls_pkcs7_verify`) and the library's own warm
/// validation of the same receipt, measured in the same rounds. A third batch, many copies of the
/// real 187-purchase receipt in `--ndjson` only, measures the two-core speed-up of a run long
/// enough that the serial start (process start, listing, trust anchors: a few milliseconds) no
/// longer bounds it, against the host's own two-process ceiling in the same rounds.
struct CLIBenchmark {
    /// The `receipt` executable (release build) of each backend, by name: built with that
    /// backend's trait alone, as a user builds the tool; under "" one built with both, for any
    /// backend without its own.
    let executables: [String: String]
    let fixtures: [Fixture]
    let backends: [any CryptoBackend]
    /// Rounds of every line; each round runs every format and core count once, and the C loop.
    let rounds: Int
    /// Copies of the 1-purchase fixture and of the real 187-purchase receipt (every format), and
    /// of the real receipt again for the two-core scaling line (`--ndjson` only).
    let copies: (small: Int, large: Int, scaling: Int)

    private static let formats: [(name: String, flags: [String])] = [("ndjson", ["--ndjson"]), ("json", ["--json"]), ("text", [])]
    private static let coreSets: [(count: Int, list: String)] = [(1, "0"), (2, "0,1")]

    /// One measured line's rounds.
    private struct Line {
        var backend: String
        var batch: String
        var format: String
        var cores: Int
        /// Seconds per receipt, one a round.
        var seconds: [Double] = []
        /// Peak RSS of each run (KiB).
        var peaks: [Int] = []
    }

    func run() throws -> String {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("receipt-bench-cli-\(getpid())")
        defer { try? manager.removeItem(at: root) }
        // The scaling batch is named with its size: the 200-copy batch of the same receipt keeps
        // the fixture's name (and its keys in the C loop and library maps).
        let specifications = [
            ("iap1 sha256", "iap1 sha256", copies.small, true), ("real 187iap sha1", "real 187iap sha1", copies.large, true),
            ("real 187iap sha1", "real 187iap sha1, long run", copies.scaling, false),
        ]
        let batches = try specifications.map { fixtureName, name, count, everyFormat in
            guard let fixture = fixtures.first(where: { $0.name == fixtureName }) else { throw BenchError("no fixture \(fixtureName)") }
            let directory = root.appendingPathComponent(name.replacingOccurrences(of: ", ", with: "-").replacingOccurrences(of: " ", with: "-"))
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            let bytes = Data(fixture.der)
            for index in 0..<count {
                try bytes.write(to: directory.appendingPathComponent(String(format: "r%06d.receipt", index)))
            }
            // One copy alone: its run is the process start and the cold first receipt, which the
            // "beyond the first" lines subtract.
            let single = directory.appendingPathExtension("one")
            try manager.createDirectory(at: single, withIntermediateDirectories: true)
            try bytes.write(to: single.appendingPathComponent("r000000.receipt"))
            return (fixture: fixture, name: name, count: count, everyFormat: everyFormat, directory: directory.path, single: single.path)
        }
        let output = root.appendingPathComponent("out").path
        let secondOutput = root.appendingPathComponent("out-2").path

        var lines: [Line] = []
        var cLoop: [String: [Double]] = [:]     // "backend/batch" → C seconds per receipt, one a round (batches of every format)
        var library: [String: [Double]] = [:]   // "backend/batch" → warm validation seconds per receipt
        var starts: [String: [Double]] = [:]    // backend → `receipt --version` on one core, seconds, one a round
        var singles: [String: [Double]] = [:]   // "backend/batch/cores" → seconds of `--ndjson` on one copy, one a round
        var ceilings: [String: [Double]] = [:]  // "backend/batch" → the host's two-core ceiling, one a round
        for backend in backends {
            guard let executable = executables[backend.name] ?? executables[""] else {
                throw BenchError("no receipt executable for \(backend.name) (--cli \(backend.name)=PATH)")
            }
            for batch in batches {
                let key = "\(backend.name)/\(batch.name)"
                let formats = batch.everyFormat ? Self.formats : Self.formats.filter { $0.name == "ndjson" }
                let c = try CBaselineRunner(backend: backend.name, fixture: batch.fixture)
                let validator = try ReceiptValidator(backend: backend, configuration: batch.fixture.configuration(cache: true))
                let der = batch.fixture.der
                _ = try validator.validate(der)
                let warm: (Int) -> Void = { n in for _ in 0..<n { precondition((try? validator.validate(der)) != nil) } }
                var group: [Line] = []
                for format in formats {
                    for cores in Self.coreSets {
                        group.append(Line(backend: backend.name, batch: batch.name, format: format.name, cores: cores.count))
                    }
                }
                func arguments(_ format: [String], _ cores: String, directory: String? = nil) -> [String] {
                    ["taskset", "-c", cores, executable, "verify", "--backend", backend.name, "--root", batch.fixture.anchorFile.path]
                        + format + [directory ?? batch.directory]
                }
                // One run before the rounds: the files in the page cache, the executable loaded.
                _ = try CLIProcess.run(arguments(["--ndjson"], "0,1"), output: output)
                for _ in 0..<rounds {
                    if batch.everyFormat {
                        starts[backend.name, default: []].append(
                            try CLIProcess.run(["taskset", "-c", "0", executable, "--version"], output: output).seconds)
                        if let runner = c.runner { cLoop[key, default: []].append(Measure.perOperation(runner)) }
                        library[key, default: []].append(Measure.perOperation(warm))
                    }
                    var index = 0
                    for format in formats {
                        for cores in Self.coreSets {
                            let run = try CLIProcess.run(arguments(format.flags, cores.list), output: output)
                            guard run.status == 0 else {
                                throw BenchError("receipt verify \(format.name) on \(key) exited \(run.status)")
                            }
                            group[index].seconds.append(run.seconds / Double(batch.count))
                            group[index].peaks.append(run.peakKiB)
                            index += 1
                        }
                    }
                    for cores in Self.coreSets where batch.everyFormat {
                        let run = try CLIProcess.run(arguments(["--ndjson"], cores.list, directory: batch.single), output: output)
                        singles["\(key)/\(cores.count)", default: []].append(run.seconds)
                    }
                    // The host's ceiling in this round: the one-core `--ndjson` run twice at once,
                    // one copy on each core. The two processes share nothing, so whatever keeps
                    // them from finishing in the time of one is the machine's, not the tool's.
                    let pair = try CLIProcess.runTogether([(arguments(["--ndjson"], "0"), output), (arguments(["--ndjson"], "1"), secondOutput)])
                    guard pair.allSatisfy({ $0.status == 0 }) else { throw BenchError("receipt verify ndjson pair on \(key) failed") }
                    let alone = (group.first { $0.format == "ndjson" && $0.cores == 1 }?.seconds.last).map { $0 * Double(batch.count) } ?? .nan
                    ceilings[key, default: []].append(2 * alone / (pair.map(\.seconds).max() ?? .nan))
                }
                lines += group
            }
        }
        return render(
            lines, cLoop: cLoop, library: library, starts: starts, singles: singles, ceilings: ceilings,
            batches: batches.map { ($0.name, $0.count) })
    }

    // MARK: Rendering

    private func render(
        _ lines: [Line], cLoop: [String: [Double]], library: [String: [Double]], starts: [String: [Double]], singles: [String: [Double]],
        ceilings: [String: [Double]], batches: [(String, Int)]
    ) -> String {
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return .nan }
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        /// Median and range of `values`.
        func spread(_ values: [Double]) -> (median: Double, low: Double, high: Double) {
            (median(values), values.min() ?? .nan, values.max() ?? .nan)
        }
        /// Median and range of the per-round ratios `a[r] / b[r]`.
        func ratios(_ a: [Double], _ b: [Double]) -> (median: Double, low: Double, high: Double) {
            spread(zip(a, b).map { $0 / $1 })
        }
        func describe(_ value: (median: Double, low: Double, high: Double), _ unit: String) -> String {
            String(format: "%.2f×%@ (%.2f–%.2f)", value.median, unit.isEmpty ? "" : " " + unit, value.low, value.high)
        }
        func line(_ backend: String, _ batch: String, _ format: String, _ cores: Int) -> Line? {
            lines.first { $0.backend == backend && $0.batch == batch && $0.format == format && $0.cores == cores }
        }

        var out = "\nEnd to end: `receipt verify DIR` over copies of one receipt ("
        out += batches.map { "\($1) × \($0)" }.joined(separator: ", ")
        out += "), output to a file, the child pinned to one core or two with taskset; \(rounds) rounds, each running every line once "
        out += "and the C loop and the library's warm validation on the same receipt (one core). µs/receipt = median of the rounds' "
        out += "wall time / files; ratios = median of the per-round ratios (range in brackets); peak RSS = the child's largest. "
        out += "Each backend's tool is built with that backend's trait alone when the bench is given one (Scripts/bench.sh does), as a user builds it. "
        out += "Process start (`receipt --version`, one core, median of the rounds): "
        out += starts.keys.sorted().map { String(format: "%@ %.1f ms", $0, median(starts[$0] ?? []) * 1e3) }.joined(separator: ", ")
        out += "; included in every line but `ndjson beyond the 1st`: that one is (the batch's time − the time of one copy alone) / (files − 1), "
        out += "the cost of each further receipt without the process start and the cold first receipt. "
        out += "Host ceiling = 2 × the one-core `--ndjson` run / the slower of two such runs started together, one pinned to each core: "
        out += "the two-core speed-up the machine gives two processes that share nothing, in the same round.\n"
        var table: [[String]] = []
        for entry in lines {
            let key = "\(entry.backend)/\(entry.batch)"
            let perReceipt = median(entry.seconds)
            var comparison: [String] = []
            if let c = cLoop[key] { comparison.append(describe(ratios(c, entry.seconds), "C loop throughput")) }
            if let warm = library[key] { comparison.append(describe(ratios(entry.seconds, warm), "library warm time")) }
            if entry.cores > 1, let one = line(entry.backend, entry.batch, entry.format, 1) {
                comparison.append(describe(ratios(one.seconds, entry.seconds), "one core"))
                if entry.format == "ndjson", let ceiling = ceilings[key] {
                    comparison.append(describe(spread(ceiling), "host ceiling"))
                }
            }
            table.append([
                entry.backend, entry.batch, entry.format, "\(entry.cores)", String(format: "%.1f", perReceipt * 1e6),
                String(format: "%.0f", 1 / perReceipt), "\((entry.peaks.max() ?? 0) / 1024) MB", comparison.joined(separator: "; "),
            ])
        }
        // Beyond the first: each round's batch time minus its one-copy run (process start and the
        // cold first receipt), over the other files: what each further receipt costs.
        var beyond: [String: [Double]] = [:]  // "backend/batch/cores" → seconds per further receipt, one a round
        for entry in lines where entry.format == "ndjson" {
            let key = "\(entry.backend)/\(entry.batch)"
            guard let first = singles["\(key)/\(entry.cores)"], let files = batches.first(where: { $0.0 == entry.batch })?.1, files > 1 else { continue }
            let values = zip(entry.seconds, first).map { ($0 * Double(files) - $1) / Double(files - 1) }
            beyond["\(key)/\(entry.cores)"] = values
            var comparison: [String] = []
            if let warm = library[key] { comparison.append(describe(ratios(values, warm), "library warm time")) }
            if entry.cores > 1, let one = beyond["\(key)/1"] { comparison.append(describe(ratios(one, values), "one core")) }
            table.append([
                entry.backend, entry.batch, "ndjson beyond the 1st", "\(entry.cores)", String(format: "%.1f", median(values) * 1e6),
                String(format: "%.0f", 1 / median(values)), "—", comparison.joined(separator: "; "),
            ])
        }
        for key in cLoop.keys.sorted() {
            let parts = key.split(separator: "/").map(String.init)
            if let c = cLoop[key] {
                table.append([parts[0], parts[1], "C loop", "1", String(format: "%.1f", median(c) * 1e6), String(format: "%.0f", 1 / median(c)), "—", "reference"])
            }
        }
        out += Table.format(header: ["backend", "batch", "format", "cores", "µs/receipt", "receipts/s", "peak RSS", "comparison"], rows: table, numeric: 4...5)

        out += "\nEnd-to-end targets:\n"
        func target(_ ok: Bool, _ text: String, _ value: String) {
            out += "  [\(ok ? "PASS" : "FAIL")] \(text): \(value)\n"
        }
        let small = batches[0].0
        let large = batches[1].0
        for backend in backends.map(\.name) {
            let key = "\(backend)/\(small)"
            guard let ndjson = line(backend, small, "ndjson", 1), let json = line(backend, small, "json", 1),
                  let text = line(backend, small, "text", 1) else { continue }
            if let c = cLoop[key] {
                let value = ratios(c, ndjson.seconds)
                target(value.median >= 10, "\(backend): --ndjson, \(small), one core ≥ 10× the C loop", describe(value, ""))
                let textValue = ratios(c, text.seconds)
                target(textValue.median >= 5, "\(backend): text, \(small), one core ≥ 5× the C loop", describe(textValue, ""))
            }
            let jsonValue = ratios(json.seconds, ndjson.seconds)
            target(jsonValue.median <= 1.10, "\(backend): --json within 10 % of --ndjson (time ratio)", describe(jsonValue, ""))
            if let big = line(backend, large, "ndjson", 1), let warm = library["\(backend)/\(large)"] {
                let value = ratios(big.seconds, warm)
                target(value.median <= 2, "\(backend): --ndjson, \(large), one core ≤ 2× the library's warm validation", describe(value, ""))
            }
            for batch in [small, large] {
                if let one = line(backend, batch, "ndjson", 1), let two = line(backend, batch, "ndjson", 2) {
                    let value = ratios(one.seconds, two.seconds)
                    if batch == small {
                        target(value.median >= 1.8, "\(backend): --ndjson, \(batch), two cores ≥ 1.8× one core", describe(value, ""))
                    } else {
                        // Issue 16's last line. Issue 30 (item 6) restated it as the 2,000-copy line
                        // below: a 60 ms run is bound by its serial start, so this one is reported only.
                        out += "  [INFO] \(backend): --ndjson, \(batch), two cores vs one core (restated below as "
                        out += "\(batches[2].1) copies): \(describe(value, ""))\n"
                    }
                    // What the machine gave in the same rounds: two one-core runs at once, one per
                    // core. That is what a two-core line can hope for; its share of it is the tool's.
                    if let ceiling = ceilings["\(backend)/\(batch)"] {
                        let speedups = zip(one.seconds, two.seconds).map { $0 / $1 }
                        out += "  [INFO] \(backend): --ndjson, \(batch), the host's two-core ceiling (two one-core runs at once): "
                        out += describe(spread(ceiling), "")
                        out += "; two cores / ceiling, per round: " + describe(ratios(speedups, ceiling), "") + "\n"
                    }
                }
            }
            // Issue 16's last line, restated in issue 30: a run long enough that the serial start
            // does not bound it, two cores ≥ 1.8× one core — or, on a host that cannot give two
            // processes that share nothing 1.8× (a shared or throttled machine), ≥ 0.9× of what it
            // gave them in the same rounds (two cores / ceiling, per round).
            let long = batches[2]
            if let one = line(backend, long.0, "ndjson", 1), let two = line(backend, long.0, "ndjson", 2),
               let ceiling = ceilings["\(backend)/\(long.0)"] {
                let speedup = ratios(one.seconds, two.seconds)
                let share = ratios(zip(one.seconds, two.seconds).map { $0 / $1 }, ceiling)
                target(
                    speedup.median >= 1.8 || share.median >= 0.9,
                    "\(backend): --ndjson, \(long.1) copies of the real 187-purchase receipt, two cores ≥ 1.8× one core or ≥ 0.9× the host's ceiling",
                    "\(describe(speedup, "one core")); \(describe(share, "the ceiling")) (ceiling \(describe(spread(ceiling), "")))")
            }
            // Not targets of the issue: the same two lines without the process start and the cold
            // first receipt, which a batch of 200 pays once (see "beyond the 1st" above).
            if let one = beyond["\(backend)/\(large)/1"], let warm = library["\(backend)/\(large)"] {
                out += "  [INFO] \(backend): --ndjson, \(large), beyond the first receipt, one core vs the library's warm validation: "
                out += describe(ratios(one, warm), "") + "\n"
                if let two = beyond["\(backend)/\(large)/2"] {
                    out += "  [INFO] \(backend): --ndjson, \(large), beyond the first receipt, two cores vs one: \(describe(ratios(one, two), ""))\n"
                }
            }
            for format in Self.formats.map(\.name) {
                for cores in [1, 2] {
                    if let entry = line(backend, small, format, cores), let peak = entry.peaks.max() {
                        target(peak <= 64 * 1024, "\(backend): \(format), \(cores) core(s), \(batches[0].1) files, peak RSS ≤ 64 MB", "\(peak / 1024) MB")
                    }
                }
            }
        }
        return out
    }
}
