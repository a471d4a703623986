#!/usr/bin/env python3
"""Opens one WebSocket to `--url` (the lobby feed), from `--source-address`, optionally sending a forged
`X-Forwarded-For`, reads its first message and closes: the server then has a "long-lived connection" log line whose
`client=` says which address it resolved. Used by scripts/ci.d/60-deploy.sh; exits 1 when the socket fails."""

import argparse
import asyncio
import json
import ssl
import sys

from websockets.asyncio.client import connect


async def run(args):
    options = {"local_addr": (args.source_address, 0)}
    if args.url.startswith("wss://"):
        options["ssl"] = ssl.create_default_context(cafile=args.ca_file)
    headers = {"X-Forwarded-For": args.forwarded_for} if args.forwarded_for else None
    async with connect(args.url, open_timeout=10, close_timeout=3, additional_headers=headers, **options) as socket:
        message = json.loads(await asyncio.wait_for(socket.recv(), 10))
        return message.get("type")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True, help="ws:// or wss:// URL of /ws/games")
    parser.add_argument("--source-address", required=True)
    parser.add_argument("--ca-file")
    parser.add_argument("--forwarded-for", help="an X-Forwarded-For value to send (a client forging one)")
    args = parser.parse_args()
    try:
        kind = asyncio.run(asyncio.wait_for(run(args), 30))
    except Exception as error:  # a failed connection is a failed check
        print(f"client_address: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    print(f"client_address: {args.url} from {args.source_address}: first message {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
