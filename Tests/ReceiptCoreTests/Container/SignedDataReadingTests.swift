import Foundation
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// ``SignedDataReading`` continuing the envelope's strict DER reading (taking the headers it
/// noted, ``DecodedHeaders``) builds exactly the tree the plain reading builds — every node's
/// tag, offsets and children, or the same error at the same offset — takes every header the
/// envelope noted and decodes none of them again; and the container inspected from a reading
/// is the container read from the bytes. Over every fixture and one-bit mutations of the
/// skeleton headers of the canonical ones (inputs in and out of the canonical shape, BER, cut
/// short, refused).
@Suite struct SignedDataReadingTests {
    private static func same(_ a: BERNode, _ b: BERNode) -> Bool {
        a.tagClass == b.tagClass && a.isConstructed == b.isConstructed && a.tagNumber == b.tagNumber && a.offset == b.offset
            && a.contentStart == b.contentStart && a.contentEnd == b.contentEnd && a.end == b.end
            && a.isIndefiniteLength == b.isIndefiniteLength && a.children.count == b.children.count
            && zip(a.children, b.children).allSatisfy { same($0, $1) }
    }

    /// Compares the two readings of `bytes`; returns whether the envelope noted any header.
    @discardableResult
    private static func compare(_ bytes: [UInt8], _ name: String) -> Bool {
        var noted = DecodedHeaders()
        _ = SignedDataEnvelope.read(bytes, noting: &noted)
        let plain = SignedDataReading(bytes)
        let continued = SignedDataReading(bytes, continuing: noted)
        #expect(continued.reader.redecodedHeaders == 0, "\(name)")
        #expect(plain.reader.sawNonDER == continued.reader.sawNonDER, "\(name)")
        #expect(plain.reader.nodeCount == continued.reader.nodeCount, "\(name)")
        switch (plain.root, continued.root) {
        case (nil, nil):
            break
        case (.success(let a)?, .success(let b)?):
            #expect(same(a, b), "\(name): trees differ")
            #expect(continued.reader.takenHeaders == noted.elements.count, "\(name): \(continued.reader.takenHeaders) of \(noted.elements.count) taken")
        case (.failure(let a)?, .failure(let b)?):
            #expect(a.offset == b.offset && a.reason == b.reason, "\(name): \(a) vs \(b)")
        default:
            Issue.record("\(name): one reading failed, the other did not")
        }
        // The inspection of a refused input reads the container from the reading.
        let fromBytes = Result { () throws(ReceiptValidationError) in try PKCS7Container(bytes: bytes) }
        for reading in [plain, continued] {
            let fromReading = Result { () throws(ReceiptValidationError) in try PKCS7Container(reading: reading) }
            switch (fromBytes, fromReading) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(name)")
            case (.failure(let a), .failure(let b)): #expect(a.code == b.code && a.offset == b.offset, "\(name)")
            default: Issue.record("\(name): the container read from the bytes and from the reading differ")
            }
        }
        // The structure checks give the same answer on either reading.
        let checked = Result { () throws(ReceiptValidationError) in try SignedDataStructure(checking: plain) }
        let checkedContinued = Result { () throws(ReceiptValidationError) in try SignedDataStructure(checking: continued) }
        switch (checked, checkedContinued) {
        case (.success(let a), .success(let b)): #expect(a.certificates == b.certificates && a.signerCertificate == b.signerCertificate, "\(name)")
        case (.failure(let a), .failure(let b)): #expect(a.code == b.code && a.offset == b.offset, "\(name)")
        default: Issue.record("\(name): the structure checks differ between the readings")
        }
        return !noted.elements.isEmpty
    }

    @Test func continuingTheEnvelopeBuildsTheSameTreeOnEveryFixture() {
        var noting = 0
        for input in SignedDataEnvelopeFromStructureTests.inputs where Self.compare(input.bytes, input.name) {
            noting += 1
        }
        #expect(noting > 40, "\(noting) inputs with noted headers")
    }

    @Test func continuingTheEnvelopeBuildsTheSameTreeOnMutatedHeaders() {
        var compared = 0
        // Every third canonical input of at most 8 KiB (real and generated, SHA-1 and SHA-256,
        // with and without signed attributes), to keep the run short.
        let canonical = SignedDataEnvelopeFromStructureTests.inputs.filter { $0.bytes.count <= 8192 && SignedDataEnvelope($0.bytes) != nil }
        // Every skeleton position in the plain runs; a sample of them under the sanitizers'
        // divisor (TestIterations), a different one for each input: the offsets 0, 3, 6, …
        // reach every residue of the divisor 8, as 3 and 8 share no factor.
        for (index, input) in canonical.enumerated() where index % 3 == 0 {
            for position in TestIterations.sample(SignedDataEnvelopeFromStructureTests.skeletonOffsets(input.bytes), offset: index) {
                for mask: UInt8 in [0x01, 0x20, 0x80] {
                    var mutated = input.bytes
                    mutated[position] ^= mask
                    Self.compare(mutated, "\(input.name) @\(position) ^ \(mask)")
                    compared += 1
                }
            }
            // Cut short inside the skeleton.
            for length in stride(from: 1, to: min(input.bytes.count, 200), by: 7) {
                Self.compare(Array(input.bytes.prefix(length)), "\(input.name) first \(length)")
            }
        }
        #expect(compared > TestIterations.sampled(500), "\(compared) compared")
    }
}
