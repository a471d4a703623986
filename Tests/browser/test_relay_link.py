"""A relayed game's spectator page on the public node while the venue's link is cut (docs/relay.md, "Link state on
the public node"): the page says "venue link down since HH:MM" during the cut, and once the link is back it shows the
game the venue scored meanwhile, caught up without a reload, and the words go away.

The session's server is the public node; a second `courtside serve` is the venue node, relaying through the cutting
proxy of the relay's CI check (Tests/e2e/cutting_proxy.py)."""

import re
import sys

from conftest import ADMIN_TOKEN
from harness import ROOT, CourtsideServer, create_game, scorer_command, wait_until
from pages import open_spectator, page_seq, page_state

sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
from cutting_proxy import BackgroundProxy  # noqa: E402


def source_words(driver):
    return driver.execute_script(
        "const node = document.getElementById('source'); return node.hidden ? '' : node.textContent"
    )


def test_public_page_shows_the_link_down_then_the_caught_up_game(server, browsers, tmp_path):
    status, venue_answer = server.request("POST", "/api/venues", {"name": "Hall 2"}, token=ADMIN_TOKEN)
    assert status == 201, venue_answer
    proxy = BackgroundProxy(server.port)
    venue = CourtsideServer(
        tmp_path / "venue-data", ADMIN_TOKEN,
        extra_args=["--upstream", f"ws://127.0.0.1:{proxy.port}", "--upstream-token", venue_answer["token"],
                    "--upstream-ping", "0.2"],
    )
    try:
        venue.start()
        wait_until(lambda: venue.request("GET", "/healthz")[1].get("uplink") == "up", 15, what="the venue's uplink")
        game = create_game(venue, {"homeTeam": "Hawks", "homePlayers": ["A", "B", "C"], "awayTeam": "Owls",
                                   "awayPlayers": ["D", "E", "F"], "rules": {"preset": "pickup"}})
        scorer_command(venue, game, {"type": "move", "id": "c0", "player": "home-0", "move": "twoPoints"})
        wait_until(lambda: server.request("GET", f"/api/games/{game['id']}")[0] == 200, 15, what="the relayed game")

        page = browsers["spectator"]
        open_spectator(page, server.base, game["id"])
        wait_until(lambda: (page_state(page) or {}).get("homeScore") == 2, 10, what="the first basket on the page")
        assert source_words(page) == "", "no link words while the link is up and caught up"
        page.execute_script("window.reloadMarker = 'same page'")

        # The link goes dark (nothing forwarded, then given up by the venue's health checks) and stays down.
        proxy.refuse(True)
        assert proxy.cut("blackhole") == 1
        words = wait_until(lambda: source_words(page), 10, what="the link state on the public page")
        assert re.fullmatch(r"venue link down since \d{1,2}:\d{2}( ?[AP]M)?", words), words
        assert venue.request("GET", "/healthz")[1].get("uplink") == "down"
        for index in range(1, 6):
            scorer_command(venue, game, {"type": "move", "id": f"c{index}", "player": "away-1", "move": "twoPoints"})
        venue_document = venue.snapshot(game["id"])
        assert venue_document["state"]["awayScore"] == 10
        assert (page_state(page) or {}).get("awayScore") == 0, "nothing reached the public page during the cut"

        proxy.refuse(False)
        wait_until(lambda: page_seq(page) == venue_document["seq"], 20, what="the public page caught up")
        assert page_state(page) == venue_document["state"]
        wait_until(lambda: source_words(page) == "", 10, what="the link words cleared")
        assert page.execute_script("return window.reloadMarker") == "same page", "the page reloaded"
    finally:
        venue.stop()
        proxy.close()
