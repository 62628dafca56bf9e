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
    /// Whether the crypto library can verify: `/health`.
    public let readiness: BackendReadiness
    /// The open connections, within ``ServerOptions/maximumConnections``.
    public let connections: ConnectionRegistry
    /// The stored notifications and transactions, and the state from them; nil: none kept.
    public var state: StateService?

    /// Builds the endpoint the options describe, starts the validation threads and checks that
    /// the crypto library can verify (``BackendReadiness``).
    public init(options: ServerOptions) throws {
        try self.init(endpoint: options.makeEndpoint(), options: options)
    }

    /// A service over an endpoint already built.
    public init(endpoint: AppleVerifyReceiptEndpoint, options: ServerOptions) {
        self.endpoint = endpoint
        self.options = options
        self.metrics = ServerMetrics()
        self.pool = ValidationPool(width: options.maximumConcurrentValidations, queueLimit: options.validationQueueLimit)
        self.readiness = BackendReadiness(backend: endpoint.validator.backend)
        self.connections = ConnectionRegistry(limit: options.maximumConnections)
    }

    /// The routes.
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/verifyReceipt") { request, context in await verifyReceipt(request, logger: context.logger) }
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
            if let problem = await storeHealthProblem() { return problem }
            return await health()
        }
        router.get("/metrics") { _, _ in
            let text = metrics.prometheusText(
                cache: endpoint.validator.verifiedChainCacheStatistics, pending: pool.load, isReady: readiness.verdict.isReady,
                connections: connections)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        addStateRoutes(to: router)
        return router
    }

    /// The Hummingbird application, on ``GuardedHTTP1Channel``: idle connections closed after
    /// ``ServerOptions/idleTimeout``, a request read whole within ``ServerOptions/requestTimeout``,
    /// at most ``ServerOptions/maximumConnections`` open at once (the longest idle makes way for a
    /// new one), and every response written in full before its connection closes, in a graceful
    /// shutdown too (with `Connection: close`).
    public func makeApplication(
        logger: Logger, onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let idleTimeout = TimeAmount.seconds(Int64(options.idleTimeout))
        let requestTimeout = TimeAmount.seconds(Int64(options.requestTimeout))
        let connections = self.connections
        let metrics = self.metrics
        return Application(
            router: makeRouter(),
            server: HTTPServerBuilder { responder in
                GuardedHTTP1Channel(
                    responder: responder, idleTimeout: idleTimeout, requestTimeout: requestTimeout, connections: connections,
                    metrics: metrics)
            },
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "receipt-server"),
            onServerRunning: onServerRunning,
            logger: logger)
    }

    /// `GET /health`: 200 `{"status":"ok"}` while the crypto library verifies the known-good
    /// receipt; else 503 `{"status":"backend_failure", "message": …}`, checked again (at most once
    /// per ``BackendReadiness/recheckInterval``, on a validation thread) so that it recovers.
    private func health() async -> Response {
        var verdict = readiness.verdict
        if !verdict.isReady, let rechecked = await pool.run({ [readiness] in readiness.recheckedVerdict() }) {
            verdict = rechecked
        }
        guard !verdict.isReady else {
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
        }
        let answer = HealthAnswer(
            status: ReceiptValidationError.Code.backendFailure.rawValue,
            message: "the crypto library cannot verify a known-good receipt: \(verdict.problem ?? "")")
        let body = (try? Self.healthEncoder.encode(answer)) ?? Data(#"{"status":"backend_failure"}"#.utf8)
        return Response(
            status: .serviceUnavailable, headers: [.contentType: "application/json", .retryAfter: "1"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `/health`'s body when the service is not ready.
    private struct HealthAnswer: Encodable {
        var status: String
        var message: String
    }

    private static let healthEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `POST /verifyReceipt`: the body is read whole (up to the limit), answered on a validation
    /// thread, and written as Apple's JSON. The content type is not looked at (Apple's endpoint
    /// reads any body as JSON).
    private func verifyReceipt(_ request: Request, logger: Logger) async -> Response {
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
        let readiness = self.readiness
        guard let (response, fault) = await pool.run({ Self.judge(endpoint.respond(toBody: bytes), readiness: readiness) }) else {
            var overloaded = answer(
                AppleVerifyReceiptResponse(
                    status: .badRequest, code: AppleVerifyReceiptEndpoint.FailureCode.overloaded,
                    message: "too many requests are waiting for validation; retry shortly"),
                httpStatus: .serviceUnavailable, started: started)
            overloaded.headers[.retryAfter] = "1"
            return overloaded
        }
        if let fault {
            metrics.recordBackendFailure()
            logger.error("backend_failure: the receipt was answered 21005", metadata: [
                "library": "\(fault.library)", "known_good_receipt": "\(fault.knownGoodReceipt ?? "verifies")",
            ])
        }
        return await answer(response, request: bytes, started: started)
    }

    /// A failure of the crypto library, as logged: what it said of the client's receipt, and what
    /// the known-good receipt's check says.
    struct BackendFault: Sendable {
        var library: String
        var knownGoodReceipt: String?
    }

    /// The answer to give for `response`, on the validation thread. A `backend_failure` (21005)
    /// stands, and has the library checked again. A refusal as not authenticated (21003, but for a
    /// bundle id the service does not accept) is a verdict only while the library verifies the
    /// known-good receipt: otherwise it becomes `backend_failure`, since a library that cannot
    /// verify refuses genuine receipts too.
    static func judge(_ response: AppleVerifyReceiptResponse, readiness: BackendReadiness) -> (AppleVerifyReceiptResponse, BackendFault?) {
        guard let failure = response.failure else { return (response, nil) }
        if failure.code == ReceiptValidationError.Code.backendFailure.rawValue {
            return (response, BackendFault(library: failure.message, knownGoodReceipt: readiness.recheckedVerdict().problem))
        }
        guard response.status == .notAuthenticated, failure.code != AppleVerifyReceiptEndpoint.FailureCode.bundleIDNotAccepted else {
            return (response, nil)
        }
        let verdict = readiness.recheckedVerdict()
        guard !verdict.isReady else { return (response, nil) }
        let problem = verdict.problem ?? ""
        let unjudged = AppleVerifyReceiptResponse(
            error: ReceiptValidationError(
                .backendFailure,
                "The crypto library cannot verify a known-good receipt, so this receipt was not judged (it said \(failure.code)): \(problem)"
            ))
        return (unjudged, BackendFault(library: "\(failure.code): \(failure.message)", knownGoodReceipt: problem))
    }

    /// A JSON response, counted in the metrics.
    func answer(_ response: AppleVerifyReceiptResponse, httpStatus: HTTPResponse.Status, started: ContinuousClock.Instant) -> Response {
        let body = response.jsonBytes()
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        metrics.record(httpCode: httpStatus.code, status: response.status.rawValue, seconds: seconds)
        return Response(
            status: httpStatus, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
