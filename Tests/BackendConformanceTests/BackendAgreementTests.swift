import Foundation
import ReceiptConformance
import ReceiptCore
import ReceiptKit
import ReceiptTestSupport
import Testing

/// The validator's structure checks (``SignedDataStructure``), which make the verdict on damaged
/// signedData the same on OpenSSL and GnuTLS, and the agreement itself on single-byte mutants.
@Suite struct BackendAgreementTests {
    /// `Fixtures/backend-disagreements`: fuzz-found inputs the backends once classified differently.
    static let agreementDirectory = "backend-disagreements"

    static let agreementCases: [ConformanceCase] =
        ((try? ConformanceManifest(contentsOf: BackendFixtures.directory.appendingPathComponent("manifest.json")))?.cases ?? [])
        .filter { $0.category == "backend-agreement" }

    /// Every receipt that verifies today: real (Apple and Xcode) and generated valid ones.
    static let validReceiptPaths: [String] = {
        let real = BackendFixtures.realReceipts.map(\.receiptPath)
        let generated = ((try? FileManager.default.contentsOfDirectory(
            atPath: BackendFixtures.directory.appendingPathComponent("generated/receipts").path)) ?? [])
            .filter { $0.hasSuffix(".receipt") }.sorted().map { "generated/receipts/\($0)" }
        return real + generated
    }()

    @Test func everyAgreementFixtureIsInTheManifest() throws {
        let files = try FileManager.default.contentsOfDirectory(
            atPath: BackendFixtures.directory.appendingPathComponent(Self.agreementDirectory).path)
            .filter { $0.hasSuffix(".der") }
        #expect(files.count >= 18)
        let referenced = Set(Self.agreementCases.map(\.file))
        for file in files {
            #expect(referenced.contains("\(Self.agreementDirectory)/\(file)"), "\(file) is in no manifest case")
        }
    }

    @Test(arguments: validReceiptPaths)
    func everyVerifiableReceiptPassesTheSharedChecks(_ path: String) throws {
        let bytes = try BackendFixtures.bytes(path)
        let structure = try SignedDataStructure(checking: bytes)
        let container = try PKCS7Container(bytes: bytes)
        #expect(structure.certificates.count == container.certificates.count)
        #expect(structure.certificates.map { Array(bytes[$0]) } == container.certificates.map(\.derBytes))
        #expect(structure.digestAlgorithm == container.digestAlgorithm)
        #expect(structure.hasSignedAttributes == container.hasSignedAttributes)
        #expect(structure.certificates.contains(structure.signerCertificate))
        for range in structure.certificates {
            #expect(CertificateStructure.isCertificate(Array(bytes[range])), "\(path): certificate at \(range)")
        }
    }

    /// The codes of the agreement fixtures come from the validator's structure checks, before any
    /// library decodes anything.
    /// The agreement cases whose code the structure checks decide (not the chain's validity times).
    static let structureCases = agreementCases.filter { testCase in
        guard let code = testCase.expect.error else { return false }
        return !["certificate_expired", "certificate_not_yet_valid"].contains(code)
    }

    @Test(arguments: structureCases)
    func sharedChecksAloneGiveTheAgreedCode(_ testCase: ConformanceCase) throws {
        let bytes = try BackendFixtures.bytes(testCase.file)
        let expected = try #require(testCase.expect.error)
        #expect(throws: ReceiptValidationError.self) {
            _ = try SignedDataStructure(checking: bytes)
        }
        do {
            _ = try SignedDataStructure(checking: bytes)
        } catch {
            #expect(error.code.rawValue == expected, "\(testCase.name): \(error.message)")
        }
    }

    @Test func certificateStructureRefusesWhatEitherLibraryWouldRefuse() throws {
        let leaf = try BackendFixtures.bytes("generated/pki/leaf.cer")
        #expect(CertificateStructure.isCertificate(leaf))
        #expect(!CertificateStructure.isCertificate(leaf + [0]), "trailing byte")
        // The issuer's organizationName (OID 2.5.4.10, UTF8String) with an invalid UTF-8 byte.
        let organization = try #require(Self.firstIndex(of: [0x06, 0x03, 0x55, 0x04, 0x0A, 0x0C], in: leaf))
        var broken = leaf
        broken[organization + 7] = 0xFF
        #expect(!CertificateStructure.isCertificate(broken), "invalid UTF-8 in a name")
        // The same value as a UTCTime (a type OpenSSL does not decode in a name).
        var retyped = leaf
        retyped[organization + 5] = 0x17
        #expect(!CertificateStructure.isCertificate(retyped), "UTCTime in a name")
        // notBefore (the first UTCTime of 13 octets) with a letter in it.
        let time = try #require(Self.firstIndex(of: [0x17, 0x0D], in: leaf))
        var badTime = leaf
        badTime[time + 4] = UInt8(ascii: "x")
        #expect(!CertificateStructure.isCertificate(badTime), "malformed validity time")
        // The key's NULL parameters re-tagged as end-of-contents (OpenSSL refuses, GnuTLS accepted).
        let rsa = try #require(Self.firstIndex(of: [0x01, 0x01, 0x01, 0x05, 0x00], in: leaf))
        var endOfContents = leaf
        endOfContents[rsa + 3] = 0x00
        #expect(!CertificateStructure.isCertificate(endOfContents), "end-of-contents as parameters")
        #expect(CertificateStructure.isMinimalInteger([0x00, 0x80] as [UInt8]))
        #expect(!CertificateStructure.isMinimalInteger([0x00, 0x7F] as [UInt8]))
        #expect(!CertificateStructure.isMinimalInteger([] as [UInt8]))
    }

    /// Two same-name intermediates with the same key, both signed by the root, one expired at the
    /// receipt's creation date: every backend builds the chain through the time-valid one,
    /// whichever comes first among the embedded certificates.
    @Test(arguments: BackendFixtures.backends)
    func theTimeValidTwinIntermediateIsChosen(_ backend: BackendCase) throws {
        let validator = try ConcurrentValidationTests.validator(backend.backend)
        let intermediate = try BackendFixtures.bytes("generated/pki/intermediate.cer")
        for order in ["first", "last"] {
            let bytes = try BackendFixtures.bytes("\(Self.agreementDirectory)/twin-intermediates-expired-\(order).generated.der")
            let report = validator.report(for: bytes)
            #expect(report.isValid, "expired twin \(order): \(report.error?.message ?? "")")
            #expect(report.signerChain.count == 3)
            #expect(report.signerChain.dropFirst().first?.derBytes == intermediate, "expired twin \(order): wrong issuer chosen")
        }
    }

    /// Single-byte mutants (every 13th byte outside the content, three different values) of a
    /// DER, a BER and a real receipt: every compiled-in backend gives the same outcome.
    static let mutantPaths = [
        "generated/receipts/valid-sha256-attrs.receipt",
        "generated/receipts/valid-sha256-noattr-ber.receipt",
        "real/receipts/kvitto-xcode-2020-1iap.receipt",
    ]

    @Test(arguments: Self.mutantPaths)
    func backendsAgreeOnSingleByteMutants(_ path: String) throws {
        let bytes = try BackendFixtures.bytes(path)
        let container = try PKCS7Container(bytes: bytes)
        let validators = try BackendFixtures.backends.map { try ConcurrentValidationTests.validator($0.backend) }
        guard validators.count > 1 else { return }
        // Content bytes are skipped (they only ever break the signature): find the content by value.
        let contentStart = try #require(Self.firstIndex(of: container.content.prefix(64), in: bytes))
        let contentEnd = contentStart + container.content.count
        var mutants = 0
        // Every 13th byte in the plain runs; a sample of those under the sanitizers' divisor
        // (TestIterations), a different one for each receipt.
        let pathIndex = Self.mutantPaths.firstIndex(of: path) ?? 0
        for offset in TestIterations.sample(Array(stride(from: 0, to: bytes.count, by: 13)), offset: pathIndex) {
            if offset >= contentStart && offset < contentEnd { continue }
            for value: UInt8 in [bytes[offset] ^ 0x01, bytes[offset] ^ 0x20, 0x00] where value != bytes[offset] {
                var mutant = bytes
                mutant[offset] = value
                mutants += 1
                let outcomes = validators.map { validator -> String in
                    let report = validator.report(for: mutant)
                    return report.isValid ? "valid" : report.error?.code.rawValue ?? "?"
                }
                #expect(Set(outcomes).count == 1, "\(path) byte \(offset) → \(value): \(outcomes)")
            }
        }
        #expect(mutants > TestIterations.sampled(100))
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        firstIndex(of: needle[...], in: haystack)
    }

    private static func firstIndex(of needle: ArraySlice<UInt8>, in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
