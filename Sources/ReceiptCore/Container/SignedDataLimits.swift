/// The bounds every signedData is held to before any crypto library sees it, so that no input
/// makes a library do unbounded work (one digest per listed algorithm, one decode per attribute).
///
/// ``SignedDataStructure`` refuses an input over any of them with `not_pkcs7` (embedded
/// certificates: `invalid_certificate`), naming the bound. A receipt Apple signs lists one digest
/// algorithm, no unsigned attribute, one SignerInfo, at most a few signed attributes and a few
/// hundred elements outside its content, so every bound is far above what a genuine receipt holds.
package enum SignedDataLimits {
    /// ASN.1 elements read in the whole signedData, the content's own encoding not descended into
    /// (the segments of a constructed eContent count).
    package static let maximumElements = 20_000
    /// Members of the `digestAlgorithms` SET.
    package static let maximumDigestAlgorithms = 8
    /// SignerInfos in `signerInfos` (more than one is still `not_signed`).
    package static let maximumSignerInfos = 8
    /// Signed attributes, and separately unsigned attributes, of one SignerInfo.
    package static let maximumAttributes = 32
    /// Levels of constructed segments in the eContent OCTET STRING.
    package static let maximumStringNesting = 8
    /// Embedded certificates with the subject a link needs (the candidate issuers tried in turn).
    package static let maximumCandidateIssuers = 4
    /// Certificates on one candidate path, the leaf included and the anchor not.
    package static let maximumPathLength = 4
    /// Candidate paths handed to a backend for one validation.
    package static let maximumPaths = 4
}
