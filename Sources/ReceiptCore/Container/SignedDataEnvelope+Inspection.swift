extension SignedDataEnvelope {
    /// Whether ``PKCS7Container/init(bytes:)`` is certain to read `bytes` (the bytes this envelope
    /// was read from), with the same content and certificates: the validator's pre-verification
    /// look then uses the envelope's ranges in place instead of building the container's tree and
    /// copying the content.
    ///
    /// Beyond the envelope's own shape it checks what the container's BER reader and field checks
    /// would: every constructed element outside the (primitive) content is strict DER down to the
    /// leaves, at most ``PKCS7Container/maximumDepth`` levels and ``PKCS7Container/maximumElements``
    /// elements, and every digestAlgorithms member is an AlgorithmIdentifier with a readable OID.
    /// `false` means "not certain", never "invalid": the caller then builds the container.
    func isReadableAsContainer(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { pointer -> Bool in
            let cursor = DERCursor(pointer)
            var elements = 0
            guard Self.walk(cursor, at: 0, within: pointer.count, depth: 0, elements: &elements) else { return false }
            // digestAlgorithms: head = version TLV then the SET TLV.
            guard let version = cursor.element(at: head.lowerBound, within: head.upperBound),
                  let algorithms = cursor.element(at: version.end, within: head.upperBound), algorithms.identifier == .set
            else { return false }
            var position = algorithms.contentStart
            while position < algorithms.end {
                guard let algorithm = cursor.element(at: position, within: algorithms.end), algorithm.identifier == .sequence,
                      let oid = cursor.element(at: algorithm.contentStart, within: algorithm.end), oid.identifier == .objectIdentifier,
                      CertificateStructure.isObjectIdentifier(bytes[oid.contentStart..<oid.end])
                else { return false }
                position = algorithm.end
            }
            return true
        }
    }

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

    /// The element at `offset` and, when constructed, everything inside it, read as the
    /// container's BER reader reads it (depth counted from 0, elements counted as it counts them),
    /// but accepting only strict DER. Recursion is bounded by `PKCS7Container.maximumDepth`.
    private static func walk(_ cursor: DERCursor, at offset: Int, within limit: Int, depth: Int, elements: inout Int) -> Bool {
        guard let element = cursor.element(at: offset, within: limit), element.end == limit else { return false }
        return walk(cursor, element, depth: depth, elements: &elements)
    }

    private static func walk(_ cursor: DERCursor, _ element: DERCursor.Element, depth: Int, elements: inout Int) -> Bool {
        guard depth <= PKCS7Container.maximumDepth else { return false }
        elements += 1
        guard elements <= PKCS7Container.maximumElements else { return false }
        guard element.identifier.isConstructed else { return true }
        var position = element.contentStart
        while position < element.end {
            guard let child = cursor.element(at: position, within: element.end),
                  walk(cursor, child, depth: depth + 1, elements: &elements)
            else { return false }
            position = child.end
        }
        return true
    }
}
