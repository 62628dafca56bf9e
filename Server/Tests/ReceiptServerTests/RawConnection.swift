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
    /// the socket's receive buffer, so that a client that does not read holds back a large answer.
    init(port: Int, receiveBufferSize: Int32? = nil) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        if var size = receiveBufferSize {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
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

    /// Writes `text`.
    func send(_ text: String) {
        send(Array(text.utf8))
    }

    /// Writes all of `bytes`, waiting while the socket's buffer is full.
    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            guard count > 0 else { return }
            offset += count
        }
    }

    /// Reads until the peer closes (or `timeoutSeconds` pass) and splits what arrived into an
    /// HTTP response's head and body.
    func readResponseUntilClosed(timeoutSeconds: Int) -> (head: String, body: [UInt8]) {
        _ = waitForClose(timeoutSeconds: timeoutSeconds)
        let separator = Array("\r\n\r\n".utf8)
        guard let end = received.indices.first(where: { received[$0...].starts(with: separator) }) else {
            return (String(decoding: received, as: UTF8.self), [])
        }
        return (String(decoding: received[..<end], as: UTF8.self), Array(received[(end + separator.count)...]))
    }

    /// Whether the peer closes the connection (read returns 0 or fails) within the time.
    func waitForClose(timeoutSeconds: Int) -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        while ContinuousClock.now < deadline {
            if readAvailable(waitingMilliseconds: 200) == false { return true }
        }
        return false
    }

    /// Whether the connection is open and an HTTP 200 status line has arrived on it, after waiting
    /// up to `waitingMilliseconds` for more bytes.
    func hasResponse(waitingMilliseconds: Int32 = 0) -> Bool {
        guard readAvailable(waitingMilliseconds: waitingMilliseconds) else { return false }
        return String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 200")
    }

    /// Closes the connection.
    func disconnect() {
        guard isOpen else { return }
        isOpen = false
        close(descriptor)
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
