/// OBJECT IDENTIFIER content octets, read subidentifier by subidentifier: the one OID decoder
/// of the reading layer (the structure checks' validity test and the dotted form both read here).
///
/// Accepted: 1–128 octets, no subidentifier starting with `0x80` (not minimal), at most nine
/// octets per subidentifier (63 bits), the last one complete.
enum ObjectIdentifierContent {
    /// Calls `body` with each subidentifier in order; `false` (after calling it for a prefix) when
    /// the content is not accepted.
    @inline(__always)
    static func forEachSubidentifier<Octets: Collection<UInt8>>(_ content: Octets, _ body: (UInt64) -> Void) -> Bool {
        guard !content.isEmpty, content.count <= 128 else { return false }
        var value: UInt64 = 0
        var octets = 0
        for byte in content {
            if octets == 0, byte == 0x80 { return false }
            octets += 1
            guard octets <= 9 else { return false }
            value = (value << 7) | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                body(value)
                value = 0
                octets = 0
            }
        }
        return octets == 0
    }

    /// Whether `content` is accepted.
    static func isValid<Octets: Collection<UInt8>>(_ content: Octets) -> Bool {
        forEachSubidentifier(content) { _ in }
    }

    /// The dotted form (`1.2.840.113549`), or `nil` when `content` is not accepted. The first
    /// subidentifier splits into the first two arcs (below 40: 0, below 80: 1, else 2).
    static func dotted<Octets: Collection<UInt8>>(_ content: Octets) -> String? {
        var components: [UInt64] = []
        guard forEachSubidentifier(content, { components.append($0) }), let first = components.first else { return nil }
        let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        return (head + components.dropFirst()).map(String.init).joined(separator: ".")
    }
}
