"""Embedding and languages in Chromium (README, "Embed" and "Languages"): the <courtside-score> component on a page
of another origin (another port), the self-sizing iframe, the oEmbed answer, pages in Arabic and in the
pseudo-locale x-long."""

import html
import re
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from conftest import ADMIN_TOKEN
from harness import create_game, scorer_command, CourtsideServer, clipped, console_errors, free_port, open_every_details, set_viewport, wait_until

# Chromium's own console lines while the server is deliberately down (the restart test).
OUTAGE_NOISE = ("WebSocket connection to", "ERR_CONNECTION_REFUSED", "ERR_CONNECTION_RESET", "ERR_EMPTY_RESPONSE")

GAME = {"homeTeam": "Lakers", "homePlayers": ["Ann", "Bo", "Cy"], "homeColor": "#2E7D32", "awayTeam": "Celtics", "awayPlayers": ["Di", "Ed", "Flo"], "rules": {"preset": "fiba3x3"}}


class HostSite:
    """Another origin: a loopback HTTP server on its own port serving the pages a test puts in `pages`."""

    def __init__(self):
        pages = self.pages = {}

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path == "/favicon.ico":
                    self.send_response(204)
                    self.end_headers()
                    return
                body = pages.get(self.path.split("?")[0])
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write((body or "not found").encode())

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def shadow(driver, element_id, css, what="textContent"):
    return driver.execute_script(f"const n = document.getElementById(arguments[0])?.shadowRoot?.querySelector(arguments[1]); return n ? n.{what} : null;", element_id, css)


def box(driver, element_id, css):
    return driver.execute_script("const r = document.getElementById(arguments[0]).shadowRoot.querySelector(arguments[1]).getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height};", element_id, css)


# Records every WebSocket the host page opens, before embed.js loads: the tests read the resume URLs from it.
SOCKET_SPY = "<script>window.sockets = []; const Native = WebSocket; window.WebSocket = class extends Native { constructor(url, p) { super(url, p); window.sockets.push(String(url)); } };</script>"


def host_page(server_base, elements):
    return f"<!doctype html><html><head><meta charset=utf-8><title>A club site</title>{SOCKET_SPY}</head><body style='margin:0;width:640px'>{elements}<script src='{server_base}/embed.js'></script></body></html>"


def test_component_on_another_origin_follows_obeys_and_resumes_after_a_restart(browsers, tmp_path, screenshot_dir):
    # Its own server: this test restarts it on the same port and data.
    server = CourtsideServer(tmp_path / "data", ADMIN_TOKEN)
    server.start()
    site = HostSite()
    try:
        game = create_game(server, GAME)
        gid = game["id"]
        site.pages["/club.html"] = host_page(
            server.base,
            f'<courtside-score id="full" game="{gid}" theme="dark" size="full"></courtside-score>'
            f'<courtside-score id="ticker" game="{gid}" theme="light" size="ticker"></courtside-score>'
            f'<courtside-score id="late" game="{gid}" theme="transparent" size="compact" delay="2"></courtside-score>',
        )
        driver = browsers["embed"]
        set_viewport(driver, 1000, 800)
        driver.get(site.base + "/club.html")
        assert driver.execute_script("return location.origin") != server.base
        for element in ("full", "ticker", "late"):
            wait_until(lambda: shadow(driver, element, ".home .long") == "Lakers", 10, what=f"{element} shows the game")
        # Themes: a dark board, a light one, a transparent one.
        backgrounds = {e: driver.execute_script("return getComputedStyle(document.getElementById(arguments[0]).shadowRoot.querySelector('.b')).backgroundColor", e) for e in ("full", "ticker", "late")}
        assert backgrounds["full"] == "rgb(21, 23, 28)", backgrounds
        assert backgrounds["ticker"] == "rgb(255, 255, 255)", backgrounds
        assert backgrounds["late"] == "rgba(0, 0, 0, 0)", backgrounds
        # Sizes: the ticker is one line with the short names; the full board is tallest and shows fouls.
        assert box(driver, "ticker", ".b")["height"] < box(driver, "late", ".b")["height"] < box(driver, "full", ".b")["height"]
        assert shadow(driver, "ticker", ".home .short", "checkVisibility()") and not shadow(driver, "ticker", ".home .long", "checkVisibility()")
        assert shadow(driver, "ticker", ".home .short") == "LAK"
        # The team colour given at creation.
        assert shadow(driver, "full", ".home .sw", "style.background") == "rgb(46, 125, 50)"

        # Live: a basket shows at once on the live boards and 2 s after it was made on the delayed one.
        driver.execute_script(
            "window.seen = {}; for (const id of ['full', 'late']) document.getElementById(id).addEventListener('courtside:update', (e) => {"
            " if (e.detail.state.homeScore === 2 && !window.seen[id]) window.seen[id] = Date.now(); });")
        scorer_command(server, game, {"type": "move", "id": "m1", "player": "home-0", "move": "twoPoints"})
        made = server.snapshot(gid)["state"]["plays"][0]["at"]
        wait_until(lambda: shadow(driver, "full", ".home .s") == "2", 5, what="the basket on the live board")
        wait_until(lambda: shadow(driver, "ticker", ".home .s") == "2", 5, what="the basket on the ticker")
        late = wait_until(lambda: driver.execute_script("return window.seen.late"), 8, what="the basket on the delayed board")
        live = driver.execute_script("return window.seen.full")
        assert live - made < 2000, f"live board {live - made} ms after the play"
        # Never early; late only by the page's timer and a loaded machine's scheduling.
        assert 2000 <= late - made <= 3200, f"delayed board {late - made} ms after the play"
        assert "Delay" in shadow(driver, "late", ".d")
        driver.save_screenshot(str(screenshot_dir / "embed-component.png"))

        # The server restarts: every board reconnects with since=<its seq> and follows what happened meanwhile.
        seq = server.snapshot(gid)["seq"]
        before = len(driver.execute_script("return window.sockets"))
        server.stop()
        wait_until(lambda: shadow(driver, "full", ".st") == "Reconnecting…", 10, what="the board noticing the restart")
        server.start()
        scorer_command(server, game, {"type": "move", "id": "m2", "player": "away-0", "move": "twoPoints"})
        for element in ("full", "ticker", "late"):
            wait_until(lambda: shadow(driver, element, ".away .s") == "2", 15, what=f"{element} after the restart")
        reopened = driver.execute_script("return window.sockets")[before:]
        assert any(f"/ws/games/{gid}?since={seq}" in url for url in reopened), reopened
        assert all(url.startswith(server.base.replace("http", "ws")) for url in reopened), "a socket to another host"
        assert shadow(driver, "full", ".st") == "Live"
        errors = browsers.console_errors(OUTAGE_NOISE)
        assert errors == {}, errors
    finally:
        # Leave the page before its server goes for good, or its retries would be logged into the next test.
        browsers["embed"].get("about:blank")
        console_errors(browsers["embed"], OUTAGE_NOISE)
        site.close()
        server.stop()


def test_iframe_resizes_its_parent_and_the_oembed_answer_embeds(server, browsers):
    game = create_game(server, GAME)
    gid = game["id"]
    # A consumer given the game's link reads the page's markup (no script run) for the discovery link, and follows it.
    with urllib.request.urlopen(f"{server.base}/game.html?id={gid}", timeout=5) as page:
        markup = page.read().decode()
    href = re.search(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"', markup)
    assert href, markup[:600]
    discovered = html.unescape(href.group(1))
    assert discovered == f"{server.base}/oembed?" + urllib.parse.urlencode({"url": f"{server.base}/game.html?id={gid}", "format": "json"})
    status, answer = server.request("GET", discovered[len(server.base):])
    assert status == 200 and answer["type"] == "rich", answer
    assert answer["title"] == "Lakers – Celtics · Courtside"
    listener = (
        "<script>window.resizes = []; addEventListener('message', (e) => { if (e.data?.type !== 'courtside:resize') return;"
        " window.resizes.push(e.data.height); for (const f of document.querySelectorAll('iframe')) if (f.contentWindow === e.source) f.height = e.data.height; });</script>"
    )
    site = HostSite()
    try:
        site.pages["/cms.html"] = f"<!doctype html><html><head><meta charset=utf-8></head><body>{listener}{answer['html']}</body></html>"
        site.pages["/full.html"] = f"<!doctype html><html><head><meta charset=utf-8></head><body>{listener}<iframe src='{server.base}/embed.html?id={gid}&size=full' width=480 height=20></iframe></body></html>"
        driver = browsers["embed"]
        driver.get(site.base + "/cms.html")
        # The oEmbed snippet, pasted as a CMS would, loads (frame-ancestors allows it) and shows the game.
        wait_until(lambda: driver.execute_script("return window.resizes"), 10, what="a resize message")
        frame = driver.find_element("css selector", "iframe")
        driver.switch_to.frame(frame)
        wait_until(lambda: shadow(driver, "board", ".home .long") == "Lakers", 10, what="the embedded board")
        board_height = driver.execute_script("return Math.ceil(document.documentElement.getBoundingClientRect().height)")
        driver.switch_to.default_content()
        wait_until(lambda: driver.execute_script("return window.resizes.at(-1)") == board_height, 5, what=f"the board's height {board_height} posted")
        assert int(frame.get_attribute("height")) == board_height

        # A full board in a frame too small for it grows the frame to its height.
        driver.get(site.base + "/full.html")
        heights = wait_until(lambda: driver.execute_script("return window.resizes"), 10, what="a resize message")
        wait_until(lambda: int(driver.find_element("css selector", "iframe").get_attribute("height")) > 60, 10, what="the frame grown")
        assert driver.execute_script("return document.querySelector('iframe').getBoundingClientRect().height") >= max(heights)
    finally:
        site.close()


def test_arabic_pages_mirror_and_keep_the_score_readable(server, browsers):
    game = create_game(server, GAME)
    scorer_command(server, game, {"type": "move", "id": "m1", "player": "home-0", "move": "twoPoints"})
    driver = browsers["embed"]
    set_viewport(driver, 1000, 800)
    driver.get(f"{server.base}/game.html?id={game['id']}&lang=ar")
    wait_until(lambda: driver.execute_script("return document.querySelector('[data-bind=homeScore]').textContent") == "2", 10, what="the score")
    assert driver.execute_script("return [document.documentElement.dir, document.documentElement.lang]") == ["rtl", "ar"]
    assert driver.execute_script("return document.querySelector('.feed h2').textContent") == "لعبة بلعبة"
    wait_until(lambda: driver.execute_script("return document.getElementById('connection').textContent") == "مباشر", 10, what="the badge in Arabic")
    home, away = driver.execute_script("return ['.team.home', '.team.away'].map((s) => document.querySelector('.scoreboard ' + s).getBoundingClientRect().x)")
    assert home > away, "home should be on the right in a right-to-left page"
    # The board's numbers stay left-to-right digits, whole and unclipped.
    assert driver.execute_script("const n = document.getElementById('home-score'); return n.scrollWidth <= n.clientWidth + 1")

    # The component mirrors too, and speaks Arabic.
    driver.get(f"{server.base}/embed.html?id={game['id']}&lang=ar&size=compact")
    wait_until(lambda: shadow(driver, "board", ".st") == "مباشر", 10, what="the embed in Arabic")
    assert driver.execute_script("return document.getElementById('board').getAttribute('dir')") == "rtl"
    assert box(driver, "board", ".home .n")["x"] > box(driver, "board", ".home .s")["x"], "the name should be right of its score"
    # Intl's Arabic with Latin digits, as the pages (docs/i18n.md, "Digits"); the clock too.
    assert shadow(driver, "board", ".home .s") == driver.execute_script("return new Intl.NumberFormat('ar-u-nu-latn').format(2)") == "2"
    assert re.fullmatch(r"\d\d:\d\d\.\d", shadow(driver, "board", ".c") or ""), shadow(driver, "board", ".c")


def test_pseudo_locale_leaves_nothing_untranslated_or_clipped(server, browsers):
    game = create_game(server, GAME)
    driver = browsers["embed"]
    for width in (1280, 360):
        set_viewport(driver, width, 900, mobile=width < 500)
        driver.get(f"{server.base}/game.html?id={game['id']}&lang=x-long#embed")
        wait_until(lambda: driver.execute_script("return document.documentElement.dataset.connection") == "live", 20, what="live")
        texts = driver.execute_script("return [...document.querySelectorAll('[data-i18n]')].map((n) => [n.dataset.i18n, n.textContent])")
        assert len(texts) >= 10, texts
        untranslated = [(key, text) for key, text in texts if not (text.startswith("[") and text.endswith("]"))]
        assert untranslated == [], f"strings that did not go through the catalog: {untranslated}"
        labels = driver.execute_script("return [...document.querySelectorAll('[data-i18n-aria-label]')].map((n) => n.getAttribute('aria-label'))")
        assert labels and all(label.startswith("[") for label in labels), labels
        assert driver.execute_script("return document.getElementById('connection').textContent").startswith("[")
        assert driver.execute_script("return document.getElementById('clock-state').textContent").startswith("[")
        open_every_details(driver)
        offenders = clipped(driver, width)
        assert offenders == [], f"at {width} px: {offenders}"

    # A link to a game that does not exist: the badge's longest words (the reason it stopped) are translated and fit.
    assert console_errors(driver) == []
    driver.get(f"{server.base}/game.html?id=no-such-game&lang=x-long")
    wait_until(lambda: driver.execute_script("return document.getElementById('connection').textContent").startswith("[Théré"), 20, what="the badge saying the game is missing")
    offenders = clipped(driver, 360)
    assert offenders == [], f"before the game: {offenders}"
    # The refused socket and the 404 that tells the page the game is missing are the only errors (and are read
    # here, so the suites that check every window's console after this one do not see them).
    assert console_errors(driver, allowed=("no-such-game",)) == []

    # Every other page: its words keyed in the markup or in its table went through the catalog and fit, on a phone
    # and on a laptop.
    status, court = server.request("POST", "/api/courts", {"name": "Court 9"}, token=server.admin_token)
    assert status == 201, court
    pages = ("/?create=1", f"/score.html?id={game['id']}", f"/display.html?id={game['id']}", f"/boxscore.html?id={game['id']}", "/venue.html", f"/join.html?court={court['id']}")
    for width, page in ((width, page) for width in (360, 1280) for page in pages):
        set_viewport(driver, width, 800, mobile=width < 500)
        driver.get(f"{server.base}{page}{'&' if '?' in page else '?'}lang=x-long")
        wait_until(lambda: driver.execute_script("return document.documentElement.lang") == "x-long", 20, what=f"{page} translated")
        texts = driver.execute_script(
            "return [...document.querySelectorAll('[data-i18n], [data-i18n-key]')].map((n) => [n.dataset.i18n ?? n.dataset.i18nKey, n.textContent])"
            ".concat([...document.querySelectorAll('[data-i18n-aria-label], [data-i18n-attribute-key]')].map((n) => [n.dataset.i18nAriaLabel ?? n.dataset.i18nAttributeKey, n.getAttribute('aria-label')]))")
        assert texts, page
        untranslated = [(key, text) for key, text in texts if not text.startswith("[")]
        assert untranslated == [], f"{page}: {untranslated}"
        open_every_details(driver)
        offenders = clipped(driver, width)
        assert offenders == [], f"{page} at {width} px: {offenders}"

    # The component in the pseudo-locale: its status is translated and whole in every size, and nothing of it clipped.
    site_sizes = ("ticker", "compact", "full")
    for width, size in ((width, size) for width in (360, 1280) for size in site_sizes):
        set_viewport(driver, width, 800, mobile=width < 500)
        driver.get(f"{server.base}/embed.html?id={game['id']}&lang=x-long&size={size}")
        wait_until(lambda: (shadow(driver, "board", ".st") or "").startswith("[Lívé"), 10, what=f"the {size} embed in x-long")
        status = box(driver, "board", ".st")
        board = box(driver, "board", ".b")
        assert status["x"] >= board["x"] - 1 and status["x"] + status["width"] <= board["x"] + board["width"] + 1, (size, status, board)
        offenders = clipped(driver, width)
        assert offenders == [], f"the {size} embed at {width} px: {offenders}"


def test_component_follows_a_court_from_game_to_game(server, browsers):
    first = create_game(server, GAME)
    second = create_game(server, dict(GAME, homeTeam="Owls", awayTeam="Hawks"))
    status, court = server.request("POST", "/api/courts", {"name": "Court 7"}, token=server.admin_token)
    assert status == 201, court
    site = HostSite()
    try:
        site.pages["/court.html"] = host_page(server.base, f'<courtside-score id="court" court="{court["id"]}"></courtside-score>')
        driver = browsers["embed"]
        driver.get(site.base + "/court.html")
        wait_until(lambda: shadow(driver, "court", ".st") == "Next game soon", 10, what="an empty court")
        for game, home in ((first, "Lakers"), (second, "Owls")):
            status, answer = server.request("PUT", f"/api/courts/{court['id']}", {"game": game["id"]}, token=server.admin_token)
            assert status == 200, answer
            wait_until(lambda: shadow(driver, "court", ".home .long") == home, 10, what=f"{home} on the court")
        scorer_command(server, second, {"type": "move", "id": "m1", "player": "home-0", "move": "twoPoints"})
        wait_until(lambda: shadow(driver, "court", ".home .s") == "2", 5, what="the court's game live")
    finally:
        site.close()


def test_the_embed_box_snippets_work_when_pasted(server, browsers):
    """The lobby's "Embed" link opens the spectator page's Embed box; both of its snippets, pasted as they are into a
    page of another origin, show the game live (the component) and size the frame (the iframe and its listener)."""
    game = create_game(server, GAME)
    gid = game["id"]
    driver = browsers["embed"]
    set_viewport(driver, 1000, 800)
    driver.get(server.base + "/")
    link = wait_until(lambda: driver.find_element("css selector", f'[data-embed="{gid}"]'), 10, what="the lobby's Embed link")
    driver.execute_script("arguments[0].click()", link)
    wait_until(lambda: driver.execute_script("const box = document.getElementById('embed'); return box && !box.hidden && box.open"), 10, what="the Embed box open")
    component, iframe = driver.execute_script("return ['embed-script', 'embed-iframe'].map((id) => document.getElementById(id).value)")
    assert f'<script src="{server.base}/embed.js" async></script>' in component and f'game="{gid}"' in component, component
    assert f'src="{server.base}/embed.html?id={gid}"' in iframe, iframe
    site = HostSite()
    try:
        site.pages["/component.html"] = f"<!doctype html><html><head><meta charset=utf-8></head><body>{component}</body></html>"
        site.pages["/frame.html"] = f"<!doctype html><html><head><meta charset=utf-8></head><body>{iframe}</body></html>"
        driver.get(site.base + "/component.html")
        wait_until(lambda: driver.execute_script("return document.querySelector('courtside-score')?.shadowRoot?.querySelector('.home .long')?.textContent") == "Lakers", 10, what="the pasted component")
        scorer_command(server, game, {"type": "move", "id": "m1", "player": "home-0", "move": "twoPoints"})
        wait_until(lambda: driver.execute_script("return document.querySelector('courtside-score').shadowRoot.querySelector('.home .s').textContent") == "2", 5, what="the basket on the pasted component")
        driver.get(site.base + "/frame.html")
        frame = driver.find_element("css selector", "iframe")
        driver.switch_to.frame(frame)
        wait_until(lambda: shadow(driver, "board", ".home .s") == "2", 10, what="the pasted iframe's board")
        height = driver.execute_script("return Math.ceil(document.documentElement.getBoundingClientRect().height)")
        driver.switch_to.default_content()
        wait_until(lambda: frame.get_attribute("height") == str(height), 5, what=f"the pasted listener sizing the frame to {height}")
    finally:
        site.close()
