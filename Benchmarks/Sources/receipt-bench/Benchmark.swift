import CBaseline
import Foundation
import ReceiptKit

/// Runs every measurement and renders the table and the target checks.
struct Benchmark {
    let fixtures: [Fixture]
    let backends: [any CryptoBackend]
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

        // Backend-independent: parse only and the bare C DER walk.
        var parseTime: [String: Double] = [:]
        var walkTime: [String: Double] = [:]
        for fixture in fixtures {
            let payload = fixture.payload
            let expected = bl_der_walk(payload, payload.count)
            guard expected > 0 else { throw BenchError("\(fixture.name): the C DER walk rejects the payload") }
            walkTime[fixture.name] = Measure.perOperation { n in
                precondition(bl_der_walk_run(payload, payload.count, n) == expected)
            }
            _ = try ReceiptParser.parse(payload)
            parseTime[fixture.name] = Measure.perOperation { n in
                for _ in 0..<n { precondition((try? ReceiptParser.parse(payload)) != nil) }
            }
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

                // C baseline: the library's own PKCS #7 verification.
                let (baseline, missing) = try cBaseline(backend: backend.name, fixture: fixture)
                let walk = walkTime[name] ?? 0
                add("C: library PKCS7 verify", baseline?.single, baseline == nil ? "n/a: \(missing)" : "= 1.00 (reference)")
                add("C: bare DER walk of payload", walk, baseline.map { "\(percent(walk / $0.single)) of C verify" } ?? "")

                func versusC(_ seconds: Double) -> String {
                    guard let baseline else { return "" }
                    let ratio = baseline.single / seconds
                    return ratio >= 1 ? String(format: "%.2f× faster than C verify", ratio) : String(format: "%.2f× C verify time", 1 / ratio)
                }

                // Verify only: the adapter's full PKCS #7 verification (the reference path).
                let store = try backend.makeTrustStore(anchors: [fixture.anchor])
                let der = fixture.der
                let time = fixture.creationDate
                _ = try backend.verifySignedData(der, trustStore: store, at: time)
                let verify = Measure.perOperation { n in
                    for _ in 0..<n { precondition((try? backend.verifySignedData(der, trustStore: store, at: time)) != nil) }
                }
                add("verify only (adapter, full path)", verify, versusC(verify))
                let parse = parseTime[name] ?? 0
                add("parse only (ReceiptParser)", parse, walk > 0 ? String(format: "%.2f× C DER walk time", parse / walk) : "")

                // Full validation: load → verify → parse → policy → device hash.
                let uncached = try ReceiptValidator(backend: backend, configuration: fixture.configuration(cache: false))
                let cached = try ReceiptValidator(backend: backend, configuration: fixture.configuration(cache: true))
                _ = try uncached.validate(der)
                _ = try cached.validate(der)
                let off = Measure.perOperation { n in
                    for _ in 0..<n { precondition((try? uncached.validate(der)) != nil) }
                }
                add("full, cache off", off, versusC(off))
                let cold = Measure.perOperation { n in
                    for _ in 0..<n {
                        cached.removeCachedChains()
                        precondition((try? cached.validate(der)) != nil)
                    }
                }
                add("full, cold cache (1st of chain)", cold, versusC(cold))
                _ = try cached.validate(der)
                let warm = Measure.perOperation { n in
                    for _ in 0..<n { precondition((try? cached.validate(der)) != nil) }
                }
                add("full, warm cache", warm, versusC(warm))
                if let baseline, name.contains("iap5000") {
                    let reference = baseline.single + walk
                    rows[rows.count - 1].comparison += String(format: "; %.2f× (C verify + walk) time", warm / reference)
                    rows[rows.count - 3].comparison += String(format: "; %.2f× (C verify + walk) time", off / reference)
                    rows[rows.count - 2].comparison += String(format: "; %.2f× (C verify + walk) time", cold / reference)
                }

                // Two cores.
                let validator = cached
                let warm2 = Measure.throughput(threads: cores) { n in
                    for _ in 0..<n { precondition((try? validator.validate(der)) != nil) }
                }
                figures[Key(backend: backend.name, fixture: name, what: "warm2")] = warm2
                rows.append(Row(
                    backend: backend.name, fixture: name, size: size, what: "full, warm cache, \(cores) cores",
                    secondsPerOp: nil, opsPerSecond: warm2, comparison: String(format: "%.2f× one core", warm2 * warm)))
                if let baseline {
                    rows.append(Row(
                        backend: backend.name, fixture: name, size: size, what: "C: library PKCS7 verify, \(cores) cores",
                        secondsPerOp: nil, opsPerSecond: baseline.dual,
                        comparison: String(format: "%.2f× one core", baseline.dual * baseline.single)))
                }

                // Peak memory (child process, cold cache, from the file).
                let probe = try MemoryProbe.measure(backend: backend.name, fixtureIndex: index, mode: "cold", file: fixture.file.path)
                memory.append((backend.name, fixture, probe))
            }
        }
        return render(rows: rows, figures: figures, memory: memory, walkTime: walkTime)
    }

    /// The C baseline for one fixture: seconds per op on one core, ops/s on all cores.
    private func cBaseline(backend: String, fixture: Fixture) throws -> (figures: (single: Double, dual: Double)?, missing: String) {
        let der = fixture.der
        let anchor = fixture.anchor.derBytes
        switch backend {
        case "openssl":
            guard let context = bl_openssl_new(anchor, anchor.count, Int64(fixture.creationDate.timeIntervalSince1970)) else {
                throw BenchError("OpenSSL baseline: cannot build the store")
            }
            defer { bl_openssl_free(context) }
            guard bl_openssl_run(context, der, der.count, 1) == 1 else {
                throw BenchError("OpenSSL baseline: PKCS7_verify rejects \(fixture.name)")
            }
            let handle = UnsafeSendable(context)
            let single = Measure.perOperation { n in precondition(bl_openssl_run(context, der, der.count, n) == n) }
            let dual = Measure.throughput(threads: cores) { n in precondition(bl_openssl_run(handle.value, der, der.count, n) == n) }
            return ((single, dual), "")
        case "gnutls":
            guard fixture.chainValidNow else { return (nil, "gnutls_pkcs7_verify takes no time; this chain has expired") }
            guard let context = bl_gnutls_new(anchor, anchor.count, fixture.usesSHA1 ? 1 : 0) else {
                throw BenchError("GnuTLS baseline: cannot build the trust list")
            }
            defer { bl_gnutls_free(context) }
            guard bl_gnutls_run(context, der, der.count, 1) == 1 else {
                guard fixture.usesSHA1 else { throw BenchError("GnuTLS baseline: gnutls_pkcs7_verify rejects \(fixture.name)") }
                return (nil, "gnutls_pkcs7_verify rejects the SHA-1 signature even with GNUTLS_VERIFY_ALLOW_SIGN_WITH_SHA1")
            }
            let handle = UnsafeSendable(context)
            let single = Measure.perOperation { n in precondition(bl_gnutls_run(context, der, der.count, n) == n) }
            let dual = Measure.throughput(threads: cores) { n in precondition(bl_gnutls_run(handle.value, der, der.count, n) == n) }
            return ((single, dual), "")
        default:
            return (nil, "no baseline for this backend")
        }
    }

    // MARK: Rendering

    private func render(
        rows: [Row], figures: [Key: Double], memory: [(backend: String, fixture: Fixture, result: MemoryProbe.Result)],
        walkTime: [String: Double]
    ) -> String {
        var out = "ReceiptKit benchmarks — \(cores) cores, \(ProcessInfo.processInfo.operatingSystemVersionString)\n"
        out += "time per op = fastest of \(Measure.batches) batches of ~\(Int(Measure.batchSeconds * 1000)) ms; "
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
            let c1 = figure("iap1 sha256", "C: library PKCS7 verify")
            if let c1, let warm = figure("iap1 sha256", "full, warm cache") {
                out += line(c1 / warm >= 10, "\(backend): 1 purchase, full validation, warm cache ≥ 10× C throughput", String(format: "%.1f×", c1 / warm))
            }
            if let c = figure("iap5000 sha256", "C: library PKCS7 verify"), let walk = walkTime["iap5000 sha256"] {
                for mode in ["full, warm cache", "full, cold cache (1st of chain)"] {
                    if let t = figure("iap5000 sha256", mode) {
                        out += line(t / (c + walk) <= 1.5, "\(backend): 5000 purchases, \(mode) ≤ 1.5× (C verify + DER walk)", String(format: "%.2f×", t / (c + walk)))
                    }
                }
            }
            for fixture in fixtures {
                if let c = figure(fixture.name, "C: library PKCS7 verify"), let cold = figure(fixture.name, "full, cold cache (1st of chain)") {
                    out += line(cold / c <= 1.2, "\(backend): \(fixture.name), cold cache ≤ 1.2× C verify time", String(format: "%.2f×", cold / c))
                }
            }
            if let one = figure("iap1 sha256", "full, warm cache"), let two = figure("iap1 sha256", "warm2") {
                out += line(two * one >= 1.8, "\(backend): 1 purchase, warm, \(cores) cores ≥ 1.8× one core", String(format: "%.2f×", two * one))
            }
            if let one = figure("iap5000 sha256", "full, warm cache"), let two = figure("iap5000 sha256", "warm2") {
                out += line(two * one >= 1.8, "\(backend): 5000 purchases, warm, \(cores) cores ≥ 1.8× one core", String(format: "%.2f×", two * one))
            }
            for entry in memory where entry.backend == backend && entry.fixture.name.contains("iap5000") {
                let limit = 4 * entry.fixture.der.count / 1024 + 10 * 1024
                out += line(entry.result.added <= limit, "\(backend): 5000 purchases, memory added by one validation ≤ 4×size+10MB (\(limit) KiB)", "\(entry.result.added) KiB")
                out += line(entry.result.peak <= limit, "\(backend): 5000 purchases, whole-process peak ≤ 4×size+10MB (\(limit) KiB)", "\(entry.result.peak) KiB")
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
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return (4...6).contains(i) ? pad + cell : cell + pad
            }.joined(separator: " | ")
        }
        var out = render(header) + "\n" + widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-") + "\n"
        for row in rows { out += render(row) + "\n" }
        return out
    }
}

/// Hands a C context pointer to worker threads (each C call only reads the shared store).
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
