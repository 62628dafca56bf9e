import Foundation
import Testing
@testable import ReceiptCore
import ReceiptTestSupport

@Suite struct ReceiptLoaderTests {
    private func temporaryFile(_ contents: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "receiptcore-\(UUID().uuidString)")
        try Data(contents).write(to: url)
        return url
    }

    @Test(arguments: Fixtures.receiptNames.prefix(4))
    func derFileLoadsUnchanged(_ name: String) throws {
        let url = Fixtures.receiptURL(name)
        #expect(try ReceiptLoader.load(contentsOf: url) == Fixtures.receipt(name))
    }

    @Test func base64WithNewlinesLoads() throws {
        let der = try Fixtures.receipt("kvitto-xcode-2020-1iap")
        let wrapped = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        #expect(wrapped.contains("\n"))
        #expect(try ReceiptLoader.load(base64: "  " + wrapped + "\r\n") == der)
        let url = try temporaryFile(Array(wrapped.utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try ReceiptLoader.load(contentsOf: url) == der)
        #expect(try ReceiptLoader.load(path: url.path(percentEncoded: false)) == der)
    }

    @Test("a file named by bytes that are not UTF-8: read as load(path:) reads a file, named in errors by displayPath")
    func fileContentsByPathBytes() throws {
        let der = try Fixtures.receipt("kvitto-xcode-2020-1iap")
        let directory = FileManager.default.temporaryDirectory.appending(path: "receiptcore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = Array(directory.path(percentEncoded: false).utf8) + [UInt8(ascii: "/"), 0xFF]
        let descriptor = (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o600) }
        try #require(descriptor >= 0)
        _ = der.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        #expect(try ReceiptLoader.fileContents(atPath: path, displayPath: "shown") == der)
        // The same path as a String (U+FFFD for the byte) names no file.
        #expect(throws: ReceiptValidationError.self) { try ReceiptLoader.load(path: String(decoding: path, as: UTF8.self)) }
        let missing = #expect(throws: ReceiptValidationError.self) {
            try ReceiptLoader.fileContents(atPath: path + [0xFE], displayPath: "dir/\\xff\\xfe")
        }
        #expect(missing?.code == .receiptNotFound)
        #expect(missing?.message == "No readable receipt at dir/\\xff\\xfe: No such file or directory.")
    }

    @Test func urlSafeAndUnpaddedBase64Loads() throws {
        let bytes: [UInt8] = [0xFB, 0xFF, 0x01]
        #expect(try ReceiptLoader.load(base64: "-_8B") == bytes)
        #expect(try ReceiptLoader.load(base64: "+/8B") == bytes)
        #expect(try ReceiptLoader.load(base64: "+/8") == [0xFB, 0xFF])
        #expect(try ReceiptLoader.load(base64: "+/8=") == [0xFB, 0xFF])
    }

    @Test func missingFileIsNotFound() {
        let error = #expect(throws: ReceiptValidationError.self) {
            try ReceiptLoader.load(contentsOf: URL(filePath: "/nonexistent/receipt-\(UUID().uuidString)"))
        }
        #expect(error?.code == .receiptNotFound)
    }

    @Test func directoryIsNotFound() {
        let error = #expect(throws: ReceiptValidationError.self) {
            try ReceiptLoader.load(contentsOf: FileManager.default.temporaryDirectory)
        }
        #expect(error?.code == .receiptNotFound)
    }

    @Test func emptyInputsAreEmpty() throws {
        #expect(throws: ReceiptValidationError(.emptyReceipt, "The receipt is empty.")) { try ReceiptLoader.load([]) }
        let whitespace = #expect(throws: ReceiptValidationError.self) { try ReceiptLoader.load(base64: " \n\t ") }
        #expect(whitespace?.code == .emptyReceipt)
        let url = try temporaryFile([])
        defer { try? FileManager.default.removeItem(at: url) }
        let file = #expect(throws: ReceiptValidationError.self) { try ReceiptLoader.load(contentsOf: url) }
        #expect(file?.code == .emptyReceipt)
    }

    @Test(arguments: ["not base64!", "abc*", "A", "AB=C", "ABC==="])
    func undecodableTextIsInvalidEncoding(_ text: String) {
        let error = #expect(throws: ReceiptValidationError.self) { try ReceiptLoader.load(base64: text) }
        #expect(error?.code == .invalidEncoding, "\(text)")
    }

    @Test func sizeLimitIsEnforcedBeforeReading() throws {
        #expect(ReceiptLoader.maximumReceiptSize == 16 * 1024 * 1024)
        let der = try Fixtures.receipt("tpinapp-sandbox-sha1-2020-187iap")
        let small = #expect(throws: ReceiptValidationError.self) { try ReceiptLoader.load(der, maximumSize: 1_000) }
        #expect(small?.code == .receiptTooLarge)
        let file = #expect(throws: ReceiptValidationError.self) {
            try ReceiptLoader.load(contentsOf: Fixtures.receiptURL("tpinapp-sandbox-sha1-2020-187iap"), maximumSize: 1_000)
        }
        #expect(file?.code == .receiptTooLarge)
        let text = Data(der).base64EncodedString()
        let decoded = #expect(throws: ReceiptValidationError.self) { try ReceiptLoader.load(base64: text, maximumSize: 60_000) }
        #expect(decoded?.code == .receiptTooLarge)
        #expect(try ReceiptLoader.load(der, maximumSize: der.count) == der)
    }

    @Test(arguments: Fixtures.legacyNames)
    func legacyTextLoadsButIsNotPKCS7(_ name: String) throws {
        let der = try ReceiptLoader.load(contentsOf: Fixtures.legacyURL(name))
        #expect(String(decoding: der.prefix(40), as: UTF8.self).contains("signature") || der.first == UInt8(ascii: "{"))
        let error = #expect(throws: ReceiptValidationError.self) { try PKCS7Container(bytes: der) }
        #expect(error?.code == .notPKCS7)
    }
    @Test func fileIsReadWholeWhateverItsSize() throws {
        // Exactly the file's bytes, for sizes around the read buffer's edge cases.
        for size in [1, 2, 4095, 4096, 65_537, 1_300_000] {
            var bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            bytes[0] = 0x30
            let url = try temporaryFile(bytes)
            defer { try? FileManager.default.removeItem(at: url) }
            #expect(try ReceiptLoader.load(contentsOf: url) == bytes, "size \(size)")
        }
    }

    @Test func namedPipeIsRefusedWithoutWaitingForAWriter() throws {
        let manager = FileManager.default
        let directory = manager.temporaryDirectory.appending(path: "receiptcore-fifo-\(UUID().uuidString)")
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: directory) }
        let path = directory.appending(path: "receipt").path(percentEncoded: false)
        try #require(mkfifo(path, 0o600) == 0)
        // Should the load wait in open(2) for a writer, the watchdog lets it go every 5 s and says so.
        let (error, hadToOpen) = NamedPipeWatchdog.run(path: path, every: 5) {
            #expect(throws: ReceiptValidationError.self) { try ReceiptLoader.load(path: path) }
        }
        #expect(!hadToOpen, "the load waited in open(2) for a writer")
        #expect(error?.code == .receiptNotFound)
        #expect(error?.message.contains("not a regular file") == true)
    }

    #if os(Linux)
    @Test func fileLargerThanItsReportedSizeIsReadWhole() {
        // procfs reports size 0 for files that hold text: it is read to the end, not taken as empty.
        #expect(throws: ReceiptValidationError.self) { try ReceiptLoader.load(path: "/proc/self/status") }
        do {
            _ = try ReceiptLoader.load(path: "/proc/self/status")
        } catch {
            #expect(error.code == .invalidEncoding)
        }
    }
    #endif
}
