import Testing
@testable import ReceiptCore
import ReceiptTestSupport

@Suite struct ObjectIdentifierTests {
    /// Each catalogue entry is one well-formed OID whose three forms agree, no OID is listed twice,
    /// and decoding its octets gives the general decoder's answer.
    @Test func catalogueFormsAgree() {
        for known in KnownObjectIdentifier.all {
            #expect(CertificateStructure.isObjectIdentifier(known.content), "\(known.dotted)")
            #expect(known.tlv == [0x06, UInt8(known.content.count)] + known.content)
            #expect(!known.dotted.isEmpty && known.dotted == dottedObjectIdentifier(known.content[...]))
            #expect(decodeObjectIdentifier(known.content[...]) == known.dotted)
            var general = known.content
            general.append(0x01)  // not in the catalogue: decoded in full
            #expect(decodeObjectIdentifier(general[...]) == known.dotted + ".1", "\(known.dotted)")
        }
        #expect(Set(KnownObjectIdentifier.all.map(\.dotted)).count == KnownObjectIdentifier.all.count)
        #expect(KnownObjectIdentifier.sha256.dotted == "2.16.840.1.101.3.4.2.1")
        #expect(KnownObjectIdentifier.appleLeafMarker.dotted == "1.2.840.113635.100.6.11.1")
    }

    /// The validity check agrees with the decoder on every short byte string.
    @Test func validityAgreesWithTheDecoder() {
        var generator = SplitMix64(state: 0x0106)
        let interesting: [UInt8] = [0x00, 0x01, 0x2A, 0x7F, 0x80, 0x81, 0x86, 0xFF]
        for length in 0...12 {
            for _ in 0..<2_000 {
                let content = (0..<length).map { _ in interesting[Int(generator.next() % UInt64(interesting.count))] }
                #expect(CertificateStructure.isObjectIdentifier(content) == (decodeObjectIdentifier(content[...]) != nil), "\(content)")
            }
        }
        let long = [UInt8](repeating: 0x01, count: 129)
        #expect(!CertificateStructure.isObjectIdentifier(long) && decodeObjectIdentifier(long[...]) == nil)
    }
}
