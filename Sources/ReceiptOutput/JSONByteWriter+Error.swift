extension JSONByteWriter {
    /// Writes the one error object of every JSON ReceiptKit prints: `{"code", "message"}`, a stable
    /// snake_case code (a ``ReceiptValidationError/Code`` raw value or a request-level code) and a
    /// sentence for people. It is `verify --json`'s `error`, `entitlements --json`'s `error`,
    /// `dump --json`'s `error`, Apple's response's `receiptkit` and `receipt-server`'s answers.
    public mutating func errorObject(code: String, message: String) {
        beginObject()
        key("code")
        string(code)
        key("message")
        string(message)
        endObject()
    }
}

extension JSONByteWriter {
    /// The text `body` writes, as a string (for a one-off document printed as a line).
    public static func text(pretty: Bool, _ body: (inout JSONByteWriter) -> Void) -> String {
        var writer = JSONByteWriter(pretty: pretty, stageCapacity: 4 * 1024)
        body(&writer)
        return String(decoding: writer.takeBytes(), as: UTF8.self)
    }
}
