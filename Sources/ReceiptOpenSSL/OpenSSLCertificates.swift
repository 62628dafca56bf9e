#if OpenSSL
internal import CReceiptOpenSSL
import ReceiptCore

/// Decoding and encoding of OpenSSL `X509` handles.
enum OpenSSLCertificates {
    /// Decodes one certificate from DER or PEM.
    ///
    /// DER input must be exactly one certificate (no trailing bytes). PEM input is recognised by
    /// its `-----BEGIN` armour; the first certificate block is used.
    /// - Returns: the certificate's owner.
    static func decode(_ bytes: [UInt8]) throws(ReceiptValidationError) -> OpenSSLX509 {
        guard !bytes.isEmpty else {
            throw ReceiptValidationError(.invalidCertificate, "The certificate data is empty.")
        }
        if isPEM(bytes) {
            return try decodePEM(bytes)
        }
        return try decodeDER(bytes)
    }

    /// The DER encoding of a certificate.
    static func derBytes(of certificate: OpenSSLX509) throws(ReceiptValidationError) -> [UInt8] {
        try withExtendedLifetime(certificate) { () throws(ReceiptValidationError) -> [UInt8] in
            try derBytes(ofBorrowed: certificate.handle)
        }
    }

    /// The DER encoding of a certificate handle its owner keeps alive during the call.
    static func derBytes(ofBorrowed certificate: OpaquePointer) throws(ReceiptValidationError) -> [UInt8] {
        let length = i2d_X509(certificate, nil)
        guard length > 0 else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not encode a certificate as DER.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        guard written == length else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL wrote \(written) DER bytes for a certificate of \(length).",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        return der
    }

    private static let pemArmour = Array("-----BEGIN".utf8)

    private static func isPEM(_ bytes: [UInt8]) -> Bool {
        // DER starts with a SEQUENCE tag; PEM with optional text and then the armour line.
        guard bytes.first.map(ASN1Tag.init(octet:)) != .sequence, bytes.count >= pemArmour.count else { return false }
        let limit = bytes.count - pemArmour.count
        var index = 0
        while index <= limit {
            if bytes[index] == pemArmour[0], bytes[index..<(index + pemArmour.count)].elementsEqual(pemArmour) {
                return true
            }
            index += 1
        }
        return false
    }

    private static func decodeDER(_ bytes: [UInt8]) throws(ReceiptValidationError) -> OpenSSLX509 {
        var consumed = 0
        let certificate = bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let decoded = d2i_X509(nil, &cursor, buffer.count)
            if decoded != nil, let cursor { consumed = cursor - base }
            return decoded
        }
        guard let certificate = certificate.map(OpenSSLX509.init(taking:)) else {
            throw ReceiptValidationError(
                .invalidCertificate, "The data is not a DER or PEM X.509 certificate.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        guard consumed == bytes.count else {
            throw ReceiptValidationError(
                .invalidCertificate,
                "The DER certificate is followed by \(bytes.count - consumed) unexpected bytes.",
                offset: consumed)
        }
        return certificate
    }

    private static func decodePEM(_ bytes: [UInt8]) throws(ReceiptValidationError) -> OpenSSLX509 {
        guard bytes.count <= Int(Int32.max) else {
            throw ReceiptValidationError(.invalidCertificate, "The PEM certificate data is too large.")
        }
        let certificate = bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let base = buffer.baseAddress, let bio = BIO_new_mem_buf(base, Int32(buffer.count)) else {
                return nil
            }
            return withExtendedLifetime(OpenSSLBIO(taking: bio)) { PEM_read_bio_X509(bio, nil, nil, nil) }
        }
        guard let certificate = certificate.map(OpenSSLX509.init(taking:)) else {
            throw ReceiptValidationError(
                .invalidCertificate, "The PEM data holds no decodable X.509 certificate.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        return certificate
    }
}
#endif
