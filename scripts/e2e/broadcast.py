#!/usr/bin/env python3
"""End-to-end test of a running `courtside serve` with a WebSocket client nobody here wrote (PyPI `websockets`).

Creates a game over HTTP, connects 50 spectators (half with permessage-deflate), plays a whole game as the scorer,
and checks that every spectator's document, after applying its patches, equals GET /api/games/{id} with no gap in
sequence numbers, and that a spectator that tries to score is refused and changes nothing (ISSUE5, "Done when").

Usage: broadcast.py --url http://127.0.0.1:PORT --admin-token TOKEN
"""
import argparse
import asyncio
import json
import sys
import urllib.request

import websockets

SPECTATORS = int(__import__("os").environ.get("E2E_SPECTATORS", "50"))


def http(method, url, token=None, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.loads(response.read())


def apply_patch(document, ops):
    """RFC 6902 add/remove/replace, as the server uses them."""
    for op in ops:
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in op["path"].split("/")[1:]]
        parent = document
        for token in tokens[:-1]:
            parent = parent[int(token)] if isinstance(parent, list) else parent[token]
        last = tokens[-1]
        if isinstance(parent, list):
            index = int(last)
            if op["op"] == "add":
                parent.insert(index, op["value"])
            elif op["op"] == "remove":
                del parent[index]
            else:
                parent[index] = op["value"]
        elif op["op"] == "remove":
            del parent[last]
        else:
            parent[last] = op["value"]


class Spectator:
    def __init__(self, index, url):
        self.index = index
        self.url = url
        self.seq = None
        self.state = None
        self.snapshots = 0
        self.deflate = index % 2 == 0

    async def connect(self):
        compression = "deflate" if self.deflate else None
        self.socket = await websockets.connect(self.url, compression=compression, max_size=2**22)
        negotiated = [type(e).__name__ for e in self.socket.protocol.extensions]
        if self.deflate != bool(negotiated):
            raise AssertionError(f"spectator {self.index}: deflate asked {self.deflate}, negotiated {negotiated}")
        await self.take(json.loads(await self.socket.recv()))

    async def take(self, message):
        if message["type"] == "snapshot":
            self.state, self.seq = message["state"], message["seq"]
            self.snapshots += 1
        elif message["type"] == "patch":
            if message["seq"] <= self.seq:
                return
            if message["seq"] != self.seq + 1:
                raise AssertionError(f"spectator {self.index}: gap {self.seq} -> {message['seq']}")
            apply_patch(self.state, message["ops"])
            self.seq = message["seq"]
        else:
            raise AssertionError(f"spectator {self.index}: unexpected {message}")

    async def follow_until(self, seq):
        while self.seq < seq:
            await self.take(json.loads(await asyncio.wait_for(self.socket.recv(), 20)))


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--admin-token", required=True)
    args = parser.parse_args()
    base = args.url.rstrip("/")
    ws_base = base.replace("http://", "ws://").replace("https://", "wss://")

    status, created = http("POST", f"{base}/api/games", args.admin_token, {
        "homeTeam": "Lakers", "homePlayers": ["Ann", "Bo", "Cy"],
        "awayTeam": "Celtics", "awayPlayers": ["Di", "Ed", "Flo"], "rules": {"preset": "pickup"},
    })
    assert status == 201, status
    game, token = created["id"], created["scorerToken"]

    spectators = [Spectator(i, f"{ws_base}/ws/games/{game}") for i in range(SPECTATORS)]
    await asyncio.gather(*(s.connect() for s in spectators))

    # A spectator that tries to score is refused, and nothing changes.
    rogue = spectators[1]
    await rogue.socket.send(json.dumps({"type": "move", "id": "rogue-1", "player": "home-0", "move": "twoPoints"}))
    answer = json.loads(await asyncio.wait_for(rogue.socket.recv(), 10))
    assert answer["type"] == "error" and answer["code"] == "read_only", answer
    _, snapshot = http("GET", f"{base}/api/games/{game}")
    assert snapshot["seq"] == 0 and snapshot["state"]["homeScore"] == 0, snapshot

    # The scorer plays a whole game: clock, moves for both teams, an undo, until the home team wins.
    scorer = await websockets.connect(f"{ws_base}/ws/games/{game}/scorer")
    await scorer.send(json.dumps({"type": "auth", "token": token}))
    assert json.loads(await scorer.recv())["type"] == "authenticated"
    commands = [{"type": "clock", "action": "start"}]
    for turn in range(9):
        commands.append({"type": "move", "player": f"home-{turn % 3}", "move": "twoPoints"})
        commands.append({"type": "move", "player": f"away-{turn % 3}", "move": ["rebound", "onePoint", "foul"][turn % 3]})
        commands.append({"type": "move", "player": f"home-{(turn + 1) % 3}", "move": "assist"})
    commands.insert(5, {"type": "undo"})
    commands.insert(9, {"type": "clock", "action": "pause"})
    commands.insert(10, {"type": "clock", "action": "start"})
    commands += [{"type": "move", "player": "home-0", "move": "twoPoints"}] * 3
    last_seq = 0
    finished = False
    for number, command in enumerate(commands):
        if finished:
            break
        await scorer.send(json.dumps({**command, "id": f"c{number}"}))
        while True:
            message = json.loads(await asyncio.wait_for(scorer.recv(), 20))
            if message["type"] == "ack":
                last_seq = message["seq"]
                break
            if message["type"] == "error":
                raise AssertionError(f"command {command}: {message}")
            if message["type"] == "patch" and message["ops"]:
                finished = finished or any(op["path"] == "/isFinished" and op["value"] for op in message["ops"])
    assert finished, "the game did not finish"
    await scorer.close()

    _, final = http("GET", f"{base}/api/games/{game}")
    assert final["seq"] == last_seq, (final["seq"], last_seq)
    await asyncio.gather(*(s.follow_until(final["seq"]) for s in spectators))
    for spectator in spectators:
        if spectator.state != final["state"]:
            raise AssertionError(f"spectator {spectator.index}: document differs from GET /api/games/{game}")
    for spectator in spectators:
        await spectator.socket.close()
    print(f"e2e: {SPECTATORS} spectators ({SPECTATORS // 2} with permessage-deflate) followed game {game} "
          f"to seq {final['seq']} ({final['state']['score']}, winner {final['state']['winner']}) without a gap")


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except AssertionError as error:
        print(f"e2e: FAILED: {error}", file=sys.stderr)
        sys.exit(1)
