// libFuzzer target: Apple's `verifyReceipt` request body, read as receipt-server reads it
// (`AppleVerifyReceiptRequest(parsing:)`, the hand-written strict JSON reader with its one-pass
// base64 decode of `receipt-data`), and answered by `AppleVerifyReceiptEndpoint` on the OpenSSL
// backend (the harness validator: fixed "now", each receipt verified at its creation date).
//
// Beyond "no crash" (ASan, Swift traps), on every input:
// - A body the reader accepts, and that Foundation's `JSONSerialization` also reads, is an object
//   there too, with the same `receipt-data`, `password` and `exclude-old-transactions` (a body the
//   reader accepts has no repeated names, so no parser may pick a different one of two values).
// - A body that Foundation refuses as JSON is refused by the reader too (the reader is stricter:
//   nesting depth, member types, repeated names), except for text that RFC 8259 allows and
//   Foundation cannot hold: a number out of range (`1e400`), an escaped surrogate without its pair.
// - The body's answer equals, value and bytes, the answer to the request made from the strings
//   the reader read: the one-pass decode answers as the decode of the text does.
// - A refused body is answered with the refusal's status.
import Foundation
import FuzzSupport
import ReceiptKit

private let endpoint = AppleVerifyReceiptEndpoint(validator: FuzzValidators.require(backend: "openssl"))
private let requestDate = Date(timeIntervalSince1970: 1_767_225_600)

/// Called once by libFuzzer before the first input: builds the validator up front.
@_cdecl("LLVMFuzzerInitialize")
public func initializeRequest(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = endpoint.validator.backend.name
    return 0
}

/// Stops the run with `message` (libFuzzer keeps the input).
private func violated(_ message: String, _ body: [UInt8]) -> Never {
    FileHandle.standardError.write(Data("request invariant violated: \(message)\nbody (\(body.count) bytes): \(String(decoding: body.prefix(300), as: UTF8.self))\n".utf8))
    abort()
}

/// Foundation's reading of `body`: the value, `.notJSON`, or `.unrepresentable` (valid RFC 8259
/// text that Foundation cannot hold: a number out of range, an escaped surrogate without its pair).
private enum FoundationReading {
    case value(Any)
    case notJSON
    case unrepresentable
}

private func foundationReading(_ body: [UInt8]) -> FoundationReading {
    do {
        return .value(try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]))
    } catch {
        let text = "\(error)"
        let unrepresentable = ["not representable", "surrogate", "hex escape sequence"].contains { text.contains($0) }
        return unrepresentable ? .unrepresentable : .notJSON
    }
}

/// `value` as an optional string: `.some(nil)` for absent or JSON null; nil for anything else.
private func optionalString(_ value: Any?) -> String?? {
    switch value {
    case nil, is NSNull: return .some(nil)
    case let text as String: return .some(text)
    default: return nil
    }
}

/// Whether the reader's string `read` is Foundation's `foundation`. Foundation (Swift 6.3.1,
/// Linux) drops one U+FEFF at the start of a string or right after an escape sequence
/// (`"8\"\u{FEFF}/"` reads as `8"/`, `"\u{FEFF}b"` as `b`; found by this target:
/// Fixtures/fuzz-regressions/request/boundary-bom-after-escape). RFC 8259 keeps every character
/// of a string, as the reader does, so the two are also compared without U+FEFF.
private func sameString(_ read: String?, _ foundation: String?) -> Bool {
    if read == foundation { return true }
    guard let read, let foundation else { return false }
    let withoutBOM = { (text: String) in String(text.unicodeScalars.filter { $0 != "\u{FEFF}" }) }
    return read.unicodeScalars.contains("\u{FEFF}") && withoutBOM(read) == withoutBOM(foundation)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let body = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    let parsed = Result { () throws(AppleVerifyReceiptRequest.Refusal) in try AppleVerifyReceiptRequest(parsing: body) }
    let foundation = foundationReading(body)
    switch (parsed, foundation) {
    case (.success(let request), .value(let value)):
        guard let object = value as? [String: Any] else { violated("accepted a body that Foundation reads as \(type(of: value))", body) }
        guard let receiptData = optionalString(object["receipt-data"]), sameString(request.receiptData, receiptData) else {
            violated("receipt-data \(String(describing: request.receiptData?.prefix(40))) against Foundation's \(String(describing: object["receipt-data"]))", body)
        }
        guard let password = optionalString(object["password"]), sameString(request.password, password) else {
            violated("password \(String(describing: request.password)) against Foundation's \(String(describing: object["password"]))", body)
        }
        let exclude = object["exclude-old-transactions"]
        let foundationExclude: Bool? = switch exclude {
        case nil, is NSNull: false
        case let flag as Bool: flag
        default: nil
        }
        guard foundationExclude == request.excludesOldTransactions else {
            violated("exclude-old-transactions \(request.excludesOldTransactions) against Foundation's \(String(describing: exclude))", body)
        }
    case (.success, .notJSON):
        violated("accepted a body that Foundation refuses as JSON", body)
    default:
        break
    }
    let answer = endpoint.respond(toBody: body, at: requestDate)
    switch parsed {
    case .success(let request):
        let made = AppleVerifyReceiptRequest(
            receiptData: request.receiptData, password: request.password, excludesOldTransactions: request.excludesOldTransactions)
        let fromStrings = endpoint.respond(to: made, at: requestDate)
        guard answer == fromStrings, answer.jsonBytes() == fromStrings.jsonBytes() else {
            let texts = [answer, fromStrings].map { String(decoding: $0.jsonBytes().prefix(240), as: UTF8.self) }
            violated("the body answers otherwise than the request made from its strings:\n  body:    \(texts[0])\n  strings: \(texts[1])", body)
        }
    case .failure(let refusal):
        guard answer.status == refusal.status else {
            violated("refused as \(refusal) but answered \(answer.status)", body)
        }
    }
    return 0
}
