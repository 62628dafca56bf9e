import Foundation
import ReceiptKit
@testable import receipt

/// The `verify` JSON object as a `Codable` model encoded by `JSONEncoder`: the reference the
/// tool's ``JSONByteWriter`` output is held equal to.
struct VerificationJSONReference: Encodable {
    var file: String
    var valid: Bool
    var error: ErrorJSON?

    /// The reference's error object: `{"code", "message"}`.
    struct ErrorJSON: Encodable {
        var code: String
        var message: String
    }
    var hashOK: Bool?
    var receipt: Receipt?

    init(_ outcome: VerificationOutcome) {
        file = outcome.label
        valid = outcome.report.isValid
        error = outcome.report.error.map { error in
            var message = error.message
            if let library = error.libraryMessage, !library.isEmpty { message += " [\(library)]" }
            return ErrorJSON(code: error.code.rawValue, message: message)
        }
        hashOK = outcome.report.deviceHashMatches
        receipt = outcome.report.receipt
    }

    private enum CodingKeys: String, CodingKey {
        case file, valid, error
        case hashOK = "hash_ok"
        case receipt
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(valid, forKey: .valid)
        try container.encodeIfPresent(error, forKey: .error)
        if let hashOK {
            try container.encode(hashOK, forKey: .hashOK)
        } else {
            try container.encodeNil(forKey: .hashOK)
        }
        try container.encodeIfPresent(receipt, forKey: .receipt)
    }

    /// The JSONEncoder text, as the tool printed it before it had its own writer.
    func encoded(pretty: Bool) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
