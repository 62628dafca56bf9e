import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

/// Hummingbird's HTTP/1.1 child channel with the guards a service on the internet needs: each
/// connection admitted by the ``ConnectionRegistry`` (idle ones make way for new ones), each
/// request read whole within a deadline, answers written in full before a close
/// (``DrainBeforeCloseHandler``), and `Connection: close` on every answer written once a graceful
/// shutdown has begun.
///
/// The pipeline: ``RequestStartHandler`` (bytes, first), Hummingbird's HTTP/1.1 codec,
/// ``DrainBeforeCloseHandler``, ``RequestGuardHandler`` (HTTP parts), Hummingbird's connection
/// state handler (idle timeout, quiescing).
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value

    let responder: HTTPChannelHandler.Responder
    /// ``ServerOptions/idleTimeout``.
    let idleTimeout: TimeAmount
    /// ``ServerOptions/requestTimeout``.
    let requestTimeout: TimeAmount
    let connections: ConnectionRegistry
    let metrics: ServerMetrics

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let admission = connections.admit(channel)
        let state = RequestGuard(channel: channel, requestTimeout: requestTimeout, connections: connections, metrics: metrics, logger: logger)
        switch admission {
        case .admitted(let closing):
            closing?.close(promise: nil)
        case .refused:
            state.isRefused = true
            logger.debug("connection refused: every place has a request in flight")
        }
        // Hummingbird asks for the handlers while it sets the channel up, on its event loop.
        let boundState = NIOLoopBound(state, eventLoop: channel.eventLoop)
        let grace = idleTimeout
        let http = HTTP1Channel(
            responder: responder,
            configuration: .init(
                additionalChannelHandlers: [DrainBeforeCloseHandler(grace: grace), RequestGuardHandler(boundState.value)],
                idleTimeout: idleTimeout))
        do {
            try channel.pipeline.syncOperations.addHandler(RequestStartHandler(state))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return http.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}

/// One connection's request deadline and state, shared by its two guard handlers; used on the
/// connection's event loop only.
final class RequestGuard {
    let channel: any Channel
    /// The registry had no place for the connection: it is closed as soon as it is active.
    var isRefused = false
    let requestTimeout: TimeAmount
    let connections: ConnectionRegistry
    let metrics: ServerMetrics
    let logger: Logger
    /// Requests whose head has been read and whose answer has not been written.
    var unanswered = 0
    /// Whether a graceful shutdown has begun.
    var isQuiescing = false
    /// The close at the deadline of the request being read, if one is.
    private var deadline: Scheduled<Void>?

    init(channel: any Channel, requestTimeout: TimeAmount, connections: ConnectionRegistry, metrics: ServerMetrics, logger: Logger) {
        self.channel = channel
        self.requestTimeout = requestTimeout
        self.connections = connections
        self.metrics = metrics
        self.logger = logger
    }

    /// A request has begun (its first byte, or its head when its bytes came with the last
    /// request's): the clock starts unless it runs already.
    func requestBegan() {
        guard deadline == nil else { return }
        deadline = channel.eventLoop.assumeIsolated().scheduleTask(in: requestTimeout) {
            self.deadline = nil
            guard self.channel.isActive else { return }
            self.metrics.recordRequestTimeout()
            self.logger.notice("closing a connection: its request was not read whole in time", metadata: [
                "request_timeout_seconds": "\(self.requestTimeout.nanoseconds / 1_000_000_000)"
            ])
            self.channel.close(promise: nil)
        }
    }

    /// The request has been read to its end: the clock stops until the next one begins.
    func requestRead() {
        deadline?.cancel()
        deadline = nil
    }

    /// The connection has closed (the client left, or the server answered a request it could not
    /// read and closed): the clock stops, and nothing is counted or logged as a timeout.
    func connectionClosed() {
        deadline?.cancel()
        deadline = nil
    }

    /// Whether no request is being read: the next byte that arrives begins one.
    var isBetweenRequests: Bool { deadline == nil }
}

/// First in the pipeline: sees the bytes before the HTTP codec does, so that a request's deadline
/// starts at its first byte (a head sent slowly is cut off too), and closes a refused connection.
final class RequestStartHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let state: RequestGuard

    init(_ state: RequestGuard) {
        self.state = state
    }

    func channelActive(context: ChannelHandlerContext) {
        if state.isRefused {
            context.close(promise: nil)
            return
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if state.isBetweenRequests, unwrapInboundIn(data).readableBytes > 0 {
            state.requestBegan()
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.connectionClosed()
        context.fireChannelInactive()
    }
}

/// After the HTTP codec: stops a request's clock at its end, tells the registry when the
/// connection is busy or idle, answers `Expect: 100-continue` with `100 Continue`, and adds
/// `Connection: close` to the answers written during a graceful shutdown (after which Hummingbird
/// closes the connection).
final class RequestGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let state: RequestGuard

    init(_ state: RequestGuard) {
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            state.requestBegan()
            state.unanswered += 1
            if state.unanswered == 1 { state.connections.setBusy(context.channel, true) }
            // RFC 9110 §10.1.1: a request that expects 100-continue is told to send its body
            // (a client otherwise waits about a second before it sends the body anyway: curl
            // above 1 MB, older libcurl and PHP clients above 1 KB). The request's deadline runs.
            if let expectation = request.headerFields[.expect], expectation.lowercased() == "100-continue" {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
        case .body:
            break
        case .end:
            state.requestRead()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response) where state.isQuiescing && response.status.kind != .informational:
            response.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .end:
            // The connection is idle once the answer has reached the socket, not when it is queued.
            let written = promise ?? context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenComplete { _ in
                self.state.unanswered -= 1
                if self.state.unanswered == 0 { self.state.connections.setBusy(context.channel, false) }
            }
            context.write(data, promise: written)
        default:
            context.write(data, promise: promise)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent { state.isQuiescing = true }
        context.fireUserInboundEventTriggered(event)
    }
}
