import CourtsideNet

/// What the router hands every socket it makes.
struct SocketEnvironment {
    let metrics: ServerMetrics
    let limiter: ConnectionLimiter
    /// The client's address (the per-address cap's key).
    let address: String
    let budget: Int
    /// The loop the socket lives on, as its timers and its time see it (a test drives it by hand).
    let scheduler: any LoopScheduler
}
