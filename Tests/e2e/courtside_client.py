"""What the end-to-end programs share: HTTP calls to a Courtside server (standard library only, bounded by a
timeout), and a game document kept up to date from a snapshot and its patches, the way docs/protocol.md tells a
client to ("Documents, snapshots and patches"), recording every rule the stream breaks instead of repairing it.
"""

import asyncio
import http.client
import json
import signal
import ssl
import subprocess
import sys
import time
import urllib.parse

import jsonpatch


class HTTPResult:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return json.loads(self.body.decode("utf-8"))

    def __repr__(self):
        return f"HTTP {self.status} {self.body[:300]!r}"


# How every connection is made, for runs through a TLS proxy (scripts/ci.d/60-deploy.sh): the CA file that https
# and wss servers are verified with, and the local address connections come from. Set by `configure_transport`.
TRANSPORT = {"ca_file": None, "source_address": None}


class Failures(Exception):
    pass


class Check:
    """Collects failures; `fatal` stops the run when going on would only produce noise."""

    def __init__(self):
        self.problems = []

    def expect(self, condition, message):
        if not condition:
            self.problems.append(message)
            print(f"FAIL: {message}", file=sys.stderr, flush=True)
        return condition

    def fatal(self, condition, message):
        if not self.expect(condition, message):
            raise Failures(message)


def configure_transport(ca_file=None, source_address=None):
    TRANSPORT["ca_file"] = ca_file
    TRANSPORT["source_address"] = source_address


def tls_context():
    """Verifies the server's certificate (and name) against `--ca-file`, or the system's CAs without one."""
    return ssl.create_default_context(cafile=TRANSPORT["ca_file"])


def connection_options(url):
    """Keyword arguments for `asyncio.open_connection` and websockets' `connect` to `url` (http/https/ws/wss)."""
    options = {}
    if urllib.parse.urlsplit(url).scheme in ("https", "wss"):
        options["ssl"] = tls_context()
    if TRANSPORT["source_address"]:
        options["local_addr"] = (TRANSPORT["source_address"], 0)
    return options


def http_request(base_url, method, path, body=None, token=None, timeout=10.0, headers=None):
    """One request on a fresh connection (blocking; call through `http_call` from asyncio)."""
    parsed = urllib.parse.urlsplit(base_url)
    source = (TRANSPORT["source_address"], 0) if TRANSPORT["source_address"] else None
    if parsed.scheme == "https":
        connection = http.client.HTTPSConnection(
            parsed.hostname, parsed.port, timeout=timeout, context=tls_context(), source_address=source
        )
    else:
        connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=timeout, source_address=source)
    try:
        sent_headers = {"Connection": "close"}
        if headers:
            sent_headers.update(headers)
        payload = None
        if body is not None:
            payload = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
            sent_headers["Content-Type"] = "application/json"
        if token is not None:
            sent_headers["Authorization"] = f"Bearer {token}"
        connection.request(method, path, body=payload, headers=sent_headers)
        response = connection.getresponse()
        return HTTPResult(response.status, dict(response.getheaders()), response.read())
    finally:
        connection.close()


async def http_call(base_url, method, path, body=None, token=None, timeout=10.0, headers=None):
    """`http_request` on a worker thread, bounded by `timeout` (plus a margin for the thread itself)."""
    return await asyncio.wait_for(
        asyncio.to_thread(http_request, base_url, method, path, body, token, timeout, headers), timeout + 5
    )


def ws_url(base_url, path):
    parsed = urllib.parse.urlsplit(base_url)
    scheme = "wss" if parsed.scheme == "https" else "ws"
    return f"{scheme}://{parsed.netloc}{path}"


def game_request(home="Lakers", away="Celtics", rules=None):
    """The POST /api/games body (docs/protocol.md "Creating a game"), pickup rules unless told otherwise."""
    return {
        "homeTeam": home,
        "homePlayers": ["Ann", "Bo", "Cy"],
        "awayTeam": away,
        "awayPlayers": ["Di", "Ed", "Flo"],
        "rules": rules or {"preset": "pickup"},
    }


class FeedDocument:
    """One subscriber's copy of a game document.

    Strict about what a fresh subscriber may see: the first feed message is a snapshot, then every patch carries
    exactly the next `seq` (a gap, a repeat or a patch that does not apply is a failure, recorded in `problems`).
    A later snapshot (a resync) is allowed only forward: its `seq` is not below the document's.
    """

    def __init__(self, name, game_id, in_place=False):
        self.name = name
        self.game_id = game_id
        # in_place: patches change the document itself (jsonpatch.apply_patch_in_place), for long runs; a patch that
        # does not apply is a failure either way.
        self.apply = jsonpatch.apply_patch_in_place if in_place else jsonpatch.apply_patch
        self.state = None
        self.seq = None
        self.snapshots = 0
        self.patches = 0
        self.problems = []
        self.seq_changed = asyncio.Event()

    def take(self, message):
        """Feeds one server message; returns True when it was a snapshot or patch of this game."""
        kind = message.get("type")
        if kind not in ("snapshot", "patch"):
            return False
        if message.get("v") != 1:
            self.problems.append(f"{self.name}: {kind} without v=1: {str(message)[:200]}")
        if message.get("game") != self.game_id:
            self.problems.append(f"{self.name}: {kind} for game {message.get('game')!r}, expected {self.game_id!r}")
            return True
        seq = message.get("seq")
        if not isinstance(seq, int):
            self.problems.append(f"{self.name}: {kind} without an integer seq: {str(message)[:200]}")
            return True
        if kind == "snapshot":
            if self.seq is not None and seq < self.seq:
                self.problems.append(f"{self.name}: snapshot seq {seq} went back from {self.seq}")
            self.state = message.get("state")
            self.seq = seq
            self.snapshots += 1
        else:
            if self.seq is None:
                self.problems.append(f"{self.name}: patch seq {seq} before any snapshot")
                return True
            if seq != self.seq + 1:
                what = "gap" if seq > self.seq + 1 else "repeated or stale patch"
                self.problems.append(f"{self.name}: {what}: patch seq {seq} after seq {self.seq}")
                if seq <= self.seq:
                    return True
            try:
                self.state = self.apply(self.state, message.get("ops", []))
            except (jsonpatch.PatchError, KeyError, TypeError) as error:
                self.problems.append(f"{self.name}: patch seq {seq} does not apply: {error}")
            self.seq = seq
            self.patches += 1
        self.seq_changed.set()
        return True

    async def wait_for_seq(self, seq, timeout):
        """Until the document reaches `seq` (True) or `timeout` seconds pass (False)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.seq is None or self.seq < seq:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            self.seq_changed.clear()
            try:
                await asyncio.wait_for(self.seq_changed.wait(), remaining)
            except asyncio.TimeoutError:
                return self.seq is not None and self.seq >= seq
        return True


class EventStreamReader:
    """GET /api/games/{id}/events read as server-sent events (raw asyncio streams): every event's `data` goes into
    a FeedDocument, and its `id` must equal the message's `seq` (docs/protocol.md, "Server-sent events")."""

    def __init__(self, name, game_id, in_place=False):
        self.document = FeedDocument(name, game_id, in_place=in_place)
        self.problems = self.document.problems
        self.task = None
        self.writer = None
        # A relayed game's link state, as the last `event: source` said, and every one received.
        self.source = None
        self.sources = []
        # Called with (message, its data text) before the document takes it, when set: a resuming client checks
        # what came first, the cluster test compares the bytes every node sent.
        self.observe = None

    async def open(self, base_url, game_id, timeout=10, since=None):
        """Subscribes; with `since`, resumes after that seq as a browser's EventSource does (`Last-Event-ID`)."""
        parsed = urllib.parse.urlsplit(base_url)
        reader, self.writer = await asyncio.wait_for(
            asyncio.open_connection(parsed.hostname, parsed.port, **connection_options(base_url)), timeout
        )
        resume = f"Last-Event-ID: {since}\r\n" if since is not None else ""
        self.writer.write(
            f"GET /api/games/{game_id}/events HTTP/1.1\r\nHost: {parsed.netloc}\r\n"
            f"Accept: text/event-stream\r\n{resume}\r\n".encode()
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        status = head.split(b"\r\n", 1)[0]
        if b" 200 " not in status + b" " or b"text/event-stream" not in head.lower():
            raise ConnectionError(f"events: {head[:300]!r}")
        chunked = b"transfer-encoding: chunked" in head.lower()
        self.task = asyncio.create_task(self._read(reader, chunked))

    async def _body(self, reader, chunked):
        """The body's bytes as they come (de-chunked when needed, RFC 9112 §7.1)."""
        if not chunked:
            while True:
                data = await reader.read(65536)
                if not data:
                    return
                yield data
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size = int(size_line.split(b";")[0].strip(), 16)
            if size == 0:
                return
            data = await reader.readexactly(size + 2)
            yield data[:-2]

    async def _read(self, reader, chunked):
        pending = b""
        try:
            async for data in self._body(reader, chunked):
                pending += data
                while b"\n\n" in pending:
                    block, pending = pending.split(b"\n\n", 1)
                    self._event(block.decode("utf-8"))
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self.document.seq_changed.set()

    def _event(self, block):
        event_id, name, data = None, None, []
        for line in block.split("\n"):
            if line.startswith(":"):
                continue  # a comment (keep-alive)
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "id":
                event_id = value
            elif field == "event":
                name = value
            elif field == "data":
                data.append(value)
        if not data:
            return
        text = "\n".join(data)
        message = json.loads(text)
        if name == "source":
            # A relayed game's link state: a named event without an id, outside the numbered messages.
            if event_id is not None:
                self.problems.append(f"{self.document.name}: a source event with id {event_id!r}")
            self.source = message.get("source")
            self.sources.append(self.source)
            return
        if self.observe is not None:
            self.observe(message, text)
        if event_id != str(message.get("seq")):
            self.problems.append(f"{self.document.name}: event id {event_id!r} for a message with seq {message.get('seq')}")
        self.document.take(message)

    async def close(self):
        if self.task is not None:
            self.task.cancel()
            try:
                await asyncio.wait_for(self.task, 5)
            except (asyncio.CancelledError, asyncio.TimeoutError):
                pass
        if self.writer is not None:
            self.writer.close()


class ServerProcess:
    """`courtside serve` as a child process on 127.0.0.1:`args.port` with `args.data`, `args.public` and
    `args.admin_token`, plus `extra` arguments. Rates are lifted: these programs test durability and delivery, not
    rate limits, so a scorer may send as fast as acks come back. `kill()` is SIGKILL (nothing flushed); `stop()` is
    SIGTERM, then SIGKILL if the graceful stop takes over 15 s."""

    def __init__(self, args, log, extra=()):
        self.args = args
        self.log = log
        self.extra = list(extra)
        self.process = None
        self.url = f"http://127.0.0.1:{args.port}"

    def command(self):
        return [
            self.args.courtside, "serve", "--host", "127.0.0.1", "--port", str(self.args.port),
            "--data", self.args.data, "--public", self.args.public, "--admin-token", self.args.admin_token,
            "--command-burst", "100000", "--commands-per-second", "100000", *self.extra,
        ]

    def spawn(self):
        self.process = subprocess.Popen(self.command(), stdout=self.log, stderr=self.log, stdin=subprocess.DEVNULL)

    async def start(self):
        """Spawns the server and waits (at most 60 s) until `/healthz` answers 200."""
        self.spawn()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"courtside serve exited with status {self.process.returncode} while starting")
            try:
                if (await http_call(self.url, "GET", "/healthz", timeout=2)).status == 200:
                    return
            except (OSError, asyncio.TimeoutError):
                pass
            await asyncio.sleep(0.05)
        raise RuntimeError("courtside serve did not answer /healthz within 60 s")

    def kill(self):
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)
        self.process = None

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
        self.process = None
