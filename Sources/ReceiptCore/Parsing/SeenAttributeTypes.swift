/// The single-valued types of one catalogue already met in one SET, as a bit set (no allocation or
/// hashing per attribute). Each type's bit is its distance from the catalogue's lowest raw value;
/// the catalogue tests check that every type's distance is below 64.
struct SeenAttributeTypes<Catalogue: AttributeCatalogue> {
    private var bits: UInt64 = 0

    init() {}

    @inline(__always)
    private static func bit(_ type: Catalogue) -> UInt64 {
        // A shift of 64 or more (a catalogue too wide, which the tests rule out) gives 0, not a trap.
        1 << UInt64(truncatingIfNeeded: type.rawValue &- Catalogue.lowestRawValue)
    }

    /// Whether `type` was met.
    @inline(__always)
    func contains(_ type: Catalogue) -> Bool { bits & Self.bit(type) != 0 }

    /// Records that `type` was met.
    @inline(__always)
    mutating func insert(_ type: Catalogue) { bits |= Self.bit(type) }
}
