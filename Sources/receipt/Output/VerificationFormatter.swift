import ReceiptKit

/// Prints verification outcomes in one output format into byte buffers. Each format is one
/// conforming type; ``OutputFormat/formatter(backendName:)`` picks it.
///
/// Outcomes are formatted on the worker threads that verified them, each into its own buffer, and
/// the buffers are printed in input order: ``write(_:index:of:into:)`` depends only on the outcome
/// and its position, never on the outcomes before it.
protocol VerificationFormatter: Sendable {
    /// Appends the outcome of input number `index` (0-based) of `count` to `output`.
    func write(_ outcome: VerificationOutcome, index: Int, of count: Int, into output: inout [UInt8])
    /// Appends what closes the output after the last outcome (the JSON array's bracket).
    func finish(count: Int, into output: inout [UInt8])
}

extension VerificationFormatter {
    /// Nothing closes the output by default.
    func finish(count: Int, into output: inout [UInt8]) {}
}

extension OutputFormat {
    /// The formatter of this format.
    func formatter(backendName: String) -> any VerificationFormatter {
        switch self {
        case .human: HumanFormatter(backendName: backendName)
        case .json: JSONFormatter()
        case .ndjson: NDJSONFormatter()
        case .apple: AppleFormatter(isLinePerInput: false)
        case .appleNDJSON: AppleFormatter(isLinePerInput: true)
        }
    }
}

/// `--ndjson`: one compact JSON object a line.
struct NDJSONFormatter: VerificationFormatter {
    /// Appends the compact object and a newline.
    func write(_ outcome: VerificationOutcome, index: Int, of count: Int, into output: inout [UInt8]) {
        if let token = outcome.token {
            output.append(contentsOf: TokenVerificationJSON(outcome, token: token).text(pretty: false))
            output.append(0x0A)
            return
        }
        JSONByteWriter.append(to: &output, pretty: false) { writer in
            writer.verification(outcome)
            writer.byte(0x0A)
        }
    }
}

/// `--json`: one pretty-printed object, or an array of them for several inputs.
struct JSONFormatter: VerificationFormatter {
    /// Appends the pretty object (opening the array before the first of several).
    func write(_ outcome: VerificationOutcome, index: Int, of count: Int, into output: inout [UInt8]) {
        if count != 1 { output.append(contentsOf: Array((index == 0 ? "[\n" : ",\n").utf8)) }
        if let token = outcome.token {
            output.append(contentsOf: TokenVerificationJSON(outcome, token: token).text(pretty: true))
            if count == 1 { output.append(0x0A) }
            return
        }
        JSONByteWriter.append(to: &output, pretty: true) { writer in
            writer.verification(outcome)
            if count == 1 { writer.byte(0x0A) }
        }
    }

    /// Closes the array of several objects (`[]` for none).
    func finish(count: Int, into output: inout [UInt8]) {
        guard count != 1 else { return }
        output.append(contentsOf: Array((count == 0 ? "[]\n" : "\n]\n").utf8))
    }
}

/// Text for people: a block a receipt, separated by blank lines; certificate summaries decoded
/// once per distinct chain.
struct HumanFormatter: VerificationFormatter {
    /// The backend's name, shown in each block.
    let backendName: String
    /// The summaries of the chains seen so far, shared by the worker threads.
    private let summaries = SharedCertificateSummaries()

    /// A formatter naming `backendName`.
    init(backendName: String) {
        self.backendName = backendName
    }

    /// Appends the block (after a blank line unless it is the first).
    func write(_ outcome: VerificationOutcome, index: Int, of count: Int, into output: inout [UInt8]) {
        if index > 0 { output.append(0x0A) }
        if let token = outcome.token {
            TokenReport(label: outcome.label, token: token, backendName: backendName, message: outcome.displayedMessage(for:))
                .write(summaries: summaries, into: &output)
            return
        }
        HumanReport(outcome: outcome, backendName: backendName).write(summaries: summaries, into: &output)
    }
}
