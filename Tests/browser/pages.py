"""What the tests do on each page, by the page's own markup (ids and data- attributes)."""

from selenium.webdriver.common.by import By

from harness import wait_until


def connection_state(driver):
    return driver.execute_script("return document.documentElement.dataset.connection || ''")


def wait_live(driver, timeout=10):
    wait_until(lambda: connection_state(driver) == "live", timeout, what=f"a live connection on {driver.current_url}")


def page_seq(driver):
    value = driver.execute_script("return document.documentElement.dataset.seq")
    return int(value) if value is not None else None


def page_state(driver):
    return driver.execute_script("return window.courtside && window.courtside.state")


def text(driver, css):
    return driver.find_element(By.CSS_SELECTOR, css).text


def open_spectator(driver, base, game_id):
    driver.get(f"{base}/game.html?id={game_id}")
    wait_live(driver)


def open_display(driver, base, game_id, extra=""):
    driver.get(f"{base}/display.html?id={game_id}{extra}")
    wait_live(driver)


def open_scorer(driver, base, game_id, token, lang=None):
    driver.get(f"{base}/score.html?id={game_id}" + (f"&lang={lang}" if lang else ""))
    # The page's module shows the token form or the panel once it has loaded its language's catalog: before that
    # both are hidden, and a form not shown yet is not one to skip.
    wait_until(lambda: driver.execute_script("return !document.getElementById('token-form').hidden || !document.getElementById('panel').hidden"), 10, what="the scorer page started")
    form = driver.find_element(By.ID, "token-form")
    if form.is_displayed():
        field = driver.find_element(By.ID, "token")
        field.clear()
        field.send_keys(token)
        driver.find_element(By.CSS_SELECTOR, "#token-form button[type=submit]").click()
    wait_live(driver)
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "button.move"), 5, what="the move buttons")


def press(driver, element):
    """Clicks like a user, after scrolling the element to the middle of the window: on a long scorer panel (a real
    game's controls) the sticky top bar would otherwise cover a button at the window's top edge."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def click_move(driver, player, move):
    press(driver, driver.find_element(By.CSS_SELECTOR, f'button.move[data-player="{player}"][data-move="{move}"]'))


def click_clock(driver):
    press(driver, driver.find_element(By.ID, "clock-button"))


def pending_count(driver):
    return int(driver.find_element(By.ID, "outbox").get_attribute("data-pending"))


def stored_outbox(driver, game_id):
    return driver.execute_script("return JSON.parse(localStorage.getItem(arguments[0]) || '[]')", f"courtside.outbox.{game_id}")


MOVE_COUNT = {"onePoint": "onePointMoveCount", "twoPoints": "twoPointMoveCount", "assist": "assistMoveCount", "rebound": "reboundMoveCount", "foul": "foulMoveCount"}


def player(state, player_id):
    return next(p for p in state["homePlayers"] + state["awayPlayers"] if p["id"] == player_id)
