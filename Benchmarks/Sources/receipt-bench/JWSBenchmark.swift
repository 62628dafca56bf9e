import Foundation
import ReceiptKit

/// The issue-31 lines: one real Apple-signed StoreKit 2 transaction (Fixtures/real-jws, chain Apple
/// Root CA G3 → WWDR G6 → leaf, verified at its signedDate) on each backend, next to the C baselines
/// of ``JWSBaselineRunner`` measured in the same interleaved rounds:
///
/// - warm, one token ≤ 1.3× C (a), the backend's own library doing SHA-256 + ECDSA P-256 only;
/// - warm ≥ 10× faster than C (b), the straightforward verifier with `X509_verify_cert` (OpenSSL,
///   as the issue defines it; GnuTLS's own straightforward verifier is shown beside it);
/// - cold (cache emptied before every token) ≤ 1.2× C (b).
///
/// Ratios are medians of per-round ratios (each of two figures measured moments apart); the µs
/// shown are the fastest round.
struct JWSBenchmark {
    let fixtures: URL
    let backends: [any CryptoBackend]
    static let tokenFile = "real-jws/mingos-sandbox-consumable-transaction-2025.jws"
    static let anchorFile = "real-jws/AppleRootCA-G3.cer"

    func run() throws -> String {
        let token = Array(Array(try Data(contentsOf: fixtures.appendingPathComponent(Self.tokenFile)))
            .prefix { $0 != UInt8(ascii: "\n") })
        let anchor = Array(try Data(contentsOf: fixtures.appendingPathComponent(Self.anchorFile)))
        var out = "\nIssue 31 JWS (\(Self.tokenFile), \(token.count) bytes, chain checked at its signedDate): µs per token, fastest of \(Measure.rounds) interleaved rounds, ratios the median of per-round ratios. C (a) = SHA-256 + ECDSA P-256 verify with the key parsed once; C (b) = straightforward verifier (x5c decoded, chain verified at signedDate, markers, then the signature), OpenSSL's X509_verify_cert unless noted.\n"
        let reference = try JWSBaselineRunner(backend: "openssl", token: token, anchor: anchor, name: Self.tokenFile)
        for backend in backends {
            let own = try JWSBaselineRunner(backend: backend.name, token: token, anchor: anchor, name: Self.tokenFile)
            var configuration = ReceiptValidator.Configuration(jwsTrustAnchors: [try backend.loadCertificate(anchor)])
            configuration.usesVerifiedChainCache = true
            let validator = try ReceiptValidator(backend: backend, configuration: configuration)
            let first = try validator.verifyJWS(token)
            guard first.kind == .transaction else { throw BenchError("\(Self.tokenFile) is not a transaction") }
            let warm: (Int) -> Void = { n in
                for _ in 0..<n { precondition((try? validator.verifyJWS(token)) != nil) }
            }
            let cold: (Int) -> Void = { n in
                for _ in 0..<n {
                    validator.removeCachedChains()
                    precondition((try? validator.verifyJWS(token)) != nil)
                }
            }
            let rounds = Measure.interleaved([own.signatureOnly, reference.straightforward, own.straightforward, warm, cold])
            let (signature, straightforward, ownStraightforward, warmRounds, coldRounds) = (rounds[0], rounds[1], rounds[2], rounds[3], rounds[4])
            let name = backend.name
            func µs(_ figure: [Double]) -> String { String(format: "%.1f µs", Measure.fastest(figure) * 1e6) }
            out += "  [info] \(name): warm \(µs(warmRounds)) | cold \(µs(coldRounds)) | C (a) \(µs(signature)) | C (b) \(µs(straightforward))"
                + " | C (b) on \(name == "openssl" ? "OpenSSL" : "GnuTLS (trust list + validity at signedDate)") \(µs(ownStraightforward))\n"
            let warmRatio = Measure.medianRatio(warmRounds, signature)
            out += line(warmRatio <= 1.3, "\(name): JWS warm, one token ≤ 1.3× C (a) signature only", String(format: "%.2f×", warmRatio))
            let speedup = Measure.medianRatio(straightforward, warmRounds)
            out += line(speedup >= 10, "\(name): JWS warm ≥ 10× faster than C (b) straightforward verifier", String(format: "%.1f×", speedup))
            let ownSpeedup = Measure.medianRatio(ownStraightforward, warmRounds)
            out += "  [info] \(name): JWS warm vs this backend's own straightforward verifier: \(String(format: "%.1f×", ownSpeedup)) faster\n"
            let coldRatio = Measure.medianRatio(coldRounds, straightforward)
            out += line(coldRatio <= 1.2, "\(name): JWS cold (first token of a chain) ≤ 1.2× C (b)", String(format: "%.2f×", coldRatio))
            let ownCold = Measure.medianRatio(coldRounds, ownStraightforward)
            out += "  [info] \(name): JWS cold vs this backend's own straightforward verifier: \(String(format: "%.2f×", ownCold))\n"
        }
        return out
    }

    private func line(_ ok: Bool, _ text: String, _ value: String) -> String {
        "  [\(ok ? "PASS" : "FAIL")] \(text): \(value)\n"
    }
}
