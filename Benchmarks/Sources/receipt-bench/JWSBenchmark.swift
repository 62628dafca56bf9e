import Foundation
import ReceiptKit

/// The issue-31 lines: one real Apple-signed StoreKit 2 transaction (Fixtures/real-jws, chain Apple
/// Root CA G3 → WWDR G6 → leaf, verified at its signedDate) on each backend, next to the C baselines
/// of ``JWSBaselineRunner`` measured in the same interleaved rounds.
struct JWSBenchmark {
    let fixtures: URL
    let backendNames: [String]
    static let tokenFile = "real-jws/mingos-sandbox-consumable-transaction-2025.jws"
    static let anchorFile = "real-jws/AppleRootCA-G3.cer"

    func run() throws -> String {
        let token = Array(try Data(contentsOf: fixtures.appendingPathComponent(Self.tokenFile)))
            .prefix { $0 != UInt8(ascii: "\n") }
        let anchor = Array(try Data(contentsOf: fixtures.appendingPathComponent(Self.anchorFile)))
        var out = "\nIssue 31 JWS (\(Self.tokenFile), \(token.count) bytes): µs per token, fastest of \(Measure.rounds) interleaved rounds; C (a) = SHA-256 + ECDSA P-256 verify, key parsed once; C (b) = straightforward verifier (x5c decoded, chain verified at signedDate, then the signature).\n"
        for backend in backendNames {
            let baseline = try JWSBaselineRunner(backend: backend, token: Array(token), anchor: anchor, name: Self.tokenFile)
            let rounds = Measure.interleaved([baseline.signatureOnly, baseline.straightforward])
            out += String(format: "  [info] %@: C (a) signature only %.1f µs | C (b) straightforward %.1f µs | (b)/(a) %.1f×\n",
                          backend, Measure.fastest(rounds[0]) * 1e6, Measure.fastest(rounds[1]) * 1e6,
                          Measure.medianRatio(rounds[1], rounds[0]))
        }
        return out
    }
}
