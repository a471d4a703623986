"""The game's own words in the reader's language (README, "Languages"; docs/i18n.md): a play sentence, move names,
periods and the scorer's controls in Spanish; the pages in Arabic mirrored with their scores and clocks readable;
and in the pseudo-locale x-long no visible text of a game in progress clipped (harness.CLIPPED) on the spectator page, the venue
display, the scorer panel, the lobby and the component."""

import re

from conftest import ADMIN_TOKEN
from harness import CourtsideServer, clipped, console_errors, create_game, open_every_details, scorer_command, set_viewport, wait_until
from pages import open_scorer
from selenium.webdriver.support.ui import Select

# A 5x5 game: quarters, team fouls, timeouts, the shot clock and every kind of move have words to show.
GAME = {"homeTeam": "Lakers", "homePlayers": ["Ann", "Bo", "Cy", "Dee", "Eve"], "awayTeam": "Celtics", "awayPlayers": ["Di", "Ed", "Flo", "Gus", "Hal"], "rules": {"preset": "fiba5x5"}}


def played_game(server):
    """A 5x5 game with a made three and its assist, a miss, a rebound, a foul, a team turnover and a timeout."""
    game = create_game(server, GAME)
    for number, command in enumerate(
        (
            {"type": "move", "player": "home-0", "move": "threePoints"},
            {"type": "move", "player": "home-1", "move": "assist"},
            {"type": "move", "player": "away-0", "move": "twoPointsMissed"},
            {"type": "move", "player": "home-2", "move": "defensiveRebound"},
            {"type": "move", "player": "away-1", "move": "foul"},
            {"type": "teamMove", "team": "away", "move": "turnover"},
            {"type": "timeout", "team": "home"},
        )
    ):
        scorer_command(server, game, dict(command, id=f"c{number}"))
    return game


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def wait_text(driver, css, predicate, what, timeout=10):
    wait_until(lambda: predicate(js(driver, "const n = document.querySelector(arguments[0]); return n ? n.textContent : null;", css) or ""), timeout, what=what)


def test_spanish_play_sentences_moves_and_periods(server, browsers):
    game = played_game(server)
    driver = browsers["languages"]
    set_viewport(driver, 1280, 900)
    driver.get(f"{server.base}/game.html?id={game['id']}&lang=es")
    # The play sentence: who, the move in Spanish, the assist folded in, the score after it.
    wait_text(driver, "#plays", lambda text: "Lakers · Ann: triple anotado (asistencia de Bo), 3–0" in text, "the made three in Spanish")
    plays = js(driver, "return [...document.querySelectorAll('#plays .play-text')].map((n) => n.textContent)")
    assert "Lakers · Cy: rebote defensivo" in plays, plays
    assert "Celtics · Di: tiro de 2 fallado" in plays, plays
    assert "Celtics · Ed: falta" in plays, plays
    assert not any("made" in p or "missed" in p or "rebound" in p for p in plays), plays
    # Periods and the bar's words.
    assert js(driver, "return document.querySelector('[data-period]').textContent") == "C1"
    assert js(driver, "return document.querySelector('.fiba-team.home .fouls').textContent").startswith("Faltas")
    assert js(driver, "return document.querySelector('.fiba-team.home .timeouts').textContent").startswith("Tiempos muertos")
    # The box score's headers are Spanish abbreviations with Spanish titles.
    js(driver, "document.getElementById('tab-box').click()")
    wait_until(lambda: js(driver, "return document.querySelector('[data-box=home] [data-sort=ft]')?.textContent") == "TL", 5, what="the box score in Spanish")
    assert js(driver, "return document.querySelector('[data-box=home] [data-sort=ft]').closest('th').title") == "tiros libres anotados-intentados"
    # The clock through Intl: Spanish writes tenths after a comma.
    assert re.fullmatch(r"\d\d:\d\d,\d", js(driver, "return document.querySelector('[data-clock]').textContent")), js(driver, "return document.querySelector('[data-clock]').textContent")

    # The venue display: period, team fouls label, and a play's move name in the leaders' labels.
    driver.get(f"{server.base}/display.html?id={game['id']}&lang=es")
    wait_text(driver, "[data-period]", lambda text: text == "C1", "the display's quarter in Spanish")
    assert js(driver, "return document.querySelector('[data-team-stats=home] .timeouts').textContent").startswith("TM")

    # The scorer panel: move buttons, team actions, the clock button and a screen-reader label.
    open_scorer(driver, server.base, game["id"], game["scorerToken"], lang="es")
    labels = js(driver, "return [...document.querySelectorAll('article.player[data-player=\"home-0\"] button.move .move-label')].map((n) => n.textContent)")
    assert "T3" in labels and "TL" in labels and "TAP" in labels and "T2 ✗" in labels, labels
    assert js(driver, "return document.querySelector('button.move[data-player=\"home-0\"][data-move=\"threePoints\"]').getAttribute('aria-label')") == "triple anotado para Ann (1 hasta ahora)"
    assert js(driver, "return document.querySelector('[data-team-move=turnover][data-team=away]').textContent") == "PÉR equipo"
    assert js(driver, "return document.getElementById('clock-button').textContent") == "Iniciar reloj"
    assert js(driver, "return document.getElementById('timeout-home').textContent") == "Tiempo muerto Lakers (quedan 1)"
    # A new basket is announced to screen readers in Spanish words and digits.
    scorer_command(server, game, {"type": "move", "id": "c-late", "player": "away-2", "move": "twoPoints"})
    wait_text(driver, "#plays", lambda text: "Flo: tiro de 2 anotado, 3–2" in text, "the new basket in the scorer's list")
    wait_until(lambda: js(driver, "return document.getElementById('announcer').textContent") == "Lakers 3, Celtics 2", 5, what="the announcement")


def test_spanish_shortcuts_errors_delay_and_venue(server, browsers):
    driver = browsers["languages"]
    set_viewport(driver, 1280, 900)
    fresh = create_game(server, GAME)
    open_scorer(driver, server.base, fresh["id"], fresh["scorerToken"], lang="es")
    # The keyboard shortcuts: every description, the "then" between keys, and a key's name.
    js(driver, "document.getElementById('shortcuts').open = true")
    assert js(driver, "return document.querySelector('#shortcuts > summary').textContent") == "Atajos de teclado"
    shortcuts = js(driver, "return [...document.querySelectorAll('#shortcuts dd, #shortcuts dd span, #shortcuts p[data-i18n]')].map((n) => n.textContent)")
    assert "Iniciar o pausar el reloj de juego" in shortcuts and "Deshacer la última acción" in shortcuts, shortcuts
    assert not any(re.search(r"\b(the|and|or|foul|clock|player)\b", text) for text in shortcuts), shortcuts
    assert js(driver, "return [...document.querySelectorAll('#shortcuts [data-i18n=\"shortcut.then\"]')].map((n) => n.textContent)") == ["luego"] * 4
    assert js(driver, "return document.querySelector('#shortcuts kbd[data-i18n=\"shortcut.space\"]').textContent") == "Espacio"
    # A real refusal from the server, by its code: undo with nothing to undo is answered nothing_to_undo.
    js(driver, "document.getElementById('undo-button').click()")
    wait_until(lambda: js(driver, "return document.getElementById('error').hidden ? null : document.getElementById('error-text').textContent") == "No queda ninguna acción que deshacer.", 10, what="the refusal in Spanish")
    # The token form: "Forget token" shows it, in Spanish.
    js(driver, "document.getElementById('forget-token').click()")
    assert js(driver, "return document.querySelector('#token-form p[data-i18n]').textContent").startswith("Escribe el token de anotador")
    assert js(driver, "return document.querySelector('#token-form button[type=submit]').textContent") != "Start scoring"

    # A bad ?delay= is said in the reader's words, and the game shows live.
    driver.get(f"{server.base}/game.html?id={fresh['id']}&lang=es&delay=soon")
    wait_text(driver, "#delay-badge", lambda text: text.startswith("El retardo debe ser de 0 a 120 segundos, no «soon»"), "the delay's error in Spanish")

    # The venue overview: a court with a live game and one waiting for its next.
    status, live_court = server.request("POST", "/api/courts", {"name": "Pista 1"}, token=server.admin_token)
    assert status == 201, live_court
    status, idle_court = server.request("POST", "/api/courts", {"name": "Pista 2"}, token=server.admin_token)
    assert status == 201, idle_court
    game = played_game(server)
    assert server.request("PUT", f"/api/courts/{live_court['id']}", {"game": game["id"]}, token=server.admin_token)[0] == 200
    driver.get(f"{server.base}/venue.html?lang=es")
    card = "document.querySelector(`[data-court='${arguments[0]}'] .court-status`)?.textContent"
    wait_until(lambda: js(driver, f"return {card}", live_court["id"]) == "En directo", 10, what="the live court in Spanish")
    wait_until(lambda: js(driver, "return document.querySelector(`[data-court='${arguments[0]}'] .court-score`)?.textContent", idle_court["id"]) == "Próximo partido pronto", 10, what="the idle court in Spanish")


def test_spanish_lobby_form_says_field_errors_with_their_numbers(server, browsers):
    driver = browsers["languages"]
    set_viewport(driver, 1280, 900)
    driver.get(f"{server.base}/?create=1&lang=es")
    wait_until(lambda: driver.find_elements("id", "create-form"), 5, what="the create form")
    js(driver, "document.getElementById('create-card').open = true")
    driver.find_element("id", "admin-token").clear()
    driver.find_element("id", "admin-token").send_keys(server.admin_token)
    for field, value in (("homeTeam", "Cuervos"), ("homePlayers0", "Ana"), ("homePlayers1", "Bea"), ("homePlayers2", "Cris"), ("awayTeam", "Lobos"), ("awayPlayers0", "Dani"), ("awayPlayers1", "Eli"), ("awayPlayers2", "Fran")):
        driver.find_element("id", field).send_keys(value)
    Select(driver.find_element("id", "preset")).select_by_value("fiba5x5")
    js(driver, "document.getElementById('create-button').click()")
    # Three players are too few for 5x5: the server's code with its range, said in Spanish with the numbers.
    wait_text(driver, '[data-error-for="homePlayers"]', lambda text: text == "Un equipo tiene de 5 a 12 jugadores", "the roster's size in Spanish")
    # A field whose code has no values: the team's name, emptied, in Spanish too.
    driver.find_element("id", "awayTeam").clear()
    js(driver, "document.getElementById('create-button').click()")
    wait_text(driver, '[data-error-for="awayTeam"]', lambda text: text == "Escribe el nombre del equipo", "the empty name in Spanish")
    # Chromium's network layer logs the deliberate 400s itself; the page logs nothing.
    assert console_errors(driver, allowed=("/api/games - Failed to load resource: the server responded with a status of 400",)) == []
    js(driver, "sessionStorage.clear()")
    driver.get("about:blank")


def test_spanish_join_page(browsers, tmp_path):
    # Its own server: joining is rate-limited per address, and the other suites' joins must keep their allowance.
    server = CourtsideServer(tmp_path / "data", ADMIN_TOKEN)
    server.start()
    try:
        status, court = server.request("POST", "/api/courts", {"name": "Pista 3"}, token=server.admin_token)
        assert status == 201, court
        status, shown = server.request("GET", f"/api/courts/{court['id']}/code", token=server.admin_token)
        assert status == 200, shown
        driver = browsers["languages"]
        driver.get(f"{server.base}/join.html?court={court['id']}&lang=es")
        wait_text(driver, "#queue-words", lambda text: text == "No espera nadie: seríais los siguientes.", "the queue in Spanish")
        assert js(driver, "return document.getElementById('join-button').textContent") == "Apuntarse"
        wrong = f"{(int(shown['code']) + 1) % 1_000_000:06d}"
        for field, value in (("code", wrong), ("name", "Búhos"), ("player0", "Ana"), ("player1", "Bea"), ("player2", "Cris")):
            driver.find_element("id", field).send_keys(value)
        driver.find_element("id", "join-button").click()
        # The server answers 403 wrong_join_code; the page says it in Spanish.
        wait_text(driver, "#form-error", lambda text: text == "Ese no es el código de la pantalla de la pista (cambia cada 10 minutos).", "the wrong code in Spanish")
        driver.find_element("id", "code").clear()
        driver.find_element("id", "code").send_keys(shown["code"])
        driver.find_element("id", "join-button").click()
        wait_text(driver, "#joined", lambda text: text == "Búhos está en la cola, número 1. Mirad la pantalla de la pista para ver vuestro turno.", "joined, in Spanish")
        # A court that does not exist.
        driver.get(f"{server.base}/join.html?court=no-such-court&lang=es")
        wait_text(driver, "#form-error", lambda text: text == "Aquí no hay ninguna pista «no-such-court»", "the missing court in Spanish")
        assert console_errors(driver, allowed=("no-such-court", "/queue")) == []
    finally:
        browsers["languages"].get("about:blank")
        server.stop()


def test_arabic_pages_mirror_with_readable_scores(server, browsers):
    game = played_game(server)
    driver = browsers["languages"]
    set_viewport(driver, 1280, 900)

    def mirrored(what, home_css, away_css):
        assert js(driver, "return [document.documentElement.dir, document.documentElement.lang]") == ["rtl", "ar"], what
        home, away = js(driver, "return [arguments[0], arguments[1]].map((s) => { const r = document.querySelector(s).getBoundingClientRect(); return r.left + r.width / 2; })", home_css, away_css)
        assert home > away, f"{what}: home ({home}) should be right of away ({away}) in a right-to-left page"

    def readable(what, css, expected):
        node = "document.querySelector(arguments[0])"
        assert js(driver, f"return {node}.textContent", css) == expected, what
        # Isolated from the words around it, left-to-right inside, and whole.
        assert js(driver, f"const s = getComputedStyle({node}); return [s.unicodeBidi, s.direction]", css) == ["isolate", "ltr"], what
        assert js(driver, f"const n = {node}; return n.scrollWidth <= n.clientWidth + 1", css), what

    # The spectator page: the board, the period bar and the play-by-play mirror; the words are Arabic.
    driver.get(f"{server.base}/game.html?id={game['id']}&lang=ar")
    wait_text(driver, "#home-score", lambda text: text == "3", "the score")
    mirrored("spectator board", ".scoreboard .team.home", ".scoreboard .team.away")
    mirrored("spectator bar", ".fiba-team.home", ".fiba-team.away")
    readable("spectator home score", "#home-score", "3")
    readable("spectator clock", ".scoreboard [data-clock]", "00:00.0")
    assert js(driver, "return document.querySelector('[data-period]').textContent") == "ر1"
    wait_text(driver, "#plays", lambda text: "Ann: رمية ثلاثية ناجحة (تمريرة حاسمة من Bo)، 3–0" in text, "the play in Arabic")
    # The feed's text starts at the right edge: the list mirrors too.
    right, left = js(driver, "const r = document.querySelector('#plays .play-when').getBoundingClientRect(), t = document.querySelector('#plays .play-text').getBoundingClientRect(); return [r.left, t.left];")
    assert right > left, "the play's time should come first, on the right"

    # The venue display: the sides mirror, scores and clock stay whole digits.
    driver.get(f"{server.base}/display.html?id={game['id']}&lang=ar")
    wait_text(driver, "#home-score", lambda text: text == "3", "the display's score")
    mirrored("display", ".side.home", ".side.away")
    readable("display home score", "#home-score", "3")
    readable("display away score", "#away-score", "0")
    assert re.fullmatch(r"\d\d:\d\d", js(driver, "return document.querySelector('.centre .clock').textContent")), "the countdown in Latin digits"

    # The lobby: the bar's brand on the right, each card's home team on the right.
    driver.get(f"{server.base}/?lang=ar")
    wait_until(lambda: js(driver, "return document.querySelector(`[data-game='${arguments[0]}'] .status`)?.textContent", game["id"]) == "مباشر", 10, what="the lobby's card in Arabic")
    brand, connection = js(driver, "return ['.brand', '.connection'].map((s) => document.querySelector(s).getBoundingClientRect().left)")
    assert brand > connection, "the brand should be at the right end of the bar"
    mirrored("lobby card", f"[data-game='{game['id']}'] .team.home", f"[data-game='{game['id']}'] .team.away")

    # The scorer panel: teams' cards and their moves mirror; the controls speak Arabic.
    open_scorer(driver, server.base, game["id"], game["scorerToken"], lang="ar")
    mirrored("scorer panel", ".team-players.home", ".team-players.away")
    readable("scorer home score", "#home-score", "3")
    assert js(driver, "return document.getElementById('clock-button').textContent") == "تشغيل الساعة"
    assert js(driver, "return document.querySelector('button.move[data-move=\"block\"] .move-label').textContent") == "صد"
    # Screen readers hear the new score in Arabic's words and punctuation.
    scorer_command(server, game, {"type": "move", "id": "c-ar", "player": "away-2", "move": "twoPoints"})
    wait_until(lambda: js(driver, "return document.getElementById('announcer').textContent") == "Lakers 3، Celtics 2", 5, what="the Arabic announcement")


def test_pseudo_locale_clips_nothing_in_a_game(server, browsers):
    game = played_game(server)
    driver = browsers["languages"]
    open_scorer(driver, server.base, game["id"], game["scorerToken"], lang="x-long")  # the tab keeps the token for the later visits
    pages = {
        "spectator": (f"/game.html?id={game['id']}&lang=x-long", "[data-period]"),
        "display": (f"/display.html?id={game['id']}&lang=x-long", "[data-period]"),
        "scorer": (f"/score.html?id={game['id']}&lang=x-long", "button.move .move-label"),
        "lobby": ("/?lang=x-long", f"[data-game='{game['id']}'] .status"),
        "embed": (f"/embed.html?id={game['id']}&lang=x-long&size=full", None),
    }
    for width in (1280, 360):
        set_viewport(driver, width, 900, mobile=width < 500)
        for name, (page, pseudo_css) in pages.items():
            driver.get(server.base + page)
            if pseudo_css:
                # The game's own words went through the catalog: bracketed and accented.
                wait_until(lambda: (js(driver, "return document.querySelector(arguments[0])?.textContent", pseudo_css) or "").startswith("["), 15, what=f"{name} in x-long")
            else:
                wait_until(lambda: (js(driver, "return document.getElementById('board')?.shadowRoot?.querySelector('.st')?.textContent") or "").startswith("[Lívé"), 15, what="the embed in x-long")
            if name == "spectator":
                texts = js(driver, "return [...document.querySelectorAll('#plays .play-text, [data-period], .fiba-team .stat, #rules')].map((n) => n.textContent)")
                assert texts and all("[" in text for text in texts), texts
            if name == "scorer":
                texts = js(driver, "return [...document.querySelectorAll('button.move .move-label, [data-team-move], #clock-button, #timeout-home, #end-period, #shortcuts [data-i18n], #token-form [data-i18n-key]')].map((n) => n.textContent)")
                assert texts and all(text.startswith("[") for text in texts), [text for text in texts if not text.startswith("[")]
            open_every_details(driver)  # the scorer's shortcut list and the lobby's form are measured open
            offenders = clipped(driver, width)
            assert offenders == [], f"{name} at {width} px: {offenders}"
