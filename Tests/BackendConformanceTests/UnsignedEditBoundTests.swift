import Foundation
import ReceiptKit
import ReceiptTestSupport
import Testing

/// Issue 27: the worst inputs made by editing only the UNSIGNED parts of a genuine receipt cost
/// every backend little CPU and are refused as `not_pkcs7` (the rule table: more than 8
/// digestAlgorithms members, more than 32 unsigned attributes). Before the bounds, OpenSSL chained
/// one digest BIO per digestAlgorithms member (about a minute for 58,000) and GnuTLS's
/// gnutls_pkcs7_import took about 35 s on 45,000 unsigned attributes.
///
/// The inputs are built here in memory from the real 187-purchase receipt by a deliberately minimal
/// DER rebuilder: the full generator of such edits is `UnsignedEdits` in the Fuzz package
/// (Fuzz/Sources/FuzzSupport/UnsignedEdits.swift), which the main package cannot depend on.
@Suite struct UnsignedEditBoundTests {
    static let receipt = "tpinapp-sandbox-sha1-2020-187iap"
    /// Generous: the bound is about what a loaded CI host can show, not the 50 ms target of the
    /// soak run and the bench line (Scripts/bench.sh --worst-only).
    static let cpuBound = 1.0

    /// A1: digestAlgorithms with 58,000 members, the signer's (SHA-1) first, then SHA-256.
    @Test(arguments: BackendFixtures.backends)
    func fiftyEightThousandDigestAlgorithms(_ backend: BackendCase) throws {
        let der = try Self.genuine()
        let sha256: [UInt8] = [0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00]
        let edited = try MinimalDER.editSignedData(der) { fields in
            var members = Array(MinimalDER.children(fields[1])[0])
            for _ in 1..<58_000 { members += sha256 }
            fields[1] = MinimalDER.tlv(0x31, members)[...]
        }
        #expect(edited.count > 900_000)
        try Self.expectRefusedQuickly(edited, backend.backend)
    }

    /// B: 45,000 unsigned attributes (unknown types, one OCTET STRING value each) on the signer.
    @Test(arguments: BackendFixtures.backends)
    func fortyFiveThousandUnsignedAttributes(_ backend: BackendCase) throws {
        let der = try Self.genuine()
        let edited = try MinimalDER.editSignedData(der) { fields in
            let signerInfos = MinimalDER.children(fields[fields.count - 1])
            var signer = MinimalDER.children(signerInfos[0]).map { Array($0) }
            var attributes: [UInt8] = []
            for index in 0..<45_000 {
                let type: [UInt8] = [0x06, 0x05, 0x2A, 0x03, 0x04, 0x05, UInt8(index % 100)]
                let value = withUnsafeBytes(of: UInt64(index).bigEndian) { MinimalDER.tlv(0x04, Array($0)) }
                attributes += MinimalDER.tlv(0x30, type + MinimalDER.tlv(0x31, value))
            }
            signer.append(MinimalDER.tlv(0xA1, attributes))
            fields[fields.count - 1] = MinimalDER.tlv(0x31, MinimalDER.tlv(0x30, signer.flatMap { $0 }))[...]
        }
        #expect(edited.count > 800_000)
        try Self.expectRefusedQuickly(edited, backend.backend)
    }

    static func genuine() throws -> [UInt8] {
        try #require(RealReceipt.all.first { $0.name == receipt }, "Fixtures/real/receipts/\(receipt).receipt").bytes()
    }

    /// One cold validation (Apple root, at the receipt's creation date): `not_pkcs7`, under ``cpuBound``.
    static func expectRefusedQuickly(_ bytes: [UInt8], _ backend: any CryptoBackend) throws {
        let validator = try ReceiptValidator(backend: backend, configuration: ReceiptValidator.Configuration(
            trustAnchors: [AppleRootCertificates.appleIncRootCA], verificationTime: .creationDate, usesVerifiedChainCache: false))
        let start = threadCPUSeconds()
        let report = validator.report(for: bytes)
        let seconds = threadCPUSeconds() - start
        #expect(seconds < cpuBound, "\(backend.name): \(String(format: "%.3f", seconds)) s of CPU for one validation")
        #expect(report.error?.code == .notPKCS7, "\(backend.name): \(report.isValid ? "valid" : report.error?.message ?? "?")")
    }

    static func threadCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

/// Just enough DER to rebuild a genuine (definite-length) receipt around an edited SignedData.
enum MinimalDER {
    /// The encoding of one element.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        var count = content.count
        repeat {
            length.insert(UInt8(count & 0xFF), at: 0)
            count >>= 8
        } while count > 0
        let header: [UInt8] = content.count < 0x80 ? [UInt8(content.count)] : [0x80 | UInt8(length.count)] + length
        return [tag] + header + content
    }

    /// The content of the element at the start of `element` (definite lengths only).
    static func content(_ element: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let start = element.startIndex
        let first = Int(element[start + 1])
        guard first & 0x80 != 0 else { return element[(start + 2)..<(start + 2 + first)] }
        let octets = first & 0x7F
        let length = element[(start + 2)..<(start + 2 + octets)].reduce(0) { $0 << 8 | Int($1) }
        return element[(start + 2 + octets)..<(start + 2 + octets + length)]
    }

    /// The elements making up a constructed element's content.
    static func children(_ element: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var body = content(element)
        var result: [ArraySlice<UInt8>] = []
        while !body.isEmpty {
            let inner = content(body)
            let child = body[body.startIndex..<inner.endIndex]
            result.append(child)
            body = body[inner.endIndex...]
        }
        return result
    }

    /// ContentInfo { OID, [0] { SignedData { fields… } } } with the fields edited by `edit`.
    static func editSignedData(_ der: [UInt8], _ edit: (inout [ArraySlice<UInt8>]) -> Void) throws -> [UInt8] {
        let root = children(der[...])
        try #require(root.count == 2)
        let signedData = try #require(children(root[1]).first)
        var fields = children(signedData)
        edit(&fields)
        let rebuilt = tlv(0x30, fields.flatMap { $0 })
        return tlv(0x30, Array(root[0]) + tlv(0xA0, rebuilt))
    }
}
