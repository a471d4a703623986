#!/usr/bin/env python3
"""The steps of benchmarks/league-memory.sh against a running `courtside serve` (docs/benchmarks.md, "Memory at
league scale"). Each step prints one JSON object on stdout.

    league_memory.py archive --port P --admin-token T --games N     # N games, each won and left to the archiver
    league_memory.py live --port P --admin-token T --pid PID --games N --spectators S

- `archive`: creates N games whose rules end at one point (custom rules, target 1), wins each with one
  `POST /api/games/{id}/commands` (`onePoint`), then waits (bounded) until `GET /api/games?status=archived` lists
  them all (the server runs with a short `--archive-after`). Commands go out from 64 loopback source addresses,
  since the server's command rate over POST is per client address (docs/server.md, "Limits").
- `live`: creates N games (a target no one reaches), reads the server's RSS before and after; then connects S
  spectators to each (WS /ws/games/{id}, from 16 source addresses: the server caps connections per address), waits
  for each one's snapshot, and reads the RSS again with all of them connected.

Loopback only, bounded in time everywhere; the connections close when the step ends.
"""

import argparse
import base64
import concurrent.futures
import http.client
import json
import os
import socket
import sys
import time

SOURCES = 64


def request(port, method, path, token=None, body=None, source=1):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(f"127.0.0.{source}", 0))
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def create_game(port, token, number, target):
    body = {"homeTeam": f"Home {number}", "homePlayers": ["Ann", "Bo", "Cy"], "awayTeam": f"Away {number}",
            "awayPlayers": ["Di", "Ed", "Flo"], "rules": {"preset": "custom", "targetScore": target, "winBy": 1}}
    status, data = request(port, "POST", "/api/games", token, body)
    if status != 201:
        raise RuntimeError(f"POST /api/games: {status} {data[:200]!r}")
    answer = json.loads(data)
    return answer["id"], answer["scorerToken"]


def win(port, game, scorer, number):
    command = {"type": "move", "id": "w1", "player": "home-0", "move": "onePoint"}
    for _ in range(20):
        status, data = request(port, "POST", f"/api/games/{game}/commands", scorer, command,
                               source=1 + number % SOURCES)
        if status == 200:
            return
        if status != 429:
            raise RuntimeError(f"POST /api/games/{game}/commands: {status} {data[:200]!r}")
        time.sleep(0.5)  # rate-limited: the address's bucket refills at its rate
    raise RuntimeError(f"POST /api/games/{game}/commands: still rate-limited")


def archived_count(port):
    status, data = request(port, "GET", "/api/games?status=archived")
    if status != 200:
        raise RuntimeError(f"GET /api/games?status=archived: {status}")
    return len(json.loads(data)["games"])


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def step_archive(args):
    started = time.monotonic()

    def one(number):
        game, scorer = create_game(args.port, args.admin_token, number, 1)
        win(args.port, game, scorer, number)

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(one, range(args.games)))
    played = time.monotonic() - started
    deadline = time.monotonic() + args.timeout
    count = archived_count(args.port)
    while count < args.games and time.monotonic() < deadline:
        time.sleep(1)
        count = archived_count(args.port)
    print(json.dumps({"step": "archive", "games": args.games, "archived": count,
                      "createAndWinSeconds": round(played, 1),
                      "archivedAfterSeconds": round(time.monotonic() - started - played, 1)}), flush=True)
    return 0 if count >= args.games else 1


def upgrade(port, path, source):
    sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(f"127.0.0.{source}", 0))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    return sock


def read_until_snapshot(sock):
    """Reads the 101 and at least the first frame's header (the snapshot), bounded by the socket's timeout."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("closed before the 101")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 101"):
        raise RuntimeError(f"upgrade refused: {head[:80]!r}")
    while len(rest) < 2:
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("closed before the snapshot")
        rest += chunk
    # Drain what else came (the rest of the snapshot), without waiting.
    sock.setblocking(False)
    try:
        while sock.recv(65536):
            pass
    except BlockingIOError:
        pass


def step_live(args):
    before = rss_kib(args.pid)
    games = [create_game(args.port, args.admin_token, number, 999)[0] for number in range(args.games)]
    time.sleep(1)
    with_games = rss_kib(args.pid)
    sockets = []
    started = time.monotonic()
    for index in range(args.games * args.spectators):
        game = games[index % args.games]
        sock = upgrade(args.port, f"/ws/games/{game}", 1 + index % 16)
        sockets.append(sock)
        # Read in batches, so the kernel's buffers never hold more than a batch's snapshots.
        if len(sockets) % 256 == 0:
            for pending in sockets[-256:]:
                read_until_snapshot(pending)
    for pending in sockets[len(sockets) - len(sockets) % 256:]:
        read_until_snapshot(pending)
    connected = time.monotonic() - started
    time.sleep(2)
    with_spectators = rss_kib(args.pid)
    print(json.dumps({"step": "live", "games": args.games, "spectatorsPerGame": args.spectators,
                      "rssBeforeKiB": before, "rssWithGamesKiB": with_games, "rssWithSpectatorsKiB": with_spectators,
                      "perGameNoSpectatorsKiB": round((with_games - before) / args.games, 2),
                      "perLiveGameWithSpectatorsKiB": round((with_spectators - before) / args.games, 2),
                      "connectSeconds": round(connected, 1)}), flush=True)
    for sock in sockets:
        sock.close()
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=["archive", "live"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--admin-token", required=True)
    parser.add_argument("--pid", type=int)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--spectators", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=120, help="seconds to wait for the archiver")
    args = parser.parse_args()
    return step_archive(args) if args.step == "archive" else step_live(args)


if __name__ == "__main__":
    sys.exit(main())
