"""A TCP proxy owned by the cluster test, between one node and Redis, that can cut the node off the way a network
partition does (a test-owned proxy that stops forwarding without closing).

`cut()` stops moving bytes in both directions but closes nothing: no FIN, no RST, so the node learns of the
partition only from its own deadlines, as on a real network where packets are dropped. Bytes already sent stay
queued (in this process or the kernel's socket buffers), and `heal()` delivers them late and in order, as TCP's
retransmissions would: Redis may then run a command the node has already given up on, which is the ambiguous case
the node's retries (same command id, answered `DUP`) must make harmless. A connection opened during the cut is
accepted but not joined to Redis until the heal (a SYN answered, nothing after). A connection closed by either side
is closed on the other side only once its queued bytes went through (forwarding resumed), like a FIN behind data.
"""

import asyncio


class PartitionProxy:
    def __init__(self, upstream_port):
        self.upstream_port = upstream_port
        self.forwarding = asyncio.Event()
        self.forwarding.set()
        self.server = None
        self.port = None
        self.connections = 0
        self.tasks = set()

    async def start(self):
        self.server = await asyncio.start_server(self._accepted, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    def cut(self):
        self.forwarding.clear()

    def heal(self):
        self.forwarding.set()

    async def close(self):
        if self.server is not None:
            self.server.close()
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=5)

    def _accepted(self, reader, writer):
        task = asyncio.create_task(self._serve(reader, writer))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _serve(self, client_reader, client_writer):
        self.connections += 1
        upstream_writer = None
        try:
            await self.forwarding.wait()
            try:
                upstream_reader, upstream_writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", self.upstream_port), 5)
            except (OSError, asyncio.TimeoutError):
                return  # Redis is down (killed by the test): the node sees its connection close, as it would
            pumps = [
                asyncio.create_task(self._pump(client_reader, upstream_writer)),
                asyncio.create_task(self._pump(upstream_reader, client_writer)),
            ]
            # Either side closing ends the pair (after its queued bytes went through: see _pump).
            _, pending = await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()
        except asyncio.CancelledError:
            pass
        finally:
            for writer in (client_writer, upstream_writer):
                if writer is not None:
                    writer.close()

    async def _pump(self, reader, writer):
        try:
            while True:
                # Reading is paused too while cut, so the kernel's buffers fill and the sender sees no progress.
                await self.forwarding.wait()
                data = await reader.read(65536)
                await self.forwarding.wait()
                if not data:
                    return
                writer.write(data)
                await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            return
