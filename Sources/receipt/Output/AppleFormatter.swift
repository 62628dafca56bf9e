import ReceiptKit

/// `--format apple`: Apple's `verifyReceipt` response, pretty (an array of them for several
/// inputs) or, with `--ndjson`, one compact line per input.
struct AppleFormatter: VerificationFormatter {
    /// Whether each response is one compact line (`--ndjson`).
    let isLinePerInput: Bool

    /// Appends the response of one input.
    func write(_ outcome: VerificationOutcome, index: Int, of count: Int, into output: inout [UInt8]) {
        let response = outcome.appleResponse
            ?? AppleVerifyReceiptResponse(error: ReceiptValidationError(.backendFailure, "No response was computed."))
        if !isLinePerInput, count != 1 { output.append(contentsOf: Array((index == 0 ? "[\n" : ",\n").utf8)) }
        JSONByteWriter.append(to: &output, pretty: !isLinePerInput) { writer in
            writer.appleResponse(response)
            if isLinePerInput || count == 1 { writer.byte(0x0A) }
        }
    }

    /// Closes the array of several responses (`[]` for none).
    func finish(count: Int, into output: inout [UInt8]) {
        guard !isLinePerInput, count != 1 else { return }
        output.append(contentsOf: Array((count == 0 ? "[]\n" : "\n]\n").utf8))
    }
}
