"""A TCP proxy on loopback that a test cuts (standard library only): between a venue node and its public node in the
relay checks (relay_cuts_e2e.py, Tests/browser/test_relay_link.py), so the relay link can be broken the three ways a
real uplink breaks (docs/relay.md, "What each side does on a cut"):

- `close`: both sockets closed in order (FIN), as a proxy or NAT that ends a connection politely;
- `reset`: both sockets closed with SO_LINGER 0, so the kernel sends RST, as a crashed middlebox;
- `blackhole`: nothing forwarded any more in either direction while both sockets stay open, as a dead Wi-Fi link or
  a silently dropped NAT mapping; only the venue's own health checks (pings, the write deadline) can notice it. The
  proxy closes the public node's side once the venue's side ends (bounded by `blackhole_limit` seconds).

`refusing` closes every new connection at once (a link that stays down); `rate` limits the bytes forwarded per
second in each direction (a slow link, so a catch-up lasts long enough to be interrupted). `BackgroundProxy` runs one
on its own thread for synchronous callers.
"""

import asyncio
import socket
import struct
import threading

CUT_KINDS = ("close", "blackhole", "reset")


class Link:
    """One proxied connection: the client's (venue's) socket and the upstream's (public node's)."""

    def __init__(self, client, upstream):
        self.client = client  # (reader, writer)
        self.upstream = upstream
        self.blackholed = False
        self.ended = asyncio.Event()
        self.forwarded = 0

    def _abort(self, writer, reset):
        if reset:
            sock = writer.get_extra_info("socket")
            if sock is not None:
                try:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                except OSError:
                    pass
            writer.transport.abort()
        else:
            writer.close()

    def end(self, reset=False):
        for _, writer in (self.client, self.upstream):
            self._abort(writer, reset)
        self.ended.set()


class CuttingProxy:
    def __init__(self, target_port, target_host="127.0.0.1"):
        self.target = (target_host, target_port)
        self.links = []
        self.server = None
        self.port = None
        self.refusing = False
        self.rate = None  # bytes per second per direction, None: unlimited
        self.accepted = 0
        self.cuts = {kind: 0 for kind in CUT_KINDS}
        self.blackhole_limit = 10.0

    async def start(self):
        self.server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    async def stop(self):
        for link in list(self.links):
            link.end()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    def live_links(self):
        return [link for link in self.links if not link.ended.is_set() and not link.blackholed]

    async def _accept(self, reader, writer):
        if self.refusing:
            writer.close()
            return
        try:
            upstream = await asyncio.wait_for(asyncio.open_connection(*self.target), 5)
        except (OSError, asyncio.TimeoutError):
            writer.close()
            return
        self.accepted += 1
        link = Link((reader, writer), upstream)
        self.links.append(link)
        pumps = [
            asyncio.create_task(self._pump(link, reader, upstream[1])),
            asyncio.create_task(self._pump(link, upstream[0], writer)),
        ]
        await link.ended.wait()
        for pump in pumps:
            pump.cancel()
        self.links.remove(link)

    async def _pump(self, link, reader, writer):
        try:
            while True:
                data = await reader.read(4096 if self.rate else 65536)
                if not data:
                    break
                if link.blackholed:
                    continue  # read and dropped: the sender's kernel sees a window, the peer hears nothing
                if self.rate:
                    await asyncio.sleep(len(data) / self.rate)
                writer.write(data)
                link.forwarded += len(data)
                await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            return
        # One side ended: the link ends (a blackholed one too: the venue gave up on it).
        link.end()

    async def cut(self, kind):
        """Cuts every live link the `kind` way; returns how many. A blackhole waits (bounded) until the venue's side
        ended, then closes the public node's side."""
        links = self.live_links()
        for link in links:
            if kind == "close":
                link.end()
            elif kind == "reset":
                link.end(reset=True)
            elif kind == "blackhole":
                link.blackholed = True
            else:
                raise ValueError(f"unknown cut {kind!r}")
        if kind == "blackhole":
            for link in links:
                try:
                    await asyncio.wait_for(link.ended.wait(), self.blackhole_limit)
                except asyncio.TimeoutError:
                    link.end()
                    raise RuntimeError(f"a blackholed link was not given up within {self.blackhole_limit} s")
        if links:
            self.cuts[kind] += 1
        return len(links)


class BackgroundProxy:
    """A CuttingProxy on its own event loop in a daemon thread, for synchronous callers (the browser tests)."""

    def __init__(self, target_port):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.proxy = CuttingProxy(target_port)
        self.port = self._call(self.proxy.start())

    def _call(self, coroutine, timeout=30):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def cut(self, kind):
        """Cuts every live link (see CuttingProxy.cut); returns how many."""
        return self._call(self.proxy.cut(kind))

    def refuse(self, refusing):
        """While true, every new connection is closed at once: the link stays down."""
        self.loop.call_soon_threadsafe(setattr, self.proxy, "refusing", refusing)

    def close(self):
        self._call(self.proxy.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
