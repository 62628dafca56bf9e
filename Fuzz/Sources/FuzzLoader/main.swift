// libFuzzer target: ReceiptLoader.load on arbitrary bytes (base64 / DER detection, size limits).
import FuzzSupport
import ReceiptKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLoader(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    do {
        let der = try ReceiptLoader.load(bytes)
        // Invariants: never empty, DER input is returned unchanged, decoded output within the limit.
        if der.isEmpty || der.count > ReceiptLoader.maximumReceiptSize || (bytes.first == 0x30 && der != bytes) {
            fatalError("loader invariant violated: \(der.count) bytes from \(bytes.count)")
        }
    } catch {
        // Rejections are expected; the error must carry a code.
        if error.code.rawValue.isEmpty { fatalError("loader error without a code") }
    }
    // A small limit exercises the size checks on every input.
    _ = try? ReceiptLoader.load(bytes, maximumSize: 64)
    return 0
}
