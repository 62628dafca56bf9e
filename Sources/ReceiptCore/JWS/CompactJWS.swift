/// A JWS in compact serialization, split and decoded, nothing verified: the three segments
/// (`header.payload.signature`), the header read, the payload bytes and the raw signature.
///
/// Refused before any cryptography (`malformed_jws`): over ``JWSLimits/maximumTokenSize`` bytes,
/// not exactly three segments, an empty segment, a segment that is not base64url without padding;
/// then the header's own rules (``JWSHeader``).
package struct CompactJWS: Sendable {
    /// The token's bytes (surrounding ASCII whitespace removed).
    package let token: [UInt8]
    /// The header segment's range in ``token`` (base64url text).
    package let headerSegment: Range<Int>
    /// The payload segment's range in ``token``.
    package let payloadSegment: Range<Int>
    /// The header, read.
    package let header: JWSHeader
    /// The decoded payload bytes (JSON, not yet read).
    package let payload: [UInt8]
    /// The decoded signature (raw r ‖ s for ES256).
    package let signature: [UInt8]

    /// The JWS signing input: `header.payload`, the ASCII text the signature covers.
    package var signingInput: ArraySlice<UInt8> { token[headerSegment.lowerBound..<payloadSegment.upperBound] }

    /// Splits and decodes `bytes`. `knownHeader`, given the header segment's text, returns the
    /// header it decodes to when the caller already read those exact bytes (the verified-chain
    /// cache), so they are not decoded again; `nil` decodes them.
    package init(
        _ bytes: some Collection<UInt8>, knownHeader: (ArraySlice<UInt8>) -> JWSHeader? = { _ in nil }
    ) throws(ReceiptValidationError) {
        guard bytes.count <= JWSLimits.maximumTokenSize else {
            throw ReceiptValidationError(
                .malformedJWS, "The JWS is \(bytes.count) bytes; the limit is \(JWSLimits.maximumTokenSize).")
        }
        let token = Self.trimmed(Array(bytes))
        let (header, payload, signature) = try Self.segments(token)
        let known = knownHeader(token[header])
        let headerJSON: [UInt8]?
        if known == nil {
            headerJSON = StrictBase64.decodeURL(token[header])
            guard headerJSON != nil else {
                throw ReceiptValidationError(.malformedJWS, "The JWS header segment is not base64url without padding.", offset: header.lowerBound)
            }
        } else {
            headerJSON = nil
        }
        // The header decides first (an unsigned `alg: none` token, empty signature and all, is
        // unsupported_algorithm); then the payload and signature must be there.
        let readHeader: JWSHeader
        if let known {
            readHeader = known
        } else if let headerJSON {
            readHeader = try JWSHeader(json: headerJSON)
        } else {
            throw ReceiptValidationError(.malformedJWS, "The JWS header segment could not be read.")
        }
        guard !payload.isEmpty, !signature.isEmpty else {
            throw ReceiptValidationError(.malformedJWS, "A segment of the JWS is empty (a detached or unsigned JWS is not accepted).")
        }
        guard let payloadBytes = StrictBase64.decodeURL(token[payload]) else {
            throw ReceiptValidationError(.malformedJWS, "The JWS payload segment is not base64url without padding.", offset: payload.lowerBound)
        }
        guard let signatureBytes = StrictBase64.decodeURL(token[signature]) else {
            throw ReceiptValidationError(.malformedJWS, "The JWS signature segment is not base64url without padding.", offset: signature.lowerBound)
        }
        self.header = readHeader
        self.token = token
        self.headerSegment = header
        self.payloadSegment = payload
        self.payload = payloadBytes
        self.signature = signatureBytes
    }

    /// The three segment ranges; `malformed_jws` for another count or an empty one.
    private static func segments(_ token: [UInt8]) throws(ReceiptValidationError) -> (Range<Int>, Range<Int>, Range<Int>) {
        // An index loop over the buffer: the same scan as `enumerated()`, which unoptimised builds
        // (the test suites, several times over under the sanitizers) ran as a generic iterator,
        // a quarter of every JWS verification's time there.
        var dots: [Int] = []
        var tooMany = false
        token.withUnsafeBufferPointer { bytes in
            var index = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: ".") {
                    guard dots.count < 2 else {
                        tooMany = true
                        return
                    }
                    dots.append(index)
                }
                index += 1
            }
        }
        guard !tooMany else {
            throw ReceiptValidationError(.malformedJWS, "The JWS has more than three segments (JWE and JSON serializations are not accepted).")
        }
        guard dots.count == 2 else {
            throw ReceiptValidationError(.malformedJWS, "The data is not a compact JWS (header.payload.signature).")
        }
        let header = 0..<dots[0]
        let payload = (dots[0] + 1)..<dots[1]
        let signature = (dots[1] + 1)..<token.count
        guard !header.isEmpty else {
            throw ReceiptValidationError(.malformedJWS, "The JWS header segment is empty.")
        }
        return (header, payload, signature)
    }

    /// `bytes` without leading and trailing ASCII whitespace (a token read from a file).
    private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return []
        }
        return first == 0 && last == bytes.count - 1 ? bytes : Array(bytes[first...last])
    }
}
