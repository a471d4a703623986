#!/usr/bin/env python3
"""Echo WebSocket server on every path with uWebSockets, through the PyPI binding `socketify`: a peer for
benchmarks. Text and binary messages are echoed with the opcode they came with.

    socketify_echo.py --port P [--host H] [--tls-cert C --tls-key K]

Loopback only (the default host is 127.0.0.1). Compression off; messages up to 64 MiB; no idle timeout
shorter than a benchmark. Needs Debian's libuv1 (socketify's prebuilt library links libuv.so.1).
"""

import argparse
import ipaddress
import sys

from socketify import App, AppListenOptions, AppOptions, CompressOptions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    args = parser.parse_args()
    if not ipaddress.ip_address(args.host).is_loopback:
        print(f"refusing non-loopback host {args.host}", file=sys.stderr)
        return 2
    if args.tls_cert or args.tls_key:
        app = App(AppOptions(key_file_name=args.tls_key, cert_file_name=args.tls_cert))
    else:
        app = App()

    def message(ws, data, opcode):
        ws.send(data, opcode)

    app.ws(
        "/*",
        {
            "compression": CompressOptions.DISABLED,
            "max_payload_length": 64 * 1024 * 1024,
            "idle_timeout": 600,
            "max_backpressure": 16 * 1024 * 1024,
            "message": message,
        },
    )

    listening = []

    def listened(config):
        listening.append(config.port)
        scheme = "wss" if args.tls_cert else "ws"
        print(f"socketify echo on {scheme}://{args.host}:{config.port}/", flush=True)

    # uWebSockets listens synchronously; on failure socketify only logs from its callback, so check here.
    app.listen(AppListenOptions(port=args.port, host=args.host), listened)
    if not listening:
        print(f"socketify echo: could not listen on {args.host}:{args.port}", file=sys.stderr)
        return 1
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
