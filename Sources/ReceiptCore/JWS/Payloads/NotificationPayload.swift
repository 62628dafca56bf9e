#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An App Store Server Notification V2 (`ResponseBodyV2DecodedPayload`): the decoded
/// `signedPayload`. A notification verifies only when every JWS nested in it
/// (`data.signedTransactionInfo`, `data.signedRenewalInfo`, `appData.signedAppTransactionInfo`)
/// verifies too, with the same trust anchors, time rule and checks; their payloads are here,
/// verified. Every member is kept in ``fields``.
public struct NotificationPayload: Hashable, Sendable {
    /// `SUBSCRIBED`, `DID_RENEW`, `REFUND`, `TEST`, …
    public var notificationType: String?
    /// `INITIAL_BUY`, `RESUBSCRIBE`, `AUTO_RENEW_DISABLED`, …
    public var subtype: String?
    /// The notification's unique identifier.
    public var notificationUUID: String?
    /// The notification version (`2.0`).
    public var version: String?
    /// When the App Store signed the notification.
    public var signedDate: Date?
    /// The app, environment and the nested transaction and renewal info.
    public var data: NotificationData?
    /// The summary of a subscription-renewal-date extension request.
    public var summary: [String: JSONValue]?
    /// The external purchase token of an `EXTERNAL_PURCHASE_TOKEN` notification.
    public var externalPurchaseToken: [String: JSONValue]?
    /// The app data of an app-transaction notification (its `signedAppTransactionInfo` verified
    /// into ``appTransaction``).
    public var appData: [String: JSONValue]?
    /// The verified payload of `appData.signedAppTransactionInfo`, if present.
    public var appTransaction: AppTransactionPayload?
    /// Every member of the payload object, unknown ones included.
    public var fields: [String: JSONValue]

    /// The notification's `data` object.
    public struct NotificationData: Hashable, Sendable {
        /// The app's App Store identifier.
        public var appAppleId: Int64?
        /// The app's bundle identifier.
        public var bundleId: String?
        /// The app's version.
        public var bundleVersion: String?
        /// `Sandbox` or `Production`.
        public var environment: String?
        /// The subscription's status (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked).
        public var status: Int64?
        /// Why the customer asked for a refund (`CONSUMPTION_REQUEST`).
        public var consumptionRequestReason: String?
        /// The exact `signedTransactionInfo` token.
        public var signedTransactionInfo: String?
        /// The exact `signedRenewalInfo` token.
        public var signedRenewalInfo: String?
        /// The verified payload of ``signedTransactionInfo``.
        public var transaction: TransactionPayload?
        /// The verified payload of ``signedRenewalInfo``.
        public var renewalInfo: RenewalInfoPayload?
        /// Every member of the `data` object, unknown ones included.
        public var fields: [String: JSONValue]
    }

    /// Reads a notification payload object; `verifyNested` verifies one nested token as the kind
    /// given and returns its payload (the validator's pipeline, one level deeper).
    init(
        fields: [String: JSONValue],
        verifyNested: (String, JWSKind) throws(ReceiptValidationError) -> JWSPayload
    ) throws(ReceiptValidationError) {
        let reader = PayloadFields(fields, context: "notification")
        notificationType = try reader.string("notificationType")
        subtype = try reader.string("subtype")
        notificationUUID = try reader.string("notificationUUID")
        version = try reader.string("version")
        signedDate = try reader.date("signedDate")
        summary = try reader.nested("summary")
        externalPurchaseToken = try reader.nested("externalPurchaseToken")
        appData = try reader.nested("appData")
        self.fields = fields
        if let members = try reader.nested("data") {
            let dataReader = PayloadFields(members, context: "notification data")
            var result = NotificationData(
                appAppleId: try dataReader.int("appAppleId"), bundleId: try dataReader.string("bundleId"),
                bundleVersion: try dataReader.string("bundleVersion"), environment: try dataReader.string("environment"),
                status: try dataReader.int("status"), consumptionRequestReason: try dataReader.string("consumptionRequestReason"),
                signedTransactionInfo: try dataReader.string("signedTransactionInfo"),
                signedRenewalInfo: try dataReader.string("signedRenewalInfo"), fields: members)
            if let token = result.signedTransactionInfo {
                guard case .transaction(let payload) = try verifyNested(token, .transaction) else {
                    throw ReceiptValidationError(.malformedJWS, "The notification's signedTransactionInfo is not a transaction.")
                }
                result.transaction = payload
            }
            if let token = result.signedRenewalInfo {
                guard case .renewalInfo(let payload) = try verifyNested(token, .renewalInfo) else {
                    throw ReceiptValidationError(.malformedJWS, "The notification's signedRenewalInfo is not renewal info.")
                }
                result.renewalInfo = payload
            }
            self.data = result
        }
        if let appData, let token = try PayloadFields(appData, context: "notification appData").string("signedAppTransactionInfo") {
            guard case .appTransaction(let payload) = try verifyNested(token, .appTransaction) else {
                throw ReceiptValidationError(.malformedJWS, "The notification's signedAppTransactionInfo is not an app transaction.")
            }
            appTransaction = payload
        }
    }
}
