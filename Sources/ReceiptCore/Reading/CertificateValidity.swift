/// A certificate's Validity, read in place (RFC 5280 §4.1.2.5):
///
/// ```
/// Validity ::= SEQUENCE {
///     notBefore      Time,
///     notAfter       Time }
///
/// Time ::= CHOICE {
///     utcTime        UTCTime,
///     generalTime    GeneralizedTime }
/// ```
///
/// Ranges into the caller's buffer (the ``DERCursor``'s, nothing copied): ``node`` is the SEQUENCE,
/// ``notBefore`` and ``notAfter`` its two ``CertificateTime``s, each inside it. Read once where the
/// TBSCertificate is read; ``CertificateStructure``'s structure check (a Validity of two strict
/// times) and ``ValidityPeriod`` (the inclusive validity rule) both take their answer from it.
package struct CertificateValidity: Sendable, Equatable {
    /// The `Validity` SEQUENCE.
    package var node: DERCursor.Element
    /// The first `Time`: the period's start, included.
    package var notBefore: CertificateTime
    /// The second `Time`: the period's end, included.
    package var notAfter: CertificateTime

    /// The Validity in `element` of the cursor's buffer, or `nil` when it is not a SEQUENCE of
    /// exactly two times in the strict form ``CertificateTime`` reads.
    package init?(_ cursor: DERCursor, _ element: DERCursor.Element) {
        guard element.identifier == .sequence,
              let first = cursor.element(at: element.contentStart, within: element.end),
              let second = cursor.element(at: first.end, within: element.end), second.end == element.end,
              let notBefore = CertificateTime(cursor, first), let notAfter = CertificateTime(cursor, second)
        else { return nil }
        node = element
        self.notBefore = notBefore
        self.notAfter = notAfter
    }
}
