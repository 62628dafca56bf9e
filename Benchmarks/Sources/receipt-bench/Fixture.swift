import Foundation
import ReceiptKit

/// One receipt file measured by the benchmarks, with what its validator and the C baseline need.
struct Fixture {
    /// Short name for the table.
    var name: String
    /// The receipt file.
    var file: URL
    /// The receipt's DER bytes.
    var der: [UInt8]
    /// The unverified payload (for "parse only" and the bare DER walk).
    var payload: [UInt8]
    /// The trust anchor (DER).
    var anchor: Certificate
    /// The trust anchor's file.
    var anchorFile: URL
    /// The receipt's creation date (the verification time).
    var creationDate: Date
    /// The device the GUID hash was computed for, if known.
    var device: DeviceIdentifier?
    /// The bundle id the validator expects, if any.
    var bundleID: String?
    /// Whether the chain is valid now (the GnuTLS C baseline cannot verify at another time).
    var chainValidNow: Bool
    /// Whether the signature or a chain certificate uses SHA-1.
    var usesSHA1: Bool

    /// The validator configuration every Swift measurement of this fixture uses.
    func configuration(cache: Bool) -> ReceiptValidator.Configuration {
        var configuration = ReceiptValidator.Configuration(
            trustAnchors: [anchor],
            expectedBundleID: bundleID,
            deviceIdentifier: device
        )
        configuration.usesVerifiedChainCache = cache
        return configuration
    }

    static func load(fixtures: URL) throws -> [Fixture] {
        let generatedRootFile = fixtures.appendingPathComponent("generated/pki/root.cer")
        let appleRootFile = fixtures.appendingPathComponent("real/certs/AppleIncRootCertificate.cer")
        let device = try DeviceIdentifier(parsing: "00112233-4455-6677-8899-AABBCCDDEEFF")
        var result: [Fixture] = []
        let generated: [(String, String, Bool)] = [
            ("iap1 sha256", "valid-sha256-noattr-iap1", false),
            ("iap50 sha256", "valid-sha256-noattr-iap50", false),
            ("iap5000 sha256", "valid-sha256-noattr-iap5000", false),
            ("iap2 sha1", "valid-sha1-noattr", true),
            ("iap2 sha256+attrs", "valid-sha256-attrs", false),
            ("iap2 sha1+attrs", "valid-sha1-attrs", true),
        ]
        for (name, file, sha1) in generated {
            let url = fixtures.appendingPathComponent("generated/receipts/\(file).receipt")
            result.append(try make(
                name: name, file: url, anchor: generatedRootFile, device: device, bundleID: "com.receiptkit.test",
                chainValidNow: true, usesSHA1: sha1))
        }
        let real = fixtures.appendingPathComponent("real/receipts/tpinapp-sandbox-sha1-2020-187iap.receipt")
        result.append(try make(
            name: "real 187iap sha1", file: real, anchor: appleRootFile, device: nil, bundleID: nil,
            chainValidNow: false, usesSHA1: true))
        return result
    }

    private static func make(
        name: String, file: URL, anchor anchorFile: URL, device: DeviceIdentifier?, bundleID: String?,
        chainValidNow: Bool, usesSHA1: Bool
    ) throws -> Fixture {
        let der = Array(try Data(contentsOf: file))
        let anchor = Array(try Data(contentsOf: anchorFile))
        let container = try PKCS7Container(bytes: der)
        guard let created = try ReceiptParser.creationDate(in: container.content) else {
            throw BenchError("\(name): no creation date")
        }
        return Fixture(
            name: name, file: file, der: der, payload: container.content, anchor: Certificate(derBytes: anchor), anchorFile: anchorFile,
            creationDate: created, device: device, bundleID: bundleID, chainValidNow: chainValidNow, usesSHA1: usesSHA1)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
