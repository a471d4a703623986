"""Phases 3 and 4 of the cluster test (failures: docs/cluster.md), on the main game with every follower of
phase 1 still subscribed:

3. Partition: node c reaches Redis only through the test's PartitionProxy. While it is cut (bytes held, nothing
   closed), a scorer on c gets `unavailable` for every command within a few seconds (none acked), c's /healthz
   turns 503 naming Redis, the balancer stops sending requests to it, and a scorer through the balancer is still
   acked by a and b. Healed, c is healthy again, the same ids are acked once, and every node and follower converges.
4. Kills: `node_kills` SIGKILLs of a random node (restarted on the same port and data directory) and `redis_kills`
   of Redis (restarted on the same AOF), in a seeded random order, while a scorer through the balancer keeps
   sending and retries unacked ids: every answer comes within the deadline (`unavailable` while Redis is down),
   every acked command is in the final history exactly once, and every follower, resuming with `since=N` through
   the balancer after each drop, is back in step with no gap and no duplicate.
"""

import asyncio
import time

from cluster_clients import Ledger, Scorer, percentile
from cluster_state import short
from counted_moves import count_problems


def ms(seconds):
    return f"{seconds * 1000:.0f} ms"


async def until(predicate, deadline, interval=0.1):
    """Polls an async predicate until it is true (returns the seconds it took) or the deadline (None)."""
    started = time.monotonic()
    while True:
        if await predicate():
            return time.monotonic() - started
        if time.monotonic() >= deadline:
            return None
        await asyncio.sleep(interval)


async def health_turns(node, wanted, since, seconds):
    """Polls `node`'s /healthz until it answers `wanted` or `seconds` after `since` passed: (the seconds from `since`
    to that answer or None, the last status, the last body)."""
    status, body = None, ""
    while time.monotonic() - since < seconds:
        status, body = await node.health(timeout=1)
        if status == wanted:
            return time.monotonic() - since, status, body
        await asyncio.sleep(0.2)
    return None, status, body


async def final_state(cluster, phase, deadline):
    """Every node on one document whose counts equal every acked command, and every follower on it."""
    checks = cluster.checks
    reference, problems = await cluster.converged(cluster.game_id, deadline)
    if reference is None:
        checks.report(f"{phase}/nodes", False, f"the nodes do not converge: {short(problems)}")
        return None
    counts = count_problems(reference["state"], cluster.expected_counts())
    acked = sum(len(ledger.acks) for ledger in cluster.ledgers)
    checks.report(f"{phase}/acked", not counts,
                  f"a, b, c at seq {reference['seq']}, one document; its counts equal the {acked} acked moves (none "
                  f"lost, none twice)" if not counts else short(counts))
    problems = await cluster.followers_in_step(cluster.followers, reference["seq"], reference["state"],
                                               cluster.within(15))
    resumes = {"patch": 0, "snapshot": 0}
    for follower in cluster.followers:
        for kind, count in follower.resume.resumes.items():
            resumes[kind] = resumes.get(kind, 0) + count
    checks.report(f"{phase}/followers", not problems,
                  f"{len(cluster.followers)} subscribers in step at seq {reference['seq']}; resumed "
                  f"{resumes['patch']} times with the missed patches, {resumes['snapshot']} with a snapshot"
                  if not problems else short(problems)
                  + (f"; nodes when a resume went back: {short(cluster.behind, 2)}" if cluster.behind else ""))
    return reference


async def partition(cluster):
    checks = cluster.checks
    nodes, proxy = cluster.nodes, cluster.proxy
    main = Ledger("part")
    cut_ledger = Ledger("cut")
    cluster.ledgers += [main, cut_ledger]
    through = Scorer("scorer via caddy", cluster.game_id, cluster.scorer_token, main, cluster.rng,
                     lambda: cluster.balancer.url, window=4, rate=15, one_points=cluster.one_points)
    on_c = Scorer("scorer on c", cluster.game_id, cluster.scorer_token, cut_ledger, cluster.rng,
                  lambda: nodes["c"].url, window=1, rate=3, one_points=cluster.one_points)
    stop_through, stop_c = asyncio.Event(), asyncio.Event()
    before = await nodes["c"].health()
    if before[0] != 200:
        checks.report("partition/before", False, f"c's /healthz before the cut: {before[0]} {before[1][:160]}")
    through_task = asyncio.create_task(through.run(stop_through, cluster.within(45)))
    await asyncio.sleep(0.5)
    acked_before = len(main.acks)

    proxy.cut()
    cut_at = time.monotonic()
    on_c_task = asyncio.create_task(on_c.run(stop_c, cluster.within(45)))
    seen_503, status, body = await health_turns(nodes["c"], 503, cut_at, 10)
    checks.report("partition/healthz", seen_503 is not None and "redis" in body.lower(),
                  f"c's /healthz 503 {seen_503:.1f} s after the cut: {body[:160]}" if seen_503 is not None
                  else f"c's /healthz still {status} 10 s after the cut: {body[:160]}")
    drained = []
    if seen_503 is not None:
        await asyncio.sleep(1.5)  # two of caddy's health checks (every 0.5 s)
        for _ in range(15):
            status, _ = await (caddy_health(cluster))
            drained.append(status)
    checks.report("partition/drained", bool(drained) and all(status == 200 for status in drained),
                  f"through caddy, /healthz answered {drained.count(200)} of {len(drained)} times 200 while c was cut "
                  f"off (c is out of rotation)" if drained else "not checked: c's /healthz never failed, so caddy "
                  "cannot drain it")
    hold = max(0.0, 6 - (time.monotonic() - cut_at))
    await asyncio.sleep(hold)
    acked_during = len(main.acks) - acked_before
    acked_on_c = len(cut_ledger.acks)
    answered = len(cut_ledger.answer_times)
    proxy.heal()
    healed_at = time.monotonic()
    checks.report(
        "partition/unavailable",
        acked_on_c == 0 and cut_ledger.unavailable > 0 and not cut_ledger.hung
        and percentile(cut_ledger.unavailable_times, 0.99) <= 5.0,
        f"while cut ({healed_at - cut_at:.1f} s): {len(cut_ledger.commands)} moves sent to c, {acked_on_c} acked, "
        f"{cut_ledger.unavailable} answers 'unavailable' of {answered} (p50 {ms(percentile(cut_ledger.unavailable_times, 0.5))}, "
        f"max {ms(max(cut_ledger.unavailable_times, default=float('nan')))}), {cut_ledger.hung} left hanging; "
        f"{acked_during} moves acked through caddy meanwhile; problems: {short(cut_ledger.problems)}"
        + (f"; last connection error on c: {on_c.last_error}" if on_c.last_error else ""))
    if acked_during == 0:
        checks.report("partition/others", False, "a and b acked nothing through caddy while c was cut off")

    recovered = await until(nodes["c"].healthy, cluster.within(20), 0.2)
    stop_c.set()
    await on_c_task
    stop_through.set()
    await through_task
    checks.report(
        "partition/heal", recovered is not None and len(cut_ledger.acks) == len(cut_ledger.commands),
        (f"c healthy {recovered:.1f} s after the heal" if recovered is not None else "c not healthy 20 s after the heal")
        + f"; {len(cut_ledger.acks)} of {len(cut_ledger.commands)} refused ids acked on retry, {cut_ledger.reacks_checked} "
          f"re-sent acked ids answered with their first ack")
    await final_state(cluster, "partition", cluster.within(15))


async def caddy_health(cluster):
    from courtside_client import http_call

    try:
        result = await http_call(cluster.balancer.url, "GET", "/healthz", timeout=2)
        return result.status, result.body
    except (OSError, asyncio.TimeoutError) as error:
        return None, str(error)


async def kills(cluster, node_kills, redis_kills, budget):
    checks = cluster.checks
    rng = cluster.rng
    ledger = Ledger("kill")
    cluster.ledgers.append(ledger)
    scorer = Scorer("scorer via caddy", cluster.game_id, cluster.scorer_token, ledger, rng,
                    lambda: cluster.balancer.url, window=8, rate=12, answer_deadline=8,
                    one_points=cluster.one_points)
    stop = asyncio.Event()
    started = time.monotonic()
    # What the run has left, less the drain and the final comparisons.
    budget = max(5.0, min(budget, cluster.deadline - started - 45))
    task = asyncio.create_task(scorer.run(stop, started + budget + 20))
    plan = ["node"] * node_kills + ["redis"] * redis_kills
    rng.shuffle(plan)
    problems = []
    restarts, recoveries = [], []
    done = {"node": 0, "redis": 0}
    for event in plan:
        if time.monotonic() - started > budget:
            problems.append(f"out of the {budget:.0f} s budget after {sum(done.values())} of {len(plan)} kills")
            break
        try:
            if event == "node":
                name = rng.choice(sorted(cluster.nodes))
                node = cluster.nodes[name]
                node.kill()
                await asyncio.sleep(rng.uniform(0.2, 1.0))
                restarts.append(await node.start(deadline=15))
            else:
                # Only the nodes healthy before are waited for: one already failing for another reason (reported
                # by its own check) must not cost every round its deadline.
                healthy = [node for node in cluster.nodes.values() if await node.healthy()]
                cluster.redis.kill()
                await asyncio.sleep(rng.uniform(0.3, 1.5))
                await cluster.redis.start()
                back = await until(all_healthy(healthy), cluster.within(15), 0.1)
                if back is None:
                    health = await cluster.node_health_all()
                    problems.append(f"nodes not all healthy 15 s after Redis restarted: {health}")
                else:
                    recoveries.append(back)
        except RuntimeError as error:
            problems.append(f"{event} kill {done[event] + 1}: {error}")
        done[event] += 1
        for name, node in cluster.nodes.items():
            if not node.alive():
                problems.append(f"{node.name} exited by itself (status {node.exit_status()}): {node.log_tail(3)}")
                try:
                    await node.start(deadline=15)
                except RuntimeError as error:
                    problems.append(str(error))
        await asyncio.sleep(rng.uniform(0.3, 1.0))
    scorer.generate = False
    stop.set()
    drain = max(2.0, min(20.0, cluster.deadline - time.monotonic() - 25))
    await asyncio.wait([task], timeout=drain)
    if not task.done():
        task.cancel()
        problems.append(f"the scorer did not get every command answered within {drain:.0f} s of the last kill")
    elapsed = time.monotonic() - started
    checks.report(
        "kills/run", not problems,
        f"{done['node']} node kills (restart to healthy p50 {ms(percentile(restarts, 0.5))}, max "
        f"{ms(max(restarts, default=float('nan')))}), {done['redis']} Redis kills (every node healthy again p50 "
        f"{ms(percentile(recoveries, 0.5))}, max {ms(max(recoveries, default=float('nan')))}) in {elapsed:.0f} s"
        + (f"; problems: {short(problems)}" if problems else ""))
    unanswered = len(ledger.commands) - len(ledger.acks) - len(ledger.refused)
    checks.report(
        "kills/answers", not ledger.hung and not ledger.problems and unanswered == 0,
        f"{len(ledger.commands)} moves sent through caddy, {len(ledger.acks)} acked, {unanswered} never acked, "
        f"{ledger.retries} retries with the same id, {ledger.unavailable} 'unavailable' answers (p99 "
        f"{ms(percentile(ledger.unavailable_times, 0.99))}), {ledger.hung} left hanging over 8 s, "
        f"{ledger.reacks_checked} re-sent acked ids answered with their first ack; answers p50 "
        f"{ms(percentile(ledger.answer_times, 0.5))} p99 {ms(percentile(ledger.answer_times, 0.99))}; problems: "
        f"{short(ledger.problems)}")
    reference = await final_state(cluster, "kills", cluster.within(15))
    if reference is not None:
        history = await cluster.history_problems(cluster.game_id, cluster.ledgers, cluster.base_seq)
        checks.report("kills/history", not history,
                      f"the game's seqs after its creation are its {sum(len(l.acks) for l in cluster.ledgers)} acked "
                      f"moves, none skipped, each once in the plays at its acked seq" if not history else short(history))


def all_healthy(nodes):
    async def check():
        for node in nodes:
            if not await node.healthy():
                return False
        return True

    return check
