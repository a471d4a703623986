#!/usr/bin/env python3
"""Webhooks under `--redis` (docs/webhooks.md, "Several nodes"): two `courtside serve --redis` nodes share one
webhook, and a receiver verifies every delivery with PyPI `standardwebhooks`. On loopback, in a temporary directory:

1. the webhook created on node a is listed by node b; a game played on both nodes: every event arrives exactly once,
   in order (one node delivers each event: the holder of the webhook's lease);
2. the receiver holds a request, and the lease holder is killed with SIGKILL while that request is in flight; more
   moves on the other node: once the dead node's lease lapses (10 s), the other node takes it and delivers from the
   stored cursor: every event, none lost, in order of first arrival, a repeat only with the same `webhook-id` and
   body; the survivor then holds the lease.

One line per check; exits 1 naming every problem. Bounded: every wait has a deadline.
"""

import argparse
import asyncio
import os
import secrets
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "e2e"), os.path.join(HERE, "..", "..", "scripts", "lib")]

from batches import redis_command  # noqa: E402
from cluster_processes import Node, RedisProcess  # noqa: E402
from courtside_client import game_request, http_call  # noqa: E402
from webhooks_e2e import Receiver, create_webhook, play, wait_for  # noqa: E402

SECRET = "whsec_QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY="


class WebhookNode(Node):
    """A node that may call the receiver on loopback."""

    def command(self):
        return super().command() + ["--webhook-allow-private"]


def ids(receiver):
    return [delivery[1] for delivery in receiver.arrivals()]


async def run(args, problems):
    os.makedirs(os.path.join(args.work, "public"), exist_ok=True)
    redis = RedisProcess(args.work, secrets.token_hex(12))
    admin = "webhooks-cluster-" + secrets.token_hex(8)
    nodes = {
        name: WebhookNode(name, args.courtside, args.work, admin, redis.url(), os.path.join(args.work, "public"))
        for name in ("a", "b")
    }
    receiver = Receiver(SECRET)
    try:
        await redis.start()
        for node in nodes.values():
            await node.start()
        a, b = nodes["a"], nodes["b"]
        hook = (await create_webhook(a, admin, receiver.url(), secret=SECRET))["id"]
        listed = await http_call(b.url, "GET", f"/api/webhooks/{hook}", token=admin)
        print(f"webhook {hook} created on a, GET on b: {listed.status}")
        if listed.status != 200:
            problems.append(f"node b does not list the webhook made on a: {listed}")

        game = (await http_call(a.url, "POST", "/api/games", token=admin, body=game_request(
            rules={"preset": "custom", "targetScore": 999, "winBy": 1}))).json()
        game_id, scorer = game["id"], game["scorerToken"]
        counter = [0]
        await play(a, game_id, scorer, args.moves, counter)
        await play(b, game_id, scorer, args.moves, counter)
        expected = [f"{game_id}:0:game.created"] + [f"{game_id}:{n}:play" for n in range(1, counter[0] + 1)]
        await wait_for(lambda: len(ids(receiver)) >= len(expected), 30, "the first deliveries")
        print(f"1. {len(ids(receiver))} deliveries for {len(expected)} events, in order: {ids(receiver) == expected}")
        if ids(receiver) != expected:
            problems.append(f"not every event once and in order: {ids(receiver)[:5]}… ({len(ids(receiver))})")

        lease = await redis_command(redis.port, redis.password, "GET", f"courtside:webhook-lease:{{{hook}}}")
        holder = lease.decode().split(":")[0] if lease else None
        if holder not in nodes:
            problems.append(f"no node holds the lease: {lease!r}")
            return
        dead, survivor = nodes[holder], nodes["b" if holder == "a" else "a"]
        receiver.held.clear()
        with receiver.lock:
            receiver.mode = "hold"
        await play(survivor, game_id, scorer, 1, counter)
        await wait_for(receiver.held.is_set, 20, "the held request")
        dead.kill()
        killed = time.monotonic()
        with receiver.lock:
            receiver.mode = "up"
        receiver.release.set()
        await play(survivor, game_id, scorer, args.moves, counter)
        expected = [f"{game_id}:0:game.created"] + [f"{game_id}:{n}:play" for n in range(1, counter[0] + 1)]
        await wait_for(lambda: set(expected) <= set(ids(receiver)), 60, "every event after the kill")
        taken = time.monotonic() - killed
        first, order, repeats = {}, [], 0
        for _, webhook_id, _, body in receiver.arrivals():
            if webhook_id in first:
                repeats += 1
                if first[webhook_id] != body:
                    problems.append(f"{webhook_id} repeated with another body")
            else:
                first[webhook_id] = body
                order.append(webhook_id)
        print(f"2. node {holder} killed mid-delivery; node {survivor.node_id} delivered the rest within {taken:.1f} s:"
              f" {len(order)} events, {repeats} repeats, in order: {order == expected}")
        if order != expected:
            problems.append(f"events lost or out of order after the kill: {order[-5:]}")
        lease = await redis_command(redis.port, redis.password, "GET", f"courtside:webhook-lease:{{{hook}}}")
        if not lease or not lease.decode().startswith(survivor.node_id + ":"):
            problems.append(f"the survivor does not hold the lease: {lease!r}")
        problems.extend(receiver.problems)
    finally:
        receiver.close()
        for node in nodes.values():
            node.kill()
        redis.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--courtside", required=True, help="the courtside executable")
    parser.add_argument("--work", required=True, help="an empty directory for Redis, the nodes and their logs")
    parser.add_argument("--seed", type=int, default=None, help="accepted for the cluster steps; nothing is random")
    parser.add_argument("--moves", type=int, default=10, help="moves per stretch")
    args = parser.parse_args()
    problems = []
    try:
        asyncio.run(asyncio.wait_for(run(args, problems), 150))
    except (RuntimeError, asyncio.TimeoutError) as error:
        problems.append(f"{type(error).__name__}: {error}")
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    print("webhooks cluster: " + ("FAILED" if problems else "passed"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
