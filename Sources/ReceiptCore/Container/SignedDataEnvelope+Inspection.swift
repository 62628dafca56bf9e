extension SignedDataEnvelope {
    /// Whether the embedded certificates are exactly one certificate with the bytes `expected`
    /// (as `PKCS7Container.certificates == [expected]`).
    func certificatesAreExactly(_ expected: [UInt8], in bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { pointer -> Bool in
            let cursor = DERCursor(pointer)
            guard let first = cursor.element(at: certificates.lowerBound, within: certificates.upperBound),
                  first.end == certificates.upperBound
            else { return false }
            return cursor.equals(certificates, expected)
        }
    }
}
