#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Typed reads of a payload object's documented members: an absent member (or JSON `null`) is
/// `nil`; a member of the wrong type is `malformed_jws`, naming it.
struct PayloadFields {
    let object: [String: JSONValue]
    /// The object's name in messages ("transaction", "notification data").
    let context: String

    init(_ object: [String: JSONValue], context: String) {
        self.object = object
        self.context = context
    }

    /// Reads a payload's bytes as a JSON object.
    static func object(_ bytes: [UInt8], context: String) throws(ReceiptValidationError) -> [String: JSONValue] {
        switch JSONReader.read(bytes[...]) {
        case .success(.object(let members)): return members
        case .success: throw ReceiptValidationError(.malformedJWS, "The \(context) payload is not a JSON object.")
        case .failure(let error):
            throw ReceiptValidationError(.malformedJWS, "The \(context) payload is not JSON: \(error.reason).", offset: error.offset)
        }
    }

    private func value(_ name: String) -> JSONValue? {
        guard let value = object[name], value != .null else { return nil }
        return value
    }

    private func wrongType(_ name: String, _ expected: String) -> ReceiptValidationError {
        ReceiptValidationError(.malformedJWS, "The \(context) member \"\(name)\" is not \(expected).")
    }

    func string(_ name: String) throws(ReceiptValidationError) -> String? {
        guard let value = value(name) else { return nil }
        guard let text = value.stringValue else { throw wrongType(name, "a string") }
        return text
    }

    func int(_ name: String) throws(ReceiptValidationError) -> Int64? {
        guard let value = value(name) else { return nil }
        guard let number = value.int64Value else { throw wrongType(name, "an integer") }
        return number
    }

    func bool(_ name: String) throws(ReceiptValidationError) -> Bool? {
        guard let value = value(name) else { return nil }
        guard let flag = value.boolValue else { throw wrongType(name, "a boolean") }
        return flag
    }

    /// Apple's dates: integer milliseconds since 1970.
    func date(_ name: String) throws(ReceiptValidationError) -> Date? {
        guard let milliseconds = try int(name) else { return nil }
        guard abs(milliseconds) < 1_000_000_000_000_000 else { throw wrongType(name, "a date in milliseconds") }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    func strings(_ name: String) throws(ReceiptValidationError) -> [String]? {
        guard let value = value(name) else { return nil }
        guard let elements = value.arrayValue else { throw wrongType(name, "an array of strings") }
        var result: [String] = []
        for element in elements {
            guard let text = element.stringValue else { throw wrongType(name, "an array of strings") }
            result.append(text)
        }
        return result
    }

    func nested(_ name: String) throws(ReceiptValidationError) -> [String: JSONValue]? {
        guard let value = value(name) else { return nil }
        guard let members = value.objectValue else { throw wrongType(name, "an object") }
        return members
    }
}
