import Foundation
import ReceiptKit

/// A `verifyReceipt` answer with the stored state added: `latest_receipt_info` gains the stored
/// transactions of the receipt's subscriptions that the receipt does not hold (and the stored
/// revocations of those it does), and `pending_renewal_info` comes from the latest stored renewal
/// infos. With nothing stored it is the receipt's answer, byte for byte.
public struct StatefulVerifyReceiptResponse: Sendable, Encodable {
    /// The answer, `latest_receipt_info` merged.
    public var response: AppleVerifyReceiptResponse
    /// `pending_renewal_info`, one entry per subscription with a stored renewal info, by original
    /// transaction id; nil when none.
    public var pendingRenewalInfo: [ApplePendingRenewalInfo]?

    /// The receipt's answer with nothing added.
    public init(_ response: AppleVerifyReceiptResponse) {
        self.response = response
    }

    /// The original transaction ids whose state the answer can take: those of the receipt's
    /// subscriptions (`latest_receipt_info`), on a valid answer only.
    /// The server finds them once a request, on the validation thread (found two or three times,
    /// each id hashed each time, they were 2.7 % of a 187-purchase request's instructions).
    public static func originalTransactionIDs(of response: AppleVerifyReceiptResponse) -> [String] {
        guard response.status == .valid, let entries = response.latestReceiptInfo else { return [] }
        var seen = Set<String>()
        var ids: [String] = []
        for index in entries.indices {
            // A subscription's entries mostly follow one another: the id just seen is not hashed again.
            guard let id = entries[index].originalTransactionID, id != ids.last else { continue }
            if seen.insert(id).inserted { ids.append(id) }
        }
        return ids
    }

    /// Merges `states` (keyed by original transaction id) into `response`.
    /// - Parameter excludesOldTransactions: Keep only the latest transaction of each subscription
    ///   (the request's `exclude-old-transactions`).
    public init(merging states: [String: SubscriptionState], into response: AppleVerifyReceiptResponse, excludesOldTransactions: Bool) {
        self.init(merging: states, into: response, ids: Self.originalTransactionIDs(of: response), excludesOldTransactions: excludesOldTransactions)
    }

    /// ``init(merging:into:excludesOldTransactions:)`` with `ids`, the response's
    /// ``originalTransactionIDs(of:)``, found already. Package-only: ids that are not the
    /// response's own would merge the wrong subscriptions, so a client cannot pass them.
    package init(
        merging states: [String: SubscriptionState], into response: AppleVerifyReceiptResponse, ids: [String], excludesOldTransactions: Bool
    ) {
        self.response = response
        guard let entries = response.latestReceiptInfo, ids.contains(where: { states[$0] != nil }) else { return }
        var merged: [(order: Int, entry: AppleResponseTransaction)] = []
        var present = Set<String>()
        for (order, entry) in entries.enumerated() {
            var entry = entry
            if let id = entry.transactionID, let original = entry.originalTransactionID,
                let stored = states[original]?.transactions.first(where: { $0.facts.transactionId == id })
            {
                present.insert(id)
                if stored.isRevoked, entry.cancellationDate == nil {
                    entry.cancellationDate = stored.revocationDate.map { AppleDate(Date(millisecondsSince1970: $0)) }
                }
            }
            merged.append((order, entry))
        }
        // One subscription, one group id in the answer: the receipt's own (from `--catalog`) when
        // its entries carry one, else the one Apple signed into the stored transactions. (The
        // stored entries carried Apple's id beside the receipt's catalog id, so a client
        // grouping by `subscription_group_identifier` saw one subscription in two groups.)
        var groups: [String: String] = [:]
        for (_, entry) in merged {
            if let original = entry.originalTransactionID, let group = entry.subscriptionGroupIdentifier { groups[original] = groups[original] ?? group }
        }
        for id in ids where groups[id] == nil {
            if let group = states[id]?.transactions.lazy.compactMap(\.facts.subscriptionGroupIdentifier).first { groups[id] = group }
        }
        for index in merged.indices {
            if let original = merged[index].entry.originalTransactionID, states[original] != nil, let group = groups[original] {
                merged[index].entry.subscriptionGroupIdentifier = group
            }
        }
        for id in ids {
            guard let state = states[id] else { continue }
            for transaction in state.transactions.reversed() where !present.contains(transaction.facts.transactionId) {
                var entry = AppleResponseTransaction(transaction)
                if let group = groups[id] { entry.subscriptionGroupIdentifier = group }
                merged.append((merged.count, entry))
            }
        }
        let distantPast = Int64.min
        merged.sort { left, right in
            let l = left.entry.purchaseDate.flatMap { Int64($0.milliseconds) } ?? distantPast
            let r = right.entry.purchaseDate.flatMap { Int64($0.milliseconds) } ?? distantPast
            return l != r ? l < r : left.order < right.order
        }
        var result = merged.map(\.entry)
        if excludesOldTransactions {
            var latest: [String: Int] = [:]
            for (index, entry) in result.enumerated() {
                latest[entry.originalTransactionID ?? entry.transactionID ?? "\(index)"] = index
            }
            let keep = Set(latest.values)
            result = result.enumerated().filter { keep.contains($0.offset) }.map(\.element)
        }
        self.response.latestReceiptInfo = result
        let renewals = ids.sorted().compactMap { states[$0]?.renewalInfo }.map(ApplePendingRenewalInfo.init)
        pendingRenewalInfo = renewals.isEmpty ? nil : renewals
    }

    /// Writes the answer's members and `pending_renewal_info` in one object.
    public func encode(to encoder: any Encoder) throws {
        try response.encode(to: encoder)
        guard let pendingRenewalInfo else { return }
        var container = encoder.container(keyedBy: AppleKey.self)
        try container.encode(pendingRenewalInfo, forKey: "pending_renewal_info")
    }

    /// The answer as JSON, written by ReceiptKit's ``JSONByteWriter`` as
    /// ``AppleVerifyReceiptResponse/jsonBytes(prettyPrinted:)`` writes the receipt's answer
    /// (members sorted, `/` unescaped); the same bytes as its `Codable` form.
    public func jsonBytes() -> [UInt8] {
        var writer = JSONByteWriter(pretty: false)
        writer.statefulAppleResponse(self)
        return writer.takeBytes()
    }
}

extension AppleResponseTransaction {
    /// The `latest_receipt_info` entry for a stored transaction: Apple's string formats; an
    /// introductory free trial gives `is_trial_period` `"true"`, another introductory offer
    /// `is_in_intro_offer_period` `"true"`; a revocation gives `cancellation_date`.
    public init(_ transaction: StateTransaction) {
        self.init()
        let facts = transaction.facts
        let introductory = facts.offerType == 1
        let freeTrial = introductory && facts.offerDiscountType == "FREE_TRIAL"
        quantity = String(facts.quantity ?? 1)
        productID = facts.productId
        transactionID = facts.transactionId
        originalTransactionID = facts.originalTransactionId
        purchaseDate = facts.purchaseDate.map { AppleDate(Date(millisecondsSince1970: $0)) }
        originalPurchaseDate = facts.originalPurchaseDate.map { AppleDate(Date(millisecondsSince1970: $0)) }
        expiresDate = facts.expiresDate.map { AppleDate(Date(millisecondsSince1970: $0)) }
        webOrderLineItemID = facts.webOrderLineItemId
        isTrialPeriod = freeTrial ? "true" : "false"
        isInIntroOfferPeriod = introductory && !freeTrial ? "true" : "false"
        if transaction.isRevoked {
            cancellationDate = (transaction.revocationDate ?? facts.revocationDate).map { AppleDate(Date(millisecondsSince1970: $0)) }
        }
        promotionalOfferID = facts.offerType == 2 ? facts.offerIdentifier : nil
        subscriptionGroupIdentifier = facts.subscriptionGroupIdentifier
    }
}
