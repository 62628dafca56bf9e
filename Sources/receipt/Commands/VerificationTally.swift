/// Counts valid, invalid and unreadable receipts and decides the exit status.
struct VerificationTally: Sendable {
    /// Receipts that passed every check.
    var valid = 0
    /// Receipts that failed a check.
    var invalid = 0
    /// Inputs that could not be read.
    var unreadable = 0

    /// Every input counted so far.
    var total: Int { valid + invalid + unreadable }

    /// Counts one outcome.
    mutating func count(_ status: VerificationOutcome.Status) {
        switch status {
        case .valid: valid += 1
        case .invalid: invalid += 1
        case .unreadable: unreadable += 1
        }
    }

    /// `N valid, N invalid, N unreadable`.
    var summary: String { "\(valid) valid, \(invalid) invalid, \(unreadable) unreadable" }

    /// 3 if an input could not be read, else 1 if a receipt is invalid, else 0.
    var exitStatus: ExitStatus {
        if unreadable > 0 { return .unreadable }
        if invalid > 0 { return .invalid }
        return .success
    }
}
