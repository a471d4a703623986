"""Venues in Chromium: a court display follows the court's games without a reload, stream-delay sync shows a
change `delay` seconds after it was made with the clock behind by the same, team colours reach the page, and the
viewer count reaches N. Screenshots of the venue overview, the delayed overlay and the queue go to the screenshot
directory (docs/screenshots/ with COURTSIDE_UPDATE_SCREENSHOTS=1)."""

import os
import shutil
import time
from pathlib import Path

from harness import create_game, scorer_command, set_viewport, wait_until

ROOT = Path(__file__).resolve().parents[2]


def save(driver, screenshot_dir, name):
    path = screenshot_dir / f"{name}.png"
    driver.save_screenshot(str(path))
    if os.environ.get("COURTSIDE_UPDATE_SCREENSHOTS") == "1":
        shutil.copy(path, ROOT / "docs" / "screenshots" / path.name)


def page_text(driver, element_id):
    return driver.execute_script(f"return document.getElementById('{element_id}').textContent")


def test_court_display_follows_games_and_shows_the_queue(server, browsers, screenshot_dir):
    status, court = server.request("POST", "/api/courts", {"name": "Court 2"}, token=server.admin_token)
    assert status == 201, court
    display = browsers["display"]
    set_viewport(display, 1920, 1080)
    # The display key rides in the fragment (never sent in a URL): the display shows the rotating join code.
    display.get(server.base + court["links"]["display"] + "#key=" + court["displayKey"])
    wait_until(lambda: page_text(display, "status") == "Next game soon", 10, what="next game soon")
    display.execute_script("window.reloadMarker = 'same page'")
    first = create_game(server, {"homeTeam": {"name": "Hawks", "players": ["A", "B", "C"], "color": "#FFD700", "short": "HAW"},
                            "awayTeam": {"name": "Owls", "players": ["D", "E", "F"], "color": "#0B3D91", "short": "OWL"},
                            "rules": {"preset": "pickup"}, "court": court["id"]})
    wait_until(lambda: display.execute_script("return document.querySelector('[data-bind=homeTeam]').textContent") == "Hawks", 5, what="first game on the court display")
    # The name sits on the team's colour, in dark ink on gold (contrast), and the page was not reloaded.
    ink = display.execute_script("return getComputedStyle(document.querySelector('.home .name')).color")
    background = display.execute_script("return getComputedStyle(document.querySelector('.home .name')).backgroundColor")
    assert background == "rgb(255, 215, 0)" and ink == "rgb(0, 0, 0)", (background, ink)
    code = wait_until(lambda: display.execute_script("return document.getElementById('join-code').dataset.code"), 5, what="the join code on the display")
    assert f"/join.html?court={court['id']} with code {code}" in page_text(display, "join-code")
    status, answer = server.request("POST", f"/api/courts/{court['id']}/queue", {"name": "Elks", "players": ["G", "H", "I"]})
    assert status == 403 and answer["code"] == "wrong_join_code", (status, answer)
    # A phone joins on the join page with the code read off the TV.
    phone = browsers["phone"]
    set_viewport(phone, 390, 844)
    phone.get(server.base + court["links"]["join"])
    wait_until(lambda: page_text(phone, "court-title") == "Court 2", 5, what="the join page's court")
    for field, value in (("code", code), ("name", "Elks"), ("player0", "G"), ("player1", "H"), ("player2", "I")):
        phone.find_element("id", field).send_keys(value)
    phone.find_element("id", "join-button").click()
    wait_until(lambda: "number 1" in page_text(phone, "joined"), 5, what="joined on the phone")
    wait_until(lambda: page_text(display, "next-up") == "Next up: Elks", 5, what="next up on the display")
    scorer_command(server, first, {"type": "move", "id": "c1", "player": "home-0", "move": "twoPoints"})
    second = create_game(server, {"homeTeam": "Bulls", "homePlayers": ["J", "K", "L"], "awayTeam": "Knicks", "awayPlayers": ["M", "N", "O"]})
    status, _ = server.request("PUT", f"/api/courts/{court['id']}", {"game": second["id"]}, token=server.admin_token)
    assert status == 200
    started = time.monotonic()
    wait_until(lambda: display.execute_script("return document.querySelector('[data-bind=homeTeam]').textContent") == "Bulls", 5, what="second game")
    assert time.monotonic() - started < 1.5, "the display took more than a second to switch"
    assert display.execute_script("return window.reloadMarker") == "same page"
    save(display, screenshot_dir, "court-display-queue-1920x1080")
    venue = browsers["venue"]
    set_viewport(venue, 1920, 1080)
    venue.get(server.base + "/venue.html")
    wait_until(lambda: venue.execute_script("return document.querySelectorAll('.court-card .court-score').length") >= 1, 10, what="venue overview")
    save(venue, screenshot_dir, "venue-1920x1080")


def test_delay_shows_changes_late_with_a_delayed_clock(server, browsers, screenshot_dir):
    game = create_game(server, {"homeTeam": "Lakers", "homePlayers": ["Ann", "Bo", "Cy"], "awayTeam": "Celtics", "awayPlayers": ["Di", "Ed", "Flo"], "rules": {"preset": "fiba3x3"}})
    overlay = browsers["display"]
    set_viewport(overlay, 1920, 1080)
    overlay.get(server.base + f"/display.html?id={game['id']}&theme=transparent&compact=1&delay=3")
    assert wait_until(lambda: page_text(overlay, "delay-badge") == "Delay 3 s", 5, what="the delay badge")
    # The first snapshot shows 3 s after it arrived.
    wait_until(lambda: overlay.execute_script("return document.querySelector('[data-bind=homeShort]').textContent") == "LAK", 8, what="the delayed snapshot")
    overlay.execute_script(
        "window.scoreSeenAt = null; new MutationObserver(() => { if (document.getElementById('home-score').textContent === '2' && window.scoreSeenAt === null) window.scoreSeenAt = Date.now(); })"
        ".observe(document.getElementById('home-score'), {childList: true, characterData: true, subtree: true});")
    scorer_command(server, game, {"type": "clock", "id": "c0", "action": "start"})
    sent = time.time()
    scorer_command(server, game, {"type": "move", "id": "c1", "player": "home-0", "move": "twoPoints"})
    acked = time.time()
    made = server.snapshot(game["id"])["state"]["plays"][0]["at"] / 1000
    seen = wait_until(lambda: overlay.execute_script("return window.scoreSeenAt"), 10, what="the delayed score") / 1000
    assert 3.0 <= seen - made <= 3.5, f"shown {seen - made:.3f} s after the patch was made (sent {seen - sent:.3f} s, acked {seen - acked:.3f} s before)"
    assert 2.9 <= seen - acked <= 3.5, f"shown {seen - acked:.3f} s after the ack"
    # The clock shown is the server's clock 3 s ago: started at c0, so about (now - start - 3 s) elapsed; the
    # overlay counts the 10-minute period down, so it still shows (about) all of it, not the 09:57 of now.
    shown = overlay.execute_script("return document.querySelector('[data-countdown]').textContent")
    save(overlay, screenshot_dir, "overlay-delay-1920x1080")
    assert shown in ("10:00", "09:59"), shown


def test_viewer_count_reaches_n(server, browsers):
    game = create_game(server, {"homeTeam": "Suns", "homePlayers": ["A", "B", "C"], "awayTeam": "Jazz", "awayPlayers": ["D", "E", "F"]})
    pages = [browsers[f"viewer-{i}"] for i in range(3)]
    for page in pages:
        page.get(server.base + f"/game.html?id={game['id']}")
    wait_until(lambda: all(p.execute_script("return document.getElementById('viewers').dataset.viewers") == "3" for p in pages), 15, what="3 watching on every page")
    assert page_text(pages[0], "viewers") == "3 watching"
