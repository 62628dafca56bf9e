// receipt-memory: the whole-process peak memory of validating one receipt file, in a process that
// holds nothing else (no fixtures, no Foundation beyond FoundationEssentials).
//
//   receipt-memory BACKEND RECEIPT-FILE ANCHOR-FILE cold|warm
//
// cold: one validation from the file in a fresh process; prints `start peak` (KiB): the resident
//       memory when main starts and the process's peak (VmHWM) after the validation.
// warm: one validation, then the peak is reset and the file validated again (cache warm); prints
//       the resident memory before the second validation and the peak during it.
import CBaseline
import ReceiptKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

let start = bl_current_rss_kib()
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 4, let backend = CryptoBackends.named(arguments[0]), ["cold", "warm"].contains(arguments[3]) else {
    print("usage: receipt-memory BACKEND RECEIPT-FILE ANCHOR-FILE cold|warm")
    exit(2)
}
do {
    let anchor = Certificate(derBytes: try Array(Data(contentsOf: URL(fileURLWithPath: arguments[2]))))
    let validator = try ReceiptValidator(backend: backend, configuration: .init(trustAnchors: [anchor]))
    let file = URL(fileURLWithPath: arguments[1])
    var before = start
    if arguments[3] == "warm" {
        _ = try validator.validate(contentsOf: file)
        before = bl_current_rss_kib()
        guard bl_reset_peak_rss() == 0 else { throw ReceiptValidationError(.backendFailure, "cannot reset VmHWM") }
    }
    let validated = try validator.validate(contentsOf: file)
    let peak = bl_peak_rss_kib()
    guard !validated.receipt.inAppPurchases.isEmpty else { throw ReceiptValidationError(.missingComponent, "no purchases") }
    print("\(before) \(peak)")
} catch {
    print("receipt-memory: \(error)")
    exit(1)
}
