import Hummingbird
import NIOCore
import ReceiptKit

/// `GET /health`: 200 `{"status":"ok"}` while the crypto library verifies the known-good
/// receipt; else 503 `{"status":"backend_failure", "message": …}`, checked again (at most once
/// per ``BackendReadiness/recheckInterval``, on a validation thread) so that it recovers.
struct HealthController: Sendable {
    let service: VerifyReceiptService

    /// The routes, relative to `/health`.
    var endpoints: RouteCollection<BasicRequestContext> {
        let routes = RouteCollection(context: BasicRequestContext.self)
        routes.get { _, _ in await health() }
        return routes
    }

    private func health() async -> JSONAnswer {
        if let problem = await service.storeHealthProblem() { return problem }
        let readiness = service.readiness
        var verdict = readiness.verdict
        if !verdict.isReady, let rechecked = await service.pool.run({ readiness.recheckedVerdict() }) {
            verdict = rechecked
        }
        guard !verdict.isReady else {
            return JSONAnswer(status: .ok, body: Self.ready)
        }
        let message = "the crypto library cannot verify a known-good receipt: \(verdict.problem ?? "")"
        var answer = JSONAnswer(status: .serviceUnavailable) { writer in
            writer.beginObject()
            writer.key("message")
            writer.string(message)
            writer.key("status")
            writer.string(ReceiptValidationError.Code.backendFailure.rawValue)
            writer.endObject()
        }
        answer.asksToRetry = true
        return answer
    }

    /// `{"status":"ok"}`, written once.
    private static let ready = JSONAnswer(status: .ok, expectedSize: 16) { writer in
        writer.beginObject()
        writer.key("status")
        writer.string("ok")
        writer.endObject()
    }.body
}
