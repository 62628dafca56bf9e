// receipt-memory: the whole-process peak memory of validating one receipt file, in a process that
// holds nothing else (no fixtures, no Foundation beyond FoundationEssentials) and is built with one
// backend (Benchmarks/MemoryProbe/Package.swift), as a server built with one trait would be.
//
//   receipt-memory BACKEND RECEIPT-FILE ANCHOR-FILE cold|warm|primed [PRIMING-FILE]
//
// cold: one validation from the file in a fresh process; prints `start peak anon file` (KiB): the
//       resident memory when main starts, the process's peak (VmHWM) after the validation, and the
//       anonymous and file-backed resident memory after it.
// warm: one validation, then the peak is reset and the file validated again (cache warm); prints
//       the resident memory before the second validation, the peak during it, anon and file.
// primed: a server that already validated a receipt: PRIMING-FILE (another receipt of the same
//       anchor) is validated first by another validator, then the peak is reset and RECEIPT-FILE
//       validated by a new validator (cache cold); prints as warm.
import ReceiptKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A `/proc/self/status` field in KiB (`VmRSS`, `VmHWM`), or -1.
func statusKiB(_ name: String) -> Int {
    guard let file = fopen("/proc/self/status", "r") else { return -1 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix(name + ":") {
            return Int(text.dropFirst(name.count + 1).filter(\.isNumber)) ?? -1
        }
    }
    return -1
}

/// Resets the peak (VmHWM) to the current resident memory.
func resetPeak() -> Bool {
    guard let file = fopen("/proc/self/clear_refs", "w") else { return false }
    let written = fputs("5", file) >= 0
    return fclose(file) == 0 && written
}

let start = statusKiB("VmRSS")
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 4, let backend = CryptoBackends.named(arguments[0]),
      (["cold", "warm"].contains(arguments[3]) && arguments.count == 4) || (arguments[3] == "primed" && arguments.count == 5)
else {
    print("usage: receipt-memory BACKEND RECEIPT-FILE ANCHOR-FILE cold|warm|primed [PRIMING-FILE] (backends built in: \(CryptoBackends.all.map(\.name)))")
    exit(2)
}
do {
    let anchor = Certificate(derBytes: try Array(Data(contentsOf: URL(fileURLWithPath: arguments[2]))))
    var validator = try ReceiptValidator(backend: backend, configuration: .init(trustAnchors: [anchor]))
    let file = URL(fileURLWithPath: arguments[1])
    var before = start
    if arguments[3] != "cold" {
        _ = try validator.validate(contentsOf: arguments[3] == "warm" ? file : URL(fileURLWithPath: arguments[4]))
        if arguments[3] == "primed" { validator = try ReceiptValidator(backend: backend, configuration: .init(trustAnchors: [anchor])) }
        before = statusKiB("VmRSS")
        guard resetPeak() else { throw ReceiptValidationError(.backendFailure, "cannot reset VmHWM") }
    }
    let validated = try validator.validate(contentsOf: file)
    let peak = statusKiB("VmHWM")
    guard !validated.receipt.inAppPurchases.isEmpty else { throw ReceiptValidationError(.missingComponent, "no purchases") }
    // The resident memory after the validation, split: anonymous (heap, stacks) and file-backed
    // (the code and read-only data of the binary and the shared libraries, shared and clean).
    print("\(before) \(peak) \(statusKiB("RssAnon")) \(statusKiB("RssFile"))")
} catch {
    print("receipt-memory: \(error)")
    exit(1)
}
