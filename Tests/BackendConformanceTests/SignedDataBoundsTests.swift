import Foundation
import ReceiptKit
import Testing
import ReceiptTestSupport

/// Edits of the unsigned parts of a genuine receipt: at each bound they verify, one past it they
/// are refused as `not_pkcs7` before any library call; the same on every backend, cold and warm
/// (issue 27; the bounds are `SignedDataLimits`).
@Suite struct SignedDataBoundsTests {
    static let base = "generated/receipts/valid-sha256-attrs.receipt"

    /// A validator under the test root at the receipt's creation date, with or without the cache.
    static func validator(_ backend: any CryptoBackend, cache: Bool) throws -> ReceiptValidator {
        var configuration = ReceiptValidator.Configuration()
        configuration.trustAnchors = [try BackendFixtures.certificate("generated/pki/root.cer", with: backend)]
        configuration.usesVerifiedChainCache = cache
        return try ReceiptValidator(backend: backend, configuration: configuration)
    }

    /// The verdict's code (`nil` when valid) cold, and warm after the genuine receipt filled the cache.
    static func codes(_ bytes: [UInt8], _ backend: any CryptoBackend) throws -> (cold: String?, warm: String?) {
        let cold = try validator(backend, cache: false).report(for: bytes).error?.code.rawValue
        let warmValidator = try validator(backend, cache: true)
        #expect(warmValidator.report(for: try BackendFixtures.bytes(base)).error == nil)
        let warm = warmValidator.report(for: bytes).error?.code.rawValue
        return (cold, warm)
    }

    /// The genuine receipt with `edit` applied to its tree.
    static func edited(_ edit: (inout DERTree) -> Void) throws -> [UInt8] {
        var tree = try #require(DERTree(try BackendFixtures.bytes(base)))
        edit(&tree)
        return tree.bytes
    }

    static func digestAlgorithms(_ count: Int) throws -> [UInt8] {
        try edited { tree in
            let signer = tree[DERTree.SignedDataPath.digestAlgorithms].children[0]
            let unknown = DERTree(tag: 0x30, children: [DERTree(tag: 0x06, content: [0x2A, 0x03, 0x04])])  // 1.2.3.4
            tree[DERTree.SignedDataPath.digestAlgorithms].children = Array(repeating: unknown, count: count - 1) + [signer]
        }
    }

    static func unsignedAttributes(_ count: Int) throws -> [UInt8] {
        try edited { tree in
            let attribute = DERTree(tag: 0x30, children: [
                DERTree(tag: 0x06, content: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x05]),
                DERTree(tag: 0x31, children: [DERTree(tag: 0x05, content: [])]),
            ])
            tree[DERTree.SignedDataPath.signerInfo].children.append(
                DERTree(tag: 0xA1, children: Array(repeating: attribute, count: count)))
        }
    }

    /// The eContent split in two and wrapped in `levels` levels of constructed OCTET STRINGs.
    static func nestedContent(_ levels: Int) throws -> [UInt8] {
        try edited { tree in
            let octets = tree[DERTree.SignedDataPath.eContent].content
            let half = octets.count / 2
            var node = DERTree(tag: 0x24, children: [
                DERTree(tag: 0x04, content: Array(octets[..<half])), DERTree(tag: 0x04, content: Array(octets[half...])),
            ])
            for _ in 1..<levels { node = DERTree(tag: 0x24, children: [node, DERTree(tag: 0x04, content: [])]) }
            tree[DERTree.SignedDataPath.eContent] = node
        }
    }

    @Test(arguments: BackendFixtures.backends)
    func eachBoundIsExact(_ backendCase: BackendCase) throws {
        let backend = backendCase.backend
        let cases: [(String, [UInt8], String?)] = [
            ("8 digest algorithms", try Self.digestAlgorithms(8), nil),
            ("9 digest algorithms", try Self.digestAlgorithms(9), "not_pkcs7"),
            ("32 unsigned attributes", try Self.unsignedAttributes(32), nil),
            ("33 unsigned attributes", try Self.unsignedAttributes(33), "not_pkcs7"),
            ("content nested 8 levels", try Self.nestedContent(8), nil),
            ("content nested 9 levels", try Self.nestedContent(9), "not_pkcs7"),
        ]
        for (name, bytes, expected) in cases {
            let (cold, warm) = try Self.codes(bytes, backend)
            #expect(cold == expected, "\(name), cold")
            #expect(warm == expected, "\(name), warm")
        }
    }

    /// The worst inputs of issue 27 at full size: refused at once, not after a minute of digests
    /// (OpenSSL, 58,000 digest algorithms) or of attribute decoding (GnuTLS, 45,000 attributes).
    /// The bound is generous (one second of thread CPU) so that a loaded host cannot flake it;
    /// the benchmark shows the real cost.
    @Test(arguments: BackendFixtures.backends)
    func worstInputsCostLittle(_ backendCase: BackendCase) throws {
        let validator = try Self.validator(backendCase.backend, cache: false)
        for (name, bytes) in [
            ("58,000 digest algorithms", try Self.digestAlgorithms(58_000)),
            ("45,000 unsigned attributes", try Self.unsignedAttributes(45_000)),
        ] {
            #expect(bytes.count > 400_000, "\(name)")
            let start = Self.threadCPUTime()
            let code = validator.report(for: bytes).error?.code.rawValue
            let seconds = Self.threadCPUTime() - start
            #expect(code == "not_pkcs7", "\(name)")
            #expect(seconds < 1, "\(name): \(seconds) s of CPU")
        }
    }

    static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
