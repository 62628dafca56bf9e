import Foundation
@testable import ReceiptCore
import Testing

/// The base64 decoder (four symbols at a time, then symbol by symbol) against Foundation's on
/// standard text, and against its own rules on the text Foundation refuses.
@Suite("Base64")
struct Base64Tests {
    /// Bytes of every length 0–130, from a fixed sequence (every byte value occurs).
    static let samples: [[UInt8]] = (0...130).map { length in
        (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ length &* 7) }
    }

    @Test("standard base64 of every length decodes to the bytes Foundation decodes")
    func standard() throws {
        for bytes in Self.samples {
            let text = Data(bytes).base64EncodedString()
            #expect(Base64.decode(Array(text.utf8)) == bytes, "\(text)")
            #expect(try #require(Data(base64Encoded: text)) == Data(bytes))
        }
    }

    @Test("URL-safe symbols, missing padding, whitespace anywhere: the same bytes")
    func tolerated() {
        for bytes in Self.samples {
            let text = Data(bytes).base64EncodedString()
            let urlSafe = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            #expect(Base64.decode(Array(urlSafe.utf8)) == bytes)
            let unpadded = text.replacingOccurrences(of: "=", with: "")
            #expect(Base64.decode(Array(unpadded.utf8)) == bytes)
            // A space, a newline or a tab after every fifth symbol, in the first group or a later one.
            var spaced: [UInt8] = []
            for (index, symbol) in text.utf8.enumerated() {
                spaced.append(symbol)
                if index % 5 == 1 { spaced.append([0x20, 0x0A, 0x09, 0x0D][index % 4]) }
            }
            #expect(Base64.decode(spaced) == bytes)
        }
    }

    @Test("refused: a foreign byte in a whole group or after it, data after padding, a lone symbol, three =")
    func refused() {
        let text = Array(Data(Self.samples[60]).base64EncodedString().utf8)
        for position in [0, 3, 4, 41, text.count - 1] {
            for foreign: UInt8 in [0x00, 0x21, 0x2E, 0x7F, 0x80, 0xFF] {
                var bad = text
                bad[position] = foreign
                #expect(Base64.decode(bad) == nil, "byte \(foreign) at \(position)")
            }
        }
        #expect(Base64.decode(Array("QUJD=QUJD".utf8)) == nil)
        #expect(Base64.decode(Array("QUJDR".utf8)) == nil)
        #expect(Base64.decode(Array("QQ===".utf8)) == nil)
        #expect(Base64.decode(Array("QQ=".utf8)) == nil)
        #expect(Base64.decode(Array("QQ==".utf8)) == [0x41])
        #expect(Base64.decode([UInt8]()) == [])
    }

    @Test("a non-contiguous collection decodes as its array does")
    func nonContiguous() {
        let text = Data(Self.samples[100]).base64EncodedString()
        #expect(Base64.decode(text.utf8) == Self.samples[100])
    }
}
