import Foundation
import ReceiptKit

extension StateTransaction {
    /// The transaction as ReceiptKit's ``TransactionPayload``: its latest signed version, with
    /// the revocation the state derived (a REFUND or REVOKE notification sets `revocationDate`,
    /// a later REFUND_REVERSED clears it), so that ReceiptKit's entitlements rules apply to it.
    public var transactionPayload: TransactionPayload? {
        var fields: [String: JSONValue] = [
            "transactionId": .string(facts.transactionId),
            "originalTransactionId": .string(facts.originalTransactionId),
            "signedDate": .number(String(facts.signedDate)),
        ]
        func put(_ name: String, _ value: String?) { if let value { fields[name] = .string(value) } }
        func put(_ name: String, _ value: Int64?) { if let value { fields[name] = .number(String(value)) } }
        put("webOrderLineItemId", facts.webOrderLineItemId)
        put("bundleId", facts.bundleId)
        put("productId", facts.productId)
        put("subscriptionGroupIdentifier", facts.subscriptionGroupIdentifier)
        put("purchaseDate", facts.purchaseDate)
        put("originalPurchaseDate", facts.originalPurchaseDate)
        put("expiresDate", facts.expiresDate)
        put("quantity", facts.quantity.map { Int64($0) })
        put("type", facts.type)
        put("inAppOwnershipType", facts.inAppOwnershipType)
        put("offerType", facts.offerType.map { Int64($0) })
        put("offerIdentifier", facts.offerIdentifier)
        put("offerDiscountType", facts.offerDiscountType)
        put("environment", facts.environment)
        put("appAccountToken", facts.appAccountToken)
        if let isUpgraded = facts.isUpgraded { fields["isUpgraded"] = .bool(isUpgraded) }
        if isRevoked {
            put("revocationDate", revocationDate ?? facts.revocationDate ?? facts.signedDate)
            put("revocationReason", facts.revocationReason.map { Int64($0) })
        }
        // Every member is written with the type `init(fields:)` reads, so it does not throw.
        return try? TransactionPayload(fields: fields)
    }
}

extension Entitlements {
    /// The entitlements of the stored state of some original transaction ids at `date`:
    /// ReceiptKit's ``Entitlements/init(transactions:appTransaction:at:catalog:)`` over every
    /// transaction of every state (each in its latest signed version, revocations applied), so
    /// the answer is the one `receipt entitlements` gives for the same transactions.
    public init(states: [SubscriptionState], at date: Date, catalog: ProductCatalog = .empty) {
        let transactions = states.flatMap { $0.transactions.compactMap(\.transactionPayload) }
        self.init(transactions: transactions, at: date, catalog: catalog)
    }
}

/// `POST /transactions`'s answer: the entitlements of the original transaction ids the request
/// concerned, from everything stored for them, and their states.
public struct TransactionsAnswer: Sendable {
    /// ReceiptKit's entitlements of every stored transaction of those ids.
    public var entitlements: Entitlements
    /// The state of each of those ids (as `GET /subscriptions/{id}` gives it), in request order.
    public var subscriptions: [SubscriptionState]

    /// The answer for `states` at `date`.
    public init(states: [SubscriptionState], at date: Date, catalog: ProductCatalog = .empty) {
        self.entitlements = Entitlements(states: states, at: date, catalog: catalog)
        self.subscriptions = states
    }

    /// `{"entitlements": {…}, "subscriptions": [state…]}`: the entitlements object exactly as
    /// `receipt entitlements --json` writes it (ReceiptKit's
    /// ``JSONByteWriter/entitlements(_:)``), the states as `GET /subscriptions/{id}` writes them.
    public func jsonBytes() -> [UInt8] {
        var writer = JSONByteWriter(appendingTo: Array(#"{"entitlements":"#.utf8), pretty: false)
        writer.entitlements(entitlements)
        var bytes = writer.takeBytes()
        bytes.append(contentsOf: #","subscriptions":["#.utf8)
        for (index, state) in subscriptions.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: state.jsonBytes())
        }
        bytes.append(contentsOf: "]}".utf8)
        return bytes
    }
}
