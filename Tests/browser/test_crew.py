"""The table crew's pages in Chromium against a real `courtside serve` (docs/protocol.md, "The table crew"): the QR
encoder, the lobby's add-member flow, the scorer panel per role, the crew list updating live, and two scorers who
confirm each other resolving a conflict on both panels."""

import os
import re
import shutil
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from harness import console_errors, make_driver, scorer_command, set_viewport, wait_until
from pages import click_move, open_display, open_scorer, press, text, wait_live

try:
    import numpy
    import zxingcpp
except ImportError:  # scripts/install-deps.d/40-browser.sh installs both
    zxingcpp = None

# Byte-mode capacity of QR versions 1-10 at levels L and M (ISO/IEC 18004:2015, Table 7): the smallest version
# holding a text is read from here, independently of the page's encoder.
BYTE_CAPACITY = {
    "L": (17, 32, 53, 78, 106, 134, 154, 192, 230, 271),
    "M": (14, 26, 42, 62, 84, 106, 122, 152, 180, 213),
}


def need_decoder():
    if zxingcpp is None:
        if os.environ.get("CI") == "true":
            pytest.fail("zxing-cpp (PyPI) is missing: scripts/install-deps.d/40-browser.sh installs it")
        pytest.skip("zxing-cpp (PyPI) is missing: scripts/install-deps.d/40-browser.sh installs it")


def decode(modules):
    """Decodes a QR matrix (rows of 0/1, dark is 1) with zxing-cpp, drawn as a camera would see it: a four-module
    quiet zone, four pixels a module, dark on white."""
    image = numpy.pad(numpy.array(modules, dtype=numpy.uint8), 4)
    image = ((1 - image) * 255).astype(numpy.uint8).repeat(4, axis=0).repeat(4, axis=1)
    found = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(found) == 1, f"zxing-cpp found {len(found)} QR codes"
    return found[0]


def svg_modules(driver, svg):
    """The modules of a QR code drawn by qr.js's qrSVG, read back from the page's SVG path."""
    size = int(svg.get_attribute("data-size"))
    quiet = int(svg.get_attribute("data-quiet"))
    modules = [[0] * size for _ in range(size)]
    path = driver.execute_script("return arguments[0].querySelector('path').getAttribute('d')", svg)
    for x, y in re.findall(r"M(\d+) (\d+)h1v1h-1z", path):
        modules[int(y) - quiet][int(x) - quiet] = 1
    return modules


def take(driver, directory, name, width, height):
    """A screenshot at a phone's or a desktop's size; COURTSIDE_UPDATE_SCREENSHOTS=1 also copies it to docs/screenshots."""
    set_viewport(driver, width, height, mobile=width < 600)
    time.sleep(0.6)  # let the flash animations finish
    path = directory / f"{name}-{width}x{height}.png"
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 5000, path
    if os.environ.get("COURTSIDE_UPDATE_SCREENSHOTS") == "1":
        target = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target / path.name)
    return path


def add_member(server, game_id, role, label, token=None):
    status, answer = server.request("POST", f"/api/games/{game_id}/crew", {"role": role, "label": label}, token=token or server.admin_token)
    assert status == 201, f"add {role}: {status} {answer}"
    return answer


def open_member(driver, base, game_id, token):
    """Opens a member's link (the token in the fragment) and waits for the panel."""
    driver.get(f"{base}/score.html?id={game_id}#token={token}")
    wait_live(driver)
    wait_until(lambda: driver.find_element(By.ID, "role-badge").is_displayed(), 5, what="the role badge")


def visible(driver, css):
    return [e for e in driver.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]


def crew_rows(driver):
    return {row.get_attribute("data-member"): row.get_attribute("data-connected") == "true" for row in driver.find_elements(By.CSS_SELECTOR, "#crew-list [data-member]")}


@pytest.fixture
def second_device():
    driver = make_driver()
    yield driver
    driver.quit()


def test_the_qr_encoder_makes_codes_a_decoder_reads(server, browsers):
    need_decoder()
    driver = browsers["spectator"]
    driver.get(server.base + "/")
    texts = ["https://x", "Courtside €5 ✓"] + ["".join(chr(33 + (i * 7) % 90) for i in range(n)) for n in (14, 15, 30, 62, 63, 100, 152, 180, 213, 230, 271)]
    results = driver.execute_async_script(
        """
        const [texts, done] = [arguments[0], arguments[arguments.length - 1]];
        import("/js/qr.js").then(({ encodeQR, QRTooLong }) => {
          const out = [];
          for (const ecl of ["L", "M"]) for (const text of texts) {
            try {
              const c = encodeQR(text, { ecl });
              out.push({ text, ecl, version: c.version, size: c.size, modules: c.modules.map((row) => row.map(Number)) });
            } catch (e) {
              out.push({ text, ecl, tooLong: e instanceof QRTooLong });
            }
          }
          done(out);
        }, (e) => done(String(e)));
        """,
        texts,
    )
    assert isinstance(results, list), results
    for result in results:
        length = len(result["text"].encode())
        fitting = [v for v, capacity in enumerate(BYTE_CAPACITY[result["ecl"]], start=1) if capacity >= length]
        if not fitting:
            assert result.get("tooLong"), f"{length} bytes at {result['ecl']} should be refused as too long"
            continue
        assert result["version"] == fitting[0], (length, result["ecl"], result["version"])
        assert result["size"] == 17 + 4 * result["version"]
        read = decode(result["modules"])
        assert read.text == result["text"]
        assert read.ec_level == result["ecl"]
    assert any(r.get("tooLong") for r in results) and sum(1 for r in results if "version" in r) >= 20


def test_the_lobby_adds_a_crew_member_with_a_qr_code_of_the_link(server, browsers, second_device, screenshot_dir):
    need_decoder()
    game = server.create_game(home="Owls", away="Foxes")
    gid = game["id"]
    driver = browsers["spectator"]
    set_viewport(driver, 390, 844, mobile=True)
    try:
        driver.get(server.base + "/")
        wait_live(driver)
        box = wait_until(lambda: driver.find_element(By.CSS_SELECTOR, f'details[data-crew="{gid}"]'), 5, what="the crew box on the card")
        press(driver, box.find_element(By.TAG_NAME, "summary"))
        admin = box.find_element(By.CSS_SELECTOR, "[data-crew-admin]")
        admin.clear()
        admin.send_keys(server.admin_token)
        # A label is needed: said in words, nothing sent.
        press(driver, box.find_element(By.CSS_SELECTOR, "[data-crew-add]"))
        wait_until(lambda: box.find_element(By.CSS_SELECTOR, "[data-crew-error]").text, 2, what="the label error")
        box.find_element(By.CSS_SELECTOR, "[data-crew-role] option[value='clock']").click()
        box.find_element(By.CSS_SELECTOR, "[data-crew-label]").send_keys("Table laptop")
        press(driver, box.find_element(By.CSS_SELECTOR, "[data-crew-add]"))
        # Found afresh: the lobby may rebuild the card meanwhile (the box moves to the new card).
        svg = wait_until(lambda: driver.find_element(By.CSS_SELECTOR, f'[data-crew-link="{gid}"] svg.qr'), 5, what="the QR code")
        link = driver.find_element(By.CSS_SELECTOR, f'[data-crew-link="{gid}"] [data-member-link]').text
        assert link.startswith(f"{server.base}/score.html?id={gid}#token="), link
        assert "token" not in link.split("#")[0], "the token never goes in the query"
        assert svg.get_attribute("aria-label") == "QR code of the link for Table laptop (Clock)"
        assert decode(svg_modules(driver, svg)).text == link
        # Against the phone's width, not innerWidth: a mobile layout viewport grows to fit what overflows it.
        assert driver.execute_script("return document.documentElement.scrollWidth <= 390"), "the crew box scrolls sideways on a phone"
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", svg)
        take(driver, screenshot_dir, "lobby-crew", 390, 844)
        wait_until(lambda: driver.find_element(By.CSS_SELECTOR, f'[data-crew-list="{gid}"] [data-member][data-role="clock"]'), 5, what="the member in the box's list")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    # The link works on another device: it opens the panel with the clock's role, and the token leaves the address.
    second_device.get(link)
    wait_live(second_device)
    wait_until(lambda: text(second_device, "#role-badge") == "Clock", 5, what="the clock's role badge")
    assert "#token" not in second_device.current_url and "token=" not in second_device.current_url
    # The server saw no token in any request line: the fragment is never sent.
    with open(server.log_path, "rb") as log:
        assert link.split("#token=")[1].encode() not in log.read()
    wait_until(lambda: crew_rows(second_device).get("m1") is True, 5, what="this device connected in the crew list")

    # Revoked from the lobby: the member's panel loses its socket.
    revoke = driver.find_element(By.CSS_SELECTOR, f'[data-crew-list="{gid}"] [data-revoke="m1"]')
    press(driver, revoke)
    wait_until(lambda: not driver.find_elements(By.CSS_SELECTOR, f'[data-crew-list="{gid}"] [data-member="m1"]'), 5, what="the member gone from the box")
    wait_until(lambda: second_device.find_element(By.ID, "token-form").is_displayed(), 10, what="the revoked panel asking for a token")
    assert "revoked" in text(second_device, "#token-error")
    assert browsers.console_errors() == {} and console_errors(second_device) == []


# What each role's panel offers: (selector, shown?) pairs on a 5x5 game's panel.
ROLE_CONTROLS = {
    "scorer": {'button.move[data-move="twoPoints"]': True, 'button.move[data-move="rebound"]': True, "#clock-button": True, "#shot-reset": True, "#review-button": True, "#undo-button": True, "#final-button": True},
    "clock": {'button.move[data-move="twoPoints"]': False, 'button.move[data-move="rebound"]': False, "#clock-button": True, "#shot-reset": True, "#timeout-home": True, "#set-clock": True, "#review-button": False, "#undo-button": False, "#final-button": False, "#players": False},
    "shotClock": {'button.move[data-move="twoPoints"]': False, "#clock-button": False, "#shot-reset": True, "#timeout-home": False, "#review-button": False, "#undo-button": False},
    "stats": {'button.move[data-move="twoPoints"]': False, 'button.move[data-move="foul"]': False, 'button.move[data-move="twoPointsMissed"]': True, 'button.move[data-move="rebound"]': True, '[data-team-move="turnover"]': True, '[data-team-move="coachTechnical"]': False, "#clock-button": False, "#shot-reset": False, "#review-button": False},
    "judge": {'button.move[data-move="rebound"]': False, "#clock-button": False, "#shot-reset": False, "#review-button": True, "#undo-button": False},
}


def test_the_panel_shows_its_role_and_hides_what_the_role_cannot_do(server, browsers):
    game = server.create_game(home="Rams", home_players=("A1", "A2", "A3", "A4", "A5"), away="Elks", away_players=("B1", "B2", "B3", "B4", "B5"), preset="fiba5x5")
    gid = game["id"]
    driver = browsers["scorer"]
    words = {"scorer": "Scorer", "clock": "Clock", "shotClock": "Shot clock", "stats": "Statistics", "judge": "Judge"}
    for role, controls in ROLE_CONTROLS.items():
        member = add_member(server, gid, role, f"{role} device")
        open_member(driver, server.base, gid, member["token"])
        assert text(driver, "#role-badge") == words[role]
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "button.move"), 5, what="the panel built")
        for css, shown in controls.items():
            elements = driver.find_elements(By.CSS_SELECTOR, css)
            assert elements, f"{role}: {css} is not on the panel"
            assert any(e.is_displayed() for e in elements) == shown, f"{role}: {css} should be {'shown' if shown else 'hidden'}"
        # A shortcut for a hidden control is refused in words on the panel, never sent.
        if role in ("clock", "judge"):
            driver.find_element(By.TAG_NAME, "body").send_keys("2")
            wait_until(lambda: driver.find_element(By.ID, "error").is_displayed(), 2, what="the refusal in words")
            assert "may not send move" in text(driver, "#error-text")
            assert driver.find_element(By.ID, "outbox").get_attribute("data-pending") == "0"
    # The statistician's rebound counts; the judge's review shows on the display as "Under review".
    stats = add_member(server, gid, "stats", "stats 2")
    open_member(driver, server.base, gid, stats["token"])
    click_move(driver, "home-0", "rebound")
    wait_until(lambda: server.snapshot(gid)["state"]["homePlayers"][0]["stats"]["rebounds"] == 1, 5, what="the rebound applied")
    judge = add_member(server, gid, "judge", "judge 2")
    open_member(driver, server.base, gid, judge["token"])
    display = browsers["display"]
    open_display(display, server.base, gid)
    press(driver, driver.find_element(By.ID, "review-button"))
    wait_until(lambda: text(display, "#status") == "UNDER REVIEW" or text(display, "#status").lower() == "under review", 5, what="Under review on the display")
    wait_until(lambda: driver.find_element(By.ID, "review-banner").is_displayed(), 5, what="the panel's review banner")
    press(driver, driver.find_element(By.ID, "review-button"))
    wait_until(lambda: text(display, "#status") == "", 5, what="the review ended on the display")
    assert browsers.console_errors() == {}


def test_the_crew_list_shows_a_second_device_joining_live(server, browsers, second_device, screenshot_dir):
    game = server.create_game(home="Pumas", away="Lynx")
    gid = game["id"]
    scorer = add_member(server, gid, "scorer", "Head scorer")
    clock = add_member(server, gid, "clock", "Clock laptop")
    driver = browsers["scorer"]
    open_member(driver, server.base, gid, scorer["token"])
    wait_until(lambda: crew_rows(driver) == {scorer["member"]: True, clock["member"]: False}, 5, what="the crew list: the scorer connected, the clock not")
    assert "(this device)" in driver.find_element(By.CSS_SELECTOR, f'#crew-list [data-member="{scorer["member"]}"]').text
    open_member(second_device, server.base, gid, clock["token"])
    wait_until(lambda: crew_rows(driver).get(clock["member"]) is True, 3, what="the clock joining on the scorer's crew list")
    assert "Clock laptop" in text(driver, "#crew-list")
    set_viewport(second_device, 390, 844, mobile=True)
    second_device.execute_script("document.getElementById('crew').scrollIntoView({block: 'center'})")
    take(second_device, screenshot_dir, "scorer-clock-role", 390, 844)
    # And leaving.
    second_device.get("about:blank")
    wait_until(lambda: crew_rows(driver).get(clock["member"]) is False, 5, what="the clock leaving on the scorer's crew list")
    assert browsers.console_errors() == {} and console_errors(second_device) == []


def test_pending_plays_count_down_and_a_conflict_resolves_in_one_tap(server, browsers):
    """The panel's rendering of two scorers' states, fed a document directly: a pending play (`"pending": true`) shows
    the seconds left to confirm it and adds nothing to the play list's running score; a conflict comes first on the
    panel with both versions, and one tap sends the resolution (`{"type":"resolve","play":P,"keep":…}`)."""
    game = server.create_game(home="Bears", away="Wolves")
    gid = game["id"]
    driver = browsers["scorer"]
    open_scorer(driver, server.base, gid, game["scorerToken"])
    driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        import("/js/crew-panel.js").then(({ crewRole }) => {
          window.sent = [];
          crewRole.send = (command) => window.sent.push(command);
          const now = window.courtside.clock.now();
          const base = window.courtside.state;
          const play = (n, player, move, extra) => ({ play: n, team: "home", player, move, elapsedMs: 0, period: null, at: now, ...extra });
          const state = {
            ...base,
            plays: [play(1, "home-0", "twoPoints", {}), play(2, "home-1", "twoPoints", { pending: true, confirmBy: now + 6000 })],
            conflicts: [{ play: 3, first: { team: "home", player: "home-0", move: "onePoint" }, second: { team: "home", player: "home-2", move: "onePoint" } }],
          };
          document.getElementById("plays").dataset.key = "";
          import("/js/fiba.js").then((fiba) => {
            fiba.renderPlays(document.getElementById("plays"), state, null);
            crewRole.render(state);
            done();
          });
        });
        """
    )
    pending = driver.find_element(By.CSS_SELECTOR, '#plays li.play.pending[data-play="2"]')
    countdown = pending.find_element(By.CSS_SELECTOR, "[data-confirm-by]").text
    assert re.fullmatch(r"confirm within [56] s", countdown), countdown
    assert "2–0" not in pending.text and "4–0" not in pending.text, "a pending play adds nothing to the running score"
    assert "2–0" in driver.find_element(By.CSS_SELECTOR, '#plays li[data-play="1"]').text
    conflicts = driver.find_element(By.ID, "conflicts")
    assert conflicts.is_displayed()
    # First on the panel: above the clock controls and the players.
    assert driver.execute_script("return arguments[0].compareDocumentPosition(document.getElementById('clock-button')) & Node.DOCUMENT_POSITION_FOLLOWING", conflicts)
    assert text(driver, '#conflicts [data-conflict="3"] .conflict-what') == "Play 3: first scorer Ann 1PT made; second scorer Cy 1PT made"
    press(driver, driver.find_element(By.CSS_SELECTOR, '#conflicts [data-resolve="second"][data-play="3"]'))
    assert driver.execute_script("return window.sent") == [{"type": "resolve", "play": 3, "keep": "second"}]


def test_two_scorer_panels_see_a_conflict_and_one_resolves_it(server, browsers, second_device):
    """Two scorers who confirm each other, end to end: the scorer's panel and a second scorer's (a crew member with
    the role `scorer`) on a game with `"confirmation":"dual"`. Their entries disagree (Bears' two points by Ann for one,
    by Bo for the other), so both panels show the conflict with both versions; one tap on the second panel keeps the
    second scorer's version, the conflict leaves both panels and the two points count once, for Bo."""
    game = server.create_game(home="Bears", away="Wolves", rules={"preset": "pickup", "confirmation": "dual", "confirmWindowMs": 60000})
    gid = game["id"]
    member = add_member(server, gid, "scorer", "Check sheet")
    first = browsers["scorer"]
    open_scorer(first, server.base, gid, game["scorerToken"])
    open_member(second_device, server.base, gid, member["token"])
    # Each scorer enters the basket from its own device (the second over HTTP with its own token).
    scorer_command(server, game, {"type": "move", "id": "dual-1", "player": "home-0", "move": "twoPoints"})
    status, answer = server.request("POST", f"/api/games/{gid}/commands", {"type": "move", "id": "dual-2", "player": "home-1", "move": "twoPoints"}, token=member["token"])
    assert status == 200 and answer["type"] == "ack", f"second scorer's entry: {status} {answer}"
    for driver in (first, second_device):
        wait_until(lambda: driver.find_element(By.ID, "conflicts").is_displayed(), 5, what="the conflict on a panel")
        assert text(driver, '#conflicts [data-conflict="1"] .conflict-what') == "Play 1: first scorer Ann 2PT made; second scorer Bo 2PT made"
    assert server.snapshot(gid)["state"]["homeScore"] == 0, "a conflict counts nothing"
    press(second_device, second_device.find_element(By.CSS_SELECTOR, '#conflicts [data-resolve="second"][data-play="1"]'))
    for driver in (first, second_device):
        wait_until(lambda: not driver.find_element(By.ID, "conflicts").is_displayed(), 5, what="the conflict leaving a panel")
    state = server.snapshot(gid)["state"]
    assert state["homeScore"] == 2 and state["conflicts"] == []
    assert [(p["player"], p.get("pending")) for p in state["plays"]] == [("home-1", None)]
    status, report = server.request("GET", f"/api/games/{gid}/plays")
    assert status == 200 and report["plays"][0]["resolvedBy"] == member["member"] and report["plays"][0]["kept"] == "second"
    assert browsers.console_errors() == {} and console_errors(second_device) == []
