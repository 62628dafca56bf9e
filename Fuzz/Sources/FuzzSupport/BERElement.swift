/// One BER element as a tree: an element read from the input keeps its bytes and is written back
/// unchanged until something in it changes (then it is written from its parts).
struct BERElement: Sendable {
    enum Length: Sendable, Equatable {
        /// The shortest definite form.
        case minimal
        /// The long definite form with this many length octets (non-minimal when the short form fits).
        case longForm(octets: Int)
        /// `80 … 00 00` (constructed only).
        case indefinite
    }

    var identifier: [UInt8] { didSet { original = nil } }
    var length: Length { didSet { original = nil } }
    /// The content octets of a primitive element.
    var octets: [UInt8] { didSet { original = nil } }
    /// The children of a constructed element.
    var children: [BERElement] { didSet { original = nil } }
    /// The element's bytes as read, while unchanged.
    private var original: ArraySlice<UInt8>?

    var isConstructed: Bool { identifier[0] & 0x20 != 0 }

    init(primitive identifier: [UInt8], _ octets: [UInt8], length: Length = .minimal) {
        self.identifier = identifier
        self.length = length
        self.octets = octets
        self.children = []
    }

    init(constructed identifier: [UInt8], _ children: [BERElement], length: Length = .minimal) {
        self.identifier = identifier
        self.length = length
        self.octets = []
        self.children = children
    }

    /// An element given by its encoding (parsed; written back as given).
    init(encoding: [UInt8]) {
        // The encodings passed here are this file's constants or pool certificates: well-formed.
        self = (try? Self.parse(encoding)) ?? BERElement(primitive: [0x05], [])
    }

    /// The encoding.
    var encoded: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    func encode(into out: inout [UInt8]) {
        if let original {
            out.append(contentsOf: original)
            return
        }
        out.append(contentsOf: identifier)
        var content: [UInt8]
        if isConstructed {
            content = []
            for child in children { child.encode(into: &content) }
        } else {
            content = octets
        }
        switch length {
        case .indefinite where isConstructed:
            out.append(0x80)
            out.append(contentsOf: content)
            out.append(contentsOf: [0, 0])
            return
        case .longForm(let octets):
            let needed = Self.lengthOctets(content.count)
            let count = max(octets, needed)
            out.append(0x80 | UInt8(count))
            for shift in stride(from: (count - 1) * 8, through: 0, by: -8) {
                out.append(shift >= 64 ? 0 : UInt8(truncatingIfNeeded: content.count >> shift))
            }
        case .minimal, .indefinite:
            if content.count < 0x80 {
                out.append(UInt8(content.count))
            } else {
                let count = Self.lengthOctets(content.count)
                out.append(0x80 | UInt8(count))
                for shift in stride(from: (count - 1) * 8, through: 0, by: -8) {
                    out.append(UInt8(truncatingIfNeeded: content.count >> shift))
                }
            }
        }
        out.append(contentsOf: content)
    }

    private static func lengthOctets(_ count: Int) -> Int {
        var octets = 1
        while octets < 8, count >> (8 * octets) != 0 { octets += 1 }
        return octets
    }

    struct Malformed: Error {}

    /// Reads one element spanning all of `bytes` (BER: indefinite lengths, constructed strings).
    static func parse(_ bytes: [UInt8]) throws -> BERElement {
        var position = 0
        let element = try parse(bytes, at: &position, limit: bytes.count, depth: 0)
        guard position == bytes.count else { throw Malformed() }
        return element
    }

    private static func parse(_ bytes: [UInt8], at position: inout Int, limit: Int, depth: Int) throws -> BERElement {
        guard depth < 64, position < limit else { throw Malformed() }
        let start = position
        var identifier = [bytes[position]]
        position += 1
        if identifier[0] & 0x1F == 0x1F {
            repeat {
                guard position < limit, identifier.count < 6 else { throw Malformed() }
                identifier.append(bytes[position])
                position += 1
            } while identifier.last! & 0x80 != 0
        }
        guard position < limit else { throw Malformed() }
        let first = bytes[position]
        position += 1
        let constructed = identifier[0] & 0x20 != 0
        var element: BERElement
        if first == 0x80 {
            guard constructed else { throw Malformed() }
            var children: [BERElement] = []
            while true {
                guard position + 2 <= limit else { throw Malformed() }
                if bytes[position] == 0, bytes[position + 1] == 0 {
                    position += 2
                    break
                }
                children.append(try parse(bytes, at: &position, limit: limit, depth: depth + 1))
            }
            element = BERElement(constructed: identifier, children, length: .indefinite)
        } else {
            var length = Int(first)
            var form = Length.minimal
            if first & 0x80 != 0 {
                let count = Int(first & 0x7F)
                guard count >= 1, count <= 4, position + count <= limit else { throw Malformed() }
                length = 0
                for _ in 0..<count {
                    length = length << 8 | Int(bytes[position])
                    position += 1
                }
                if count != lengthOctets(length) || length < 0x80 { form = .longForm(octets: count) }
            }
            guard length <= limit - position else { throw Malformed() }
            let end = position + length
            if constructed {
                var children: [BERElement] = []
                while position < end { children.append(try parse(bytes, at: &position, limit: end, depth: depth + 1)) }
                element = BERElement(constructed: identifier, children, length: form)
            } else {
                element = BERElement(primitive: identifier, Array(bytes[position..<end]), length: form)
                position = end
            }
        }
        element.original = bytes[start..<position]
        return element
    }

    /// The content of an OCTET STRING, its segments concatenated when constructed.
    var flattenedOctets: [UInt8] {
        isConstructed ? children.flatMap(\.flattenedOctets) : octets
    }
}
