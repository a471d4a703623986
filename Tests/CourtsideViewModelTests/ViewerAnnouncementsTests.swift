import CourtsideModel
import CourtsideViewModels
import Testing

@Suite("Viewer announcements: a counted figure, never per join or leave")
struct ViewerAnnouncementsTests {
    @Test("a figure goes out when it changed since the last tick, a drop to zero once, nothing when unchanged")
    func changes() {
        var announcements = ViewerAnnouncements(refreshTicks: 100)
        #expect(announcements.tick(counts: ["g1": 3, "g2": 1]).map { "\($0.game)=\($0.viewers)" } == ["g1=3", "g2=1"])
        #expect(announcements.tick(counts: ["g1": 3, "g2": 1]).isEmpty)
        // Joins and leaves between ticks that end where they began send nothing.
        #expect(announcements.tick(counts: ["g1": 5, "g2": 1]).map { "\($0.game)=\($0.viewers)" } == ["g1=5"])
        #expect(announcements.tick(counts: ["g1": 5]).map { "\($0.game)=\($0.viewers)" } == ["g2=0"])
        #expect(announcements.tick(counts: ["g1": 5]).isEmpty)
    }

    @Test("an unchanged figure is sent again every refreshTicks while anyone watches")
    func refresh() {
        var announcements = ViewerAnnouncements(refreshTicks: 3)
        let figures = (1...7).map { _ in announcements.tick(counts: ["g1": 2]).count }
        #expect(figures == [1, 0, 0, 1, 0, 0, 1])
    }

    @Test("the message is one canonical line without seq")
    func message() throws {
        #expect(
            String(decoding: ViewerAnnouncements.message(game: "g1", viewers: 12), as: UTF8.self)
                == #"{"game":"g1","type":"viewers","v":1,"viewers":12}"#)
    }
}
