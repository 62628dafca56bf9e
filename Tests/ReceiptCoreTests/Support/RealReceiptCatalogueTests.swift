import Foundation
import ReceiptTestSupport
import Testing
@testable import ReceiptCore

/// The shared real-receipt catalogue lists every receipt file once, and its Xcode receipts are the
/// ones whose environment attribute says so.
@Suite struct RealReceiptCatalogueTests {
    @Test func everyReceiptFileIsCatalogued() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.realDirectory.appendingPathComponent("receipts").path)
            .filter { $0.hasSuffix(".receipt") }.map { String($0.dropLast(".receipt".count)) }.sorted()
        #expect(try RealReceipt.load().map(\.name) == files)
        #expect(!RealReceipt.apple.isEmpty && !RealReceipt.xcode.isEmpty)
    }

    @Test(arguments: RealReceipt.all)
    func xcodeReceiptsAreTheOnesThatSaySo(_ receipt: RealReceipt) throws {
        let parsed = try ReceiptParser.parse(PKCS7Container(bytes: receipt.bytes()).content)
        #expect((parsed.environment == .xcode) == receipt.isXcode)
        #expect(bytes(hex: hex(try receipt.bytes())) == (try receipt.bytes()))
    }
}
