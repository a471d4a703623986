#!/usr/bin/env python3
"""What several nodes and Redis cost one big game (docs/cluster.md; docs/benchmarks.md, "Several nodes and
Redis"): the same game, the same spectators and the same scorer against three set-ups, one after the other in one
run, each started fresh in a temporary directory and stopped:

- `3 nodes + Redis`: three `courtside serve --redis` nodes (a, b, c) sharing one Redis (AOF, `appendfsync always`,
  a password: Tests/cluster's `RedisProcess`); the game is created and scored on a, the spectators are spread
  evenly over a, b and c (b and c get every patch through the Redis feed);
- `1 node + Redis`: one such node holding every spectator;
- `1 node, SQLite`: one node without `--redis` (the embedded journal), for what Redis itself adds.

Spectators are benchmarks/spectators.c processes (one per third of the spectators, so every set-up runs the same
client processes), connecting from 127.0.0.1 ... 127.0.0.16; the scorer is broadcaster_latency.py's (raw sockets,
one command every 1/rate s for `--duration` s: a fixed count). Latency of a delivery = a spectator reading the patch
minus the scorer writing the command, both CLOCK_MONOTONIC (one clock on this machine); the command is matched to
its patch by the seq of its ack. CPU per delivery = the nodes' utime+stime from the first command to the end of the
drain, summed over nodes, divided by the deliveries measured; Redis's CPU over the same window is reported per
command. The processes come from Tests/cluster/cluster_processes.py (imported, not copied); `--threads` is added to
each node's command line.

Bounded: every wait has a deadline, the count of commands is rate x duration, the spectators at most 16,000.
"""

import argparse
import asyncio
import copy
import json
import multiprocessing
import os
import secrets
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path[:0] = [HERE, os.path.join(ROOT, "Tests", "cluster"), os.path.join(ROOT, "Tests", "e2e"),
                os.path.join(ROOT, "scripts", "lib")]

import broadcaster_latency as bl  # noqa: E402
from cluster_processes import Node, RedisProcess  # noqa: E402

SETUPS = {
    "three-nodes": ("3 nodes + Redis", 3, True),
    "one-node-redis": ("1 node + Redis", 1, True),
    "one-node-sqlite": ("1 node, SQLite", 1, False),
}


class BenchNode(Node):
    """A cluster test node with `--threads N` (or the default loops) and, with no Redis URL, the SQLite journal."""

    def __init__(self, *args, threads=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.threads = threads

    def command(self):
        command = super().command()
        if self.redis_url is None:
            at = command.index("--redis")
            del command[at:at + 2]
        if self.threads:
            command += ["--threads", str(self.threads)]
        return command


def start_setup(args, work, node_count, with_redis):
    """Starts Redis (if asked) and the nodes; returns (redis or None, [nodes])."""
    admin_token = f"bench-admin-{secrets.token_hex(12)}"
    public = os.path.join(work, "public")
    os.makedirs(public, exist_ok=True)
    redis = RedisProcess(work, secrets.token_hex(16)) if with_redis else None
    nodes = [BenchNode(name, args.courtside, work, admin_token, redis.url() if redis else None, public,
                       threads=args.threads) for name in "abc"[:node_count]]

    async def start():
        if redis:
            await redis.start()
        await asyncio.gather(*(node.start(deadline=60) for node in nodes))

    asyncio.run(start())
    return redis, nodes, admin_token


def stop_setup(redis, nodes):
    for node in nodes:
        node.stop(grace=10)
    if redis:
        redis.stop(grace=10)


def measure(args, name):
    label, node_count, with_redis = SETUPS[name]
    work = tempfile.mkdtemp(prefix=f"courtside-cluster-fanout-{name}-")
    redis, nodes = None, []
    try:
        redis, nodes, admin_token = start_setup(args, work, node_count, with_redis)
        scorer_node = nodes[0]
        common = copy.copy(args)
        common.port, common.admin_token, common.games, common.drain = scorer_node.port, admin_token, 1, 10.0
        common.spectators_binary, common.deflate = args.spectators_binary, False
        games = bl.create_games(common)
        game = games[0][0]
        # Three spectator processes in every set-up, process i on node i % node_count (so latencies can be split
        # by node).
        per_process = [args.spectators // 3 + (1 if i < args.spectators % 3 else 0) for i in range(3)]
        context = multiprocessing.get_context("fork")
        workers, pipes = [], []
        for i, count in enumerate(per_process):
            node_index = i % node_count
            worker_args = copy.copy(common)
            worker_args.port = nodes[node_index].port
            plan = [(game, f"/ws/games/{game}", None)] * count
            parent_end, child_end = context.Pipe()
            process = context.Process(target=bl.spectator_worker_c,
                                      args=(i, worker_args, plan, {game: 0}, child_end), daemon=True)
            process.start()
            workers.append((process, node_index))
            pipes.append(parent_end)
        scorer_pipe, scorer_child = context.Pipe()
        scorer = context.Process(target=bl.scorer_worker, args=(common, games, scorer_child), daemon=True)
        scorer.start()
        connected = 0
        for i, pipe in enumerate(pipes):
            if not pipe.poll(common.connect_timeout + 30):
                raise SystemExit(f"{label}: spectator process {i} not ready in time")
            _, ready, sample, failed = pipe.recv()
            if failed:
                raise SystemExit(f"{label}: {failed} spectator connections failed ({sample})")
            connected += ready
        if not scorer_pipe.poll(60):
            raise SystemExit(f"{label}: the scorer did not connect")
        scorer_pipe.recv()
        time.sleep(args.settle)  # quiet before the commands: the idle cost stays out of the window
        pids = [node.pid for node in nodes]
        cpu_before = [bl.cpu_seconds(pid) for pid in pids]
        redis_before = bl.cpu_seconds(redis.pid) if redis else 0.0
        window_start = time.monotonic()
        scorer_pipe.send("go")
        if not scorer_pipe.poll(args.duration + 70):
            raise SystemExit(f"{label}: the scorer did not finish")
        _, sent, acked, errors, _ = scorer_pipe.recv()
        time.sleep(args.tail)  # the last patch reaches the farthest spectator (measured: well under a second)
        cpu_after = [bl.cpu_seconds(pid) for pid in pids]
        redis_after = bl.cpu_seconds(redis.pid) if redis else 0.0
        window = time.monotonic() - window_start
        rss = [bl.read_status(pid).get("VmRSS", 0) for pid in pids]
        for pipe in pipes:
            pipe.send("stop")
        received, closed = {}, 0
        for i, pipe in enumerate(pipes):
            if not pipe.poll(60):
                raise SystemExit(f"{label}: spectator process {i} did not report")
            _, worker_received, counts = pipe.recv()
            closed += counts["closed"]
            node_index = workers[i][1]
            received.setdefault(node_index, []).extend(worker_received.get(game, []))
        for process, _ in workers:
            process.join(10)
        scorer.join(10)
    finally:
        stop_setup(redis, nodes)
        shutil.rmtree(work, ignore_errors=True)

    send_time = {seq: sent[cid][1] for cid, seq in acked.items()}
    everything, by_node, unmatched = [], {}, 0
    for node_index, deliveries in received.items():
        for seq, t_ns in deliveries:
            sent_at = send_time.get(seq)
            if sent_at is None:
                unmatched += 1
                continue
            latency = (t_ns - sent_at) / 1e6
            everything.append(latency)
            by_node.setdefault(node_index, []).append(latency)
    everything.sort()
    node_cpu = [after - before for before, after in zip(cpu_before, cpu_after)]
    deliveries = len(everything)
    return {
        "setup": label,
        "nodes": node_count,
        "threads": args.threads or "default",
        "spectators": connected,
        "commandsSent": len(sent),
        "commandsAcked": len(acked),
        "deliveriesExpected": len(acked) * args.spectators,
        "deliveriesMeasured": deliveries,
        "patchesWithoutAck": unmatched,
        "closedEarly": closed,
        "errors": errors[:3],
        "p50ms": round(bl.percentile(everything, 0.50), 2),
        "p99ms": round(bl.percentile(everything, 0.99), 2),
        "maxms": round(everything[-1], 2) if everything else None,
        "p50p99msByNode": {"abc"[index]: [round(bl.percentile(sorted(values), 0.50), 1),
                                          round(bl.percentile(sorted(values), 0.99), 1)]
                           for index, values in sorted(by_node.items())},
        "nodeCPUSeconds": [round(value, 2) for value in node_cpu],
        "serverMicrosecondsPerDelivery": round(sum(node_cpu) / deliveries * 1e6, 2) if deliveries else None,
        "redisCPUSeconds": round(redis_after - redis_before, 3) if redis else None,
        "redisMicrosecondsPerCommand": round((redis_after - redis_before) / len(acked) * 1e6)
        if redis and acked else None,
        "windowSeconds": round(window, 1),
        "nodeRSSMiB": [round(value / 1024, 1) for value in rss],
    }


def complete(result, spectators):
    return (result["spectators"] == spectators and result["commandsAcked"] == result["commandsSent"]
            and result["deliveriesMeasured"] == result["deliveriesExpected"] and result["closedEarly"] == 0
            and result["patchesWithoutAck"] == 0)


def table(results):
    lines = ["| set-up | spectators | commands | p50 ms | p99 ms | max ms | p50 / p99 ms by node | node CPU s "
             "| server µs per delivery | Redis CPU s (µs per command) |",
             "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    for r in results:
        by_node = ", ".join(f"{node} {values[0]:g} / {values[1]:g}" for node, values in r["p50p99msByNode"].items())
        redis = "—" if r["redisCPUSeconds"] is None else f"{r['redisCPUSeconds']:.2f} ({r['redisMicrosecondsPerCommand']:,})"
        lines.append(
            f"| {r['setup']} | {r['spectators']:,} | {r['commandsAcked']} | {r['p50ms']:.1f} | {r['p99ms']:.1f} "
            f"| {r['maxms']:.1f} | {by_node} | {' + '.join(f'{c:.2f}' for c in r['nodeCPUSeconds'])} "
            f"| {r['serverMicrosecondsPerDelivery']:.2f} | {redis} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--courtside", required=True, help="the courtside executable (a release build)")
    parser.add_argument("--spectators-binary", required=True, help="benchmarks/spectators.c, compiled")
    parser.add_argument("--setups", default="three-nodes,one-node-redis,one-node-sqlite",
                        type=lambda text: text.split(","), help=f"any of {', '.join(SETUPS)}, in this order")
    parser.add_argument("--spectators", type=int, default=10_000)
    parser.add_argument("--rate", dest="rate_per_game", type=float, default=3.0, help="commands a second")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of commands")
    parser.add_argument("--threads", type=int, default=1, help="each node's --threads; 0 for the default")
    parser.add_argument("--settle", type=float, default=2.0)
    parser.add_argument("--tail", type=float, default=2.0, help="seconds after the last ack before reading CPU")
    parser.add_argument("--json", action="store_true", help="one JSON line per set-up as well as the table")
    args = parser.parse_args()
    args.host, args.sources, args.connect_batch, args.connect_timeout = "127.0.0.1", 16, 256, 120.0
    args.moves = bl.MOVES
    # The real scoreboard routes, never broadcaster_latency.py's echo-server mode (a flag on the hotpath branch).
    args.echo = False
    unknown = [name for name in args.setups if name not in SETUPS]
    if unknown:
        raise SystemExit(f"unknown set-up {unknown}: use {', '.join(SETUPS)}")
    # One node holds every spectator in the one-node set-ups: 16 source addresses x the server's default cap of
    # 1,024 connections per address is 16,384, under the open-file hard limit (20,000 here) less the node's own.
    if not 3 <= args.spectators <= 16_000:
        raise SystemExit("--spectators: 3 ... 16,000 (one node holds them all: 16 source addresses x its cap of "
                         "1,024 connections per address)")
    bl.raise_open_file_limit(args.spectators + 256)
    results, incomplete = [], []
    for name in args.setups:
        load = open("/proc/loadavg").read().split()[:3]
        print(f"--- {SETUPS[name][0]}: {args.spectators:,} spectators, {args.rate_per_game:g} moves/s for "
              f"{args.duration:g} s ({time.strftime('%H:%M:%S', time.gmtime())} UTC, load {' '.join(load)})",
              flush=True)
        result = measure(args, name)
        results.append(result)
        if args.json:
            print(json.dumps(result), flush=True)
        if not complete(result, args.spectators):
            incomplete.append(result["setup"])
    print(table(results))
    print(f"load average after: {' '.join(open('/proc/loadavg').read().split()[:3])}")
    if incomplete:
        print(f"cluster_fanout: INCOMPLETE: {', '.join(incomplete)} (see the counts in the JSON lines)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
