import Hummingbird
import NIOCore

/// `GET /metrics`: the request counters in Prometheus' text format.
struct MetricsController: Sendable {
    let service: VerifyReceiptService

    /// The routes, relative to `/metrics`.
    var endpoints: RouteCollection<BasicRequestContext> {
        let routes = RouteCollection(context: BasicRequestContext.self)
        routes.get { _, _ in metrics() }
        return routes
    }

    private func metrics() -> MetricsText {
        MetricsText(
            text: service.metrics.prometheusText(
                cache: service.endpoint.validator.verifiedChainCacheStatistics, pending: service.pool.load,
                isReady: service.readiness.verdict.isReady, connections: service.connections))
    }

    /// The metrics as Prometheus' text format 0.0.4.
    struct MetricsText: ResponseGenerator {
        var text: String

        func response(from request: Request, context: some RequestContext) -> Response {
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }
}
