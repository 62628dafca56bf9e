@testable import ReceiptCore

extension ReceiptAttributeSet {
    /// Every attribute of the SET at `range` as the strict lane reads it (at most `maximumCount`),
    /// or `nil` when the SET is not in the strict shape (the tests' way to check which lane a
    /// payload takes).
    static func slots(_ bytes: [UInt8], in range: Range<Int>, maximumCount: Int) -> [Attribute]? {
        bytes.withUnsafeBufferPointer { pointer -> [Attribute]? in
            guard let set = ReceiptAttributeSet(pointer, in: range) else { return nil }
            var attributes = set.makeIterator()
            var slots: [Attribute] = []
            while let attribute = attributes.next() {
                guard slots.count < maximumCount else { return nil }
                slots.append(attribute)
            }
            return attributes.isMalformed ? nil : slots
        }
    }
}
