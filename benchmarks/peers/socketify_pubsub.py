#!/usr/bin/env python3
"""Pub/sub WebSocket server with uWebSockets, through the PyPI binding `socketify`: the fan-out peer of
courtside-echo, with the same URL scheme so one `courtside-load fanout` run fits both.

    socketify_pubsub.py --port P [--host H] [--compression none|shared|dedicated] [--cert C --key K]

- `/sub`: the connection subscribes to one topic on open (uWebSockets' `ws.subscribe`).
- `/pub`: every text message is published verbatim to that topic (`app.publish`); nothing is echoed.
- every other path echoes, as socketify_echo.py does.

Compression (permessage-deflate, uWebSockets' CompressOptions):
- none (default): not negotiated.
- shared: SHARED_COMPRESSOR, uWebSockets' sliding-window-free mode (server_no_context_takeover): each message is
  compressed without history.
- dedicated: DEDICATED_COMPRESSOR (a 256 KiB deflate stream per connection, with context takeover) and
  DEDICATED_DECOMPRESSOR.
Published messages are asked to be compressed whenever compression is on.

TLS: with --cert and --key (PEM files), uWebSockets' SSLApp serves wss:// on the same paths (its OpenSSL, its
defaults), the peer of `courtside-echo --tls-cert C --tls-key K`.

Loopback only. Backpressure budget 256 KiB per connection (as courtside-echo's default); past it uWebSockets drops
messages for that subscriber, which the load generator reports as missing.
"""

import argparse
import ipaddress
import sys

from socketify import App, AppListenOptions, AppOptions, CompressOptions, OpCode

TOPIC = "scores"

COMPRESSION = {
    "none": CompressOptions.DISABLED,
    "shared": CompressOptions.SHARED_COMPRESSOR,
    "dedicated": CompressOptions.DEDICATED_COMPRESSOR | CompressOptions.DEDICATED_DECOMPRESSOR,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--compression", choices=sorted(COMPRESSION), default="none")
    parser.add_argument("--cert", help="PEM certificate chain: serve wss:// (needs --key)")
    parser.add_argument("--key", help="PEM private key for --cert")
    args = parser.parse_args()
    if (args.cert is None) != (args.key is None):
        print("--cert and --key go together", file=sys.stderr)
        return 2
    if not ipaddress.ip_address(args.host).is_loopback:
        print(f"refusing non-loopback host {args.host}", file=sys.stderr)
        return 2
    compression = COMPRESSION[args.compression]
    compress = args.compression != "none"
    tls = args.cert is not None
    app = App(AppOptions(key_file_name=args.key, cert_file_name=args.cert)) if tls else App()

    def behaviour(**handlers):
        return {
            "compression": compression,
            "max_payload_length": 16 * 1024 * 1024,
            "idle_timeout": 600,
            "max_backpressure": 256 * 1024,
            **handlers,
        }

    def subscribe(ws):
        ws.subscribe(TOPIC)

    def publish(ws, data, opcode):
        if opcode == OpCode.TEXT:
            app.publish(TOPIC, data, OpCode.TEXT, compress)

    def echo(ws, data, opcode):
        ws.send(data, opcode)

    app.ws("/sub", behaviour(open=subscribe))
    app.ws("/pub", behaviour(message=publish))
    app.ws("/*", behaviour(message=echo))

    listening = []

    def listened(config):
        listening.append(config.port)
        scheme = "wss" if tls else "ws"
        print(f"socketify pub/sub on {scheme}://{args.host}:{config.port}/ (compression {args.compression})", flush=True)

    # uWebSockets listens synchronously; on failure socketify only logs from its callback, so check here.
    app.listen(AppListenOptions(port=args.port, host=args.host), listened)
    if not listening:
        print(f"socketify pub/sub: could not listen on {args.host}:{args.port}", file=sys.stderr)
        return 1
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
