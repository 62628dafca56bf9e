@testable import ReceiptCore

extension StrictAttributeSet {
    /// Every attribute of the SET at `range` as the strict lane reads it, or `nil` when the SET is
    /// not in the strict shape (the tests' way to check which lane a payload takes).
    static func slots(_ bytes: [UInt8], in range: Range<Int>, maximumCount: Int) -> [AttributeSlot]? {
        bytes.withUnsafeBufferPointer { pointer -> [AttributeSlot]? in
            var slots: [AttributeSlot] = []
            return forEachAttribute(pointer, in: range, maximumCount: maximumCount) { slots.append($0) } ? slots : nil
        }
    }
}
