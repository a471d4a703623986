#!/usr/bin/env python3
"""Echo WebSocket server on every path, with the PyPI `websockets` library: a peer for benchmarks and for
checking the conformance plumbing. Text and binary messages are echoed as received.

    websockets_echo.py --port P [--host H] [--tls-cert C --tls-key K] [--deflate]

Loopback only (the default host is 127.0.0.1). permessage-deflate is off unless --deflate, so that a benchmark
compares plain framing with plain framing. Messages up to 64 MiB are accepted (Autobahn's 9.x sends 16 MiB).
"""

import argparse
import asyncio
import ipaddress
import signal
import ssl
import sys

from websockets.asyncio.server import serve


async def echo(connection):
    async for message in connection:
        await connection.send(message)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--deflate", action="store_true", help="offer permessage-deflate")
    args = parser.parse_args()
    if not ipaddress.ip_address(args.host).is_loopback:
        print(f"refusing non-loopback host {args.host}", file=sys.stderr)
        return 2
    context = None
    if args.tls_cert or args.tls_key:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert, args.tls_key)
    stop = asyncio.get_running_loop().create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))
    async with serve(
        echo,
        args.host,
        args.port,
        ssl=context,
        compression="deflate" if args.deflate else None,
        max_size=64 * 1024 * 1024,
        max_queue=64,
        ping_interval=None,
    ):
        print(f"websockets echo on {'wss' if context else 'ws'}://{args.host}:{args.port}/", flush=True)
        await stop
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
