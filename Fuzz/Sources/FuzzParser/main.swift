// libFuzzer target: ReceiptParser.parse and ReceiptParser.creationDate(in:) on arbitrary payloads.
import Foundation
import FuzzSupport
import ReceiptKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let payload = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    let creation = Result { () throws(ReceiptValidationError) in try ReceiptParser.creationDate(in: payload) }
    let parsed = Result { () throws(ReceiptValidationError) in try ReceiptParser.parse(payload) }
    // Invariant: when the full parse succeeds, the early creation-date read agrees with it.
    if case .success(let receipt) = parsed {
        guard case .success(let date) = creation, date == receipt.creationDate else {
            fatalError("creationDate(in:) disagrees with parse: \(creation) vs \(String(describing: receipt.creationDate))")
        }
        if receipt.inAppPurchases.count > ReceiptParser.maximumInAppPurchaseCount {
            fatalError("more in-app purchases than the limit")
        }
        // Codable round trip must not trap either.
        _ = try? JSONEncoder().encode(receipt)
    }
    return 0
}
