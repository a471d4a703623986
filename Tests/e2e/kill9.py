#!/usr/bin/env python3
"""kill -9 test of a Courtside server's durability (docs/server.md, "Durability: acks after the disk").

Runs `courtside serve` itself on one data directory and port, creates a game (custom rules, target 999, so it never
finishes), then for `--rounds` rounds:
- starts the server (after the first round, on the same data directory and port);
- a scorer (PyPI websockets) first retries, with the SAME CIDs, every command that had no answer when the server
  died, and re-sends a few already-acked CIDs (each must be answered with its original ack, even across restarts);
  then sends new commands continuously, each with a fresh CID, several in flight;
- a spectator resumes with `since=N`, N the last seq it saw (from the previous process, possibly a patch that never
  reached the disk): the first thing it gets must be patch N+1 or a snapshot whose seq is at least N (equal only with
  the same content), and seq must never go back afterwards;
- after a random delay the server gets SIGKILL;
- and before a fifth of the restarts (`--startup-kills`), the server is also killed within 0.3 s of starting, while
  it restores the game and records its new numbering.

Commands are moves whose only effect is a count: `onePoint`, `assist`, `rebound` and `foul`, spread over the six
players. At the end the server is started once more, every unanswered command is retried until answered, and the
game's per-player counts must equal the acked commands exactly: a lost acked command shows as a count too low, a
duplicate (a command applied twice, or a retry applied again) as a count too high. The spectator's resumed document
must equal GET /api/games/{id}. Exits 1 naming every difference. `--seed` replays a run's delays and commands;
KILL9_DEBUG=1 prints every answer and the unanswered CIDs of each round; `--sabotage` shows the test failing.
"""

import argparse
import asyncio
import collections
import json
import os
import random
import sys
import time

import websockets
from websockets.asyncio.client import connect

import jsonpatch
from counted_moves import MAX_ONE_POINTS_PER_TEAM, MOVES, PLAYERS, RULES, count_problems
from courtside_client import FeedDocument, ServerProcess, game_request, http_call, ws_url


class Server(ServerProcess):
    """`courtside serve` as a child process; `kill()` is SIGKILL, with no chance to flush anything."""

    async def spawn_and_kill(self, delay):
        """Starts the server and kills it `delay` seconds later, whether or not it is serving yet (restoring games,
        recording their new numbering, binding)."""
        self.spawn()
        await asyncio.sleep(delay)
        self.kill()


class Ledger:
    """Every command sent, and what became of it."""

    def __init__(self):
        self.commands = {}  # cid -> command
        self.acks = {}  # cid -> the ack message (the first one)
        self.unanswered = []  # cids sent (or about to be re-sent) without an answer yet, in sending order
        self.refused = {}  # cid -> error message (commands that may never be applied)
        self.problems = []
        self.retries = 0
        self.retries_acked = 0
        self.reacks_checked = 0

    def expected_counts(self):
        counts = collections.Counter()
        for cid in self.acks:
            command = self.commands[cid]
            counts[(command["player"], command["move"])] += 1
        return counts


class ResumingSpectator:
    """A spectator that reconnects with since=N after every restart and checks the numbers it gets."""

    def __init__(self, game_id):
        self.document = FeedDocument("spectator", game_id)
        self.problems = self.document.problems
        self.resumes = []  # (since, what came first) per connection

    async def follow(self, url_base, game_id, stop):
        since = self.document.seq
        path = f"/ws/games/{game_id}" + (f"?since={since}" if since is not None else "")
        try:
            async with connect(ws_url(url_base, path), open_timeout=10, close_timeout=2, ping_interval=None) as socket:
                first = True
                async for raw in socket:
                    message = json.loads(raw)
                    if message.get("type") == "viewers":
                        continue  # the counted figure every 5 s (docs/protocol.md, "viewers")
                    if message.get("type") not in ("snapshot", "patch"):
                        self.problems.append(f"spectator: unexpected message {str(message)[:200]}")
                        continue
                    if first and since is not None:
                        self.check_resume(since, message)
                        first = False
                    self.document.take(message)
                    if stop.is_set():
                        return
        except (OSError, websockets.WebSocketException, asyncio.TimeoutError):
            return  # the server was killed: reconnect in the next round

    def check_resume(self, since, message):
        seq = message["seq"]
        self.resumes.append((since, message["type"], seq))
        if message["type"] == "patch":
            if seq != since + 1:
                self.problems.append(f"resume since={since}: first patch has seq {seq}, expected {since + 1}")
        elif seq < since:
            self.problems.append(f"resume since={since}: snapshot seq {seq} went back (a number seen before)")
        elif seq == since and jsonpatch.canonical(message["state"]) != jsonpatch.canonical(self.document.state):
            self.problems.append(
                f"resume since={since}: snapshot at the same seq with different content: "
                f"{jsonpatch.first_difference(self.document.state, message['state'])}"
            )


class Scorer:
    """Sends commands with a window of several in flight; an answer is matched to its command by CID."""

    def __init__(self, url_base, game_id, token, ledger, rng, window):
        self.url = ws_url(url_base, f"/ws/games/{game_id}/scorer")
        self.token = token
        self.ledger = ledger
        self.rng = rng
        self.window = window
        self.in_flight = {}  # cid -> asyncio.Future
        self.one_points = collections.Counter()
        self.counter = 0
        self.closed = False

    def new_command(self):
        self.counter += 1
        cid = f"k9-{os.getpid()}-{self.counter}"
        player = self.rng.choice(PLAYERS)
        move = self.rng.choice(MOVES)
        team = player.split("-")[0]
        if move == "onePoint":
            if self.one_points[team] >= MAX_ONE_POINTS_PER_TEAM:
                move = "rebound"
            else:
                self.one_points[team] += 1
        command = {"type": "move", "id": cid, "player": player, "move": move}
        self.ledger.commands[cid] = command
        return command

    def answered(self, message):
        ledger = self.ledger
        cid = message.get("id")
        if cid not in ledger.commands:
            if message.get("type") not in ("authenticated", "viewers"):
                ledger.problems.append(f"scorer: unexpected message {str(message)[:200]}")
            return
        future = self.in_flight.pop(cid, None)
        if os.environ.get("KILL9_DEBUG"):
            print("answer", message, file=sys.stderr)
        if message.get("type") == "ack":
            if cid in ledger.acks:
                if message != ledger.acks[cid]:
                    ledger.problems.append(f"CID {cid}: acked {ledger.acks[cid]} before, now {message}")
                else:
                    ledger.reacks_checked += 1
            else:
                ledger.acks[cid] = message
        elif message.get("type") == "error":
            code = message.get("code")
            if cid in ledger.acks:
                ledger.problems.append(f"CID {cid}: acked {ledger.acks[cid]}, a retry answered {message}")
            elif code == "unavailable":
                ledger.unanswered.append(cid)  # not applied: try again later
            else:
                ledger.problems.append(f"CID {cid}: a valid move was refused: {message}")
                ledger.refused[cid] = message
        else:
            ledger.problems.append(f"CID {cid}: unexpected answer {message}")
        if future is not None and not future.done():
            future.set_result(message)

    async def run(self, stop, new_commands=True, reacks=3):
        """Until the connection drops (the server was killed) or `stop` is set and nothing is in flight."""
        ledger = self.ledger
        # Half the connections authenticate on the upgrade, half with the first message (docs/server.md).
        header = self.rng.random() < 0.5
        self.closed = False
        retry, ledger.unanswered = ledger.unanswered, []
        sent = set()
        try:
            async with connect(
                self.url, open_timeout=10, close_timeout=2, ping_interval=None,
                additional_headers={"Authorization": f"Bearer {self.token}"} if header else None,
            ) as socket:
                reader = asyncio.create_task(self.read(socket))
                try:
                    if not header:
                        await socket.send(json.dumps({"type": "auth", "token": self.token}))
                    # Re-send acked CIDs: the original ack must come back, across restarts too.
                    for cid in self.rng.sample(sorted(ledger.acks), min(reacks, len(ledger.acks))):
                        await self.send(socket, ledger.commands[cid])
                    for cid in retry:
                        ledger.retries += 1
                        await self.send(socket, ledger.commands[cid])
                        sent.add(cid)
                    while not reader.done():
                        if stop.is_set() or not new_commands:
                            if not self.in_flight:
                                return
                            await asyncio.sleep(0.01)
                            continue
                        await self.send(socket, self.new_command())
                finally:
                    if reader.done() and not reader.cancelled() and reader.exception() is not None:
                        error = reader.exception()
                        ledger.problems.append(f"scorer: reading answers failed: {type(error).__name__}: {error}")
                    reader.cancel()
        except (OSError, websockets.WebSocketException, asyncio.TimeoutError):
            pass
        finally:
            # Whatever had no answer (or was not re-sent yet) is retried, with the same CID, after the restart.
            ledger.unanswered.extend(cid for cid in retry if cid not in sent and cid not in self.in_flight)
            for cid in list(self.in_flight):
                ledger.unanswered.append(cid)
            self.in_flight.clear()

    async def send(self, socket, command):
        while len(self.in_flight) >= self.window:
            if self.closed:
                raise ConnectionError("the scorer's connection closed")
            await asyncio.wait(list(self.in_flight.values()), return_when=asyncio.FIRST_COMPLETED, timeout=5)
        future = asyncio.get_running_loop().create_future()
        self.in_flight[command["id"]] = future
        await socket.send(json.dumps(command))

    async def read(self, socket):
        self.closed = False
        try:
            async for raw in socket:
                message = json.loads(raw)
                if message.get("type") in ("snapshot", "patch"):
                    continue
                self.answered(message)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            for future in self.in_flight.values():
                if not future.done():
                    future.set_result(None)


async def run(args):
    jsonpatch.self_test()
    rng = random.Random(args.seed)
    problems = []
    started = time.monotonic()
    with open(args.log, "ab") as log:
        server = Server(args, log)
        try:
            await server.start()
            created = await http_call(
                server.url, "POST", "/api/games", token=args.admin_token,
                body=game_request(rules=RULES),
            )
            if created.status != 201:
                return [f"POST /api/games: {created}"]
            game = created.json()
            game_id, token = game["id"], game["scorerToken"]
            ledger = Ledger()
            spectator = ResumingSpectator(game_id)
            scorer = Scorer(server.url, game_id, token, ledger, rng, args.window)
            kills = 0
            startup_kills = 0
            for round_number in range(1, args.rounds + 1):
                if round_number > 1:
                    if rng.random() < args.startup_kills:
                        await server.spawn_and_kill(rng.uniform(0.0, 0.3))
                        startup_kills += 1
                    await server.start()
                stop = asyncio.Event()
                watching = asyncio.create_task(spectator.follow(server.url, game_id, stop))
                scoring = asyncio.create_task(scorer.run(stop))
                await asyncio.sleep(rng.uniform(args.min_delay, args.max_delay))
                server.kill()
                kills += 1
                if args.sabotage and round_number == args.rounds // 2:
                    # Proves the test can fail: losing the journal's write-ahead log loses acked commands.
                    for name in os.listdir(args.data):
                        if name.endswith("-wal"):
                            os.remove(os.path.join(args.data, name))
                            print(f"sabotage: removed {name}", flush=True)
                try:
                    await asyncio.wait_for(asyncio.gather(watching, scoring), 30)
                except asyncio.TimeoutError:
                    return problems + [f"round {round_number}: the clients did not notice the kill within 30 s"]
                if os.environ.get("KILL9_DEBUG"):
                    print("unanswered", ledger.unanswered, file=sys.stderr)
                print(
                    f"round {round_number}: killed; {len(ledger.acks)} acked, {len(ledger.unanswered)} unanswered, "
                    f"spectator at seq {spectator.document.seq} ({time.monotonic() - started:.1f}s)",
                    flush=True,
                )
                if time.monotonic() - started > args.budget:
                    problems.append(f"out of time budget ({args.budget:.0f} s) after {round_number} rounds")
                    break

            # The last start: no kill. Retry until every command has an answer.
            await server.start()
            for attempt in range(20):
                if not ledger.unanswered and attempt > 0:
                    break
                stop = asyncio.Event()
                stop.set()
                await asyncio.wait_for(scorer.run(stop, new_commands=False, reacks=10 if attempt == 0 else 0), 60)
                if ledger.unanswered:
                    await asyncio.sleep(0.2)
            if ledger.unanswered:
                problems.append(f"{len(ledger.unanswered)} commands never answered: {ledger.unanswered[:5]}")

            snapshot = await http_call(server.url, "GET", f"/api/games/{game_id}")
            if snapshot.status != 200:
                return problems + [f"GET /api/games/{game_id}: {snapshot}"]
            final = snapshot.json()
            state = final["state"]
            problems.extend(count_problems(state, ledger.expected_counts()))
            if state["isFinished"]:
                problems.append("the game finished (it never should at target 999)")

            # The spectator resumes once more and must match the server.
            stop = asyncio.Event()
            watching = asyncio.create_task(spectator.follow(server.url, game_id, stop))
            reached = await spectator.document.wait_for_seq(final["seq"], 15)
            stop.set()
            server.stop()
            await asyncio.wait_for(watching, 30)
            if not reached:
                problems.append(f"spectator stuck at seq {spectator.document.seq}, server at {final['seq']}")
            elif jsonpatch.canonical(spectator.document.state) != jsonpatch.canonical(state):
                problems.append(
                    "spectator's resumed document differs from GET /api/games/{id}: "
                    + str(jsonpatch.first_difference(state, spectator.document.state))
                )
            problems.extend(ledger.problems)
            problems.extend(spectator.problems)
            patch_resumes = sum(1 for _, kind, _ in spectator.resumes if kind == "patch")
            print(
                f"{kills} kills mid-stream and {startup_kills} during start-up; {len(ledger.commands)} commands sent, {len(ledger.acks)} acked, "
                f"{ledger.retries} retries of unanswered CIDs, {ledger.reacks_checked} re-sent acked CIDs answered "
                f"with their original ack; final seq {final['seq']}; spectator resumed {len(spectator.resumes)} "
                f"times ({patch_resumes} with patches, the rest with snapshots) "
                f"({time.monotonic() - started:.1f}s)",
                flush=True,
            )
            if len(ledger.acks) < args.rounds:
                problems.append(f"only {len(ledger.acks)} commands acked in {kills} rounds: the test proved little")
            return problems
        finally:
            server.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--courtside", required=True, help="the courtside executable")
    parser.add_argument("--data", required=True, help="data directory (kept across restarts)")
    parser.add_argument("--public", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--admin-token", required=True)
    parser.add_argument("--log", required=True, help="the server's output, appended across restarts")
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--window", type=int, default=16, help="commands in flight")
    parser.add_argument("--min-delay", type=float, default=0.05, help="seconds before a kill, at least")
    parser.add_argument("--max-delay", type=float, default=1.5, help="seconds before a kill, at most")
    parser.add_argument(
        "--startup-kills", type=float, default=0.2,
        help="fraction of restarts preceded by a kill within 0.3 s of starting (while restoring)",
    )
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument(
        "--sabotage", action="store_true",
        help="remove the journal's -wal file after the middle kill: the run must then FAIL (a test of this test)",
    )
    parser.add_argument("--budget", type=float, default=150, help="seconds for all the rounds")
    args = parser.parse_args()
    if args.seed is None:
        args.seed = random.randrange(1 << 30)
    print(f"kill9: seed {args.seed} (--seed to replay the same delays and commands)", flush=True)
    try:
        problems = asyncio.run(asyncio.wait_for(run(args), args.budget + 90))
    except asyncio.TimeoutError:
        print("kill9: FAILED: the run timed out", file=sys.stderr)
        return 1
    except (OSError, RuntimeError, websockets.WebSocketException) as error:
        print(f"kill9: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    for problem in problems:
        print(f"FAIL: {problem}", file=sys.stderr)
    if problems:
        print(f"kill9: FAILED with {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print("kill9: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
