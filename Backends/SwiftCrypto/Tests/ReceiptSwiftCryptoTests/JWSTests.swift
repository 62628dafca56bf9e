import Foundation
import ReceiptKit
import ReceiptSwiftCrypto
import Testing

/// The JWS cases of `Fixtures/manifest.json` (`jws_cases`: the synthetic Apple-shaped PKI and the
/// real Apple samples) on ``SwiftCryptoBackend``, cold and warm: each gives the manifest's code,
/// or verifies as the manifest's kind.
@Suite struct JWSTests {
    struct Case {
        var name: String
        var token: [UInt8]
        var configuration: ReceiptValidator.Configuration
        var expected: String
    }

    static func cases() throws -> [Case] {
        let fixtures = ConformanceKitTests.fixtures
        let data = try Data(contentsOf: fixtures.appendingPathComponent("manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let list = try #require(manifest["jws_cases"] as? [[String: Any]])
        return try list.map { entry in
            let name = try #require(entry["name"] as? String)
            let file = try #require(entry["file"] as? String)
            let expect = try #require(entry["expect"] as? [String: Any])
            var anchors: [ReceiptKit.Certificate] = []
            for anchor in entry["anchors"] as? [String] ?? [] {
                if anchor == "embedded:apple-root" {
                    anchors.append(AppleRootCertificates.appleRootCAG3)
                } else {
                    let bytes = try Data(contentsOf: fixtures.appendingPathComponent(anchor))
                    anchors.append(ReceiptKit.Certificate(derBytes: Array(bytes)))
                }
            }
            let time: VerificationTime
            switch entry["time"] as? String ?? "creation" {
            case "creation": time = .creationDate
            case "now": time = .now
            case let text:
                let date = try #require(ISO8601DateFormatter().date(from: text))
                time = .fixed(date)
            }
            let configuration = ReceiptValidator.Configuration(
                verificationTime: time, expectedBundleID: entry["expected_bundle_id"] as? String, jwsTrustAnchors: anchors)
            let expected = (expect["error"] as? String) ?? "valid \(expect["kind"] as? String ?? "?")"
            let token = Array(try Data(contentsOf: fixtures.appendingPathComponent(file)))
            return Case(name: name, token: token, configuration: configuration, expected: expected)
        }
    }

    static func outcome(_ validator: ReceiptValidator, _ token: [UInt8]) -> String {
        do {
            return "valid \(try validator.verifyJWS(token).kind.rawValue)"
        } catch {
            return error.code.rawValue
        }
    }

    @Test func everyJWSCaseGivesTheManifestOutcome() throws {
        let cases = try Self.cases()
        #expect(cases.count >= 60)
        for testCase in cases {
            let validator = try ReceiptValidator(backend: SwiftCryptoBackend(), configuration: testCase.configuration)
            #expect(Self.outcome(validator, testCase.token) == testCase.expected, "cold \(testCase.name)")
            #expect(Self.outcome(validator, testCase.token) == testCase.expected, "warm \(testCase.name)")
        }
        print("swift-crypto JWS: \(cases.count) cases, cold and warm")
    }
}
