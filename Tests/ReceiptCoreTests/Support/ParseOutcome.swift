@testable import ReceiptCore

/// The outcome of one parse, comparable: the receipt, or the error's code, message and offset —
/// for the tests that hold two ways of parsing the same payload to one answer.
enum ParseOutcome: Equatable {
    case receipt(Receipt)
    case failure(ReceiptValidationError.Code, String, Int?)

    /// The outcome of `parse`.
    init(_ parse: () throws(ReceiptValidationError) -> Receipt) {
        do {
            self = .receipt(try parse())
        } catch {
            self = .failure(error.code, error.message, error.offset)
        }
    }
}
