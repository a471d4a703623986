"""The pages (README, "Pages"), (a)–(e), in Chromium against a real `courtside serve`."""

import os
import shutil
import time
from pathlib import Path

from selenium.webdriver.common.by import By

from conftest import ADMIN_TOKEN
from harness import CourtsideServer, CuttableProxy, set_viewport, wait_until
from pages import (
    MOVE_COUNT, click_clock, click_move, connection_state, open_display, open_scorer, open_spectator, page_seq, press,
    page_state, pending_count, player, stored_outbox, text, wait_live,
)

# Console messages Chromium itself writes while a server is deliberately unreachable (tests b and c).
OUTAGE_NOISE = ("WebSocket connection to", "ERR_CONNECTION_REFUSED", "ERR_CONNECTION_RESET", "ERR_EMPTY_RESPONSE")

ROOT = Path(__file__).resolve().parents[2]


def assert_no_console_errors(browsers, allowed=()):
    errors = browsers.console_errors(allowed)
    assert errors == {}, f"console errors: {errors}"


def assert_page_matches_server(driver, server, game_id):
    snapshot = server.snapshot(game_id)
    wait_until(lambda: page_seq(driver) == snapshot["seq"], 15, what=f"seq {snapshot['seq']} on {driver.current_url}")
    assert page_state(driver) == snapshot["state"]
    return snapshot


def test_lobby_lists_games_and_shows_field_errors(server, browsers):
    driver = browsers["spectator"]
    set_viewport(driver, 1280, 900)
    driver.get(server.base + "/?create=1")
    wait_live(driver)
    game = server.create_game(home="Bulls", away="Knicks")

    def card():
        # Found afresh and read in one pass: the lobby re-renders a game's card when its entry changes (its first
        # state can arrive just after it is listed), so a card found earlier may be stale by the next read; a stale
        # or missing card makes wait_until try again.
        element = driver.find_element(By.CSS_SELECTOR, f'li[data-game="{game["id"]}"]')
        return (
            element.text,
            element.find_element(By.LINK_TEXT, "Watch").get_attribute("href"),
            element.find_element(By.LINK_TEXT, "Display").get_attribute("href"),
        )

    card_text, watch, display = wait_until(card, 5, what="the new game's card in the lobby")
    assert "Bulls" in card_text and "Knicks" in card_text
    assert watch.endswith(f"game.html?id={game['id']}")
    assert display.endswith(f"display.html?id={game['id']}")

    # The creator view model's errors, per field, from the 400 answer.
    driver.find_element(By.ID, "admin-token").send_keys(server.admin_token)
    for field, value in (("homeTeam", "Lakers"), ("homePlayers0", "Ann"), ("homePlayers2", "Cy"), ("awayPlayers0", "Di"), ("awayPlayers1", "Ed"), ("awayPlayers2", "Flo")):
        driver.find_element(By.ID, field).send_keys(value)
    driver.find_element(By.ID, "create-button").click()
    wait_until(lambda: text(driver, '[data-error-for="awayTeam"]'), 5, what="the awayTeam error")
    assert text(driver, '[data-error-for="homePlayers[1]"]') != ""
    assert text(driver, '[data-error-for="homeTeam"]') == ""
    assert driver.find_element(By.ID, "awayTeam").get_attribute("aria-invalid") == "true"

    # Fixed, it creates the game and the lobby lists it.
    driver.find_element(By.ID, "awayTeam").send_keys("Celtics")
    driver.find_element(By.ID, "homePlayers1").send_keys("Bo")
    driver.find_element(By.ID, "create-button").click()
    wait_until(lambda: driver.find_element(By.ID, "created").is_displayed(), 5, what="the created box")
    assert len(text(driver, "#created-token")) >= 16
    wait_until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "li.game-card")) >= 2, 5, what="two games listed")
    # Chromium's network layer logs the deliberate 400 itself; the page logs nothing.
    assert_no_console_errors(browsers, allowed=("/api/games - Failed to load resource: the server responded with a status of 400",))


def test_a_refused_scorer_token_is_asked_for_again(server, browsers):
    game = server.create_game(home="Jets", away="Kings")
    scorer = browsers["scorer"]
    scorer.get(f"{server.base}/score.html?id={game['id']}")
    scorer.find_element(By.ID, "token").send_keys("not-the-token-0000000000")
    scorer.find_element(By.CSS_SELECTOR, "#token-form button[type=submit]").click()
    wait_until(lambda: scorer.find_element(By.ID, "token-form").is_displayed() and text(scorer, "#token-error"), 10, what="the token form again, with a reason")
    assert "refused" in text(scorer, "#token-error")
    assert scorer.execute_script("return sessionStorage.getItem(arguments[0])", f"courtside.token.{game['id']}") is None
    # The right token, entered once, is kept for the tab: a reload goes straight to the panel.
    open_scorer(scorer, server.base, game["id"], game["scorerToken"])
    scorer.refresh()
    wait_live(scorer)
    assert not scorer.find_element(By.ID, "token-form").is_displayed()
    assert_no_console_errors(browsers)


def test_a_scorer_clicks_reach_spectator_and_display_within_one_second(server, browsers):
    game = server.create_game()
    gid = game["id"]
    scorer, spectator, display = browsers["scorer"], browsers["spectator"], browsers["display"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    open_spectator(spectator, server.base, gid)
    open_display(display, server.base, gid)

    expected_home, expected_away = 0, 0
    for player_id, move, points in (("home-1", "twoPoints", 2), ("away-0", "onePoint", 1), ("home-0", "onePoint", 1), ("away-2", "twoPoints", 2)):
        if player_id.startswith("home"):
            expected_home += points
        else:
            expected_away += points
        started = time.monotonic()
        click_move(scorer, player_id, move)

        def arrived():
            return (text(spectator, "#home-score"), text(spectator, "#away-score"), text(display, "#home-score"), text(display, "#away-score")) == (str(expected_home), str(expected_away)) * 2

        wait_until(arrived, 1.0, interval=0.01, what=f"{player_id} {move} on the spectator page and the display")
        elapsed = time.monotonic() - started
        assert elapsed < 1.0, elapsed

    # Counts that are not points: the spectator's row shows them too.
    started = time.monotonic()
    click_move(scorer, "home-2", "rebound")
    wait_until(lambda: text(spectator, 'tr[data-player="home-2"] td:nth-child(5)') == "1", 1.0, interval=0.01, what="a rebound on the spectator page")
    assert time.monotonic() - started < 1.0
    wait_until(lambda: pending_count(scorer) == 0, 5, what="every command acked")
    for driver in (scorer, spectator, display):
        assert_page_matches_server(driver, server, gid)

    # The clock: started on the scorer panel, running on the others within a tenth of the server's reading.
    clicked = time.monotonic()
    click_clock(scorer)
    wait_until(lambda: (page_state(spectator) or {}).get("clock", {}).get("running"), 2, what="the clock running")

    def shown_seconds():
        minutes, seconds = spectator.execute_script("return document.querySelector('[data-clock]').textContent").split(":")
        return int(minutes) * 60 + float(seconds)

    # The page counts the running clock itself: past a second (a bounded wait, not a fixed one), no faster than time.
    wait_until(lambda: shown_seconds() >= 1.0, 4, what="the spectator's clock counting past a second")
    assert time.monotonic() - clicked >= 0.9, "the page's clock ran faster than time"
    assert shown_seconds() <= 3.0
    # While it runs, each page shows the server's reading (elapsedMs + now - asOf; the browser and the server share
    # this machine's clock) to the tenth: truncated to tenths. Read in the frame that painted it, so a busy machine's
    # slow frames do not count against the page.
    for driver in (spectator,):
        for _ in range(5):
            shown_ms, expected_ms = driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                requestAnimationFrame(() => {
                  const c = window.courtside.state.clock;
                  const [m, s] = document.querySelector('[data-clock]').textContent.split(':');
                  done([Math.round((Number(m) * 60 + Number(s)) * 1000), c.elapsedMs + Date.now() - c.asOf]);
                });""")
            assert expected_ms - 100 - 20 <= shown_ms <= expected_ms + 15, (shown_ms, expected_ms)
            time.sleep(0.13)
    # The display counts a timed period down, as a scoreboard does: whole seconds (rounded up) above a minute.
    for _ in range(3):
        shown_left, expected_left_ms = display.execute_async_script("""
            const done = arguments[arguments.length - 1];
            requestAnimationFrame(() => {
              const c = window.courtside.state.clock;
              done([document.querySelector('[data-countdown]').textContent, c.periodLengthMs - (c.elapsedMs + Date.now() - c.asOf)]);
            });""")
        minutes, seconds = shown_left.split(":")
        assert abs((int(minutes) * 60 + int(seconds)) * 1000 - expected_left_ms) <= 1000 + 20, (shown_left, expected_left_ms)
        assert display.execute_script("return document.querySelector('[data-clock]')") is None, "a timed display shows no elapsed clock"
        time.sleep(0.13)
    click_clock(scorer)
    wait_until(lambda: (page_state(display) or {}).get("clock", {}).get("running") is False, 2, what="the clock paused")
    snapshot = assert_page_matches_server(display, server, gid)
    elapsed_ms = snapshot["state"]["clock"]["elapsedMs"]
    left_s = -(-(snapshot["state"]["clock"]["periodLengthMs"] - elapsed_ms) // 1000)
    wait_until(lambda: display.execute_script("return document.querySelector('[data-countdown]').textContent") == f"{left_s // 60:02d}:{left_s % 60:02d}", 1, what="the paused countdown")
    for driver in (spectator, scorer):
        shown = wait_until(lambda: driver.execute_script("return document.querySelector('[data-clock]').textContent"), 1)
        minutes, seconds = shown.split(":")
        assert abs((int(minutes) * 60 + float(seconds)) * 1000 - elapsed_ms) <= 100, (shown, elapsed_ms)
    assert_no_console_errors(browsers)


def test_b_moves_made_while_the_server_is_down_arrive_exactly_once(server, browsers, screenshot_dir):
    game = server.create_game(home="Hawks", away="Comets")
    gid = game["id"]
    scorer, spectator = browsers["scorer"], browsers["spectator"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    open_spectator(spectator, server.base, gid)
    click_move(scorer, "home-0", "onePoint")
    wait_until(lambda: pending_count(scorer) == 0, 5, what="the first move acked")
    before = server.snapshot(gid)

    server.stop()
    wait_until(lambda: connection_state(scorer) != "live", 10, what="the scorer noticing the server is gone")
    moves = (("home-2", "onePoint"), ("away-1", "twoPoints"), ("away-2", "rebound"))
    for player_id, move in moves:
        click_move(scorer, player_id, move)
    assert pending_count(scorer) == 3
    outbox = stored_outbox(scorer, gid)
    assert [(c["command"]["player"], c["command"]["move"]) for c in outbox] == list(moves), "the outbox is kept in localStorage"
    assert text(scorer, "#home-score") == "1", "the panel shows the server's score, not a guess"
    take(scorer, screenshot_dir, "scorer-offline", 390, 844)
    scorer.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    server.start()
    wait_until(lambda: pending_count(scorer) == 0, 20, what="the outbox flushed after the restart")
    after = server.snapshot(gid)
    assert after["seq"] == before["seq"] + 3
    for player_id, move in moves:
        field = MOVE_COUNT[move]
        assert int(player(after["state"], player_id)[field]) == int(player(before["state"], player_id)[field]) + 1, (player_id, move)
    assert (after["state"]["homeScore"], after["state"]["awayScore"]) == (2, 2)

    # Nothing is applied twice: put the three acked commands back in the outbox (as if their acks had been lost)
    # and reload; the page re-sends the same ids and the server answers them without applying them again.
    scorer.execute_script("localStorage.setItem(arguments[0], JSON.stringify(arguments[1]))", f"courtside.outbox.{gid}", outbox)
    scorer.refresh()
    wait_live(scorer)
    wait_until(lambda: pending_count(scorer) == 0, 10, what="the re-sent commands answered")
    assert server.snapshot(gid)["seq"] == after["seq"]
    for driver in (scorer, spectator):
        assert_page_matches_server(driver, server, gid)
    assert (text(spectator, "#home-score"), text(spectator, "#away-score")) == ("2", "2")
    assert_no_console_errors(browsers, allowed=OUTAGE_NOISE)


def test_b_a_long_offline_queue_survives_the_rate_limit(tmp_path, browsers):
    """Twelve moves made offline against a server that allows a burst of 3 and 4 a second: the page paces its
    outbox and re-sends what was refused as rate_limited, so all twelve arrive, once each."""
    strict = CourtsideServer(tmp_path / "data", ADMIN_TOKEN, extra_args=["--command-burst", "3", "--commands-per-second", "4"])
    strict.start()
    try:
        game = strict.create_game(home="Foxes", away="Herons")
        gid = game["id"]
        scorer = browsers["scorer"]
        open_scorer(scorer, strict.base, gid, game["scorerToken"])
        strict.stop()
        wait_until(lambda: connection_state(scorer) != "live", 10, what="the scorer noticing the server is gone")
        moves = [(f"{side}-{i}", move) for side in ("home", "away") for i in range(3) for move in ("onePoint", "rebound")]
        for player_id, move in moves:
            click_move(scorer, player_id, move)
        assert pending_count(scorer) == 12
        strict.start()
        wait_until(lambda: pending_count(scorer) == 0, 25, interval=0.2, what="the twelve moves answered")
        state = strict.snapshot(gid)
        assert state["seq"] == 12
        assert (state["state"]["homeScore"], state["state"]["awayScore"]) == (3, 3)
        for player_id, _ in moves:
            assert player(state["state"], player_id)["onePointMoveCount"] == "1"
            assert player(state["state"], player_id)["reboundMoveCount"] == "1"
        assert "slow down" in scorer.find_element(By.ID, "error-text").get_attribute("textContent"), "the limit was reached"
        scorer.get("about:blank")
    finally:
        strict.stop()
    assert_no_console_errors(browsers, allowed=OUTAGE_NOISE)


def test_c_a_spectator_disconnected_during_five_moves_catches_up(server, browsers):
    game = server.create_game(home="Sharks", away="Owls")
    gid = game["id"]
    scorer, spectator = browsers["scorer"], browsers["spectator"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    proxy = CuttableProxy(server.port)
    try:
        open_spectator(spectator, f"http://127.0.0.1:{proxy.port}", gid)
        click_move(scorer, "away-0", "twoPoints")
        wait_until(lambda: text(spectator, "#away-score") == "2", 2, what="the first move")

        proxy.cut()
        wait_until(lambda: connection_state(spectator) != "live", 10, what="the spectator noticing the drop")
        assert "Reconnecting" in text(spectator, "#connection") or "Connecting" in text(spectator, "#connection")
        for player_id, move in (("home-0", "twoPoints"), ("home-1", "onePoint"), ("away-1", "foul"), ("home-2", "assist"), ("away-2", "twoPoints")):
            click_move(scorer, player_id, move)
        wait_until(lambda: pending_count(scorer) == 0, 5, what="the five moves acked")
        assert text(spectator, "#home-score") == "0", "the spectator was really cut off"

        proxy.restore()
        wait_live(spectator, 15)
        snapshot = assert_page_matches_server(spectator, server, gid)
        assert (snapshot["state"]["homeScore"], snapshot["state"]["awayScore"]) == (3, 4)
        assert (text(spectator, "#home-score"), text(spectator, "#away-score")) == ("3", "4")
        assert text(spectator, 'tr[data-player="away-1"] td:nth-child(6)') == "1"  # the foul
        assert any(f"/ws/games/{gid}?since=" in line for line in proxy.request_lines), proxy.request_lines
    finally:
        spectator.get("about:blank")  # stop it reconnecting to the proxy's port once the proxy is gone
        proxy.close()
    assert_no_console_errors(browsers, allowed=OUTAGE_NOISE)


def test_a_sequence_gap_or_a_bad_patch_is_resynced(server, browsers):
    game = server.create_game(home="Bears", away="Wolves")
    gid = game["id"]
    scorer, spectator = browsers["scorer"], browsers["spectator"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    open_spectator(spectator, server.base, gid)
    click_move(scorer, "home-0", "twoPoints")
    wait_until(lambda: pending_count(scorer) == 0, 5)
    assert_page_matches_server(spectator, server, gid)
    seq = page_seq(spectator)
    connections = spectator.execute_script("return window.courtside.stream.connections")
    # A patch from the future (seq + 5): the page must not apply it, and must come back in step by itself.
    spectator.execute_script("window.courtside.stream.receive(JSON.stringify({v: 1, type: 'patch', game: arguments[0], seq: arguments[1] + 5, ops: [{op: 'replace', path: '/homeScore', value: 99}]}), performance.now())", gid, seq)
    click_move(scorer, "away-0", "onePoint")
    wait_until(lambda: pending_count(scorer) == 0, 5)
    snapshot = assert_page_matches_server(spectator, server, gid)
    assert text(spectator, "#home-score") == "2" and snapshot["state"]["homeScore"] == 2
    assert spectator.execute_script("return window.courtside.stream.connections") == connections + 1, "resynced by reconnecting"
    # A next patch that does not apply (a failing test op): dropped, and the page resyncs from a snapshot.
    seq = page_seq(spectator)
    spectator.execute_script("window.courtside.stream.receive(JSON.stringify({v: 1, type: 'patch', game: arguments[0], seq: arguments[1] + 1, ops: [{op: 'test', path: '/homeScore', value: 42}, {op: 'replace', path: '/homeScore', value: 99}]}), performance.now())", gid, seq)
    click_move(scorer, "away-1", "onePoint")
    wait_until(lambda: pending_count(scorer) == 0, 5)
    assert_page_matches_server(spectator, server, gid)
    assert (text(spectator, "#home-score"), text(spectator, "#away-score")) == ("2", "2")
    assert spectator.execute_script("return window.courtside.stream.connections") == connections + 2
    assert_no_console_errors(browsers)


def test_a_finished_game_shows_the_winner_and_refusals_in_words(server, browsers):
    game = server.create_game(home="Pumas", away="Lynx", rules={"preset": "custom", "targetScore": 3, "winBy": 1})
    gid = game["id"]
    scorer, spectator, display = browsers["scorer"], browsers["spectator"], browsers["display"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    open_spectator(spectator, server.base, gid)
    open_display(display, server.base, gid)
    click_move(scorer, "home-0", "twoPoints")
    click_move(scorer, "home-1", "twoPoints")
    wait_until(lambda: spectator.find_element(By.ID, "finished").is_displayed(), 2, what="the finished banner")
    assert "Pumas win" in text(spectator, "#finished")
    status_text = lambda: display.find_element(By.ID, "status").get_attribute("textContent")  # noqa: E731 (shown in capitals)
    wait_until(lambda: "Pumas win" in status_text(), 2, what="the display's final line")
    assert display.find_element(By.ID, "board").get_attribute("data-winner") == "home"
    wait_until(lambda: scorer.find_element(By.ID, "finished").is_displayed(), 2)
    # A move after the end: refused, and said in words.
    click_move(scorer, "away-0", "onePoint")
    wait_until(lambda: scorer.find_element(By.ID, "error").is_displayed(), 5, what="the refusal")
    assert "game is over" in text(scorer, "#error-text")
    assert pending_count(scorer) == 0
    # Undo reopens the game everywhere.
    press(scorer, scorer.find_element(By.ID, "undo-button"))
    wait_until(lambda: not spectator.find_element(By.ID, "finished").is_displayed(), 2, what="the game reopened")
    assert_page_matches_server(display, server, gid)
    assert status_text() == "" and text(spectator, "#home-score") == "2"
    assert_no_console_errors(browsers)


def test_d_no_console_errors_on_any_page(server, browsers):
    game = server.create_game(home="Rockets", away="Suns")
    gid = game["id"]
    driver = browsers["display"]
    browsers.console_errors(allowed=OUTAGE_NOISE)  # forget what earlier tests' outages logged
    for path in ("/", f"/game.html?id={gid}", f"/display.html?id={gid}", f"/display.html?id={gid}&theme=light", f"/display.html?id={gid}&theme=transparent&compact=1", "/game.html", "/display.html"):
        driver.get(server.base + path)
        if "id=" in path or path == "/":
            wait_live(driver)
        if path.startswith("/display.html?id="):
            # No cursor and nothing to press; transparent really is.
            assert driver.execute_script("return getComputedStyle(document.body).cursor") == "none"
            assert driver.find_elements(By.CSS_SELECTOR, "button, input, a, select") == []
            if "transparent" in path:
                assert driver.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
        time.sleep(0.3)
        assert browsers.console_errors() == {}, path
    scorer = browsers["scorer"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    click_move(scorer, "home-0", "foul")
    click_move(scorer, "home-0", "twoPoints")
    click_move(scorer, "away-0", "assist")
    press(scorer, scorer.find_element(By.ID, "undo-button"))
    wait_until(lambda: pending_count(scorer) == 0, 5, what="the commands answered")
    # A refused command is explained in words, not logged as an error.
    press(scorer, scorer.find_element(By.ID, "clock-button"))
    wait_until(lambda: pending_count(scorer) == 0, 5)
    press(scorer, scorer.find_element(By.ID, "clock-button"))
    wait_until(lambda: pending_count(scorer) == 0, 5)
    assert browsers.console_errors() == {}


def take(driver, directory, name, width, height):
    set_viewport(driver, width, height, mobile=width < 600)
    time.sleep(0.6)  # let the flash animations finish
    path = directory / f"{name}-{width}x{height}.png"
    driver.save_screenshot(str(path))
    return path


def test_e_screenshots_of_the_four_pages(server, browsers, screenshot_dir):
    games = [server.create_game(home="Harbor Hawks", home_players=("Ana Ruiz", "Ben Okafor", "Chen Wei"), away="City Comets", away_players=("Dani Kim", "Eli Novak", "Femi Ade"))]
    games.append(server.create_game(home="Lakers", away="Celtics"))
    game = games[0]
    gid = game["id"]
    scorer, viewer = browsers["scorer"], browsers["display"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    click_clock(scorer)
    for player_id, move in (("home-0", "twoPoints"), ("away-1", "onePoint"), ("home-1", "assist"), ("home-2", "twoPoints"), ("away-0", "twoPoints"), ("home-0", "onePoint"), ("away-2", "rebound"), ("home-1", "foul"), ("away-1", "twoPoints"), ("home-2", "rebound"), ("home-0", "twoPoints"),
                             ("home-1", "twoPoints"), ("away-2", "twoPoints"), ("home-0", "onePoint"), ("away-0", "twoPoints"), ("home-2", "twoPoints"), ("away-1", "onePoint"),
                             ("home-1", "onePoint"), ("away-2", "foul"), ("home-0", "twoPoints"), ("away-0", "twoPoints"), ("home-2", "assist"), ("away-1", "rebound")):
        click_move(scorer, player_id, move)
    wait_until(lambda: pending_count(scorer) == 0, 10, what="the screenshot game's moves")
    time.sleep(2.5)
    click_clock(scorer)
    wait_until(lambda: pending_count(scorer) == 0, 5)

    written = []
    for width, height in ((390, 844), (1920, 1080)):
        viewer.get(server.base + "/")
        wait_live(viewer)
        written.append(take(viewer, screenshot_dir, "lobby", width, height))
        open_spectator(viewer, server.base, gid)
        written.append(take(viewer, screenshot_dir, "spectator", width, height))
        open_display(viewer, server.base, gid)
        written.append(take(viewer, screenshot_dir, "display", width, height))
        written.append(take(scorer, screenshot_dir, "scorer", width, height))
    # The reader's dark preference.
    viewer.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        open_spectator(viewer, server.base, gid)
        written.append(take(viewer, screenshot_dir, "spectator-dark", 390, 844))
    finally:
        viewer.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    open_display(viewer, server.base, gid, "&theme=transparent&compact=1")
    written.append(take(viewer, screenshot_dir, "display-compact-transparent", 1920, 1080))
    open_display(viewer, server.base, gid, "&theme=light")
    written.append(take(viewer, screenshot_dir, "display-light", 1280, 720))
    written.append(screenshot_dir / "scorer-offline-390x844.png")  # taken by test (b)
    for path in written:
        assert path.stat().st_size > 5000, path
    # Readable at 360 px: no page scrolls sideways.
    for driver, path in ((viewer, "/"), (viewer, f"/game.html?id={gid}"), (viewer, f"/display.html?id={gid}"), (scorer, f"/score.html?id={gid}")):
        set_viewport(driver, 360, 740, mobile=True)
        driver.get(server.base + path)
        wait_live(driver)
        # Against 360, not innerWidth: a mobile layout viewport grows to fit what overflows it.
        assert driver.execute_script("return document.documentElement.scrollWidth <= 360"), f"{path} scrolls sideways at 360 px"
    # Nothing may scroll on the display, whatever the shape.
    for width, height in ((390, 844), (1920, 1080), (3440, 1440), (1024, 1024)):
        set_viewport(viewer, width, height)
        assert viewer.execute_script("return document.documentElement.scrollHeight <= innerHeight && document.documentElement.scrollWidth <= innerWidth"), (width, height)
    assert_no_console_errors(browsers)
    if os.environ.get("COURTSIDE_UPDATE_SCREENSHOTS") == "1":
        target = ROOT / "docs" / "screenshots"
        target.mkdir(parents=True, exist_ok=True)
        for path in written:
            shutil.copy(path, target / path.name)
