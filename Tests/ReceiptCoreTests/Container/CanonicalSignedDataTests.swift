import Foundation
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// `CanonicalSignedData`: the rebuild a backend verifies keeps every signed byte (content, signed
/// attributes, signature) exactly, is strict DER in the envelope shape, and is a fixed point.
@Suite struct CanonicalSignedDataTests {
    /// Every real and generated receipt the structure checks accept (DER and BER, SHA-1 and SHA-256,
    /// with and without signed attributes).
    static let inputs: [String] = {
        let real = RealReceipt.all.map(\.receiptPath)
        let directory = Fixtures.directory.appendingPathComponent("generated/receipts")
        let generated = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .sorted().map { "generated/receipts/\($0)" }
        return real + generated
    }()

    @Test func thereAreInputs() {
        #expect(Self.inputs.count > 30)
    }

    @Test(arguments: inputs)
    func keepsEverySignedByte(_ path: String) throws {
        let bytes = try Fixtures.bytes(atPath: path)
        let structure = try SignedDataStructure(checking: bytes)
        let canonical = try structure.canonical(certificates: structure.certificates)

        // The content: the input's (segments concatenated), where the form says it is.
        let container = try PKCS7Container(bytes: bytes)
        #expect(Array(canonical.der[canonical.content]) == container.content)
        if let inputContent = canonical.inputContent {
            #expect(Array(bytes[inputContent]) == container.content)
        } else {
            #expect(container.isContentConstructed)
        }

        // Strict DER in the envelope shape, the same signed attributes and signature bytes.
        let envelope = try #require(SignedDataEnvelope(canonical.der))
        // The envelope the rebuild hands on without reading its bytes again is that reading.
        #expect(canonical.envelope == envelope)
        #expect(envelope.content == canonical.content)
        let parsed = structure.parsed
        let signature = try #require(parsed.signature)
        #expect(Array(canonical.der[envelope.signature]) == Array(bytes[signature.contentStart..<signature.contentEnd]))
        if let attributes = parsed.signedAttributes {
            let kept = try #require(envelope.signedAttributes)
            #expect(Array(canonical.der[kept]) == Array(bytes[attributes.offset..<attributes.end]))
        } else {
            #expect(envelope.signedAttributes == nil)
        }
        #expect(envelope.digestAlgorithm == structure.digestAlgorithm)

        // The certificates asked for, in order, and nothing else.
        let certificates = container.certificates.map(\.derBytes)
        let again = try SignedDataStructure(checking: canonical.der)
        #expect(again.certificates.map { Array(canonical.der[$0]) } == certificates)
        // The ranges handed to a backend with the canonical form are those read from it.
        #expect(canonical.ranges == again.ranges)

        // A fixed point: the canonical form of the canonical form is itself.
        #expect(try again.canonical(certificates: again.certificates).der == canonical.der)
    }

    @Test func keepsOnlyTheCertificatesAskedFor() throws {
        let bytes = try Fixtures.bytes(atPath: "generated/receipts/valid-sha256-attrs.receipt")
        let structure = try SignedDataStructure(checking: bytes)
        #expect(structure.certificates.count == 3)
        let leafOnly = try structure.canonical(certificates: [structure.signerCertificate])
        let reread = try SignedDataStructure(checking: leafOnly.der)
        #expect(reread.certificates.map { Array(leafOnly.der[$0]) } == [Array(bytes[structure.signerCertificate])])
        #expect(leafOnly.ranges == reread.ranges)
    }
}
