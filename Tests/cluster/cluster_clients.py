"""The cluster test's clients (PyPI websockets and raw asyncio streams), each keeping what it saw for the checks:

- `Ledger`: every command a scorer sent and what became of it (acked, refused, answered `unavailable`, how long
  each answer took).
- `Scorer`: sends moves with several in flight, retries with the SAME command id every command that had no answer
  (its connection dropped) or was answered `unavailable`, re-sends a few acked ids on every new connection (the
  original ack must come back, from any node), and counts a command with no answer for `answer_deadline` seconds on
  an open connection as hanging (a failure: docs/cluster.md promises `unavailable` "within a few seconds").
- `Follower`: a spectator socket that reconnects after a drop (through the balancer) with `since=N` and checks the
  first thing it gets: patch N+1, or a snapshot not behind N (no gap, no duplicate).
- `EventFollower`: the same over server-sent events (`Last-Event-ID`).
- `FeedBytes`: every node must send byte-identical patches (shapes: the originating node's encoded bytes are what
  every node publishes), so the first text seen for each seq is kept and any other text for it is a failure.
"""

import asyncio
import collections
import json
import random
import time

import websockets
from websockets.asyncio.client import connect

import jsonpatch
from counted_moves import MAX_ONE_POINTS_PER_TEAM, MOVES, PLAYERS
from courtside_client import EventStreamReader, FeedDocument, ws_url


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class FeedBytes:
    """The first text of each game's seq, and every mismatch (who sent what)."""

    def __init__(self):
        self.first = {}  # (game, seq) -> (who, text)
        self.mismatches = []
        self.compared = 0

    def record(self, who, message, text):
        if message.get("type") != "patch":
            return
        key = (message.get("game"), message.get("seq"))
        seen = self.first.get(key)
        if seen is None:
            self.first[key] = (who, text)
            return
        self.compared += 1
        if seen[1] != text and len(self.mismatches) < 5:
            self.mismatches.append(f"seq {key[1]}: {seen[0]} got {seen[1][:160]!r}, {who} got {text[:160]!r}")


class Ledger:
    def __init__(self, prefix):
        self.prefix = prefix
        self.counter = 0
        self.commands = {}  # cid -> command
        self.sent_at = {}  # cid -> monotonic time of its first send
        self.acks = {}  # cid -> the first ack
        self.refused = {}  # cid -> error message (a valid move refused: a failure)
        self.problems = []
        self.unavailable = 0
        self.answer_times = []  # seconds from a send to its answer, every answer
        self.unavailable_times = []  # the same, `unavailable` answers only
        self.reacks_checked = 0
        self.retries = 0
        self.hung = 0

    def new_command(self, rng, one_points):
        self.counter += 1
        cid = f"{self.prefix}-{self.counter}"
        player = rng.choice(PLAYERS)
        move = rng.choice(MOVES)
        team = player.split("-")[0]
        if move == "onePoint":
            if one_points[team] >= MAX_ONE_POINTS_PER_TEAM:
                move = "rebound"
            else:
                one_points[team] += 1
        command = {"type": "move", "id": cid, "player": player, "move": move}
        self.commands[cid] = command
        return command

    def expected_counts(self, cids=None):
        counts = collections.Counter()
        for cid in self.acks if cids is None else cids:
            command = self.commands[cid]
            counts[(command["player"], command["move"])] += 1
        return counts


class Scorer:
    """One scorer; `urls()` gives the base URL of each new connection (the first to a node, later ones through the
    balancer). Run it as a task; `stop` ends new commands, and `run` returns once every command has an answer."""

    def __init__(self, name, game_id, token, ledger, rng, urls, window=8, rate=30.0, answer_deadline=8.0,
                 feed_bytes=None, one_points=None, gate=None):
        self.name = name
        self.game_id = game_id
        self.token = token
        self.ledger = ledger
        self.rng = rng
        self.urls = urls
        self.window = window
        self.rate = rate
        self.answer_deadline = answer_deadline
        self.feed_bytes = feed_bytes
        self.one_points = one_points if one_points is not None else collections.Counter()
        self.queue = collections.deque()  # cids to (re)send, with the earliest time each may go
        self.first_sends = set()  # enqueued cids this scorer must send itself, even when another scorer got them acked
        self.gate = gate  # when set: an Event that holds the first commands until it is set (racing scorers)
        self.not_before = {}
        self.in_flight = {}  # cid -> monotonic send time
        self.answered = asyncio.Event()
        self.generate = True
        self.connections = 0
        self.connect_failures = 0
        self.last_error = None
        self.last_url = None

    def enqueue(self, cids):
        """Commands (already in the ledger) to send before any new one: the race's shared ids."""
        self.queue.extend(cids)
        self.first_sends.update(cids)

    def pending(self):
        return bool(self.queue) or bool(self.in_flight)

    async def run(self, stop, deadline):
        """Until `stop` is set and every command has an answer, or the monotonic `deadline`."""
        while time.monotonic() < deadline:
            if stop.is_set() and not self.pending():
                return
            url = self.urls()
            self.last_url = url
            header = {"Authorization": f"Bearer {self.token}"}
            try:
                async with connect(
                    ws_url(url, f"/ws/games/{self.game_id}/scorer"), open_timeout=5, close_timeout=1,
                    ping_interval=None, max_size=None, additional_headers=header,
                ) as socket:
                    self.connections += 1
                    reader = asyncio.create_task(self._read(socket))
                    try:
                        await self._resend_acked(socket)
                        if self.gate is not None:
                            await asyncio.wait_for(self.gate.wait(), max(0.1, deadline - time.monotonic()))
                        await self._pump(socket, reader, stop, deadline)
                    finally:
                        reader.cancel()
            except (OSError, websockets.WebSocketException, asyncio.TimeoutError) as error:
                self.connect_failures += 1
                self.last_error = f"{type(error).__name__}: {error}"
            finally:
                # Whatever had no answer is sent again, with the same id, on the next connection.
                self.queue.extendleft(reversed(list(self.in_flight)))
                self.ledger.retries += len(self.in_flight)
                self.in_flight.clear()
            await asyncio.sleep(self.rng.uniform(0.05, 0.3))

    async def _resend_acked(self, socket):
        acked = sorted(self.ledger.acks)
        for cid in self.rng.sample(acked, min(2, len(acked))):
            self.in_flight[cid] = time.monotonic()
            await socket.send(json.dumps(self.ledger.commands[cid]))

    async def _pump(self, socket, reader, stop, deadline):
        interval = 1.0 / self.rate
        while not reader.done() and time.monotonic() < deadline:
            now = time.monotonic()
            if self.in_flight:
                oldest_cid = min(self.in_flight, key=self.in_flight.get)
                waited = now - self.in_flight[oldest_cid]
                if waited > self.answer_deadline:
                    self.ledger.hung += 1
                    self.ledger.problems.append(
                        f"{self.name}: {oldest_cid} had no answer for {waited:.1f} s on an open connection "
                        f"({self.last_url}); reconnecting")
                    return
            if stop.is_set() and not self.pending():
                return
            if len(self.in_flight) >= self.window:
                await self._wait_answer(0.1)
                continue
            cid = self._next(now, stop)
            if cid is None:
                await self._wait_answer(0.05)
                continue
            self.in_flight[cid] = now
            self.ledger.sent_at.setdefault(cid, now)
            await socket.send(json.dumps(self.ledger.commands[cid]))
            await asyncio.sleep(interval)

    async def _wait_answer(self, timeout):
        self.answered.clear()
        try:
            await asyncio.wait_for(self.answered.wait(), timeout)
        except asyncio.TimeoutError:
            pass

    def _next(self, now, stop):
        for _ in range(len(self.queue)):
            cid = self.queue[0]
            if self.not_before.get(cid, 0) <= now:
                self.queue.popleft()
                if cid in self.ledger.acks and cid not in self.first_sends:
                    continue  # acked meanwhile (an answer that came after a reconnect)
                self.first_sends.discard(cid)
                return cid
            self.queue.rotate(-1)
        if stop.is_set() or not self.generate:
            return None
        return self.ledger.new_command(self.rng, self.one_points)["id"]

    async def _read(self, socket):
        try:
            async for raw in socket:
                message = json.loads(raw)
                kind = message.get("type")
                if kind in ("snapshot", "patch"):
                    if self.feed_bytes is not None:
                        self.feed_bytes.record(f"{self.name} on {self.last_url}", message, raw)
                    continue
                if kind in ("authenticated", "viewers"):
                    # "viewers" carries no seq; docs/protocol.md says clients ignore it.
                    continue
                self._answer(message)
        except websockets.ConnectionClosed:
            pass

    def _answer(self, message):
        ledger = self.ledger
        cid = message.get("id")
        if cid not in ledger.commands:
            ledger.problems.append(f"{self.name}: unexpected message {str(message)[:200]}")
            return
        sent = self.in_flight.pop(cid, None)
        now = time.monotonic()
        if sent is not None:
            ledger.answer_times.append(now - sent)
        self.answered.set()
        kind, code = message.get("type"), message.get("code")
        if kind == "ack":
            if cid in ledger.acks:
                if message != ledger.acks[cid]:
                    ledger.problems.append(f"{cid}: acked {ledger.acks[cid]} before, now {message}")
                else:
                    ledger.reacks_checked += 1
            else:
                ledger.acks[cid] = message
        elif kind == "error" and code == "unavailable":
            ledger.unavailable += 1
            if sent is not None:
                ledger.unavailable_times.append(now - sent)
            if cid in ledger.acks:
                # A re-sent acked id: Redis is down, so the node cannot look its answer up. Not a loss.
                return
            self.not_before[cid] = now + 0.3
            self.queue.append(cid)
            ledger.retries += 1
        elif kind == "error":
            if cid in ledger.acks:
                ledger.problems.append(f"{cid}: acked {ledger.acks[cid]}, a retry answered {message}")
            else:
                ledger.refused[cid] = message
                if len(ledger.problems) < 50:
                    ledger.problems.append(f"{self.name}: a valid move was refused: {message}")
        else:
            ledger.problems.append(f"{self.name}: unexpected answer {message}")


class ResumeChecks:
    """What a reconnecting subscriber got first, against what it had (docs/protocol.md, `?since=N`)."""

    def __init__(self, document, went_back=None):
        self.document = document
        self.resumes = collections.Counter()  # "patch" / "snapshot"
        # Called with (since, seq) when a resume went back: the cluster test then asks every node where it is, to
        # tell which one is behind (the balancer does not say which node it chose for an upgrade).
        self.went_back = went_back

    def check(self, since, message, where):
        """`where`: the node (or the balancer) that answered, for the failure's line."""
        seq = message.get("seq")
        problems = self.document.problems
        name = f"{self.document.name}: resume since={since} from {where}"
        if message.get("type") == "patch":
            self.resumes["patch"] += 1
            if seq != since + 1:
                problems.append(f"{name}: first patch has seq {seq}")
        else:
            self.resumes["snapshot"] += 1
            if seq < since:
                problems.append(f"{name}: snapshot seq {seq} went back")
                if self.went_back is not None:
                    self.went_back(since, seq)
            elif seq == since and jsonpatch.canonical(message["state"]) != jsonpatch.canonical(self.document.state):
                problems.append(
                    f"{name}: snapshot at the same seq with other content: "
                    f"{jsonpatch.first_difference(self.document.state, message['state'])}")


class Follower:
    """A WebSocket spectator; run as a task and cancel it to stop."""

    def __init__(self, name, game_id, first_url, later_url, compression, feed_bytes, arrivals=None, went_back=None):
        self.name = name
        self.game_id = game_id
        self.first_url = first_url
        self.later_url = later_url
        self.compression = compression
        self.feed_bytes = feed_bytes
        self.arrivals = arrivals  # when a dict: seq -> monotonic arrival time (first connection's patches)
        self.document = FeedDocument(name, game_id, in_place=True)
        self.problems = self.document.problems
        self.resume = ResumeChecks(self.document, went_back)
        self.connected = asyncio.Event()
        self.connections = 0
        self.failures = 0
        self.last_error = None
        self.deflate = None  # whether the first connection agreed permessage-deflate
        self.where = None

    async def run(self):
        url = self.first_url
        while True:
            since = self.document.seq
            path = f"/ws/games/{self.game_id}" + (f"?since={since}" if since is not None else "")
            try:
                async with connect(
                    ws_url(url, path), compression=self.compression, open_timeout=5, close_timeout=1,
                    ping_interval=None, max_size=None,
                ) as socket:
                    self.connections += 1
                    self.where = url
                    if self.deflate is None:
                        self.deflate = any(e.name == "permessage-deflate" for e in socket.protocol.extensions)
                    self.connected.set()
                    first = True
                    async for raw in socket:
                        if self._take(raw, since if first else None):
                            first = False
            except (OSError, websockets.WebSocketException, asyncio.TimeoutError) as error:
                self.failures += 1
                self.last_error = f"{type(error).__name__}: {error}"
            if self.connections == 0:
                # Never subscribed yet: keep to the node it was given (the check is about that node), backing off.
                await asyncio.sleep(min(1.0, 0.05 * 2 ** self.failures))
                continue
            # Dropped (its node was killed): reconnect through the balancer, resuming.
            url = self.later_url
            await asyncio.sleep(random.uniform(0.05, 0.3))

    def _take(self, raw, since):
        """Takes one message; False for one outside the seq stream ("viewers", ignored as docs/protocol.md says)."""
        message = json.loads(raw)
        if message.get("type") == "viewers":
            return False
        if message.get("type") not in ("snapshot", "patch"):
            self.problems.append(f"{self.name}: unexpected message {str(message)[:200]}")
            return True
        if since is not None:
            self.resume.check(since, message, self.where)
        self.feed_bytes.record(self.name, message, raw)
        if self.arrivals is not None and message.get("type") == "patch":
            self.arrivals.setdefault(message["seq"], time.monotonic())
        self.document.take(message)
        return True


class EventFollower:
    """A server-sent events reader through the balancer, resuming with `Last-Event-ID`; run as a task."""

    def __init__(self, name, game_id, url, feed_bytes):
        self.name = name
        self.reader = EventStreamReader(name, game_id, in_place=True)
        self.document = self.reader.document
        self.problems = self.reader.problems
        self.resume = ResumeChecks(self.document)
        self.game_id = game_id
        self.url = url
        self.feed_bytes = feed_bytes
        self.connected = asyncio.Event()
        self.connections = 0
        self.failures = 0
        self.last_error = None
        self._since = None
        self.reader.observe = self._observe

    def _observe(self, message, text):
        if self._since is not None:
            self.resume.check(self._since, message, "caddy")
            self._since = None
        self.feed_bytes.record(self.name, message, text)

    async def run(self):
        while True:
            since = self.document.seq
            try:
                self._since = since
                await self.reader.open(self.url, self.game_id, timeout=5, since=since)
                self.connections += 1
                self.connected.set()
                await self.reader.task
            except (OSError, ConnectionError, asyncio.TimeoutError, asyncio.IncompleteReadError) as error:
                self.failures += 1
                self.last_error = f"{type(error).__name__}: {error}"
            finally:
                if self.reader.writer is not None:
                    self.reader.writer.close()
                    self.reader.writer = None
            await asyncio.sleep(random.uniform(0.05, 0.3))
