// libFuzzer target: the whole ReceiptValidator on the GnuTLS backend (generated test root and Apple root
// as anchors, Xcode opt-in on, fixed "now"), with the report invariants checked on every input; any
// receipt parsed from verified bytes must be one a fixture signed (SignedPayloads).
import FuzzSupport
import ReceiptKit

private let validator = FuzzValidators.require(backend: "gnutls")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValidatorGnuTLS(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    ReportInvariants.enforce(validator.report(for: bytes))
    return 0
}
