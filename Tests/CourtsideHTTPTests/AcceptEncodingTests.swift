import Testing

@testable import CourtsideHTTP

@Suite("Accept-Encoding")
struct AcceptEncodingTests {
    func accept(_ values: String...) -> AcceptEncoding {
        AcceptEncoding(HTTPHeaders(values.map { ("Accept-Encoding", $0) }))
    }

    @Test(
        "gzip is chosen when listed with a positive weight, as gzip, x-gzip or *",
        arguments: [
            "gzip", "GZip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8, *;q=0.1", "x-gzip", "*", "gzip;q=0.5",
            "gzip ; q=0.001", "identity;q=0.5, gzip", "gzip;Q=1", "identity, gzip",
        ])
    func chosen(value: String) {
        #expect(accept(value).prefersGzip)
    }

    @Test(
        "identity is sent when gzip is refused, not listed, outweighed or malformed",
        arguments: [
            "gzip;q=0", "gzip;q=0.000", "x-gzip;q=0", "*;q=0", "gzip;q=0, *", "br, deflate", "", "identity",
            "identity;q=1, gzip;q=0.5", "gzip;q=2", "gzip;q=abc", "gzip;q=1.5", "gzip;q=0.1234", "gzip;level=9",
            "gz ip", "*;q=0.2, identity;q=0.3",
        ])
    func identity(value: String) {
        #expect(!accept(value).prefersGzip)
    }

    @Test("no header means identity: clients that omit it are the ones that cannot decode gzip")
    func absent() {
        let none = AcceptEncoding(HTTPHeaders())
        #expect(!none.isPresent)
        #expect(!none.prefersGzip)
        #expect(none.weight(of: "identity") == 1000)
        #expect(none.weight(of: "gzip") == 0)
    }

    @Test("weights: a coding's own, else *'s; several header lines add up")
    func weights() {
        let header = accept("gzip;q=0.7, *;q=0.2", "identity;q=0.1")
        #expect(header.weight(of: "gzip") == 700)
        #expect(header.weight(of: "X-GZIP") == 700)
        #expect(header.weight(of: "deflate") == 200)
        #expect(header.weight(of: "identity") == 100)
        #expect(accept("br").weight(of: "identity") == 1000)
        #expect(accept("br").weight(of: "gzip") == 0)
    }

    @Test(
        "qvalue grammar (RFC 9110 §12.4.2)",
        arguments: [
            ("1", 1000), ("1.", 1000), ("1.000", 1000), ("0", 0), ("0.5", 500), ("0.05", 50), ("0.001", 1),
            ("0.999", 999),
        ])
    func qvalue(text: String, thousandths: Int) {
        #expect(AcceptEncoding.qvalue(text) == thousandths)
    }

    @Test("malformed qvalues", arguments: ["1.001", "2", "0.1234", ".5", "-0", "0,5", "", "1.0000", "0x"])
    func malformedQvalue(text: String) {
        #expect(AcceptEncoding.qvalue(text) == nil)
    }
}
