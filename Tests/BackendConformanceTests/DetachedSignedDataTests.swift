import Foundation
import ReceiptConformance
import ReceiptCore
import ReceiptKit
import SwiftASN1
import Testing

/// ``DetachedSignedData``, the content-detached copy of a canonical envelope that both adapters
/// hand their library (the content then read in place): on every fixture it is strict DER holding
/// exactly the original's parts, every backend verifies it to the original's content, and a
/// tampered content is rejected. With GnuTLS, verification through the detached copy and through
/// the original bytes gives identical results (value or error) on every manifest case.
@Suite("DetachedSignedData")
struct DetachedSignedDataTests {
    /// One fixture input, as the validator would load it.
    struct Input: Sendable, CustomTestStringConvertible {
        /// The path under `Fixtures/`.
        let path: String
        /// The DER/BER bytes (base64 files decoded).
        let bytes: [UInt8]
        var testDescription: String { path }
    }

    static let manifestCases: [ConformanceCase] =
        (try? ConformanceManifest(contentsOf: BackendFixtures.directory.appendingPathComponent("manifest.json")))?.cases ?? []

    /// Every manifest file and every fuzz regression that loads, once each.
    static let inputs: [Input] = {
        let regressions = ((try? FileManager.default.contentsOfDirectory(
            atPath: BackendFixtures.directory.appendingPathComponent("fuzz-regressions").path)) ?? [])
            .sorted().map { "fuzz-regressions/\($0)" }
        var seen = Set<String>()
        var inputs: [Input] = []
        for path in manifestCases.map(\.file) + regressions where seen.insert(path).inserted {
            guard let raw = try? BackendFixtures.bytes(path), let bytes = try? ReceiptLoader.load(raw) else { continue }
            inputs.append(Input(path: path, bytes: bytes))
        }
        return inputs
    }()

    /// The manifest's valid cases that a backend called directly verifies as given. The
    /// `signed-data-classes` inputs are valid through ``ReceiptValidator``, which hands a backend
    /// its canonical rebuild of them, and not necessarily as given (a backend verifies the bytes it
    /// is handed: OpenSSL cannot fetch an unknown listed digest, for one).
    static let directlyValidCases = manifestCases.filter { $0.expect.valid == true && $0.category != "signed-data-classes" }

    /// The inputs in the canonical shape (those both adapters verify through a detached copy).
    static let canonicalInputs: [Input] = inputs.filter { DetachedSignedData($0.bytes, omitting: { _ in false }) != nil }

    @Test func mostFixturesAreCanonical() {
        #expect(Self.inputs.count >= 100)
        // Every generated DER receipt and every App Store receipt is; BER, Xcode and hostile shapes are not.
        #expect(Self.canonicalInputs.count >= 70, "\(Self.canonicalInputs.count) canonical inputs")
        #expect(Self.canonicalInputs.contains { $0.path.hasSuffix("valid-sha256-noattr-iap5000.receipt") })
        #expect(Self.canonicalInputs.contains { $0.path.hasSuffix("valid-sha1-attrs.receipt") })
        #expect(!Self.canonicalInputs.contains { $0.path.hasSuffix("-ber.receipt") })
    }

    // MARK: The re-encoding

    @Test("the detached copy is strict DER with the original's parts and no eContent", arguments: canonicalInputs)
    func detachedCopyIsStrictDER(input: Input) throws {
        let bytes = input.bytes
        let detached = try #require(DetachedSignedData(bytes, omitting: { _ in false }))
        #expect(detached.omittedCertificates.isEmpty)
        // swift-asn1's DER parser refuses indefinite or non-minimal lengths and trailing bytes.
        let original = try SignedDataParts(try DER.parse(bytes))
        let copy = try SignedDataParts(try DER.parse(detached.der))

        #expect(copy.contentType == original.contentType)
        #expect(copy.version == original.version)
        #expect(copy.digestAlgorithms == original.digestAlgorithms)
        #expect(copy.certificates == original.certificates)
        #expect(copy.signerInfos == original.signerInfos)
        #expect(copy.crls == nil && original.crls == nil)
        #expect(copy.eContentType == original.eContentType)
        #expect(copy.eContent == nil)
        let content = try #require(original.eContent)
        #expect(Array(bytes[detached.content]) == content)
        // Exactly the eContent field ([0] { OCTET STRING }) is gone.
        #expect(bytes.count - detached.der.count >= content.count + 4)
    }

    @Test("omitted certificates are left out of the copy and their ranges reported", arguments: canonicalInputs)
    func omittedCertificates(input: Input) throws {
        let bytes = input.bytes
        let original = try SignedDataParts(try DER.parse(bytes))
        let all = try #require(original.certificates)

        let none = try #require(DetachedSignedData(bytes, omitting: { _ in true }))
        #expect(none.omittedCertificates.map { Array(bytes[$0]) } == all)
        let bare = try SignedDataParts(try DER.parse(none.der))
        #expect(bare.certificates == nil)
        #expect(bare.signerInfos == original.signerInfos)

        let first = all[0]
        let dropFirst = try #require(DetachedSignedData(bytes, omitting: { Array(bytes[$0]) == first }))
        #expect(dropFirst.omittedCertificates.map { Array(bytes[$0]) } == all.filter { $0 == first })
        let rest = try SignedDataParts(try DER.parse(dropFirst.der))
        let kept = all.filter { $0 != first }
        #expect(rest.certificates == (kept.isEmpty ? nil : kept))
    }

    // MARK: Every backend

    @Test("every backend verifies a canonical receipt to the content the copy points at", arguments: BackendFixtures.backends)
    func backendsReturnTheDetachedContent(backend: BackendCase) throws {
        var verified = 0
        for testCase in Self.directlyValidCases {
            guard let input = Self.canonicalInputs.first(where: { $0.path == testCase.file }),
                  let detached = DetachedSignedData(input.bytes, omitting: { _ in false })
            else { continue }
            let store = try Self.store(for: testCase, backend: backend.backend)
            let result = try backend.backend.verifySignedData(input.bytes, trustStore: store)
            #expect(result.content == Array(input.bytes[detached.content]), "\(testCase.name)")
            verified += 1
        }
        #expect(verified >= 40)
    }

    @Test("a tampered content is rejected through the detached copy", arguments: BackendFixtures.backends)
    func tamperedContentIsRejected(backend: BackendCase) throws {
        var tampered = 0
        for testCase in Self.directlyValidCases {
            guard let input = Self.canonicalInputs.first(where: { $0.path == testCase.file }),
                  let detached = DetachedSignedData(input.bytes, omitting: { _ in false }), !detached.content.isEmpty
            else { continue }
            let store = try Self.store(for: testCase, backend: backend.backend)
            for offset in [detached.content.lowerBound, detached.content.upperBound - 1] {
                var bytes = input.bytes
                bytes[offset] ^= 0x01
                // Still canonical: the adapters take the detached path with the damaged content.
                #expect(DetachedSignedData(bytes, omitting: { _ in false })?.der == detached.der)
                let error = #expect(throws: ReceiptValidationError.self, "\(testCase.name) at \(offset)") {
                    try backend.backend.verifySignedData(bytes, trustStore: store)
                }
                #expect(error?.code == .invalidSignature, "\(testCase.name): \(error?.description ?? "no error")")
                tampered += 1
            }
        }
        #expect(tampered >= 80)
    }

    // MARK: Helpers

    /// The trust store of the case's anchors (StoreKit anchors included as plain anchors).
    static func store(for testCase: ConformanceCase, backend: any CryptoBackend) throws -> any TrustStore {
        var anchors: [Certificate] = []
        for anchor in testCase.anchors {
            switch anchor {
            case "embedded:apple-root": anchors += AppleRootCertificates.appleRoots
            case "embedded:storekit": anchors.append(AppleRootCertificates.storeKitTest)
            default: anchors.append(try BackendFixtures.certificate(anchor, with: backend))
            }
        }
        return try backend.makeTrustStore(anchors: anchors)
    }
}

/// The fields of a DER ContentInfo(signedData) as swift-asn1 parses them, each as its whole
/// encoding (the certificates one by one).
struct SignedDataParts {
    var contentType: [UInt8]
    var version: [UInt8]
    var digestAlgorithms: [UInt8]
    var eContentType: [UInt8]
    /// The eContent OCTET STRING's value, `nil` when detached.
    var eContent: [UInt8]?
    var certificates: [[UInt8]]?
    var crls: [UInt8]?
    var signerInfos: [UInt8]

    struct Shape: Error { var reason: String }

    init(_ root: ASN1Node) throws {
        let contentInfo = try Self.children(root, tag: .sequence)
        guard contentInfo.count == 2 else { throw Shape(reason: "ContentInfo has \(contentInfo.count) fields") }
        contentType = Array(contentInfo[0].encodedBytes)
        let explicit = try Self.children(contentInfo[1], tag: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific))
        guard explicit.count == 1 else { throw Shape(reason: "[0] content has \(explicit.count) elements") }
        var fields = try Self.children(explicit[0], tag: .sequence)[...]
        guard fields.count >= 4 else { throw Shape(reason: "SignedData has \(fields.count) fields") }
        version = Array(fields.removeFirst().encodedBytes)
        digestAlgorithms = Array(fields.removeFirst().encodedBytes)
        let encapsulated = try Self.children(fields.removeFirst(), tag: .sequence)
        guard (1...2).contains(encapsulated.count) else { throw Shape(reason: "encapContentInfo has \(encapsulated.count) fields") }
        eContentType = Array(encapsulated[0].encodedBytes)
        if encapsulated.count == 2 {
            let wrapped = try Self.children(encapsulated[1], tag: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific))
            guard wrapped.count == 1, wrapped[0].identifier == .octetString, case .primitive(let octets) = wrapped[0].content else {
                throw Shape(reason: "eContent is not one primitive OCTET STRING")
            }
            eContent = Array(octets)
        }
        if let next = fields.first, next.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            certificates = try Self.children(fields.removeFirst(), tag: next.identifier).map { Array($0.encodedBytes) }
        }
        if let next = fields.first, next.identifier == ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific) {
            crls = Array(fields.removeFirst().encodedBytes)
        }
        guard fields.count == 1, let last = fields.first, last.identifier == .set else {
            throw Shape(reason: "SignedData does not end with one signerInfos SET")
        }
        signerInfos = Array(last.encodedBytes)
    }

    private static func children(_ node: ASN1Node, tag: ASN1Identifier) throws -> [ASN1Node] {
        guard node.identifier == tag, case .constructed(let nodes) = node.content else {
            throw Shape(reason: "expected constructed \(tag), found \(node.identifier)")
        }
        return Array(nodes)
    }
}
