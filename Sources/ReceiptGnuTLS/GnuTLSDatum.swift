#if GnuTLS
internal import CReceiptGnuTLS

/// Moves bytes across GnuTLS's `gnutls_datum_t` boundary without leaking or double-freeing.
enum GnuTLSDatum {
    /// The largest input a datum can describe (its size is an `unsigned int`).
    static let maximumSize = Int(UInt32.max)

    /// Calls `body` with a datum that borrows `bytes` for the duration of the call (GnuTLS only
    /// reads it). Returns `nil`, without calling `body`, when `bytes` is too large for a datum.
    static func withBorrowed<Result>(
        _ bytes: [UInt8],
        _ body: (UnsafePointer<gnutls_datum_t>) -> Result
    ) -> Result? {
        bytes.withUnsafeBufferPointer { withBorrowed($0, body) }
    }

    /// Calls `body` with a datum that borrows `bytes` in place (no copy) for the duration of the
    /// call (GnuTLS only reads it). Returns `nil`, without calling `body`, when `bytes` is too
    /// large for a datum.
    static func withBorrowed<Result>(
        _ bytes: ArraySlice<UInt8>,
        _ body: (UnsafePointer<gnutls_datum_t>) -> Result
    ) -> Result? {
        bytes.withUnsafeBufferPointer { withBorrowed($0, body) }
    }

    private static func withBorrowed<Result>(
        _ buffer: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafePointer<gnutls_datum_t>) -> Result
    ) -> Result? {
        guard buffer.count <= maximumSize else { return nil }
        var datum = gnutls_datum_t(data: UnsafeMutablePointer(mutating: buffer.baseAddress), size: UInt32(buffer.count))
        return withUnsafePointer(to: &datum) { body($0) }
    }

    /// Calls `fill` with an empty datum for GnuTLS to allocate, copies the bytes out and frees the
    /// datum exactly once (whatever `fill` returned).
    /// - Returns: GnuTLS's status and, when it is not negative, the bytes.
    static func taking(_ fill: (UnsafeMutablePointer<gnutls_datum_t>) -> Int32) -> (status: Int32, bytes: [UInt8]) {
        var datum = gnutls_datum_t(data: nil, size: 0)
        defer { receipt_gnutls_free_datum(&datum) }
        let status = fill(&datum)
        guard status >= 0, let data = datum.data else { return (status, []) }
        return (status, Array(UnsafeBufferPointer(start: data, count: Int(datum.size))))
    }

    /// Copies a datum GnuTLS owns (for example a field of a signature info) without freeing it.
    static func copy(_ datum: gnutls_datum_t) -> [UInt8] {
        guard let data = datum.data, datum.size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(datum.size)))
    }
}
#endif
