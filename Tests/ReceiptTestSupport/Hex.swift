/// `bytes` as lowercase hex.
public func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
}

/// The bytes of lowercase or uppercase hex `text` (test inputs only: a pair that is not hex is 0,
/// an odd last digit is ignored).
public func bytes(hex text: String) -> [UInt8] {
    let digits = Array(text.utf8)
    return stride(from: 0, to: digits.count - 1, by: 2).map { index in
        UInt8(String(decoding: digits[index...(index + 1)], as: UTF8.self), radix: 16) ?? 0
    }
}
