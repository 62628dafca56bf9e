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
        appendHeader(0x02, node.contentLength, to: &der)
        der += reader.content(of: node)
    }

    /// Appends `node` re-encoded as DER: identifier octets in their short form where the tag
    /// number allows it, minimal definite lengths, constructed universal strings concatenated
    /// into one primitive string. The node's content octets are copied as they are; SET OF
    /// members keep their order (no node re-encoded here is a SET whose order is signed).
    /// - Throws: `not_pkcs7` when a constructed string's segments are not strings of its type.
    static func append(_ node: BERNode, of reader: BERReader, to der: inout [UInt8]) throws(ReceiptValidationError) {
        let isString = node.tagClass == 0 && node.isConstructed && BERReader.isStringTag(node.tagNumber)
        if !node.isConstructed || isString {
            let content: [UInt8]
            do {
                content = isString ? try reader.stringContent(of: node) : Array(reader.content(of: node))
            } catch {
                throw ReceiptValidationError(.notPKCS7, "A constructed string is malformed: \(error.reason).", offset: error.offset)
            }
            appendIdentifier(node, constructed: false, to: &der)
            appendLength(content.count, to: &der)
            der += content
            return
        }
        var children: [UInt8] = []
        for child in node.children { try append(child, of: reader, to: &children) }
        appendIdentifier(node, constructed: true, to: &der)
        appendLength(children.count, to: &der)
        der += children
    }

    private static func appendIdentifier(_ node: BERNode, constructed: Bool, to der: inout [UInt8]) {
        let leading = (node.tagClass << 6) | (constructed ? 0x20 : 0)
        guard node.tagNumber >= 0x1F else {
            der.append(leading | UInt8(node.tagNumber))
            return
        }
        der.append(leading | 0x1F)
        var groups: [UInt8] = []
        var number = node.tagNumber
        repeat {
            groups.append(UInt8(number & 0x7F))
            number >>= 7
        } while number > 0
        for (index, group) in groups.reversed().enumerated() {
            der.append(index == groups.count - 1 ? group : group | 0x80)
        }
    }

    private static func appendLength(_ length: Int, to der: inout [UInt8]) {
        var header: [UInt8] = []
        appendHeader(0, length, to: &header)
        der += header.dropFirst()
    }
}
