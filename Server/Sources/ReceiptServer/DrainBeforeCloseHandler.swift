import NIOCore

/// Holds a connection's full close until the writes queued before it have reached the socket.
///
/// Hummingbird's HTTP/1 connection handler closes a connection right after it passes on the end of
/// the last response when the server quiesces (graceful shutdown), and its idle timer closes a
/// connection whose last response ended `idleTimeout` ago. A full close fails every write still queued in the channel, so a response larger than the
/// socket's send buffer (a 5000-purchase receipt answers with about 2 MB) reaches the client cut
/// short. This handler sits between the HTTP codec and that connection handler: a full close asked
/// while writes are unfinished waits for them, or for `grace` at most, so that a client that stops
/// reading cannot hold the connection (and the shutdown) open for ever. Half closes and closes with
/// nothing queued pass through at once.
final class DrainBeforeCloseHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = Any
    typealias OutboundOut = Any

    private let grace: TimeAmount
    private var unfinishedWrites = 0
    private var heldClose: (closed: EventLoopPromise<Void>, deadline: Scheduled<Void>)?

    /// A handler that waits at most `grace` for the queued writes before it closes.
    init(grace: TimeAmount) {
        self.grace = grace
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let written = promise ?? context.eventLoop.makePromise(of: Void.self)
        unfinishedWrites += 1
        written.futureResult.assumeIsolated().whenComplete { _ in
            self.unfinishedWrites -= 1
            if self.unfinishedWrites == 0 {
                self.releaseClose(context: context)
            }
        }
        context.write(data, promise: written)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, unfinishedWrites > 0 else {
            context.close(mode: mode, promise: promise)
            return
        }
        let closed: EventLoopPromise<Void>
        if let heldClose {
            closed = heldClose.closed
        } else {
            closed = context.eventLoop.makePromise(of: Void.self)
            let deadline = context.eventLoop.assumeIsolated().scheduleTask(in: grace) {
                self.releaseClose(context: context)
            }
            heldClose = (closed, deadline)
        }
        if let promise {
            closed.futureResult.cascade(to: promise)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        releaseClose(context: context)
    }

    /// Passes on the held close, if any.
    private func releaseClose(context: ChannelHandlerContext) {
        guard let held = heldClose else { return }
        heldClose = nil
        held.deadline.cancel()
        context.close(mode: .all, promise: held.closed)
    }
}
