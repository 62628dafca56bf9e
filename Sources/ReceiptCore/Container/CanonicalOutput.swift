#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where ``CanonicalSignedData``'s rebuild writes its octets, in order: appended to a new array
/// (``Mode/building``), or compared with the input's octets at the same offsets
/// (``Mode/comparing``), so that an input that already is its own rebuild is handed on as it is
/// and its content (1.26 MB for 5,000 purchases) is never held twice.
///
/// The rebuild writes the same octets in the same order in both modes; only where they go
/// differs. Offsets (``count``) are the rebuild's either way.
struct CanonicalOutput {
    /// What the output does with the octets it is given.
    enum Mode {
        /// Appends them to ``CanonicalOutput/der``.
        case building
        /// Compares them with ``CanonicalOutput/input`` at ``CanonicalOutput/count``.
        case comparing
    }

    /// The input the rebuild reads its parts from.
    let input: [UInt8]
    /// What this output does with the octets it is given.
    let mode: Mode
    /// The octets written so far (``Mode/building`` only; empty when comparing).
    private(set) var der: [UInt8] = []
    /// How many octets the rebuild has written so far: the offset of the next one.
    private(set) var count = 0
    /// Whether every octet written so far equals the input's at the same offset (comparing only).
    private(set) var matches = true
    /// A header's octets, reused (a header is at most 10 octets).
    private var header: [UInt8] = []

    /// An output of `capacity` octets in `mode`, reading parts from `input`.
    init(input: [UInt8], mode: Mode, capacity: Int) {
        self.input = input
        self.mode = mode
        if mode == .building { der.reserveCapacity(capacity) }
        header.reserveCapacity(10)
    }

    /// Whether the rebuild written in ``Mode/comparing`` is the input, octet for octet.
    var isInput: Bool { mode == .comparing && matches && count == input.count }

    /// Writes `octets`.
    mutating func append(_ octets: [UInt8]) {
        switch mode {
        case .building:
            der += octets
        case .comparing:
            if matches {
                matches = count + octets.count <= input.count
                    && input[count..<(count + octets.count)].elementsEqual(octets)
            }
        }
        count += octets.count
    }

    /// Writes an identifier octet and the minimal definite length (``DEREncoding/appendHeader(_:_:to:)``).
    mutating func appendHeader(_ tag: UInt8, _ length: Int) {
        header.removeAll(keepingCapacity: true)
        DEREncoding.appendHeader(tag, length, to: &header)
        append(header)
    }

    /// Writes the input's octets at `range` (a range of ``input``).
    mutating func append(input range: Range<Int>) {
        switch mode {
        case .building:
            der += input[range]
        case .comparing:
            // The same octets at the same offset match without being read.
            let offset = count
            if matches, range.lowerBound != offset {
                matches = offset + range.count <= input.count && input.withUnsafeBufferPointer { octets in
                    guard let base = octets.baseAddress, !range.isEmpty else { return true }
                    return memcmp(base + offset, base + range.lowerBound, range.count) == 0
                }
            }
        }
        count += range.count
    }
}
