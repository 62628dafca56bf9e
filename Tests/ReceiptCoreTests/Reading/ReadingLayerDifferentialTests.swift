import ReceiptTestSupport
import Testing
@testable import ReceiptCore

/// The readers that used to decode their own TLV headers (`ASN1Value.decode`, `StrictValueReader`,
/// `ECDSASignature.raw(fromDER:)`) now read them through ``BERReader`` and ``DERCursor``. Each
/// test keeps the former hand-written reader as a reference and checks, over a deterministic corpus
/// of well-formed, mutated and truncated encodings, that the reading layer accepts and refuses
/// exactly what it did and gives the same values.
@Suite struct ReadingLayerDifferentialTests {
    /// A deterministic generator (SplitMix64), so a failure names a reproducible case.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// One TLV with a chosen identifier and one of the length forms BER allows or refuses, then
    /// sometimes mutated or truncated.
    static func value(_ random: inout Generator) -> [UInt8] {
        let tags: [UInt8] = [0x02, 0x0C, 0x13, 0x16, 0x1A, 0x04, 0x1F, 0x2C, 0x30, 0x31, 0x80, 0xA0, 0x3F, 0x22]
        let tag = tags.randomElement(using: &random) ?? 0x02
        let length = Int.random(in: 0...300, using: &random) < 260 ? Int.random(in: 0...12, using: &random) : Int.random(in: 0...300, using: &random)
        var content = (0..<length).map { _ in
            Bool.random(using: &random) ? UInt8.random(in: 0x20...0x7E, using: &random) : UInt8.random(in: 0...255, using: &random)
        }
        if tag == 0x1F || tag == 0x3F { content.insert(UInt8.random(in: 0...255, using: &random), at: 0) }
        var header: [UInt8]
        switch Int.random(in: 0...7, using: &random) {
        case 0, 1, 2: header = length < 0x80 ? [UInt8(length)] : [0x81, UInt8(truncatingIfNeeded: length)]
        case 3: header = [0x81, UInt8(truncatingIfNeeded: length)]
        case 4: header = [0x82, UInt8(length >> 8), UInt8(truncatingIfNeeded: length)]
        case 5: header = [0x84, 0, 0, UInt8(length >> 8), UInt8(truncatingIfNeeded: length)]
        case 6: header = [[0x80, 0xFF, 0x85, 0x83][Int.random(in: 0...3, using: &random)]]
        default: header = [UInt8(truncatingIfNeeded: length &+ Int.random(in: -2...2, using: &random))]
        }
        var bytes = [tag] + header + content
        if Int.random(in: 0...9, using: &random) == 0, !bytes.isEmpty {
            bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        }
        if Int.random(in: 0...9, using: &random) == 0 { bytes.removeLast(min(bytes.count, Int.random(in: 0...3, using: &random))) }
        return bytes
    }

    /// The former `ASN1Value.decode`, reduced to its answer: a string, an integer, a large integer,
    /// or neither (another TLV or an error).
    enum Answer: Equatable {
        case string(String), integer(Int64), largeInteger([UInt8]), neither
    }

    static func formerDecode(_ bytes: ArraySlice<UInt8>) -> Answer {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return .neither }
        let tag = bytes[start]
        let lengthOctet = bytes[start + 1]
        var contentStart = start + 2
        var length: Int
        if lengthOctet < 0x80 {
            length = Int(lengthOctet)
        } else {
            let count = Int(lengthOctet & 0x7F)
            guard count >= 1, count <= 4, bytes.count - 2 >= count else { return .neither }
            length = 0
            for index in 0..<count { length = (length << 8) | Int(bytes[contentStart + index]) }
            contentStart += count
        }
        guard length == bytes.endIndex - contentStart else { return .neither }
        let content = bytes[contentStart...]
        switch tag {
        case 0x0C:
            guard let text = String(validating: content, as: UTF8.self) else { return .neither }
            return .string(text)
        case 0x16, 0x13, 0x1A:
            guard content.allSatisfy({ $0 < 0x80 }) else { return .neither }
            return .string(String(decoding: content, as: UTF8.self))
        case 0x02:
            guard !content.isEmpty else { return .neither }
            if let number = ASN1Integer.decode(content) { return .integer(number) }
            return .largeInteger(Array(content))
        default:
            return .neither
        }
    }

    static func answer(_ bytes: ArraySlice<UInt8>) -> Answer {
        switch try? ASN1Value.decode(bytes) {
        case .string(let text)?: .string(text)
        case .integer(let number)?: .integer(number)
        case .largeInteger(let octets)?: .largeInteger(octets)
        default: .neither
        }
    }

    @Test func attributeValuesDecodeAsTheFormerReaderDecodedThem() {
        var random = Generator(state: 29)
        var accepted = 0
        for _ in 0..<TestIterations.count(40_000) {
            let bytes = Self.value(&random)
            // Inside a larger buffer, so slice offsets are exercised too.
            let padded = [0xEE] + bytes + [0xEE]
            let slice = padded[1..<(padded.count - 1)]
            let former = Self.formerDecode(slice)
            #expect(Self.answer(slice) == former, "value \(bytes)")
            if former != .neither { accepted += 1 }
        }
        #expect(accepted > TestIterations.scaled(3_000, of: 40_000), "the corpus must hold many accepted values, not only refusals")
    }

    static func formerShortString(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> Range<Int>? {
        guard value.count >= 2 else { return nil }
        let tag = bytes[value.lowerBound]
        guard tag == 0x0C || tag == 0x16 || tag == 0x13 || tag == 0x1A else { return nil }
        let length = Int(bytes[value.lowerBound &+ 1])
        guard length < 0x80, length == value.count &- 2 else { return nil }
        return (value.lowerBound + 2)..<value.upperBound
    }

    static func formerInteger(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> Int64? {
        guard value.count >= 3, bytes[value.lowerBound] == 0x02 else { return nil }
        let length = Int(bytes[value.lowerBound &+ 1])
        guard length >= 1, length <= 8, length == value.count &- 2 else { return nil }
        let start = value.lowerBound &+ 2
        var number: UInt64 = bytes[start] & 0x80 != 0 ? UInt64.max : 0
        for index in start..<value.upperBound { number = (number << 8) | UInt64(bytes[index]) }
        return Int64(bitPattern: number)
    }

    @Test func strictValueReadsMatchTheFormerReader() {
        var random = Generator(state: 2_029)
        var strings = 0
        var integers = 0
        for _ in 0..<TestIterations.count(40_000) {
            let bytes = [0x30] + Self.value(&random) + [0x00]
            let value = 1..<(bytes.count - 1)
            bytes.withUnsafeBufferPointer { pointer in
                let string = StrictValueReader.shortString(pointer, value)
                #expect(string == Self.formerShortString(pointer, value), "value \(bytes)")
                let integer = StrictValueReader.integer(pointer, value)
                #expect(integer == Self.formerInteger(pointer, value), "value \(bytes)")
                if string != nil { strings += 1 }
                if integer != nil { integers += 1 }
            }
        }
        #expect(strings > TestIterations.scaled(1_000, of: 40_000) && integers > TestIterations.scaled(500, of: 40_000))
    }

    /// The former `ECDSASignature.raw(fromDER:)` element reader.
    static func formerRaw(_ der: ArraySlice<UInt8>, width: Int) -> [UInt8]? {
        func read(_ bytes: ArraySlice<UInt8>, _ position: inout Int) -> (tag: UInt8, content: ArraySlice<UInt8>)? {
            guard bytes.endIndex - position >= 2 else { return nil }
            let tag = bytes[position]
            var length = Int(bytes[position + 1])
            var start = position + 2
            if length == 0x81 {
                guard start < bytes.endIndex, bytes[start] >= 0x80 else { return nil }
                length = Int(bytes[start])
                start += 1
            } else if length >= 0x80 {
                return nil
            }
            guard bytes.endIndex - start >= length else { return nil }
            position = start + length
            return (tag, bytes[start..<(start + length)])
        }
        func magnitude(_ content: ArraySlice<UInt8>) -> [UInt8]? {
            guard let first = content.first, first < 0x80 else { return nil }
            var digits = content
            if first == 0 {
                guard content.count >= 2, content[content.startIndex + 1] >= 0x80 else { return nil }
                digits = content.dropFirst()
            }
            guard digits.count <= width else { return nil }
            return [UInt8](repeating: 0, count: width - digits.count) + digits
        }
        var position = der.startIndex
        guard let sequence = read(der, &position), sequence.tag == 0x30, position == der.endIndex else { return nil }
        var inner = sequence.content.startIndex
        guard let r = read(sequence.content, &inner), r.tag == 0x02,
              let s = read(sequence.content, &inner), s.tag == 0x02, inner == sequence.content.endIndex,
              let rBytes = magnitude(r.content), let sBytes = magnitude(s.content)
        else { return nil }
        return rBytes + sBytes
    }

    @Test func ecdsaSignaturesConvertAsTheFormerReaderConvertedThem() {
        var random = Generator(state: 31)
        var accepted = 0
        for _ in 0..<TestIterations.count(20_000) {
            let width = [32, 48, 66][Int.random(in: 0...2, using: &random)]
            let raw = (0..<(2 * width)).map { _ in UInt8.random(in: 0...255, using: &random) }
            var der = ECDSASignature.der(fromRaw: raw[...]) ?? []
            switch Int.random(in: 0...5, using: &random) {
            case 0: break
            case 1: if !der.isEmpty { der[Int.random(in: 0..<der.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
            case 2: der.removeLast(min(der.count, Int.random(in: 1...3, using: &random)))
            case 3: der.append(UInt8.random(in: 0...255, using: &random))
            case 4: if der.count > 2 { der[1] = [0x80, 0x81, 0x82, 0x83, 0xFF][Int.random(in: 0...4, using: &random)] }
            default: if der.count > 3 { der.insert(0x81, at: 1) }
            }
            let padded = [0x55] + der
            let slice = padded[1...]
            let former = Self.formerRaw(slice, width: width)
            #expect(ECDSASignature.raw(fromDER: slice, width: width) == former, "signature \(der)")
            if former != nil { accepted += 1 }
        }
        #expect(accepted > TestIterations.scaled(3_000, of: 20_000))
    }

    /// The eight-octet receipt attribute head the strict lane compares in one load is the one the
    /// named tags spell: `SEQUENCE L INTEGER 2 t t INTEGER 1`.
    @Test func attributeHeadIsSpelledByTheNamedTags() {
        let octets: [UInt8] = [ASN1Tag.sequence.octet, 0, ASN1Tag.integer.octet, 2, 0, 0, ASN1Tag.integer.octet, 1]
        let value = octets.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        #expect(value == DERCursor.attributeHead)
        #expect(DERCursor.attributeHead & ~DERCursor.attributeHeadMask == 0)
    }

    /// ``DERCursor/shortElement(at:within:)`` reads what ``DERCursor/element(at:within:)`` reads
    /// for every short-form header, and ``DERCursor/length(at:within:)``'s unrolled forms agree
    /// with the loop it replaced.
    @Test func strictReadersAgreeOnEveryHeader() {
        var random = Generator(state: 7)
        for _ in 0..<TestIterations.count(20_000) {
            let bytes = Self.value(&random) + (0..<Int.random(in: 0...3, using: &random)).map { _ in 0 }
            bytes.withUnsafeBufferPointer { pointer in
                let cursor = DERCursor(pointer)
                let limit = Int.random(in: 0...pointer.count, using: &random)
                let full = cursor.element(at: 0, within: limit)
                if let short = cursor.shortElement(at: 0, within: limit), short.tag & 0x1F != 0x1F {
                    #expect(full?.tag == short.tag && full?.contentStart == short.contentStart && full?.end == short.end)
                }
                #expect(full.map { [$0.contentStart, $0.end] } == Self.formerElement(pointer, limit), "header \(bytes)")
            }
        }
    }

    /// The former `DERCursor.element`, as content start and end.
    static func formerElement(_ bytes: UnsafeBufferPointer<UInt8>, _ limit: Int) -> [Int]? {
        guard limit <= bytes.count, 0 < limit, limit >= 2 else { return nil }
        guard bytes[0] & 0x1F != 0x1F else { return nil }
        let first = bytes[1]
        var cursor = 2
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count >= 1, count <= 4, limit - cursor >= count, bytes[cursor] != 0 else { return nil }
            for _ in 0..<count {
                length = (length << 8) | Int(bytes[cursor])
                cursor += 1
            }
            guard length >= 0x80 else { return nil }
        }
        guard length <= limit - cursor else { return nil }
        return [cursor, cursor + length]
    }

    /// The former `dottedObjectIdentifier` (and, by its acceptance, `isObjectIdentifier`).
    static func formerDotted(_ content: ArraySlice<UInt8>) -> String? {
        guard !content.isEmpty, content.count <= 128 else { return nil }
        var components: [UInt64] = []
        var value: UInt64 = 0
        var octets = 0
        for byte in content {
            if octets == 0, byte == 0x80 { return nil }
            octets += 1
            guard octets <= 9 else { return nil }
            value = (value << 7) | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                components.append(value)
                value = 0
                octets = 0
            }
        }
        guard octets == 0, let first = components.first else { return nil }
        let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        return (head + components.dropFirst()).map(String.init).joined(separator: ".")
    }

    @Test func objectIdentifiersReadAsTheFormerDecoderReadThem() {
        var random = Generator(state: 1_729)
        var accepted = 0
        for _ in 0..<TestIterations.count(20_000) {
            let count = Int.random(in: 0...12, using: &random) == 0 ? Int.random(in: 120...140, using: &random) : Int.random(in: 0...14, using: &random)
            let content = (0..<count).map { _ in
                Bool.random(using: &random) ? UInt8.random(in: 0...0x7F, using: &random) : UInt8.random(in: 0x80...0xFF, using: &random)
            }[...]
            let former = Self.formerDotted(content)
            #expect(dottedObjectIdentifier(content) == former, "content \(Array(content))")
            #expect(CertificateStructure.isObjectIdentifier(content) == (former != nil), "content \(Array(content))")
            if former != nil { accepted += 1 }
        }
        #expect(accepted > TestIterations.scaled(2_000, of: 20_000))
    }
}
