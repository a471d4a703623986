import Testing

@testable import CourtsideLoad

/// The report of `courtside-load taptoscreen`: its rows, its limit ratio, its verdict, and its options.
@Suite("courtside-load taptoscreen: the report and its options")
struct TapReportTests {
    private func parsed(_ arguments: [String]) -> TapOptions? {
        try? TapOptions.parse(arguments + ["--admin-token", "admin-token-0123456789"]).get()
    }

    private func figures(screenSamples: Int, lost: Int = 0) -> TapFigures {
        var figures = TapFigures(classNames: ["ack", "screen plain"])
        for _ in 0..<100 { figures.latencies[0].record(2_000_000) }
        for _ in 0..<screenSamples { figures.latencies[1].record(4_000_000) }
        figures.commandsSent = 100
        figures.commandsAcked = 100
        figures.spectatorsConnected = 2
        figures.gaps = lost
        return figures
    }

    @Test("a row per class in milliseconds, each p99 over the limit (commit p99 + fan-out p99)")
    func rows() throws {
        let options = try #require(parsed(["--url", "ws://127.0.0.1:9/", "--games", "1", "--spectators", "2"]))
        var limit = TapLimit()
        limit.commitP99Ms = ["sqlite": 3, "redis": 5]
        limit.fanoutP99Ms = 3
        let report = TapReport(options: options, figures: figures(screenSamples: 200), limit: limit)
        #expect(report.limitP99Ms == 8, "the slower store's commit plus the fan-out")
        let ack = report.classes[0]
        let screen = report.classes[1]
        #expect(ack.name == "ack" && ack.samples == 100)
        #expect(abs(ack.p99Ms - 2) < 2.0 / 64)
        #expect(screen.samples == 200 && abs(screen.p50Ms - 4) < 4.0 / 64 && screen.maxMs == 4)
        #expect(screen.p99OverLimit == 0.5)
        #expect(report.succeeded)
        #expect(report.text.contains("screen plain"))
        #expect(report.json.contains("\"p99OverLimit\" : 0.5"))
    }

    @Test("a lost patch, or a class without samples, fails the run; without a limit there is no ratio")
    func verdict() throws {
        let options = try #require(parsed(["--url", "ws://127.0.0.1:9/", "--games", "1", "--spectators", "2"]))
        #expect(!TapReport(options: options, figures: figures(screenSamples: 10, lost: 1), limit: TapLimit()).succeeded)
        let empty = TapReport(options: options, figures: figures(screenSamples: 0), limit: TapLimit())
        #expect(!empty.succeeded)
        #expect(empty.classes[1].p99OverLimit == nil && empty.limitP99Ms == nil)
    }

    @Test("wss:// nodes speak TLS; --node adds nodes after the origin; the deflate share is spread evenly")
    func parse() throws {
        let result = try #require(
            parsed(["--node", "ws://127.0.0.1:2", "--url", "wss://127.0.0.1:1", "--deflate-share", "0.25"]))
        #expect(result.nodes.map(\.target.port) == [1, 2])
        #expect(result.nodes.map(\.tls) == [true, false])
        #expect((0..<100).filter(result.offersDeflate).count == 25)
        #expect((0..<4).filter(result.offersDeflate).count == 1)
        #expect(parsed(["--url", "ws://10.0.0.1:1"]) == nil, "loopback only")
        #expect(parsed(["--games", "1"]) == nil, "no --url")
        #expect(parsed(["--url", "ws://127.0.0.1:1", "--spectators", "20000", "--games", "2"]) == nil, "too many")
    }
}
