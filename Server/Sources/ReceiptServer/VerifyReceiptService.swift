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
}
