/// The one reading of a signedData's bytes per validation: one ``BERReader`` pass over the whole
/// ContentInfo, bounded by ``PKCS7Container/maximumDepth`` and
/// ``SignedDataLimits/maximumElements``, kept with its tree whether or not the structure checks
/// accept what it read.
///
/// ``SignedDataStructure`` checks its tree (and builds the Reading values from it), and an input
/// they refuse is inspected from the same tree (``PKCS7Container/init(reading:)``), so the
/// validator walks the bytes once: here, or — when the verified-chain cache's fast path read the
/// envelope first (``SignedDataEnvelope/read(_:noting:)``) — by continuing that walk, taking the
/// headers it decoded (``DecodedHeaders``) and decoding only the rest. Either way the tree is the
/// one the plain reading builds (same nodes, same error at the same offset; `SignedDataReadingTests`).
struct SignedDataReading: Sendable {
    /// The reader, after the pass (its bytes are the input).
    let reader: BERReader
    /// The ContentInfo's tree, or where and why the BER reading failed; `nil` for empty input
    /// (nothing to read).
    let root: Result<BERNode, BERError>?

    /// Reads `bytes`.
    init(_ bytes: [UInt8]) {
        var reader = BERReader(bytes, maximumDepth: PKCS7Container.maximumDepth, maximumNodes: SignedDataLimits.maximumElements)
        self.root = Self.read(&reader)
        self.reader = reader
    }

    /// Reads `bytes`, taking the headers in `decoded` (noted while reading these bytes) instead
    /// of decoding them again.
    init(_ bytes: [UInt8], continuing decoded: DecodedHeaders) {
        var reader = BERReader(
            bytes, maximumDepth: PKCS7Container.maximumDepth, maximumNodes: SignedDataLimits.maximumElements, decoded: decoded)
        self.root = Self.read(&reader)
        self.reader = reader
    }

    /// The input.
    var bytes: [UInt8] { reader.bytes }

    private static func read(_ reader: inout BERReader) -> Result<BERNode, BERError>? {
        guard !reader.bytes.isEmpty else { return nil }
        do {
            return .success(try reader.parseSingle(in: 0..<reader.bytes.count))
        } catch {
            return .failure(error)
        }
    }
}
