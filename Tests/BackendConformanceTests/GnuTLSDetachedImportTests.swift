#if GnuTLS
import Foundation
import ReceiptConformance
import ReceiptCore
import ReceiptKit
import Testing

/// GnuTLS imports a canonical envelope as its ``DetachedSignedData`` and reads the content in
/// place (``GnuTLSImportedSignedData``): GnuTLS accepts every such copy, and verifying through it
/// gives exactly what verifying the original bytes gives, on every manifest case and fuzz regression.
@Suite("GnuTLS detached import")
struct GnuTLSDetachedImportTests {
    let backend = GnuTLSBackend()

    @Test("GnuTLS imports the detached copy of every canonical fixture it imports", arguments: DetachedSignedDataTests.canonicalInputs)
    func importsEveryCanonicalFixtureDetached(input: DetachedSignedDataTests.Input) throws {
        let attached = Result { () throws(ReceiptValidationError) in try GnuTLSImportedSignedData(input.bytes, envelope: nil) }
        let imported = Result { () throws(ReceiptValidationError) in try GnuTLSImportedSignedData(input.bytes, envelope: SignedDataEnvelope(input.bytes)) }
        switch (attached, imported) {
        case (.success(let original), .success(let imported)):
            #expect(original.detached == nil)
            let detached = try #require(imported.detached, "GnuTLS refused the detached copy of \(input.path)")
            #expect(detached.der == DetachedSignedData(input.bytes, omitting: { _ in false })?.der)
        case (.failure(let original), .failure(let imported)):
            // Damage GnuTLS's decoder refuses (the validator's structure rules reject it first) stays refused.
            #expect(original == imported)
        default:
            Issue.record("\(input.path): attached \(attached) vs detached \(imported)")
        }
    }

    @Test("BER and other shapes are imported as given")
    func nonCanonicalInputIsImportedAsGiven() throws {
        let ber = try BackendFixtures.bytes("generated/receipts/valid-sha256-attrs-ber.receipt")
        #expect(try GnuTLSImportedSignedData(ber, envelope: SignedDataEnvelope(ber)).detached == nil)
    }

    @Test("detached and attached verification agree on every manifest case", arguments: DetachedSignedDataTests.manifestCases)
    func detachedAndAttachedAgree(testCase: ConformanceCase) throws {
        guard let input = DetachedSignedDataTests.inputs.first(where: { $0.path == testCase.file }) else { return }
        let store = try DetachedSignedDataTests.store(for: testCase, backend: backend)
        try expectSameOutcome(input.bytes, store: store, name: testCase.name)
    }

    @Test("detached and attached verification agree on fuzz regressions and damaged canonical receipts")
    func detachedAndAttachedAgreeOnDamage() throws {
        let store = try backend.makeTrustStore(anchors: [try BackendFixtures.certificate("generated/pki/root.cer", with: backend)])
        for input in DetachedSignedDataTests.inputs where input.path.hasPrefix("fuzz-regressions/") {
            try expectSameOutcome(input.bytes, store: store, name: input.path)
        }
        // One flipped bit at every 97th byte of two generated receipts (with and without signed
        // attributes): framing, certificates, signer info and content damage alike.
        for path in ["generated/receipts/valid-sha256-noattr.receipt", "generated/receipts/valid-sha1-attrs.receipt"] {
            let bytes = try BackendFixtures.bytes(path)
            for offset in stride(from: 0, to: bytes.count, by: 97) {
                var damaged = bytes
                damaged[offset] ^= 0x04
                try expectSameOutcome(damaged, store: store, name: "\(path) @\(offset)")
            }
        }
    }

    /// Verifies `bytes` both ways and expects the same value or the same error.
    private func expectSameOutcome(_ bytes: [UInt8], store: any TrustStore, name: String) throws {
        let detached = Result { () throws(ReceiptValidationError) in
            try backend.verifySignedData(bytes, content: nil, envelope: SignedDataEnvelope(bytes), ranges: nil, trustStore: store)
        }
        let attached = Result { () throws(ReceiptValidationError) in
            try backend.verifySignedData(bytes, content: nil, envelope: nil, ranges: nil, trustStore: store)
        }
        switch (detached, attached) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(name)")
        case (.failure(let a), .failure(let b)):
            #expect(a.code == b.code, "\(name): \(a) vs \(b)")
            #expect(a.message == b.message, "\(name)")
            #expect(a.libraryMessage == b.libraryMessage, "\(name)")
        default:
            Issue.record("\(name): detached \(detached) vs attached \(attached)")
        }
    }
}
#endif
