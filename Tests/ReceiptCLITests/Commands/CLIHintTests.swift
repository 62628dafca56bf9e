import Foundation
import ReceiptTestSupport
import Testing

/// Failures the tool can explain say what to do next.
@Suite("hints")
struct CLIHintTests {
    @Test("an Xcode receipt without --xcode fails untrusted_chain and names --xcode; with it, it is valid")
    func xcodeReceiptNamesTheFlag() throws {
        let path = ReceiptCLI.realReceipt("apple-xcode-2023-with-transaction.receipt").path
        let text = try ReceiptCLI.run(["verify", path])
        #expect(text.status == 1)
        #expect(text.stdout.contains("untrusted_chain"))
        #expect(text.stdout.contains("StoreKit test certificate") && text.stdout.contains("--xcode"), "\(text.stdout)")

        let json = try ReceiptCLI.run(["verify", "--json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let message = try #require((object["error"] as? [String: Any])?["message"] as? String)
        #expect(message.contains("--xcode"))

        #expect(try ReceiptCLI.run(["verify", "--xcode", path]).status == 0)
    }

    @Test("an Apple receipt under another anchor fails untrusted_chain without the --xcode hint")
    func appleReceiptGetsNoXcodeHint() throws {
        let root = Fixtures.packageRoot.appendingPathComponent("Fixtures/generated/pki/root.cer").path
        let name = try #require(try ReceiptCLI.appleReceiptNames().first)
        let result = try ReceiptCLI.run(["verify", "--root", root, ReceiptCLI.realReceipt(name).path])
        #expect(result.stdout.contains("untrusted_chain"))
        #expect(!result.stdout.contains("--xcode"))
    }

    @Test("--backend naming a backend this build lacks says how to build with both traits", arguments: ["openssl", "gnutls"])
    func missingBackendSaysHowToBuildIt(_ name: String) throws {
        let fixtures = Fixtures.packageRoot.appendingPathComponent("Fixtures").path
        let result = try ReceiptCLI.run(["conformance", "--backend", name, "--failures-only", "--fixtures", fixtures])
        if result.status == 2 {
            #expect(result.stderr.contains("swift build --traits OpenSSL,GnuTLS"), "\(result.stderr)")
        } else {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(" passed, 0 failed"))
        }
    }
}
