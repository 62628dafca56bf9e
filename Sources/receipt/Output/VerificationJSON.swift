import ReceiptKit

/// The JSON object printed for one receipt by `verify --json` / `--ndjson`:
/// `{"error": {"code", "message"}, "file", "hash_ok": true|false|null, "receipt": {…}, "valid"}`.
///
/// `error` is absent when the receipt is valid; `hash_ok` is `null` when no device identifier was
/// given (or the check was not reached); `receipt` (Apple's JSON names) is present whenever the
/// payload was parsed from verified bytes, even if a later check failed.
extension JSONByteWriter {
    /// Writes the verification object of `outcome`.
    mutating func verification(_ outcome: VerificationOutcome) {
        let report = outcome.report
        beginObject()
        if let error = report.error {
            key("error")
            errorObject(code: error.code.rawValue, message: outcome.displayedMessage(for: error))
        }
        key("file")
        string(outcome.label)
        key("hash_ok")
        if let matches = report.deviceHashMatches { bool(matches) } else { null() }
        if let receipt = report.receipt {
            key("receipt")
            self.receipt(receipt)
        }
        key("valid")
        bool(report.isValid)
        endObject()
    }
}
