// libFuzzer target: the pure-Swift PKCS #7 container walk (DER and BER), then the certificate summary.
import FuzzSupport
import ReceiptKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContainer(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    guard let container = try? PKCS7Container(bytes: bytes) else { return 0 }
    if container.content.count > bytes.count || container.signerCount < 1 {
        fatalError("container invariant violated: content \(container.content.count) of \(bytes.count), signers \(container.signerCount)")
    }
    for certificate in container.certificates {
        _ = try? CertificateInfo(certificate)
    }
    return 0
}
