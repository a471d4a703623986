#!/usr/bin/env python3
"""Scorer-to-spectator latency of a running Courtside server (docs/benchmarks.md, "Broadcaster latency").

Creates `--games` games over HTTP, connects `--spectators-per-game` spectators to each (WS /ws/games/{id}) from
several worker processes, and one scorer per game (WS /ws/games/{id}/scorer, `Authorization: Bearer` on the
upgrade). Each scorer then sends moves at `--rate-per-game` commands a second for `--duration` seconds. The latency
of a delivery is the time from the scorer writing the command to a spectator reading the patch that shows it (the
patch whose `seq` the command's ack names); p50/p99/max are over every (spectator, patch) delivery. The server's RSS
is read from /proc/PID/status with everyone connected before the first command, and after the last.

The clients are plain sockets and a minimal RFC 6455 client written here (no library on the hot path), spread over
worker processes and over the source addresses 127.0.0.1 ... 127.0.0.N (each source has its own ephemeral ports,
and the server caps connections per address). Every process reads CLOCK_MONOTONIC, which is one clock for the whole
machine, so send and receive times from different processes compare directly. The clients run on the same cores as
the server: a latency measured here includes the time the clients themselves take to get to a socket.

Bounded everywhere: connection and drain timeouts, a duration, and a refusal to start past the open-file limit.
"""

import argparse
import base64
import concurrent.futures
import heapq
import http.client
import json
import multiprocessing
import os
import resource
import selectors
import socket
import struct
import sys
import time

MOVES = ["assist", "rebound", "foul", "onePoint"]
PLAYERS = [f"{team}-{index}" for team in ("home", "away") for index in range(3)]


# MARK: A minimal WebSocket client (RFC 6455), just what measuring needs.

def upgrade_request(host, port, path, token=None):
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: {host}:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
    ]
    if token:
        lines.append(f"Authorization: Bearer {token}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def client_frame(opcode, payload):
    """A masked frame (RFC 6455 §5.3: every client frame is masked)."""
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    # XOR with the repeated mask (RFC 6455 §5.3), through integers so it stays cheap in Python.
    repeated = (mask * (length // 4 + 1))[:length]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(length, "big")
    return head + mask + masked


def take_frames(buffer):
    """Complete server frames at the front of `buffer`: ([(fin, opcode, payload)], bytes consumed)."""
    frames, offset, size = [], 0, len(buffer)
    while size - offset >= 2:
        first, second = buffer[offset], buffer[offset + 1]
        length, header = second & 0x7F, 2
        if length == 126:
            if size - offset < 4:
                break
            length, header = struct.unpack_from("!H", buffer, offset + 2)[0], 4
        elif length == 127:
            if size - offset < 10:
                break
            length, header = struct.unpack_from("!Q", buffer, offset + 2)[0], 10
        if second & 0x80:
            raise ValueError("a server frame is masked (RFC 6455 §5.1 forbids it)")
        if size - offset < header + length:
            break
        start = offset + header
        frames.append((first & 0x80, first & 0x0F, bytes(buffer[start:start + length])))
        offset = start + length
    return frames, offset


class Client:
    """One connection: connecting → upgrading → open (→ closed)."""

    __slots__ = ("sock", "state", "buffer", "game", "request", "fragments", "index")

    def __init__(self, sock, game, request, index):
        self.sock = sock
        self.state = "connecting"
        self.buffer = bytearray()
        self.game = game
        self.request = request
        self.fragments = None
        self.index = index


def open_socket(host, port, source):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((source, 0))
    sock.setblocking(False)
    sock.connect_ex((host, port))
    return sock


def connect_all(selector, host, port, plan, sources, batch, timeout, first_source_index=0):
    """Opens a client per (game, path, token) of `plan`, `batch` handshakes at a time; returns the open clients,
    the failures and the messages that arrived with the upgrades (dispatched later by the caller)."""
    pending = list(enumerate(plan))
    pending.reverse()
    clients, failures, early = [], [], []
    in_progress = 0
    deadline = time.monotonic() + timeout
    while (pending or in_progress) and time.monotonic() < deadline:
        while pending and in_progress < batch:
            index, (game, path, token) = pending.pop()
            source = f"127.0.0.{1 + (first_source_index + index) % sources}"
            try:
                sock = open_socket(host, port, source)
            except OSError as error:
                failures.append(f"socket from {source}: {error}")
                continue
            client = Client(sock, game, upgrade_request(host, port, path, token), index)
            selector.register(sock, selectors.EVENT_WRITE, client)
            in_progress += 1
        for key, _ in selector.select(0.2):
            client = key.data
            if client.state == "connecting":
                error = client.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if error:
                    failures.append(f"connect: {os.strerror(error)}")
                    selector.unregister(client.sock)
                    client.sock.close()
                    in_progress -= 1
                    continue
                client.sock.send(client.request)  # a few hundred bytes: fits any fresh socket buffer
                client.state = "upgrading"
                selector.modify(client.sock, selectors.EVENT_READ, client)
            elif client.state == "upgrading":
                try:
                    data = client.sock.recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError as error:
                    data, failure = b"", str(error)
                else:
                    failure = "closed during the upgrade"
                if not data:
                    failures.append(failure)
                    selector.unregister(client.sock)
                    client.sock.close()
                    in_progress -= 1
                    continue
                client.buffer += data
                end = client.buffer.find(b"\r\n\r\n")
                if end < 0:
                    continue
                status = bytes(client.buffer[:end]).split(b"\r\n", 1)[0]
                in_progress -= 1
                if b" 101 " not in status + b" ":
                    failures.append(f"upgrade refused: {status.decode(errors='replace')}")
                    selector.unregister(client.sock)
                    client.sock.close()
                    continue
                del client.buffer[:end + 4]
                client.state = "open"
                client.request = None
                clients.append(client)
                if client.buffer:
                    early.append(client)
    for key in list(selector.get_map().values()):
        client = key.data
        if client.state in ("connecting", "upgrading"):
            failures.append("handshake timed out")
            selector.unregister(client.sock)
            client.sock.close()
    return clients, failures, early


def read_messages(client, on_message):
    """Reads what is there; calls on_message(client, payload) per text message; answers pings (RFC 6455 §5.5.2).
    Returns False once the connection is closed."""
    try:
        data = client.sock.recv(262144)
    except (BlockingIOError, InterruptedError):
        return True
    except OSError:
        return False
    if not data:
        return False
    client.buffer += data
    return dispatch(client, on_message)


def dispatch(client, on_message):
    frames, used = take_frames(client.buffer)
    if used:
        del client.buffer[:used]
    for fin, opcode, payload in frames:
        if opcode == 0x9:
            client.sock.send(client_frame(0xA, payload))
        elif opcode == 0x8:
            return False
        elif opcode in (0x1, 0x2):
            if fin:
                on_message(client, payload)
            else:
                client.fragments = [payload]
        elif opcode == 0x0 and client.fragments is not None:
            client.fragments.append(payload)
            if fin:
                on_message(client, b"".join(client.fragments))
                client.fragments = None
    return True


def raise_open_file_limit(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if needed > hard:
        raise SystemExit(f"needs {needed} descriptors, the hard limit is {hard}")


# MARK: Spectator workers

def spectator_worker(worker, args, plan, conn):
    """Holds its spectators; records (game, seq, receive time) of every patch until told to stop."""
    raise_open_file_limit(len(plan) + 64)
    selector = selectors.DefaultSelector()
    clients, failures, early = connect_all(
        selector, args.host, args.port, plan, args.sources, args.connect_batch, args.connect_timeout, worker
    )
    received = {}  # game -> list of (seq, t_ns)
    counts = {"snapshots": 0, "patches": 0, "other": 0, "closed": 0}
    clock = time.monotonic_ns

    def on_message(client, payload):
        now = clock()
        tail = payload[-48:]
        if b'"type":"patch"' in tail:
            seq_at = payload.rfind(b'"seq":')
            end = payload.find(b",", seq_at)
            received.setdefault(client.game, []).append((int(payload[seq_at + 6:end]), now))
            counts["patches"] += 1
        elif b'"type":"snapshot"' in tail:
            counts["snapshots"] += 1
        else:
            counts["other"] += 1

    for client in early:
        dispatch(client, on_message)
    conn.send(("ready", len(clients), failures[:5], len(failures)))
    open_clients = len(clients)
    while True:
        if conn.poll():
            if conn.recv() == "stop":
                break
        for key, _ in selector.select(0.05):
            client = key.data
            if not read_messages(client, on_message):
                selector.unregister(client.sock)
                client.sock.close()
                counts["closed"] += 1
                open_clients -= 1
    for key in list(selector.get_map().values()):
        key.data.sock.close()
    conn.send(("done", received, counts))
    conn.close()


def spectator_worker_c(worker, args, plan, game_index, conn):
    """The same as `spectator_worker`, through benchmarks/spectators.c (`--spectators-binary`)."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="courtside-spectators-") as scratch:
        plan_path, out_path = os.path.join(scratch, "plan"), os.path.join(scratch, "records")
        with open(plan_path, "w") as file:
            for game, path, _ in plan:
                file.write(f"{game_index[game]} {path}\n")
        process = subprocess.Popen(
            [args.spectators_binary, str(args.port), str(args.sources), str(worker), plan_path, out_path]
            + (["deflate"] if args.deflate else []),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        ready = process.stdout.readline().split()
        if len(ready) != 4 or ready[0] != "ready":
            conn.send(("ready", 0, [f"spectators: {ready}"], len(plan)))
            process.kill()
            return
        conn.send(("ready", int(ready[1]), ["see the server's log"] if int(ready[2]) else [], int(ready[2])))
        deflate_agreed = int(ready[3])
        conn.recv()  # "stop"
        client_cpu = cpu_seconds(process.pid)
        process.stdin.write("stop\n")
        process.stdin.flush()
        done = process.stdout.readline().split()
        process.wait(60)
        names = [game for game, _ in sorted(game_index.items(), key=lambda item: item[1])]
        received = {}
        with open(out_path, "rb") as file:
            data = file.read()
        for game, seq, t_ns in struct.iter_unpack("<qqq", data):
            received.setdefault(names[game], []).append((seq, t_ns))
        counts = {
            "snapshots": int(done[2]), "patches": int(done[1]), "other": int(done[3]), "closed": int(done[4]),
            "cpu": client_cpu, "deflate": deflate_agreed,
        }
        conn.send(("done", received, counts))
        conn.close()


# MARK: The scorer process

def scorer_worker(args, games, conn):
    """One scorer per game; after "go", each sends moves at its rate for the duration; returns send times and
    the seq each command was acked with."""
    raise_open_file_limit(len(games) + 64)
    selector = selectors.DefaultSelector()
    plan = [(game, "/pub" if args.echo else f"/ws/games/{game}/scorer", token) for game, token in games]
    clients, failures, early = connect_all(
        selector, args.host, args.port, plan, args.sources, args.connect_batch, args.connect_timeout, 0
    )
    sent = {}  # cid -> (game, t_ns)
    acked = {}  # cid -> seq
    errors = []

    def on_message(client, payload):
        if b'"type":"ack"' in payload or b'"type":"error"' in payload:
            message = json.loads(payload)
            if message.get("type") == "ack":
                acked[message["id"]] = message["seq"]
            elif len(errors) < 20:
                errors.append(message)

    for client in early:
        dispatch(client, on_message)
    conn.send(("ready", len(clients), failures[:5], len(failures)))
    if conn.recv() != "go":
        return
    interval = 1.0 / args.rate_per_game
    cpu_start = time.process_time()
    start = time.monotonic()
    # Spread the games' first commands over one interval, so the load is even rather than in waves.
    schedule = [(start + interval * i / max(1, len(clients)), i) for i in range(len(clients))]
    heapq.heapify(schedule)
    counter = [0] * len(clients)
    end = start + args.duration
    while True:
        now = time.monotonic()
        if now >= end:
            break
        while schedule and schedule[0][0] <= now:
            due, i = heapq.heappop(schedule)
            client = clients[i]
            n = counter[i]
            counter[i] += 1
            move = args.moves[n % len(args.moves)]
            if move == "onePoint" and n >= 3000:
                move = "rebound"
            cid = f"b{i}-{n}"
            if args.echo:
                command = echo_patch(n + 1, move, (n // 4) % 6)
                acked[cid] = n + 1  # nothing answers on /pub: the patch carries its own seq
            else:
                command = json.dumps({"type": "move", "id": cid, "player": PLAYERS[(n // 4) % 6], "move": move})
            frame = client_frame(0x1, command.encode())
            sent[cid] = (client.game, time.monotonic_ns())
            try:
                client.sock.send(frame)
            except OSError as error:
                errors.append({"send": str(error)})
            heapq.heappush(schedule, (due + interval, i))
        wait = max(0.0, min(schedule[0][0] if schedule else end, end) - time.monotonic())
        for key, _ in selector.select(min(wait, 0.05)):
            if not read_messages(key.data, on_message):
                selector.unregister(key.data.sock)
    # Collect the last acks (they wait for the disk).
    drain_end = time.monotonic() + args.drain
    while len(acked) < len(sent) and time.monotonic() < drain_end:
        for key, _ in selector.select(0.05):
            if not read_messages(key.data, on_message):
                selector.unregister(key.data.sock)
    conn.send(("done", sent, acked, errors, time.process_time() - cpu_start))
    for key in list(selector.get_map().values()):
        key.data.sock.close()
    conn.close()


def echo_patch(seq, move, player):
    """With --echo, what the publisher sends on /pub: a patch shaped and sized like the one `courtside serve`
    publishes for the same move (canonical JSON: sorted members, `seq` after `ops`, `type` near the end, as
    spectators.c expects), so both servers carry the same bytes per delivery."""
    team, index = ("homePlayers", player) if player < 3 else ("awayPlayers", player - 3)
    field = {"assist": "assistMoveCount", "rebound": "reboundMoveCount", "foul": "foulMoveCount",
             "onePoint": "onePointMoveCount"}.get(move, "reboundMoveCount")
    at = int(time.time() * 1000)
    ops = []
    if move == "onePoint":
        # A scoring move also changes the score line and the team's score.
        ops += [{"op": "replace", "path": "/score", "value": f"{seq // 4} - 0"},
                {"op": "replace", "path": "/homeScore", "value": seq // 4}]
    ops += [
        {"op": "add", "path": f"/plays/{seq - 1}", "value": {
            "at": at, "deleted": False, "edited": False, "elapsedMs": 0, "move": move, "period": None,
            "play": seq, "player": PLAYERS[player], "seq": seq, "team": "home" if player < 3 else "away"}},
        {"op": "replace", "path": f"/{team}/{index}/{field}", "value": str(seq // 24 + 1)},
    ]
    if move == "onePoint":
        ops.append({"op": "replace", "path": f"/{team}/{index}/points", "value": seq // 24 + 1})
    message = {"at": at, "game": "echo", "ops": ops, "seq": seq, "type": "patch", "v": 1}
    return json.dumps(message, separators=(",", ":"), sort_keys=True)


# MARK: The run

def read_status(pid):
    """VmRSS and VmHWM of a process, in KiB."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(("VmRSS:", "VmHWM:")):
                name, value = line.split(":", 1)
                values[name] = int(value.split()[0])
    return values


def cpu_seconds(pid):
    return sum(cpu_times(pid))


def cpu_times(pid):
    """(user, system) CPU seconds of a process (`utime`, `stime` in /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) / os.sysconf("SC_CLK_TCK"), int(fields[12]) / os.sysconf("SC_CLK_TCK")


def create_games(args):
    if args.echo:
        # courtside-echo has no games: one pseudo-game, its /sub subscribers and one /pub publisher.
        return [("echo", None)]

    def create(number):
        connection = http.client.HTTPConnection(args.host, args.port, timeout=30)
        try:
            body = json.dumps({
                "homeTeam": f"Home {number}", "homePlayers": ["Ann", "Bo", "Cy"],
                "awayTeam": f"Away {number}", "awayPlayers": ["Di", "Ed", "Flo"],
                "rules": {"preset": "custom", "targetScore": 999, "winBy": 1},
            })
            connection.request("POST", "/api/games", body=body, headers={
                "Authorization": f"Bearer {args.admin_token}", "Content-Type": "application/json"})
            response = connection.getresponse()
            data = response.read()
            if response.status != 201:
                raise SystemExit(f"POST /api/games: {response.status} {data[:200]!r}")
            created = json.loads(data)
            return created["id"], created["scorerToken"]
        finally:
            connection.close()

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        return list(pool.map(create, range(args.games)))


def percentile(sorted_values, fraction):
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, int(round(fraction * (len(sorted_values) - 1)))))
    return sorted_values[index]


def run(args):
    started = time.monotonic()
    games = create_games(args)
    created_at = time.monotonic()
    spectator_plans = [[] for _ in range(args.processes)]
    slot = 0
    for game, _ in games:
        for _ in range(args.spectators_per_game):
            path = "/sub" if args.echo else f"/ws/games/{game}"
            spectator_plans[slot % args.processes].append((game, path, None))
            slot += 1
    context = multiprocessing.get_context("fork")
    workers, pipes = [], []
    for worker, plan in enumerate(spectator_plans):
        parent_end, child_end = context.Pipe()
        if args.spectators_binary:
            game_index = {game: index for index, (game, _) in enumerate(games)}
            process = context.Process(
                target=spectator_worker_c, args=(worker, args, plan, game_index, child_end), daemon=True
            )
        else:
            process = context.Process(target=spectator_worker, args=(worker, args, plan, child_end), daemon=True)
        process.start()
        workers.append(process)
        pipes.append(parent_end)
    scorer_pipe, scorer_child = context.Pipe()
    scorer = context.Process(target=scorer_worker, args=(args, games, scorer_child), daemon=True)
    scorer.start()

    def ready(pipe, what):
        if not pipe.poll(args.connect_timeout + 30):
            raise SystemExit(f"{what}: not ready in time")
        message = pipe.recv()
        _, connected, sample, failed = message
        if failed:
            raise SystemExit(f"{what}: {failed} connections failed, e.g. {sample}")
        return connected

    spectators = sum(ready(pipe, f"spectator worker {i}") for i, pipe in enumerate(pipes))
    scorers = ready(scorer_pipe, "scorer process")
    connected_at = time.monotonic()
    time.sleep(args.settle)
    idle = read_status(args.server_pid) if args.server_pid else {}
    user_before, system_before = cpu_times(args.server_pid) if args.server_pid else (0.0, 0.0)
    cpu_before = user_before + system_before
    scorer_pipe.send("go")
    if not scorer_pipe.poll(args.duration + args.drain + 60):
        raise SystemExit("the scorer process did not finish")
    _, sent, acked, errors, scorer_cpu = scorer_pipe.recv()
    time.sleep(args.tail)  # the last patches reach the spectators (acks wait for the disk; patches do not)
    loaded = read_status(args.server_pid) if args.server_pid else {}
    user_after, system_after = cpu_times(args.server_pid) if args.server_pid else (0.0, 0.0)
    cpu_after = user_after + system_after
    for pipe in pipes:
        pipe.send("stop")
    received, counts = {}, {"snapshots": 0, "patches": 0, "other": 0, "closed": 0, "cpu": 0.0, "deflate": 0}
    for i, pipe in enumerate(pipes):
        if not pipe.poll(60):
            raise SystemExit(f"spectator worker {i} did not report")
        _, worker_received, worker_counts = pipe.recv()
        for game, deliveries in worker_received.items():
            received.setdefault(game, []).extend(deliveries)
        for key, value in worker_counts.items():
            counts[key] = counts.get(key, 0) + value
    for process in workers + [scorer]:
        process.join(10)

    # seq -> send time, per game, from the acks.
    send_time = {}
    for cid, seq in acked.items():
        game, t_ns = sent[cid]
        send_time[(game, seq)] = t_ns
    latencies, unmatched = [], 0
    per_patch = {}  # (game, seq) -> [first, last] latency
    by_window = {}  # window of send time -> latencies
    first_send = min(send_time.values()) if send_time else 0
    for game, deliveries in received.items():
        for seq, t_ns in deliveries:
            sent_at = send_time.get((game, seq))
            if sent_at is None:
                unmatched += 1
                continue
            latency = (t_ns - sent_at) / 1e6
            latencies.append(latency)
            by_window.setdefault(int((sent_at - first_send) / 1e9 // args.window), []).append(latency)
            bounds = per_patch.setdefault((game, seq), [latency, latency])
            bounds[0] = min(bounds[0], latency)
            bounds[1] = max(bounds[1], latency)
    latencies.sort()
    firsts = sorted(first for first, _ in per_patch.values())
    lasts = sorted(last for _, last in per_patch.values())
    expected = len(acked) * args.spectators_per_game
    result = {
        "games": args.games,
        "spectatorsPerGame": args.spectators_per_game,
        "spectators": spectators,
        "scorers": scorers,
        "commandsSent": len(sent),
        "commandsAcked": len(acked),
        "deliveriesExpected": expected,
        "deliveriesMeasured": len(latencies),
        "patchesWithoutAck": unmatched,
        "snapshotsReceived": counts["snapshots"],
        "spectatorsWithDeflate": counts["deflate"],
        "closedEarly": counts["closed"],
        "errors": errors[:3],
        "p50ms": round(percentile(latencies, 0.50), 2),
        "p99ms": round(percentile(latencies, 0.99), 2),
        "maxms": round(latencies[-1], 2) if latencies else None,
        "firstSpectatorP50ms": round(percentile(firsts, 0.50), 2),
        "lastSpectatorP50ms": round(percentile(lasts, 0.50), 2),
        "clientCPUSeconds": round(counts["cpu"] + scorer_cpu, 2),
        f"p50msPer{args.window:g}s": [round(percentile(sorted(v), 0.5), 1) for _, v in sorted(by_window.items())],
        f"p99msPer{args.window:g}s": [round(percentile(sorted(v), 0.99), 1) for _, v in sorted(by_window.items())],
        "serverRSSIdleMiB": round(idle.get("VmRSS", 0) / 1024, 1),
        "serverRSSLoadedMiB": round(loaded.get("VmRSS", 0) / 1024, 1),
        "serverRSSPeakMiB": round(loaded.get("VmHWM", 0) / 1024, 1),
        "serverCPUSecondsDuringCommands": round(cpu_after - cpu_before, 2),
        "serverUserCPUSecondsDuringCommands": round(user_after - user_before, 2),
        "secondsToCreateGames": round(created_at - started, 1),
        "secondsToConnect": round(connected_at - created_at, 1),
        "durationSeconds": args.duration,
        "ratePerGame": args.rate_per_game,
    }
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--admin-token", required=True)
    parser.add_argument("--server-pid", type=int, help="read the server's RSS and CPU from /proc")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--spectators-per-game", type=int, default=100)
    parser.add_argument("--rate-per-game", type=float, default=2.0, help="commands a second per game")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of commands")
    parser.add_argument("--processes", type=int, default=4, help="spectator worker processes")
    parser.add_argument("--sources", type=int, default=16, help="source addresses 127.0.0.1 ... 127.0.0.N")
    parser.add_argument("--connect-batch", type=int, default=256, help="handshakes in progress per process")
    parser.add_argument("--connect-timeout", type=float, default=120.0)
    parser.add_argument("--settle", type=float, default=2.0, help="seconds between the last connect and the first command")
    parser.add_argument("--drain", type=float, default=10.0, help="seconds for the last acks")
    parser.add_argument(
        "--spectators-binary",
        help="benchmarks/spectators.c compiled: spectators in C (cheaper per message) instead of Python",
    )
    parser.add_argument(
        "--moves", default=",".join(MOVES), type=lambda text: text.split(","),
        help="moves the scorers cycle through (default assist,rebound,foul,onePoint: one in four changes the score)",
    )
    parser.add_argument(
        "--deflate", action="store_true",
        help="spectators offer permessage-deflate like a browser (needs --spectators-binary)",
    )
    parser.add_argument("--window", type=float, default=5.0, help="seconds of send time per p50/p99 window")
    parser.add_argument(
        "--tail", type=float, default=1.0,
        help="seconds after the last ack before the server's CPU and RSS are read and the spectators stop",
    )
    parser.add_argument(
        "--echo", action="store_true",
        help="drive courtside-echo instead: spectators on /sub, one publisher on /pub sending patch-shaped text "
        "at the same rate (benchmarks/cpu-per-delivery.sh)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    total = args.games * args.spectators_per_game
    if total > 25000:
        raise SystemExit("at most 25,000 spectators")
    result = run(args)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    complete = (
        result["spectators"] == total
        and result["commandsAcked"] == result["commandsSent"]
        and result["deliveriesMeasured"] == result["deliveriesExpected"]
        and result["closedEarly"] == 0
    )
    if not complete:
        print("broadcaster_latency: INCOMPLETE (see the counts above)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
