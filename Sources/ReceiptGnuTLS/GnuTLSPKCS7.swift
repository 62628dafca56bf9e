#if GnuTLS
internal import CReceiptGnuTLS
import ReceiptCore

/// Owns one `gnutls_pkcs7_t` holding an imported signedData, freed exactly once in `deinit`.
final class GnuTLSPKCS7 {
    /// The GnuTLS handle.
    let handle: OpaquePointer

    /// Imports DER or BER signedData.
    /// - Throws: ``ReceiptValidationError/Code/notSigned`` for a ContentInfo of another type,
    ///   ``ReceiptValidationError/Code/notPKCS7`` for anything GnuTLS cannot decode.
    init(bytes: [UInt8]) throws(ReceiptValidationError) {
        guard !bytes.isEmpty else {
            throw ReceiptValidationError(.notPKCS7, "The data is empty, not a PKCS #7 structure.")
        }
        var created: OpaquePointer?
        let initStatus = gnutls_pkcs7_init(&created)
        guard initStatus >= 0, let handle = created else {
            throw ReceiptValidationError(
                .backendFailure,
                "GnuTLS could not allocate a PKCS #7 structure.",
                libraryMessage: GnuTLSMessage.text(for: initStatus)
            )
        }
        let status = GnuTLSDatum.withBorrowed(bytes) { gnutls_pkcs7_import(handle, $0, GNUTLS_X509_FMT_DER) }
            ?? GNUTLS_E_INVALID_REQUEST
        guard status >= 0 else {
            gnutls_pkcs7_deinit(handle)
            if status == GNUTLS_E_UNKNOWN_PKCS_CONTENT_TYPE {
                throw ReceiptValidationError(
                    .notSigned,
                    "The PKCS #7 ContentInfo is not signedData.",
                    libraryMessage: GnuTLSMessage.text(for: status)
                )
            }
            throw ReceiptValidationError(
                .notPKCS7,
                "GnuTLS could not decode the data as PKCS #7 signedData.",
                libraryMessage: GnuTLSMessage.text(for: status)
            )
        }
        self.handle = handle
    }

    deinit {
        gnutls_pkcs7_deinit(handle)
    }

    /// The number of SignerInfos (0 when there are none).
    var signerCount: Int {
        max(0, Int(gnutls_pkcs7_get_signature_count(handle)))
    }

    /// The number of embedded certificates (0 when there are none).
    var certificateCount: Int {
        max(0, Int(gnutls_pkcs7_get_crt_count(handle)))
    }

    /// The encapsulated content (for BER, the concatenated segments of a constructed OCTET STRING).
    /// - Parameter present: whether the structure has an eContent at all (from ``SignedDataLayout``);
    ///   GnuTLS reports an empty eContent as missing, which is then returned as no bytes.
    /// - Throws: ``ReceiptValidationError/Code/notSigned`` when there is none (detached signature).
    func content(present: Bool) throws(ReceiptValidationError) -> [UInt8] {
        let embedded = GnuTLSDatum.taking { gnutls_pkcs7_get_embedded_data(handle, 0, $0) }
        if embedded.status >= 0 { return embedded.bytes }
        if present && embedded.status == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE { return [] }
        throw ReceiptValidationError(
            .notSigned,
            "The signedData carries no encapsulated content.",
            libraryMessage: GnuTLSMessage.text(for: embedded.status)
        )
    }

    /// The DER of certificate `index` of the embedded set.
    func certificateBytes(at index: Int) -> (status: Int32, bytes: [UInt8]) {
        GnuTLSDatum.taking { gnutls_pkcs7_get_crt_raw2(handle, UInt32(index), $0) }
    }

    /// The layout of `bytes` read from GnuTLS's DER re-encoding of them.
    ///
    /// Exporting re-encodes (and re-orders SET OF members in) the decoded tree, after which
    /// `gnutls_pkcs7_get_crt_raw2` on the same handle returns wrong bytes for BER or unsorted input,
    /// so the export runs on a second, private import.
    ///
    /// The layout does not depend on the encapsulated content, so when `bytes` were imported as a
    /// ``DetachedSignedData`` (`detached`), it is read from that copy without the content: a large
    /// receipt's content is then not decoded and re-encoded a second time. A failure there falls
    /// back to `bytes`.
    ///
    /// When the input is strict DER on the path the layout reads and no signer carries signed
    /// attributes, nothing in the layout depends on the re-encoding (the eContentType, the presence
    /// of content, each signer's digest algorithm and signature are the same values either way), so
    /// it is read from `bytes` directly and GnuTLS does not import and export a second time.
    static func layout(of bytes: [UInt8], detached: DetachedSignedData?) throws(ReceiptValidationError) -> SignedDataLayout {
        if let direct = SignedDataLayout(der: bytes), direct.signers.allSatisfy({ $0.signedAttributes == nil }) {
            return direct
        }
        if let detached, var layout = try? exportedLayout(of: detached.der) {
            // The copy has no eContent; the original has one (``SignedDataEnvelope``'s shape).
            layout.hasContent = true
            return layout
        }
        return try exportedLayout(of: bytes)
    }

    private static func exportedLayout(of bytes: [UInt8]) throws(ReceiptValidationError) -> SignedDataLayout {
        let scratch = try GnuTLSPKCS7(bytes: bytes)
        let exported = GnuTLSDatum.taking { gnutls_pkcs7_export2(scratch.handle, GNUTLS_X509_FMT_DER, $0) }
        guard exported.status >= 0 else {
            throw ReceiptValidationError(
                .backendFailure, "GnuTLS could not re-encode the signedData.",
                libraryMessage: GnuTLSMessage.text(for: exported.status))
        }
        // libtasn1 keeps some of the input's BER forms (a long-form length) in its re-encoding:
        // that is the input's encoding, not a library failure.
        guard let layout = SignedDataLayout(der: exported.bytes) else {
            throw ReceiptValidationError(
                .notPKCS7, "GnuTLS's re-encoding of the signedData is not DER; the input is not in a form it verifies.")
        }
        return layout
    }

    /// The SignerInfo at `index`, as GnuTLS reads it.
    func signerInfo(at index: Int) -> (status: Int32, info: GnuTLSSignerInfo?) {
        let info = GnuTLSSignerInfo()
        let status = gnutls_pkcs7_get_signature_info(handle, UInt32(index), info.storage)
        return status >= 0 ? (status, info) : (status, nil)
    }
}

/// Owns one `gnutls_pkcs7_signature_info_st`, released with `gnutls_pkcs7_signature_info_deinit`.
final class GnuTLSSignerInfo {
    /// Heap storage GnuTLS fills; its allocations are freed once in `deinit`.
    let storage: UnsafeMutablePointer<gnutls_pkcs7_signature_info_st>

    init() {
        storage = .allocate(capacity: 1)
        // Zeroed, so that deinit is safe even when GnuTLS failed before touching it
        // (gnutls_pkcs7_get_signature_info zeroes it again on entry and on failure).
        storage.initialize(to: gnutls_pkcs7_signature_info_st())
    }

    deinit {
        gnutls_pkcs7_signature_info_deinit(storage)
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// The signature algorithm GnuTLS derived from signatureAlgorithm (and digestAlgorithm).
    var algorithm: gnutls_sign_algorithm_t { storage.pointee.algo }
    /// The signature value.
    var signature: [UInt8] { GnuTLSDatum.copy(storage.pointee.sig) }
    /// The DER of the issuer name of issuerAndSerialNumber, empty for a key-identifier signer.
    var issuerName: [UInt8] { GnuTLSDatum.copy(storage.pointee.issuer_dn) }
    /// The serial number's content octets, empty for a key-identifier signer.
    var serialNumber: [UInt8] { GnuTLSDatum.copy(storage.pointee.signer_serial) }
    /// The subjectKeyIdentifier, empty for an issuerAndSerialNumber signer.
    var subjectKeyIdentifier: [UInt8] { GnuTLSDatum.copy(storage.pointee.issuer_keyid) }

    /// The values of every signed attribute with `oid` (OCTET STRINGs decoded when `octetString`).
    /// - Returns: `nil` when GnuTLS fails to decode one of them.
    func signedAttributeValues(oid: String, octetString: Bool) -> [[UInt8]]? {
        var values: [[UInt8]] = []
        var index: UInt32 = 0
        while index < 1024 {
            var attributeOID: UnsafeMutablePointer<CChar>?
            var matched = false
            let value = GnuTLSDatum.taking { datum in
                let status = gnutls_pkcs7_get_attr(
                    storage.pointee.signed_attrs, index, &attributeOID, datum,
                    octetString ? UInt32(GNUTLS_PKCS7_ATTR_ENCODE_OCTET_STRING) : 0
                )
                // The OID is a read-only pointer into the list; it is not freed here.
                matched = attributeOID.map { String(cString: $0) == oid } ?? false
                return status
            }
            if value.status == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE { return values }
            if matched {
                guard value.status >= 0 else { return nil }
                values.append(value.bytes)
            }
            index += 1
        }
        return nil
    }
}
#endif
