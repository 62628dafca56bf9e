import NIOCore
import ReceiptKit
import ReceiptState

/// A `POST /verifyReceipt` body answered: what the route returns, logs and counts.
struct VerifyReceiptOutcome: Sendable {
    /// The answer.
    var answer: JSONAnswer
    /// The answer before it was written (with no stored state merged).
    var response: AppleVerifyReceiptResponse
    /// The crypto library's failure, when the answer is `backend_failure`.
    var fault: VerifyReceiptController.BackendFault?
    /// Whether the answer was written on the validation thread (the stored state, when there is
    /// some to merge, read there too) rather than after it.
    var isWrittenOnValidationThread: Bool
}

extension VerifyReceiptService {
    /// Answers a `POST /verifyReceipt` body: on a validation thread (ReceiptKit's pool, through
    /// ``ValidationPool``) read, validated, judged (``VerifyReceiptController/judge(_:readiness:)``)
    /// and written as Apple's JSON into the outgoing buffer. With stored state for the receipt's
    /// subscriptions, the state is read and merged on the validation thread too
    /// (``StateService/mergedHere(_:ids:excludesOldTransactions:)``) when the store can read there,
    /// else awaited after it (``statefulAnswer(_:ids:excludesOldTransactions:echoedReceiptSize:)``).
    /// Nil when the pool is full.
    /// - Parameter readsStateHere: false: the state is always awaited after the validation (the
    ///   path a store that cannot read on the validation thread takes; the tests compare both).
    func answer(toBody body: ByteBuffer, readsStateHere: Bool = true) async -> VerifyReceiptOutcome? {
        let endpoint = self.endpoint
        let readiness = self.readiness
        let state = self.state
        let judged = await pool.run { () -> (JSONAnswer?, AppleVerifyReceiptResponse, VerifyReceiptController.BackendFault?, Bool, [String]) in
            // The body is read once: as `endpoint.respond(toBody:)` reads it (with the
            // validator's size limit), keeping `exclude-old-transactions` for the stored state's merge.
            let request: AppleVerifyReceiptRequest
            do throws(AppleVerifyReceiptRequest.Refusal) {
                request = try endpoint.request(parsing: body.readableBytesView)
            } catch {
                let (refused, fault) = VerifyReceiptController.judge(
                    AppleVerifyReceiptResponse(status: error.status, code: error.code, message: error.message), readiness: readiness)
                return (JSONAnswer(refused), refused, fault, false, [])
            }
            let (response, fault) = VerifyReceiptController.judge(endpoint.respond(to: request), readiness: readiness)
            let excludesOld = request.excludesOldTransactions
            // With stored state for the receipt's subscriptions to merge, it is read here when it
            // can be, else the answer is written after an asynchronous read.
            if let state {
                let ids = StatefulVerifyReceiptResponse.originalTransactionIDs(of: response)
                if !ids.isEmpty {
                    if readsStateHere, let merged = state.mergedHere(response, ids: ids, excludesOldTransactions: excludesOld) {
                        return (JSONAnswer(merged, echoedReceiptSize: body.readableBytes), response, fault, excludesOld, [])
                    }
                    return (nil, response, fault, excludesOld, ids)
                }
            }
            return (JSONAnswer(response, echoedReceiptSize: body.readableBytes), response, fault, excludesOld, [])
        }
        guard let (written, response, fault, excludesOld, ids) = judged else { return nil }
        if let written {
            return VerifyReceiptOutcome(answer: written, response: response, fault: fault, isWrittenOnValidationThread: true)
        }
        let answer = await statefulAnswer(response, ids: ids, excludesOldTransactions: excludesOld, echoedReceiptSize: body.readableBytes)
        return VerifyReceiptOutcome(answer: answer, response: response, fault: fault, isWrittenOnValidationThread: false)
    }
}
