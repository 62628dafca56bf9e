import Foundation

/// The `verify --json` object, decoded strictly: a wrong type for any key fails decoding.
struct VerifyOutputShape: Decodable {
    struct ErrorShape: Decodable {
        var code: String
        var message: String
    }

    struct ReceiptShape: Decodable {
        var bundleID: String?
        var applicationVersion: String?
        var receiptCreationDate: String?
        var inApp: [[String: JSONScalar]]

        enum CodingKeys: String, CodingKey {
            case bundleID = "bundle_id"
            case applicationVersion = "application_version"
            case receiptCreationDate = "receipt_creation_date"
            case inApp = "in_app"
        }
    }

    var file: String
    var valid: Bool
    var error: ErrorShape?
    var hashOK: Bool?
    var receipt: ReceiptShape?

    enum CodingKeys: String, CodingKey {
        case file, valid, error
        case hashOK = "hash_ok"
        case receipt
    }

    static func decode(_ text: String) throws -> VerifyOutputShape {
        try JSONDecoder().decode(VerifyOutputShape.self, from: Data(text.utf8))
    }
}

/// Any JSON value below an object, kept only to check that it decodes.
enum JSONScalar: Decodable, Equatable {
    case string(String), number(Double), bool(Bool), null, array([JSONScalar]), object([String: JSONScalar])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONScalar].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONScalar].self)) }
    }
}
