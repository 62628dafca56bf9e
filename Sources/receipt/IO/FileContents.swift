#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole files and streams read and written with POSIX calls, failures described by the system's
/// own text for `errno` ("No such file or directory").
///
/// The tool uses these instead of Foundation's `Data(contentsOf:)` and `FileHandle` so that it
/// needs FoundationEssentials only: without the internationalization half of Foundation (and
/// its ICU data) the statically linked tool is a fraction of the size and starts in a fraction
/// of the time, which a batch of a few hundred receipts pays once.
enum FileContents {
    /// Why a read or write failed, as one sentence fragment.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong ("No such file or directory", "larger than 16777216 bytes").
        let description: String

        /// The system's text for `code`, by default the current `errno`.
        static func fromErrno(_ code: Int32 = errno) -> Failure {
            Failure(description: String(cString: strerror(code)))
        }
    }

    /// Every byte of the file at `path`; fails when it cannot be opened or read, or holds more
    /// than `limit` bytes. Opened without waiting (`O_NONBLOCK`, then cleared for the reads): a
    /// FIFO that no program writes to reads as empty instead of holding the tool forever, and a
    /// pipe that one writes to (`--root <(…)`) is read to its end.
    static func read(_ path: InputPath, limit: Int = 16 << 20) throws(Failure) -> [UInt8] {
        let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else { throw Failure.fromErrno() }
        defer { close(descriptor) }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else { throw Failure.fromErrno() }
        let bytes = try read(descriptor: descriptor, upTo: limit < Int.max ? limit + 1 : limit)
        guard bytes.count <= limit else { throw Failure(description: "larger than \(limit) bytes") }
        return bytes
    }

    /// What `descriptor` yields up to its end or up to `count` bytes, whichever comes first;
    /// fails on a read error.
    static func read(descriptor: Int32, upTo count: Int) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = 64 * 1024
        while bytes.count < count {
            let start = bytes.count
            let want = min(chunk, count - start)
            bytes.append(contentsOf: repeatElement(0, count: want))
            let got = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress.map { $0 + start }, want)
            }
            if got < 0 {
                if errno == EINTR {
                    bytes.removeLast(want)
                    continue
                }
                throw Failure.fromErrno()
            }
            bytes.removeLast(want - got)
            if got == 0 { break }
        }
        return bytes
    }

    /// Writes `bytes` to the file at `path`, creating it or replacing what it held.
    static func write(_ bytes: [UInt8], to path: InputPath) throws(Failure) {
        let descriptor = path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw Failure.fromErrno() }
        let writeFailure = FileDescriptorOutput.writeAll(bytes, to: descriptor)
        if let writeFailure {
            close(descriptor)
            throw Failure.fromErrno(writeFailure)
        }
        guard close(descriptor) == 0 else { throw Failure.fromErrno() }
    }
}

/// `read(2)`, under a name the static `FileContents.read` methods do not shadow.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
