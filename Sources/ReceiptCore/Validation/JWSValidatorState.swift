/// What a ``ReceiptValidator`` keeps for JWS: its trust anchors, read and their keys imported at
/// the first JWS (so a validator used only for receipts pays nothing), and the JWS chain cache.
final class JWSValidatorState: Sendable {
    let cache: JWSChainCache?
    private let anchors = ShardLock<[JWSAnchor]?>(nil)

    init(cache: JWSChainCache?) {
        self.cache = cache
    }

    /// The anchors, read once; a failure is not kept (each call reads them again and fails the
    /// same way, the configuration does not change).
    func anchors(
        _ certificates: [Certificate], primitives: any SignaturePrimitives
    ) throws(ReceiptValidationError) -> [JWSAnchor] {
        if let read = anchors.withLock({ $0 }) { return read }
        let read = try JWSAnchor.readAll(certificates, primitives: primitives)
        anchors.withLock { if $0 == nil { $0 = read } }
        return read
    }
}
