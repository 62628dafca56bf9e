import Hummingbird
import NIOCore
import ReceiptKit
import ReceiptState

/// A JSON answer, its body written by ReceiptKit's ``JSONByteWriter`` straight into the outgoing
/// buffer (no intermediate array, no `JSONEncoder`): what every route of the service returns.
struct JSONAnswer: ResponseGenerator, Sendable {
    /// The HTTP status.
    var status: HTTPResponse.Status
    /// The body.
    var body: ByteBuffer
    /// Whether to add `Retry-After: 1` (503).
    var asksToRetry = false

    /// An answer with a body written already.
    init(status: HTTPResponse.Status, body: ByteBuffer) {
        self.status = status
        self.body = body
    }

    /// An answer whose body is what `write` writes, compact; `expectedSize` bytes are made room
    /// for first (more are appended when the text is longer).
    init(status: HTTPResponse.Status, expectedSize: Int = 512, _ write: (inout JSONByteWriter) -> Void) {
        self.status = status
        var buffer = ByteBufferAllocator().buffer(capacity: expectedSize)
        var overflow: [UInt8] = []
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: expectedSize) { free in
            JSONByteWriter.write(into: free, overflow: &overflow, pretty: false, write)
        }
        if !overflow.isEmpty { buffer.writeBytes(overflow) }
        self.body = buffer
    }

    /// Apple's `verifyReceipt` answer.
    init(_ response: AppleVerifyReceiptResponse, status: HTTPResponse.Status = .ok, echoedReceiptSize: Int = 0) {
        // The echoed receipt (`latest_receipt`), then about 900 bytes a transaction (`in_app` and
        // `latest_receipt_info`).
        let transactions = (response.receipt?.inApp.count ?? 0) + (response.latestReceiptInfo?.count ?? 0)
        self.init(status: status, expectedSize: 1024 + echoedReceiptSize + 900 * transactions) { $0.appleResponse(response) }
    }

    /// Apple's `verifyReceipt` answer with the stored state merged, made room for as
    /// ``init(_:status:echoedReceiptSize:)`` does (and about 600 bytes a pending renewal info).
    init(_ merged: StatefulVerifyReceiptResponse, echoedReceiptSize: Int) {
        let transactions = (merged.response.receipt?.inApp.count ?? 0) + (merged.response.latestReceiptInfo?.count ?? 0)
        let expectedSize = 1024 + echoedReceiptSize + 900 * transactions + 600 * (merged.pendingRenewalInfo?.count ?? 0)
        self.init(status: .ok, expectedSize: expectedSize) { $0.statefulAppleResponse(merged) }
    }

    func response(from request: Request, context: some RequestContext) -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if asksToRetry { headers[.retryAfter] = "1" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}
