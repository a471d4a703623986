#!/usr/bin/env python3
"""What one idle spectator costs a node in memory, for the capacity model of docs/cluster.md (a measurement program,
not a test): starts a release `courtside serve` on loopback (SQLite, a temporary directory), creates a game, opens
`--spectators` spectator WebSockets to it (raw sockets: the upgrade, then the snapshot read and nothing more), and
prints the server's RSS and the kernel's memory (slab, TCP buffer pages) before and after, per connection. Both ends
of each connection are on this machine, so the kernel figure is per connection pair, an upper bound of one end.

    .build/peers/venv/bin/python Tests/cluster/connection_memory.py --courtside .build/release/courtside --spectators 5000
"""

import argparse
import asyncio
import base64
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "e2e"), os.path.join(HERE, "..", "..", "scripts", "lib")]

from cluster_processes import Process  # noqa: E402
from courtside_client import game_request, http_call  # noqa: E402
from free_port import free_loopback_port  # noqa: E402


def meminfo(key):
    with open("/proc/meminfo") as file:
        for line in file:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    raise KeyError(key)


def tcp_buffer_bytes():
    with open("/proc/net/sockstat") as file:
        for line in file:
            if line.startswith("TCP:"):
                fields = line.split()
                return int(fields[fields.index("mem") + 1]) * os.sysconf("SC_PAGE_SIZE")
    return 0


def rss(pid):
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def kernel():
    return {"slab": meminfo("Slab"), "tcp buffers": tcp_buffer_bytes()}


async def spectator(port, game_id, sockets):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        f"GET /ws/games/{game_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
    if b" 101 " not in head.split(b"\r\n", 1)[0] + b" ":
        raise ConnectionError(head[:200])
    await asyncio.wait_for(reader.read(65536), 30)  # the snapshot frame
    sockets.append(writer)


async def main(args):
    with tempfile.TemporaryDirectory() as work:
        port = free_loopback_port()
        os.makedirs(os.path.join(work, "public"))
        server = Process("courtside", os.path.join(work, "server.log"))
        token = "memory-admin-token-0123456789"
        server.spawn([
            args.courtside, "serve", "--host", "127.0.0.1", "--port", str(port), "--data", os.path.join(work, "data"),
            "--public", os.path.join(work, "public"), "--admin-token", token,
            "--max-connections-per-address", str(args.spectators + 100),
        ])
        try:
            url = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    if (await http_call(url, "GET", "/healthz", timeout=1)).status == 200:
                        break
                except (OSError, asyncio.TimeoutError):
                    await asyncio.sleep(0.05)
            game = (await http_call(url, "POST", "/api/games", token=token, body=game_request())).json()
            await asyncio.sleep(1)
            before_rss, before_kernel = rss(server.pid), kernel()
            sockets = []
            started = time.monotonic()
            for first in range(0, args.spectators, 200):
                batch = range(first, min(args.spectators, first + 200))
                await asyncio.gather(*(spectator(port, game["id"], sockets) for _ in batch))
            await asyncio.sleep(2)
            after_rss, after_kernel = rss(server.pid), kernel()
            count = len(sockets)
            print(f"{count} idle spectators opened in {time.monotonic() - started:.1f} s")
            print(f"server RSS: {before_rss / 2**20:.1f} MiB -> {after_rss / 2**20:.1f} MiB, "
                  f"{(after_rss - before_rss) / count / 1024:.2f} KiB per spectator")
            for key in before_kernel:
                grown = after_kernel[key] - before_kernel[key]
                print(f"kernel {key}: +{grown / 2**20:.1f} MiB, {grown / count / 1024:.2f} KiB per connection pair")
            for writer in sockets:
                writer.close()
        finally:
            server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--courtside", required=True)
    parser.add_argument("--spectators", type=int, default=5000)
    asyncio.run(main(parser.parse_args()))
