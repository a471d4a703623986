#!/usr/bin/env python3
"""Whole batches on every node: three `courtside serve --redis` nodes publish byte-identical patches under every
`seq` of every game after two nodes were stopped while a third wrote a backlog.

Two things used to make nodes publish different patches at one `seq` (docs/redis.md, "Whole batches"): a batch
cut between two reads of the shared feed (it held one entry per event and is read 512 entries at a time), and a
node's own time-limit tick accepted as a retry of the first event of another node's two-event batch (the time
limit and a move that arrived after it). This test builds both, on loopback, in a temporary directory:

1. Debian's `redis-server` and nodes a, b and c; `--timed` games whose clocks run out while b and c are stopped
   (in groups, a group per 512 feed entries, `timeLimitMs` staggered), and `--bulk` untimed games for the backlog;
   a spectator on every node for every game, and a scorer on a for each game;
2. b and c stopped (SIGSTOP) once they show every clock running; a writes single moves until the feed holds
   512·k − 1 entries past the stop, then for group k: a is stopped across the group's limit, each game of the group
   gets a move (tied games: overtime begins, the move counts), a continues and usually performs a move before its
   own timer, storing the limit and the move as one batch, which lands on the 512-entry read boundary; about
   `--entries` feed entries in all;
3. b and c continued (SIGCONT): their overdue timers each try to store the limit alone while their feeds read the
   backlog; then every node serves every game at a's `seq` with a's document, every spectator followed without a
   gap, and every patch's bytes at every `seq` are the same on every node;
4. archiving seen everywhere: only a archives (`--archive-after 1`); a game finished on a is archived there, and b
   and c list it archived, off their lobbies and refusing commands, within a second of a.

One line per check; exits 1 on any failure. Bounded (counts, deadlines, `--total`).
"""

import asyncio
import json
import os
import secrets
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "e2e"), os.path.join(HERE, "..", "..", "scripts", "lib")]

import jsonpatch  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from cluster_clients import FeedBytes, Follower  # noqa: E402
from cluster_processes import Node, RedisProcess  # noqa: E402
from cluster_state import cluster_parser, run_checks, short  # noqa: E402
from courtside_client import game_request, http_call, ws_url  # noqa: E402

READ = 512  # entries per read of a node's feed tailer (RedisFeedTailer.Configuration.count)


class ArchivingNode(Node):
    """A node that archives a finished game a second after it finished (the other nodes keep the default 30 min)."""

    def command(self):
        return super().command() + ["--archive-after", "1"]


async def redis_command(port, password, *args, timeout=5.0):
    """One command over RESP2 (AUTH first); the reply as Python values (bytes, int, list, None); raises on an error."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    try:
        for command in (("AUTH", password), args):
            parts = [str(part).encode() if not isinstance(part, bytes) else part for part in command]
            writer.write(b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts))
        await writer.drain()

        async def value():
            line = (await reader.readuntil(b"\r\n"))[:-2]
            kind, rest = line[:1], line[1:]
            if kind == b"+":
                return rest
            if kind == b"-":
                raise RuntimeError(rest.decode())
            if kind == b":":
                return int(rest)
            if kind == b"$":
                if int(rest) < 0:
                    return None
                return (await reader.readexactly(int(rest) + 2))[:-2]
            if kind == b"*":
                return None if int(rest) < 0 else [await value() for _ in range(int(rest))]
            raise RuntimeError(f"unexpected RESP line {line[:40]!r}")

        await asyncio.wait_for(value(), timeout)
        return await asyncio.wait_for(value(), timeout)
    finally:
        writer.close()


class ScorerSocket:
    """One scorer connection on one node: `command(body)` sends and waits for its answer (ack or error)."""

    def __init__(self, url, game_id, token):
        self.url, self.game_id, self.token = url, game_id, token
        self.socket = None
        self.reader = None
        self.waiting = {}  # command id -> future of its answer

    async def open(self):
        self.socket = await connect(
            ws_url(self.url, f"/ws/games/{self.game_id}/scorer"), open_timeout=10, close_timeout=1,
            ping_interval=None, max_size=None, additional_headers={"Authorization": f"Bearer {self.token}"})
        self.reader = asyncio.create_task(self._read())

    async def _read(self):
        async for raw in self.socket:
            message = json.loads(raw)
            future = self.waiting.pop(message.get("id"), None) if message.get("type") in ("ack", "error") else None
            if future is not None and not future.done():
                future.set_result(message)

    async def send(self, body):
        """Sends `body` and returns the future of its answer."""
        future = asyncio.get_running_loop().create_future()
        self.waiting[body["id"]] = future
        await self.socket.send(json.dumps(body))
        return future

    async def command(self, body, timeout=15):
        return await asyncio.wait_for(await self.send(body), timeout)

    async def close(self):
        if self.reader is not None:
            self.reader.cancel()
        if self.socket is not None:
            await self.socket.close()


class Game:
    def __init__(self, game_id, token, group=None):
        self.id, self.token, self.group = game_id, token, group
        self.scorer = None
        self.moves = 0

    def move(self, name="rebound"):
        self.moves += 1
        return {"type": "move", "id": f"{self.id}-m{self.moves}", "player": "home-0", "move": name}


async def create(node, admin_token, rules):
    created = await http_call(node.url, "POST", "/api/games", token=admin_token, body=game_request(rules=rules),
                              timeout=10)
    if created.status != 201:
        raise RuntimeError(f"POST /api/games on {node.name}: {created}")
    body = created.json()
    return body["id"], body["scorerToken"]


async def snapshot(node, game_id):
    try:
        result = await http_call(node.url, "GET", f"/api/games/{game_id}", timeout=5)
    except (OSError, asyncio.TimeoutError):
        return None
    return result.json() if result.status == 200 else None


async def until(condition, deadline, interval=0.05):
    """Polls `condition()` (async) until true or the monotonic `deadline`; returns its last value."""
    while True:
        value = await condition()
        if value or time.monotonic() > deadline:
            return value
        await asyncio.sleep(interval)


async def archived_ids(node):
    result = await http_call(node.url, "GET", "/api/games?status=archived", timeout=5)
    return {game["id"] for game in result.json().get("games", [])} if result.status == 200 else set()


async def archiving(nodes, admin_token, checks):
    """A game finished on a (a two-pointer wins a game to 2) is archived by a's archiver; b and c, which would
    archive it only after 30 minutes, must show it archived within a second of a: off the lobby, in the archive,
    refusing commands."""
    a = nodes["a"]
    game = Game(*await create(a, admin_token, {"preset": "custom", "targetScore": 2}))
    shown = await until(lambda: all_serve(nodes, game.id), time.monotonic() + 10)
    scorer = ScorerSocket(a.url, game.id, game.token)
    await scorer.open()
    try:
        finished = await scorer.command(game.move("twoPoints"))
    finally:
        await scorer.close()

    async def archived_on(names):
        return all([game.id in await archived_ids(nodes[name]) for name in names])

    on_a = shown and finished.get("type") == "ack" and await until(
        lambda: archived_on("a"), time.monotonic() + 10)
    at = time.monotonic()
    everywhere = on_a and await until(lambda: archived_on("bc"), at + 1.0)
    seen = time.monotonic() - at
    problems = []
    for name in "bc":
        lobby = await http_call(nodes[name].url, "GET", "/api/games", timeout=5)
        if game.id in {listed["id"] for listed in lobby.json().get("games", [])}:
            problems.append(f"{name} still lists {game.id} in its lobby")
        refused = await http_call(nodes[name].url, "POST", f"/api/games/{game.id}/commands", token=game.token,
                                  body=game.move(), timeout=5)
        if refused.json().get("code") != "game_archived":
            problems.append(f"a command on {name} was answered {refused.json()}")
    checks.report("archive", everywhere and not problems,
                  f"{game.id} finished and archived on a; b and c list it archived {seen:.2f} s later, off their "
                  "lobbies, refusing commands" if everywhere and not problems else
                  short(problems or [f"archived on a: {bool(on_a)}; on b and c within 1 s: {bool(everywhere)}"]))


async def all_serve(nodes, game_id):
    for node in nodes.values():
        if await snapshot(node, game_id) is None:
            return False
    return True


async def run(args, checks):
    jsonpatch.self_test()
    password = secrets.token_hex(16)
    admin_token = f"batches-admin-{secrets.token_hex(12)}"
    redis = RedisProcess(args.work, password)
    public = os.path.join(args.work, "public")
    os.makedirs(public, exist_ok=True)
    nodes = {name: (ArchivingNode if name == "a" else Node)(name, args.courtside, args.work, admin_token,
                                                           redis.url(), public)
             for name in "abc"}
    stopped = set()
    followers, tasks, games = [], [], []
    deadline = time.monotonic() + args.total

    def pause(name):
        os.kill(nodes[name].pid, signal.SIGSTOP)
        stopped.add(name)

    def resume(name):
        os.kill(nodes[name].pid, signal.SIGCONT)
        stopped.discard(name)

    try:
        await redis.start()
        await asyncio.gather(*(node.start(deadline=60) for node in nodes.values()))
        a = nodes["a"]
        limits = [args.limit + group * args.spacing for group in range(args.groups)]
        for index in range(args.timed):
            group = index % args.groups
            rules = {"preset": "custom", "targetScore": 999, "timeLimitMs": int(limits[group] * 1000)}
            games.append(Game(*await create(a, admin_token, rules), group=group))
        bulk = [Game(*await create(a, admin_token, {"preset": "custom", "targetScore": 999}))
                for _ in range(args.bulk)]
        games += bulk
        feed_bytes = FeedBytes()
        for game in games:
            for name, node in nodes.items():
                followers.append(Follower(f"{name} spectator of {game.id}", game.id, node.url, node.url, None,
                                          feed_bytes))
        tasks = [asyncio.create_task(f.run()) for f in followers]
        for game in games:
            game.scorer = ScorerSocket(a.url, game.id, game.token)
            await game.scorer.open()
        await asyncio.wait([asyncio.create_task(f.connected.wait()) for f in followers], timeout=20)
        connected = sum(f.connected.is_set() for f in followers)
        if not checks.report("start", connected == len(followers),
                             f"redis-server :{redis.port}, nodes a, b, c; {args.timed} timed games in {args.groups} "
                             f"groups (limits {', '.join(f'{s:g}' for s in limits)} s), {args.bulk} untimed; "
                             f"{connected} of {len(followers)} spectators subscribed"):
            return checks

        # Every timed clock runs, on every node, before b and c stop.
        timed = [game for game in games if game.group is not None]
        answers = await asyncio.gather(*(game.scorer.command(
            {"type": "clock", "id": f"{game.id}-go", "action": "start"}) for game in timed))
        started = time.time()
        seqs = {game.id: answer.get("seq") for game, answer in zip(timed, answers)}

        async def clocks_everywhere():
            for node in (nodes["b"], nodes["c"]):
                for game in timed:
                    shown = await snapshot(node, game.id)
                    if shown is None or shown["seq"] < seqs[game.id]:
                        return False
            return True

        ready = all(answer.get("type") == "ack" for answer in answers) and await until(
            clocks_everywhere, time.monotonic() + 10)
        if not checks.report("clocks", ready, f"{len(timed)} clocks started on a, shown on b and c"
                             if ready else f"answers {short([str(x) for x in answers if x.get('type') != 'ack'])}"):
            return checks
        base = await redis_command(redis.port, password, "XLEN", "courtside:feed")
        pause("b")
        pause("c")
        stop_started = time.monotonic()

        async def entries():
            return await redis_command(redis.port, password, "XLEN", "courtside:feed") - base

        turn = 0

        async def write_bulk(target):
            """Single moves on the untimed games until the feed holds `target` entries past the stop."""
            nonlocal turn
            while time.monotonic() < deadline:
                remaining = target - await entries()
                if remaining <= 0:
                    return
                pending = []
                for _ in range(min(remaining, 64)):
                    game = bulk[turn % len(bulk)]
                    turn += 1
                    pending.append(await game.scorer.send(game.move()))
                for answer in await asyncio.wait_for(asyncio.gather(*pending), 20):
                    if answer.get("type") != "ack":
                        raise RuntimeError(f"a bulk move was answered {answer}")

        late = 0
        for group, limit in enumerate(limits):
            await write_bulk(READ * (group + 1) - 1)
            # a stops across the group's limit; the moves wait in its sockets and are read before its timers run.
            instant = started + limit
            await asyncio.sleep(max(0.0, instant - 0.3 - time.time()))
            pause("a")
            await asyncio.sleep(max(0.0, instant + 0.3 - time.time()))
            members = [game for game in timed if game.group == group]
            pending = [await game.scorer.send(game.move()) for game in members]
            resume("a")
            for answer in await asyncio.wait_for(asyncio.gather(*pending), 20):
                if answer.get("type") != "ack":
                    raise RuntimeError(f"a move after the limit was answered {answer}")
                late += 1
        await write_bulk(args.entries)
        backlog = await entries()
        feed = await redis_command(redis.port, password, "XRANGE", "courtside:feed", "-", "+")
        pairs = 0
        for _, fields in feed[-backlog:]:
            values = dict(zip(fields[::2], fields[1::2]))
            if values.get(b"k") == b"2" or fields.count(b"e") == 2:
                pairs += 1
        checks.report("backlog", pairs > 0,
                      f"{backlog} feed entries written by a while b and c were stopped "
                      f"({time.monotonic() - stop_started:.1f} s), {late} moves after a limit, {pairs} stored "
                      "with the limit as one two-event batch" + ("" if pairs else ": none, nothing was tested"))

        resume("b")
        resume("c")
        resumed = time.monotonic()
        target = {}
        for game in games:
            shown = await snapshot(a, game.id)
            target[game.id] = shown

        async def all_caught_up():
            for game in games:
                for node in nodes.values():
                    shown = await snapshot(node, game.id)
                    if shown is None or shown["seq"] < target[game.id]["seq"]:
                        return False
            return all(f.document.seq is not None and f.document.seq >= target[f.game_id]["seq"]
                       for f in followers)

        caught_up = await until(all_caught_up, time.monotonic() + 30, interval=0.2)
        problems = []
        for game in games:
            for name, node in nodes.items():
                shown = await snapshot(node, game.id)
                if shown is None or shown["seq"] != target[game.id]["seq"]:
                    problems.append(f"{name} serves {game.id} at seq {shown and shown['seq']}, "
                                    f"a at {target[game.id]['seq']}")
                elif jsonpatch.canonical(shown["state"]) != jsonpatch.canonical(target[game.id]["state"]):
                    problems.append(f"{name}'s {game.id} at seq {shown['seq']} differs from a's: "
                                    f"{jsonpatch.first_difference(target[game.id]['state'], shown['state'])}")
        checks.report("caught-up", caught_up and not problems,
                      f"every node serves every game at a's seq with a's document "
                      f"{time.monotonic() - resumed:.1f} s after b and c continued" if caught_up and not problems
                      else short(problems or ["not every node and spectator reached a's seq within 30 s"]))
        follower_problems = [p for f in followers for p in f.problems]
        checks.report("spectators", not follower_problems,
                      f"{len(followers)} spectators, every patch in order without a gap or a repeat"
                      if not follower_problems else short(follower_problems))
        checks.report("bytes", not feed_bytes.mismatches and feed_bytes.compared > 0,
                      f"{feed_bytes.compared} patches compared byte for byte with the first seen at their seq "
                      f"({len(feed_bytes.first)} seqs), every one equal"
                      if not feed_bytes.mismatches else short(feed_bytes.mismatches))
        await archiving(nodes, admin_token, checks)
    finally:
        for name in list(stopped):
            resume(name)
        for task in tasks:
            task.cancel()
        for game in games:
            if game.scorer is not None:
                await game.scorer.close()
        for node in nodes.values():
            node.stop(grace=10)
        redis.stop(grace=10)
    return checks


def main():
    parser = cluster_parser(__doc__, "Redis and the nodes")
    parser.add_argument("--timed", type=int, default=40, help="games whose time limit passes during the stop")
    parser.add_argument("--groups", type=int, default=4, help="groups of timed games, one per 512 feed entries")
    parser.add_argument("--bulk", type=int, default=4, help="untimed games the backlog's single moves go to")
    parser.add_argument("--entries", type=int, default=2048, help="feed entries written during the stop")
    parser.add_argument("--limit", type=float, default=6.0, help="seconds from the clocks' start to the first limit")
    parser.add_argument("--spacing", type=float, default=3.0, help="seconds between the groups' limits")
    parser.add_argument("--total", type=float, default=120, help="seconds for the whole run")
    args = parser.parse_args()
    return run_checks("batches", run, args, grace=20, replays="nothing: the run has no random choices")


if __name__ == "__main__":
    sys.exit(main())
