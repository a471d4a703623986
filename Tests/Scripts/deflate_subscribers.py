#!/usr/bin/env python3
"""Subscribers to courtside-echo's /sub written with Python `websockets`, checking that the shared-context
permessage-deflate stream decodes exactly (deflate.md). Driven by Tests/CourtsideNetTests/PythonWebsocketsTests.swift.

    deflate_subscribers.py --url ws://127.0.0.1:PORT/sub --messages N --join-at J --resync-at R

Clients (all with websockets' own permessage-deflate negotiation and zlib inflater):
  default      the library's default offer (permessage-deflate; client_max_window_bits), from the start
  joiner       the default offer, connecting once `default` has seen message J
  resyncer     the default offer, from the start; sends "resync" at message R (the server drops its unsent
               frames, restarts its deflate stream state and re-joins it), so its stream may have one gap there
  no-context   offers server_no_context_takeover: gets the shared no-context frames
  window-10    offers server_max_window_bits=10: served by the channel's 10-bit compressor

The published messages are `patch_message(seq)` for seq 0..N-1 (the same text the Swift test builds). Prints
"READY" once the clients that start at once are subscribed, then one JSON line per client, and exits 0 only if
every client decoded every message it got exactly, in order, without a gap (but the resyncer's one), up to N-1.
"""

import argparse
import asyncio
import json
import sys

import websockets
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory


def patch_message(seq, padding=0):
    clock = 600 - seq * 7 % 600
    return (
        '{"v":1,"type":"patch","seq":%d,"ops":[{"op":"replace","path":"/homeScore","value":%d},'
        '{"op":"replace","path":"/clock","value":"%d:%02d"},{"op":"replace","path":"/homePlayers/%d/foulCount",'
        '"value":"%d"}]%s}' % (seq, seq * 3 % 101, clock // 60, clock % 60, seq % 12, seq % 5, " " * padding)
    )


class Client:
    def __init__(self, name, url, last, **connect):
        self.name, self.url, self.last, self.connect = name, url, last, connect
        self.seqs, self.errors, self.extensions = [], [], None
        self.progress = asyncio.Event()

    async def run(self, resync_at=None, subscribed=None):
        try:
            async with websockets.connect(self.url, max_size=None, **self.connect) as ws:
                self.extensions = ws.response.headers.get("Sec-WebSocket-Extensions")
                if subscribed:
                    subscribed.set()
                resynced = False
                async for text in ws:
                    seq = json.loads(text)["seq"]
                    if text != patch_message(seq):
                        self.errors.append(f"message {seq} decoded to something else: {text[:80]!r}")
                    self.seqs.append(seq)
                    self.progress.set()
                    if resync_at is not None and not resynced and seq >= resync_at:
                        resynced = True
                        await ws.send("resync")
                    if seq == self.last:
                        return
        except Exception as error:  # a bad inflate closes the connection (1007): report it
            self.errors.append(f"{type(error).__name__}: {error}")

    def report(self, allowed_gaps):
        gaps = sum(1 for a, b in zip(self.seqs, self.seqs[1:]) if b != a + 1)
        if any(b <= a for a, b in zip(self.seqs, self.seqs[1:])):
            self.errors.append("messages out of order or repeated")
        if gaps > allowed_gaps:
            self.errors.append(f"{gaps} gaps, {allowed_gaps} allowed")
        if not self.seqs or self.seqs[-1] != self.last:
            self.errors.append(f"stopped at {self.seqs[-1] if self.seqs else None}, expected {self.last}")
        if not self.extensions or "permessage-deflate" not in self.extensions:
            self.errors.append(f"permessage-deflate not negotiated: {self.extensions!r}")
        return {"name": self.name, "extensions": self.extensions, "first": self.seqs[0] if self.seqs else None,
                "count": len(self.seqs), "gaps": gaps, "errors": self.errors}


async def main(args):
    last = args.messages - 1
    default = Client("default", args.url, last)
    joiner = Client("joiner", args.url, last)
    resyncer = Client("resyncer", args.url, last)
    no_context = Client("no-context", args.url, last, compression=None, extensions=[
        ClientPerMessageDeflateFactory(server_no_context_takeover=True, client_max_window_bits=True)])
    window10 = Client("window-10", args.url, last, compression=None, extensions=[
        ClientPerMessageDeflateFactory(server_max_window_bits=10, client_max_window_bits=True)])
    starting = [default, resyncer, no_context, window10]
    subscribed = [asyncio.Event() for _ in starting]
    tasks = [asyncio.create_task(c.run(args.resync_at if c is resyncer else None, e))
             for c, e in zip(starting, subscribed)]
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in subscribed)), 10)
    print("READY", flush=True)

    async def join_later():
        while not default.seqs or default.seqs[-1] < args.join_at:
            default.progress.clear()
            await default.progress.wait()
        await joiner.run()

    tasks.append(asyncio.create_task(join_later()))
    done, pending = await asyncio.wait(tasks, timeout=args.timeout)
    for task in pending:
        task.cancel()
    ok = True
    for client in [default, joiner, resyncer, no_context, window10]:
        line = client.report(1 if client is resyncer else 0)
        ok = ok and not line["errors"]
        print(json.dumps(line), flush=True)
    if joiner.seqs and joiner.seqs[0] < args.join_at:
        print(json.dumps({"error": "the joiner did not join midway"}), flush=True)
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--messages", type=int, default=600)
    parser.add_argument("--join-at", type=int, default=150)
    parser.add_argument("--resync-at", type=int, default=300)
    parser.add_argument("--timeout", type=float, default=60)
    sys.exit(asyncio.run(main(parser.parse_args())))
