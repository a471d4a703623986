#!/usr/bin/env python3
"""The game side of benchmarks/handshakes.sh, through the helpers of broadcaster_latency.py:

    handshake_game.py create PORT ADMIN_TOKEN          prints "GAME_ID SCORER_TOKEN"
    handshake_game.py moves PORT GAME_ID TOKEN COUNT   sends COUNT moves as the scorer, prints the last acked seq

Loopback only; every wait has a deadline (30 s).
"""

import json
import os
import socket
import sys
import time
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from broadcaster_latency import PLAYERS, client_frame, create_games, take_frames, upgrade_request  # noqa: E402

HOST = "127.0.0.1"


def moves(port, game, token, count):
    sock = socket.create_connection((HOST, port), timeout=30)
    sock.sendall(upgrade_request(HOST, port, f"/ws/games/{game}/scorer", token))
    buffer = b""
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            raise SystemExit("scorer: closed during the upgrade")
        buffer += chunk
    head, _, buffer = buffer.partition(b"\r\n\r\n")
    if b" 101 " not in head.split(b"\r\n")[0]:
        raise SystemExit(f"scorer: upgrade refused: {head[:200]!r}")
    buffer = bytearray(buffer)
    for n in range(count):
        command = {"type": "move", "id": f"h{time.monotonic_ns()}-{n}", "player": PLAYERS[n % 6], "move": "onePoint"}
        sock.sendall(client_frame(0x1, json.dumps(command).encode()))
    acked, last = 0, None
    deadline = time.monotonic() + 30
    while acked < count and time.monotonic() < deadline:
        frames, used = take_frames(buffer)
        del buffer[:used]
        for _, opcode, payload in frames:
            if opcode == 0x1 and b'"type":"ack"' in payload:
                acked += 1
                last = json.loads(payload)["seq"]
            elif opcode == 0x1 and b'"type":"error"' in payload:
                raise SystemExit(f"scorer: {payload[:200]!r}")
        if acked < count:
            chunk = sock.recv(65536)
            if not chunk:
                raise SystemExit("scorer: closed before every ack")
            buffer += chunk
    sock.close()
    if acked < count:
        raise SystemExit(f"scorer: {acked} of {count} acks in 30 s")
    print(last)


def main():
    if sys.argv[1:2] == ["create"] and len(sys.argv) == 4:
        args = SimpleNamespace(host=HOST, port=int(sys.argv[2]), admin_token=sys.argv[3], games=1, echo=False)
        game, token = create_games(args)[0]
        print(game, token)
    elif sys.argv[1:2] == ["moves"] and len(sys.argv) == 6:
        moves(int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
