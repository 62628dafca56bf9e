import Foundation
import FuzzSupport
import ReceiptKit

/// Soak, leak and concurrency-stress runs over the mixed fixture workload (Scripts/leak-check.sh).
///
///     ReceiptSoak leak   [--iterations N] [--sample-every N] [--backend NAME]...
///     ReceiptSoak stress [--tasks N] [--iterations N] [--backend NAME]...
///     ReceiptSoak compare DIRECTORY...
///     ReceiptSoak unsigned-edits [--seconds N] [--seed S] [--cpu-bound-ms MS] [--executions N] [--save DIR]
///
/// `leak` runs N validations per backend in this process on one shared validator, cycling through
/// real receipts, generated valid receipts and the hostile corpus, and prints VmRSS every
/// `--sample-every` validations; built with AddressSanitizer, LeakSanitizer reports any leak at exit.
/// `stress` validates every input once sequentially, then runs `--tasks` tasks × `--iterations`
/// validations concurrently on the same validator and checks every result equals the sequential one.
/// `compare` validates every file of the given directories on both backends, cold (no verified-chain
/// cache) and warm (a cache just warmed by one genuine receipt, a different one per input in turn),
/// and lists every input whose report differs between the backends or between cold and warm.
/// `unsigned-edits` does the same check on random combinations of hostile edits of the unsigned
/// parts of every genuine receipt (``UnsignedEdits``) for `--seconds` (60), and also fails on any
/// validation over `--cpu-bound-ms` (50) of thread CPU time.
/// Exit status 0 when everything held, 1 on a mismatch, an invariant violation or non-flat memory.
/// Writes one line to standard output unbuffered, so progress shows as it happens through a pipe.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

@main
struct ReceiptSoak {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let mode = arguments.first else { usage() }
        arguments.removeFirst()
        if mode == "compare" {
            exit(compare(directories: arguments) ? 0 : 1)
        }
        if mode == "unsigned-edits" {
            exit(unsignedEdits(arguments: arguments) ? 0 : 1)
        }
        var options = Options()
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard index + 1 < arguments.count else { usage() }
            let value = arguments[index + 1]
            let number = Int(value).flatMap { $0 > 0 ? $0 : nil }
            switch (name, number) {
            case ("--iterations", let number?): options.iterations = number
            case ("--sample-every", let number?): options.sampleEvery = number
            case ("--tasks", let number?): options.tasks = number
            case ("--backend", _): options.backends.append(value)
            default: usage()
            }
            index += 2
        }
        if options.backends.isEmpty { options.backends = ["openssl", "gnutls"] }

        let workload = FuzzFixtures.mixedWorkload()
        guard workload.count > 20 else {
            say("ReceiptSoak: the fixture workload is missing (\(workload.count) inputs)")
            exit(2)
        }
        var failed = false
        for backend in options.backends {
            let validator = FuzzValidators.require(backend: backend)
            switch mode {
            case "leak": failed = !leak(validator, workload, options) || failed
            case "stress": failed = await !stress(validator, workload, options) || failed
            default: usage()
            }
        }
        exit(failed ? 1 : 0)
    }

    // MARK: compare

    /// Validates every file in `directories` (e.g. the fuzz corpora of the validator targets) on
    /// both backends, cold and warm (``Differential``), and lists the inputs whose outcome differs:
    /// between the backends (valid, or the error code, and the receipt), or between a backend's cold
    /// report and its report right after one genuine receipt (real or generated, each in turn)
    /// warmed its cache.
    static func compare(directories: [String]) -> Bool {
        guard !directories.isEmpty else { usage() }
        let differential = Differential()
        let genuine = differential.genuine
        var total = 0
        var differing: [String: Int] = [:]
        for directory in directories {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
            for name in names {
                guard let bytes = FuzzFixtures.read("\(directory)/\(name)") else { continue }
                let path = "\(directory)/\(name)"
                let outcome = differential.check(bytes) { index in
                    genuine[index].isEmpty ? nil : genuine[index][total % genuine[index].count]
                }
                total += 1
                for (key, detail) in outcome.differences {
                    if differing[key] == nil {
                        say("  \(path): \(key)")
                        say("    \(detail)")
                    }
                    differing[key, default: 0] += 1
                }
            }
        }
        let count = differing.values.reduce(0, +)
        say("== compare: \(total) inputs, each cold and warm on OpenSSL and GnuTLS (\(genuine[0].count)/\(genuine[1].count) genuine warmers): \(count) differences")
        for (key, number) in differing.sorted(by: { $0.key < $1.key }) { say("  \(number) × \(key)") }
        return count == 0 && total > 0
    }

    // MARK: unsigned-edits

    /// Random combinations of ``UnsignedEdits`` on the genuine receipts (every real and generated
    /// receipt valid on both backends: real ones verified with the embedded Apple root, generated
    /// ones with the test root, at their creation date), each edited input checked like `compare`
    /// does (both backends, cold and warm) and timed: a difference, or one validation over
    /// `--cpu-bound-ms` of thread CPU time, fails the run. Seeded: the same `--seed` gives the
    /// same inputs in the same order (`--executions` stops after that many); `--save DIR` writes each
    /// failing input and its edit description there.
    static func unsignedEdits(arguments: [String]) -> Bool {
        var seconds = 60.0
        var seed = UInt64(Date().timeIntervalSince1970 * 1000)
        var boundMilliseconds = 50.0
        var executionLimit = Int.max
        var saveDirectory: String?
        var index = 0
        while index + 1 < arguments.count {
            let value = arguments[index + 1]
            switch arguments[index] {
            case "--seconds": seconds = Double(value) ?? seconds
            case "--seed": seed = UInt64(value) ?? seed
            case "--cpu-bound-ms": boundMilliseconds = Double(value) ?? boundMilliseconds
            case "--executions": executionLimit = Int(value) ?? executionLimit
            case "--save": saveDirectory = value
            default: usage()
            }
            index += 2
        }
        guard index == arguments.count else { usage() }
        let differential = Differential()
        let genuine = differential.genuine
        let bases = genuine[0].filter { base in
            differential.cold.allSatisfy { $0.report(for: base.bytes).isValid }
        }
        let pool = (FuzzFixtures.files(in: "real/certs") + FuzzFixtures.files(in: "generated/pki"))
            .filter { $0.name.hasSuffix(".cer") }.map(\.bytes)
        guard !bases.isEmpty, !pool.isEmpty else {
            say("ReceiptSoak: no genuine receipt valid on both backends, or no certificate pool")
            exit(2)
        }
        say("== unsigned-edits: seed \(seed), \(Int(seconds)) s, \(bases.count) genuine receipts valid on both backends, CPU bound \(boundMilliseconds) ms per validation")
        let started = Date()
        var lastProgress = started
        var executions = 0
        var failing = 0
        var differences = 0
        var overBound = 0
        var unsupported = 0
        var maximumCPU = [Double](repeating: 0, count: Differential.backends.count)
        var slowest = [String](repeating: "", count: Differential.backends.count)
        var verdicts: [String: Int] = [:]
        while executions < executionLimit, Date().timeIntervalSince(started) < seconds {
            var generator = SeededGenerator(seed: seed &+ UInt64(executions) &* 0xD1B5_4A32_D192_ED03)
            let execution = executions
            executions += 1
            let base = bases.randomElement(using: &generator)!
            let edits = UnsignedEdits.random(using: &generator, baseSize: base.bytes.count)
            let bytes: [UInt8]
            do {
                bytes = try edits.apply(to: base.bytes, certificatePool: pool)
            } catch {
                unsupported += 1
                continue
            }
            // Warm with the base itself (its chain is the one cached) or, every other input, with
            // another genuine receipt in turn.
            let outcome = differential.check(bytes) { index in
                if execution % 2 == 0, genuine[index].contains(where: { $0.name == base.name }) { return base }
                return genuine[index].isEmpty ? nil : genuine[index][execution % genuine[index].count]
            }
            let description = "#\(execution) \(base.name) (\(bytes.count) bytes): \(edits)"
            var slow: [String] = []
            for (index, run) in outcome.runs.enumerated() {
                if run.maximumCPU > maximumCPU[index] {
                    maximumCPU[index] = run.maximumCPU
                    slowest[index] = description
                }
                if run.maximumCPU * 1000 > boundMilliseconds {
                    slow.append(String(format: "%@ took %.1f ms of CPU (bound %.0f ms)", run.backend, run.maximumCPU * 1000, boundMilliseconds))
                }
            }
            let verdict = outcome.runs[0].cold.isValid ? "valid" : outcome.runs[0].cold.error?.code.rawValue ?? "?"
            verdicts[verdict, default: 0] += 1
            differences += outcome.differences.count
            overBound += slow.count
            if !outcome.differences.isEmpty || !slow.isEmpty {
                failing += 1
                if let saveDirectory {
                    let path = "\(saveDirectory)/unsigned-edit-\(seed)-\(execution)"
                    _ = FileManager.default.createFile(atPath: path + ".der", contents: Data(bytes))
                    _ = FileManager.default.createFile(atPath: path + ".txt", contents: Data((description + "\n").utf8))
                }
                if failing <= 10 {
                    say("  FAIL \(description)")
                    for (key, detail) in outcome.differences { say("    \(key) — \(detail)") }
                    for line in slow { say("    \(line)") }
                    for run in outcome.runs {
                        say("    \(run.backend) cold: \(describe(run.cold, run.coldCPU))")
                        if let warm = run.warm, let cpu = run.warmCPU {
                            say("    \(run.backend) warm (by \(run.warmer ?? "?")): \(describe(warm, cpu))")
                        }
                    }
                }
            }
            if Date().timeIntervalSince(lastProgress) >= 15 {
                lastProgress = Date()
                say(String(format: "  … %d executions, %d failing, max CPU ms openssl %.1f / gnutls %.1f",
                           executions, failing, maximumCPU[0] * 1000, maximumCPU[1] * 1000))
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        let tally = verdicts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        say(String(format: "== unsigned-edits: %d executions in %.0f s (seed %llu), each cold and warm on OpenSSL and GnuTLS: %d disagreements, %d validations over %.0f ms CPU, %d failing inputs%@",
                   executions, elapsed, seed, differences, overBound, boundMilliseconds, failing,
                   unsupported > 0 ? ", \(unsupported) not editable" : ""))
        say("  verdicts (OpenSSL cold): \(tally)")
        for (index, backend) in Differential.backends.enumerated() {
            say(String(format: "  max CPU per validation, %@: %.1f ms (%@)", backend, maximumCPU[index] * 1000, slowest[index]))
        }
        return failing == 0 && executions > unsupported
    }

    /// A report in one line: the verdict, the message, the CPU time.
    static func describe(_ report: ReceiptValidationReport, _ cpu: Double) -> String {
        let verdict = report.isValid ? "VALID (\(report.signerChain.count) certs)" : "INVALID \(report.error?.code.rawValue ?? "?"): \(report.error?.message ?? "")"
        return String(format: "%@ [%.1f ms CPU]", verdict, cpu * 1000)
    }

    struct Options {
        var iterations = 100_000
        var sampleEvery = 10_000
        var tasks = 8
        var backends: [String] = []
    }

    static func usage() -> Never {
        say("usage: ReceiptSoak leak|stress [--iterations N] [--sample-every N] [--tasks N] [--backend openssl|gnutls]... | compare DIRECTORY... | unsigned-edits [--seconds N] [--seed S] [--cpu-bound-ms MS] [--executions N] [--save DIR]")
        exit(2)
    }

    /// Resident set size in KiB from /proc/self/status (0 where unavailable).
    static func residentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    // MARK: leak

    static func leak(_ validator: ReceiptValidator, _ workload: [(name: String, bytes: [UInt8])], _ options: Options) -> Bool {
        let name = validator.backend.name
        say("== leak: \(name): \(options.iterations) validations over \(workload.count) inputs, VmRSS every \(options.sampleEvery)")
        var tally: [String: Int] = [:]
        var samples: [(Int, Int)] = []
        var ok = true
        let started = Date()
        for iteration in 1...options.iterations {
            let report = validator.report(for: workload[iteration % workload.count].bytes)
            if let violation = ReportInvariants.violation(in: report) ?? SignedPayloads.violation(in: report) {
                say("INVARIANT VIOLATED on \(workload[iteration % workload.count].name): \(violation)")
                ok = false
            }
            tally[report.isValid ? "valid" : report.error?.code.rawValue ?? "?", default: 0] += 1
            if iteration % options.sampleEvery == 0 {
                let rss = residentKiB()
                samples.append((iteration, rss))
                say(String(format: "  %7d validations  VmRSS %7d KiB", iteration, rss))
            }
        }
        let seconds = Date().timeIntervalSince(started)
        let outcomes = tally.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        say("  outcomes: \(outcomes)")
        say(String(format: "  %.1f s, %.0f validations/s", seconds, Double(options.iterations) / seconds))
        // Flat after warm-up: ignore the first two samples (trust stores, caches, allocator pools,
        // ASan's quarantine filling), then the growth from the first kept sample to the last must stay
        // under 8 MiB (a leak of even 100 bytes per validation would add ~8 MiB over 80,000).
        let kept = samples.dropFirst(2)
        if let first = kept.first, let last = kept.last {
            let growth = last.1 - first.1
            let peak = kept.map(\.1).max() ?? 0
            let flat = growth < 8 * 1024
            say("  VmRSS after warm-up: \(first.1) KiB at \(first.0) → \(last.1) KiB at \(last.0) (growth \(growth) KiB, peak \(peak) KiB): \(flat ? "flat" : "GROWING")")
            ok = ok && flat
        }
        let valid = tally["valid"] ?? 0
        if valid == 0 || valid == options.iterations {
            say("  workload is not mixed (valid \(valid) of \(options.iterations))")
            ok = false
        }
        return ok
    }

    // MARK: stress

    static func stress(_ validator: ReceiptValidator, _ workload: [(name: String, bytes: [UInt8])], _ options: Options) async -> Bool {
        let name = validator.backend.name
        let expected = workload.map { ReportSummary(validator.report(for: $0.bytes)) }
        let validCount = expected.filter(\.isValid).count
        say("== stress: \(name): \(options.tasks) tasks × \(options.iterations) validations on one validator; sequential baseline: \(validCount) valid, \(expected.count - validCount) invalid of \(expected.count)")
        let inputs = workload.map(\.bytes)
        let started = Date()
        let (mismatchCount, mismatches) = await withTaskGroup(of: (Int, [String]).self) { group in
            for task in 0..<options.tasks {
                group.addTask {
                    var found: [String] = []
                    var count = 0
                    for iteration in 0..<options.iterations {
                        // Each task walks the inputs from a different offset so that different
                        // inputs are in flight at once.
                        let index = (iteration * 7 + task * 13) % inputs.count
                        // The synchronous validation on this task's thread (in an async context
                        // `report(for:)` would pick the overload that runs on the validator's pool).
                        let summary = ReportSummary(synchronousReport(validator, inputs[index]))
                        if summary != expected[index] {
                            count += 1
                        }
                        if summary != expected[index], found.count < 10 {
                            found.append("task \(task) iteration \(iteration) input \(index): \(summary) vs sequential \(expected[index])")
                        }
                        if iteration % 64 == 0 { await Task.yield() }
                    }
                    return (count, found)
                }
            }
            var total = 0
            var all: [String] = []
            for await (count, found) in group {
                total += count
                all += found
            }
            return (total, all)
        }
        let seconds = Date().timeIntervalSince(started)
        let total = options.tasks * options.iterations
        say(String(format: "  %d concurrent validations in %.1f s (%.0f/s): %@", total, seconds, Double(total) / seconds,
                     mismatchCount == 0 ? "every result identical to the sequential run" : "\(mismatchCount) MISMATCHES"))
        for mismatch in mismatches.prefix(10) { say("  \(mismatch)") }
        return mismatchCount == 0
    }
}

/// `validator.report(for:)`, the synchronous overload, callable from an async context.
func synchronousReport(_ validator: ReceiptValidator, _ bytes: [UInt8]) -> ReceiptValidationReport {
    validator.report(for: bytes)
}
