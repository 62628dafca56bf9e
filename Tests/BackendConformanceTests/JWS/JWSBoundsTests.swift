import Foundation
import ReceiptCore
import ReceiptKit
import ReceiptTestSupport
import Testing

/// Bounds and form, refused before any cryptography with `malformed_jws` (or
/// `unsupported_algorithm`), on every backend: edits of the valid synthetic transaction.
@Suite("JWS bounds")
struct JWSBoundsTests {
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The valid token's segments as text.
    static func segments() throws -> [String] {
        let text = String(decoding: try Fixtures.bytes(atPath: "jws/tokens/valid-transaction.jws"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    static func code(_ token: String, _ backend: any CryptoBackend) throws -> String {
        let root = Certificate(derBytes: try Fixtures.bytes(atPath: "jws/pki/root.cer"))
        let validator = try ReceiptValidator(backend: backend, configuration: .init(jwsTrustAnchors: [root]))
        do {
            return "valid \(try validator.verifyJWS(token).kind.rawValue)"
        } catch {
            return error.code.rawValue
        }
    }

    @Test("Over-limit, deep, duplicate and non-canonical inputs are malformed_jws", arguments: BackendFixtures.backends)
    func refusals(_ backend: BackendCase) throws {
        let parts = try Self.segments()
        #expect(try Self.code(parts.joined(separator: "."), backend.backend) == "valid transaction")
        // A header with the same x5c and a member nested 17 deep (the limit is 16).
        let header = String(decoding: try #require(Data(base64Encoded: Self.standard(parts[0]))), as: UTF8.self)
        let deep = String(repeating: "[", count: 17) + String(repeating: "]", count: 17)
        let deepHeader = header.replacingOccurrences(of: "{\"alg\"", with: "{\"deep\":\(deep),\"alg\"")
        #expect(deepHeader != header)
        #expect(try Self.code([Self.base64URL(Array(deepHeader.utf8)), parts[1], parts[2]].joined(separator: "."), backend.backend) == "malformed_jws")
        // 16 deep is read (then the signature, over the changed header, fails).
        let fine = String(repeating: "[", count: 15) + String(repeating: "]", count: 15)
        let fineHeader = header.replacingOccurrences(of: "{\"alg\"", with: "{\"deep\":\(fine),\"alg\"")
        #expect(try Self.code([Self.base64URL(Array(fineHeader.utf8)), parts[1], parts[2]].joined(separator: "."), backend.backend) == "invalid_signature")
        // A duplicate member.
        let duplicate = header.replacingOccurrences(of: "{\"alg\"", with: "{\"alg\":\"ES256\",\"alg\"")
        #expect(try Self.code([Self.base64URL(Array(duplicate.utf8)), parts[1], parts[2]].joined(separator: "."), backend.backend) == "malformed_jws")
        // Over the token size limit.
        let huge = parts[0] + "." + parts[1] + String(repeating: "A", count: JWSLimits.maximumTokenSize) + "." + parts[2]
        #expect(try Self.code(huge, backend.backend) == "malformed_jws")
        // A certificate over its limit in x5c.
        let bigCertificate = Data(repeating: 0x30, count: JWSLimits.maximumCertificateSize + 1).base64EncodedString()
        let bigHeader = "{\"alg\":\"ES256\",\"x5c\":[\"\(bigCertificate)\",\"\(bigCertificate)\",\"\(bigCertificate)\"]}"
        #expect(try Self.code([Self.base64URL(Array(bigHeader.utf8)), parts[1], parts[2]].joined(separator: "."), backend.backend) == "malformed_jws")
        // Non-canonical base64url: the signature (64 bytes, 86 symbols) with the last symbol's
        // lowest unused bit set.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var signature = Array(parts[2].utf8)
        #expect(signature.count == 86)
        let value = try #require(alphabet.firstIndex(of: signature[signature.count - 1]))
        signature[signature.count - 1] = alphabet[value ^ 1]
        let changed = try Self.code([parts[0], parts[1], String(decoding: signature, as: UTF8.self)].joined(separator: "."), backend.backend)
        #expect(changed == "malformed_jws")
        // Whitespace inside a segment.
        #expect(try Self.code([parts[0], " " + parts[1], parts[2]].joined(separator: "."), backend.backend) == "malformed_jws")
        // A JWS nested in a nested one: a notification as a notification's signedTransactionInfo
        // is in the fixtures (notification-nested-notification); an empty string is not a JWS.
        #expect(try Self.code("", backend.backend) == "malformed_jws")
        #expect(try Self.code("..", backend.backend) == "malformed_jws")
    }

    static func standard(_ url: String) -> String {
        var text = url.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return text
    }
}
