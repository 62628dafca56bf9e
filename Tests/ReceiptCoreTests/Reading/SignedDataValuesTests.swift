import Foundation
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

/// The Reading values ``SignedDataStructure`` builds (``ContentInfo``, ``CMSSignedData``,
/// ``EncapsulatedContentInfo``, ``SignerInfo``, ``CMSAttributes``, ``AlgorithmIdentifier``) say what
/// ``PKCS7Container``'s separate reading says about every receipt the checks accept, and are ranges
/// of the caller's own buffer, each inside the production that holds it.
@Suite struct SignedDataValuesTests {
    @Test(arguments: CanonicalSignedDataTests.inputs)
    func agreeWithTheContainerReading(_ path: String) throws {
        let bytes = try Fixtures.bytes(atPath: path)
        let structure = try SignedDataStructure(checking: bytes)
        let container = try PKCS7Container(bytes: bytes)
        let reader = structure.reader
        let contentInfo = structure.contentInfo
        let signedData = try #require(contentInfo.signedData)
        let signer = structure.signer

        // Nothing copied: the reader holds the caller's buffer itself.
        let callerBase = bytes.withUnsafeBufferPointer { $0.baseAddress }
        #expect(reader.bytes.withUnsafeBufferPointer { $0.baseAddress } == callerBase)

        #expect(contentInfo.contentTypeOID == PKCS7Container.signedDataOID)
        #expect(signedData.encapContentInfo.eContentTypeOID == PKCS7Container.dataOID)
        let eContent = try #require(signedData.encapContentInfo.eContent)
        #expect(try reader.stringContent(of: eContent) == container.content)
        #expect(signedData.certificates.map { reader.encoding(of: $0) } == container.certificates.map(\.derBytes))
        #expect(signedData.digestAlgorithms.map { DigestAlgorithm(oid: $0.algorithmOID(reader) ?? "") } == container.digestAlgorithms)
        #expect(DigestAlgorithm(oid: signer.digestAlgorithm.algorithmOID(reader) ?? "") == container.digestAlgorithm)
        #expect((signer.signedAttributes != nil) == container.hasSignedAttributes)
        #expect(signedData.signerInfos.count == 1 && signedData.crls == nil && signer.unsignedAttributes == nil)

        // The sid names the signer's certificate, byte for byte.
        let identity = try #require(bytes.withUnsafeBufferPointer { pointer in
            CertificateStructure.issuerAndSerial(DERCursor(pointer), structure.signerCertificate)
        })
        #expect(bytes[identity.issuer].elementsEqual(bytes[signer.issuer.offset..<signer.issuer.end]))
        #expect(bytes[identity.serial].elementsEqual(bytes[signer.serialNumber.offset..<signer.serialNumber.end]))

        // Each value lies inside the production that holds it.
        func inside(_ node: BERNode, _ parent: BERNode) -> Bool {
            parent.contentStart <= node.offset && node.end <= parent.contentEnd
        }
        let field = try #require(contentInfo.contentField)
        #expect(inside(contentInfo.contentType, contentInfo.node) && inside(field, contentInfo.node))
        #expect(inside(signedData.node, field))
        #expect(inside(signedData.encapContentInfo.node, signedData.node) && inside(eContent, signedData.encapContentInfo.node))
        #expect(signedData.digestAlgorithms.allSatisfy { inside($0.node, signedData.digestAlgorithmSet) })
        #expect(inside(signer.node, signedData.signerInfoSet) && inside(signer.sid, signer.node))
        #expect(inside(signer.issuer, signer.sid) && inside(signer.serialNumber, signer.sid))
        for algorithm in [signer.digestAlgorithm, signer.signatureAlgorithm] {
            #expect(inside(algorithm.node, signer.node) && inside(algorithm.algorithm, algorithm.node))
            #expect(algorithm.parameters.map { inside($0, algorithm.node) } ?? true)
        }
        if let attributes = signer.signedAttributes {
            #expect(inside(attributes.node, signer.node))
            #expect(attributes.attributes.allSatisfy { inside($0.node, attributes.node) && inside($0.type, $0.node) })
        }
    }
}
