#!/usr/bin/env python3
"""Certificate reload on SIGHUP without dropping connections (README, "Deploy").

Against a `courtside serve --tls-cert CERT --tls-key KEY` (pid `--pid`, log `--log`) serving certificate A:
1. a lobby WebSocket (wss, verified with A) opens and gets its snapshot;
2. CERT/KEY are replaced by certificate B and the server gets SIGHUP: a new connection must then present B (its
   SHA-256 fingerprint equals B's, and it verifies against B alone), while the lobby socket opened under A stays open
   and still receives: a game created over https (verified with B) arrives on it as a lobbyPatch;
3. CERT is replaced by garbage and the server gets SIGHUP again: the log must name the file in an error, new
   connections must still present B, and the lobby socket must still be open and receiving.

Exits 1 with a line per problem; every wait is bounded.
"""

import argparse
import asyncio
import hashlib
import json
import os
import shutil
import signal
import socket
import ssl
import sys
import time

from websockets.asyncio.client import connect

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from courtside_client import configure_transport, game_request, http_call  # noqa: E402


def fingerprint_of_file(path):
    with open(path, encoding="ascii") as file:
        return hashlib.sha256(ssl.PEM_cert_to_DER_cert(file.read())).hexdigest()


def presented_fingerprint(port, ca_file):
    """The SHA-256 of the certificate a fresh TLS connection is shown, verified against `ca_file` only."""
    context = ssl.create_default_context(cafile=ca_file)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            return hashlib.sha256(tls.getpeercert(binary_form=True)).hexdigest()


def replace(source, destination):
    """Writes `destination` anew (a renewal tool writes new files; the server must not care how)."""
    temporary = destination + ".new"
    shutil.copyfile(source, temporary)
    os.replace(temporary, destination)


async def wait_for_log(path, text, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open(path, encoding="utf-8", errors="replace") as file:
            for line in file:
                if text in line:
                    return line.strip()
        await asyncio.sleep(0.1)
    return None


async def next_lobby_patch(lobby, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = json.loads(await asyncio.wait_for(lobby.recv(), deadline - time.monotonic()))
        if message.get("type") == "lobbyPatch":
            return message
    return None


async def run(args):
    problems = []

    def expect(condition, message):
        if not condition:
            problems.append(message)
            print(f"FAIL: {message}", file=sys.stderr, flush=True)
        return condition

    url = f"https://127.0.0.1:{args.port}"
    fingerprint_a = fingerprint_of_file(args.cert)
    fingerprint_b = fingerprint_of_file(args.new_cert)
    expect(fingerprint_a != fingerprint_b, "the two test certificates are the same")
    expect(presented_fingerprint(args.port, args.cert) == fingerprint_a, "the server does not start with certificate A")
    trust_a = ssl.create_default_context(cafile=args.cert)
    lobby = await connect(
        f"wss://127.0.0.1:{args.port}/ws/games", ssl=trust_a, open_timeout=10, close_timeout=3, ping_interval=None
    )
    first = json.loads(await asyncio.wait_for(lobby.recv(), 10))
    expect(first.get("type") == "lobbySnapshot", f"the lobby socket began with {first.get('type')!r}")

    # Renewal: new files, then SIGHUP.
    replace(args.new_cert, args.cert)
    replace(args.new_key, args.key)
    os.kill(args.pid, signal.SIGHUP)
    line = await wait_for_log(args.log, "reload: new connections use", 10)
    expect(line is not None, "the server did not log the reload within 10 s")
    try:
        seen = presented_fingerprint(args.port, args.new_cert)
        expect(seen == fingerprint_b, f"a new connection after SIGHUP saw {seen}, expected B {fingerprint_b}")
    except (ssl.SSLError, OSError) as error:
        expect(False, f"a new connection after SIGHUP does not verify against certificate B: {error}")
    configure_transport(ca_file=args.new_cert)
    created = await http_call(url, "POST", "/api/games", body=game_request("Reloaded", "Open"), token=args.admin_token)
    expect(created.status == 201, f"POST /api/games over https after the reload: {created}")
    patch = await next_lobby_patch(lobby, 10)
    expect(patch is not None, "the lobby socket opened before the reload did not receive the new game")
    expect(lobby.close_code is None, f"the lobby socket was closed ({lobby.close_code}) by the reload")
    print(f"reload: new connections present B ({fingerprint_b[:16]}…); the socket opened under A got lobbyPatch "
          f"seq {patch and patch.get('seq')}", flush=True)

    # A bad renewal keeps the running certificate and names the file.
    with open(args.cert + ".bad", "w", encoding="ascii") as file:
        file.write("this is not a certificate\n")
    os.replace(args.cert + ".bad", args.cert)
    os.kill(args.pid, signal.SIGHUP)
    line = await wait_for_log(args.log, "certificate not reloaded", 10)
    expect(line is not None and args.cert in line, f"no error naming {args.cert} after a bad renewal: {line!r}")
    expect(presented_fingerprint(args.port, args.new_cert) == fingerprint_b, "a bad renewal replaced certificate B")
    created = await http_call(url, "POST", "/api/games", body=game_request("Still", "Here"), token=args.admin_token)
    expect(created.status == 201, f"POST /api/games after a bad renewal: {created}")
    expect(await next_lobby_patch(lobby, 10) is not None, "the lobby socket stopped receiving after a bad renewal")
    expect(lobby.close_code is None, "the lobby socket was closed by a bad renewal")
    print(f"bad renewal: logged {line!r}; B still served; the socket still receives", flush=True)
    await lobby.close()
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--log", required=True, help="the server's log file")
    parser.add_argument("--admin-token", required=True)
    parser.add_argument("--cert", required=True, help="the --tls-cert file the server reads (certificate A)")
    parser.add_argument("--key", required=True, help="the --tls-key file the server reads")
    parser.add_argument("--new-cert", required=True, help="certificate B")
    parser.add_argument("--new-key", required=True, help="certificate B's key")
    args = parser.parse_args()
    try:
        problems = asyncio.run(asyncio.wait_for(run(args), 90))
    except Exception as error:  # any failure to connect or read is a failed check, reported as such
        print(f"tls_reload: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    if problems:
        print(f"tls_reload: FAILED with {len(problems)} problem(s); first: {problems[0]}", file=sys.stderr)
        return 1
    print("tls_reload: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
