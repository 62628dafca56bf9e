import CoreMetrics
import NIOConcurrencyHelpers
import Prometheus
import ReceiptKit

/// The service's metrics, recorded through swift-metrics into a Prometheus registry of the
/// service's own (no process-wide `MetricsSystem.bootstrap`) and written by swift-prometheus as
/// Prometheus' text format (`GET /metrics`): requests by HTTP code and verifyReceipt status (the
/// outcomes by code), a latency histogram, backend failures, the connections closed by the
/// service's limits; read at each scrape: the verified-chain cache, the validations in flight,
/// readiness and the open connections.
public final class ServerMetrics: Sendable {
    /// The histogram's upper bounds, in seconds.
    static let bucketBounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    /// Where every metric is kept, and what `/metrics` writes.
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// `receipt_requests_total`, one counter per (HTTP code, status) seen.
    private let requests = NIOLockedValueBox<[Outcome: CoreMetrics.Counter]>([:])
    private let latency: CoreMetrics.Timer
    private let backendFailures: CoreMetrics.Counter
    private let requestTimeouts: CoreMetrics.Counter
    /// The totals kept elsewhere, as last added to the registry (see ``advance(_:_:labels:to:)``).
    private let written = NIOLockedValueBox<[String: Int]>([:])

    private struct Outcome: Hashable {
        var httpCode: Int
        var status: Int
    }

    /// Empty metrics.
    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets["receipt_request_duration_seconds"] = Self.bucketBounds.map { .nanoseconds(Int64($0 * 1e9)) }
        self.factory = factory
        latency = Timer(label: "receipt_request_duration_seconds", factory: factory)
        backendFailures = Counter(label: "receipt_backend_failures_total", factory: factory)
        requestTimeouts = Counter(label: "receipt_connections_closed_total", dimensions: [("reason", "request_timeout")], factory: factory)
    }

    /// Counts one answered `POST /verifyReceipt` and how long it took.
    public func record(httpCode: Int, status: Int, duration: Duration) {
        let outcome = Outcome(httpCode: httpCode, status: status)
        let counter = requests.withLockedValue { counters in
            if let counter = counters[outcome] { return counter }
            let counter = Counter(
                label: "receipt_requests_total", dimensions: [("code", "\(httpCode)"), ("status", "\(status)")], factory: factory)
            counters[outcome] = counter
            return counter
        }
        counter.increment()
        let (seconds, attoseconds) = duration.components
        latency.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// Counts one answer of `backend_failure` (status 21005): the crypto library failed, or
    /// cannot verify the known-good receipt.
    public func recordBackendFailure() {
        backendFailures.increment()
    }

    /// Counts one connection closed because its request was not read whole in time.
    public func recordRequestTimeout() {
        requestTimeouts.increment()
    }

    /// Prometheus text exposition format, version 0.0.4, with the values read now.
    public func prometheusText(
        cache: VerifiedChainCacheStatistics?, pending: Int, isReady: Bool, connections: ConnectionRegistry
    ) -> String {
        if let cache {
            advance("receipt_chain_cache_hits_total", "Receipts whose chain was found in the verified-chain cache.", to: cache.hits)
            advance("receipt_chain_cache_fallbacks_total", "Cache hits that still took the full path.", to: cache.fallbacks)
            advance("receipt_chain_cache_fills_total", "Chains added to the cache.", to: cache.fills)
            gauge("receipt_chain_cache_entries", "Chains in the cache.").set(Int64(cache.count))
        }
        gauge("receipt_validations_in_progress", "Validations running or waiting for a thread.").set(Int64(pending))
        gauge("receipt_backend_ready", "Whether the crypto library verified the known-good receipt at its last check.").set(Int64(isReady ? 1 : 0))
        let (open, busy) = connections.counts
        let connectionsName = Self.name("receipt_connections", "Open connections, and those with a request in flight.")
        registry.makeGauge(descriptor: connectionsName, labels: [("state", "open")]).set(Int64(open))
        registry.makeGauge(descriptor: connectionsName, labels: [("state", "busy")]).set(Int64(busy))
        // Recorded through swift-metrics too (request_timeout), so without help text, as its
        // factory registers them.
        let (shed, refused) = connections.turnedAway
        advance("receipt_connections_closed_total", "", labels: [("reason", "shed")], to: shed)
        advance("receipt_connections_closed_total", "", labels: [("reason", "refused")], to: refused)
        return registry.emitToString()
    }

    private static func name(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    private func gauge(_ name: String, _ help: String) -> Prometheus.Gauge {
        registry.makeGauge(descriptor: Self.name(name, help))
    }

    /// Brings the registry's counter `name` up to `total`, a count kept elsewhere (the
    /// library's cache, the connection registry).
    private func advance(_ name: String, _ help: String, labels: [(String, String)] = [], to total: Int) {
        let key = name + labels.map { "|\($0.0)=\($0.1)" }.joined()
        let step = written.withLockedValue { written -> Int in
            let step = max(0, total - written[key, default: 0])
            written[key, default: 0] += step
            return step
        }
        let descriptor = Self.name(name, help)
        let counter = labels.isEmpty ? registry.makeCounter(descriptor: descriptor) : registry.makeCounter(descriptor: descriptor, labels: labels)
        counter.increment(by: Int64(step))
    }
}
