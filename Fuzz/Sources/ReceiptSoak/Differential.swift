import Foundation
import FuzzSupport
import ReceiptKit

/// The differential check of `compare` and `unsigned-edits`: one input validated on OpenSSL and
/// GnuTLS, each cold (no verified-chain cache) and warm (a cache just warmed by one genuine
/// receipt), with the thread CPU time of every validation.
struct Differential {
    static let backends = ["openssl", "gnutls"]
    let cold: [ReceiptValidator]
    let warm: [ReceiptValidator]
    /// The genuine receipts of each backend: those its full path verifies (they fill the cache).
    let genuine: [[(name: String, bytes: [UInt8])]]

    init() {
        cold = Self.backends.map { FuzzValidators.require(backend: $0, cache: false) }
        warm = Self.backends.map { FuzzValidators.require(backend: $0, cache: true) }
        let candidates = FuzzFixtures.files(in: "real/receipts") + FuzzFixtures.files(in: "generated/receipts")
        genuine = cold.map { validator in candidates.filter { !validator.report(for: $0.bytes).signerChain.isEmpty } }
    }

    /// One backend's validations of one input.
    struct Run {
        var backend: String
        var cold: ReceiptValidationReport
        var coldCPU: Double
        /// Nil when the backend has no genuine receipt to warm its cache with.
        var warm: ReceiptValidationReport?
        var warmCPU: Double?
        var warmer: String?

        var maximumCPU: Double { max(coldCPU, warmCPU ?? 0) }
    }

    /// The runs of one input and what differs: `key` names the difference (as `compare` counts
    /// them), `detail` says more.
    struct Outcome {
        var runs: [Run]
        var differences: [(key: String, detail: String)]
    }

    /// Validates `bytes` on every backend cold, then warm after `warmer(backendIndex)` (a genuine
    /// receipt) warmed that backend's cache, and compares: each backend's warm report with its
    /// cold one (every observable field), and OpenSSL's cold report with GnuTLS's (verdict, code,
    /// receipt).
    func check(_ bytes: [UInt8], warmer: (Int) -> (name: String, bytes: [UInt8])?) -> Outcome {
        var runs: [Run] = []
        var differences: [(key: String, detail: String)] = []
        for (index, backend) in Self.backends.enumerated() {
            let (report, cpu) = ThreadCPUTime.measure { cold[index].report(for: bytes) }
            var run = Run(backend: backend, cold: report, coldCPU: cpu)
            if let warmer = warmer(index) {
                warm[index].removeCachedChains()
                _ = warm[index].report(for: warmer.bytes)
                let (warmed, warmCPU) = ThreadCPUTime.measure { warm[index].report(for: bytes) }
                run.warm = warmed
                run.warmCPU = warmCPU
                run.warmer = warmer.name
                let reference = ReportSummary(report)
                let summary = ReportSummary(warmed)
                if summary != reference {
                    differences.append(("\(backend) cold \(reference) / warm \(summary)", "warmed by \(warmer.name)"))
                }
            }
            runs.append(run)
        }
        let left = ReportSummary(runs[0].cold)
        let right = ReportSummary(runs[1].cold)
        if left.isValid != right.isValid || left.error?.code != right.error?.code || left.receipt != right.receipt {
            differences.append(("openssl \(left) / gnutls \(right)",
                                "openssl: \(left.error?.message ?? "") | gnutls: \(right.error?.message ?? "")"))
        }
        return Outcome(runs: runs, differences: differences)
    }
}
