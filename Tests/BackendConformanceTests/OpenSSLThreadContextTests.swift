#if OpenSSL
import Foundation
import ReceiptCore
import ReceiptKit
@testable import ReceiptOpenSSL
import ReceiptTestSupport
import Testing

/// The OpenSSL backend's verification keys keep one verify context per verifying thread
/// (`OpenSSLContextSlots`, over a key copy of the slot's own) instead of duplicating a shared
/// template for every signature. Both ways give the same verdict for every signature: RSA with
/// SHA-1 and SHA-256 (receipts and their certificates), ECDSA P-256 over a token and P-384 over
/// certificates; genuine, over a changed message, under another key, in the wrong scheme — from
/// one thread and from eight at once (so that threads share slots and fall back).
@Suite struct OpenSSLThreadContextTests {
    /// One signature to check, and whether it is genuine.
    struct Case: Sendable {
        var name: String
        var signature: [UInt8]
        var message: [UInt8]
        var scheme: SignatureScheme
        var keyCertificate: Certificate
        var genuine: Bool
    }

    static func cases() throws -> [Case] {
        var cases: [Case] = []
        func certificate(_ path: String) throws -> [UInt8] { try Fixtures.bytes(atPath: path) }
        // RSA: each generated certificate's signature by its issuer, SHA-256 and SHA-1.
        let rsa: [(subject: String, issuer: String, other: String, digest: DigestAlgorithm)] = [
            ("generated/pki/intermediate.cer", "generated/pki/root.cer", "generated/pki/other-root.cer", .sha256),
            ("generated/pki/leaf.cer", "generated/pki/intermediate.cer", "generated/pki/other-intermediate.cer", .sha256),
            ("generated/pki/intermediate-sha1.cer", "generated/pki/root.cer", "generated/pki/other-root.cer", .sha1),
            ("generated/pki/leaf-sha1.cer", "generated/pki/intermediate-sha1.cer", "generated/pki/intermediate.cer", .sha1),
        ]
        for (subject, issuer, other, digest) in rsa {
            let parts = try SignatureSchemeTests.signedParts(try certificate(subject))
            var changed = parts.tbs
            changed[changed.count / 2] ^= 0x01
            let issuerCertificate = Certificate(derBytes: try certificate(issuer))
            let otherCertificate = Certificate(derBytes: try certificate(other))
            let scheme = SignatureScheme.rsaPKCS1v15(digest)
            cases.append(Case(name: "\(subject) by \(issuer)", signature: parts.signature, message: parts.tbs, scheme: scheme,
                              keyCertificate: issuerCertificate, genuine: true))
            cases.append(Case(name: "\(subject) changed", signature: parts.signature, message: changed, scheme: scheme,
                              keyCertificate: issuerCertificate, genuine: false))
            cases.append(Case(name: "\(subject) by \(other)", signature: parts.signature, message: parts.tbs, scheme: scheme,
                              keyCertificate: otherCertificate, genuine: false))
            let otherDigest: DigestAlgorithm = digest == .sha1 ? .sha256 : .sha1
            cases.append(Case(name: "\(subject) as \(otherDigest)", signature: parts.signature, message: parts.tbs,
                              scheme: .rsaPKCS1v15(otherDigest), keyCertificate: issuerCertificate, genuine: false))
        }
        // ECDSA P-256 over a token's signing input, P-384 over the JWS PKI's certificates.
        let token = try SignatureSchemeTests.Token("valid-transaction")
        var changedInput = token.signingInput
        changedInput[changedInput.count - 1] ^= 0x01
        cases.append(Case(name: "token", signature: token.signature, message: token.signingInput, scheme: .ecdsa(.sha256),
                          keyCertificate: token.leaf, genuine: true))
        cases.append(Case(name: "token changed", signature: token.signature, message: changedInput, scheme: .ecdsa(.sha256),
                          keyCertificate: token.leaf, genuine: false))
        let root = Certificate(derBytes: try certificate("jws/pki/root.cer"))
        let otherRoot = Certificate(derBytes: try certificate("jws/pki/other-root.cer"))
        let parts = try SignatureSchemeTests.signedParts(try certificate("jws/pki/intermediate.cer"))
        let raw = try #require(ECDSASignature.raw(fromDER: parts.signature[...], width: ECDSASignature.p384Width))
        cases.append(Case(name: "JWS intermediate by root", signature: raw, message: parts.tbs, scheme: .ecdsa(.sha384),
                          keyCertificate: root, genuine: true))
        cases.append(Case(name: "JWS intermediate by other root", signature: raw, message: parts.tbs, scheme: .ecdsa(.sha384),
                          keyCertificate: otherRoot, genuine: false))
        cases.append(Case(name: "JWS intermediate as SHA-256", signature: raw, message: parts.tbs, scheme: .ecdsa(.sha256),
                          keyCertificate: root, genuine: false))
        return cases
    }

    @Test func threadContextsAndTemplateDuplicatesGiveTheSameVerdicts() throws {
        let cases = try Self.cases()
        let kept = OpenSSLBackend()
        let duplicated = OpenSSLBackend(keepsThreadContexts: false)
        #expect(kept.keepsThreadContexts && !duplicated.keepsThreadContexts)
        // One key per certificate per backend, shared by every case with that certificate (so
        // that one key verifies with both of its digests) and by every thread (as the chain cache
        // shares it).
        var keptByCertificate: [[UInt8]: any SignatureVerificationKey] = [:]
        var duplicatedByCertificate: [[UInt8]: any SignatureVerificationKey] = [:]
        var keptKeys: [any SignatureVerificationKey] = []
        var duplicatedKeys: [any SignatureVerificationKey] = []
        for testCase in cases {
            let der = testCase.keyCertificate.derBytes
            if keptByCertificate[der] == nil {
                keptByCertificate[der] = try kept.makeVerificationKey(for: testCase.keyCertificate)
                duplicatedByCertificate[der] = try duplicated.makeVerificationKey(for: testCase.keyCertificate)
            }
            keptKeys.append(try #require(keptByCertificate[der]))
            duplicatedKeys.append(try #require(duplicatedByCertificate[der]))
        }
        #expect(keptByCertificate.count < cases.count)
        @Sendable func verdicts(_ backend: OpenSSLBackend, _ keys: [any SignatureVerificationKey]) -> [Bool] {
            cases.indices.map { index in
                let testCase = cases[index]
                return backend.verifySignature(
                    testCase.signature[...], of: [testCase.message[...]], scheme: testCase.scheme, key: keys[index])
            }
        }
        let expected = cases.map(\.genuine)
        // One thread, each twice (the second time from the context the first one made).
        for round in 0..<2 {
            #expect(verdicts(kept, keptKeys) == expected, "thread contexts, round \(round)")
            #expect(verdicts(duplicated, duplicatedKeys) == expected, "template duplicates, round \(round)")
        }
        // Eight threads at once, 50 rounds each, over the same keys: more threads than a key has
        // slots' worth of distinct ids, so some share a slot and take the template's way.
        let mismatches = ShardLock(0)
        let keys = (kept: keptKeys, duplicated: duplicatedKeys)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            var wrong = 0
            for _ in 0..<50 {
                if verdicts(kept, keys.kept) != expected { wrong += 1 }
                if verdicts(duplicated, keys.duplicated) != expected { wrong += 1 }
            }
            mismatches.withLock { $0 += wrong }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }

    @Test func threadsHashToEverySlot() {
        // Thread descriptors lie a stack apart (8 MiB + a guard page on glibc): consecutive ones
        // must not all land in one slot.
        let stride = (8 << 20) + 4096
        var seen = Set<Int>()
        for index in 0..<64 {
            seen.insert(OpenSSLContextSlots.slot(ofThreadID: UInt(0x7f00_0000_0000 + index * stride)))
        }
        #expect(seen.count == OpenSSLContextSlots.slotCount)
        #expect(seen.allSatisfy { (0..<OpenSSLContextSlots.slotCount).contains($0) })
    }
}
#endif
