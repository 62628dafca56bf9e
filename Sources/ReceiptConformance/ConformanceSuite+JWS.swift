#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptCore

extension ConformanceSuite {
    /// Verifies the token in the file at `url` with `validator` and reduces the result to what every
    /// backend must agree on: the failure code, or the kind, signedDate and the named payload fields.
    static func tokenOutcome(validator: ReceiptValidator, contentsOf url: URL, fields: [String]) -> ConformanceOutcome {
        guard let data = try? Data(contentsOf: url) else { return .failure(.receiptNotFound) }
        do {
            let verified = try validator.verifyJWS(Array(data))
            return .validToken(tokenFields(of: verified, named: fields))
        } catch {
            return .failure(error.code)
        }
    }

    /// The kind, signedDate (RFC 3339 with milliseconds) and the named fields of a verified token.
    public static func tokenFields(of verified: VerifiedJWS, named fields: [String]) -> ConformanceOutcome.TokenFields {
        var payload: [String: ConformanceValue] = [:]
        for name in fields {
            if let value = JWSFieldReader.value(of: name, in: verified.payload) { payload[name] = value }
        }
        return ConformanceOutcome.TokenFields(
            kind: verified.kind.rawValue, signedDate: millisecondText(verified.signedDate), payload: payload)
    }

    /// `2025-06-01T12:00:00.123Z`.
    static func millisecondText(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let fraction = milliseconds - seconds * 1000
        var text = RFC3339.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        if text.hasSuffix("Z") { text.removeLast() }
        let digits = String(fraction)
        return text + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }
}

/// Reads a payload field by Apple's name from the library's typed payloads (never from the raw
/// JSON: the typed decode is what the kit holds backends to).
enum JWSFieldReader {
    static func value(of name: String, in payload: JWSPayload) -> ConformanceValue? {
        switch payload {
        case .transaction(let transaction): transactionValue(name, transaction)
        case .renewalInfo(let renewal): renewalValue(name, renewal)
        case .appTransaction(let app): appTransactionValue(name, app)
        case .notification(let notification): notificationValue(name, notification)
        }
    }

    private static func text(_ value: String?) -> ConformanceValue? { value.map(ConformanceValue.string) }
    private static func number(_ value: (some BinaryInteger)?) -> ConformanceValue? { value.map { .integer(Int64($0)) } }
    private static func milliseconds(_ value: Date?) -> ConformanceValue? {
        value.map { .integer(Int64(($0.timeIntervalSince1970 * 1000).rounded())) }
    }

    static func transactionValue(_ name: String, _ payload: TransactionPayload) -> ConformanceValue? {
        switch name {
        case "transactionId": text(payload.transactionId)
        case "originalTransactionId": text(payload.originalTransactionId)
        case "bundleId": text(payload.bundleId)
        case "productId": text(payload.productId)
        case "type": text(payload.type)
        case "environment": text(payload.environment)
        case "purchaseDate": milliseconds(payload.purchaseDate)
        case "quantity": number(payload.quantity)
        default: nil
        }
    }

    static func renewalValue(_ name: String, _ payload: RenewalInfoPayload) -> ConformanceValue? {
        switch name {
        case "originalTransactionId": text(payload.originalTransactionId)
        case "productId": text(payload.productId)
        case "autoRenewProductId": text(payload.autoRenewProductId)
        case "autoRenewStatus": number(payload.autoRenewStatus)
        case "environment": text(payload.environment)
        default: nil
        }
    }

    static func appTransactionValue(_ name: String, _ payload: AppTransactionPayload) -> ConformanceValue? {
        switch name {
        case "bundleId": text(payload.bundleId)
        case "appAppleId": number(payload.appAppleId)
        case "applicationVersion": text(payload.applicationVersion)
        case "receiptType": text(payload.receiptType)
        case "appTransactionId": text(payload.appTransactionId)
        default: nil
        }
    }

    static func notificationValue(_ name: String, _ payload: NotificationPayload) -> ConformanceValue? {
        if name.hasPrefix("data.transaction.") {
            return payload.data?.transaction.flatMap { transactionValue(String(name.dropFirst("data.transaction.".count)), $0) }
        }
        if name.hasPrefix("data.renewalInfo.") {
            return payload.data?.renewalInfo.flatMap { renewalValue(String(name.dropFirst("data.renewalInfo.".count)), $0) }
        }
        return switch name {
        case "notificationType": text(payload.notificationType)
        case "notificationUUID": text(payload.notificationUUID)
        case "version": text(payload.version)
        case "data.bundleId": text(payload.data?.bundleId)
        case "data.environment": text(payload.data?.environment)
        case "data.appAppleId": number(payload.data?.appAppleId)
        default: nil
        }
    }
}
