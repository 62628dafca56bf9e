/// Writes DER: minimal definite lengths, single-form tags, strings primitive.
enum DEREncoding {
    /// The length of a header (one identifier octet) for `length` content octets.
    static func headerLength(_ length: Int) -> Int {
        guard length >= 0x80 else { return 2 }
        var octets = 0
        var remaining = length
        while remaining > 0 {
            octets += 1
            remaining >>= 8
        }
        return 2 + octets
    }

    /// Appends an identifier octet and the minimal definite length.
    static func appendHeader(_ tag: UInt8, _ length: Int, to der: inout [UInt8]) {
        der.append(tag)
        guard length >= 0x80 else {
            der.append(UInt8(length))
            return
        }
        let count = headerLength(length) - 2
        der.append(0x80 | UInt8(count))
        for index in stride(from: count - 1, through: 0, by: -1) {
            der.append(UInt8(truncatingIfNeeded: length >> (8 * index)))
        }
    }

    /// Appends an INTEGER's content octets (already checked minimal) under a minimal header.
    static func append(version node: BERNode, of reader: BERReader, to der: inout [UInt8]) {
        appendHeader(ASN1Tag.integer.octet, node.contentLength, to: &der)
        der += reader.content(of: node)
    }

    /// Appends `node` re-encoded as DER: identifier octets in their short form where the tag
    /// number allows it, minimal definite lengths, constructed universal strings concatenated
    /// into one primitive string. The node's content octets are copied as they are; SET OF
    /// members keep their order (no node re-encoded here is a SET whose order is signed).
    /// - Throws: `not_pkcs7` when a constructed string's segments are not strings of its type.
    static func append(_ node: BERNode, of reader: BERReader, to der: inout [UInt8]) throws(ReceiptValidationError) {
        let isString = node.isConstructedString
        if !node.isConstructed || isString {
            let content: [UInt8]
            do {
                content = isString ? try reader.stringContent(of: node) : Array(reader.content(of: node))
            } catch {
                throw ReceiptValidationError(.notPKCS7, "A constructed string is malformed: \(error.reason).", offset: error.offset)
            }
            der += node.identifierOctets(constructed: false)
            appendLength(content.count, to: &der)
            der += content
            return
        }
        var children: [UInt8] = []
        for child in node.children { try append(child, of: reader, to: &children) }
        der += node.identifierOctets(constructed: true)
        appendLength(children.count, to: &der)
        der += children
    }

    private static func appendLength(_ length: Int, to der: inout [UInt8]) {
        var header: [UInt8] = []
        appendHeader(0, length, to: &header)
        der += header.dropFirst()
    }
}
