import Foundation
import ReceiptCore
import ReceiptKit
import ReceiptTestSupport
import Testing

/// The general signature primitive (`SignaturePrimitives.verifySignature(_:of:scheme:key:)`) on
/// every compiled-in backend, with the synthetic Apple-shaped PKI of `Fixtures/jws/pki` and the
/// tokens it signed: ECDSA P-256/SHA-256 over raw r‖s (a JWS's signature), ECDSA P-384/SHA-384
/// (a certificate's signature by its issuer), and the RSA path receipts use.
@Suite("Signature schemes")
struct SignatureSchemeTests {
    /// A token's signing input and raw signature, and its leaf certificate.
    struct Token {
        var signingInput: [UInt8]
        var signature: [UInt8]
        var leaf: Certificate

        init(_ name: String) throws {
            let text = String(decoding: try Fixtures.bytes(atPath: "jws/tokens/\(name).jws"), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            try #require(parts.count == 3)
            signingInput = Array("\(parts[0]).\(parts[1])".utf8)
            signature = try #require(Self.base64URL(parts[2]))
            let headerBytes = try #require(Self.base64URL(parts[0]))
            let object = try JSONSerialization.jsonObject(with: Data(headerBytes))
            let header = try #require(object as? [String: Any])
            let chain = try #require(header["x5c"] as? [String])
            let leafBytes = try #require(Data(base64Encoded: chain[0]))
            leaf = Certificate(derBytes: Array(leafBytes))
        }

        static func base64URL(_ text: String) -> [UInt8]? {
            var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while standard.count % 4 != 0 { standard += "=" }
            return Data(base64Encoded: standard).map(Array.init)
        }
    }

    /// The TBSCertificate and the DER signature of a certificate.
    static func signedParts(_ certificate: [UInt8]) throws -> (tbs: [UInt8], signature: [UInt8]) {
        let tree = try #require(DERTree(certificate))
        try #require(tree.children.count == 3)
        return (tree.children[0].bytes, Array(tree.children[2].content.dropFirst()))
    }

    static var primitives: [BackendCase] { BackendFixtures.backends.filter { $0.backend is any SignaturePrimitives } }

    @Test("ES256: a token's raw r‖s signature verifies with its leaf's P-256 key; a changed byte does not", arguments: primitives)
    func es256(_ backend: BackendCase) throws {
        let primitives = try #require(backend.backend as? any SignaturePrimitives)
        let token = try Token("valid-transaction")
        let key = try primitives.makeVerificationKey(for: token.leaf)
        #expect(token.signature.count == 64)
        #expect(primitives.verifySignature(token.signature[...], of: [token.signingInput[...]], scheme: .ecdsa(.sha256), key: key))
        // Split message parts are concatenated.
        let half = token.signingInput.count / 2
        #expect(primitives.verifySignature(
            token.signature[...], of: [token.signingInput[..<half], token.signingInput[half...]], scheme: .ecdsa(.sha256), key: key))
        var tampered = token.signingInput
        tampered[tampered.count - 1] ^= 0x01
        #expect(!primitives.verifySignature(token.signature[...], of: [tampered[...]], scheme: .ecdsa(.sha256), key: key))
        // Wrong length, wrong digest, wrong scheme, DER form: all false.
        #expect(!primitives.verifySignature(token.signature.dropLast(), of: [token.signingInput[...]], scheme: .ecdsa(.sha256), key: key))
        #expect(!primitives.verifySignature(token.signature[...], of: [token.signingInput[...]], scheme: .ecdsa(.sha384), key: key))
        #expect(!primitives.verifySignature(token.signature[...], of: [token.signingInput[...]], scheme: .rsaPKCS1v15(.sha256), key: key))
        let der = try #require(ECDSASignature.der(fromRaw: token.signature[...]))
        #expect(!primitives.verifySignature(der[...], of: [token.signingInput[...]], scheme: .ecdsa(.sha256), key: key))
        #expect(!primitives.verifySignature(
            [UInt8](repeating: 0, count: 64)[...], of: [token.signingInput[...]], scheme: .ecdsa(.sha256), key: key))
    }

    @Test("A high-S signature (s and n − s) is valid on every backend, as its low twin is", arguments: primitives)
    func highS(_ backend: BackendCase) throws {
        let primitives = try #require(backend.backend as? any SignaturePrimitives)
        let low = try Token("valid-transaction-low-s")
        let high = try Token("valid-transaction-high-s")
        #expect(low.signingInput == high.signingInput)
        #expect(low.signature.prefix(32) == high.signature.prefix(32))  // same r
        #expect(low.signature.suffix(32) != high.signature.suffix(32))  // s and n − s
        let order: [UInt8] = bytes(hex: "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
        #expect(Self.subtract(order, Array(low.signature.suffix(32))) == Array(high.signature.suffix(32)))
        let key = try primitives.makeVerificationKey(for: low.leaf)
        #expect(primitives.verifySignature(low.signature[...], of: [low.signingInput[...]], scheme: .ecdsa(.sha256), key: key))
        #expect(primitives.verifySignature(high.signature[...], of: [high.signingInput[...]], scheme: .ecdsa(.sha256), key: key))
    }

    @Test("ECDSA P-384/SHA-384: each certificate's signature verifies with its issuer's key, not with another", arguments: primitives)
    func certificateSignatures(_ backend: BackendCase) throws {
        let primitives = try #require(backend.backend as? any SignaturePrimitives)
        let root = try Fixtures.bytes(atPath: "jws/pki/root.cer")
        let intermediate = try Fixtures.bytes(atPath: "jws/pki/intermediate.cer")
        let leaf = try Fixtures.bytes(atPath: "jws/pki/leaf.cer")
        let otherRoot = try Fixtures.bytes(atPath: "jws/pki/other-root.cer")
        let rootKey = try primitives.makeVerificationKey(for: Certificate(derBytes: root))
        let intermediateKey = try primitives.makeVerificationKey(for: Certificate(derBytes: intermediate))
        let otherRootKey = try primitives.makeVerificationKey(for: Certificate(derBytes: otherRoot))
        for (subject, issuerKey) in [(root, rootKey), (intermediate, rootKey), (leaf, intermediateKey)] {
            let parts = try Self.signedParts(subject)
            let raw = try #require(ECDSASignature.raw(fromDER: parts.signature[...], width: ECDSASignature.p384Width))
            #expect(raw.count == 96)
            #expect(primitives.verifySignature(raw[...], of: [parts.tbs[...]], scheme: .ecdsa(.sha384), key: issuerKey))
            #expect(!primitives.verifySignature(raw[...], of: [parts.tbs[...]], scheme: .ecdsa(.sha384), key: otherRootKey))
            #expect(!primitives.verifySignature(raw[...], of: [parts.tbs[...]], scheme: .ecdsa(.sha256), key: issuerKey))
        }
    }

    @Test("SHA-384 digests agree with the independent implementation", arguments: primitives)
    func sha384(_ backend: BackendCase) throws {
        let primitives = try #require(backend.backend as? any SignaturePrimitives)
        let abc = try primitives.digest(.sha384, of: [Array("a".utf8)[...], Array("bc".utf8)[...]])
        #expect(abc == bytes(hex: 
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"))
        #expect(DigestAlgorithm(oid: "2.16.840.1.101.3.4.2.2") == .sha384)
        #expect(DigestAlgorithm.sha384.byteCount == 48)
    }

    @Test("An RSA key (a receipt leaf) verifies only RSA schemes")
    func rsaKeyRefusesECDSA() throws {
        for backend in Self.primitives {
            let primitives = try #require(backend.backend as? any SignaturePrimitives)
            let rsa = try BackendFixtures.certificate("generated/pki/root.cer", with: backend.backend)
            let key = try primitives.makeVerificationKey(for: rsa)
            #expect(!primitives.verifySignature(
                [UInt8](repeating: 1, count: 64)[...], of: [[1, 2, 3]], scheme: .ecdsa(.sha256), key: key))
        }
    }

    @Test("DER ↔ raw ECDSA conversion is strict and round-trips")
    func conversion() throws {
        let raw: [UInt8] = [UInt8](repeating: 0, count: 31) + [0x85] + [0x7F] + [UInt8](repeating: 0x11, count: 31)
        let der = try #require(ECDSASignature.der(fromRaw: raw[...]))
        #expect(der == [0x30, 0x26, 0x02, 0x02, 0x00, 0x85, 0x02, 0x20, 0x7F] + [UInt8](repeating: 0x11, count: 31))
        #expect(ECDSASignature.raw(fromDER: der[...], width: 32) == raw)
        #expect(ECDSASignature.raw(fromDER: der[...] + [0], width: 32) == nil)  // trailing byte
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x01], width: 32) == nil)  // r = 0
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01], width: 32) == nil)  // not minimal
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x06, 0x02, 0x01, 0x81, 0x02, 0x01, 0x01], width: 32) == nil)  // negative
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01], width: 32)?.count == 64)
        #expect(ECDSASignature.der(fromRaw: [1, 2, 3]) == nil)
    }

    /// a − b for big-endian magnitudes of one width (a ≥ b).
    static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: a.count)
        var borrow = 0
        for index in stride(from: a.count - 1, through: 0, by: -1) {
            var value = Int(a[index]) - Int(b[index]) - borrow
            borrow = value < 0 ? 1 : 0
            if value < 0 { value += 256 }
            result[index] = UInt8(value)
        }
        return result
    }
}
