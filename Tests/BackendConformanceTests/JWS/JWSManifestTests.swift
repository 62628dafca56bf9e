import Foundation
import ReceiptCore
import ReceiptKit
import ReceiptTestSupport
import Testing

/// Every `jws_cases` entry of `Fixtures/manifest.json` (the synthetic Apple-shaped PKI of
/// `Fixtures/jws` and the real Apple-signed samples of `Fixtures/real-jws`) on every compiled-in
/// backend, cold (a fresh validator) and warm (a validator, one per configuration, whose cache
/// every token of the fixture set has already passed through).
@Suite("JWS manifest cases")
struct JWSManifestTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var file: String
        var anchors: [String]
        var time: String
        var bundleID: String?
        var expectedError: String?
        var expectedKind: String?
        var expectedSignedDate: String?
        var expectedPayload: [String: String]
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: Fixtures.directory.appendingPathComponent("manifest.json")),
              let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let list = manifest["jws_cases"] as? [[String: Any]]
        else { return [] }
        return list.compactMap { entry in
            guard let name = entry["name"] as? String, let file = entry["file"] as? String,
                  let expect = entry["expect"] as? [String: Any]
            else { return nil }
            let payload = (expect["payload"] as? [String: Any] ?? [:]).mapValues { "\($0)" }
            return Case(
                name: name, file: file, anchors: entry["anchors"] as? [String] ?? [], time: entry["time"] as? String ?? "creation",
                bundleID: entry["expected_bundle_id"] as? String, expectedError: expect["error"] as? String,
                expectedKind: expect["kind"] as? String, expectedSignedDate: expect["signed_date"] as? String,
                expectedPayload: payload)
        }
    }()

    static func configuration(_ testCase: Case) throws -> ReceiptValidator.Configuration {
        var anchors: [Certificate] = []
        for anchor in testCase.anchors {
            if anchor == "embedded:apple-root" {
                anchors.append(AppleRootCertificates.appleRootCAG3)
            } else {
                anchors.append(Certificate(derBytes: try Fixtures.bytes(atPath: anchor)))
            }
        }
        let time: VerificationTime
        switch testCase.time {
        case "creation": time = .creationDate
        case "now": time = .now
        default:
            let formatter = ISO8601DateFormatter()
            time = .fixed(try #require(formatter.date(from: testCase.time)))
        }
        return ReceiptValidator.Configuration(
            verificationTime: time, expectedBundleID: testCase.bundleID, jwsTrustAnchors: anchors)
    }

    /// The outcome as one comparable line: the error code, or `valid kind signedDate field=value…`.
    static func outcome(_ validator: ReceiptValidator, _ token: [UInt8], fields: [String]) -> String {
        do {
            let verified = try validator.verifyJWS(token)
            var line = "valid \(verified.kind.rawValue) \(Self.milliseconds(verified.signedDate))"
            var object = verified.payload.fields
            if case .notification(let notification) = verified.payload, var data = notification.data?.fields {
                // The nested tokens' verified payloads, where the manifest looks for them.
                data["transaction"] = notification.data?.transaction.map { .object($0.fields) }
                data["renewalInfo"] = notification.data?.renewalInfo.map { .object($0.fields) }
                object["data"] = .object(data)
            }
            for field in fields.sorted() {
                line += " \(field)=\(Self.value(at: field, in: object).map(Self.text) ?? "-")"
            }
            return line
        } catch {
            return error.code.rawValue
        }
    }

    /// The member at a dotted path (`data.transaction.productId`); `transaction` and
    /// `renewalInfo` under `data` are the verified nested payloads.
    static func value(at path: String, in object: [String: JSONValue]) -> JSONValue? {
        var current: JSONValue = .object(object)
        for component in path.split(separator: ".").map(String.init) {
            guard let next = current[component] else { return nil }
            current = next
        }
        return current
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let text): text
        case .bool(let flag): flag ? "1" : "0"
        default: "\(value)"
        }
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    static func expected(_ testCase: Case) throws -> String {
        if let error = testCase.expectedError { return error }
        let text = try #require(testCase.expectedSignedDate)
        let date = try #require(ISO8601DateFormatter.withFractionalSeconds.date(from: text))
        var line = "valid \(try #require(testCase.expectedKind)) \(Self.milliseconds(date))"
        for field in testCase.expectedPayload.keys.sorted() {
            let value = testCase.expectedPayload[field] ?? "-"
            line += " \(field)=\(value == "true" ? "1" : value == "false" ? "0" : value)"
        }
        return line
    }

    @Test("The manifest holds the JWS cases")
    func manifestIsRead() {
        #expect(Self.cases.count >= 60)
        #expect(Self.cases.contains { $0.expectedError == nil && $0.file.hasPrefix("real-jws/") })
    }

    /// What makes two cases' validators alike: their anchors, verification time and bundle ID.
    static func configurationKey(_ testCase: Case) -> String {
        "\(testCase.anchors.joined(separator: ","))|\(testCase.time)|\(testCase.bundleID ?? "-")"
    }

    @Test("Each case's outcome, cold and warm, on every backend", arguments: BackendFixtures.backends)
    func cases(_ backend: BackendCase) throws {
        let tokens = try Self.cases.map { try Fixtures.bytes(atPath: $0.file) }
        // One warm validator per configuration, shared by the cases that have it: every token of
        // the set passes through it before its first case is checked (filling its cache with each
        // chain that verifies), and each later case finds it also holding what the cases before
        // left in it. Warming one validator per case did the same for 65 × 65 validations.
        var warmValidators: [String: ReceiptValidator] = [:]
        for (testCase, token) in zip(Self.cases, tokens) {
            let expected = try Self.expected(testCase)
            let fields = Array(testCase.expectedPayload.keys)
            let configuration = try Self.configuration(testCase)
            let cold = Self.outcome(
                try ReceiptValidator(backend: backend.backend, configuration: configuration), token, fields: fields)
            #expect(cold == expected, "\(backend.backend.name) cold \(testCase.name)")
            let key = Self.configurationKey(testCase)
            let warm: ReceiptValidator
            if let shared = warmValidators[key] {
                warm = shared
            } else {
                warm = try ReceiptValidator(backend: backend.backend, configuration: configuration)
                for other in tokens { _ = Self.outcome(warm, other, fields: []) }
                warmValidators[key] = warm
            }
            #expect(Self.outcome(warm, token, fields: fields) == expected, "\(backend.backend.name) warm \(testCase.name)")
            #expect(Self.outcome(warm, token, fields: fields) == expected, "\(backend.backend.name) warm again \(testCase.name)")
        }
    }
}

extension ISO8601DateFormatter {
    static var withFractionalSeconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
