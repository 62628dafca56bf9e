import Foundation
import ReceiptKit
import ReceiptState

extension StateService {
    /// What `POST /notifications` did.
    public enum NotificationOutcome: Sendable, Equatable {
        /// Committed now.
        case stored(uuid: String)
        /// Its `notificationUUID` was already stored: nothing written.
        case alreadyStored(uuid: String)
    }

    /// `POST /notifications`: Apple's `{"signedPayload": "…"}`, verified, checked against the
    /// accepted bundle ids and environment, and stored — the outcome only once committed.
    /// - Throws: 400 for a body that is not that object, a token that does not verify or is not a
    ///   notification, or one for another bundle id or environment; 503 when the store cannot
    ///   commit (Apple retries) or the pool is full.
    public func receiveNotification(_ body: [UInt8], receivedAt: Date = Date()) async throws(Refusal) -> NotificationOutcome {
        let signedPayload = try Self.member("signedPayload", of: body)
        let verified = try await verify(signedPayload, as: .notification, what: "the signedPayload")
        guard case .notification(let notification) = verified.payload else {
            throw Refusal(status: 400, code: "wrong_token_kind", message: "the signedPayload is not a notification")
        }
        guard let uuid = notification.notificationUUID, !uuid.isEmpty else {
            throw Refusal(status: 400, code: "malformed_jws", message: "the notification has no notificationUUID")
        }
        let data = notification.data
        let bundleID = data?.bundleId ?? data?.transaction?.bundleId
        let environment = data?.environment ?? data?.transaction?.environment
        try check(bundleID: bundleID, environment: environment, what: "the notification")
        let token = StoredToken(
            kind: .notification, token: signedPayload, signedDateMilliseconds: verified.signedDate.millisecondsSince1970,
            originalTransactionID: data?.transaction?.originalTransactionId ?? data?.renewalInfo?.originalTransactionId,
            transactionID: data?.transaction?.transactionId, notificationUUID: uuid, bundleID: bundleID ?? "",
            environment: environment ?? "", receivedAtMilliseconds: receivedAt.millisecondsSince1970)
        switch try await commit([token]).first {
        case .stored: return .stored(uuid: uuid)
        default: return .alreadyStored(uuid: uuid)
        }
    }

    /// `POST /transactions`: `{"signedTransactions": [JWS…], "signedRenewalInfos": [JWS…]}` from a
    /// StoreKit 2 client. Every token is verified and checked first; one that fails refuses the
    /// whole request and nothing is stored. Returns, read after the commit, the entitlements of
    /// every stored transaction of the original transaction ids they concern (not only the ones
    /// sent) at `at` (default: `receivedAt`), with the catalog, and those ids' states.
    public func receiveTransactions(
        _ body: [UInt8], receivedAt: Date = Date(), at: Date? = nil
    ) async throws(Refusal) -> TransactionsAnswer {
        let object = try Self.object(body)
        try Self.refuseUnknownMembers(of: object, known: ["signedTransactions", "signedRenewalInfos"])
        let transactions = try Self.strings("signedTransactions", of: object)
        let renewals = try Self.strings("signedRenewalInfos", of: object)
        guard !transactions.isEmpty || !renewals.isEmpty else {
            throw Refusal(status: 400, code: "no_tokens", message: "signedTransactions and signedRenewalInfos are both empty or absent")
        }
        guard transactions.count + renewals.count <= Self.maximumTokensPerRequest else {
            throw Refusal(
                status: 400, code: "too_many_tokens",
                message: "\(transactions.count + renewals.count) tokens; at most \(Self.maximumTokensPerRequest) in one request")
        }
        var tokens: [StoredToken] = []
        for (index, text) in transactions.enumerated() {
            let what = "signedTransactions[\(index)]"
            let verified = try await verify(text, as: .transaction, what: what)
            guard case .transaction(let transaction) = verified.payload, let original = transaction.originalTransactionId else {
                throw Refusal(status: 400, code: "malformed_jws", message: "\(what) has no originalTransactionId")
            }
            try check(bundleID: transaction.bundleId, environment: transaction.environment, what: what)
            tokens.append(StoredToken(
                kind: .transaction, token: text, signedDateMilliseconds: verified.signedDate.millisecondsSince1970,
                originalTransactionID: original, transactionID: transaction.transactionId, notificationUUID: nil,
                bundleID: transaction.bundleId ?? "", environment: transaction.environment ?? "",
                receivedAtMilliseconds: receivedAt.millisecondsSince1970))
        }
        for (index, text) in renewals.enumerated() {
            let what = "signedRenewalInfos[\(index)]"
            let verified = try await verify(text, as: .renewalInfo, what: what)
            guard case .renewalInfo(let renewal) = verified.payload, let original = renewal.originalTransactionId else {
                throw Refusal(status: 400, code: "malformed_jws", message: "\(what) has no originalTransactionId")
            }
            // A renewal info carries no bundle id; its environment is checked.
            try check(bundleID: nil, environment: renewal.environment, what: what, checksBundleID: false)
            tokens.append(StoredToken(
                kind: .renewalInfo, token: text, signedDateMilliseconds: verified.signedDate.millisecondsSince1970,
                originalTransactionID: original, transactionID: nil, notificationUUID: nil, bundleID: "",
                environment: renewal.environment ?? "", receivedAtMilliseconds: receivedAt.millisecondsSince1970))
        }
        _ = try await commit(tokens)
        var ids: [String] = []
        for token in tokens where !ids.contains(token.originalTransactionID ?? "") {
            if let id = token.originalTransactionID { ids.append(id) }
        }
        let date = at ?? receivedAt
        let states: [String: SubscriptionState]
        do {
            states = try await reader.states(of: ids, at: date)
        } catch {
            throw Refusal(status: 503, code: error.code.rawValue, message: "stored, but the state could not be read back: \(error.message)")
        }
        return TransactionsAnswer(states: ids.compactMap { states[$0] }, at: date, catalog: catalog)
    }

    /// Stores tokens; a store failure is a 503.
    private func commit(_ tokens: [StoredToken]) async throws(Refusal) -> [StoreOutcome] {
        do {
            return try await store.store(tokens)
        } catch {
            throw Refusal(status: 503, code: error.code.rawValue, message: "the store could not commit: \(error.message)")
        }
    }

    /// The body as a JSON object, read as ReceiptKit reads a JWS (``JSONValue/init(reading:)``):
    /// a member named twice is a 400 `duplicate_member` (of two values, readers keep either),
    /// anything else that is not one JSON object a 400 `not_json_object`, saying why.
    static func object(_ body: [UInt8]) throws(Refusal) -> [String: JSONValue] {
        let value: JSONValue
        do {
            value = try JSONValue(reading: body)
        } catch {
            if let name = error.duplicateMemberName {
                throw Refusal(
                    status: 400, code: AppleVerifyReceiptEndpoint.FailureCode.duplicateMember,
                    message: "the request body names \"\(name.prefix(64))\" twice")
            }
            throw Refusal(
                status: 400, code: AppleVerifyReceiptEndpoint.FailureCode.notJSONObject,
                message: "the request body is not a JSON object: \(error)")
        }
        guard let object = value.objectValue else {
            throw Refusal(status: 400, code: AppleVerifyReceiptEndpoint.FailureCode.notJSONObject, message: "the request body is not a JSON object")
        }
        return object
    }

    /// A string member of the body's object. Other members are left alone: Apple may add some to
    /// the bodies it posts.
    static func member(_ name: String, of body: [UInt8]) throws(Refusal) -> String {
        guard let value = try object(body)[name]?.stringValue, !value.isEmpty else {
            throw Refusal(status: 400, code: "missing_\(name)", message: "the request body has no \(name) string")
        }
        return value
    }

    /// An array-of-strings member (absent: empty).
    static func strings(_ name: String, of object: [String: JSONValue]) throws(Refusal) -> [String] {
        guard let value = object[name] else { return [] }
        guard let elements = value.arrayValue else {
            throw Refusal(status: 400, code: "invalid_\(name)", message: "\(name) is not an array of strings")
        }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard let string = element.stringValue else {
                throw Refusal(status: 400, code: "invalid_\(name)", message: "\(name) is not an array of strings")
            }
            strings.append(string)
        }
        return strings
    }

    /// Refuses (400 `unknown_member`) a member of `object` not in `known`: in a body of this
    /// service's own API, a misspelt `signedRenewalInfo` left out without a word would lose the
    /// tokens it holds.
    static func refuseUnknownMembers(of object: [String: JSONValue], known: Set<String>) throws(Refusal) {
        guard let unknown = object.keys.filter({ !known.contains($0) }).min() else { return }
        throw Refusal(
            status: 400, code: "unknown_member",
            message: "the request body's member \"\(unknown.prefix(64))\" is not one of \(known.sorted().joined(separator: ", "))")
    }
}
