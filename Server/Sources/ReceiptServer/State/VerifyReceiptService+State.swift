import Foundation
import Hummingbird
import Logging
import HummingbirdCore
import NIOCore
import ReceiptKit
import ReceiptState

extension VerifyReceiptService {
    /// Adds `POST /notifications`, `POST /transactions` and `GET /subscriptions/{id}` when the
    /// service keeps state.
    func addStateRoutes(to router: Router<BasicRequestContext>) {
        guard let state else { return }
        let maximumBodySize = options.maximumBodySize
        let metrics = self.metrics
        router.post("/notifications") { request, context in
            await Self.stateAnswer(maximumBodySize: maximumBodySize, request, metrics: metrics, logger: context.logger) { body throws(StateService.Refusal) in
                switch try await state.receiveNotification(body) {
                case .stored(let uuid): return Self.json(["status": "stored", "notification_uuid": uuid])
                case .alreadyStored(let uuid): return Self.json(["status": "already_stored", "notification_uuid": uuid])
                }
            }
        }
        router.post("/transactions") { request, context in
            let parameters = request.uri.queryParameters
            return await Self.stateAnswer(maximumBodySize: maximumBodySize, request, metrics: metrics, logger: context.logger) { body throws(StateService.Refusal) in
                let at = try StateService.date(at: StateService.atParameter(in: parameters))
                return try await state.receiveTransactions(body, at: at).jsonBytes()
            }
        }
        router.get("/subscriptions/{id}") { request, context in
            let id = context.parameters.get("id") ?? ""
            do throws(StateService.Refusal) {
                let at = try StateService.atParameter(in: request.uri.queryParameters)
                return Self.response(.ok, try await state.subscription(id, at: at).jsonBytes())
            } catch {
                return Self.refusal(error)
            }
        }
    }

    /// The answer to a state POST: the body read whole (413 beyond the limit), then `handle`'s
    /// JSON, or its refusal; a `backend_failure` is logged and counted, as for receipts.
    static func stateAnswer(
        maximumBodySize: Int, _ request: Request, metrics: ServerMetrics, logger: Logger,
        _ handle: ([UInt8]) async throws(StateService.Refusal) -> [UInt8]
    ) async -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maximumBodySize)
        } catch is NIOTooManyBytesError {
            return refusal(.init(status: 413, code: HTTPFailureCode.bodyTooLarge,
                                 message: "the request body is larger than \(maximumBodySize) bytes"))
        } catch {
            return refusal(.init(status: 400, code: "unreadable_body", message: "the request body could not be read: \(error)"))
        }
        do {
            return response(.ok, try await handle(Array(body.readableBytesView)))
        } catch {
            if error.code == ReceiptValidationError.Code.backendFailure.rawValue {
                metrics.recordBackendFailure()
                logger.error("backend_failure: a token was answered 503", metadata: ["path": "\(request.uri.path)", "message": "\(error.message)"])
            }
            return refusal(error)
        }
    }

    /// `{"code", "message"}` with the refusal's status (503 with `Retry-After`).
    static func refusal(_ refusal: StateService.Refusal) -> Response {
        var response = response(HTTPResponse.Status(code: refusal.status), json(["code": refusal.code, "message": refusal.message]))
        if refusal.status == 503 { response.headers[.retryAfter] = "1" }
        return response
    }

    /// A JSON response.
    static func response(_ status: HTTPResponse.Status, _ body: [UInt8]) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A flat object of strings, members sorted.
    static func json(_ members: [String: String]) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(members))) ?? Array("{}".utf8)
    }

    /// `/health`'s store part: nil while the store answers (or there is none), else the 503 answer.
    func storeHealthProblem() async -> JSONAnswer? {
        guard let state, let problem = await state.storeProblem() else { return nil }
        var answer = JSONAnswer(
            status: .serviceUnavailable,
            body: ByteBuffer(bytes: Self.json(["status": problem.code.rawValue, "message": "the state store does not answer: \(problem.message)"])))
        answer.asksToRetry = true
        return answer
    }

    /// A `verifyReceipt` answer with the stored state of the receipt's subscriptions merged
    /// (``StateService/answer(_:excludesOldTransactions:)``), the state read asynchronously, written
    /// straight into the outgoing buffer.
    /// `ids`: the response's ``StatefulVerifyReceiptResponse/originalTransactionIDs(of:)``.
    func statefulAnswer(
        _ response: AppleVerifyReceiptResponse, ids: [String], excludesOldTransactions: Bool, echoedReceiptSize: Int
    ) async -> JSONAnswer {
        guard let state else { return JSONAnswer(response, echoedReceiptSize: echoedReceiptSize) }
        return JSONAnswer(await state.merged(response, ids: ids, excludesOldTransactions: excludesOldTransactions), echoedReceiptSize: echoedReceiptSize)
    }
}
