"""The project's own abuse test (docs/server.md, "Tests"): attacks on a real `courtside serve` over loopback, each for a
few seconds, while a normal spectator reads patches, a normal scorer scores and a prober asks `/healthz` on fresh
connections ten times a second.

Attacks (each from 127.0.0.2, so the per-address cap they run into is theirs, not the normal clients'):
  ping-flood        one spectator socket sending 125-byte pings as fast as it can, never reading
  pipelining-http   one connection pipelining 400 GETs of the lobby page with a 2 KiB receive buffer, never reading
  ws-sender         one spectator socket sending tiny text frames (each earns a read_only error), never reading
  compression-bomb  scorer sockets whose first message is 15 MiB of JSON compressed to ~15 KiB, one after another
  connection-flood  thousands of plain connections (bounded by the descriptor limit), sending nothing
  name-bomb         queue joins whose names are a letter and 16,000 combining marks, from 40 addresses, while 20
                    readers fetch /api/courts: every join refused (400/413), the court's document stays small
  queue-flood       joins with the court's join code (a team in the hall) from 200 addresses 127.0.0.x, names as
                    long as the rules allow, while 20 readers fetch /api/courts: the queue stops at 32 teams (409), each
                    address at its rate (429), and the court's document stays under 32 KiB
  cross-origin-join joins as another site's page would send them (text/plain, a foreign Origin): none gets in
  next-race         a finished game on the court and 12 parallel /next calls with its scorer token, round after round:
                    each round makes exactly one game

Passes when, during every attack: the server's RSS grows by at most 16 MiB per attacking connection (and at most
64 MiB in all), every `/healthz` answers 200 (see the budget below), the spectator receives patches and the scorer acks with no
gap over a second, and the attack met the server's defence (its sends blocked, it was reset, 1009, 503).

The /healthz budget is two numbers because the machine is shared: nine probes in ten answer within 50 ms, and none
takes over 250 ms. A stalled loop (the undefended compression bomb cost 0.7-1.1 s per message) breaks both; one probe
delayed by a neighbour's burst of CPU, or queued behind thousands of SYNs in the accept backlog, breaks neither.
Every loop is bounded in count and time. Exit status 0 on success, 1 on a failed check.
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import socket
import struct
import sys
import threading
import time
import urllib.request
import zlib

import websockets

ATTACK_SECONDS = 4.0
HEALTH_BUDGET_S = 0.050  # for nine probes in ten
STALL_BUDGET_S = 0.250  # for every probe
MAX_GAP_S = 1.0
MIB = 1 << 20
RSS_PER_CONNECTION = 16 * MIB
RSS_TOTAL_CAP = 64 * MIB
ATTACKER_ADDRESS = "127.0.0.2"
# The venue's court, made by `run` before the attackers fork (they inherit it): id, display key and the admin token.
VENUE = {}
COURT_DOCUMENT_LIMIT = 32 * 1024
SAMPLE_INTERVAL_S = 0.1


# ---------------------------------------------------------------------------------------------------------------
# Measuring the server


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def probe_health(port):
    """One GET /healthz on a fresh connection: (status, seconds)."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    elapsed = time.monotonic() - start
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
    return status, elapsed


class Observations:
    """What the normal clients saw, with timestamps (monotonic seconds)."""

    def __init__(self):
        self.patches = []
        self.acks = []
        self.health = []  # (time, status, seconds)
        self.rss = []  # (time, bytes)


async def spectator(url, obs, stop):
    async with websockets.connect(url, max_size=4 * MIB) as ws:
        while not stop.is_set():
            try:
                message = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except asyncio.TimeoutError:
                continue
            if json.loads(message).get("type") == "patch":
                obs.patches.append(time.monotonic())


async def scorer(url, token, obs, stop):
    async with websockets.connect(url, max_size=4 * MIB) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        reader_done = asyncio.Event()

        async def read():
            try:
                async for message in ws:
                    if json.loads(message).get("type") == "ack":
                        obs.acks.append(time.monotonic())
            finally:
                reader_done.set()

        reader = asyncio.create_task(read())
        number = 0
        while not stop.is_set() and not reader_done.is_set():
            number += 1
            if number % 2:
                command = {"type": "move", "id": f"c{number}", "player": "home-0", "move": "twoPoints"}
            else:
                command = {"type": "undo", "id": f"c{number}"}
            await ws.send(json.dumps(command))
            await asyncio.sleep(0.1)
        reader.cancel()


async def sampler(port, pid, obs, stop):
    while not stop.is_set():
        now = time.monotonic()
        obs.rss.append((now, rss_bytes(pid)))
        try:
            status, seconds = await asyncio.to_thread(probe_health, port)
        except OSError:
            status, seconds = 0, 2.0
        obs.health.append((now, status, seconds))
        await asyncio.sleep(SAMPLE_INTERVAL_S)


# ---------------------------------------------------------------------------------------------------------------
# Attacks (each runs in a child process, blocking sockets, bounded by `deadline`)


def attacker_socket(port, receive_buffer=None):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((ATTACKER_ADDRESS, 0))
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    return sock


def masked_frame(opcode, payload, rsv1=False):
    head = bytes([0x80 | (0x40 if rsv1 else 0) | opcode])
    length = len(payload)
    if length < 126:
        head += bytes([0x80 | length])
    elif length <= 0xFFFF:
        head += bytes([0x80 | 126]) + struct.pack(">H", length)
    else:
        head += bytes([0x80 | 127]) + struct.pack(">Q", length)
    key = b"\x12\x34\x56\x78"
    masked = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
    return head + key + masked


def upgrade(sock, path, extensions=None):
    request = (
        f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    )
    if extensions:
        request += f"Sec-WebSocket-Extensions: {extensions}\r\n"
    sock.sendall((request + "\r\n").encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(1)
        if not chunk:
            raise RuntimeError("closed during the upgrade")
        data += chunk
    if not data.startswith(b"HTTP/1.1 101"):
        raise RuntimeError(f"upgrade refused: {data[:80]!r}")


def flood(sock, chunk, deadline):
    """Sends `chunk` until `deadline` without reading; returns (bytes sent, seconds since the last progress)."""
    sock.setblocking(False)
    sent = 0
    offset = 0
    last_progress = time.monotonic()
    while time.monotonic() < deadline:
        try:
            written = sock.send(chunk[offset:])
        except BlockingIOError:
            time.sleep(0.005)
            continue
        except OSError:
            break
        sent += written
        offset = (offset + written) % len(chunk)
        last_progress = time.monotonic()
    return sent, time.monotonic() - last_progress


def attack_ping_flood(port, game, deadline):
    sock = attacker_socket(port, receive_buffer=2048)
    upgrade(sock, f"/ws/games/{game}")
    chunk = masked_frame(0x9, b"p" * 125) * 500
    sent, stalled = flood(sock, chunk, deadline)
    sock.close()
    return {"connections": 1, "sent": sent, "stalled_s": round(stalled, 2), "defended": stalled >= 1.0}


def attack_ws_sender(port, game, deadline):
    sock = attacker_socket(port, receive_buffer=2048)
    upgrade(sock, f"/ws/games/{game}")
    chunk = masked_frame(0x1, b"") * 10_000
    sent, stalled = flood(sock, chunk, deadline)
    sock.close()
    return {"connections": 1, "sent": sent, "stalled_s": round(stalled, 2), "defended": stalled >= 1.0}


def attack_pipelining_http(port, game, deadline):
    sock = attacker_socket(port, receive_buffer=2048)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" * 400)
    time.sleep(max(0.0, deadline - time.monotonic()))
    # Now read: the server should have given up on us (reset after --write-timeout) well before all 400 answers.
    sock.settimeout(1)
    received = 0
    ended = False
    for _ in range(100_000):
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            ended = True
            break
        except socket.timeout:
            break
        if not chunk:
            ended = True
            break
        received += len(chunk)
    sock.close()
    return {"connections": 1, "received": received, "defended": ended}


def attack_compression_bomb(port, game, deadline):
    document = b'{"type":"auth","token":"' + b"a" * (15 * MIB) + b'"}'
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    payload = compressor.compress(document) + compressor.flush(zlib.Z_SYNC_FLUSH)
    payload = payload[:-4]  # RFC 7692 §7.2.1: the final empty block's 00 00 ff ff is removed
    frame = masked_frame(0x1, payload, rsv1=True)
    codes = []
    for _ in range(50):
        if time.monotonic() >= deadline:
            break
        sock = attacker_socket(port)
        upgrade(sock, f"/ws/games/{game}/scorer", "permessage-deflate; client_max_window_bits")
        sock.sendall(frame)
        data = b""
        code = None
        while True:
            try:
                chunk = sock.recv(4096)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            data += chunk
            if len(data) >= 4 and data[0] & 0x0F == 0x8:
                code = struct.unpack(">H", data[2:4])[0]
                break
        codes.append(code)
        sock.close()
    return {"connections": 1, "bomb_bytes": len(frame), "closes": len(codes), "defended": set(codes) == {1009}}


def attack_connection_flood(port, game, deadline):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    count = max(0, min(3000, soft - 200))
    sockets = []
    for _ in range(count):
        if time.monotonic() >= deadline - 1:
            break
        try:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind((ATTACKER_ADDRESS, 0))
            sock.settimeout(2)
            sock.connect(("127.0.0.1", port))
            sock.setblocking(False)
            sockets.append(sock)
        except OSError:
            break
    time.sleep(max(0.0, min(1.0, deadline - time.monotonic())))
    refused = 0
    for sock in sockets:
        try:
            if sock.recv(64).startswith(b"HTTP/1.1 503"):
                refused += 1
        except OSError:
            pass
    time.sleep(max(0.0, deadline - time.monotonic()))
    for sock in sockets:
        sock.close()
    admitted = len(sockets) - refused
    return {
        "connections": len(sockets),
        "refused_503": refused,
        "admitted": admitted,
        "defended": len(sockets) <= 1024 or (refused > 0 and admitted <= 1024),
    }


# ---------------------------------------------------------------------------------------------------------------
# Venue attacks: the pickup queue and /next, over plain HTTP from chosen loopback addresses


def http(port, method, path, body=None, headers=None, source=ATTACKER_ADDRESS, raw=None):
    """One request on a fresh connection from `source`: (status, parsed JSON body or None)."""
    payload = raw if raw is not None else (json.dumps(body).encode() if body is not None else b"")
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", f"Content-Length: {len(payload)}"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.settimeout(10)
    try:
        sock.connect(("127.0.0.1", port))
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
        data = b""
        for _ in range(100_000):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    finally:
        sock.close()
    head, _, rest = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
    try:
        return status, json.loads(rest) if rest else None
    except ValueError:
        return status, None


JSON_TYPE = {"Content-Type": "application/json"}


def admin_headers():
    return {"Authorization": f"Bearer {VENUE['admin_token']}", **JSON_TYPE}


def court_bytes(port):
    _, document = http(port, "GET", f"/api/courts/{VENUE['court']}", source="127.0.0.1")
    return len(json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()), document


def readers(port, deadline, count=20):
    """`count` threads fetching GET /api/courts until `deadline` (the anonymous readers of the venue's pages)."""
    stop = threading.Event()

    def read(index):
        for _ in range(10_000):
            if stop.is_set() or time.monotonic() >= deadline:
                return
            try:
                http(port, "GET", "/api/courts", source=f"127.0.1.{index + 1}")
            except OSError:
                pass

    threads = [threading.Thread(target=read, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    return stop, threads


def clear_queue(port):
    http(port, "DELETE", f"/api/courts/{VENUE['court']}/queue", headers=admin_headers(), source="127.0.0.1")


def attack_name_bomb(port, game, deadline):
    stop, threads = readers(port, deadline)
    bomb = "A" + "\u0301" * 16_000
    statuses = []
    for index in range(40):
        if time.monotonic() >= deadline:
            break
        body = {"name": bomb, "players": [bomb, bomb, bomb], "code": "000000"}
        statuses.append(http(port, "POST", f"/api/courts/{VENUE['court']}/queue", body, JSON_TYPE, f"127.0.0.{index + 2}")[0])
    time.sleep(max(0.0, deadline - time.monotonic()))
    stop.set()
    size, document = court_bytes(port)
    return {
        "connections": 1,
        "joins": len(statuses),
        "statuses": sorted(set(statuses)),
        "court_bytes": size,
        "defended": bool(statuses) and set(statuses) <= {400, 413} and not document["queue"],
    }


def attack_queue_flood(port, game, deadline):
    _, shown = http(port, "GET", f"/api/courts/{VENUE['court']}/code", headers={"Authorization": f"Bearer {VENUE['display_key']}"}, source="127.0.0.1")
    code = shown["code"]
    stop, threads = readers(port, deadline)
    longest = "\U0001D49C" * 40  # 40 scalars of 4 bytes: the largest name the rules allow
    statuses = []
    for round_ in range(4):
        for index in range(200):
            if time.monotonic() >= deadline:
                break
            body = {"name": longest, "players": [longest] * 3, "code": code}
            statuses.append(http(port, "POST", f"/api/courts/{VENUE['court']}/queue", body, JSON_TYPE, f"127.0.0.{index + 2}")[0])
    time.sleep(max(0.0, deadline - time.monotonic()))
    stop.set()
    size, document = court_bytes(port)
    queued = len(document["queue"])
    clear_queue(port)
    return {
        "connections": 1,
        "joins": len(statuses),
        "accepted": statuses.count(200),
        "queue_full_409": statuses.count(409),
        "rate_limited_429": statuses.count(429),
        "queued": queued,
        "court_bytes": size,
        "defended": queued <= 32 and size <= COURT_DOCUMENT_LIMIT and set(statuses) <= {200, 409, 429} and 409 in statuses,
    }


def attack_cross_origin_join(port, game, deadline):
    body = {"name": "Spam", "players": ["A", "B", "C"], "code": "000000"}
    statuses = []
    for index in range(500):
        if time.monotonic() >= deadline:
            break
        source = f"127.0.0.{index % 200 + 2}"
        path = f"/api/courts/{VENUE['court']}/queue"
        # A form or a no-cors fetch: text/plain, which needs no preflight.
        statuses.append(http(port, "POST", path, raw=json.dumps(body).encode(), headers={"Content-Type": "text/plain", "Origin": "https://evil.example"}, source=source)[0])
        # JSON from another site's page (the preflight would fail in a browser; sent directly here).
        statuses.append(http(port, "POST", path, body, {**JSON_TYPE, "Origin": "https://evil.example"}, source)[0])
    _, document = court_bytes(port)
    return {
        "connections": 1,
        "joins": len(statuses),
        "statuses": sorted(set(statuses)),
        "defended": bool(statuses) and set(statuses) <= {403, 415, 429} and not document["queue"],
    }


def attack_next_race(port, game, deadline):
    court = VENUE["court"]
    rounds = []
    for round_ in range(10):
        if time.monotonic() >= deadline - 0.5:
            break
        body = {"homeTeam": "A", "homePlayers": ["a", "b", "c"], "awayTeam": "B", "awayPlayers": ["d", "e", "f"],
                "rules": {"preset": "custom", "targetScore": 2}, "court": court}
        _, created = http(port, "POST", "/api/games", body, admin_headers(), "127.0.0.1")
        token = created["scorerToken"]
        http(port, "POST", f"/api/courts/{court}/queue", {"name": f"Round {round_}", "players": ["x", "y", "z"]}, admin_headers(), "127.0.0.1")
        http(port, "POST", f"/api/games/{created['id']}/commands", {"type": "move", "id": "c1", "player": "home-0", "move": "twoPoints"},
             {"Authorization": f"Bearer {token}", **JSON_TYPE}, "127.0.0.1")
        statuses = []
        lock = threading.Lock()

        def call(index):
            status, _ = http(port, "POST", f"/api/courts/{court}/next", {}, {"Authorization": f"Bearer {token}", **JSON_TYPE}, f"127.0.2.{index + 1}")
            with lock:
                statuses.append(status)

        threads = [threading.Thread(target=call, args=(i,)) for i in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        rounds.append(statuses.count(201))
        clear_queue(port)
    return {"connections": 1, "rounds": len(rounds), "games_per_round": rounds, "defended": bool(rounds) and set(rounds) == {1}}


ATTACKS = {
    "ping-flood": attack_ping_flood,
    "pipelining-http": attack_pipelining_http,
    "ws-sender": attack_ws_sender,
    "compression-bomb": attack_compression_bomb,
    "connection-flood": attack_connection_flood,
    "name-bomb": attack_name_bomb,
    "queue-flood": attack_queue_flood,
    "cross-origin-join": attack_cross_origin_join,
    "next-race": attack_next_race,
}


def run_attack(name, port, game, deadline, results):
    # The attacker shares this machine with the server; on a real network it would not take the server's CPU.
    os.nice(10)
    try:
        results.put(ATTACKS[name](port, game, deadline))
    except Exception as error:  # the parent reports it as a failed check
        results.put({"error": f"{type(error).__name__}: {error}"})


# ---------------------------------------------------------------------------------------------------------------
# The run


def create_game(base, admin_token):
    body = json.dumps(
        {
            "homeTeam": "Home",
            "homePlayers": ["A", "B", "C"],
            "awayTeam": "Away",
            "awayPlayers": ["D", "E", "F"],
            "rules": {"preset": "pickup"},
        }
    ).encode()
    request = urllib.request.Request(
        base + "/api/games",
        data=body,
        method="POST",
        headers={"Authorization": f"Bearer {admin_token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        created = json.loads(response.read())
    return created["id"], created["scorerToken"]


def gaps(times, start, end):
    """The longest stretch in [start, end] without an event."""
    inside = [start] + [t for t in times if start <= t <= end] + [end]
    return max(b - a for a, b in zip(inside, inside[1:]))


def create_court(base, admin_token):
    """A court whose teams join with its code; `VENUE` holds what the venue attacks need."""
    request = urllib.request.Request(
        base + "/api/courts",
        data=json.dumps({"name": "Abuse court", "joining": "code"}).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {admin_token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        created = json.loads(response.read())
    VENUE.update(court=created["id"], display_key=created["displayKey"], admin_token=admin_token)


async def run(args):
    base = f"http://127.0.0.1:{args.port}"
    game, token = await asyncio.to_thread(create_game, base, args.admin_token)
    await asyncio.to_thread(create_court, base, args.admin_token)
    obs = Observations()
    stop = asyncio.Event()
    ws_base = f"ws://127.0.0.1:{args.port}"
    clients = [
        asyncio.create_task(spectator(f"{ws_base}/ws/games/{game}", obs, stop)),
        asyncio.create_task(scorer(f"{ws_base}/ws/games/{game}/scorer", token, obs, stop)),
        asyncio.create_task(sampler(args.port, args.pid, obs, stop)),
    ]
    failures = []
    await asyncio.sleep(2.0)  # warm-up: the game, the clients and the allocator settle
    context = multiprocessing.get_context("fork")
    for name in args.attacks:
        baseline = max(rss for _, rss in obs.rss[-5:])
        results = context.Queue()
        start = time.monotonic()
        deadline = start + ATTACK_SECONDS
        process = context.Process(target=run_attack, args=(name, args.port, game, deadline, results))
        process.start()
        await asyncio.sleep(ATTACK_SECONDS)
        end = time.monotonic()
        try:
            outcome = await asyncio.to_thread(results.get, True, 20)
        except Exception:
            outcome = {"error": "the attacker did not report within 20 s"}
        await asyncio.to_thread(process.join, 5)
        if process.is_alive():
            process.kill()
        window_rss = [rss for t, rss in obs.rss if start <= t <= time.monotonic()]
        growth = max(window_rss, default=baseline) - baseline
        probes = [(status, seconds) for t, status, seconds in obs.health if start <= t <= end]
        slowest = max((seconds for _, seconds in probes), default=0.0)
        ordered = sorted(seconds for _, seconds in probes)
        median = ordered[len(ordered) // 2] if ordered else 0.0
        p90 = ordered[min(len(ordered) - 1, (len(ordered) * 9) // 10)] if ordered else 0.0
        bad = [status for status, _ in probes if status != 200]
        patch_gap = gaps(obs.patches, start, end)
        ack_gap = gaps(obs.acks, start, end)
        connections = max(1, outcome.get("connections", 1))
        allowed = min(RSS_PER_CONNECTION * connections, RSS_TOTAL_CAP)
        print(
            f"{name}: {json.dumps(outcome)}; rss +{growth / MIB:.1f} MiB (allowed {allowed / MIB:.0f}); "
            f"healthz {len(probes)} probes, median {median * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms, slowest {slowest * 1000:.1f} ms; "
            f"longest gap: patches {patch_gap:.2f} s, acks {ack_gap:.2f} s",
            flush=True,
        )
        checks = [
            ("error" not in outcome, f"the attack failed to run: {outcome.get('error')}"),
            (outcome.get("defended", False), "the server's defence was not seen"),
            (growth <= allowed, f"RSS grew {growth / MIB:.1f} MiB"),
            (len(probes) >= 5, f"only {len(probes)} health probes ran"),
            (not bad, f"/healthz answered {bad}"),
            (p90 <= HEALTH_BUDGET_S, f"/healthz p90 was {p90 * 1000:.1f} ms"),
            (slowest <= STALL_BUDGET_S, f"/healthz took {slowest * 1000:.1f} ms"),
            (patch_gap <= MAX_GAP_S, f"the spectator got no patch for {patch_gap:.2f} s"),
            (ack_gap <= MAX_GAP_S, f"the scorer got no ack for {ack_gap:.2f} s"),
        ]
        failures += [f"{name}: {message}" for ok, message in checks if not ok]
        await asyncio.sleep(1.0)  # let closes and resets finish before the next attack
    stop.set()
    await asyncio.wait(clients, timeout=5)
    for task in clients:
        if task.done() and task.exception():
            failures.append(f"a normal client failed: {task.exception()!r}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True, help="the server's process id (its RSS is measured)")
    parser.add_argument("--admin-token", required=True)
    parser.add_argument("--attacks", nargs="*", default=list(ATTACKS), choices=list(ATTACKS))
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    failures = asyncio.run(asyncio.wait_for(run(args), timeout=240))
    for failure in failures:
        print("FAILED " + failure, file=sys.stderr)
    print("abuse: " + ("failed" if failures else "every check passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
