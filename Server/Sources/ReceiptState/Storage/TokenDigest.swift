import Crypto

extension StoredToken {
    /// The SHA-256 of the token text, in lowercase hex: the unique key that makes storing the same
    /// token twice a no-op (the text itself is too long for an index entry).
    var digest: String {
        SHA256.hash(data: Array(token.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

extension Array where Element == StoredToken {
    /// The outcome of each token, given the digests a `RETURNING` clause gave back: stored when its
    /// digest came back (the first of equal tokens in one call), else already stored.
    func outcomes(returned digests: Set<String>) -> [StoreOutcome] {
        var claimed = Set<String>()
        return map { token in
            let digest = token.digest
            guard digests.contains(digest), claimed.insert(digest).inserted else { return .alreadyStored }
            return .stored
        }
    }
}
