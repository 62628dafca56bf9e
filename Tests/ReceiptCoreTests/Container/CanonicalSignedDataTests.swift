import Foundation
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// `CanonicalSignedData`: the rebuild a backend verifies keeps every signed byte (content, signed
/// attributes, signature) exactly, is strict DER in the envelope shape, and is a fixed point; an
/// input that already is its rebuild is handed on as it is, exactly when it is.
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
        let signature = structure.signer.signature
        #expect(Array(canonical.der[envelope.signature]) == Array(bytes[signature.contentStart..<signature.contentEnd]))
        if let attributes = structure.signer.signedAttributes?.node {
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

    /// The rebuild without its content (handed to a built-in backend beside the input's content) is
    /// the attached rebuild with the content detached, octet for octet, and its envelope locates
    /// the same signed bytes, the content in the input.
    @Test(arguments: inputs)
    func detachedRebuildIsTheAttachedOneWithoutItsContent(_ path: String) throws {
        let bytes = try Fixtures.bytes(atPath: path)
        let structure = try SignedDataStructure(checking: bytes)
        let attached = try structure.canonical(certificates: structure.certificates, reusesInput: false)
        let detached = try structure.canonical(
            certificates: structure.certificates, reusesInput: false, detachesContent: true)
        #expect(!attached.isDetached)
        guard let inputContent = attached.inputContent, let attachedEnvelope = attached.envelope else {
            // A constructed eContent (or no envelope) is never detached: the rebuild is attached.
            #expect(!detached.isDetached)
            #expect(detached.der == attached.der)
            return
        }
        #expect(detached.isDetached)
        #expect(detached.content == inputContent)
        #expect(detached.der.count < attached.der.count - inputContent.count + 8)
        let expected = try #require(DetachedSignedData(attached.der, envelope: attachedEnvelope, omitting: { _ in false }))
        #expect(detached.der == expected.der)
        let envelope = try #require(detached.envelope)
        #expect(envelope.content == inputContent)
        #expect(Array(detached.der[envelope.signature]) == Array(attached.der[attachedEnvelope.signature]))
        #expect(envelope.signedAttributes.map { Array(detached.der[$0]) }
            == attachedEnvelope.signedAttributes.map { Array(attached.der[$0]) })
        #expect(Array(detached.der[envelope.head]) == Array(attached.der[attachedEnvelope.head]))
        #expect(detached.ranges.certificates.map { Array(detached.der[$0]) }
            == attached.ranges.certificates.map { Array(attached.der[$0]) })
        #expect(Array(detached.der[detached.ranges.signerCertificate]) == Array(attached.der[attached.ranges.signerCertificate]))
        // The input as it is, when it is its own rebuild, is still handed on attached.
        let reused = try structure.canonical(certificates: structure.certificates, detachesContent: true)
        #expect(reused.isDetached != reused.isInput)
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

    /// Inputs for the shortcut's decision: every input, and bit-flips of each spread over the file
    /// (a flip in the content or the signature leaves a canonical input canonical; one in a
    /// header or a certificate makes it refused or not canonical).
    static let mutations: [(name: String, bytes: [UInt8])] = inputs.flatMap { path -> [(name: String, bytes: [UInt8])] in
        guard let bytes = try? Fixtures.bytes(atPath: path), !bytes.isEmpty else { return [] }
        var variants = [(name: path, bytes: bytes)]
        let flips = 24
        for flip in 0..<flips {
            let offset = (bytes.count * flip + bytes.count / 3) / flips % bytes.count
            var flipped = bytes
            flipped[offset] ^= UInt8(1) << UInt8(flip % 8)
            variants.append((name: "\(path)#flip\(offset).\(flip % 8)", bytes: flipped))
        }
        return variants
    }

    /// Every ordered choice of the embedded certificates that holds the signer's, up to three
    /// (the paths the validator may ask for, and reorderings of the same length as the input's).
    static func certificateChoices(_ structure: SignedDataStructure) -> [[Range<Int>]] {
        var choices: [[Range<Int>]] = []
        func extend(_ chosen: [Range<Int>]) {
            if chosen.contains(structure.signerCertificate) { choices.append(chosen) }
            guard chosen.count < 3 else { return }
            for certificate in structure.certificates where !chosen.contains(certificate) { extend(chosen + [certificate]) }
        }
        extend([])
        return choices
    }

    /// The shortcut's decision (``CanonicalSignedData/isInput``) is true exactly when the full
    /// rebuild equals the input, and the form handed on is the rebuild either way: the same
    /// octets, ranges, summary and envelope. When true, it is the input's own storage (no copy).
    @Test func handsTheInputOnExactlyWhenItIsItsRebuild() throws {
        var accepted = 0
        var canonicalInputs = 0
        var reordered = 0
        for input in Self.mutations {
            let bytes = input.bytes
            guard let structure = try? SignedDataStructure(checking: bytes)
            else { continue }
            accepted += 1
            for certificates in Self.certificateChoices(structure) {
                let rebuilt = try structure.canonical(certificates: certificates, reusesInput: false)
                let handed = try structure.canonical(certificates: certificates)
                let label = "\(input.name) certificates \(certificates)"
                #expect(!rebuilt.isInput, "\(label)")
                #expect(handed.isInput == (rebuilt.der == bytes), "\(label)")
                #expect(handed.der == rebuilt.der, "\(label)")
                #expect(handed.content == rebuilt.content && handed.inputContent == rebuilt.inputContent, "\(label)")
                #expect(handed.ranges == rebuilt.ranges && handed.envelope == rebuilt.envelope, "\(label)")
                if handed.isInput {
                    canonicalInputs += 1
                    let shared = handed.der.withUnsafeBufferPointer { handedOctets in
                        structure.bytes.withUnsafeBufferPointer { $0.baseAddress == handedOctets.baseAddress }
                    }
                    #expect(shared, "\(label): the input was copied")
                } else if certificates.count == structure.certificates.count, certificates != structure.certificates,
                          rebuilt.der.count == bytes.count {
                    // The same length as the input, only the certificates' order differs.
                    reordered += 1
                }
            }
        }
        // Both answers are exercised, and the comparison of equal-length forms too.
        #expect(accepted > Self.inputs.count)
        #expect(canonicalInputs >= 20, "\(canonicalInputs) canonical inputs")
        #expect(reordered >= 20, "\(reordered) reorderings")
    }

    /// The input is handed on for a DER receipt whose certificates are the path in order, and
    /// not when one more certificate, a reordering or BER makes its rebuild differ.
    @Test func handsOnACanonicalReceiptAndNothingElse() throws {
        let bytes = try Fixtures.bytes(atPath: "generated/receipts/valid-sha256-noattr-iap5000.receipt")
        let structure = try SignedDataStructure(checking: bytes)
        #expect(try structure.canonical(certificates: structure.certificates).isInput)
        #expect(try !structure.canonical(certificates: structure.certificates, reusesInput: false).isInput)
        #expect(try !structure.canonical(certificates: [structure.signerCertificate]).isInput)
        if structure.certificates.count > 1 {
            #expect(try !structure.canonical(certificates: structure.certificates.reversed()).isInput)
        }
        // A BER receipt (indefinite lengths, as some of Apple's are) is never its own rebuild.
        let ber = try RealReceipt.all.map { try Fixtures.bytes(atPath: $0.receiptPath) }.filter { $0.count > 2 && $0[1] == 0x80 }
        #expect(!ber.isEmpty)
        for realBytes in ber {
            let realStructure = try SignedDataStructure(checking: realBytes)
            #expect(try !realStructure.canonical(certificates: realStructure.certificates).isInput)
        }
    }
}
