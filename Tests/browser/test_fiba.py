"""A real game in Chromium: the controls of a real game on the scorer panel, what the spectator page and the display
show of them, the keyboard shortcuts, and a correction three plays back reaching the other pages within a second."""

import os
import shutil
import time
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from harness import wait_until
from pages import click_move, open_display, open_scorer, press, open_spectator, page_state, pending_count, text
from test_pages import assert_no_console_errors, assert_page_matches_server, take


def click(driver, element_id):
    press(driver, driver.find_element(By.ID, element_id))


def shown(driver, css):
    """The text of the first visible element matching `css`, or None when it is hidden."""
    return driver.execute_script(
        "const n = document.querySelector(arguments[0]); return n && !n.closest('[hidden]') ? n.textContent : null", css
    )


def within_a_second(condition, what):
    started = time.monotonic()
    wait_until(condition, 1.0, interval=0.01, what=what)
    return time.monotonic() - started


def test_f_fiba_controls_reach_spectator_and_display(server, browsers):
    game = server.create_game(home="Hawks", away="Owls")
    gid = game["id"]
    scorer, spectator, display = browsers["scorer"], browsers["spectator"], browsers["display"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    open_spectator(spectator, server.base, gid)
    open_display(display, server.base, gid)
    for driver in (spectator, display):
        assert shown(driver, "[data-period]") == "Regulation"
        assert shown(driver, "[data-shot-clock]") == "12"
        assert shown(driver, '[data-timeouts="home"]') == "1"

    click(scorer, "possession-away")
    within_a_second(
        lambda: all(d.find_element(By.CSS_SELECTOR, '[data-possession="away"]').get_attribute("class").endswith("has-ball") for d in (spectator, display)),
        "the possession on the spectator page and the display",
    )
    click(scorer, "timeout-home")
    within_a_second(lambda: shown(spectator, '[data-timeouts="home"]') == "0" and shown(display, '[data-timeouts="home"]') == "0", "the timeout")
    wait_until(lambda: scorer.find_element(By.ID, "timeout-home").get_attribute("disabled") is not None, 2, what="the used-up timeout button disabled")

    # The shot clock runs with the game clock, and the pages count it down themselves.
    click(scorer, "clock-button")
    wait_until(lambda: (page_state(spectator) or {}).get("shotClock", {}).get("running"), 2, what="the shot clock running")
    # The pages count it down themselves: a bounded wait for it to leave 12, not a fixed one.
    wait_until(
        lambda: all(shown(driver, "[data-shot-clock]") in ("10", "11") for driver in (spectator, display)),
        3,
        what="the shot clock counting down on the spectator and the display",
    )
    click(scorer, "shot-reset")
    within_a_second(lambda: shown(spectator, "[data-shot-clock]") == "12" and shown(display, "[data-shot-clock]") == "12", "the shot clock reset")
    click(scorer, "shot-start")  # pauses it
    within_a_second(lambda: (page_state(display) or {}).get("shotClock", {}).get("running") is False, "the shot clock paused")
    click(scorer, "shot-toggle")
    within_a_second(lambda: shown(spectator, "[data-shot-clock]") == "OFF" and shown(display, "[data-shot-clock]") == "OFF", "the shot clock off")
    click(scorer, "shot-toggle")
    click(scorer, "clock-button")
    wait_until(lambda: (page_state(spectator) or {}).get("clock", {}).get("running") is False, 2, what="the clock paused")

    # "Time left" sets the game clock; every page shows the time left in the period.
    field = scorer.find_element(By.ID, "set-clock")
    press(scorer, field)
    field.send_keys("7:30")
    press(scorer, scorer.find_element(By.CSS_SELECTOR, "#set-clock-form button[type=submit]"))
    within_a_second(
        lambda: shown(spectator, "[data-clock-remaining]") == "07:30.0" and shown(display, "[data-countdown]") == "07:30",
        "the corrected clock on the spectator page and the display",
    )
    assert page_state(spectator)["clock"]["elapsedMs"] == 150_000

    # Seven team fouls: the penalty shows everywhere.
    for n in range(7):
        click_move(scorer, f"home-{n % 3}", "foul")
    within_a_second(
        lambda: shown(spectator, '[data-penalty="home"]') == "Penalty" and shown(display, '[data-penalty="home"]') == "Penalty" and shown(display, '[data-team-fouls="home"]') == "7",
        "the penalty after the 7th team foul",
    )
    assert shown(spectator, '[data-penalty="away"]') is None
    wait_until(lambda: pending_count(scorer) == 0, 5, what="every command acked")
    for driver in (scorer, spectator, display):
        assert_page_matches_server(driver, server, gid)
    assert_no_console_errors(browsers)


def test_f_an_edit_three_plays_back_reaches_spectator_and_display_within_a_second(server, browsers):
    game = server.create_game(home="Pumas", away="Lynx")
    gid = game["id"]
    scorer, spectator, display = browsers["scorer"], browsers["spectator"], browsers["display"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    open_spectator(spectator, server.base, gid)
    open_display(display, server.base, gid)
    for player_id, move in (("home-0", "twoPoints"), ("away-1", "onePoint"), ("home-2", "rebound"), ("away-0", "assist")):
        click_move(scorer, player_id, move)
    wait_until(lambda: len((page_state(spectator) or {}).get("plays", [])) == 4, 3, what="four plays on the spectator page")
    assert shown(spectator, "#plays li:first-child .play-number") == "#4", "the feed is newest first"
    wait_until(lambda: scorer.find_elements(By.CSS_SELECTOR, '[data-edit-play="1"]'), 3, what="the edit button of play 1")
    press(scorer, scorer.find_element(By.CSS_SELECTOR, '[data-edit-play="1"]'))
    Select(scorer.find_element(By.CSS_SELECTOR, '[data-edit-player="1"]')).select_by_value("away-2")
    Select(scorer.find_element(By.CSS_SELECTOR, '[data-edit-move="1"]')).select_by_value("twoPoints")
    # Timed by the pages themselves (the three windows share this machine's clock), so that Selenium's own polling
    # on a busy machine does not count: the click's instant on the scorer panel, the change's on the others.
    for driver in (spectator, display):
        driver.execute_script("""
            window.editArrivedAt = null;
            const node = document.getElementById('away-score');
            new MutationObserver(() => { if (node.textContent === '3' && window.editArrivedAt === null) window.editArrivedAt = Date.now(); })
                .observe(node, {childList: true, characterData: true, subtree: true});""")
    save = scorer.find_element(By.CSS_SELECTOR, '[data-save-play="1"]')
    scorer.execute_script("arguments[0].scrollIntoView({block: 'center'})", save)
    clicked_at = scorer.execute_script("const t = Date.now(); arguments[0].click(); return t;", save)

    def arrived():
        return (text(spectator, "#home-score"), text(spectator, "#away-score"), text(display, "#home-score"), text(display, "#away-score")) == ("0", "3") * 2 and "edited" in (shown(spectator, '#plays li[data-play="1"]') or "")

    wait_until(arrived, 3.0, interval=0.01, what="the edit of play 1 on the spectator page and the display")
    arrivals = [driver.execute_script("return window.editArrivedAt") for driver in (spectator, display)]
    assert all(arrival is not None and arrival - clicked_at < 1000 for arrival in arrivals), (clicked_at, arrivals)
    press(scorer, scorer.find_element(By.CSS_SELECTOR, '[data-delete-play="2"]'))
    within_a_second(lambda: text(spectator, "#away-score") == "2" and text(display, "#away-score") == "2", "the deletion of play 2")
    assert "deleted" in spectator.find_element(By.CSS_SELECTOR, '#plays li[data-play="2"]').get_attribute("class")
    wait_until(lambda: pending_count(scorer) == 0, 5, what="every command acked")
    for driver in (scorer, spectator, display):
        assert_page_matches_server(driver, server, gid)
    assert_no_console_errors(browsers)


def test_f_keyboard_shortcuts_and_never_while_typing(server, browsers):
    game = server.create_game(home="Foxes", away="Bears")
    gid = game["id"]
    scorer = browsers["scorer"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    body = scorer.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.SPACE)
    wait_until(lambda: (page_state(scorer) or {}).get("clock", {}).get("running") is True, 2, what="Space started the clock")
    body.send_keys("s")
    wait_until(lambda: (page_state(scorer) or {}).get("shotClock", {}).get("running") is False, 2, what="S paused the shot clock")
    body.send_keys("z")
    wait_until(lambda: (page_state(scorer) or {}).get("homeTimeoutsLeft") == 0, 2, what="Z: timeout home")
    body.send_keys("]")
    wait_until(lambda: (page_state(scorer) or {}).get("possession") == "away", 2, what="]: possession away")
    click_move(scorer, "home-1", "twoPoints")
    wait_until(lambda: (page_state(scorer) or {}).get("homeScore") == 2, 2, what="the move")
    # Typing in the clock field does not undo, start or pause anything.
    field = scorer.find_element(By.ID, "set-clock")
    field.send_keys("u zs[")
    # A shortcut queues its command as its key is handled: once nothing is pending the server has answered whatever
    # the typing sent, so its document, unchanged, proves nothing was (a barrier, not a fixed wait).
    wait_until(lambda: pending_count(scorer) == 0, 5, what="nothing pending after typing")
    state = assert_page_matches_server(scorer, server, gid)["state"]
    assert state["homeScore"] == 2 and state["clock"]["running"] is False and state["possession"] == "away", state
    field.clear()
    body.send_keys("u")
    wait_until(lambda: (page_state(scorer) or {}).get("homeScore") == 0, 2, what="U undid the move")
    # Moves by keyboard: J selects the next player (marked), then 2 / F record for that player.
    body.send_keys("j")
    assert "selected" in scorer.find_element(By.CSS_SELECTOR, 'article.player[data-player="home-0"]').get_attribute("class")
    body.send_keys("2")
    wait_until(lambda: (page_state(scorer) or {}).get("homeScore") == 2, 2, what="2: two points for the selected player")
    body.send_keys("j")
    body.send_keys("f")
    wait_until(lambda: (page_state(scorer) or {}).get("homePlayers", [{}, {}])[1].get("foulMoveCount") == "1", 2, what="F: a foul for the next player")
    assert page_state(scorer)["homePlayers"][0]["twoPointMoveCount"] == "1"
    body.send_keys("?")
    assert scorer.find_element(By.ID, "shortcuts").get_attribute("open") is not None
    wait_until(lambda: pending_count(scorer) == 0, 5, what="every command acked")
    assert_page_matches_server(scorer, server, gid)
    assert_no_console_errors(browsers)


def test_f_5x5_substitution_final_and_screenshots(server, browsers, screenshot_dir):
    names = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus")
    game = server.create_game(home="Harbor Hawks", home_players=names, away="City Comets", away_players=tuple(f"{n}2" for n in names), preset="fiba5x5")
    gid = game["id"]
    scorer, spectator, display = browsers["scorer"], browsers["spectator"], browsers["display"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    open_spectator(spectator, server.base, gid)
    open_display(display, server.base, gid)
    assert shown(display, "[data-period]") == "Q1"
    wait_until(lambda: scorer.find_elements(By.CSS_SELECTOR, '[data-sub-out="home"]'), 3, what="the substitution form")
    Select(scorer.find_element(By.CSS_SELECTOR, '[data-sub-out="home"]')).select_by_value("home-4")
    Select(scorer.find_element(By.CSS_SELECTOR, '[data-sub-in="home"]')).select_by_value("home-6")
    press(scorer, scorer.find_element(By.CSS_SELECTOR, '[data-substitute="home"]'))
    within_a_second(lambda: "bench" in spectator.find_element(By.CSS_SELECTOR, 'tr[data-player="home-4"]').get_attribute("class"), "the substitution on the spectator page")
    for player_id, move in (("home-6", "twoPoints"), ("away-1", "twoPoints"), ("home-0", "assist"), ("away-3", "foul"), ("home-2", "freeThrow")):
        click_move(scorer, player_id, move)
    click(scorer, "shot-reset-short")
    within_a_second(lambda: shown(display, "[data-shot-clock]") == "14", "the 14-second reset")
    wait_until(lambda: pending_count(scorer) == 0, 5, what="every command acked")
    written = []
    for width, height in ((390, 844), (1920, 1080)):
        written.append(take(spectator, screenshot_dir, "spectator-5x5", width, height))
        written.append(take(scorer, screenshot_dir, "scorer-5x5", width, height))
        written.append(take(display, screenshot_dir, "display-5x5", width, height))
    open_display(display, server.base, gid, "&theme=transparent&compact=1")
    written.append(take(display, screenshot_dir, "display-5x5-compact-transparent", 1920, 1080))
    assert shown(display, "[data-shot-clock]") == "14", "the lower third keeps the shot clock"
    assert shown(display, "[data-period]") == "Q1", "the lower third keeps the period"
    for path in written:
        assert path.stat().st_size > 5000, path
    if os.environ.get("COURTSIDE_UPDATE_SCREENSHOTS") == "1":
        target = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
        for path in written:
            shutil.copy(path, target / path.name)
    click(scorer, "final-button")
    assert page_state(scorer)["isLocked"] is False, "one press must not lock the game"
    click(scorer, "final-button")
    within_a_second(lambda: (page_state(spectator) or {}).get("isLocked") is True, "the lock on the spectator page")
    wait_until(lambda: shown(scorer, "[data-locked]") is not None, 2, what="the locked notice")
    click_move(scorer, "home-0", "freeThrow")
    wait_until(lambda: "final" in (shown(scorer, "#error-text") or ""), 3, what="the refusal in words")
    for driver in (scorer, spectator, display):
        assert_page_matches_server(driver, server, gid)
    assert_no_console_errors(browsers)


def test_f_the_lobby_creates_a_5x5_game_with_numbered_players(server, browsers):
    driver = browsers["spectator"]
    driver.get(server.base + "/?create=1")
    wait_until(lambda: driver.find_elements(By.ID, "create-form"), 5, what="the create form")
    driver.execute_script("document.getElementById('create-card').open = true")
    driver.find_element(By.ID, "admin-token").clear()
    driver.find_element(By.ID, "admin-token").send_keys(server.admin_token)
    for field, value in (("homeTeam", "Ravens"), ("homePlayers0", "Ann"), ("homePlayers1", "Bo"), ("homePlayers2", "Cy"), ("awayTeam", "Wolves"), ("awayPlayers0", "Di"), ("awayPlayers1", "Ed"), ("awayPlayers2", "Flo")):
        driver.find_element(By.ID, field).send_keys(value)
    Select(driver.find_element(By.ID, "preset")).select_by_value("fiba5x5")
    press(driver, driver.find_element(By.ID, "create-button"))
    # Three players are too few for 5x5: the roster's error, in words, beside it.
    wait_until(lambda: text(driver, '[data-error-for="homePlayers"]'), 5, what="the roster size error")
    assert "5 to 12" in text(driver, '[data-error-for="homePlayers"]')
    driver.find_element(By.ID, "homeMore").send_keys("7 Dan\n23 Eve")
    driver.find_element(By.ID, "awayMore").send_keys("Gus\nHal")
    Select(driver.find_element(By.ID, "confirmation")).select_by_value("dual")
    press(driver, driver.find_element(By.ID, "create-button"))
    wait_until(lambda: driver.find_element(By.ID, "created").is_displayed(), 5, what="the created box")
    gid = driver.find_element(By.ID, "created-watch").get_attribute("href").split("id=")[1]
    state = server.snapshot(gid)["state"]
    assert state["rules"]["preset"] == "fiba5x5"
    assert state["rules"].get("confirmation") == "dual", state["rules"]
    assert [(p["playerName"], p["number"], p["onCourt"]) for p in state["homePlayers"]] == [
        ("Ann", None, True), ("Bo", None, True), ("Cy", None, True), ("Dan", "7", True), ("Eve", "23", True)]
    # The tab keeps the admin token; the other tests start from a tab without it.
    driver.execute_script("sessionStorage.clear()")
    driver.get(server.base + "/")
    assert_no_console_errors(browsers, allowed=("/api/games - Failed to load resource: the server responded with a status of 400",))
