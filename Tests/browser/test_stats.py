"""Every basketball statistic in Chromium: the scorer panel's new keys and buttons (made and missed by value, free
throws, rebounds, steals, blocks, turnovers, foul types, team actions, the assist prompt, foul trouble, "End period"),
a made three with an assist reaching a spectator's box score tab within a second, the sortable box score, the
display counting down with foul trouble and leaders, and the printable box score printed by headless Chromium to
a PDF of one A4 page."""

import base64
import os
import re
import shutil
import time
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.print_page_options import PrintOptions
from selenium.webdriver.support.ui import Select

from harness import set_viewport, wait_until
from pages import click_move, open_display, open_scorer, open_spectator, page_state, pending_count, player, press, wait_live
from test_pages import assert_no_console_errors, assert_page_matches_server, take

ROOT = Path(__file__).resolve().parents[2]
HOME = [{"name": n, "number": str(k)} for n, k in (("Ann", 4), ("Bo", 5), ("Cy", 6), ("Dee", 7), ("Eve", 8), ("Fox", 9), ("Gil", 10), ("Hal", 11), ("Ivy", 12), ("Jo", 13), ("Kit", 14), ("Lu", 15))]
AWAY = [{"name": n, "number": str(k)} for n, k in (("Mo", 0), ("Ned", 1), ("Oz", 2), ("Pia", 3), ("Quin", 20), ("Rex", 21), ("Sol", 22), ("Tam", 23), ("Uma", 24), ("Vic", 25), ("Wes", 30), ("Xan", 33))]


def create_5x5(server, home="Harbor Hawks", away="City Comets"):
    body = {"homeTeam": {"name": home, "players": HOME, "short": "HAW"}, "awayTeam": {"name": away, "players": AWAY, "short": "COM"}, "rules": {"preset": "fiba5x5"}}
    status, answer = server.request("POST", "/api/games", body, token=server.admin_token)
    assert status == 201, f"create game: {status} {answer}"
    return answer


def stats(state, player_id):
    return player(state, player_id)["stats"]


def keys(driver, *sequence):
    body = driver.find_element(By.TAG_NAME, "body")
    for key in sequence:
        body.send_keys(key)


def shown(driver, css):
    return driver.execute_script("const n = document.querySelector(arguments[0]); return n && !n.closest('[hidden]') ? n.textContent : null", css)


def acked(driver):
    wait_until(lambda: pending_count(driver) == 0, 5, what="every command acked")


def test_s_the_panel_shows_only_the_moves_the_rules_allow(server, browsers):
    scorer = browsers["scorer"]
    game = create_5x5(server)
    open_scorer(scorer, server.base, game["id"], game["scorerToken"])
    moves = {b.get_attribute("data-move") for b in scorer.find_elements(By.CSS_SELECTOR, 'button.move[data-player="home-0"]')}
    assert moves == {"twoPoints", "threePoints", "freeThrow", "twoPointsMissed", "threePointsMissed", "freeThrowMissed", "rebound", "offensiveRebound", "defensiveRebound", "assist", "steal", "block", "turnover", "foul", "offensiveFoul", "technicalFoul", "unsportsmanlikeFoul", "disqualifyingFoul"}, moves
    team = {b.get_attribute("data-team-move") for b in scorer.find_elements(By.CSS_SELECTOR, '[data-team="away"][data-team-move]')}
    assert team == {"rebound", "offensiveRebound", "defensiveRebound", "turnover", "coachTechnical", "benchTechnical", "coachDisqualifying"}, team
    help_text = scorer.find_element(By.ID, "shortcuts").get_attribute("textContent")
    for words in ("3PT", "Missed field goal", "steal, block, turnover", "technical, unsportsmanlike, disqualifying", "team rebound", "coach technical"):
        assert words in help_text, words
    # 3x3: field goals of 1 and 2, no coach.
    small = server.create_game(home="Foxes", away="Bears")
    open_scorer(scorer, server.base, small["id"], small["scorerToken"])
    moves = {b.get_attribute("data-move") for b in scorer.find_elements(By.CSS_SELECTOR, 'button.move[data-player="home-0"]')}
    assert {"onePoint", "twoPoints", "onePointMissed", "twoPointsMissed", "freeThrow"} <= moves and not moves & {"threePoints", "threePointsMissed"}, moves
    assert not scorer.find_elements(By.CSS_SELECTOR, '[data-team-move="coachTechnical"]')
    assert_no_console_errors(browsers)


def test_s_every_statistic_by_keyboard_in_at_most_two_presses(server, browsers):
    scorer = browsers["scorer"]
    game = create_5x5(server)
    gid = game["id"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    keys(scorer, "j")  # Ann, home-0
    assert "selected" in scorer.find_element(By.CSS_SELECTOR, 'article.player[data-player="home-0"]').get_attribute("class")
    keys(scorer, "3")
    wait_until(lambda: shown(scorer, "#assist-prompt") is not None, 2, what="the assist prompt after a made three")
    keys(scorer, "1")  # the first teammate on court: Bo
    acked(scorer)
    wait_until(lambda: stats(page_state(scorer), "home-1")["assists"] == 1, 3, what="1: the assist for the first teammate")
    assert shown(scorer, "#assist-prompt") is None
    keys(scorer, "2")
    wait_until(lambda: shown(scorer, "#assist-prompt") is not None, 2, what="the assist prompt after a made two")
    keys(scorer, "\ue00c")  # Escape: no assist
    assert shown(scorer, "#assist-prompt") is None
    for sequence in (("x", "3"), ("x", "2"), ("t",), ("x", "t"), ("o",), ("d",), ("b",), ("l",), ("v",), ("g",), ("f",), ("c", "o")):
        keys(scorer, *sequence)
    keys(scorer, "q", "b")  # home team rebound
    keys(scorer, "p", "g")  # away team turnover
    keys(scorer, "p", "c")  # away coach technical
    acked(scorer)
    state = page_state(scorer)
    ann = stats(state, "home-0")
    assert (ann["points"], ann["fieldGoalsMade"], ann["fieldGoalsAttempted"], ann["threePointersMade"], ann["threePointersAttempted"]) == (6, 2, 4, 1, 2), ann
    assert (ann["freeThrowsMade"], ann["freeThrowsAttempted"], ann["offensiveRebounds"], ann["defensiveRebounds"], ann["rebounds"]) == (1, 2, 1, 1, 3), ann
    assert (ann["steals"], ann["blocks"], ann["turnovers"], ann["fouls"]) == (1, 1, 1, 2), ann
    assert state["homeStats"]["teamRebounds"] == 1 and state["awayStats"]["teamTurnovers"] == 1 and state["awayStats"]["coachTechnicals"] == 1, (state["homeStats"], state["awayStats"])
    # Technical then unsportsmanlike: disqualified (FIBA art. 36.2.3), greyed, no more moves until substituted.
    keys(scorer, "c", "t")
    keys(scorer, "c", "u")
    acked(scorer)
    wait_until(lambda: stats(page_state(scorer), "home-0")["disqualified"], 3, what="the disqualification")
    card = scorer.find_element(By.CSS_SELECTOR, 'article.player[data-player="home-0"]')
    wait_until(lambda: "out" in card.get_attribute("class"), 2, what="the disqualified player greyed")
    assert "Disqualified" in card.get_attribute("textContent")
    assert all(b.get_attribute("disabled") is not None for b in card.find_elements(By.CSS_SELECTOR, "button.move"))
    # The same moves by button, for another player: every button records its move and shows its count.
    for move in ("threePoints", "twoPointsMissed", "freeThrowMissed", "offensiveRebound", "steal", "block", "turnover"):
        click_move(scorer, "away-2", move)
        if move == "threePoints":
            press(scorer, scorer.find_element(By.ID, "assist-skip"))
    acked(scorer)
    oz = stats(page_state(scorer), "away-2")
    assert (oz["points"], oz["fieldGoalsAttempted"], oz["freeThrowsAttempted"], oz["offensiveRebounds"], oz["steals"], oz["blocks"], oz["turnovers"]) == (3, 2, 1, 1, 1, 1, 1), oz
    assert scorer.find_element(By.CSS_SELECTOR, 'button.move[data-player="away-2"][data-move="steal"] .move-count').text == "1"
    assert_page_matches_server(scorer, server, gid)
    assert_no_console_errors(browsers)


def test_s_foul_trouble_end_period_and_the_display(server, browsers, screenshot_dir):
    scorer, display = browsers["scorer"], browsers["display"]
    game = create_5x5(server)
    gid = game["id"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    open_display(display, server.base, gid)
    # The display counts the period down: 10:00 before the tip-off.
    # The page is live before its first frame has drawn the countdown: wait for it, as for every other change.
    wait_until(lambda: shown(display, "[data-countdown]") == "10:00", 5, what="the countdown at 10:00")
    for _ in range(4):
        click_move(scorer, "home-2", "foul")
    acked(scorer)
    card = scorer.find_element(By.CSS_SELECTOR, 'article.player[data-player="home-2"]')
    wait_until(lambda: "foul-warning" in card.get_attribute("class"), 2, what="the warning at 4 fouls")
    wait_until(lambda: "4 PF" in (shown(display, '[data-player-fouls="home"]') or ""), 2, what="4 fouls on the display")
    click_move(scorer, "home-2", "foul")
    acked(scorer)
    wait_until(lambda: "out" in card.get_attribute("class"), 2, what="the fouled-out player greyed")
    assert "Fouled out" in card.get_attribute("textContent") and "substitute" in card.get_attribute("textContent")
    wait_until(lambda: display.find_elements(By.CSS_SELECTOR, '[data-fouls-of="home-2"].out'), 2, what="5 fouls on the display")
    # Leaders between plays.
    click_move(scorer, "away-0", "threePoints")
    click_move(scorer, "away-1", "defensiveRebound")
    acked(scorer)
    wait_until(lambda: "Mo" in (shown(display, '[data-leaders="away"] [data-leader="PTS"]') or ""), 2, what="the points leader on the display")
    written = [take(display, screenshot_dir, "display-stats", 1920, 1080), take(display, screenshot_dir, "display-stats", 390, 844)]
    # Substituted: the greyed player leaves the court.
    Select(scorer.find_element(By.CSS_SELECTOR, '[data-sub-out="home"]')).select_by_value("home-2")
    Select(scorer.find_element(By.CSS_SELECTOR, '[data-sub-in="home"]')).select_by_value("home-7")
    press(scorer, scorer.find_element(By.CSS_SELECTOR, '[data-substitute="home"]'))
    acked(scorer)
    assert player(page_state(scorer), "home-2")["onCourt"] is False
    # End period: one press arms it, the second ends the quarter.
    end = scorer.find_element(By.ID, "end-period")
    press(scorer, end)
    # One press arms the button and sends nothing: armed, nothing pending, and the server's period unchanged (a
    # barrier, not a fixed wait: a command sent by the press would be answered before nothing is pending).
    wait_until(lambda: "armed" in end.get_attribute("class"), 2, what="the end-period button armed")
    wait_until(lambda: pending_count(scorer) == 0, 5, what="nothing pending after one press")
    assert assert_page_matches_server(scorer, server, gid)["state"]["period"] == 1, "one press must not end the period"
    press(scorer, end)
    wait_until(lambda: (page_state(display) or {}).get("period") == 2, 2, what="the second quarter on the display")
    assert shown(display, "[data-period]") == "Q2"
    for path in written:
        assert path.stat().st_size > 5000, path
    copy_screenshots(written)
    display.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert_no_console_errors(browsers)


def test_s_a_made_three_with_an_assist_reaches_the_box_score_within_a_second(server, browsers, screenshot_dir):
    scorer, spectator = browsers["scorer"], browsers["spectator"]
    game = create_5x5(server)
    gid = game["id"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    open_spectator(spectator, server.base, gid)
    press(spectator, spectator.find_element(By.ID, "tab-box"))
    wait_until(lambda: spectator.find_element(By.ID, "boxscore").is_displayed(), 2, what="the box score tab")
    for player_id, move in (("home-1", "twoPoints"), ("away-0", "freeThrow")):
        click_move(scorer, player_id, move)
        if move == "twoPoints":
            press(scorer, scorer.find_element(By.ID, "assist-skip"))
    acked(scorer)
    wait_until(lambda: spectator.find_element(By.CSS_SELECTOR, '#boxscore tr[data-box-player="home-1"] [data-col="pts"]').text == "2", 2, what="the first basket")
    spectator.execute_script("""
        window.threeAt = null; window.assistAt = null;
        new MutationObserver(() => {
          const cell = (id, col) => document.querySelector(`#boxscore tr[data-box-player="${id}"] [data-col="${col}"]`);
          if (window.threeAt === null && cell('home-0', 'pts')?.textContent === '3' && cell('home-0', 'arc')?.textContent === '1-1') window.threeAt = Date.now();
          if (window.assistAt === null && cell('home-1', 'ast')?.textContent === '1') window.assistAt = Date.now();
        }).observe(document.getElementById('boxscore'), {childList: true, characterData: true, subtree: true});""")
    three = scorer.find_element(By.CSS_SELECTOR, 'button.move[data-player="home-0"][data-move="threePoints"]')
    scorer.execute_script("arguments[0].scrollIntoView({block: 'center'})", three)
    clicked_at = scorer.execute_script("const t = Date.now(); arguments[0].click(); return t;", three)
    choice = wait_until(lambda: scorer.find_element(By.CSS_SELECTOR, '#assist-prompt [data-assist-player="home-1"]'), 2, what="Bo in the assist prompt")
    assisted_at = scorer.execute_script("const t = Date.now(); arguments[0].click(); return t;", choice)
    wait_until(lambda: spectator.execute_script("return window.threeAt !== null && window.assistAt !== null"), 3, interval=0.01, what="the three and the assist in the box score")
    three_at, assist_at = spectator.execute_script("return [window.threeAt, window.assistAt]")
    assert three_at - clicked_at < 1000 and assist_at - assisted_at < 1000, (clicked_at, three_at, assisted_at, assist_at)
    # The play-by-play in words, the assist on the basket's line, the score after it.
    wait_until(lambda: "#4 Ann 3PT made (Bo assists), 5–1" in spectator.find_element(By.ID, "plays").text, 2, what="the play in words")
    # Sortable: by points, most first; again, fewest first.
    press(spectator, spectator.find_element(By.CSS_SELECTOR, '[data-box="home"] [data-sort="pts"]'))
    order = lambda: [row.get_attribute("data-box-player") for row in spectator.find_elements(By.CSS_SELECTOR, '[data-box="home"] tbody tr')]
    assert order()[:2] == ["home-0", "home-1"], order()
    press(spectator, spectator.find_element(By.CSS_SELECTOR, '[data-box="home"] [data-sort="pts"]'))
    assert order()[-2:] == ["home-1", "home-0"], order()
    assert spectator.find_element(By.CSS_SELECTOR, '[data-box="home"] th[aria-sort]').get_attribute("aria-sort") == "ascending"
    press(spectator, spectator.find_element(By.CSS_SELECTOR, '[data-box="home"] [data-sort="pts"]'))
    # More of a game for the screenshots, with a few seconds on the clock for the minutes.
    press(scorer, scorer.find_element(By.ID, "clock-button"))
    click_clock_and_play(scorer)
    # While the clock runs, the minutes of those on court count on the page by themselves (no traffic for them).
    min_cell = lambda player_id: spectator.find_element(By.CSS_SELECTOR, f'#boxscore tr[data-box-player="{player_id}"] [data-col="min"]').text
    wait_until(lambda: min_cell("home-0") >= "00:02", 4, what="the running minutes in the box score")
    assert min_cell("home-11") == "00:00", "a player on the bench does not gain minutes"
    press(scorer, scorer.find_element(By.ID, "clock-button"))
    acked(scorer)
    # The minutes of those on court: the server's, once the clock stopped.
    played = stats(server.snapshot(gid)["state"], "home-0")["secondsPlayed"]
    assert played >= 2, played
    wait_until(lambda: spectator.find_element(By.CSS_SELECTOR, '#boxscore tr[data-box-player="home-0"] [data-col="min"]').text == f"00:{played:02d}", 2, what="the minutes in the box score")
    written = []
    for width, height in ((390, 844), (1920, 1080)):
        written.append(take_scrolled(spectator, screenshot_dir, "spectator-boxscore", width, height, ".tabs" if width < 600 else ".scoreboard"))
        written.append(take_scrolled(scorer, screenshot_dir, "scorer-stats", width, height, "#team-actions"))
    for path in written:
        assert path.stat().st_size > 5000, path
    copy_screenshots(written)
    for driver in (spectator, scorer):
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert_page_matches_server(spectator, server, gid)
    assert_no_console_errors(browsers)


def take_scrolled(driver, directory, name, width, height, css):
    """A screenshot at this size with `css` at the top of the window (under the sticky bar)."""
    set_viewport(driver, width, height, mobile=width < 600)
    driver.execute_script("const n = document.querySelector(arguments[0]); scrollTo(0, n.getBoundingClientRect().top + scrollY - 60)", css)
    time.sleep(0.6)
    path = directory / f"{name}-{width}x{height}.png"
    driver.save_screenshot(str(path))
    return path


def click_clock_and_play(scorer):
    for player_id, move in (("home-2", "defensiveRebound"), ("home-3", "twoPointsMissed"), ("home-4", "offensiveRebound"), ("home-4", "twoPoints"), ("away-1", "threePointsMissed"), ("away-2", "steal"), ("away-3", "threePoints"), ("home-0", "foul"), ("away-4", "freeThrow"), ("away-4", "freeThrowMissed"), ("home-1", "block"), ("away-0", "turnover")):
        click_move(scorer, player_id, move)
        if move in ("twoPoints", "threePoints"):
            press(scorer, scorer.find_element(By.ID, "assist-skip"))
    acked(scorer)


def test_s_the_printable_box_score_is_one_a4_page(server, browsers, screenshot_dir):
    scorer, viewer = browsers["scorer"], browsers["display"]
    game = create_5x5(server, home="Harbor City Basketball", away="Valley Owls Athletics")
    gid = game["id"]
    open_scorer(scorer, server.base, gid, game["scorerToken"])
    # Every player of both teams with a line, so that the page is as full as a real game's.
    for index in range(12):
        for side in ("home", "away"):
            if index >= 5:
                Select(scorer.find_element(By.CSS_SELECTOR, f'[data-sub-out="{side}"]')).select_by_index(0)
                Select(scorer.find_element(By.CSS_SELECTOR, f'[data-sub-in="{side}"]')).select_by_value(f"{side}-{index}")
                press(scorer, scorer.find_element(By.CSS_SELECTOR, f'[data-substitute="{side}"]'))
                acked(scorer)
            click_move(scorer, f"{side}-{index}", "twoPoints")
            press(scorer, scorer.find_element(By.ID, "assist-skip"))
            click_move(scorer, f"{side}-{index}", "defensiveRebound")
    acked(scorer)
    viewer.get(f"{server.base}/boxscore.html?id={gid}")
    wait_live(viewer)
    state = assert_page_matches_server(viewer, server, gid)["state"]
    totals = viewer.find_element(By.CSS_SELECTOR, '[data-box="home"] tfoot tr').text.split()
    assert totals[1:3] == ["Totals", str(state["homeScore"])] or totals[:2] == ["Totals", str(state["homeScore"])], (totals, state["homeScore"])
    # Live: a basket appears without a reload.
    click_move(scorer, "home-11", "twoPoints")
    press(scorer, scorer.find_element(By.ID, "assist-skip"))
    wait_until(lambda: viewer.find_element(By.ID, "home-score").text == str(state["homeScore"] + 2), 2, what="the live score on the box score page")
    options = PrintOptions()
    options.page_width, options.page_height = 21.0, 29.7  # A4, in centimetres
    options.orientation = "portrait"
    pdf = base64.b64decode(viewer.print_page(options))
    assert pdf.startswith(b"%PDF"), pdf[:16]
    pages = len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))
    assert pages == 1, f"the printed box score has {pages} pages"
    (screenshot_dir / "boxscore-a4.pdf").write_bytes(pdf)
    written = [take(viewer, screenshot_dir, "boxscore", 1920, 1080), take(viewer, screenshot_dir, "boxscore", 390, 844)]
    set_viewport(viewer, 360, 740, mobile=True)
    assert viewer.execute_script("return document.documentElement.scrollWidth <= 360"), "the box score page scrolls sideways at 360 px"  # not innerWidth: a mobile layout viewport grows to fit
    viewer.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    for path in written:
        assert path.stat().st_size > 5000, path
    copy_screenshots(written)
    assert_no_console_errors(browsers)


def copy_screenshots(paths):
    if os.environ.get("COURTSIDE_UPDATE_SCREENSHOTS") == "1":
        target = ROOT / "docs" / "screenshots"
        for path in paths:
            shutil.copy(path, target / path.name)
