import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to loopback, for clients that misbehave or must be watched byte by byte.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32
    private var isOpen = true
    private var received: [UInt8] = []

    /// Connects to `127.0.0.1:port`. The connection is established once the kernel has completed
    /// the handshake, whether or not the server has accepted it yet. A `receiveBufferSize` fixes
    /// the socket's receive buffer, so that a client that does not read holds back a large answer;
    /// a `connectTimeoutMilliseconds` bounds the wait for the handshake (a full listen backlog
    /// drops it).
    init(port: Int, receiveBufferSize: Int32? = nil, connectTimeoutMilliseconds: Int? = nil) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        if var size = receiveBufferSize {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let milliseconds = connectTimeoutMilliseconds {
            var timeout = timeval(tv_sec: milliseconds / 1000, tv_usec: .init((milliseconds % 1000) * 1000))
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    /// Writes `text` (a few bytes: the socket takes them at once).
    func send(_ text: String) {
        writeAll(Array(text.utf8))
    }

    /// Writes all of `bytes`, on a thread of its own while the socket's buffer is full.
    func send(_ bytes: [UInt8]) async {
        await onOwnThread { self.writeAll(bytes) }
    }

    /// Reads until the peer closes (or `timeoutSeconds` pass) and splits what arrived into an
    /// HTTP response's head and body, with the body's length as its `Content-Length` declares it.
    func readResponseUntilClosed(timeoutSeconds: Int) async -> (head: String, body: [UInt8], declaredLength: Int?) {
        _ = await waitForClose(timeoutSeconds: timeoutSeconds)
        let separator = Array("\r\n\r\n".utf8)
        guard let end = received.indices.first(where: { received[$0...].starts(with: separator) }) else {
            return (String(decoding: received, as: UTF8.self), [], nil)
        }
        let head = String(decoding: received[..<end], as: UTF8.self)
        let declared = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
        return (head, Array(received[(end + separator.count)...]), declared)
    }

    /// Whether the peer closes the connection (read returns 0 or fails) within the time; waits on
    /// a thread of its own.
    func waitForClose(timeoutSeconds: Int) async -> Bool {
        await waitForClose(timeoutMilliseconds: timeoutSeconds * 1000)
    }

    /// Whether the peer closes the connection within the time.
    func waitForClose(timeoutMilliseconds: Int) async -> Bool {
        await onOwnThread {
            let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
            while ContinuousClock.now < deadline {
                if self.readAvailable(waitingMilliseconds: 50) == false { return true }
            }
            return false
        }
    }

    /// Whether the peer has closed the connection, without waiting.
    var isClosedByPeer: Bool {
        readAvailable(waitingMilliseconds: 0) == false
    }

    /// Whether the connection is open and an HTTP 200 status line has arrived on it, after waiting
    /// up to `waitingMilliseconds` for more bytes.
    func hasResponse(waitingMilliseconds: Int32 = 0) -> Bool {
        guard readAvailable(waitingMilliseconds: waitingMilliseconds) else { return false }
        return String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 200")
    }

    /// What has arrived so far as text, after waiting until it holds `marker` (or
    /// `timeoutMilliseconds` pass, or the peer closes); waits on a thread of its own.
    func text(containing marker: String, timeoutMilliseconds: Int) async -> String {
        await onOwnThread {
            let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
            while ContinuousClock.now < deadline, !String(decoding: self.received, as: UTF8.self).contains(marker) {
                if self.readAvailable(waitingMilliseconds: 20) == false { break }
            }
            return String(decoding: self.received, as: UTF8.self)
        }
    }

    /// Closes the connection.
    func disconnect() {
        guard isOpen else { return }
        isOpen = false
        close(descriptor)
    }

    /// Writes all of `bytes`, waiting while the socket's buffer is full; stops at an error (a
    /// connection the peer closed fails instead of raising SIGPIPE).
    private func writeAll(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { sendWithoutSignal(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            guard count > 0 else { return }
            offset += count
        }
    }

    /// Reads what has arrived, waiting up to `waitingMilliseconds` for it; false once the peer
    /// has closed.
    private func readAvailable(waitingMilliseconds: Int32) -> Bool {
        guard isOpen else { return false }
        var descriptorSet = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptorSet, 1, waitingMilliseconds) > 0 else { return true }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        received += buffer.prefix(count)
        return true
    }

    deinit { disconnect() }
}

/// Runs `work` on a thread of its own, so that a blocking socket call does not hold one of the few
/// threads that run the tests' tasks (and delay the other tests' clients).
func onOwnThread<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}

/// `send(2)` that reports a connection closed by the peer as an error rather than with SIGPIPE.
private func sendWithoutSignal(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    #else
    Darwin.send(descriptor, bytes, count, 0)
    #endif
}
