import CourtsideNet

extension ServerMetrics {
    /// Reports `server`'s connection counts and cap refusals from now on.
    func observeConnections(of server: HTTPServer) {
        connectionSource.withLock { $0 = server }
    }

    /// `courtside_connections` (every open connection, any kind) and `courtside_connections_refused_total` by the
    /// cap that refused them (`--max-connections`, `--max-connections-per-address`).
    func connectionLines() -> [String] {
        guard let statistics = connectionSource.withLock({ $0?.connectionStatistics }) else { return [] }
        return [
            "# HELP courtside_connections Open connections of every kind (HTTP, WebSocket, event stream).",
            "# TYPE courtside_connections gauge",
            "courtside_connections \(statistics.open)",
            "# HELP courtside_connections_refused_total Connections answered 503 over a connection cap, by cap.",
            "# TYPE courtside_connections_refused_total counter",
            "courtside_connections_refused_total{cap=\"max_connections\"} \(statistics.refusedOverMaxConnections)",
            "courtside_connections_refused_total{cap=\"per_address\"} \(statistics.refusedOverMaxPerAddress)",
            "# HELP courtside_write_timeouts_total Connections reset: the client read nothing for --write-timeout.",
            "# TYPE courtside_write_timeouts_total counter",
            "courtside_write_timeouts_total \(statistics.writeTimeouts)",
        ]
    }
}
