import Hummingbird

extension VerifyReceiptService {
    /// Every route the service answers, each group from its controller: the one place a route is
    /// registered (as in Hummingbird's examples, `router.addRoutes(controller.endpoints, atPath:)`).
    /// Every `GET` answers `HEAD` too, with the same status and headers and no body (a load
    /// balancer may check `/health` with either).
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.addRoutes(VerifyReceiptController(service: self).endpoints, atPath: "/verifyReceipt")
        router.addRoutes(HealthController(service: self).endpoints, atPath: "/health")
        router.addRoutes(MetricsController(service: self).endpoints, atPath: "/metrics")
        addStateRoutes(to: router)
        return router
    }
}
