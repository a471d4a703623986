"""Phases 1 and 2 of the cluster test (docs/cluster.md): one game served by every node, and two scorers racing.

1. Game ids across nodes: three games created at once, one on each node, get three ids, and every node serves
   each. Then a scorer on node A, 25 spectators on each of B and C (half offering permessage-deflate) and an event
   stream reader through the balancer: after `commands` acked moves, every subscriber has the same seq and the same
   document, equal to GET /api/games/{id} on every node, and every patch is byte-identical wherever it was received.
2. Two scorers, on A and on B, race on one new game with their own ids and 20 ids they both send: each id is acked
   with one seq (the same from both nodes), the acked seqs are exactly the game's history (no gap, no duplicate),
   and every node serves the same document.
"""

import asyncio
import collections
import time

from cluster_clients import EventFollower, FeedBytes, Follower, Ledger, Scorer, percentile
from cluster_state import short
from counted_moves import count_problems


async def game_ids(cluster):
    """Creates a game on every node at once; returns (id, scorer token) of node a's, or None when a refused it."""
    checks = cluster.checks
    results = await asyncio.gather(
        *(cluster.create_game(node.url) for node in cluster.nodes.values()), return_exceptions=True)
    problems = [str(result) for result in results if isinstance(result, Exception)]
    ids = [result[0] for result in results if not isinstance(result, Exception)]
    if len(set(ids)) != len(ids):
        problems.append(f"ids created at once on {', '.join(cluster.nodes)} collide: {ids}")
    deadline = cluster.within(3)
    for game_id in sorted(set(ids)):
        for node in cluster.nodes.values():
            while True:
                snapshot, error = await cluster.snapshot(node, game_id)
                if snapshot is not None or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.1)
            if error:
                problems.append(f"{game_id} not served within 3 s by {error}")
    checks.report("ids", not problems,
                  f"games {', '.join(ids)} created at once on {', '.join(cluster.nodes)}, each served by every node"
                  if not problems else short(problems))
    first = results[0]
    if isinstance(first, Exception):
        try:
            return await cluster.create_game(cluster.nodes["a"].url)
        except RuntimeError:
            return None
    return first


async def fanout(cluster, spectators_per_node, commands):
    checks = cluster.checks
    nodes = cluster.nodes
    first = await game_ids(cluster)
    if first is None:
        return False
    cluster.game_id, cluster.scorer_token = first
    game_id = cluster.game_id
    created, _ = await cluster.snapshot(nodes["a"], game_id)
    cluster.base_seq = created["seq"] if created else 0
    feed_bytes = FeedBytes()
    cluster.feed_bytes = feed_bytes
    arrivals = {}  # node name -> [dict seq -> arrival time] per follower
    for node_name in ("b", "c"):
        for index in range(spectators_per_node):
            seen = {}
            arrivals.setdefault(node_name, []).append(seen)
            cluster.followers.append(Follower(
                f"spectator {node_name}{index}", game_id, nodes[node_name].url, cluster.balancer.url,
                "deflate" if index % 2 == 0 else None, feed_bytes, arrivals=seen,
                went_back=cluster.where_is_everyone))
    cluster.followers.append(EventFollower("event stream", game_id, cluster.balancer.url, feed_bytes))
    cluster.follower_tasks = [asyncio.create_task(f.run()) for f in cluster.followers]
    await asyncio.wait([asyncio.create_task(f.connected.wait()) for f in cluster.followers], timeout=10)
    connected = sum(f.connected.is_set() for f in cluster.followers)
    offered = [f for f in cluster.followers if getattr(f, "compression", None) == "deflate"]
    deflated = sum(bool(f.deflate) for f in offered)
    checks.report(
        "fanout/subscribe", connected == len(cluster.followers) and deflated == len(offered),
        f"{connected} of {len(cluster.followers)} subscribed ({spectators_per_node} on each of b and c, the event "
        f"stream through caddy); {deflated} of {len(offered)} agreed permessage-deflate"
        + ("" if connected == len(cluster.followers) else
           f"; e.g. {next(f for f in cluster.followers if not f.connected.is_set()).last_error}"))

    ledger = Ledger("fan")
    cluster.ledgers.append(ledger)
    scorer = Scorer("scorer a", game_id, cluster.scorer_token, ledger, cluster.rng, lambda: nodes["a"].url,
                    window=8, rate=50, feed_bytes=feed_bytes, one_points=cluster.one_points)
    stop = asyncio.Event()
    task = asyncio.create_task(scorer.run(stop, cluster.within(30)))
    while len(ledger.commands) < commands and not task.done():
        await asyncio.sleep(0.05)
    scorer.generate = False
    stop.set()
    await task
    acked = len(ledger.acks)
    checks.report(
        "fanout/acks", acked == len(ledger.commands) and not ledger.problems,
        f"{acked} of {len(ledger.commands)} moves acked on a, answers p50 {percentile(ledger.answer_times, 0.5) * 1000:.0f} "
        f"ms p99 {percentile(ledger.answer_times, 0.99) * 1000:.0f} ms; problems: {short(ledger.problems)}")

    reference, problems = await cluster.converged(game_id, cluster.within(8))
    if reference is None:
        checks.report("fanout/nodes", False, f"a, b and c do not serve one document: {short(problems)}")
        snapshot, _ = await cluster.snapshot(nodes["a"], game_id)
        reference = snapshot
    else:
        checks.report("fanout/nodes", True, f"GET /api/games/{game_id} on a, b and c: seq {reference['seq']}, one document")
    if reference is None:
        return False
    problems = await cluster.followers_in_step(cluster.followers, reference["seq"], reference["state"],
                                               cluster.within(8))
    checks.report("fanout/followers", not problems,
                  f"{len(cluster.followers)} subscribers at seq {reference['seq']} with GET's document, no gap, no "
                  f"repeat" if not problems else short(problems))
    checks.report("fanout/bytes", not feed_bytes.mismatches and feed_bytes.compared > 0,
                  f"{feed_bytes.compared} patches compared with the first copy of their seq: "
                  + ("byte-identical on every node" if not feed_bytes.mismatches else short(feed_bytes.mismatches, 2)))
    seq_sent = {ack["seq"]: ledger.sent_at[cid] for cid, ack in ledger.acks.items()}
    figures = []
    for node_name, maps in arrivals.items():
        delays = [seen[seq] - sent for seen in maps for seq, sent in seq_sent.items() if seq in seen]
        figures.append(f"{node_name} p50 {percentile(delays, 0.5) * 1000:.0f} ms p99 "
                       f"{percentile(delays, 0.99) * 1000:.0f} ms ({len(delays)} deliveries)")
    print(f"     scorer on a to spectators: {'; '.join(figures)}", flush=True)
    for seen in (s for maps in arrivals.values() for s in maps):
        seen.clear()
    for follower in cluster.followers:
        follower.arrivals = None
    return True


async def race(cluster, own, shared):
    checks = cluster.checks
    nodes = cluster.nodes
    try:
        game_id, token = await cluster.create_game(cluster.balancer.url)
    except RuntimeError as error:
        checks.report("race", False, str(error))
        return
    base, error = await cluster.snapshot(nodes["a"], game_id)
    base_seq = base["seq"] if base else 0
    ledger = Ledger("race")
    one_points = collections.Counter()
    shared_ids = [ledger.new_command(cluster.rng, one_points)["id"] for _ in range(shared)]
    scorers = []
    gate = asyncio.Event()
    watchers = [Follower(f"race spectator c{i}", game_id, nodes["c"].url, cluster.balancer.url, None, FeedBytes())
                for i in range(2)]
    watcher_tasks = [asyncio.create_task(w.run()) for w in watchers]
    for name in ("a", "b"):
        scorer = Scorer(f"race scorer {name}", game_id, token, ledger, cluster.rng,
                        (lambda node=nodes[name]: node.url), window=8, rate=200, one_points=one_points, gate=gate)
        scorer.generate = False
        mine = [ledger.new_command(cluster.rng, one_points)["id"] for _ in range(own)]
        # Interleaved: both scorers reach every shared id at about the same moment.
        scorer.enqueue([cid for pair in zip(shared_ids, mine) for cid in pair] + mine[len(shared_ids):])
        scorers.append(scorer)
    stop = asyncio.Event()
    stop.set()
    racing = asyncio.gather(*(s.run(stop, cluster.within(30)) for s in scorers))
    # Both connected (or 5 s), then both start at once.
    wait_until = time.monotonic() + 5
    while time.monotonic() < wait_until and not all(s.connections for s in scorers):
        await asyncio.sleep(0.02)
    gate.set()
    await racing
    distinct = len(ledger.commands)
    acked = len(ledger.acks)
    checks.report(
        "race/acks", acked == distinct and ledger.reacks_checked >= shared and not ledger.problems,
        f"{acked} of {distinct} ids acked by scorers on a and b; {ledger.reacks_checked} second acks equal to the "
        f"first (the {shared} ids both sent); problems: {short(ledger.problems)}")
    reference, problems = await cluster.converged(game_id, cluster.within(8))
    if reference is not None:
        problems = count_problems(reference["state"], ledger.expected_counts())
        problems += await cluster.history_problems(game_id, [ledger], base_seq)
        problems += await cluster.followers_in_step(watchers, reference["seq"], reference["state"],
                                                    cluster.within(5))
    for task in watcher_tasks:
        task.cancel()
    checks.report("race/history", not problems,
                  f"one history: seqs {base_seq + 1}..{base_seq + acked} are the {acked} acked ids, each applied once, "
                  f"at its acked seq in the plays; the same document on a, b, c and two spectators on c" if not problems else short(problems))
