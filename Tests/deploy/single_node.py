#!/usr/bin/env python3
"""A game through the single-node recipe (deploy/compose.yaml) survives `podman restart` of its container.

Run by scripts/ci.d/61-cluster-deploy.sh against deploy/compose.yaml started with podman-compose: `--url` is the
port the recipe publishes, `--container` the Courtside container (the journal is in the recipe's named volume).

1. Waits until /healthz answers 200, and the recipe's own health check (`podman healthcheck run`) passes.
2. Creates a game with the admin token the compose environment sets; a scorer (WebSocket) sends moves one at a time,
   each acked, and a spectator (WebSocket) follows the game up to the last acked seq.
3. `podman restart` (a graceful stop, then a start from the same volume); the spectator's socket must drop, and
   /healthz must answer 200 again within `--start-timeout`.
4. `GET /api/games/{id}` has every acked move exactly once (per-player move counts), is at the last acked seq, and
   equals the document the spectator had before the restart.
5. Play goes on: the scorer reconnects and its next moves are acked, the spectator reconnects with `since=N`
   (first patch N+1 or a snapshot at N or later) and sees them; the final document equals `GET /api/games/{id}`.

Exits 1 naming every problem; bounded by `--timeout`. `--seed` replays the moves.
"""

import argparse
import asyncio
import os
import random
import sys
import time

# The end-to-end programs' client and JSON Patch (Tests/e2e), and the cluster test's scorer and spectator (both
# reconnect after a dropped socket; the scorer re-sends an unacked command with the same CID).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import jsonpatch  # noqa: E402
from cluster_failover import (  # noqa: E402
    Failed, Scorer, Spectator, acked_once_problems, create_game, engine, run_checks,
)
from courtside_client import http_call  # noqa: E402


async def wait_until_healthy(args, what):
    """Until /healthz answers 200, within `--start-timeout`; returns the seconds it took."""
    started = time.monotonic()
    while True:
        try:
            if (await http_call(args.url, "GET", "/healthz", timeout=3)).status == 200:
                return time.monotonic() - started
        except (OSError, asyncio.TimeoutError):
            pass
        if time.monotonic() - started > args.start_timeout:
            raise Failed(f"/healthz did not answer 200 within {args.start_timeout} s {what}")
        await asyncio.sleep(0.25)


async def game_document(args, game_id, what):
    """`GET /api/games/{id}` as (seq, state)."""
    result = await http_call(args.url, "GET", f"/api/games/{game_id}")
    if result.status != 200:
        raise Failed(f"GET /api/games/{game_id} {what}: {result}")
    snapshot = result.json()
    return snapshot.get("seq"), snapshot.get("state")


def compare(problems, what, seq, state, want_seq, want_state):
    """Records how the document (`seq`, `state`) differs from the expected one."""
    if seq != want_seq:
        problems.append(f"GET /api/games/{{id}} {what}: seq {seq}, expected {want_seq}")
    if jsonpatch.canonical(state) != jsonpatch.canonical(want_state):
        problems.append(
            f"GET /api/games/{{id}} {what} differs from the spectator's document: "
            f"{jsonpatch.first_difference(want_state, state)}"
        )


async def play(args):
    rng = random.Random(args.seed)
    problems = []
    await wait_until_healthy(args, "after podman-compose up")
    deadline = time.monotonic() + args.timeout
    # The recipe's health check (compose.yaml `healthcheck:`), run once by podman in the container.
    await asyncio.to_thread(engine, args, "healthcheck", "run", args.container)

    game_id, token = await create_game(args, "with the compose environment's admin token")
    print(f"single-node: game {game_id} created")

    scorer = Scorer(args, game_id, token, rng)
    stop = asyncio.Event()
    spectator = Spectator(args, game_id)
    watching = asyncio.create_task(spectator.run(stop))
    try:
        for _ in range(args.before):
            await scorer.send(deadline)
        before = max(ack["seq"] for ack in scorer.acks.values())
        if not await spectator.document.wait_for_seq(before, 15):
            raise Failed(f"the spectator did not reach seq {before} before the restart (at {spectator.document.seq})")
        seen_before = spectator.document.state

        spectator.dropped.clear()
        restarted = time.monotonic()
        await asyncio.to_thread(engine, args, "restart", args.container, timeout=60)
        stopped = time.monotonic() - restarted
        healthy = await wait_until_healthy(args, "after podman restart")
        print(f"single-node: {args.before} moves acked (seq {before}); podman restart took {stopped:.1f} s, "
              f"/healthz 200 {healthy:.1f} s later")
        if not spectator.dropped.is_set():
            problems.append("the spectator's socket did not drop when the container restarted")

        # Nothing acked was lost: the restarted server's document is the one the spectator had.
        seq, state = await game_document(args, game_id, "after the restart")
        compare(problems, "after the restart", seq, state, before, seen_before)
        problems.extend(f"after the restart: {problem}" for problem in acked_once_problems(scorer, state))

        # Play goes on: new moves acked, and seen by the spectator through its reconnection.
        for _ in range(args.after):
            await scorer.send(deadline)
        final = max(ack["seq"] for ack in scorer.acks.values())
        if not await spectator.document.wait_for_seq(final, max(1, min(30, deadline - time.monotonic()))):
            problems.append(f"the spectator is stuck at seq {spectator.document.seq} after the restart, "
                            f"expected {final}")
        print(f"single-node: {args.after} more moves acked after the restart (seq {final}), {scorer.resent} re-sent; "
              f"spectator connections {spectator.connections}, resumes {spectator.resumes}")
    finally:
        stop.set()
        watching.cancel()
        await scorer.close()
    seq, state = await game_document(args, game_id, "at the end")
    compare(problems, "at the end", seq, state, final, spectator.document.state)
    problems.extend(acked_once_problems(scorer, state))
    problems.extend(spectator.problems)
    problems.extend(scorer.problems)
    return problems, len(scorer.acks)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the published port, e.g. http://127.0.0.1:8080")
    parser.add_argument("--admin-token", required=True)
    parser.add_argument("--container", required=True, help="the Courtside container")
    parser.add_argument("--engine", default="podman")
    parser.add_argument("--before", type=int, default=8, help="moves before the restart")
    parser.add_argument("--after", type=int, default=4, help="moves after the restart")
    parser.add_argument("--start-timeout", type=float, default=60, help="until /healthz answers, each time")
    parser.add_argument("--timeout", type=float, default=120, help="the whole game, after the server serves")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    if args.seed is None:
        args.seed = random.randrange(1 << 30)
    acked = run_checks("single-node", play, args)
    print(f"single-node: passed ({acked} moves acked, each once, through a podman restart)")


if __name__ == "__main__":
    main()
