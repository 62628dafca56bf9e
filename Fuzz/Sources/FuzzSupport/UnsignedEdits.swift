import Foundation

/// Hostile edits of the UNSIGNED parts of a genuine receipt (issue 27), structure-aware: the one
/// generator of them (`ReceiptSoak unsigned-edits` and the issue-27 bench line use it; the main
/// package's `UnsignedEditBoundTests` carries a minimal copy of the two worst edits, as the main
/// package cannot depend on this one).
///
/// Nothing signed changes: the signed attributes, the signature value, the certificates of the
/// genuine chain and the content octets are kept byte for byte (the eContent may be re-framed into
/// BER segments, whose concatenation is the same content). What changes: the digestAlgorithms SET
/// (members, order, unknown OIDs), the certificates field (duplicates, surplus certificates, a fake
/// intermediate with the real one's subject and another key placed first), BER framing (a
/// constructed eContent OCTET STRING nested in levels, empty last segment, indefinite lengths;
/// long-form lengths on the version INTEGERs and the signature OCTET STRING; NULL parameters written
/// `05 81 00`) and unsigned attributes.
public struct UnsignedEdits: Sendable, CustomStringConvertible {
    // MARK: The edits

    /// A digest AlgorithmIdentifier a digestAlgorithms member may name.
    public enum Algorithm: String, CaseIterable, Sendable {
        case sha1, sha256, sha384, sha512, md2, md4, md5, rsaEncryption, unknown = "1.2.3.4"

        /// The DER OBJECT IDENTIFIER.
        var oid: [UInt8] {
            switch self {
            case .sha1: [0x06, 0x05, 0x2B, 0x0E, 0x03, 0x02, 0x1A]
            case .sha256: [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
            case .sha384: [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02]
            case .sha512: [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03]
            case .md2: [0x06, 0x08, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x02, 0x02]
            case .md4: [0x06, 0x08, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x02, 0x04]
            case .md5: [0x06, 0x08, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x02, 0x05]
            case .rsaEncryption: [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
            case .unknown: [0x06, 0x03, 0x2A, 0x03, 0x04]
            }
        }
    }

    /// How a new AlgorithmIdentifier writes its parameters.
    public enum Parameters: String, Sendable {
        case null = "NULL", absent, longNull = "NULL as 05 81 00"
    }

    /// The digestAlgorithms SET: `count` members, the signer's own (copied from the input) at
    /// `signerPosition`, the others cycling through `others` (empty: the signer's repeated).
    public struct DigestAlgorithms: Sendable {
        public var count: Int
        public var signerPosition: Int
        public var others: [Algorithm]
        public var parameters: Parameters

        public init(count: Int, signerPosition: Int = 0, others: [Algorithm], parameters: Parameters = .null) {
            self.count = count
            self.signerPosition = signerPosition
            self.others = others
            self.parameters = parameters
        }
    }

    /// A certificate with the real intermediate's subject and another key (the leaf's public key,
    /// the serial's last byte changed, the real one's signature bits kept, so it verifies nothing).
    public enum FakeIntermediate: String, Sendable {
        case sameSKID = "same SKID", noSKID = "no SKID"
    }

    /// The certificates field: the fake intermediate first (if any), the genuine certificates in
    /// their order each followed by its duplicates (`duplicates` copies spread over them in turn),
    /// then `surplus` unrelated certificates from the pool.
    public struct Certificates: Sendable {
        public var fakeIntermediate: FakeIntermediate?
        public var duplicates: Int
        public var surplus: Int

        public init(fakeIntermediate: FakeIntermediate? = nil, duplicates: Int = 0, surplus: Int = 0) {
            self.fakeIntermediate = fakeIntermediate
            self.duplicates = duplicates
            self.surplus = surplus
        }
    }

    /// The eContent as a constructed OCTET STRING: `levels` levels of constructed segments (the
    /// outer level split into `segments` parts), an empty primitive segment last at the innermost
    /// level when `emptyLastSegment`, every constructed level in the indefinite form when `indefinite`.
    public struct EContent: Sendable {
        public var levels: Int
        public var segments: Int
        public var emptyLastSegment: Bool
        public var indefinite: Bool

        public init(levels: Int, segments: Int = 1, emptyLastSegment: Bool = false, indefinite: Bool = false) {
            self.levels = levels
            self.segments = segments
            self.emptyLastSegment = emptyLastSegment
            self.indefinite = indefinite
        }
    }

    /// Long-form (non-minimal) lengths of `octets` length octets (1–4) on these elements.
    public struct LongForms: Sendable {
        public var signedDataVersion: Int?
        public var signerVersion: Int?
        public var signature: Int?

        public init(signedDataVersion: Int? = nil, signerVersion: Int? = nil, signature: Int? = nil) {
            self.signedDataVersion = signedDataVersion
            self.signerVersion = signerVersion
            self.signature = signature
        }
    }

    /// Where NULL parameters are rewritten `05 81 00` (added so where absent).
    public enum NullSite: String, CaseIterable, Sendable {
        case digestAlgorithms, signerDigestAlgorithm = "signer digestAlgorithm", signatureAlgorithm
    }

    public var digestAlgorithms: DigestAlgorithms?
    public var certificates: Certificates?
    public var eContent: EContent?
    public var longForms: LongForms?
    public var longNulls: [NullSite] = []
    /// Unsigned attributes replacing any the signer has: this many, unknown types, one OCTET STRING each.
    public var unsignedAttributes: Int?

    public init(
        digestAlgorithms: DigestAlgorithms? = nil, certificates: Certificates? = nil, eContent: EContent? = nil,
        longForms: LongForms? = nil, longNulls: [NullSite] = [], unsignedAttributes: Int? = nil
    ) {
        self.digestAlgorithms = digestAlgorithms
        self.certificates = certificates
        self.eContent = eContent
        self.longForms = longForms
        self.longNulls = longNulls
        self.unsignedAttributes = unsignedAttributes
    }

    public var description: String {
        var parts: [String] = []
        if let edit = digestAlgorithms {
            let others = edit.others.isEmpty ? "the signer's" : edit.others.map(\.rawValue).joined(separator: ",")
            parts.append("digestAlgorithms N=\(edit.count) (signer's at #\(min(edit.signerPosition, edit.count - 1)), others cycle [\(others)], \(edit.parameters.rawValue))")
        }
        if let edit = certificates {
            var what: [String] = []
            if let fake = edit.fakeIntermediate { what.append("fake intermediate first (\(fake.rawValue))") }
            if edit.duplicates > 0 { what.append("\(edit.duplicates) duplicates") }
            if edit.surplus > 0 { what.append("\(edit.surplus) surplus") }
            parts.append("certificates: " + (what.isEmpty ? "unchanged" : what.joined(separator: ", ")))
        }
        if let edit = eContent {
            parts.append("eContent BER: \(edit.levels) constructed levels, \(edit.segments) outer segments\(edit.emptyLastSegment ? ", empty last segment" : "")\(edit.indefinite ? ", indefinite lengths" : "")")
        }
        if let edit = longForms {
            let what = [("SignedData version", edit.signedDataVersion), ("SignerInfo version", edit.signerVersion), ("signature", edit.signature)]
                .compactMap { name, octets in octets.map { "\(name) (\($0) length octets)" } }
            parts.append("long-form lengths: " + what.joined(separator: ", "))
        }
        if !longNulls.isEmpty {
            parts.append("NULL as 05 81 00 in " + longNulls.map(\.rawValue).joined(separator: ", "))
        }
        if let count = unsignedAttributes {
            parts.append("unsigned attributes K=\(count)")
        }
        return parts.isEmpty ? "no edit" : parts.joined(separator: "; ")
    }

    // MARK: Applying

    /// Why an input cannot be edited (not a signedData this generator understands).
    public struct Unsupported: Error, CustomStringConvertible {
        public var description: String
    }

    /// The edited receipt. `certificatePool`: DER certificates the surplus is drawn from, in turn.
    public func apply(to receipt: [UInt8], certificatePool: [[UInt8]] = []) throws -> [UInt8] {
        var root = try BERElement.parse(receipt)
        guard root.children.count == 2, root.children[1].children.count == 1 else {
            throw Unsupported(description: "not a ContentInfo with content")
        }
        var signedData = root.children[1].children[0]
        let signerInfosIndex = signedData.children.count - 1
        guard signedData.children.count >= 4, signedData.children[signerInfosIndex].identifier == [0x31],
              signedData.children[signerInfosIndex].children.count >= 1
        else { throw Unsupported(description: "no signerInfos") }
        var signer = signedData.children[signerInfosIndex].children[0]
        guard signer.children.count >= 5 else { throw Unsupported(description: "short SignerInfo") }
        let signedAttributesOffset = signer.children[3].identifier == [0xA0] ? 1 : 0
        let signatureAlgorithmIndex = 3 + signedAttributesOffset
        let signatureIndex = 4 + signedAttributesOffset

        if let edit = digestAlgorithms {
            let signerOID = signer.children[2].children.first?.encoded ?? []
            let signersMember = signedData.children[1].children.first { $0.children.first?.encoded == signerOID }
                ?? signer.children[2]
            var members: [BERElement] = []
            members.reserveCapacity(edit.count)
            let position = min(edit.signerPosition, edit.count - 1)
            var next = 0
            for index in 0..<edit.count {
                if index == position || edit.others.isEmpty {
                    members.append(signersMember)
                } else {
                    members.append(Self.algorithmIdentifier(edit.others[next % edit.others.count], edit.parameters))
                    next += 1
                }
            }
            signedData.children[1].children = members
        }
        if longNulls.contains(.digestAlgorithms) {
            for index in signedData.children[1].children.indices {
                Self.writeLongNull(&signedData.children[1].children[index])
            }
        }
        if longNulls.contains(.signerDigestAlgorithm) { Self.writeLongNull(&signer.children[2]) }
        if longNulls.contains(.signatureAlgorithm) { Self.writeLongNull(&signer.children[signatureAlgorithmIndex]) }

        if let edit = eContent {
            guard signedData.children[2].children.count == 2, signedData.children[2].children[1].children.count == 1 else {
                throw Unsupported(description: "no eContent")
            }
            let content = signedData.children[2].children[1].children[0].flattenedOctets
            signedData.children[2].children[1].children[0] = Self.segmented(content, edit)
        }

        if let edit = certificates {
            guard signedData.children[3].identifier == [0xA0] else { throw Unsupported(description: "no certificates") }
            signedData.children[3].children = try Self.certificates(
                signedData.children[3].children, edit, signer: signer, pool: certificatePool)
        }

        if let edit = longForms {
            if let octets = edit.signedDataVersion { signedData.children[0].length = .longForm(octets: octets) }
            if let octets = edit.signerVersion { signer.children[0].length = .longForm(octets: octets) }
            if let octets = edit.signature { signer.children[signatureIndex].length = .longForm(octets: octets) }
        }

        if let count = unsignedAttributes {
            var attributes: [BERElement] = []
            attributes.reserveCapacity(count)
            for index in 0..<count {
                // Attribute ::= SEQUENCE { type 1.2.3.4.5.<n> (n < 128), values SET { OCTET STRING (8) } }
                let type = BERElement(primitive: [0x06], [0x2A, 0x03, 0x04, 0x05, UInt8(index % 100)])
                var value: [UInt8] = []
                withUnsafeBytes(of: UInt64(index).bigEndian) { value.append(contentsOf: $0) }
                let values = BERElement(constructed: [0x31], [BERElement(primitive: [0x04], value)])
                attributes.append(BERElement(constructed: [0x30], [type, values]))
            }
            let unsigned = BERElement(constructed: [0xA1], attributes)
            if signer.children.last?.identifier == [0xA1], signer.children.count > signatureIndex + 1 {
                signer.children[signer.children.count - 1] = unsigned
            } else {
                signer.children.append(unsigned)
            }
        }

        signedData.children[signerInfosIndex].children[0] = signer
        root.children[1].children[0] = signedData
        return root.encoded
    }

    /// A digest AlgorithmIdentifier.
    static func algorithmIdentifier(_ algorithm: Algorithm, _ parameters: Parameters) -> BERElement {
        var children = [BERElement(encoding: algorithm.oid)]
        switch parameters {
        case .null: children.append(BERElement(primitive: [0x05], []))
        case .absent: break
        case .longNull: children.append(BERElement(primitive: [0x05], [], length: .longForm(octets: 1)))
        }
        return BERElement(constructed: [0x30], children)
    }

    /// Writes an AlgorithmIdentifier's NULL parameters `05 81 00` (adds them where absent).
    static func writeLongNull(_ identifier: inout BERElement) {
        let null = BERElement(primitive: [0x05], [], length: .longForm(octets: 1))
        if identifier.children.count >= 2 {
            if identifier.children[1].identifier == [0x05] { identifier.children[1] = null }
        } else if identifier.children.count == 1 {
            identifier.children.append(null)
        }
    }

    /// The content as a constructed OCTET STRING of `edit.levels` levels.
    static func segmented(_ content: [UInt8], _ edit: EContent) -> BERElement {
        func level(_ data: ArraySlice<UInt8>, _ remaining: Int, parts: Int) -> BERElement {
            guard remaining > 0 else { return BERElement(primitive: [0x04], Array(data)) }
            var children: [BERElement] = []
            let count = max(1, min(parts, data.count))
            let size = (data.count + count - 1) / max(count, 1)
            var start = data.startIndex
            repeat {
                let end = min(start + size, data.endIndex)
                children.append(level(data[start..<end], remaining - 1, parts: 1))
                start = end
            } while start < data.endIndex
            if remaining == 1, edit.emptyLastSegment { children.append(BERElement(primitive: [0x04], [])) }
            return BERElement(constructed: [0x24], children, length: edit.indefinite ? .indefinite : .minimal)
        }
        return level(content[...], max(1, edit.levels), parts: edit.segments)
    }

    /// The edited certificates list.
    static func certificates(_ genuine: [BERElement], _ edit: Certificates, signer: BERElement, pool: [[UInt8]]) throws -> [BERElement] {
        var result: [BERElement] = []
        if let fake = edit.fakeIntermediate {
            // The leaf: the certificate with the signer's issuer and serial; the intermediate: the
            // one whose subject is the leaf's issuer (none in a one-certificate Xcode receipt).
            let sid = signer.children[1]
            let leaf = genuine.first { certificate in
                let tbs = Self.tbsFields(certificate)
                return tbs.map { $0.fields[$0.offset].encoded == sid.children[1].encoded && $0.fields[$0.offset + 2].encoded == sid.children[0].encoded } ?? false
            }
            if let leaf, let leafTBS = tbsFields(leaf),
               let intermediate = genuine.first(where: { candidate in
                   candidate.encoded != leaf.encoded
                       && tbsFields(candidate).map { $0.fields[$0.offset + 4].encoded == leafTBS.fields[leafTBS.offset + 2].encoded } ?? false
               }),
               let offset = tbsFields(intermediate)?.offset {
                var forged = intermediate
                var tbs = forged.children[0]
                // Serial: change the last byte (stays positive, stays minimal).
                var serial = tbs.children[offset].octets
                if let last = serial.indices.last { serial[last] ^= 0x01 }
                tbs.children[offset] = BERElement(primitive: [0x02], serial)
                tbs.children[offset + 5] = leafTBS.fields[leafTBS.offset + 5]  // the leaf's SubjectPublicKeyInfo
                if fake == .noSKID, let extensionsIndex = tbs.children.firstIndex(where: { $0.identifier == [0xA3] }),
                   tbs.children[extensionsIndex].children.count == 1 {
                    let skid: [UInt8] = [0x06, 0x03, 0x55, 0x1D, 0x0E]
                    tbs.children[extensionsIndex].children[0].children.removeAll { $0.children.first?.encoded == skid }
                }
                forged.children[0] = tbs
                result.append(forged)
            }
        }
        let copies = genuine.isEmpty ? 0 : edit.duplicates
        for (index, certificate) in genuine.enumerated() {
            result.append(certificate)
            let mine = copies / genuine.count + (index < copies % genuine.count ? 1 : 0)
            result.append(contentsOf: repeatElement(certificate, count: mine))
        }
        if !pool.isEmpty {
            for index in 0..<edit.surplus { result.append(BERElement(encoding: pool[index % pool.count])) }
        }
        return result
    }

    /// A certificate's TBSCertificate fields and the index of its serial number.
    static func tbsFields(_ certificate: BERElement) -> (fields: [BERElement], offset: Int)? {
        guard let tbs = certificate.children.first, tbs.children.count >= 6 else { return nil }
        let offset = tbs.children[0].identifier == [0xA0] ? 1 : 0
        guard tbs.children.count >= offset + 6 else { return nil }
        return (tbs.children, offset)
    }

    // MARK: Random combinations

    /// A random combination (at least one edit) for a receipt of `baseSize` bytes whose edited form
    /// stays within `sizeBudget` bytes (about; the counts are bounded by it), or grows by at most
    /// about 64 KiB for a receipt already near or over the budget. Counts are mostly small
    /// (around the rule table's bounds: 8 digest algorithms, 32 attributes, 64 certificates, 8 levels),
    /// sometimes large (log-uniform up to what the budget allows).
    public static func random(using generator: inout some RandomNumberGenerator, baseSize: Int, sizeBudget: Int = 1 << 20) -> UnsignedEdits {
        var edits = UnsignedEdits()
        let room = max(65_536, sizeBudget - baseSize - 4_096)
        repeat {
            let kinds = Int.random(in: 0..<64, using: &generator)
            let bulk = (kinds & 1 != 0 ? 1 : 0) + (kinds & 32 != 0 ? 1 : 0)
            if kinds & 1 != 0 {
                let others = (0..<Int.random(in: 0...4, using: &generator)).map { _ in Algorithm.allCases.randomElement(using: &generator)! }
                let count = Self.count(using: &generator, around: 8, maximum: max(1, room / bulk / 16))
                let parameters: Parameters = [.null, .null, .absent, .longNull].randomElement(using: &generator)!
                edits.digestAlgorithms = DigestAlgorithms(
                    count: count, signerPosition: Int.random(in: 0..<count, using: &generator), others: others, parameters: parameters)
            }
            if kinds & 2 != 0 {
                let fake: FakeIntermediate? = [nil, .sameSKID, .noSKID].randomElement(using: &generator)!
                edits.certificates = Certificates(
                    fakeIntermediate: fake,
                    duplicates: Self.count(using: &generator, around: 4, maximum: 70) - 1,
                    surplus: Self.count(using: &generator, around: 4, maximum: 70) - 1)
            }
            if kinds & 4 != 0 {
                edits.eContent = EContent(
                    levels: Int.random(in: 1...11, using: &generator), segments: Self.count(using: &generator, around: 4, maximum: 64),
                    emptyLastSegment: Bool.random(using: &generator), indefinite: Bool.random(using: &generator))
            }
            if kinds & 8 != 0 {
                func octets() -> Int? { Bool.random(using: &generator) ? Int.random(in: 1...4, using: &generator) : nil }
                edits.longForms = LongForms(signedDataVersion: octets(), signerVersion: octets(), signature: octets())
                if edits.longForms?.signedDataVersion == nil, edits.longForms?.signerVersion == nil, edits.longForms?.signature == nil {
                    edits.longForms?.signature = 2
                }
            }
            if kinds & 16 != 0 {
                edits.longNulls = NullSite.allCases.filter { _ in Bool.random(using: &generator) }
                if edits.longNulls.isEmpty { edits.longNulls = [NullSite.allCases.randomElement(using: &generator)!] }
            }
            if kinds & 32 != 0 {
                edits.unsignedAttributes = Self.count(using: &generator, around: 32, maximum: max(1, room / bulk / 20))
            }
        } while edits.description == "no edit"
        return edits
    }

    /// 1...maximum: three times in five within twice `around`, else log-uniform up to `maximum`.
    static func count(using generator: inout some RandomNumberGenerator, around: Int, maximum: Int) -> Int {
        let cap = max(1, maximum)
        if Int.random(in: 0..<5, using: &generator) < 3 { return Int.random(in: 1...min(cap, 2 * around + 1), using: &generator) }
        let exponent = Double.random(in: 0...log2(Double(cap)), using: &generator)
        return max(1, min(cap, Int(pow(2, exponent))))
    }
}
