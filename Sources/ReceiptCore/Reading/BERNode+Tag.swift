extension BERNode {
    /// Whether the node has `tag`'s class and number, in either form: BER lets a string be
    /// constructed, and a few checks accept a tag before they look at its form. Compare
    /// ``identifier`` with a tag (`node.identifier == .sequence`) to require the form too.
    func hasTag(_ tag: ASN1Tag) -> Bool {
        identifier?.primitive == tag.primitive
    }
}
