import CourtsideRedis
import Testing

@testable import Courtside

/// `--redis` with a comma-separated list of Redis servers: the game partitions (docs/cluster.md, "Past one Redis").
@Suite("CLI: --redis with several servers")
struct RedisListParsingTests {
    func parse(_ arguments: [String], _ environment: [String: String] = [:]) -> Result<CLICommand, CLIError> {
        CommandLineParser.parse(arguments: ["serve"] + arguments, environment: environment)
    }

    @Test("a list gives the partitions in order; one URL gives one, as before")
    func list() throws {
        let two = parse(["--redis", "redis://:pw@r0:6379/0,rediss://r1.example:6380/2"])
        guard case .success(.serve(let options)) = two else {
            Issue.record("\(two)")
            return
        }
        #expect(
            options.configuration.redisURLs == [
                RedisURL(host: "r0", port: 6379, password: "pw", database: 0),
                try RedisURL(parsing: "rediss://r1.example:6380/2"),
            ])
        #expect(options.configuration.redisURL == RedisURL(host: "r0", port: 6379, password: "pw", database: 0))
        let environment = parse([], ["COURTSIDE_REDIS": "redis://a:1/0,redis://b:2/0,redis://c:3/0"])
        guard case .success(.serve(let fromEnvironment)) = environment else {
            Issue.record("\(environment)")
            return
        }
        #expect(fromEnvironment.configuration.redisURLs.map(\.host) == ["a", "b", "c"])
        let one = parse(["--redis", "redis://a:1/0"])
        guard case .success(.serve(let single)) = one else {
            Issue.record("\(one)")
            return
        }
        #expect(single.configuration.redisURLs == [RedisURL(host: "a", port: 1, database: 0)])
    }

    @Test("a comma in a password does not split the list, and an error never quotes the password")
    func commaInPassword() {
        let parsed = parse(["--redis", "redis://:pa,ss@r0:6379/0,redis://:s3,cr/et@r1:6380/0"])
        guard case .success(.serve(let options)) = parsed else {
            Issue.record("\(parsed)")
            return
        }
        #expect(options.configuration.redisURLs.map(\.password) == ["pa,ss", "s3,cr/et"])
        #expect(options.configuration.redisURLs.map(\.host) == ["r0", "r1"])
        guard case .failure(let error) = parse(["--redis", "redis://a:1/0,redis://default:S3cr/etPW:x@h:y/0"]) else {
            Issue.record("a bad port was accepted")
            return
        }
        #expect(error.description.hasPrefix("--redis: partition 1: invalid port"), "\(error)")
        #expect(!error.description.contains("S3cr") && !error.description.contains("etPW"), "\(error)")
    }

    @Test(
        "a bad or empty member names its place in the list",
        arguments: [
            ("redis://a:1/0,", "--redis: partition 1: "),
            ("redis://a:1/0,http://b", "--redis: partition 1: unsupported scheme"),
            (",redis://a:1/0", "--redis: partition 0: "),
            ("redis://a:0/0,redis://b:1/0", "--redis: partition 0: invalid port"),
        ])
    func badMember(value: String, prefix: String) {
        guard case .failure(let error) = parse(["--redis", value]) else {
            Issue.record("\(value) was accepted")
            return
        }
        #expect(error.description.hasPrefix(prefix), "\(error)")
    }
}
