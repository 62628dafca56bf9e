import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix

/// A small HTTP/1.1 client for the live tests, on SwiftNIO (already in the service's graph): each
/// request goes over a loopback connection of its own, so one answer's `Connection: close` or a
/// refused body cannot break the next request.
///
/// The package used HummingbirdTesting's client before; that product alone brought AsyncHTTPClient,
/// NIOHTTP2, NIOHPACK, NIOSOCKS and NIOHTTPCompression into the test build (45 s of the server
/// step's build on two cores) for the same few requests.
struct HTTPTestClient: Sendable {
    /// An answer: its status, header fields and whole body.
    struct Response: Sendable {
        /// The status line's code.
        let status: HTTPResponse.Status
        /// The header fields.
        let headers: HTTPFields
        /// The body, read to its end.
        let body: ByteBuffer
    }

    /// A request that was not answered in full.
    struct Failure: Error, CustomStringConvertible {
        /// What happened, and to which request.
        let description: String
    }

    /// The port on 127.0.0.1.
    let port: Int
    /// How long one request may take, connecting included, before its connection is closed.
    let timeout: Duration

    /// Runs `body` with a client of the service on `127.0.0.1:port`.
    static func with<Result>(
        port: Int, timeout: Duration = .seconds(30), _ body: (HTTPTestClient) async throws -> Result
    ) async rethrows -> Result {
        try await body(HTTPTestClient(port: port, timeout: timeout))
    }

    /// `GET path`.
    func get(_ path: String, headers: HTTPFields = [:]) async throws -> Response {
        try await execute(uri: path, method: .get, headers: headers)
    }

    /// `POST path` with `body`.
    func post(_ path: String, headers: HTTPFields = [:], body: ByteBuffer) async throws -> Response {
        try await execute(uri: path, method: .post, headers: headers, body: body)
    }

    /// Sends one request (with a `Content-Length`, never chunked) and reads its whole answer.
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> Response {
        let started = ContinuousClock.now
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPClientCodec())
                    return try NIOAsyncChannel<HTTPResponsePart, HTTPRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        let deadline = channel.channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            channel.channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        let request = "\(method.rawValue) \(uri)"
        do {
            return try await channel.executeThenClose { inbound, outbound in
                var fields = headers
                if let body {
                    fields[.contentLength] = String(body.readableBytes)
                } else if method != .get && method != .head {
                    fields[.contentLength] = "0"
                }
                try await outbound.write(
                    .head(HTTPRequest(method: method, scheme: nil, authority: "127.0.0.1:\(port)", path: uri, headerFields: fields)))
                if let body, body.readableBytes > 0 { try await outbound.write(.body(body)) }
                try await outbound.write(.end(nil))
                var head: HTTPResponse?
                var collected = ByteBuffer()
                for try await part in inbound {
                    switch part {
                    case .head(let response):
                        head = response
                    case .body(var chunk):
                        collected.writeBuffer(&chunk)
                    case .end:
                        guard let head else { throw Failure(description: "\(request): the answer ended before its head") }
                        return Response(status: head.status, headers: head.headerFields, body: collected)
                    }
                }
                throw Failure(description: "\(request): the connection closed before the answer's end")
            }
        } catch {
            guard ContinuousClock.now - started < timeout else {
                throw Failure(description: "\(request): no whole answer within \(timeout)")
            }
            throw error
        }
    }
}
