// libFuzzer target: the JWS reader and pipeline (`ReceiptValidator.verifyJWS`) on OpenSSL and
// GnuTLS at once (synthetic JWS root and the Apple roots as anchors, each token's signedDate, fixed
// now). Every input must give the same code, or the same verified token, on both backends; a
// verified token must carry a payload some fixture signed. Inputs beginning 0x01 / 0x02 are
// header and payload JSON assembled into a token (JWSFuzzing.token(from:)).
import Foundation
import FuzzSupport
import ReceiptKit

private let validators: [ReceiptValidator] = {
    guard let validators = JWSFuzzing.makeValidators() else {
        FileHandle.standardError.write(Data("cannot build the JWS validators (backend missing or Fixtures/jws/pki/root.cer unreadable)\n".utf8))
        exit(2)
    }
    return validators
}()

/// Builds the validators and the signed-payload set before the first input.
@_cdecl("LLVMFuzzerInitialize")
public func initializeJWS(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = validators.count
    _ = JWSFuzzing.signedPayloads.count
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWS(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let token = JWSFuzzing.token(from: [UInt8](UnsafeRawBufferPointer(start: start, count: count)))
    let results = validators.map { validator in
        Result { () throws(ReceiptValidationError) in try validator.verifyJWS(token) }
    }
    if let message = JWSFuzzing.violation(results) {
        FileHandle.standardError.write(Data("INVARIANT VIOLATED: \(message)\n".utf8))
        abort()
    }
    return 0
}
