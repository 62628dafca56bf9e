#if OpenSSL
internal import CReceiptOpenSSL

/// The calling thread's OpenSSL error queue.
///
/// Every backend entry point clears the queue first, so that the messages drained on failure
/// belong to that call only.
enum OpenSSLErrorQueue {
    /// The most entries drained into one message (OpenSSL keeps at most 16 per thread).
    private static let maximumEntries = 32

    /// Discards every pending error of the calling thread.
    static func clear() {
        ERR_clear_error()
    }

    /// Removes every pending error of the calling thread and joins their texts with `; `.
    /// - Returns: `nil` when the queue was empty.
    static func drain() -> String? {
        var messages: [String] = []
        while messages.count < maximumEntries {
            let code = ERR_get_error()
            if code == 0 { break }
            messages.append(text(of: code))
        }
        ERR_clear_error()
        return messages.isEmpty ? nil : messages.joined(separator: "; ")
    }

    /// `error:XXXXXXXX:library:function:reason` for one packed error code.
    private static func text(of code: UInt) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        buffer.withUnsafeMutableBufferPointer { pointer in
            ERR_error_string_n(code, pointer.baseAddress, pointer.count)
        }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Joins a verifier's own diagnostic (if any) with whatever the queue holds.
    static func message(prefix: String? = nil) -> String? {
        let parts = [prefix, drain()].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
#endif
