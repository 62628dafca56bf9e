import Foundation
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// `SignedDataEnvelope(structure:)`, the envelope the validator takes from the structure checks'
/// reading instead of reading the input a second time, equals `SignedDataEnvelope(bytes)` — the same
/// ranges, or `nil` both — for every fixture the checks accept and for single-bit mutations of the
/// headers around them (BER lengths, other tags, crls, unsigned attributes, NULL parameters …).
@Suite struct SignedDataEnvelopeFromStructureTests {
    /// Every file under `Fixtures/` (raw, and base64-decoded when it is text) that is not JWS.
    static let inputs: [(name: String, bytes: [UInt8])] = {
        let root = Fixtures.directory
        var found: [(String, [UInt8])] = []
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        for case let url as URL in walker {
            let path = url.path.replacingOccurrences(of: root.path + "/", with: "")
            guard !path.hasPrefix("jws"), !path.hasPrefix("real-jws"), let data = try? Data(contentsOf: url), !data.isEmpty else {
                continue
            }
            found.append((path, Array(data)))
            if let decoded = Data(base64Encoded: data, options: .ignoreUnknownCharacters), !decoded.isEmpty {
                found.append((path + " (base64)", Array(decoded)))
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }()

    private static func structure(_ bytes: [UInt8]) -> SignedDataStructure? {
        try? SignedDataStructure(checking: bytes)
    }

    @Test func agreesOnEveryFixtureTheChecksAccept() {
        var accepted = 0
        var withEnvelope = 0
        for input in Self.inputs {
            guard let structure = Self.structure(input.bytes) else { continue }
            accepted += 1
            let read = SignedDataEnvelope(input.bytes)
            if read != nil { withEnvelope += 1 }
            #expect(SignedDataEnvelope(structure: structure) == read, "\(input.name)")
        }
        // Both kinds are present: canonical DER receipts and others (BER, other shapes).
        #expect(withEnvelope > 20)
        #expect(accepted > withEnvelope)
    }

    /// The offsets worth mutating in a canonical `bytes`: every identifier and length octet of the
    /// ContentInfo, SignedData and SignerInfo skeleton (certificates and the content are not
    /// descended into) and the content octets of its small primitives (versions, OIDs, NULLs).
    static func skeletonOffsets(_ bytes: [UInt8]) -> [Int] {
        bytes.withUnsafeBufferPointer { pointer -> [Int] in
            let cursor = DERCursor(pointer)
            var offsets: [Int] = []
            func visit(_ element: DERCursor.Element, depth: Int) {
                offsets += Array(element.start..<element.contentStart)
                if element.tag & 0x20 == 0 {
                    if element.end - element.contentStart <= 16 { offsets += Array(element.contentStart..<element.end) }
                    return
                }
                // The certificates field ([0] at depth 3) is not descended into.
                guard depth < 8, !(depth == 3 && element.tag == 0xA0 && element.end - element.contentStart > 200),
                      let children = cursor.children(of: element)
                else { return }
                for child in children { visit(child, depth: depth + 1) }
            }
            if let root = cursor.element(at: 0, within: pointer.count) { visit(root, depth: 0) }
            return offsets
        }
    }

    /// One bit flipped (0x01, 0x20, 0x80) in every skeleton octet (``skeletonOffsets(_:)``) of every
    /// canonical input of at most 8 KiB: other tags, BER or wrong lengths, other OIDs, parameters.
    /// Wherever the checks still accept the bytes, both readings agree.
    @Test func agreesOnMutatedHeaders() {
        var compared = 0
        var nilBoth = 0
        // Every skeleton position in the plain runs; a sample of them under the sanitizers'
        // divisor (TestIterations), a different one for each input.
        for (index, input) in Self.inputs.enumerated() where input.bytes.count <= 8192 && SignedDataEnvelope(input.bytes) != nil {
            for position in TestIterations.sample(Self.skeletonOffsets(input.bytes), offset: index) {
                for mask: UInt8 in [0x01, 0x20, 0x80] {
                    var mutated = input.bytes
                    mutated[position] ^= mask
                    guard let structure = Self.structure(mutated) else { continue }
                    let read = SignedDataEnvelope(mutated)
                    if read == nil { nilBoth += 1 }
                    compared += 1
                    #expect(SignedDataEnvelope(structure: structure) == read, "\(input.name) @\(position) ^ \(mask)")
                }
            }
        }
        #expect(compared > TestIterations.sampled(200), "\(compared) compared")
        // Some mutations leave accepted bytes outside the canonical shape: the `nil` side is exercised.
        #expect(nilBoth > 0, "\(nilBoth) outside the shape")
    }
}
