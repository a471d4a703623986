import CourtsideRedis
import Testing

@Suite("Redis URL")
struct RedisURLTests {
    @Test("host, port, user, password and database are read; defaults fill the rest")
    func parses() throws {
        let full = try RedisURL(parsing: "redis://court:s3cret@db.example:6380/2")
        #expect(full == RedisURL(host: "db.example", port: 6380, username: "court", password: "s3cret", database: 2))
        #expect(try RedisURL(parsing: "redis://127.0.0.1") == RedisURL(host: "127.0.0.1"))
        #expect(try RedisURL(parsing: "REDIS://localhost:1/") == RedisURL(host: "localhost", port: 1))
        #expect(try RedisURL(parsing: "redis://[::1]:7000/0") == RedisURL(host: "::1", port: 7000))
        #expect(try RedisURL(parsing: "redis://:pw@h") == RedisURL(host: "h", password: "pw"))
        #expect(try RedisURL(parsing: "redis://pw@h") == RedisURL(host: "h", password: "pw"))
        #expect(try RedisURL(parsing: "rediss://h:6390").usesTLS)
    }

    @Test("user name and password are percent-decoded, so they may hold @ : and /")
    func percentDecoding() throws {
        let url = try RedisURL(parsing: "redis://us%40er:p%3Aw%2Fd%25@h/1")
        #expect(url.username == "us@er")
        #expect(url.password == "p:w/d%")
        #expect(url.database == 1)
    }

    @Test("each kind of mistake is named")
    func errors() {
        func error(_ text: String) -> RedisURLError? {
            do {
                _ = try RedisURL(parsing: text)
                return nil
            } catch {
                return error
            }
        }
        #expect(error("http://h") == .unsupportedScheme)
        #expect(error("h:6379") == .unsupportedScheme)
        #expect(error("redis://") == .missingHost)
        #expect(error("redis://:6379") == .missingHost)
        #expect(error("redis://u:p@/0") == .missingHost)
        #expect(error("redis://h:0") == .invalidPort)
        #expect(error("redis://h:65536") == .invalidPort)
        #expect(error("redis://h:abc") == .invalidPort)
        #expect(error("redis://h:") == .invalidPort)
        #expect(error("redis://h/x") == .invalidDatabase)
        #expect(error("redis://h/-1") == .invalidDatabase)
        #expect(error("redis://h/1/2") == .invalidDatabase)
        #expect(error("redis://h?db=1") == .unsupportedQueryOrFragment)
        #expect(error("redis://h_x") == .invalidHost)
        #expect(error("redis://[::1") == .invalidHost)
        #expect(error("redis://[zz]:1") == .invalidHost)
        #expect(error("redis://u:p%4@h") == .invalidPercentEncoding(field: "password"))
        #expect(error("redis://u%ff:p@h") == .invalidPercentEncoding(field: "user name"))
        #expect(RedisURLError.invalidPort.description.contains("1-65535"))
    }

    @Test("the user info runs to the last @: a raw / : @ or , in a password stays in it and is never quoted")
    func passwordWithSeparators() throws {
        let url = try RedisURL(parsing: "redis://default:S3cr/etPW@db.example:6380/2")
        #expect(
            url == RedisURL(host: "db.example", port: 6380, username: "default", password: "S3cr/etPW", database: 2))
        let odd = try RedisURL(parsing: "rediss://u:a@b:c/d,e?f#g@[::1]:7000")
        #expect(odd.password == "a@b:c/d,e?f#g")
        #expect(odd.host == "::1" && odd.port == 7000 && odd.usesTLS)
        let secrets = ["S3cr", "etPW", "hunter2", "p4ss"]
        for text in [
            "redis://default:S3cr:etPW@h:x/0", "redis://default:S3cr/etPW@h:0", "redis://u:hunter2@h_x:1/0",
            "redis://u:hunter2@h/p4ss", "redis://u:p4ss@[zz]:1", "S3cr://h", "redis://u:hunter2@h?x",
        ] {
            do {
                _ = try RedisURL(parsing: text)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(secrets.allSatisfy { !"\(error)".contains($0) }, "\(text): \(error)")
            }
        }
    }

    @Test("a list is split where a URL begins, not at a comma inside a password")
    func list() {
        #expect(
            RedisURL.splitList("redis://:p,w@a/0,rediss://u:x,y,z@b:1/2")
                == ["redis://:p,w@a/0", "rediss://u:x,y,z@b:1/2"])
        #expect(RedisURL.splitList("redis://a,") == ["redis://a", ""])
        #expect(RedisURL.splitList(",redis://a") == ["", "redis://a"])
        #expect(RedisURL.splitList("redis://a,,redis://b") == ["redis://a", "", "redis://b"])
        #expect(RedisURL.splitList("redis://a,http://b") == ["redis://a", "http://b"])
        #expect(RedisURL.splitList("redis://a") == ["redis://a"])
    }

    @Test("the description hides the password")
    func redacted() throws {
        #expect(try RedisURL(parsing: "redis://u:secret@h:1/3").description == "redis://u:***@h:1/3")
        #expect(try RedisURL(parsing: "rediss://[::1]").description == "rediss://[::1]:6379/0")
    }

    @Test("the handshake is HELLO 3 with AUTH and SETNAME when given, then SELECT unless database 0")
    func handshake() throws {
        #expect(try RedisURL(parsing: "redis://h").handshake() == [RESPCommand("HELLO", "3")])
        #expect(
            try RedisURL(parsing: "redis://:pw@h/4").handshake(clientName: "courtside") == [
                RESPCommand("HELLO", "3", "AUTH", "default", "pw", "SETNAME", "courtside"), RESPCommand("SELECT", 4),
            ])
        #expect(
            try RedisURL(parsing: "redis://u:pw@h").handshake().first == RESPCommand("HELLO", "3", "AUTH", "u", "pw"))
    }
}

@Suite("Redis reconnection backoff")
struct RedisBackoffTests {
    @Test("delays grow exponentially from the initial step, stay between half and all of the step, and are capped")
    func bounds() {
        var backoff = RedisBackoff(initial: .milliseconds(50), maximum: .seconds(2), seed: 7)
        for attempt in 1...12 {
            let step = min(Duration.milliseconds(50) * (1 << (attempt - 1)), .seconds(2))
            let delay = backoff.delay(attempt: attempt)
            #expect(delay >= step / 2 && delay <= step, "attempt \(attempt): \(delay) for step \(step)")
        }
        #expect(backoff.delay(attempt: 1_000) <= .seconds(2))
    }

    @Test("the jitter is seeded: the same seed gives the same delays, another seed others")
    func seeded() {
        var a = RedisBackoff(seed: 1)
        var b = RedisBackoff(seed: 1)
        var c = RedisBackoff(seed: 2)
        let first = (1...8).map { a.delay(attempt: $0) }
        #expect(first == (1...8).map { b.delay(attempt: $0) })
        #expect(first != (1...8).map { c.delay(attempt: $0) })
        #expect(Set(first.map { $0 / Duration.milliseconds(1) }).count > 1)
    }
}
