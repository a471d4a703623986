"""Helpers for the browser tests: a `courtside serve` process, a cuttable TCP proxy, Chromium drivers.

Every wait here is bounded; every socket is on loopback.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT_S = 20.0  # a debug build opening its journal on a loaded 2-core machine
STOP_TIMEOUT_S = 10.0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Fatal(Exception):
    """Raised by a wait_until predicate when waiting longer cannot help."""


def wait_until(predicate, timeout, interval=0.02, what="condition"):
    """Polls predicate until it returns a truthy value; raises AssertionError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = predicate()
            if value:
                return value
        except Fatal:
            raise
        except Exception as error:  # a page mid-navigation, a stale element
            last_error = error
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}" + (f" (last error: {last_error})" if last_error else ""))
        time.sleep(interval)


class CourtsideServer:
    """A real `courtside serve` on a free loopback port (COURTSIDE_BIN, default .build/debug/courtside)."""

    def __init__(self, data_dir, admin_token, port=None, extra_args=()):
        self.extra_args = list(extra_args)
        self.data_dir = Path(data_dir)
        self.admin_token = admin_token
        self.port = port or free_port()
        self.process = None
        self.log_path = self.data_dir.parent / "server.log"

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def command(self):
        public = str(ROOT / "Public")
        binary = os.environ.get("COURTSIDE_BIN") or str(ROOT / ".build" / "debug" / "courtside")
        return [binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--data", str(self.data_dir), "--public", public, "--admin-token", self.admin_token] + self.extra_args

    def start(self):
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=False)  # same process group: a CI timeout kills it too
        log.close()
        def healthy():
            if self.process.poll() is not None:
                raise Fatal(f"courtside exited with {self.process.returncode}; log: {self.log_tail()}")
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1) as r:
                    return r.status == 200
            except (urllib.error.URLError, ConnectionError, OSError):
                return False
        try:
            wait_until(healthy, STARTUP_TIMEOUT_S, interval=0.1, what="courtside /healthz")
        except AssertionError:
            raise AssertionError(f"courtside did not become healthy; log: {self.log_tail()}")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(STOP_TIMEOUT_S)
        self.process = None

    def log_tail(self, n=3000):
        try:
            return self.log_path.read_bytes()[-n:].decode(errors="replace")
        except OSError:
            return "(no log)"

    def request(self, method, path, body=None, token=None, timeout=5):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                return e.code, json.loads(raw or b"null")
            except ValueError:
                return e.code, raw.decode(errors="replace")

    def create_game(self, home="Lakers", home_players=("Ann", "Bo", "Cy"), away="Celtics", away_players=("Di", "Ed", "Flo"), preset="fiba3x3", rules=None):
        body = {"homeTeam": home, "homePlayers": list(home_players), "awayTeam": away, "awayPlayers": list(away_players), "rules": rules or {"preset": preset}}
        status, answer = self.request("POST", "/api/games", body, token=self.admin_token)
        assert status == 201, f"create game: {status} {answer}"
        return answer

    def snapshot(self, game_id):
        status, answer = self.request("GET", f"/api/games/{game_id}")
        assert status == 200, f"GET /api/games/{game_id}: {status} {answer}"
        return answer


class CuttableProxy:
    """A TCP forwarder on loopback: `cut()` drops every connection through it and refuses new ones until
    `restore()`, so one page loses its connection while the server and the other pages carry on."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.pairs = []
        self.request_lines = []
        self.cut_now = False
        self.running = True
        self.thread = threading.Thread(target=self.accept_loop, daemon=True)
        self.thread.start()

    def accept_loop(self):
        while self.running:
            try:
                client, _ = self.listener.accept()
            except (socket.timeout, OSError):
                continue
            with self.lock:
                if self.cut_now:
                    client.close()
                    continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=2)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, upstream))
            threading.Thread(target=self.pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self.pump, args=(upstream, client, False), daemon=True).start()

    def pump(self, source, sink, from_client):
        first = from_client
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if first:
                    first = False
                    with self.lock:
                        self.request_lines.append(data.split(b"\r\n", 1)[0].decode("latin-1"))
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self):
        with self.lock:
            self.cut_now = True
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for s in pair:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()
                except OSError:
                    pass

    def restore(self):
        with self.lock:
            self.cut_now = False

    def close(self):
        self.running = False
        self.cut()
        self.listener.close()


def create_game(server, body):
    """`POST /api/games` with the admin token; the created game (its `id` and `scorerToken`)."""
    status, answer = server.request("POST", "/api/games", body, token=server.admin_token)
    assert status == 201, f"create game: {status} {answer}"
    return answer


def scorer_command(server, game, body):
    """One command through `POST /api/games/{id}/commands` with the game's scorer token; its ack."""
    status, answer = server.request("POST", f"/api/games/{game['id']}/commands", body, token=game["scorerToken"])
    assert status == 200 and answer["type"] == "ack", f"command: {status} {answer}"
    return answer


def chromium_paths():
    binary = next((p for p in ("/usr/lib/chromium/chromium", shutil.which("chromium"), shutil.which("chromium-browser")) if p and os.path.exists(p)), None)
    driver = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
    return binary, driver


def make_driver(width=1280, height=900):
    binary, driver_path = chromium_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-extensions", "--no-first-run", "--mute-audio", "--disable-background-networking", "--disable-renderer-backgrounding", "--disable-background-timer-throttling", f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=driver_path)
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(15)
    driver.set_script_timeout(10)
    return driver


def set_viewport(driver, width, height, mobile=False):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def console_errors(driver, allowed=()):
    """The page's console entries at SEVERE level since the last call, minus those matching `allowed` substrings."""
    entries = driver.get_log("browser")
    return [e for e in entries if e.get("level") == "SEVERE" and not any(a in e.get("message", "") for a in allowed)]


# Nothing clipped (docs/i18n.md, "The pseudo-locale"): for every visible element with text of its own, in the page
# and in each <courtside-score>'s shadow root, the text measured (a Range over its own text nodes, so a word longer
# than its box counts) lies inside the element, and the element and its text lie inside each container above it, up
# to the first that scrolls (whose content stays reachable); nothing outside the test's viewport, and the page itself
# does not scroll sideways. Elements inside a closed <details> are not shown, so not measured: open them first
# (`open_every_details`) to measure what a reader can open.
CLIPPED = r"""
// The test's viewport width (a mobile layout viewport grows to fit content that overflows it, so innerWidth would hide
// the very overflow this looks for).
const width = arguments[0];
const offenders = [];
if (document.documentElement.scrollWidth > width + 1) offenders.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + width);
const roots = [document];
for (const host of document.querySelectorAll('courtside-score')) if (host.shadowRoot) roots.push(host.shadowRoot);
const parentOf = (node) => node.parentElement ?? node.getRootNode().host ?? null;
const scrolls = (node) => node !== document.documentElement && node !== document.body && ['auto', 'scroll'].includes(getComputedStyle(node).overflowX);
const ownText = (node) => [...node.childNodes].filter((c) => c.nodeType === 3 && c.textContent.trim() !== '');
const name = (node) => node.tagName + (node.id ? '#' + node.id : '') + (typeof node.className === 'string' && node.className ? '.' + node.className.trim().split(/\s+/).join('.') : '');
for (const root of roots) {
  for (const node of root.querySelectorAll('*')) {
    const texts = ownText(node);
    if (texts.length === 0 || ['SCRIPT', 'STYLE', 'TITLE', 'OPTION', 'TEXTAREA'].includes(node.tagName)) continue;
    const box = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    if (box.width <= 1 || box.height <= 1 || !node.checkVisibility({ visibilityProperty: true })) continue;
    const what = name(node) + ' "' + node.textContent.trim().slice(0, 30) + '"';
    // The text itself, measured: a word longer than its box runs out of it even when the box fits.
    const range = document.createRange();
    let text = null;
    for (const t of texts) {
      range.selectNodeContents(t);
      for (const r of range.getClientRects()) {
        if (r.width === 0) continue;
        text = text ? { left: Math.min(text.left, r.left), right: Math.max(text.right, r.right), top: Math.min(text.top, r.top), bottom: Math.max(text.bottom, r.bottom) } : { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }
    }
    if (!text) continue;
    if (style.display !== 'inline' && (text.right > box.right + 1 || text.left < box.left - 1)) offenders.push(what + ': its text runs out of it (' + Math.round(text.left) + '..' + Math.round(text.right) + ' in ' + Math.round(box.left) + '..' + Math.round(box.right) + ')');
    if (node.scrollWidth > node.clientWidth + 1 && style.overflowX !== 'visible' && style.display !== 'inline' && !scrolls(node)) offenders.push(what + ': cut inside itself ' + node.scrollWidth + ' > ' + node.clientWidth);
    // Its container, and every one above it up to the first that scrolls (whose content stays reachable): the
    // element and its text inside each one's bounds.
    const extent = { left: Math.min(box.left, text.left), right: Math.max(box.right, text.right), bottom: Math.max(box.bottom, text.bottom) };
    let reachable = false;
    for (let p = parentOf(node); p && p !== document.documentElement; p = parentOf(p)) {
      if (scrolls(p)) { reachable = true; break; }
      const s = getComputedStyle(p);
      if (s.display === 'inline' || s.display === 'contents' || s.position === 'fixed' && p === node) continue;
      const q = p.getBoundingClientRect();
      const clips = s.overflowX !== 'visible' || s.overflowY !== 'visible';
      if (extent.right > q.right + 1 || extent.left < q.left - 1 || (clips && extent.bottom > q.bottom + 1)) {
        offenders.push(what + ': past its container ' + name(p) + ' (' + Math.round(extent.left) + '..' + Math.round(extent.right) + ' in ' + Math.round(q.left) + '..' + Math.round(q.right) + ')' + (clips ? ', which cuts it' : ''));
        break;
      }
    }
    if (!reachable && (extent.right > width + 1 || extent.left < -1)) offenders.push(what + ': off screen ' + Math.round(extent.left) + '..' + Math.round(extent.right));
  }
}
return offenders;
"""


def clipped(driver, width):
    """What `CLIPPED` finds on the current page, laid out `width` CSS pixels wide: a list of sentences, [] when nothing."""
    return driver.execute_script(CLIPPED, width)


def open_every_details(driver):
    """Opens every <details> on the page (the scorer's shortcut list, the lobby's form, the embed offer …)."""
    driver.execute_script("for (const d of document.querySelectorAll('details')) d.open = true")
