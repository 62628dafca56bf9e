#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
import Foundation  // Bundle.main.appStoreReceiptURL
#endif

/// Finds and loads a receipt: from a file, from bytes, or from base64 text.
///
/// The first byte tells the encoding: `0x30` (an ASN.1 SEQUENCE) means DER/BER, returned as is;
/// anything else is decoded as base64 (standard or URL-safe alphabet, whitespace and newlines
/// tolerated). The loader does not check that the result is PKCS #7; that is the next stage.
///
/// ```swift
/// let der = try ReceiptLoader.load(contentsOf: URL(filePath: "receipt"))
/// let der = try ReceiptLoader.load(base64: requestBody.receiptData)
/// ```
public enum ReceiptLoader {
    /// The default size limit: 16 MiB of DER (real receipts are a few KB, 80 KB with 187 purchases).
    public static let maximumReceiptSize = 16 * 1024 * 1024

    /// Loads a receipt given as DER/BER bytes or as base64 text bytes.
    /// - Parameters:
    ///   - data: The receipt bytes, or base64 text as UTF-8 bytes.
    ///   - maximumSize: The largest DER size accepted (base64 text may be 4/3 of that plus whitespace).
    /// - Returns: The DER/BER bytes.
    /// - Throws: ``ReceiptValidationError/Code/emptyReceipt``, ``ReceiptValidationError/Code/receiptTooLarge``,
    ///   ``ReceiptValidationError/Code/invalidEncoding``.
    public static func load(_ data: [UInt8], maximumSize: Int = maximumReceiptSize) throws(ReceiptValidationError) -> [UInt8] {
        guard !data.isEmpty else {
            throw ReceiptValidationError(.emptyReceipt, "The receipt is empty.")
        }
        if ASN1Tag(octet: data[0]) == .sequence {
            guard data.count <= maximumSize else { throw tooLarge(data.count, maximumSize) }
            return data
        }
        guard data.count <= maximumTextSize(for: maximumSize) else { throw tooLarge(data.count, maximumSize) }
        guard let decoded = Base64.decode(data) else {
            throw ReceiptValidationError(
                .invalidEncoding, "The receipt is neither DER (it does not start with 0x30) nor base64 text."
            )
        }
        return try checked(decoded: decoded, maximumSize: maximumSize)
    }

    /// The DER decoded from base64 text, once it is checked: not empty, not too large.
    static func checked(decoded: [UInt8], maximumSize: Int) throws(ReceiptValidationError) -> [UInt8] {
        guard !decoded.isEmpty else {
            throw ReceiptValidationError(.emptyReceipt, "The receipt text holds no base64 data.")
        }
        guard decoded.count <= maximumSize else { throw tooLarge(decoded.count, maximumSize) }
        return decoded
    }

    /// Loads a receipt given as DER/BER bytes or as base64 text bytes in `Data` (copied once into
    /// the array the rest of the pipeline reads).
    /// - Throws: as ``load(_:maximumSize:)-([UInt8],_)``.
    public static func load(_ data: Data, maximumSize: Int = maximumReceiptSize) throws(ReceiptValidationError) -> [UInt8] {
        try load([UInt8](data), maximumSize: maximumSize)
    }

    /// Loads a receipt given as base64 text (whitespace and newlines tolerated) or, rarely, as
    /// DER bytes in a string's UTF-8.
    /// - Throws: as ``load(_:maximumSize:)-([UInt8],_)``.
    public static func load(base64 text: String, maximumSize: Int = maximumReceiptSize) throws(ReceiptValidationError) -> [UInt8] {
        try load(Array(text.utf8), maximumSize: maximumSize)
    }

    /// Loads the receipt file at `url` (a file URL), DER or base64 text.
    /// - Throws: ``ReceiptValidationError/Code/receiptNotFound`` when the file does not exist or cannot
    ///   be read, ``ReceiptValidationError/Code/receiptTooLarge`` before reading more than the limit,
    ///   and the errors of ``load(_:maximumSize:)-([UInt8],_)``.
    public static func load(contentsOf url: URL, maximumSize: Int = maximumReceiptSize) throws(ReceiptValidationError) -> [UInt8] {
        guard url.isFileURL else {
            throw ReceiptValidationError(.receiptNotFound, "The URL \(url) is not a file URL.")
        }
        return try load(path: url.path(percentEncoded: false), maximumSize: maximumSize)
    }

    /// Loads the receipt file at `path`, DER or base64 text.
    /// - Throws: as ``load(contentsOf:maximumSize:)``.
    public static func load(path: String, maximumSize: Int = maximumReceiptSize) throws(ReceiptValidationError) -> [UInt8] {
        try load(fileContents(atPath: Array(path.utf8), displayPath: path, maximumSize: maximumSize), maximumSize: maximumSize)
    }

    /// The contents of the receipt file at the path whose bytes are `path`, read and checked as
    /// ``load(path:maximumSize:)`` reads and checks them, not yet decoded: on Linux a path is
    /// bytes, not necessarily UTF-8, which a `String` path cannot name. `displayPath` names the
    /// file in errors. ``load(_:maximumSize:)-([UInt8],_)`` (or a validator's `report(for:)`)
    /// turns them into DER exactly as ``load(path:maximumSize:)`` would.
    /// - Throws: as ``load(contentsOf:maximumSize:)``, before decoding.
    public static func fileContents(
        atPath path: [UInt8], displayPath: String, maximumSize: Int = maximumReceiptSize
    ) throws(ReceiptValidationError) -> [UInt8] {
        let bytes = try readFile(path.map { CChar(bitPattern: $0) } + [0], displayPath: displayPath, limit: maximumTextSize(for: maximumSize))
        guard !bytes.isEmpty else {
            throw ReceiptValidationError(.emptyReceipt, "The receipt file \(displayPath) is empty.")
        }
        if ASN1Tag(octet: bytes[0]) == .sequence, bytes.count > maximumSize { throw tooLarge(bytes.count, maximumSize) }
        return bytes
    }

    #if canImport(Darwin)
    /// Loads the running app's own App Store receipt (`Bundle.main.appStoreReceiptURL`).
    /// - Throws: ``ReceiptValidationError/Code/receiptNotFound`` when the app has no receipt (for
    ///   example a development build before StoreKit fetched one), and the errors of ``load(contentsOf:maximumSize:)``.
    public static func loadAppStoreReceipt(maximumSize: Int = maximumReceiptSize) throws(ReceiptValidationError) -> [UInt8] {
        guard let url = Bundle.main.appStoreReceiptURL else {
            throw ReceiptValidationError(.receiptNotFound, "The main bundle has no App Store receipt URL.")
        }
        return try load(contentsOf: url, maximumSize: maximumSize)
    }
    #endif

    /// The largest base64 text accepted for a DER limit: 4/3 of it plus room for line breaks.
    static func maximumTextSize(for maximumSize: Int) -> Int {
        let (base, overflow) = maximumSize.multipliedReportingOverflow(by: 2)
        return overflow ? Int.max : base
    }

    static func tooLarge(_ size: Int, _ limit: Int) -> ReceiptValidationError {
        ReceiptValidationError(.receiptTooLarge, "The receipt is larger than the \(limit)-byte limit (\(size) bytes or more).")
    }

    /// Reads at most `limit` bytes; throws `receiptTooLarge` as soon as the file holds more.
    ///
    /// The file is opened without blocking (`O_NONBLOCK`, which a regular file's reads ignore) so
    /// that a named pipe with no writer, or a device that waits on open, is refused as "not a
    /// regular file" at once instead of holding the caller until some other process opens it;
    /// and closed on `exec` (`O_CLOEXEC`), so that a process that starts a program on another
    /// thread meanwhile does not hand it the descriptor.
    /// `path` is the NUL-terminated path; `displayPath` names it in errors.
    private static func readFile(_ path: [CChar], displayPath: String, limit: Int) throws(ReceiptValidationError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw ReceiptValidationError(.receiptNotFound, "No readable receipt at \(displayPath): \(reason).")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw ReceiptValidationError(.receiptNotFound, "The path \(displayPath) is not a regular file.")
        }
        if Int64(status.st_size) > Int64(limit) {
            throw tooLarge(Int(clamping: Int64(status.st_size)), limit)
        }
        // Read straight into an array of the file's size (one byte more, to notice a file that
        // grew since fstat): no intermediate chunk, no doubling while appending. A file that did
        // grow is read on in chunks.
        let expected = Int(clamping: Int64(status.st_size))
        var failure: Int32 = 0
        var result = [UInt8](unsafeUninitializedCapacity: expected + 1) { buffer, initializedCount in
            initializedCount = 0
            while initializedCount < buffer.count, let base = buffer.baseAddress {
                let count = read(descriptor, base + initializedCount, buffer.count - initializedCount)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if count == 0 { return }
                initializedCount += count
            }
        }
        guard failure == 0 else { throw readFailure(displayPath, failure) }
        guard result.count > expected else { return result }
        // The file grew: the rest in chunks, with the same limit.
        let chunkSize = 64 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            guard result.count <= limit else { throw tooLarge(result.count, limit) }
            let count = chunk.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress, chunkSize)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw readFailure(displayPath, errno)
            }
            if count == 0 { break }
            guard result.count + count <= limit else { throw tooLarge(result.count + count, limit) }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    private static func readFailure(_ path: String, _ code: Int32) -> ReceiptValidationError {
        let reason = String(cString: strerror(code))
        return ReceiptValidationError(.receiptNotFound, "Reading \(path) failed: \(reason).")
    }
}
