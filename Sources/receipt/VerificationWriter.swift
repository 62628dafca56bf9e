import ReceiptKit

/// Prints verification outcomes in the chosen format, one at a time, in input order.
struct VerificationWriter {
    /// The output format.
    let format: OutputFormat
    /// The backend's name, shown in human output.
    let backendName: String

    /// Prints the outcome of input number `index` (0-based) of `count`.
    func write(_ outcome: VerificationOutcome, index: Int, of count: Int) {
        switch format {
        case .human:
            if index > 0 { StandardOutput.write("\n") }
            StandardOutput.write(HumanReport(outcome: outcome, backendName: backendName).text)
        case .ndjson:
            StandardOutput.write(JSONText.encode(VerificationJSON(outcome), compact: true) + "\n")
        case .apple, .appleNDJSON:
            writeApple(outcome, index: index, of: count)
        case .json:
            let object = JSONText.encode(VerificationJSON(outcome), compact: false)
            if count == 1 {
                StandardOutput.write(object + "\n")
            } else {
                StandardOutput.write((index == 0 ? "[\n" : ",\n") + object)
            }
        }
    }

    /// Closes the output (the JSON array for several receipts).
    func finish(count: Int) {
        guard format == .json || format == .apple, count != 1 else { return }
        StandardOutput.write(count == 0 ? "[]\n" : "\n]\n")
    }
}
