#!/usr/bin/env python3
"""The "Past one Redis" test: games partitioned over two Redis servers by id (docs/cluster.md), three nodes
behind Caddy, and the failures that must stop only one partition's games or drain only one node.

On loopback, in a temporary directory: two `redis-server`s (AOF, `appendfsync always`, a password), r0 and r1;
three release `courtside serve --redis R0,R1` nodes a, b and c (c reaches r1 through the test's PartitionProxy, r0
directly) and Caddy in front with active health checks on /healthz. Reusing the cluster test's processes, clients
and checks (cluster_processes, cluster_clients, cluster_state, partition_proxy), it checks, one line each:

- `start/refused`: a fourth node given the list in the other order exits at start, naming the server out of place;
- `games`: two games created through Caddy land one on each partition (`game-N` and `game-1-N`) and every node
  serves both; a scorer through Caddy and spectators (on b and c, reconnecting through Caddy) follow each;
- `redis-kill/*`: r1 is killed (`kill -9`) for a few seconds: its game's commands are answered `unavailable` and
  none is acked, while r0's game keeps being acked; no node's /healthz fails meanwhile (polled every 0.25 s); r1
  restarted on its AOF, the refused ids are acked on retry;
- `down-at-start/*`: while r1 is still down, a node e starts with the right list: it serves r0's game and answers
  `unavailable` for r1's; once r1 is back, e serves r1's game (loaded from r1);
- `cut/*`: the proxy stops forwarding between c and r1 without closing anything: c's /healthz turns 503 naming the
  partition, a's and b's stay 200, Caddy drains c; a scorer on c is refused `unavailable` for r1's game but still
  acked for r0's; new scorers through Caddy are acked on both games; healed, c is healthy again;
- `final/*`: per game, every node on one document, its counts equal to the acked moves, the seqs exactly the acked
  ones each once in the plays, and every spectator in step with no gap and no repeat.

Bounded (counts, deadlines, `--total`); exits 1 when any check failed; `--seed` replays the moves.
"""

import asyncio
import collections
import os
import secrets
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "e2e"), os.path.join(HERE, "..", "..", "scripts", "lib")]

from cluster_clients import FeedBytes, Follower, Ledger, Scorer, percentile  # noqa: E402
from cluster_processes import Balancer, Node, RedisProcess  # noqa: E402
from cluster_state import Cluster, cluster_parser, expected_counts, run_checks, run_cluster, short  # noqa: E402
from counted_moves import count_problems  # noqa: E402
from courtside_client import http_call  # noqa: E402
from partition_proxy import PartitionProxy  # noqa: E402
from phase_faults import caddy_health, health_turns, ms, until  # noqa: E402

# What `courtside` prints when a list's order does not match what the servers store (RedisPartitionError).
REORDERED = "is listed as partition 0 but stores partition 1 of 2"


class PartitionGame:
    """One game of one partition, with its scorer's ledgers, its one-point counter and its spectators."""

    def __init__(self, partition, game_id, token):
        self.partition = partition
        self.id = game_id
        self.token = token
        self.base_seq = 0
        self.ledgers = []
        self.one_points = collections.Counter()
        self.followers = []

    def ledger(self, prefix):
        ledger = Ledger(f"{prefix}-p{self.partition}")
        self.ledgers.append(ledger)
        return ledger

    def expected_counts(self):
        return expected_counts(self.ledgers)

    def acked(self):
        return sum(len(ledger.acks) for ledger in self.ledgers)


class HealthWatch:
    """Polls the nodes' /healthz every `interval` until stopped, keeping every answer that was not 200."""

    def __init__(self, nodes, interval=0.25):
        self.nodes = nodes
        self.interval = interval
        self.polls = 0
        self.failures = []
        self.stop = asyncio.Event()

    async def run(self):
        while not self.stop.is_set():
            for node in self.nodes:
                status, body = await node.health(timeout=2)
                self.polls += 1
                if status != 200:
                    self.failures.append(f"{node.name} {status}: {body[:120]}")
            try:
                await asyncio.wait_for(self.stop.wait(), self.interval)
            except asyncio.TimeoutError:
                pass


async def start_cluster(args, checks, rng, deadline):
    password = secrets.token_hex(16)
    admin_token = f"partitions-admin-{secrets.token_hex(12)}"
    started = time.monotonic()
    redises = []
    for index in range(2):
        directory = os.path.join(args.work, f"r{index}")
        os.makedirs(directory, exist_ok=True)
        redises.append(RedisProcess(directory, password))
    await asyncio.gather(*(redis.start() for redis in redises))
    proxy = PartitionProxy(redises[1].port)
    await proxy.start()
    public = os.path.join(args.work, "public")
    os.makedirs(public, exist_ok=True)
    lists = {
        "a": f"{redises[0].url()},{redises[1].url()}",
        "b": f"{redises[0].url()},{redises[1].url()}",
        "c": f"{redises[0].url()},{redises[1].url(proxy.port)}",
    }
    nodes = {name: Node(name, args.courtside, args.work, admin_token, urls, public) for name, urls in lists.items()}
    balancer = Balancer(args.work, list(nodes.values()))
    cluster = Cluster(redises, proxy, nodes, balancer, admin_token, rng, checks, deadline)
    if not await cluster.start_nodes():
        return cluster, False
    checks.report("start", True,
                  f"redis-server r0 :{redises[0].port} and r1 :{redises[1].port} (AOF, appendfsync always, a "
                  f"password), nodes a :{nodes['a'].port}, b :{nodes['b'].port}, c :{nodes['c'].port} (c reaches r1 "
                  f"through the partition proxy :{proxy.port}), caddy :{balancer.port}, in "
                  f"{time.monotonic() - started:.1f} s")
    return cluster, True


async def reordered_list_refused(cluster, args):
    """A node given r1,r0 must not start: the servers recorded their places when a, b and c started."""
    redises = cluster.redises
    node = Node("d", args.courtside, args.work, cluster.admin_token, f"{redises[1].url()},{redises[0].url()}",
                os.path.join(args.work, "public"))
    try:
        await node.start(deadline=20)
        ok, detail = False, "node d started with the list reordered"
    except RuntimeError as error:
        text = str(error) + "\n" + node.log_tail(8)
        ok = REORDERED in text and node.exit_status() not in (None, 0)
        detail = (f"node d with r1,r0 exited with status {node.exit_status()}: "
                  f"{next((line for line in text.splitlines() if REORDERED in line), text[-200:])[:220]}")
    finally:
        node.stop(grace=5)
    cluster.checks.report("start/refused", ok, detail)


async def create_games(cluster):
    """Two games through Caddy: the partition with the fewest games takes each, so one lands on each."""
    games = []
    for _ in range(2):
        game_id, token = await cluster.create_game(cluster.balancer.url)
        partition = 1 if game_id.count("-") == 2 else 0
        games.append(PartitionGame(partition, game_id, token))
    problems = []
    if sorted(game.partition for game in games) != [0, 1]:
        problems.append(f"ids {[game.id for game in games]} are not one game-N and one game-1-N")
    for game in games:
        reference, differences = await cluster.converged(game.id, cluster.within(5))
        if reference is None:
            problems.append(f"{game.id} not served alike by a, b and c: {short(differences)}")
        else:
            game.base_seq = reference["seq"]
    cluster.checks.report("games", not problems,
                          f"{', '.join(game.id for game in games)} created through caddy, one on each partition, "
                          f"served by a, b and c" if not problems else short(problems))
    return sorted(games, key=lambda game: game.partition) if not problems else None


async def follow(cluster, games, per_node):
    for game in games:
        for node_name in ("b", "c"):
            for index in range(per_node):
                game.followers.append(Follower(
                    f"spectator p{game.partition} {node_name}{index}", game.id, cluster.nodes[node_name].url,
                    cluster.balancer.url, "deflate" if index % 2 == 0 else None, FeedBytes()))
    followers = [f for game in games for f in game.followers]
    cluster.follower_tasks = [asyncio.create_task(f.run()) for f in followers]
    await asyncio.wait([asyncio.create_task(f.connected.wait()) for f in followers], timeout=10)
    connected = sum(f.connected.is_set() for f in followers)
    cluster.checks.report("games/subscribe", connected == len(followers),
                          f"{connected} of {len(followers)} spectators subscribed ({per_node} per game on each of b "
                          f"and c)")


def scorer(cluster, game, prefix, url, rate, window=4):
    return Scorer(f"scorer {prefix} p{game.partition}", game.id, game.token, game.ledger(prefix), cluster.rng, url,
                  window=window, rate=rate, one_points=game.one_points)


async def redis_kill(cluster, games, running, hold, args):
    """kill -9 of r1 for `hold` seconds while both games' scorers run through Caddy."""
    checks = cluster.checks
    zero, one = games
    zero_ledger, one_ledger = running[0].ledger, running[1].ledger
    watch = HealthWatch(list(cluster.nodes.values()))
    watch_task = asyncio.create_task(watch.run())
    unavailable_before = one_ledger.unavailable
    cluster.redises[1].kill()
    killed_at = time.monotonic()
    await asyncio.sleep(1.0)  # an ack already on its way when Redis died may still arrive
    one_acked, zero_acked = len(one_ledger.acks), len(zero_ledger.acks)
    await asyncio.sleep(max(0.0, hold - 1.0))
    one_acked_down = len(one_ledger.acks) - one_acked
    zero_acked_down = len(zero_ledger.acks) - zero_acked
    watch.stop.set()
    await watch_task
    down = time.monotonic() - killed_at
    checks.report(
        "redis-kill/partition", one_acked_down == 0 and one_ledger.unavailable > unavailable_before,
        f"r1 down {down:.1f} s: {game_label(one)} acked {one_acked_down} moves after the first second, answered "
        f"'unavailable' {one_ledger.unavailable - unavailable_before} times (p99 "
        f"{ms(percentile(one_ledger.unavailable_times, 0.99))})")
    checks.report("redis-kill/others", zero_acked_down > 0,
                  f"{game_label(zero)} acked {zero_acked_down} moves through caddy meanwhile")
    checks.report("redis-kill/healthz", not watch.failures and watch.polls > 0,
                  f"{watch.polls} /healthz polls of a, b and c while r1 was down, "
                  f"{len(watch.failures)} not 200: {short(watch.failures)}")
    late = await start_while_down(cluster, games, args)
    await cluster.redises[1].start()
    restarted_at = time.monotonic()
    await loaded_when_back(cluster, late, one)
    before = len(one_ledger.acks)
    back = await until(lambda: acked_more(one_ledger, before), cluster.within(15), 0.1)
    checks.report("redis-kill/back", back is not None,
                  f"r1 restarted on its AOF: {game_label(one)} acked again {back:.1f} s later" if back is not None
                  else f"{game_label(one)} acked nothing within 15 s of r1's restart "
                  f"(last error: {running[1].last_error})")
    return time.monotonic() - restarted_at


async def start_while_down(cluster, games, args):
    """Node e starts while r1 is down: it serves r0's game and answers `unavailable` for r1's."""
    zero, one = games
    node = Node("e", args.courtside, args.work, cluster.admin_token,
                f"{cluster.redises[0].url()},{cluster.redises[1].url()}", os.path.join(args.work, "public"))
    try:
        took = await node.start(deadline=20)
    except RuntimeError as error:
        cluster.checks.report("down-at-start/serves", False, f"node e did not start while r1 was down: {error}")
        node.stop(grace=5)
        return None
    served = await http_call(node.url, "GET", f"/api/games/{zero.id}", timeout=5)
    waiting = await http_call(node.url, "GET", f"/api/games/{one.id}", timeout=5)
    code = waiting.json().get("code") if waiting.status == 503 else None
    cluster.checks.report("down-at-start/serves", served.status == 200 and code == "unavailable",
                          f"node e started in {took:.1f} s while r1 was down: {game_label(zero)} {served.status}, "
                          f"{game_label(one)} {waiting.status} {code}")
    return node


async def loaded_when_back(cluster, node, game):
    """Once r1 answers again, node e (started while it was down) loads r1's games."""
    if node is None:
        return
    try:
        async def serves():
            return (await http_call(node.url, "GET", f"/api/games/{game.id}", timeout=5)).status == 200

        loaded = await until(serves, cluster.within(15), 0.1)
        cluster.checks.report("down-at-start/loaded", loaded is not None,
                              f"r1 restarted: node e serves {game_label(game)} {loaded:.1f} s later"
                              if loaded is not None else f"node e does not serve {game.id} 15 s after r1's restart")
    finally:
        node.stop(grace=5)


async def acked_more(ledger, count):
    return len(ledger.acks) > count


def game_label(game):
    return f"{game.id} (partition {game.partition})"


async def cut(cluster, games, running, hold):
    """The proxy between c and r1 stops forwarding: c alone is drained; both games go on through Caddy."""
    checks = cluster.checks
    nodes, proxy = cluster.nodes, cluster.proxy
    zero, one = games
    stop_c = asyncio.Event()
    on_c = [scorer(cluster, game, "on-c", lambda: nodes["c"].url, rate=3, window=1) for game in games]
    others = HealthWatch([nodes["a"], nodes["b"]])
    others_task = asyncio.create_task(others.run())
    proxy.cut()
    cut_at = time.monotonic()
    on_c_tasks = [asyncio.create_task(s.run(stop_c, cluster.within(hold + 30))) for s in on_c]
    seen_503, status, body = await health_turns(nodes["c"], 503, cut_at, 10)
    checks.report("cut/healthz", seen_503 is not None and "partition 1" in body,
                  f"c's /healthz 503 {seen_503:.1f} s after the cut: {body[:200]}" if seen_503 is not None
                  else f"c's /healthz still {status} 10 s after the cut: {body[:160]}")
    drained, fresh, fresh_tasks = [], [], []
    stop_fresh = asyncio.Event()
    if seen_503 is not None:
        await asyncio.sleep(1.5)  # two of caddy's health checks (every 0.5 s)
        for _ in range(15):
            drained.append((await caddy_health(cluster))[0])
        # New connections through caddy now reach a or b only: a scorer connecting now is acked on both games. (The
        # scorers already running keep their connections: one that caddy had put on c is answered `unavailable`
        # for r1's game until the heal, as any client of a drained node.)
        fresh = [scorer(cluster, game, "fresh", lambda: cluster.balancer.url, rate=4, window=2) for game in games]
        fresh_tasks = [asyncio.create_task(s.run(stop_fresh, cluster.within(hold + 30))) for s in fresh]
    checks.report("cut/drained", bool(drained) and all(status == 200 for status in drained),
                  f"through caddy, /healthz answered {drained.count(200)} of {len(drained)} times 200 (c is out of "
                  f"rotation)" if drained else "not checked: c's /healthz never failed")
    await asyncio.sleep(max(0.0, hold - (time.monotonic() - cut_at)))
    others.stop.set()
    await others_task
    checks.report("cut/others-healthy", not others.failures and others.polls > 0,
                  f"{others.polls} /healthz polls of a and b during the cut, {len(others.failures)} not 200: "
                  f"{short(others.failures)}")
    if fresh:
        stop_fresh.set()
        for s in fresh:
            s.generate = False
        await asyncio.wait(fresh_tasks, timeout=10)
        ledgers = [s.ledger for s in fresh]
        checks.report(
            "cut/through-caddy",
            all(ledger.acks and len(ledger.acks) == len(ledger.commands) and ledger.unavailable == 0
                for ledger in ledgers),
            f"after c was drained, new scorers through caddy: {zero.id} {len(ledgers[0].acks)} of "
            f"{len(ledgers[0].commands)} acked, {one.id} {len(ledgers[1].acks)} of {len(ledgers[1].commands)} acked, "
            f"{sum(ledger.unavailable for ledger in ledgers)} 'unavailable'")
    c_zero, c_one = on_c[0].ledger, on_c[1].ledger
    checks.report(
        "cut/on-c", len(c_one.acks) == 0 and c_one.unavailable > 0 and len(c_zero.acks) > 0 and not c_one.hung,
        f"a scorer on c: {game_label(one)} {len(c_one.commands)} sent, {len(c_one.acks)} acked, "
        f"{c_one.unavailable} 'unavailable' (p99 {ms(percentile(c_one.unavailable_times, 0.99))}); "
        f"{game_label(zero)} {len(c_zero.acks)} of {len(c_zero.commands)} acked (c still reaches r0)")
    proxy.heal()
    recovered = await until(nodes["c"].healthy, cluster.within(20), 0.2)
    stop_c.set()
    await asyncio.gather(*on_c_tasks)
    checks.report("cut/heal", recovered is not None and len(c_one.acks) == len(c_one.commands),
                  (f"c healthy {recovered:.1f} s after the heal" if recovered is not None
                   else "c not healthy 20 s after the heal")
                  + f"; {len(c_one.acks)} of {len(c_one.commands)} ids refused on c acked on retry")


async def final(cluster, games):
    checks = cluster.checks
    for game in games:
        label = f"final/p{game.partition}"
        reference, problems = await cluster.converged(game.id, cluster.within(15))
        if reference is None:
            checks.report(f"{label}/nodes", False, f"{game.id}: the nodes do not converge: {short(problems)}")
            continue
        counts = count_problems(reference["state"], game.expected_counts())
        history = await cluster.history_problems(game.id, game.ledgers, game.base_seq)
        checks.report(f"{label}/acked", not counts and not history,
                      f"{game.id} on a, b, c at seq {reference['seq']}, one document; its counts and plays are "
                      f"exactly the {game.acked()} acked moves, each once at its acked seq"
                      if not counts and not history else short(counts + history))
        problems = await cluster.followers_in_step(game.followers, reference["seq"], reference["state"],
                                                   cluster.within(15))
        checks.report(f"{label}/spectators", not problems,
                      f"{len(game.followers)} spectators of {game.id} in step at seq {reference['seq']}, no gap, no "
                      f"repeat" if not problems else short(problems))


async def run(args, checks):
    return await run_cluster(args, checks, start_cluster, lambda cluster: phases(cluster, args))


async def phases(cluster, args):
    checks = cluster.checks
    await reordered_list_refused(cluster, args)
    games = await create_games(cluster)
    if games is None:
        return
    await follow(cluster, games, args.spectators)
    stop = asyncio.Event()
    running = [scorer(cluster, game, "caddy", lambda: cluster.balancer.url, rate=args.rate) for game in games]
    tasks = [asyncio.create_task(s.run(stop, cluster.within(args.total))) for s in running]
    await asyncio.sleep(1.5)
    await redis_kill(cluster, games, running, args.hold, args)
    await asyncio.sleep(1.0)
    await cut(cluster, games, running, args.hold)
    for s in running:
        s.generate = False
    stop.set()
    await asyncio.wait(tasks, timeout=max(2.0, min(20.0, cluster.deadline - time.monotonic() - 20)))
    unanswered = [f"{s.name}: {len(s.ledger.commands) - len(s.ledger.acks)} never acked"
                  for s in running if len(s.ledger.acks) != len(s.ledger.commands)]
    problems = [p for s in running for p in s.ledger.problems] + unanswered
    checks.report("scorers", not problems and not any(s.ledger.hung for s in running),
                  "; ".join(f"{s.name}: {len(s.ledger.acks)} of {len(s.ledger.commands)} acked, "
                            f"{s.ledger.retries} retries, {s.ledger.unavailable} 'unavailable', answers p99 "
                            f"{ms(percentile(s.ledger.answer_times, 0.99))}" for s in running)
                  + (f"; problems: {short(problems)}" if problems else ""))
    await final(cluster, games)


def main():
    parser = cluster_parser(__doc__, "the Redis servers, the nodes and Caddy")
    parser.add_argument("--spectators", type=int, default=4, help="spectators per game on each of b and c")
    parser.add_argument("--rate", type=float, default=10, help="moves per second of each scorer through caddy")
    parser.add_argument("--hold", type=float, default=6, help="seconds r1 stays down, and c stays cut off")
    parser.add_argument("--total", type=float, default=80, help="seconds for the whole run")
    return run_checks("partitions", run, parser.parse_args(), grace=10, replays="the moves")

if __name__ == "__main__":
    sys.exit(main())
