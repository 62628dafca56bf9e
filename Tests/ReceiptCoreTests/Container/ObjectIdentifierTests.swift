import Testing
@testable import ReceiptCore
import ReceiptTestSupport

@Suite struct ObjectIdentifierTests {
    /// Each shortcut of the known table is what the general decoder gives for those octets.
    @Test func knownTableMatchesTheGeneralDecoder() {
        for (octets, dotted) in KnownObjectIdentifier.table {
            var general = octets
            general.append(0x01)  // not in the table: decoded in full, then the last arc dropped
            let decoded = decodeObjectIdentifier(general[...])
            #expect(decoded == dotted + ".1", "\(dotted)")
            #expect(decodeObjectIdentifier(octets[...]) == dotted)
        }
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
