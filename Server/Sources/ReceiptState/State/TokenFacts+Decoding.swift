import Foundation

/// Why a token's facts could not be read.
public struct TokenFactsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, naming the part.
    public var message: String

    /// `message`.
    public var description: String { message }
}

extension TokenFacts {
    /// The largest token read, in bytes (Apple's notifications are a few kilobytes).
    public static let maximumTokenSize = 1 << 20

    /// Reads the facts of a token's payload: the compact JWS's middle part, base64url, as JSON
    /// (a notification's nested `signedTransactionInfo` and `signedRenewalInfo` too).
    ///
    /// Only for tokens whose signature has been verified (the store keeps no other): the
    /// signature is not checked here.
    public init(verifiedToken token: String, kind: TokenKind) throws(TokenFactsError) {
        let payload = try Self.payload(of: token)
        do {
            switch kind {
            case .transaction:
                self = .transaction(try JSONDecoder().decode(TransactionFacts.self, from: payload))
            case .renewalInfo:
                self = .renewalInfo(try JSONDecoder().decode(RenewalFacts.self, from: payload))
            case .notification:
                let notification = try JSONDecoder().decode(NotificationBody.self, from: payload)
                var transaction: TransactionFacts?
                if let nested = notification.data?.signedTransactionInfo {
                    transaction = try JSONDecoder().decode(TransactionFacts.self, from: try Self.payload(of: nested))
                }
                var renewal: RenewalFacts?
                if let nested = notification.data?.signedRenewalInfo {
                    renewal = try JSONDecoder().decode(RenewalFacts.self, from: try Self.payload(of: nested))
                }
                self = .notification(NotificationFacts(
                    notificationType: notification.notificationType, subtype: notification.subtype,
                    notificationUUID: notification.notificationUUID, signedDate: notification.signedDate,
                    bundleId: notification.data?.bundleId, environment: notification.data?.environment,
                    transaction: transaction, renewalInfo: renewal))
            }
        } catch let error as TokenFactsError {
            throw error
        } catch {
            throw TokenFactsError(message: "the \(kind.rawValue) payload is not the JSON expected: \(error)")
        }
    }

    /// The decoded middle part of a compact JWS.
    static func payload(of token: String) throws(TokenFactsError) -> Data {
        guard token.utf8.count <= maximumTokenSize else {
            throw TokenFactsError(message: "the token is \(token.utf8.count) bytes; at most \(maximumTokenSize)")
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw TokenFactsError(message: "a compact JWS has 3 parts; this has \(parts.count)") }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text.append("=") }
        guard let data = Data(base64Encoded: text) else { throw TokenFactsError(message: "the JWS payload is not base64url") }
        return data
    }

    /// A notification's outer payload.
    private struct NotificationBody: Decodable {
        var notificationType: String
        var subtype: String?
        var notificationUUID: String
        var signedDate: Int64
        var data: DataPart?

        struct DataPart: Decodable {
            var bundleId: String?
            var environment: String?
            var signedTransactionInfo: String?
            var signedRenewalInfo: String?
        }
    }
}
