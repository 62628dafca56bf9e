import ReceiptKit

/// The result of verifying one input: the validator's report plus what the tool needs to print it.
struct VerificationOutcome: Sendable {
    /// How one input ended.
    enum Status: Sendable {
        /// Every check passed.
        case valid
        /// The receipt was read but failed a check.
        case invalid
        /// The input could not be read (missing file, read error).
        case unreadable
    }

    /// The input's name as shown (path, or `-` for stdin).
    var label: String
    /// Everything the validator found out.
    var report: ReceiptValidationReport
    /// The certificates embedded in the receipt, read WITHOUT verification; filled only for human
    /// output when the verified chain is empty (so a failed receipt still shows which certificates it carries).
    var embeddedCertificates: [Certificate] = []
    /// What the user can do about the failure, when the tool can tell (say, `--xcode`).
    var hint: String?

    /// The error's message as shown in text and JSON: the message, the library's own text in
    /// brackets, then the hint.
    func displayedMessage(for error: ReceiptValidationError) -> String {
        var message = error.message
        if let library = error.libraryMessage, !library.isEmpty { message += " [\(library)]" }
        if let hint { message += " " + hint }
        return message
    }

    /// The hint for an Xcode StoreKit-testing receipt checked without `--xcode`.
    static let xcodeHint = "Its only certificate is Xcode's StoreKit test certificate: "
        + "pass --xcode to accept StoreKit-testing receipts."
    /// Apple's `verifyReceipt` response, for `--format apple`.
    var appleResponse: AppleVerifyReceiptResponse?
    /// The outcome of a JWS input (``TokenDetection``); `report` is then unused.
    var token: TokenOutcome?

    /// Valid, invalid or unreadable.
    var status: Status {
        if let token { return token.error == nil ? .valid : .invalid }
        if report.isValid { return .valid }
        if let code = report.error?.code, Self.unreadableCodes.contains(code) { return .unreadable }
        return .invalid
    }

    /// The error codes that mean "the input could not be read" (exit status 3).
    static let unreadableCodes: Set<ReceiptValidationError.Code> = [.receiptNotFound]
}
