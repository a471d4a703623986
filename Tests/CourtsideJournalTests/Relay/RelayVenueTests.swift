import CourtsideJournal
import Testing

/// `RelayVenue`'s ids and the id a token starts with (docs/relay.md, "Ids").
@Suite("Relay venue ids")
struct RelayVenueTests {
    @Test("a venue id is v and 8 lowercase letters or digits")
    func ids() {
        #expect(RelayVenue.isValidID("vk3p9x2ab"))
        for bad in ["", "v", "k3p9x2abc", "vK3p9x2ab", "vk3p9x2a", "vk3p9x2abc", "vk3p9.2ab", "vk3p9x2a\u{e9}"] {
            #expect(!RelayVenue.isValidID(bad), "\(bad)")
        }
    }

    @Test("the venue id is read from the front of its token, or not at all")
    func fromToken() {
        #expect(RelayVenue.id(fromToken: "vk3p9x2ab.0123456789abcdef") == "vk3p9x2ab")
        #expect(RelayVenue.id(fromToken: "vk3p9x2ab.") == nil)
        #expect(RelayVenue.id(fromToken: "vk3p9x2ab") == nil)
        #expect(RelayVenue.id(fromToken: "game-1.secret") == nil)
        #expect(RelayVenue.id(fromToken: ".secret") == nil)
    }
}
