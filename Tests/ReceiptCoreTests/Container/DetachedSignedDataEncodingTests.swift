import Foundation
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// `DetachedSignedData`: the re-encoding the backends verify instead of a canonical envelope keeps
/// everything a signature covers byte for byte, detaches the content and leaves out exactly the
/// certificates asked for.
@Suite struct DetachedSignedDataEncodingTests {
    /// The strict DER parts of a signedData: (head, encapContentInfo TLV, certificates field content
    /// or nil, signerInfos TLV), or nil when `der` is not strict DER in that shape.
    private static func parts(_ der: [UInt8]) -> (head: [UInt8], encapsulated: [UInt8], certificates: [UInt8]?, signerInfos: [UInt8])? {
        der.withUnsafeBufferPointer { pointer in
            let cursor = DERCursor(pointer)
            guard let contentInfo = cursor.element(at: 0, within: pointer.count), contentInfo.tag == 0x30,
                  contentInfo.end == pointer.count,
                  let type = cursor.element(at: contentInfo.contentStart, within: contentInfo.end),
                  cursor.equals(type.whole, SignedDataEnvelope.signedDataOID),
                  let explicit = cursor.element(at: type.end, within: contentInfo.end), explicit.tag == 0xA0,
                  explicit.end == contentInfo.end,
                  let signedData = cursor.element(at: explicit.contentStart, within: explicit.end), signedData.tag == 0x30,
                  signedData.end == explicit.end,
                  let version = cursor.element(at: signedData.contentStart, within: signedData.end),
                  let algorithms = cursor.element(at: version.end, within: signedData.end),
                  let encapsulated = cursor.element(at: algorithms.end, within: signedData.end), encapsulated.tag == 0x30,
                  var next = cursor.element(at: encapsulated.end, within: signedData.end)
            else { return nil }
            var certificates: [UInt8]?
            if next.tag == 0xA0 {
                certificates = Array(pointer[next.contentStart..<next.end])
                guard let following = cursor.element(at: next.end, within: signedData.end) else { return nil }
                next = following
            }
            guard next.tag == 0x31, next.end == signedData.end else { return nil }
            return (
                Array(pointer[version.start..<algorithms.end]), Array(pointer[encapsulated.whole]), certificates,
                Array(pointer[next.whole])
            )
        }
    }

    /// The embedded certificates of a canonical envelope, as byte ranges.
    private static func certificateRanges(_ der: [UInt8]) -> [Range<Int>] {
        guard let envelope = SignedDataEnvelope(der) else { return [] }
        return der.withUnsafeBufferPointer { pointer in
            let cursor = DERCursor(pointer)
            var ranges: [Range<Int>] = []
            var position = envelope.certificates.lowerBound
            while position < envelope.certificates.upperBound,
                  let element = cursor.element(at: position, within: envelope.certificates.upperBound) {
                ranges.append(element.whole)
                position = element.end
            }
            return ranges
        }
    }

    @Test func canonicalRealReceiptsAreReencoded() throws {
        let canonical = try Fixtures.receiptNames.filter { SignedDataEnvelope(try Fixtures.receipt($0)) != nil }
        // The Apple-signed production and sandbox receipts are strict DER; the Xcode ones are BER.
        #expect(canonical.count >= 15)
    }

    @Test(arguments: Fixtures.receiptNames)
    func keepsWhatTheSignatureCoversAndLeavesOutWhatWasAsked(_ name: String) throws {
        let der = try Fixtures.receipt(name)
        guard let envelope = SignedDataEnvelope(der) else {
            #expect(DetachedSignedData(der, omitting: { _ in false }) == nil)
            return
        }
        let certificates = Self.certificateRanges(der)
        try #require(certificates.count >= 1)
        guard let original = Self.parts(der) else {
            Issue.record("the canonical envelope of \(name) does not read as strict DER")
            return
        }
        // Leave out every other certificate, starting with the first: each choice must hold.
        for omitFirst in [true, false] {
            let omitted = certificates.enumerated().filter { ($0.offset % 2 == 0) == omitFirst }.map(\.element)
            let detached = try #require(DetachedSignedData(der, omitting: { omitted.contains($0) }))
            #expect(detached.omittedCertificates == omitted)
            #expect(detached.content == envelope.content)
            #expect(detached.der.count < der.count)
            let parts = try #require(Self.parts(detached.der))
            #expect(parts.head == original.head)
            #expect(parts.signerInfos == original.signerInfos)
            #expect(parts.encapsulated == [0x30, 0x0B] + SignedDataEnvelope.dataOID)
            let kept = certificates.filter { !omitted.contains($0) }.flatMap { Array(der[$0]) }
            #expect((parts.certificates ?? []) == kept)
            #expect((parts.certificates == nil) == kept.isEmpty)
            // The detached copy is a well-formed signedData without content.
            #expect(throws: ReceiptValidationError.self) { try SignedDataStructure(checking: detached.der) }
            do {
                _ = try SignedDataStructure(checking: detached.der)
            } catch {
                #expect(error.code == .notSigned || (kept.isEmpty && error.code == .untrustedChain))
            }
        }
    }

    /// With the certificate ranges the validator knows from its rebuild, the re-encoding is the one
    /// read from the bytes; ranges that do not tile the certificates field are not believed.
    @Test(arguments: Fixtures.receiptNames)
    func knownCertificateRangesGiveTheSameReencoding(_ name: String) throws {
        let bytes = try Fixtures.receipt(name)
        let structure = try SignedDataStructure(checking: bytes)
        let canonical = try structure.canonical(certificates: structure.certificates)
        let envelope = try #require(canonical.envelope)
        let first = try #require(canonical.ranges.certificates.first)
        let omitFirst = { (range: Range<Int>) in range == first }
        let read = try #require(DetachedSignedData(canonical.der, envelope: envelope, omitting: omitFirst))
        let known = try #require(DetachedSignedData(
            canonical.der, envelope: envelope, certificates: canonical.ranges.certificates, omitting: omitFirst))
        #expect(known.der == read.der)
        #expect(known.omittedCertificates == read.omittedCertificates)
        #expect(known.omittedCertificates == [first])
        // A gap in the ranges: read from the bytes instead.
        let broken = [first.lowerBound..<(first.upperBound - 1)] + canonical.ranges.certificates.dropFirst()
        let fallback = try #require(DetachedSignedData(canonical.der, envelope: envelope, certificates: broken, omitting: omitFirst))
        #expect(fallback.der == read.der)
    }

    @Test func refusesWhatIsNotCanonical() throws {
        let name = try #require(Fixtures.receiptNames.first { (try? SignedDataEnvelope(Fixtures.receipt($0))) != nil })
        let der = try Fixtures.receipt(name)
        #expect(DetachedSignedData(der + [0x00], omitting: { _ in false }) == nil)
        #expect(DetachedSignedData(Array(der.dropLast()), omitting: { _ in false }) == nil)
        #expect(DetachedSignedData([], omitting: { _ in false }) == nil)
    }
}
