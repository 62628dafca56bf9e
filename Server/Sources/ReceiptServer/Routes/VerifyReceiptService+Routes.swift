import Hummingbird

extension VerifyReceiptService {
    /// Every route the service answers, each group from its controller: the one place a route is
    /// registered (as in Hummingbird's examples, `router.addRoutes(controller.endpoints, atPath:)`).
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.addRoutes(VerifyReceiptController(service: self).endpoints, atPath: "/verifyReceipt")
        router.addRoutes(HealthController(service: self).endpoints, atPath: "/health")
        router.addRoutes(MetricsController(service: self).endpoints, atPath: "/metrics")
        addStateRoutes(to: router)
        return router
    }
}
