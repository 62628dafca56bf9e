import Foundation

/// A token's place in the order that decides: its `signedDate`, then its key (so that two tokens
/// signed in the same millisecond still give one answer, whatever order they arrived in).
struct SignedOrder: Comparable, Hashable, Sendable {
    var signedDate: Int64
    var token: String

    static func < (left: SignedOrder, right: SignedOrder) -> Bool {
        left.signedDate != right.signedDate ? left.signedDate < right.signedDate : left.token < right.token
    }
}

extension SubscriptionState {
    /// The notification types that revoke their transaction.
    static let revokingNotifications: Set<String> = ["REFUND", "REVOKE"]
    /// The notification type that undoes a refund.
    static let refundReversed = "REFUND_REVERSED"

    /// The state of `originalTransactionId` at `at` from stored tokens, as a pure function: tokens
    /// signed after `at` are not yet known; among the rest, the latest `signedDate` decides each
    /// field, so neither arrival order nor repeats change the answer. Tokens of other original
    /// transaction ids are ignored. Nil when no token concerns it.
    ///
    /// - Returns: The state, and the tokens whose payload could not be read (never expected: the
    ///   store keeps verified tokens only).
    public static func derive(
        originalTransactionId: String, from tokens: [StoredToken], at: Date
    ) -> (state: SubscriptionState?, unreadable: [TokenFactsError]) {
        var unreadable: [TokenFactsError] = []
        var read: [(key: String, facts: TokenFacts)] = []
        for stored in tokens {
            do {
                read.append((stored.digest, try TokenFacts(verifiedToken: stored.token, kind: stored.kind)))
            } catch {
                unreadable.append(error)
            }
        }
        return (derive(originalTransactionId: originalTransactionId, from: read, at: at), unreadable)
    }

    /// The state from tokens' facts, each with a key that tells equal tokens (the token's
    /// digest): ties of `signedDate` go by key, so the answer does not depend on their order.
    public static func derive(
        originalTransactionId: String, from tokens: [(key: String, facts: TokenFacts)], at: Date
    ) -> SubscriptionState? {
        let now = at.millisecondsSince1970
        var versions: [String: (order: SignedOrder, facts: TransactionFacts)] = [:]
        var revocations: [String: (order: SignedOrder, revoked: Bool, date: Int64?)] = [:]
        var renewal: (order: SignedOrder, facts: RenewalFacts)?
        var notification: (order: SignedOrder, facts: NotificationFacts)?

        func record(_ transaction: TransactionFacts, order: SignedOrder) {
            if versions[transaction.transactionId].map({ $0.order < order }) ?? true {
                versions[transaction.transactionId] = (order, transaction)
            }
            let evidence = (order, transaction.revocationDate != nil, transaction.revocationDate)
            if revocations[transaction.transactionId].map({ $0.order < order }) ?? true {
                revocations[transaction.transactionId] = evidence
            }
        }
        func record(_ info: RenewalFacts, order: SignedOrder) {
            if renewal.map({ $0.order < order }) ?? true { renewal = (order, info) }
        }

        for (key, facts) in tokens {
            guard facts.signedDate <= now, facts.originalTransactionId == originalTransactionId else { continue }
            switch facts {
            case .transaction(let transaction):
                record(transaction, order: SignedOrder(signedDate: transaction.signedDate, token: key))
            case .renewalInfo(let info):
                record(info, order: SignedOrder(signedDate: info.signedDate, token: key))
            case .notification(let facts):
                let order = SignedOrder(signedDate: facts.signedDate, token: key)
                if notification.map({ $0.order < order }) ?? true { notification = (order, facts) }
                if let transaction = facts.transaction, transaction.signedDate <= now {
                    record(transaction, order: SignedOrder(signedDate: transaction.signedDate, token: key))
                    if revokingNotifications.contains(facts.notificationType) || facts.notificationType == refundReversed {
                        let revoked = facts.notificationType != refundReversed
                        let date = revoked ? (transaction.revocationDate ?? facts.signedDate) : nil
                        // The notification's word stands over its own nested transaction's (same order).
                        if revocations[transaction.transactionId].map({ $0.order <= order }) ?? true {
                            revocations[transaction.transactionId] = (order, revoked, date)
                        }
                    }
                }
                if let info = facts.renewalInfo, info.signedDate <= now {
                    record(info, order: SignedOrder(signedDate: info.signedDate, token: key))
                }
            }
        }
        guard !versions.isEmpty || renewal != nil || notification != nil else { return nil }

        let transactions = versions.values.map { version in
            let revocation = revocations[version.facts.transactionId]
            return StateTransaction(facts: version.facts, isRevoked: revocation?.revoked ?? false, revocationDate: revocation?.date)
        }.sorted(by: isNewer)
        let latest = transactions.first
        let standing = transactions.filter { !$0.isRevoked }
        let expires = standing.compactMap(\.facts.expiresDate).max()
        var active = standing.contains { transaction in
            // A consumable is used up: it grants nothing that lasts (ReceiptKit's entitlements
            // count it inactive too, and both are in one `POST /transactions` answer).
            guard transaction.facts.type != "Consumable" else { return false }
            let started = (transaction.facts.purchaseDate ?? Int64.min) <= now
            guard let expiry = transaction.facts.expiresDate else { return started }
            return started && now < expiry
        }
        if let info = renewal?.facts, info.isInBillingRetryPeriod == true, let grace = info.gracePeriodExpiresDate, now < grace,
            latest?.isRevoked == false
        {
            active = true
        }
        return (
            SubscriptionState(
                originalTransactionId: originalTransactionId, productId: latest?.facts.productId ?? renewal?.facts.productId,
                subscriptionGroupIdentifier: latest?.facts.subscriptionGroupIdentifier,
                environment: latest?.facts.environment ?? renewal?.facts.environment, expiresDate: expires, isActive: active,
                autoRenewStatus: renewal?.facts.autoRenewStatus, autoRenewProductId: renewal?.facts.autoRenewProductId,
                isInBillingRetryPeriod: renewal?.facts.isInBillingRetryPeriod,
                gracePeriodExpiresDate: renewal?.facts.gracePeriodExpiresDate, isRevoked: latest?.isRevoked ?? false,
                lastNotification: notification.map {
                    LastNotification(
                        type: $0.facts.notificationType, subtype: $0.facts.subtype, signedDate: $0.facts.signedDate,
                        notificationUUID: $0.facts.notificationUUID)
                },
                transactions: transactions, renewalInfo: renewal?.facts)
        )
    }

    /// Newest first: the later purchase, then the later expiry, then the larger transaction id.
    static func isNewer(_ left: StateTransaction, _ right: StateTransaction) -> Bool {
        let l = left.facts
        let r = right.facts
        if l.purchaseDate != r.purchaseDate { return (l.purchaseDate ?? Int64.min) > (r.purchaseDate ?? Int64.min) }
        if l.expiresDate != r.expiresDate { return (l.expiresDate ?? Int64.min) > (r.expiresDate ?? Int64.min) }
        return l.transactionId > r.transactionId
    }
}
