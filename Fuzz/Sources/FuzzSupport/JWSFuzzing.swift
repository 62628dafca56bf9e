import Foundation
import ReceiptKit

/// The JWS harness (`FuzzJWS`): the input shapes it accepts, its validators and the invariants
/// every verification must satisfy.
public enum JWSFuzzing {
    /// The validators, OpenSSL then GnuTLS, each trusting the synthetic JWS root
    /// (`Fixtures/jws/pki/root.cer`) and the embedded Apple roots, verifying at each token's
    /// signedDate with ``FuzzValidators/fixedNow`` as the current time. Nil when a backend is
    /// missing or the root cannot be read.
    public static func makeValidators() -> [ReceiptValidator]? {
        var validators: [ReceiptValidator] = []
        for name in ["openssl", "gnutls"] {
            guard let backend = CryptoBackends.named(name),
                  let rootBytes = FuzzFixtures.bytes("jws/pki/root.cer"),
                  let root = try? backend.loadCertificate(rootBytes)
            else { return nil }
            let configuration = ReceiptValidator.Configuration(
                trustAnchors: [root] + AppleRootCertificates.appleRoots,
                verificationTime: .creationDate,
                currentDate: { FuzzValidators.fixedNow }
            )
            guard let validator = try? ReceiptValidator(backend: backend, configuration: configuration) else { return nil }
            validators.append(validator)
        }
        return validators
    }

    /// The valid synthetic transaction: its header segment (with the genuine x5c) and signature
    /// segment are reused by the structured input shapes.
    static let base: (header: [UInt8], signature: [UInt8]) = {
        let token = FuzzFixtures.bytes("jws/tokens/valid-transaction.jws") ?? []
        let parts = token.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { return ([], []) }
        return (Array(parts[0]), Array(parts[2]))
    }()

    /// The token an input stands for:
    /// - first byte 0x01: `header JSON 0x00 payload JSON`, each base64url-encoded, with the valid
    ///   transaction's signature;
    /// - first byte 0x02: `payload JSON` behind the valid transaction's header (its genuine chain)
    ///   and signature;
    /// - anything else: the token itself.
    public static func token(from input: [UInt8]) -> [UInt8] {
        guard let first = input.first else { return input }
        switch first {
        case 0x01:
            let rest = input.dropFirst()
            let split = rest.firstIndex(of: 0) ?? rest.endIndex
            let header = Array(rest[rest.startIndex..<split])
            let payload = split < rest.endIndex ? Array(rest[(split + 1)...]) : []
            return base64URL(header) + [UInt8(ascii: ".")] + base64URL(payload) + [UInt8(ascii: ".")] + base.signature
        case 0x02:
            return base.header + [UInt8(ascii: ".")] + base64URL(Array(input.dropFirst())) + [UInt8(ascii: ".")] + base.signature
        default:
            return input
        }
    }

    /// base64url without padding.
    public static func base64URL(_ bytes: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count { out.append(alphabet[(value >> (18 - 6 * position)) & 0x3F]) }
            index += 3
        }
        return out
    }

    /// The payloads some fixture token signed (the middle segment of every token file except the
    /// tampered and forged ones): a fuzzer cannot forge ECDSA, so any verified payload is one of them.
    public static let signedPayloads: Set<[UInt8]> = {
        var result = Set<[UInt8]>()
        for folder in ["jws/tokens", "real-jws"] {
            for file in FuzzFixtures.files(in: folder) where !file.name.contains("tampered") {
                let parts = file.bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
                guard parts.count == 3, let payload = decodeURL(Array(parts[1])) else { continue }
                result.insert(payload)
            }
        }
        return result
    }()

    /// The first violated invariant of one input's verifications (one per backend), or nil: every
    /// backend gives the same code or the same verified token; a verified token carries a kind,
    /// a chain of at least three certificates, and a payload a fixture signed.
    public static func violation(_ results: [Result<VerifiedJWS, ReceiptValidationError>]) -> String? {
        var outcomes: [String] = []
        for result in results {
            switch result {
            case .failure(let error):
                if error.code.rawValue.isEmpty { return "an error with an empty code" }
                outcomes.append(error.code.rawValue)
            case .success(let verified):
                guard verified.chain.count >= 3 else { return "a verified token with a chain of \(verified.chain.count)" }
                guard signedPayloads.contains(verified.payloadBytes) else {
                    return "a verified payload no fixture signed (\(verified.payloadBytes.count) bytes, \(verified.kind.rawValue))"
                }
                outcomes.append("valid \(verified.kind.rawValue) \(verified.payloadBytes.count)")
            }
        }
        if Set(outcomes).count > 1 { return "backends disagree: \(outcomes)" }
        return nil
    }

    private static func decodeURL(_ text: [UInt8]) -> [UInt8]? {
        var standard = text.map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0 }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(standard)).map(Array.init)
    }
}
