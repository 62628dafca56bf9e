import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ReceiptKit
import ReceiptState

/// `/verifyReceipt`: `POST` answered as Apple's endpoint answers; any other method gets status
/// 21000 with the code `not_post`.
struct VerifyReceiptController: Sendable {
    let service: VerifyReceiptService

    /// The routes, relative to `/verifyReceipt`.
    var endpoints: RouteCollection<BasicRequestContext> {
        let routes = RouteCollection(context: BasicRequestContext.self)
        routes.post { request, context in await verifyReceipt(request, logger: context.logger) }
        for method in [HTTPRequest.Method.get, .put, .delete, .patch, .head, .options, .trace] {
            routes.on("", method: method) { _, _ in
                answer(
                    AppleVerifyReceiptResponse(status: .badRequest, code: HTTPFailureCode.notPOST, message: "verifyReceipt takes an HTTP POST"),
                    httpStatus: .ok, started: .now)
            }
        }
        return routes
    }

    /// `POST /verifyReceipt`: the body is read whole (up to the limit), and answered by
    /// ``VerifyReceiptService/answer(toBody:readsStateHere:)``. The content type is not looked at
    /// (Apple's endpoint reads any body as JSON).
    private func verifyReceipt(_ request: Request, logger: Logger) async -> JSONAnswer {
        let started = ContinuousClock.now
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: service.options.maximumBodySize)
        } catch is NIOTooManyBytesError {
            return answer(
                AppleVerifyReceiptResponse(
                    status: .badRequest, code: HTTPFailureCode.bodyTooLarge,
                    message: "the request body is larger than \(service.options.maximumBodySize) bytes"),
                httpStatus: .contentTooLarge, started: started)
        } catch {
            return answer(
                AppleVerifyReceiptResponse(
                    status: .badRequest, code: AppleVerifyReceiptEndpoint.FailureCode.notJSONObject,
                    message: "the request body could not be read: \(error)"),
                httpStatus: .badRequest, started: started)
        }
        guard let outcome = await service.answer(toBody: body) else {
            var overloaded = answer(
                AppleVerifyReceiptResponse(
                    status: .badRequest, code: HTTPFailureCode.overloaded,
                    message: "too many requests are waiting for validation; retry shortly"),
                httpStatus: .serviceUnavailable, started: started)
            overloaded.asksToRetry = true
            return overloaded
        }
        if let fault = outcome.fault {
            service.metrics.recordBackendFailure()
            logger.error("backend_failure: the receipt was answered 21005", metadata: [
                "library": "\(fault.library)", "known_good_receipt": "\(fault.knownGoodReceipt ?? "verifies")",
            ])
        }
        record(httpStatus: outcome.answer.status, status: outcome.response.status, started: started)
        return outcome.answer
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

    /// A JSON answer of `response`, counted in the metrics.
    private func answer(_ response: AppleVerifyReceiptResponse, httpStatus: HTTPResponse.Status, started: ContinuousClock.Instant) -> JSONAnswer {
        record(httpStatus: httpStatus, status: response.status, started: started)
        return JSONAnswer(response, status: httpStatus)
    }

    /// Counts an answer in the metrics.
    private func record(httpStatus: HTTPResponse.Status, status: AppleVerifyReceiptStatus, started: ContinuousClock.Instant) {
        service.metrics.record(httpCode: httpStatus.code, status: status.rawValue, duration: ContinuousClock.now - started)
    }
}
