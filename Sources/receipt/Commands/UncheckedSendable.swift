/// A value handed to other threads that the type system cannot prove safe to share: the code that
/// makes one says why it is (what serializes every use of the value).
struct UncheckedSendable<Value>: @unchecked Sendable {
    /// The value.
    let value: Value

    /// Wraps `value`.
    init(_ value: Value) {
        self.value = value
    }
}
