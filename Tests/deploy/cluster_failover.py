#!/usr/bin/env python3
"""A game through the cluster's load balancer survives one node's death (docs/cluster.md, deploy/cluster/).

Run by scripts/ci.d/61-cluster-deploy.sh against deploy/cluster/compose.yaml started with podman-compose: `--url`
is Caddy, `--containers` the three Courtside containers (their logs say which node holds which connection; the
image has curl, so each node is asked directly with `podman exec`).

1. Waits until Caddy and every node answer /healthz, creates a game through Caddy (target 999: it never finishes).
2. A scorer (WebSocket through Caddy) sends moves one at a time, each acked; a spectator (WebSocket) and an SSE reader
   (both through Caddy) follow the game.
3. The node holding the spectator is killed (`podman kill --signal KILL`: no graceful close).
4. The spectator sees its socket drop and reconnects through Caddy with `since=N`: the first thing it gets must be
   patch N+1 or a snapshot at N or later. The SSE reader and the scorer reconnect too if they were on that node; the
   scorer re-sends every unacked command with the same CID. The scorer's next commands are acked.
5. Every acked command is in the game exactly once (per-player move counts), and the spectator's and SSE reader's
   documents equal `GET /api/games/{id}` through Caddy and on every live node.

Exits 1 naming every problem; bounded by `--timeout`. `--seed` replays the moves.
"""

import argparse
import asyncio
import collections
import json
import os
import random
import subprocess
import sys
import time

import websockets
from websockets.asyncio.client import connect

# The end-to-end programs' client and JSON Patch (Tests/e2e).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import jsonpatch  # noqa: E402
from courtside_client import EventStreamReader, FeedDocument, game_request, http_call, ws_url  # noqa: E402

MOVES = {"onePoint": "onePointMoveCount", "assist": "assistMoveCount", "rebound": "reboundMoveCount"}
PLAYERS = [f"{team}-{index}" for team in ("home", "away") for index in range(3)]


class Failed(Exception):
    """A check that makes the rest meaningless."""


def engine(args, *command, timeout=20):
    """`podman …` (bounded), its output as text: standard output and error together, as `podman logs` gives a
    container's two streams on its own two (Courtside logs on standard error)."""
    result = subprocess.run(
        [args.engine, *command], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout,
        check=False,
    )
    if result.returncode != 0:
        raise Failed(f"{args.engine} {' '.join(command)}: status {result.returncode}: {result.stdout.strip()[:300]}")
    return result.stdout


async def node_get(args, container, path):
    """GET `path` on one node from inside its container (the nodes publish no port), as (status, body)."""
    output = await asyncio.to_thread(
        engine, args, "exec", container, "curl", "-sS", "-m", "5", "-w", "\n%{http_code}",
        f"http://127.0.0.1:8080{path}",
    )
    body, _, status = output.rpartition("\n")
    if not status.isdigit():
        raise Failed(f"curl in {container} for {path}: {output[-300:]!r}")
    return int(status), body


async def wait_until_serving(args):
    """Until Caddy and every node answer /healthz with 200 (nodes start before Redis and Caddy's first probe)."""
    deadline = time.monotonic() + args.start_timeout
    waiting = {"caddy"} | set(args.containers)
    while waiting:
        for name in sorted(waiting):
            try:
                if name == "caddy":
                    status = (await http_call(args.url, "GET", "/healthz", timeout=3)).status
                else:
                    status, _ = await node_get(args, name, "/healthz")
            except (OSError, asyncio.TimeoutError, Failed, subprocess.TimeoutExpired):
                status = None
            if status == 200:
                waiting.discard(name)
        if not waiting:
            return
        if time.monotonic() > deadline:
            raise Failed(f"not serving within {args.start_timeout} s: {', '.join(sorted(waiting))}")
        await asyncio.sleep(0.5)


def nodes_of(args, path):
    """The containers whose log shows a long-lived connection to `path` (debug log, one JSON object a line)."""
    holders = []
    for container in args.containers:
        for line in engine(args, "logs", container).splitlines():
            if '"long-lived connection"' not in line:
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if str(entry.get("path", "")).split("?")[0] == path and container not in holders:
                holders.append(container)
    return holders


class Spectator:
    """A WebSocket spectator through the balancer that reconnects with `since=N` whenever its socket drops."""

    def __init__(self, args, game_id):
        self.args = args
        self.game_id = game_id
        self.document = FeedDocument("spectator", game_id)
        self.problems = self.document.problems
        self.connections = 0
        self.resumes = []
        self.dropped = asyncio.Event()

    async def run(self, stop):
        while not stop.is_set():
            since = self.document.seq
            path = f"/ws/games/{self.game_id}" + (f"?since={since}" if since is not None else "")
            try:
                async with connect(
                    ws_url(self.args.url, path), open_timeout=10, close_timeout=2, ping_interval=None
                ) as socket:
                    self.connections += 1
                    first = True
                    async for raw in socket:
                        message = json.loads(raw)
                        if message.get("type") == "viewers":
                            continue  # a count beside the document (docs/protocol.md)
                        if first and since is not None:
                            self.check_resume(since, message)
                        first = False
                        self.document.take(message)
            except (OSError, websockets.WebSocketException, asyncio.TimeoutError):
                pass
            if not stop.is_set():
                self.dropped.set()
                await asyncio.sleep(0.2)

    def check_resume(self, since, message):
        kind, seq = message.get("type"), message.get("seq")
        self.resumes.append((since, kind, seq))
        if kind == "patch" and seq != since + 1:
            self.problems.append(f"spectator: resumed since={since}, first patch has seq {seq}")
        elif kind == "snapshot" and seq < since:
            self.problems.append(f"spectator: resumed since={since}, snapshot seq {seq} went back")
        elif kind not in ("patch", "snapshot"):
            self.problems.append(f"spectator: resumed since={since}, first message {str(message)[:200]}")


class Scorer:
    """Sends moves one at a time through the balancer; after a dropped socket it reconnects and re-sends the
    unacked command with the same CID, so each command is applied exactly once however often it is sent."""

    def __init__(self, args, game_id, token, rng):
        self.args = args
        self.url = ws_url(args.url, f"/ws/games/{game_id}/scorer")
        self.token = token
        self.rng = rng
        self.socket = None
        self.connections = 0
        self.acks = {}  # cid -> ack message
        self.commands = {}  # cid -> command
        self.resent = 0
        self.problems = []

    async def ensure_connected(self):
        if self.socket is not None:
            return
        self.socket = await connect(
            self.url, open_timeout=10, close_timeout=2, ping_interval=None,
            additional_headers={"Authorization": f"Bearer {self.token}"},
        )
        self.connections += 1

    async def answer_to(self, cid, timeout):
        """The ack or error for `cid`, skipping the feed (authenticated, snapshot, patches)."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise asyncio.TimeoutError
            message = json.loads(await asyncio.wait_for(self.socket.recv(), remaining))
            if message.get("type") in ("ack", "error") and message.get("id") == cid:
                return message

    async def send(self, deadline):
        """One new move, until acked (re-sent on a new connection when the old one drops) or `deadline`."""
        cid = f"deploy-{len(self.commands) + 1}"
        command = {"type": "move", "id": cid, "player": self.rng.choice(PLAYERS), "move": self.rng.choice(list(MOVES))}
        self.commands[cid] = command
        attempts = 0
        while time.monotonic() < deadline:
            try:
                await self.ensure_connected()
                attempts += 1
                if attempts > 1:
                    self.resent += 1
                await self.socket.send(json.dumps(command))
                answer = await self.answer_to(cid, max(0.1, min(10, deadline - time.monotonic())))
            except (OSError, websockets.WebSocketException, asyncio.TimeoutError):
                await self.close()
                await asyncio.sleep(0.2)
                continue
            if answer.get("type") == "ack":
                self.acks[cid] = answer
                return answer
            if answer.get("code") == "unavailable":
                await asyncio.sleep(0.2)  # not stored: the same CID again
                continue
            raise Failed(f"scorer: {cid} refused: {answer}")
        raise Failed(f"scorer: {cid} not acked in time ({attempts} attempts)")

    async def close(self):
        if self.socket is not None:
            try:
                await asyncio.wait_for(self.socket.close(), 3)
            except (OSError, websockets.WebSocketException, asyncio.TimeoutError):
                pass
            self.socket = None


def acked_once_problems(scorer, state):
    """Each acked command of `scorer` applied exactly once in the game document `state`, by per-player move counts
    (a lost one counts low, a duplicated one high); one line per count that differs."""
    problems = []
    expected = collections.Counter((c["player"], c["move"]) for cid, c in scorer.commands.items() if cid in scorer.acks)
    state = state or {}
    players = {p["id"]: p for p in state.get("homePlayers", []) + state.get("awayPlayers", [])}
    for player in PLAYERS:
        for move, field in MOVES.items():
            have, want_count = int(players.get(player, {}).get(field, -1)), expected[(player, move)]
            if have != want_count:
                kind = "LOST acked commands" if have < want_count else "DUPLICATED commands"
                problems.append(f"{kind}: {player} {field} is {have}, {want_count} acked")
    return problems


async def create_game(args, where):
    """A game that never finishes (target 999) created with `--admin-token`, as (its id, its scorer token)."""
    created = await http_call(
        args.url, "POST", "/api/games", token=args.admin_token,
        body=game_request(rules={"preset": "custom", "targetScore": 999, "winBy": 1}),
    )
    if created.status != 201:
        raise Failed(f"POST /api/games {where}: {created}")
    return created.json()["id"], created.json()["scorerToken"]


async def play(args):
    rng = random.Random(args.seed)
    problems = []
    deadline = time.monotonic() + args.timeout
    await wait_until_serving(args)

    game_id, token = await create_game(args, "through the balancer")
    print(f"cluster-failover: game {game_id} created through the balancer")

    scorer = Scorer(args, game_id, token, rng)
    for _ in range(args.before):
        await scorer.send(deadline)
    stop = asyncio.Event()
    spectator = Spectator(args, game_id)
    watching = asyncio.create_task(spectator.run(stop))
    events = EventStreamReader("sse", game_id)
    await events.open(args.url, game_id)
    for _ in range(args.before):
        await scorer.send(deadline)
    last = max(ack["seq"] for ack in scorer.acks.values())
    for document in (spectator.document, events.document):
        if not await document.wait_for_seq(last, 15):
            raise Failed(f"{document.name} did not reach seq {last} before the kill (at {document.seq})")

    spectator_nodes = nodes_of(args, f"/ws/games/{game_id}")
    if len(spectator_nodes) != 1:
        raise Failed(f"the spectator's connection is in the log of {spectator_nodes or 'no container'} (debug log?)")
    victim = spectator_nodes[0]
    print(
        f"cluster-failover: spectator on {victim}, scorer on {nodes_of(args, f'/ws/games/{game_id}/scorer')}, "
        f"SSE on {nodes_of(args, f'/api/games/{game_id}/events')}; killing {victim} at seq {last}"
    )
    spectator.dropped.clear()
    await asyncio.to_thread(engine, args, "kill", "--signal", "KILL", victim)
    killed_at = time.monotonic()
    live = [container for container in args.containers if container != victim]

    # The game goes on: the scorer's next commands are acked (through another node when its own was killed).
    for _ in range(args.after):
        await scorer.send(deadline)
    final = max(ack["seq"] for ack in scorer.acks.values())
    print(f"cluster-failover: {args.after} more commands acked after the kill (seq {final}), "
          f"{scorer.resent} re-sent, scorer connections {scorer.connections}")
    if not spectator.dropped.is_set():
        problems.append(f"the spectator's socket on {victim} did not drop when {victim} was killed")

    # The event stream, if its node was the one killed, resumes like a browser's EventSource (Last-Event-ID).
    readers = [events]
    if events.task is not None and events.task.done():
        resumed = EventStreamReader("sse (resumed)", game_id)
        resumed.document.state, resumed.document.seq = events.document.state, events.document.seq
        await resumed.open(args.url, game_id, since=events.document.seq)
        readers.append(resumed)
    # Every follower catches up through a live node.
    for document in (spectator.document, readers[-1].document):
        if not await document.wait_for_seq(final, max(1, min(30, deadline - time.monotonic()))):
            problems.append(f"{document.name} stuck at seq {document.seq}, expected {final}")
    recovered = time.monotonic() - killed_at
    events_document = readers[-1].document
    stop.set()
    watching.cancel()
    for reader in readers:
        await reader.close()
        problems.extend(reader.problems)
    await scorer.close()
    problems.extend(spectator.problems)
    problems.extend(scorer.problems)
    print(f"cluster-failover: spectator connections {spectator.connections}, resumes {spectator.resumes}; "
          f"SSE connections {len(readers)}; followers in step {recovered:.1f} s after the kill")

    # One document everywhere: through Caddy (a few times, so more than one node answers) and on each live node.
    want = jsonpatch.canonical(spectator.document.state)
    answers = []
    for _ in range(3):
        result = await http_call(args.url, "GET", f"/api/games/{game_id}")
        answers.append(("caddy", result.status, result.body.decode("utf-8", "replace")))
    for container in live:
        status, body = await node_get(args, container, f"/api/games/{game_id}")
        answers.append((container, status, body))
    for where, status, body in answers:
        if status != 200:
            problems.append(f"GET /api/games/{game_id} on {where}: {status} {body[:200]}")
            continue
        snapshot = json.loads(body)
        if snapshot.get("seq") != final:
            problems.append(f"GET /api/games/{game_id} on {where}: seq {snapshot.get('seq')}, expected {final}")
        if jsonpatch.canonical(snapshot.get("state")) != want:
            problems.append(
                f"GET /api/games/{game_id} on {where} differs from the spectator's document: "
                f"{jsonpatch.first_difference(spectator.document.state, snapshot.get('state'))}"
            )
    if jsonpatch.canonical(events_document.state) != want:
        problems.append("the SSE reader's document differs from the spectator's")

    # Every acked command exactly once.
    problems.extend(acked_once_problems(scorer, spectator.document.state))
    return problems, len(scorer.acks)


def run_checks(name, play, args):
    """Runs `play(args)` (returning its problems and the number of acked commands) with the seed printed; exits 1
    naming every problem, or a check or connection that failed outright. Returns the number acked."""
    print(f"{name}: seed {args.seed}")
    jsonpatch.self_test()
    try:
        problems, acked = asyncio.run(play(args))
    except Failed as failure:
        problems, acked = [str(failure)], 0
    except (OSError, asyncio.TimeoutError, subprocess.TimeoutExpired, websockets.WebSocketException) as error:
        problems, acked = [f"{type(error).__name__}: {error}"], 0
    if problems:
        for problem in problems:
            print(f"{name}: FAILED: {problem}", file=sys.stderr)
        sys.exit(1)
    return acked


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the balancer, e.g. http://127.0.0.1:8080")
    parser.add_argument("--admin-token", required=True)
    parser.add_argument("--containers", required=True, help="the Courtside containers, comma-separated")
    parser.add_argument("--engine", default="podman")
    parser.add_argument("--before", type=int, default=5, help="commands before and after the spectator joins")
    parser.add_argument("--after", type=int, default=10, help="commands after the kill")
    parser.add_argument("--start-timeout", type=float, default=90)
    parser.add_argument("--timeout", type=float, default=120, help="the whole game, after the stack serves")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    args.containers = [name for name in args.containers.split(",") if name]
    if args.seed is None:
        args.seed = random.randrange(1 << 30)
    acked = run_checks("cluster-failover", play, args)
    print(f"cluster-failover: passed ({acked} commands acked, each once; one document on every live node)")


if __name__ == "__main__":
    main()
