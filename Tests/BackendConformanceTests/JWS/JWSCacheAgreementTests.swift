import Foundation
import ReceiptCore
import ReceiptKit
import ReceiptTestSupport
import Testing

/// The JWS chain cache's invariant: the same bytes get the same verdict whatever the cache holds.
/// Every token of `Fixtures/jws/tokens` and `Fixtures/real-jws`, and edits of each valid one (a
/// byte of each segment changed, segments swapped between tokens, the header of one with the
/// payload and signature of another), verified by a fresh validator and by one whose cache holds
/// every chain that ever verified, on every backend.
@Suite("JWS cache agreement")
struct JWSCacheAgreementTests {
    static func tokens() throws -> [[UInt8]] {
        var result: [[UInt8]] = []
        for directory in ["jws/tokens", "real-jws"] {
            let url = Fixtures.directory.appendingPathComponent(directory)
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".jws") }.sorted()
            for name in names { result.append(try Fixtures.bytes(atPath: "\(directory)/\(name)")) }
        }
        return result
    }

    /// Random one-byte edits of each segment of each token.
    static let editsPerSegment = 3

    /// Edits of `token`: one byte of each segment changed (several places), and `token`'s header
    /// joined with `other`'s payload and signature.
    static func mutations(of token: [UInt8], other: [UInt8], random: inout SplitMix64) -> [[UInt8]] {
        let text = token.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let otherText = other.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard text.count == 3, otherText.count == 3 else { return [] }
        var result: [[UInt8]] = []
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var offset = 0
        for segment in text {
            for _ in 0..<Self.editsPerSegment where !segment.isEmpty {
                var edited = token
                let position = offset + Int(random.next() % UInt64(segment.count))
                var replacement = alphabet[Int(random.next() % UInt64(alphabet.count))]
                if replacement == edited[position] { replacement = replacement == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A") }
                edited[position] = replacement
                result.append(edited)
            }
            offset += segment.count + 1
        }
        result.append(Array(text[0]) + [UInt8(ascii: ".")] + Array(otherText[1]) + [UInt8(ascii: ".")] + Array(otherText[2]))
        result.append(Array(otherText[0]) + [UInt8(ascii: ".")] + Array(text[1]) + [UInt8(ascii: ".")] + Array(text[2]))
        return result
    }

    static func verdict(_ validator: ReceiptValidator, _ token: [UInt8]) -> String {
        do {
            let verified = try validator.verifyJWS(token)
            return "valid \(verified.kind.rawValue) \(verified.payloadBytes.count) \(verified.chain.count)"
        } catch {
            return error.code.rawValue
        }
    }

    @Test("Cold and warm verdicts agree on every fixture and edit", arguments: BackendFixtures.backends)
    func coldAndWarmAgree(_ backend: BackendCase) throws {
        let root = Certificate(derBytes: try Fixtures.bytes(atPath: "jws/pki/root.cer"))
        let tokens = try Self.tokens()
        var random = SplitMix64(state: 31)
        var mutations: [[UInt8]] = []
        for (index, token) in tokens.enumerated() {
            mutations += Self.mutations(of: token, other: tokens[(index + 7) % tokens.count], random: &random)
        }
        #expect(mutations.count > 400, "\(mutations.count) edits")
        // Every token, and every edit in the plain runs; a sample of the edits under the
        // sanitizers' divisor (TestIterations), a different one for each backend.
        let offset = BackendFixtures.backends.firstIndex { $0.backend.name == backend.backend.name } ?? 0
        let inputs = tokens + TestIterations.sample(mutations, offset: offset)
        for anchors in [[root], [AppleRootCertificates.appleRootCAG3], [root, AppleRootCertificates.appleRootCAG3]] {
            let configuration = ReceiptValidator.Configuration(verificationTime: .creationDate, jwsTrustAnchors: anchors)
            let warm = try ReceiptValidator(backend: backend.backend, configuration: configuration)
            for token in tokens { _ = Self.verdict(warm, token) }
            var valid = 0
            for input in inputs {
                let cold = Self.verdict(try ReceiptValidator(backend: backend.backend, configuration: configuration), input)
                let warmVerdict = Self.verdict(warm, input)
                #expect(cold == warmVerdict, "\(backend.backend.name): \(String(decoding: input.prefix(60), as: UTF8.self))…")
                if cold.hasPrefix("valid") { valid += 1 }
            }
            #expect(valid > 0)
        }
    }
}
