import Foundation
import ReceiptKit
import ReceiptState

extension StateService {
    /// The `receiptkit` code of a valid answer given without the stored state.
    public static let stateUnavailableCode = "stored_state_unavailable"

    /// `GET /subscriptions/{id}[?at=RFC3339]`: the state, or a refusal (400 for a malformed id or
    /// date, 404 when nothing is stored for it, 503 when the store cannot be read).
    public func subscription(_ id: String, at text: String?) async throws(Refusal) -> SubscriptionState {
        guard Self.isOriginalTransactionID(id) else {
            throw Refusal(
                status: 400, code: "invalid_original_transaction_id",
                message: "an original transaction id is 1 to 64 letters, digits, '.', '_' or '-'")
        }
        let at = try Self.date(at: text) ?? Date()
        let state: SubscriptionState?
        do {
            state = try await reader.state(of: id, at: at)
        } catch {
            throw Refusal(status: 503, code: error.code.rawValue, message: "the store could not be read: \(error.message)")
        }
        guard let state else {
            throw Refusal(status: 404, code: "not_found", message: "nothing is stored for original transaction id \(id)")
        }
        return state
    }

    /// The `at` value among a request's query parameters (names as written, values decoded): nil
    /// when absent. Any other parameter, or `at` given twice, is a 400 `invalid_query`: a misspelt
    /// `At=` read as absent would answer about now, and of two dates a parser keeps either.
    static func atParameter(in parameters: some Sequence<(key: Substring, value: Substring)>) throws(Refusal) -> String? {
        var at: String?
        for (name, value) in parameters {
            guard name == "at" else {
                throw Refusal(
                    status: 400, code: "invalid_query", message: "unknown query parameter '\(name.prefix(64))'; only at= is read here")
            }
            guard at == nil else {
                throw Refusal(status: 400, code: "invalid_query", message: "at= is given more than once")
            }
            at = String(value)
        }
        return at
    }

    /// `?at=`'s date: nil when absent, a 400 `invalid_at` when it is not RFC 3339.
    public static func date(at text: String?) throws(Refusal) -> Date? {
        guard let text else { return nil }
        guard let date = SubscriptionState.date(rfc3339: text) else {
            throw Refusal(status: 400, code: "invalid_at", message: "at= takes an RFC 3339 date (2026-01-02T03:04:05Z), not '\(text)'")
        }
        return date
    }

    /// Whether `id` can be an original transaction id (Apple's are decimal; anything longer or
    /// stranger is refused before the store is asked).
    static func isOriginalTransactionID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-")
        }
    }

    /// The `verifyReceipt` answer with the stored state of the receipt's subscriptions merged
    /// (``StatefulVerifyReceiptResponse``), as JSON. A valid answer whose state cannot be read is
    /// answered from the receipt alone, its `receiptkit` object saying so
    /// (``stateUnavailableCode``).
    public func answer(_ response: AppleVerifyReceiptResponse, excludesOldTransactions: Bool) async -> [UInt8] {
        await merged(response, excludesOldTransactions: excludesOldTransactions).jsonBytes()
    }

    /// ``answer(_:excludesOldTransactions:)`` before it is written: the server writes it straight
    /// into the outgoing buffer. With no subscription in the answer it is `response` alone, which
    /// ``StatefulVerifyReceiptResponse`` writes byte for byte as `response.jsonBytes()`.
    public func merged(_ response: AppleVerifyReceiptResponse, excludesOldTransactions: Bool) async -> StatefulVerifyReceiptResponse {
        await merged(response, ids: StatefulVerifyReceiptResponse.originalTransactionIDs(of: response), excludesOldTransactions: excludesOldTransactions)
    }

    /// ``merged(_:excludesOldTransactions:)`` with `ids`, the response's
    /// ``StatefulVerifyReceiptResponse/originalTransactionIDs(of:)``, found already (on the
    /// validation thread).
    func merged(_ response: AppleVerifyReceiptResponse, ids: [String], excludesOldTransactions: Bool) async -> StatefulVerifyReceiptResponse {
        guard !ids.isEmpty else { return StatefulVerifyReceiptResponse(response) }
        let states: Result<[String: SubscriptionState], TokenStoreError>
        do {
            states = .success(try await reader.states(of: ids))
        } catch {
            states = .failure(error)
        }
        return Self.merged(response, ids: ids, excludesOldTransactions: excludesOldTransactions, states: states)
    }

    /// ``merged(_:ids:excludesOldTransactions:)`` read and merged on the calling thread (the
    /// validation thread), when the store can read there (``StateReader/statesHere(of:at:)``);
    /// nil when it cannot, and the caller awaits ``merged(_:ids:excludesOldTransactions:)``.
    func mergedHere(_ response: AppleVerifyReceiptResponse, ids: [String], excludesOldTransactions: Bool) -> StatefulVerifyReceiptResponse? {
        guard !ids.isEmpty else { return StatefulVerifyReceiptResponse(response) }
        guard let states = reader.statesHere(of: ids) else { return nil }
        return Self.merged(response, ids: ids, excludesOldTransactions: excludesOldTransactions, states: states)
    }

    /// `states` merged into `response`; a failure to read them answered from the receipt alone.
    private static func merged(
        _ response: AppleVerifyReceiptResponse, ids: [String], excludesOldTransactions: Bool,
        states: Result<[String: SubscriptionState], TokenStoreError>
    ) -> StatefulVerifyReceiptResponse {
        switch states {
        case .success(let states):
            return StatefulVerifyReceiptResponse(merging: states, into: response, ids: ids, excludesOldTransactions: excludesOldTransactions)
        case .failure(let error):
            var alone = response
            alone.failure = AppleVerifyReceiptResponse.Failure(
                code: Self.stateUnavailableCode,
                message: "answered from the receipt alone: the stored state could not be read (\(error.code.rawValue): \(error.message))")
            return StatefulVerifyReceiptResponse(alone)
        }
    }
}
