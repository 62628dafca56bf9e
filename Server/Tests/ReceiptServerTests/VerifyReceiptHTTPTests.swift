import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReceiptKit
import ReceiptServer
import Testing

/// `POST /verifyReceipt` over real HTTP on loopback: every real receipt, every status code, and
/// the bad inputs.
@Suite struct VerifyReceiptHTTPTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    /// Every real receipt gets status 0 over HTTP with exactly the library endpoint's answer,
    /// request_date aside; with both backends.
    @Test(arguments: CryptoBackends.all.map(\.name))
    func everyRealReceiptIsAnswered(_ backend: String) async throws {
        var options = ServerOptions()
        options.acceptsXcodeReceipts = true
        options.backendName = backend
        let names = try ServerFixtures.realReceiptNames()
        #expect(names.count >= 26)
        try await ServerFixtures.serving(options) { service, client in
            for name in names {
                let base64 = try ServerFixtures.base64(name)
                let response = try await client.execute(
                    uri: "/verifyReceipt", method: .post, headers: Self.json, body: try ServerFixtures.body(base64))
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                var served = try ServerFixtures.object(response.body)
                #expect(served["status"] as? Int == 0, "\(name)")
                let direct = service.endpoint.respond(toBody: Array(try ServerFixtures.body(base64).readableBytesView))
                var expected = try ServerFixtures.object(ByteBuffer(bytes: direct.jsonBytes()))
                for key in ["request_date", "request_date_ms", "request_date_pst"] {
                    #expect((served["receipt"] as? [String: Any])?[key] != nil)
                    var receipt = served["receipt"] as? [String: Any]
                    receipt?[key] = nil
                    served["receipt"] = receipt
                    var expectedReceipt = expected["receipt"] as? [String: Any]
                    expectedReceipt?[key] = nil
                    expected["receipt"] = expectedReceipt
                }
                #expect(NSDictionary(dictionary: served).isEqual(to: expected), "\(name)")
            }
        }
    }

    @Test func everyStatusCodeOverHTTP() async throws {
        let production = try ServerFixtures.base64("aporat-production-g5-sha256-2025-1iap")
        let sandbox = try ServerFixtures.base64("namecare-sandbox-g5-sha256-2025-1iap")
        var options = ServerOptions()
        options.environment = .production
        options.acceptedBundleIDs = ["com.dashedspace.analytics", "com.example.sandboxapp"]
        options.sharedSecrets = ["0123abcd"]
        var tampered = try ServerFixtures.bytes("real/receipts/aporat-production-g5-sha256-2025-1iap.receipt")
        tampered[tampered.count / 8] ^= 0x01
        let cases: [(method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?, http: HTTPResponse.Status, status: Int, code: String?)] = [
            (.post, Self.json, try ServerFixtures.body(production, password: "0123abcd"), .ok, 0, nil),
            (.get, [:], nil, .ok, 21000, "not_post"),
            (.put, Self.json, try ServerFixtures.body(production), .ok, 21000, "not_post"),
            (.delete, [:], nil, .ok, 21000, "not_post"),
            (.patch, Self.json, try ServerFixtures.body(production), .ok, 21000, "not_post"),
            (.options, [:], nil, .ok, 21000, "not_post"),  // was an empty 404
            (.trace, [:], nil, .ok, 21000, "not_post"),
            (.post, Self.json, ByteBuffer(string: "{not json"), .ok, 21000, "not_json_object"),
            (.post, Self.json, ByteBuffer(string: "[]"), .ok, 21000, "not_json_object"),
            (.post, Self.json, nil, .ok, 21000, "not_json_object"),
            (.post, Self.json, ByteBuffer(string: #"{"password":"0123abcd"}"#), .ok, 21002, "missing_receipt_data"),
            (.post, Self.json, try ServerFixtures.body("@@@garbage@@@"), .ok, 21002, "invalid_encoding"),
            (.post, Self.json, try ServerFixtures.body(Data("not a receipt".utf8).base64EncodedString()), .ok, 21002, "not_pkcs7"),
            (.post, Self.json, try ServerFixtures.body(Data(tampered).base64EncodedString(), password: "0123abcd"), .ok, 21003, nil),
            (.post, Self.json, try ServerFixtures.body(production, password: "wrong"), .ok, 21004, "shared_secret_mismatch"),
            (.post, Self.json, try ServerFixtures.body(production), .ok, 21004, "shared_secret_mismatch"),
            (.post, Self.json, try ServerFixtures.body(sandbox, password: "0123abcd"), .ok, 21007, "sandbox_receipt"),
            // Apple reads any content type as JSON.
            (.post, [.contentType: "text/plain"], try ServerFixtures.body(production, password: "0123abcd"), .ok, 0, nil),
            (.post, [.contentType: "application/x-www-form-urlencoded"], try ServerFixtures.body(production, password: "0123abcd"), .ok, 0, nil),
        ]
        try await ServerFixtures.serving(options) { _, client in
            for entry in cases {
                let response = try await client.execute(uri: "/verifyReceipt", method: entry.method, headers: entry.headers, body: entry.body)
                #expect(response.status == entry.http)
                let object = try ServerFixtures.object(response.body)
                #expect(object["status"] as? Int == entry.status, "\(entry.method) \(entry.code ?? "")")
                let failure = object["receiptkit"] as? [String: Any]
                #expect((failure == nil) == (entry.status == 0))
                if let code = entry.code { #expect(failure?["code"] as? String == code) }
            }
        }

        var sandboxOptions = ServerOptions()
        sandboxOptions.environment = .sandbox
        try await ServerFixtures.serving(sandboxOptions) { _, client in
            let wrong = try await client.execute(uri: "/verifyReceipt", method: .post, body: try ServerFixtures.body(production))
            #expect(try ServerFixtures.object(wrong.body)["status"] as? Int == 21008)
            let right = try await client.execute(uri: "/verifyReceipt", method: .post, body: try ServerFixtures.body(sandbox))
            #expect(try ServerFixtures.object(right.body)["status"] as? Int == 0)
        }

        var bundleOptions = ServerOptions()
        bundleOptions.acceptedBundleIDs = ["com.example.other"]
        try await ServerFixtures.serving(bundleOptions) { _, client in
            let refused = try await client.execute(uri: "/verifyReceipt", method: .post, body: try ServerFixtures.body(production))
            let object = try ServerFixtures.object(refused.body)
            #expect(object["status"] as? Int == 21003)
            #expect((object["receiptkit"] as? [String: Any])?["code"] as? String == "bundle_id_not_accepted")
        }
    }

    /// `Expect: 100-continue`: the server answers `100 Continue` to the head at once, then the
    /// body's answer (it sent nothing, and a client waited about a second before sending the body
    /// anyway: curl above 1 MB, older libcurl and PHP clients above 1 KB).
    @Test(.timeLimit(.minutes(1)))
    func expectContinueIsAnswered() async throws {
        let body = Array(try ServerFixtures.body(try ServerFixtures.base64("aporat-production-g5-sha256-2025-1iap")).readableBytesView)
        try await RunningService.with(ServerOptions()) { running in
            let client = try RawConnection(port: running.port)
            client.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.count)\r\nExpect: 100-Continue\r\n\r\n")
            // Generous for a loaded machine: without the answer, the old server sent nothing at all.
            let interim = await client.text(containing: "\r\n\r\n", timeoutMilliseconds: 5_000)
            #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n"), "\(interim)")
            await client.send(body)
            let answer = await client.text(containing: #""status":0"#, timeoutMilliseconds: 10_000)
            #expect(answer.contains("\r\n\r\nHTTP/1.1 200 OK\r\n"), "\(answer.prefix(300))")
            #expect(answer.contains(#""status":0"#))
        }
    }

    /// The `receiptkit` code and status of the answer to `body`, over HTTP.
    static func refusal(_ body: [UInt8], client: HTTPTestClient) async throws -> (status: Int?, code: String?) {
        let response = try await client.execute(uri: "/verifyReceipt", method: .post, headers: Self.json, body: ByteBuffer(bytes: body))
        #expect(response.status == .ok)
        let object = try ServerFixtures.object(response.body)
        return (object["status"] as? Int, (object["receiptkit"] as? [String: Any])?["code"] as? String)
    }

    /// Two `receipt-data` members (most parsers, and a proxy in front, keep the last; a lenient
    /// reader kept the first): refused with 21000, whichever of them is genuine.
    @Test func duplicateKeys() async throws {
        let genuine = try ServerFixtures.base64("aporat-production-g5-sha256-2025-1iap")
        try await ServerFixtures.serving(ServerOptions()) { _, client in
            for body in [
                #"{"receipt-data":"\#(genuine)","receipt-data":"AAAA"}"#, #"{"receipt-data":"AAAA","receipt-data":"\#(genuine)"}"#,
                #"{"receipt-data":"\#(genuine)","password":"a","password":"b"}"#,
            ] {
                let answer = try await Self.refusal(Array(body.utf8), client: client)
                #expect(answer.status == 21000)
                #expect(answer.code == "duplicate_member")
            }
        }
    }

    /// `exclude-old-transactions: "true"` (a string), and any member of the wrong type: refused
    /// with 21000 `wrong_member_type`, not read as false or as absent. `null` counts as absent.
    @Test func aMemberOfTheWrongTypeIsReadAsSomethingElse() async throws {
        let genuine = try ServerFixtures.base64("aporat-production-g5-sha256-2025-1iap")
        try await ServerFixtures.serving(ServerOptions()) { _, client in
            for body in [
                #"{"receipt-data":"\#(genuine)","exclude-old-transactions":"true"}"#,
                #"{"receipt-data":"\#(genuine)","exclude-old-transactions":1}"#,
                #"{"receipt-data":"\#(genuine)","password":12345}"#, #"{"receipt-data":["\#(genuine)"]}"#, #"{"receipt-data":42}"#,
            ] {
                let answer = try await Self.refusal(Array(body.utf8), client: client)
                #expect(answer.status == 21000, "\(body.suffix(40))")
                #expect(answer.code == "wrong_member_type", "\(body.suffix(40))")
            }
            let accepted = #"{"receipt-data":"\#(genuine)","password":null,"exclude-old-transactions":true}"#
            #expect(try await Self.refusal(Array(accepted.utf8), client: client).status == 0)
        }
    }

    /// Bytes that are not UTF-8 inside `receipt-data`: 21002 `receipt_data_not_utf8`, not
    /// `missing_receipt_data` (the member is there).
    @Test func invalidUTF8InReceiptDataIsReportedAsMissing() async throws {
        try await ServerFixtures.serving(ServerOptions()) { _, client in
            let body = Array(#"{"receipt-data":"MIIT"#.utf8) + [0xFF, 0xFE] + Array(#"AAAA"}"#.utf8)
            let answer = try await Self.refusal(body, client: client)
            #expect(answer.status == 21002)
            #expect(answer.code == "receipt_data_not_utf8")
        }
    }

    @Test func aBodyOverTheLimitGets413WithStatus21000() async throws {
        var options = ServerOptions()
        options.maximumBodySize = 4096
        try await ServerFixtures.serving(options) { _, client in
            let response = try await client.execute(
                uri: "/verifyReceipt", method: .post, headers: Self.json,
                body: try ServerFixtures.body(try ServerFixtures.base64("aporat-production-g5-sha256-2025-1iap")))
            #expect(response.status == .contentTooLarge)
            let object = try ServerFixtures.object(response.body)
            #expect(object["status"] as? Int == 21000)
            #expect((object["receiptkit"] as? [String: Any])?["code"] as? String == "body_too_large")
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
        }
    }

    /// A load balancer's `HEAD /health`: the GET's status and headers (its `Content-Length`), no
    /// body, so that the next answer on the connection starts right after the head.
    @Test func headIsAnsweredAsGetWithoutTheBody() async throws {
        try await RunningService.with(ServerOptions()) { running in
            let connection = try RawConnection(port: running.port)
            connection.send("HEAD /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let (head, rest, declared) = await connection.readResponseUntilClosed(timeoutSeconds: 5)
            #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
            #expect(declared == #"{"status":"ok"}"#.utf8.count)
            let next = String(decoding: rest, as: UTF8.self)
            #expect(next.hasPrefix("HTTP/1.1 200"), "the HEAD answer carried a body: \(next)")
            #expect(next.hasSuffix("\r\n\r\n" + #"{"status":"ok"}"#))
        }
    }

    @Test func healthAndMetrics() async throws {
        try await ServerFixtures.serving(ServerOptions()) { _, client in
            let receipt = try ServerFixtures.base64("aporat-production-g5-sha256-2025-1iap")
            for _ in 0..<3 {
                _ = try await client.execute(uri: "/verifyReceipt", method: .post, body: try ServerFixtures.body(receipt))
            }
            _ = try await client.execute(uri: "/verifyReceipt", method: .post, body: ByteBuffer(string: "x"))
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
            #expect(try ServerFixtures.object(health.body)["status"] as? String == "ok")
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            let text = String(buffer: metrics.body)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(text.contains(#"receipt_requests_total{code="200",status="0"} 3"#))
            #expect(text.contains(#"receipt_requests_total{code="200",status="21000"} 1"#))
            #expect(text.contains(#"receipt_request_duration_seconds_count 4"#))
            #expect(text.contains(#"receipt_request_duration_seconds_bucket{le="+Inf"} 4"#))
            // The first validation fills the chain cache; the next two are answered from it.
            #expect(text.contains("receipt_chain_cache_hits_total 2"))
        }
    }
}
