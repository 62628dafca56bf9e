// libFuzzer target: the whole ReceiptValidator on the OpenSSL backend (generated test root and Apple root
// as anchors, Xcode opt-in on, fixed "now"), with the report invariants checked on every input; any
// receipt parsed from verified bytes must be one a fixture signed (SignedPayloads).
import FuzzSupport
import ReceiptKit

private let validator = FuzzValidators.require(backend: "openssl")

/// Called once by libFuzzer before the first input: builds the validator and the set of signed
/// receipts up front, so their cost is not charged to (and reported as a slow) first input.
@_cdecl("LLVMFuzzerInitialize")
public func initializeOpenSSL(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = validator.backend.name
    _ = SignedPayloads.receipts.count
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValidatorOpenSSL(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    ReportInvariants.enforce(validator.report(for: bytes))
    return 0
}
