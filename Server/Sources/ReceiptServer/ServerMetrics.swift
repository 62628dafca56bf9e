import NIOConcurrencyHelpers
import ReceiptKit

/// The service's counters, written as Prometheus text (`GET /metrics`): requests by HTTP code and
/// verifyReceipt status, a latency histogram, the verified-chain cache's hits, backend failures
/// and readiness, and the connections open and closed by the service's limits.
public final class ServerMetrics: Sendable {
    /// The histogram's upper bounds, in seconds.
    static let bucketBounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    private struct State {
        var requests: [Key: Int] = [:]
        var bucketCounts = [Int](repeating: 0, count: ServerMetrics.bucketBounds.count)
        var latencyCount = 0
        var latencySum = 0.0
        var backendFailures = 0
        var requestTimeouts = 0
    }

    private struct Key: Hashable, Comparable {
        var httpCode: Int
        var status: Int
        static func < (left: Key, right: Key) -> Bool {
            (left.httpCode, left.status) < (right.httpCode, right.status)
        }
    }

    private let state = NIOLockedValueBox(State())

    /// Empty counters.
    public init() {}

    /// Counts one answered `POST /verifyReceipt` and how long it took.
    public func record(httpCode: Int, status: Int, seconds: Double) {
        state.withLockedValue { state in
            state.requests[Key(httpCode: httpCode, status: status), default: 0] += 1
            state.latencyCount += 1
            state.latencySum += seconds
            if let bucket = Self.bucketBounds.firstIndex(where: { seconds <= $0 }) {
                state.bucketCounts[bucket] += 1
            }
        }
    }

    /// Counts one answer of `backend_failure` (status 21005): the crypto library failed, or
    /// cannot verify the known-good receipt.
    public func recordBackendFailure() {
        state.withLockedValue { $0.backendFailures += 1 }
    }

    /// Counts one connection closed because its request was not read whole in time.
    public func recordRequestTimeout() {
        state.withLockedValue { $0.requestTimeouts += 1 }
    }

    /// The number of requests counted with this verifyReceipt status.
    public func count(status: Int) -> Int {
        state.withLockedValue { $0.requests.filter { $0.key.status == status }.values.reduce(0, +) }
    }

    /// Prometheus text exposition format, version 0.0.4, with the gauges read now.
    public func prometheusText(
        cache: VerifiedChainCacheStatistics?, pending: Int, isReady: Bool, connections: ConnectionRegistry
    ) -> String {
        let snapshot = state.withLockedValue { $0 }
        var text = "# HELP receipt_requests_total verifyReceipt requests answered, by HTTP code and verifyReceipt status.\n"
        text += "# TYPE receipt_requests_total counter\n"
        for (key, count) in snapshot.requests.sorted(by: { $0.key < $1.key }) {
            text += "receipt_requests_total{code=\"\(key.httpCode)\",status=\"\(key.status)\"} \(count)\n"
        }
        text += "# HELP receipt_request_duration_seconds Time from the whole body read to the answer.\n"
        text += "# TYPE receipt_request_duration_seconds histogram\n"
        var cumulative = 0
        for (bound, count) in zip(Self.bucketBounds, snapshot.bucketCounts) {
            cumulative += count
            text += "receipt_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        text += "receipt_request_duration_seconds_bucket{le=\"+Inf\"} \(snapshot.latencyCount)\n"
        text += "receipt_request_duration_seconds_sum \(snapshot.latencySum)\n"
        text += "receipt_request_duration_seconds_count \(snapshot.latencyCount)\n"
        if let cache {
            text += "# HELP receipt_chain_cache_hits_total Receipts whose chain was found in the verified-chain cache.\n"
            text += "# TYPE receipt_chain_cache_hits_total counter\nreceipt_chain_cache_hits_total \(cache.hits)\n"
            text += "# HELP receipt_chain_cache_fallbacks_total Cache hits that still took the full path.\n"
            text += "# TYPE receipt_chain_cache_fallbacks_total counter\nreceipt_chain_cache_fallbacks_total \(cache.fallbacks)\n"
            text += "# HELP receipt_chain_cache_fills_total Chains added to the cache.\n"
            text += "# TYPE receipt_chain_cache_fills_total counter\nreceipt_chain_cache_fills_total \(cache.fills)\n"
            text += "# HELP receipt_chain_cache_entries Chains in the cache.\n"
            text += "# TYPE receipt_chain_cache_entries gauge\nreceipt_chain_cache_entries \(cache.count)\n"
        }
        text += "# HELP receipt_validations_in_progress Validations running or waiting for a thread.\n"
        text += "# TYPE receipt_validations_in_progress gauge\nreceipt_validations_in_progress \(pending)\n"
        text += "# HELP receipt_backend_failures_total Answers of status 21005: the crypto library failed or cannot verify.\n"
        text += "# TYPE receipt_backend_failures_total counter\nreceipt_backend_failures_total \(snapshot.backendFailures)\n"
        text += "# HELP receipt_backend_ready Whether the crypto library verified the known-good receipt at its last check.\n"
        text += "# TYPE receipt_backend_ready gauge\nreceipt_backend_ready \(isReady ? 1 : 0)\n"
        let (open, busy) = connections.counts
        let (shed, refused) = connections.turnedAway
        text += "# HELP receipt_connections Open connections, and those with a request in flight.\n"
        text += "# TYPE receipt_connections gauge\n"
        text += "receipt_connections{state=\"open\"} \(open)\nreceipt_connections{state=\"busy\"} \(busy)\n"
        text += "# HELP receipt_connections_closed_total Connections closed by the service's limits: idle ones shed for new ones, "
        text += "new ones refused while every place was busy, requests not read whole in time.\n"
        text += "# TYPE receipt_connections_closed_total counter\n"
        text += "receipt_connections_closed_total{reason=\"shed\"} \(shed)\n"
        text += "receipt_connections_closed_total{reason=\"refused\"} \(refused)\n"
        text += "receipt_connections_closed_total{reason=\"request_timeout\"} \(snapshot.requestTimeouts)\n"
        return text
    }
}
