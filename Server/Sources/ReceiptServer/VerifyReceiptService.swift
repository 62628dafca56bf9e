import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ReceiptKit

/// The verifyReceipt-compatible HTTP service: `POST /verifyReceipt`, `GET /health`,
/// `GET /metrics`, on Hummingbird 2.
///
/// Stateless apart from the validator's verified-chain cache: N replicas behind any load
/// balancer each keep their own, and share nothing.
public struct VerifyReceiptService: Sendable {
    /// The answers, without HTTP.
    public let endpoint: AppleVerifyReceiptEndpoint
    /// What the service was started with.
    public let options: ServerOptions
    /// The request counters behind `/metrics`.
    public let metrics: ServerMetrics
    /// Where validations run (off the event loops).
    public let pool: ValidationPool

    /// Builds the endpoint the options describe and starts the validation threads.
    public init(options: ServerOptions) throws {
        try self.init(endpoint: options.makeEndpoint(), options: options)
    }

    /// A service over an endpoint already built.
    public init(endpoint: AppleVerifyReceiptEndpoint, options: ServerOptions) {
        self.endpoint = endpoint
        self.options = options
        self.metrics = ServerMetrics()
        self.pool = ValidationPool(width: options.maximumConcurrentValidations, queueLimit: options.maximumPendingValidations)
    }

    /// The routes.
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/verifyReceipt") { request, _ in await verifyReceipt(request) }
        for method in [HTTPRequest.Method.get, .put, .delete, .patch, .head] {
            router.on("/verifyReceipt", method: method) { _, _ in
                answer(
                    AppleVerifyReceiptResponse(
                        status: .badRequest, code: AppleVerifyReceiptEndpoint.FailureCode.notPOST,
                        message: "verifyReceipt takes an HTTP POST"),
                    httpStatus: .ok, started: .now)
            }
        }
        router.get("/health") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
        }
        router.get("/metrics") { _, _ in
            let text = metrics.prometheusText(cache: endpoint.validator.verifiedChainCacheStatistics, pending: pool.load)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        return router
    }

    /// The Hummingbird application: idle connections closed after ``ServerOptions/idleTimeout``,
    /// at most ``ServerOptions/maximumConnections`` open at once (more wait in the listen backlog),
    /// and every response written in full before its connection closes, in a graceful shutdown too.
    public func makeApplication(
        logger: Logger, onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let idleTimeout = TimeAmount.seconds(Int64(options.idleTimeout))
        return Application(
            router: makeRouter(),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [DrainBeforeCloseHandler(grace: idleTimeout)], idleTimeout: idleTimeout)),
            configuration: .init(
                address: .hostname(options.host, port: options.port), serverName: "receipt-server",
                availableConnectionsDelegate: MaximumAvailableConnections(options.maximumConnections)),
            onServerRunning: { channel in
                // The connection limit is checked before each read of the listening socket, and a
                // read accepts up to `maxMessagesPerRead` connections (4 by default): one per read
                // keeps a burst of connections from passing the limit. (Hummingbird sets no option
                // on the listener before it binds, so this is the first place to set it.)
                do {
                    try await channel.setOption(ChannelOptions.maxMessagesPerRead, value: 1)
                } catch {
                    logger.warning("the listener accepts several connections per read", metadata: ["error": "\(error)"])
                }
                await onServerRunning(channel)
            },
            logger: logger)
    }

    /// `POST /verifyReceipt`: the body is read whole (up to the limit), answered on a validation
    /// thread, and written as Apple's JSON. The content type is not looked at (Apple's endpoint
    /// reads any body as JSON).
    private func verifyReceipt(_ request: Request) async -> Response {
        let started = ContinuousClock.now
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: options.maximumBodySize)
        } catch is NIOTooManyBytesError {
            return answer(
                AppleVerifyReceiptResponse(
                    status: .badRequest, code: AppleVerifyReceiptEndpoint.FailureCode.bodyTooLarge,
                    message: "the request body is larger than \(options.maximumBodySize) bytes"),
                httpStatus: .contentTooLarge, started: started)
        } catch {
            return answer(
                AppleVerifyReceiptResponse(
                    status: .badRequest, code: AppleVerifyReceiptEndpoint.FailureCode.notJSONObject,
                    message: "the request body could not be read: \(error)"),
                httpStatus: .badRequest, started: started)
        }
        let bytes = Array(body.readableBytesView)
        let endpoint = self.endpoint
        guard let response = await pool.run({ endpoint.respond(toBody: bytes) }) else {
            var overloaded = answer(
                AppleVerifyReceiptResponse(
                    status: .badRequest, code: AppleVerifyReceiptEndpoint.FailureCode.overloaded,
                    message: "too many requests are waiting for validation; retry shortly"),
                httpStatus: .serviceUnavailable, started: started)
            overloaded.headers[.retryAfter] = "1"
            return overloaded
        }
        return answer(response, httpStatus: .ok, started: started)
    }

    /// A JSON response, counted in the metrics.
    private func answer(_ response: AppleVerifyReceiptResponse, httpStatus: HTTPResponse.Status, started: ContinuousClock.Instant) -> Response {
        let body = response.jsonBytes()
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        metrics.record(httpCode: httpStatus.code, status: response.status.rawValue, seconds: seconds)
        return Response(
            status: httpStatus, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
