#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// The object `verify --json` / `--ndjson` prints for a JWS input:
/// `{"code"?, "file", "kind"?, "message"?, "payload"?, "signed_date"?, "valid"}` — `code` and
/// `message` only when invalid; `kind`, `signed_date` and `payload` (the token's payload with
/// Apple's own field names and values, every member kept) only when valid, since nothing is shown
/// from unverified bytes. Kept apart from the receipt writer (``JSONByteWriter``): a token is
/// rare beside receipts and its payload's member names are not a fixed schema.
struct TokenVerificationJSON: Encodable {
    var file: String
    var valid: Bool
    var kind: String?
    var code: String?
    var message: String?
    var signedDate: String?
    var payload: JSONValueText?

    enum CodingKeys: String, CodingKey {
        case file, valid, kind, code, message, payload
        case signedDate = "signed_date"
    }

    init(_ outcome: VerificationOutcome, token: TokenOutcome) {
        file = outcome.label
        switch token.result {
        case .success(let verified):
            valid = true
            kind = verified.kind.rawValue
            signedDate = TokenText.millisecondDate(verified.signedDate)
            payload = JSONValueText(TokenText.payloadJSON(of: verified))
        case .failure(let error):
            valid = false
            code = error.code.rawValue
            message = outcome.displayedMessage(for: error)
        }
    }

    /// The object's text: pretty (the tool's `--json` layout) or one line.
    func text(pretty: Bool) -> [UInt8] {
        Array(JSONText.encode(self, compact: !pretty).utf8)
    }
}

/// A ``JSONValue`` written as JSON: numbers that are exact integers as integers, others as
/// doubles; member order sorted by the encoder.
struct JSONValueText: Encodable {
    var value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .object(let members):
            var container = encoder.container(keyedBy: MemberKey.self)
            for (name, member) in members {
                try container.encode(JSONValueText(member), forKey: MemberKey(name))
            }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(JSONValueText(element)) }
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .number:
            var container = encoder.singleValueContainer()
            if let integer = value.int64Value {
                try container.encode(integer)
            } else {
                try container.encode(value.doubleValue ?? 0)
            }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }

    /// Any member name.
    struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
