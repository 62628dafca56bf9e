/// A DER element tree for tests that edit the unsigned parts of a real signedData: read a strict
/// DER input, change children, write it back with minimal lengths (or a chosen encoding).
///
/// Only what tests need: definite lengths, single-octet tags. `nil` for anything else.
public struct DERTree: Equatable, Sendable {
    /// The identifier octet.
    public var tag: UInt8
    /// The content octets of a primitive element.
    public var content: [UInt8]
    /// The children of a constructed element.
    public var children: [DERTree]
    /// Extra leading zero octets written in the length (a non-minimal long form), 0 for DER.
    public var lengthPadding = 0

    /// Whether the constructed bit is set.
    public var isConstructed: Bool { tag & 0x20 != 0 }

    /// A primitive element.
    public init(tag: UInt8, content: [UInt8]) {
        self.tag = tag
        self.content = content
        self.children = []
    }

    /// A constructed element.
    public init(tag: UInt8, children: [DERTree]) {
        self.tag = tag
        self.content = []
        self.children = children
    }

    /// Reads one element spanning all of `bytes`.
    public init?(_ bytes: [UInt8]) {
        guard let (tree, end) = Self.read(bytes, at: 0, limit: bytes.count, depth: 0), end == bytes.count else { return nil }
        self = tree
    }

    private static func read(_ bytes: [UInt8], at start: Int, limit: Int, depth: Int) -> (DERTree, Int)? {
        guard depth < 64, limit - start >= 2, bytes[start] & 0x1F != 0x1F else { return nil }
        let tag = bytes[start]
        var position = start + 2
        var length = Int(bytes[start + 1])
        if length >= 0x80 {
            let count = length & 0x7F
            guard (1...4).contains(count), limit - position >= count else { return nil }
            length = bytes[position..<(position + count)].reduce(0) { $0 << 8 | Int($1) }
            position += count
        }
        guard length <= limit - position else { return nil }
        let end = position + length
        guard tag & 0x20 != 0 else { return (DERTree(tag: tag, content: Array(bytes[position..<end])), end) }
        var children: [DERTree] = []
        while position < end {
            guard let (child, next) = read(bytes, at: position, limit: end, depth: depth + 1) else { return nil }
            children.append(child)
            position = next
        }
        return (DERTree(tag: tag, children: children), end)
    }

    /// The encoding.
    public var bytes: [UInt8] {
        let body = isConstructed ? children.flatMap(\.bytes) : content
        var octets: [UInt8] = []
        var remaining = body.count
        while remaining > 0 {
            octets.insert(UInt8(remaining & 0xFF), at: 0)
            remaining >>= 8
        }
        if lengthPadding == 0, body.count < 0x80 { return [tag, UInt8(body.count)] + body }
        octets = Array(repeating: 0, count: lengthPadding) + octets
        if octets.isEmpty { octets = [0] }
        return [tag, 0x80 | UInt8(octets.count)] + octets + body
    }

    /// The element at `path` (child indices from here).
    public subscript(path: [Int]) -> DERTree {
        get { path.reduce(self) { $0.children[$1] } }
        set {
            guard let first = path.first else {
                self = newValue
                return
            }
            children[first][Array(path.dropFirst())] = newValue
        }
    }
}

extension DERTree {
    /// Paths inside a ContentInfo { signedData, [0] SignedData } whose SignedData has
    /// `[0] certificates` and one SignerInfo.
    public enum SignedDataPath {
        /// The SignedData SEQUENCE.
        public static let signedData = [1, 0]
        /// SignedData.version.
        public static let version = [1, 0, 0]
        /// SignedData.digestAlgorithms.
        public static let digestAlgorithms = [1, 0, 1]
        /// The eContent OCTET STRING.
        public static let eContent = [1, 0, 2, 1, 0]
        /// The `[0] certificates` field.
        public static let certificates = [1, 0, 3]
        /// The first SignerInfo.
        public static let signerInfo = [1, 0, 4, 0]
    }
}
