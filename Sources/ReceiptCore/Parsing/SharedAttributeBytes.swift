/// The arrays of a raw attribute (``ReceiptAttribute``'s `typeBytes`, `versionBytes` and `value`)
/// for the short encodings Apple's receipts repeat in every raw attribute, shared from constant
/// arrays instead of allocated each time: a raw attribute of a real receipt is a small type
/// INTEGER (6–9, 11, 13, 14, 20, 25 at the top level; 1709, 1710, 1714–1718, 1722 in a
/// purchase), version 1, and most often an empty UTF8String (`0C 00`) or a small INTEGER
/// (`02 01 00`, `02 01 03`) as its value.
///
/// Each constant is an array literal the optimizer emits as a statically initialised object in
/// the binary's data (`swift_initStaticObject` gives it its header once, with an immortal
/// reference count): sharing it allocates nothing, and threads that retain and release it write
/// no shared reference count. Anything else is copied, as before; either way the array holds
/// exactly the octets given.
enum SharedAttributeBytes {
    /// The octets of `bytes` as an array: a shared constant when they are one of the encodings
    /// above, else a copy.
    @inline(__always)
    static func array(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        constant(bytes) ?? Array(bytes)
    }

    /// ``array(_:)`` of a slice.
    @inline(__always)
    static func array(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        bytes.withUnsafeBufferPointer(array)
    }

    /// The shared constant holding exactly the octets of `bytes`, or `nil` when there is none.
    static func constant(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        switch bytes.count {
        case 1: oneOctet(bytes[0])
        case 2: twoOctets(UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
        case 3: bytes[0] == 0x02 && bytes[1] == 0x01 ? integerTLV(bytes[2]) : nil
        default: nil
        }
    }

    /// The INTEGER contents 0–31 (every top-level type Apple documents or sends, and every version).
    private static func oneOctet(_ octet: UInt8) -> [UInt8]? {
        switch octet {
        case 0: [0]
        case 1: [1]
        case 2: [2]
        case 3: [3]
        case 4: [4]
        case 5: [5]
        case 6: [6]
        case 7: [7]
        case 8: [8]
        case 9: [9]
        case 10: [10]
        case 11: [11]
        case 12: [12]
        case 13: [13]
        case 14: [14]
        case 15: [15]
        case 16: [16]
        case 17: [17]
        case 18: [18]
        case 19: [19]
        case 20: [20]
        case 21: [21]
        case 22: [22]
        case 23: [23]
        case 24: [24]
        case 25: [25]
        case 26: [26]
        case 27: [27]
        case 28: [28]
        case 29: [29]
        case 30: [30]
        case 31: [31]
        default: nil
        }
    }

    /// The INTEGER contents 1700–1731 (`06 A4`…`06 C3`: the in-app types) and the empty
    /// UTF8String and IA5String TLVs (`0C 00`, `16 00`), read big-endian.
    private static func twoOctets(_ octets: UInt16) -> [UInt8]? {
        switch octets {
        case 0x0C00: [0x0C, 0x00]
        case 0x1600: [0x16, 0x00]
        case 0x06A4: [0x06, 0xA4]
        case 0x06A5: [0x06, 0xA5]
        case 0x06A6: [0x06, 0xA6]
        case 0x06A7: [0x06, 0xA7]
        case 0x06A8: [0x06, 0xA8]
        case 0x06A9: [0x06, 0xA9]
        case 0x06AA: [0x06, 0xAA]
        case 0x06AB: [0x06, 0xAB]
        case 0x06AC: [0x06, 0xAC]
        case 0x06AD: [0x06, 0xAD]
        case 0x06AE: [0x06, 0xAE]
        case 0x06AF: [0x06, 0xAF]
        case 0x06B0: [0x06, 0xB0]
        case 0x06B1: [0x06, 0xB1]
        case 0x06B2: [0x06, 0xB2]
        case 0x06B3: [0x06, 0xB3]
        case 0x06B4: [0x06, 0xB4]
        case 0x06B5: [0x06, 0xB5]
        case 0x06B6: [0x06, 0xB6]
        case 0x06B7: [0x06, 0xB7]
        case 0x06B8: [0x06, 0xB8]
        case 0x06B9: [0x06, 0xB9]
        case 0x06BA: [0x06, 0xBA]
        case 0x06BB: [0x06, 0xBB]
        case 0x06BC: [0x06, 0xBC]
        case 0x06BD: [0x06, 0xBD]
        case 0x06BE: [0x06, 0xBE]
        case 0x06BF: [0x06, 0xBF]
        case 0x06C0: [0x06, 0xC0]
        case 0x06C1: [0x06, 0xC1]
        case 0x06C2: [0x06, 0xC2]
        case 0x06C3: [0x06, 0xC3]
        default: nil
        }
    }

    /// The INTEGER TLVs of 0–3 (`02 01 00`…`02 01 03`), given their content octet.
    private static func integerTLV(_ octet: UInt8) -> [UInt8]? {
        switch octet {
        case 0: [0x02, 0x01, 0x00]
        case 1: [0x02, 0x01, 0x01]
        case 2: [0x02, 0x01, 0x02]
        case 3: [0x02, 0x01, 0x03]
        default: nil
        }
    }
}
