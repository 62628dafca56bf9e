import Foundation
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

    private func health() async -> Response {
        let readiness = service.readiness
        var verdict = readiness.verdict
        if !verdict.isReady, let rechecked = await service.pool.run({ readiness.recheckedVerdict() }) {
            verdict = rechecked
        }
        guard !verdict.isReady else {
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
        }
        let answer = HealthAnswer(
            status: ReceiptValidationError.Code.backendFailure.rawValue,
            message: "the crypto library cannot verify a known-good receipt: \(verdict.problem ?? "")")
        let body = (try? Self.encoder.encode(answer)) ?? Data(#"{"status":"backend_failure"}"#.utf8)
        return Response(
            status: .serviceUnavailable, headers: [.contentType: "application/json", .retryAfter: "1"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `/health`'s body when the service is not ready.
    private struct HealthAnswer: Encodable {
        var status: String
        var message: String
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
