#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a catalogued receipt attribute's value holds, and so how both parsing lanes read it.
package enum AttributeKind: Hashable, Sendable {
    /// A UTF8String or IA5String (also PrintableString or VisibleString).
    case string
    /// A UTF8String or IA5String whose whole encoded value is kept as well (the bundle id, whose
    /// attribute bytes the GUID hash covers).
    case stringWithValueBytes
    /// An INTEGER; one beyond `Int64` is kept raw.
    case integer
    /// An INTEGER read as a flag (nonzero is true).
    case flag
    /// An RFC 3339 date string; an empty string means absent.
    case date
    /// Opaque bytes: the OCTET STRING's content as it is.
    case octets
    /// The nested SET of one in-app purchase (top-level type 17).
    case inAppPurchase
}

/// A catalogued attribute's value, decoded as its ``AttributeKind`` says.
package enum AttributeValue: Sendable {
    /// A string (``AttributeKind/string``).
    case string(String)
    /// A string and the encoded value it was read from (``AttributeKind/stringWithValueBytes``).
    case stringWithValueBytes(String, [UInt8])
    /// An integer or a flag's integer (``AttributeKind/integer``, ``AttributeKind/flag``).
    case integer(Int64)
    /// A date; `nil` for an empty string (``AttributeKind/date``).
    case date(Date?)
    /// Opaque bytes (``AttributeKind/octets``).
    case octets([UInt8])
}

/// The attribute types of one SET (the receipt's or an in-app purchase's) that the model types: each
/// type's value kind, whether Apple documents it and whether one SET may hold it more than once.
/// Every parsing lane and table switches over these catalogues, so a type added here is handled
/// by each lane or the package does not compile.
package protocol AttributeCatalogue: CaseIterable, Hashable, Sendable, RawRepresentable where RawValue == Int {
    /// What the value holds.
    var kind: AttributeKind { get }
    /// Whether Apple documents the type: then a value of another kind, an unreadable date or a
    /// second copy of a single-valued type is an error; for an undocumented type it is kept raw.
    var isDocumented: Bool { get }
    /// Whether one SET holds the type at most once.
    var isSingleValued: Bool { get }
    /// The smallest raw value of the catalogue: every type lies within 64 of it (see
    /// ``SeenAttributeTypes``).
    static var lowestRawValue: Int { get }
}
