#!/usr/bin/env python3
"""The cluster test (cluster.md): several `courtside serve --redis` nodes share every game through one Redis, behind a
real balancer, and a node's or Redis's death loses nothing acked.

On loopback, in a temporary directory: Debian's `redis-server` (AOF, `appendfsync always`, a password), three nodes
a, b and c (c reaches Redis through the test's PartitionProxy), and Caddy in front with active health checks on
/healthz. Then, each phase printing one line per check with its figures:

1. ids and fan-out (phase_fanout.py): games created on every node at once; a scorer on a, 25 spectators on each of
   b and c (half with permessage-deflate) and an event stream reader through Caddy, in step and equal to
   GET /api/games/{id} on every node, patches byte-identical;
2. two scorers on a and b racing on one game: one history, each id applied once;
3. courts and the pickup queue (phase_courts.py): a court made on a, teams joining on every node at once, a court
   display on b following a game put on through c, each seen everywhere within a second;
4. a partition of c from Redis (phase_faults.py): `unavailable`, /healthz 503, drained, nothing acked lost, healed;
5. 20 node kills and 10 Redis kills while a scorer retries unacked ids: every acked move present exactly once,
   every follower back in step after resuming with since=N.

Bounded everywhere (counts and deadlines, `--budget` for the kills, `--total` for the run); exits 1 when any check
failed. `--seed` replays the kill order, the delays and the moves; `--sabotage` runs Redis without its AOF, so the
run must fail (acked moves lost at the first Redis kill).
"""

import os
import secrets
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "e2e"), os.path.join(HERE, "..", "..", "scripts", "lib")]

from cluster_processes import Balancer, Node, RedisProcess  # noqa: E402
from cluster_state import Cluster, cluster_parser, run_checks, run_cluster  # noqa: E402
from partition_proxy import PartitionProxy  # noqa: E402
import phase_courts  # noqa: E402
import phase_fanout  # noqa: E402
import phase_faults  # noqa: E402


async def start_cluster(args, checks, rng, deadline):
    password = secrets.token_hex(16)
    admin_token = f"cluster-admin-{secrets.token_hex(12)}"
    redis = RedisProcess(args.work, password, durable=not args.sabotage)
    started = time.monotonic()
    await redis.start()
    proxy = PartitionProxy(redis.port)
    await proxy.start()
    public = os.path.join(args.work, "public")
    os.makedirs(public, exist_ok=True)
    nodes = {
        name: Node(name, args.courtside, args.work, admin_token, redis.url(proxy.port if name == "c" else None), public)
        for name in ("a", "b", "c")
    }
    balancer = Balancer(args.work, list(nodes.values()))
    cluster = Cluster([redis], proxy, nodes, balancer, admin_token, rng, checks, deadline)
    if not await cluster.start_nodes():
        return cluster, False
    checks.report("start", True,
                  f"redis-server on :{redis.port} ({'AOF, appendfsync always' if redis.durable else 'NO AOF (--sabotage)'}, a password), nodes a :{nodes['a'].port}, "
                  f"b :{nodes['b'].port}, c :{nodes['c'].port} (c through the partition proxy :{proxy.port}), caddy "
                  f":{balancer.port}, in {time.monotonic() - started:.1f} s")
    return cluster, True


async def run(args, checks):
    async def phases(cluster):
        if await phase_fanout.fanout(cluster, args.spectators, args.commands):
            await phase_fanout.race(cluster, own=40, shared=20)
            await phase_courts.courts(cluster)
            await phase_faults.partition(cluster)
            await phase_faults.kills(cluster, args.node_kills, args.redis_kills, args.budget)

    return await run_cluster(args, checks, start_cluster, phases)


def main():
    parser = cluster_parser(__doc__, "Redis, the nodes and Caddy")
    parser.add_argument("--spectators", type=int, default=25, help="spectators on each of b and c")
    parser.add_argument("--commands", type=int, default=100, help="moves of the fan-out phase")
    parser.add_argument("--node-kills", type=int, default=20)
    parser.add_argument("--redis-kills", type=int, default=10)
    parser.add_argument("--budget", type=float, default=110, help="seconds for all the kills, at most")
    parser.add_argument("--total", type=float, default=200, help="seconds for the whole run; every phase is cut short "
                        "to keep within it (the kills first)")
    parser.add_argument("--sabotage", action="store_true",
                        help="run Redis without its AOF: a Redis kill -9 then loses acked moves, and the run must FAIL "
                        "(a test of this test)")
    return run_checks("cluster", run, parser.parse_args(), grace=20, replays="the kills, delays and moves")


if __name__ == "__main__":
    sys.exit(main())
