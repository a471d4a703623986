"""What the cluster test's phases share: the processes, the clients, the checks printed one line each, and the
comparisons every phase ends with (every node's document, the counts against the acks, the followers in step).
"""

import argparse
import asyncio
import collections
import random
import signal
import sys
import time

import jsonpatch
from counted_moves import RULES
from courtside_client import game_request, http_call


class Checks:
    """One line per check, PASS or FAIL with its figures; the run fails when any check failed."""

    def __init__(self):
        self.failed = []
        self.passed = 0
        self.started = time.monotonic()

    def report(self, name, ok, detail):
        if ok:
            self.passed += 1
        else:
            self.failed.append(name)
        print(f"{'PASS' if ok else 'FAIL'} {name}: {detail} ({time.monotonic() - self.started:.1f}s)", flush=True)
        return ok


def cluster_parser(doc, work):
    """The options every cluster test takes: the courtside executable, the work directory (`work` says for what),
    and --seed; the test adds its own."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--courtside", required=True, help="the courtside executable (a release build)")
    parser.add_argument("--work", required=True, help=f"an empty directory for {work}")
    parser.add_argument("--seed", type=int, default=None)
    return parser


def run_checks(name, run, args, grace, replays):
    """Runs `run(args, checks)` within `args.total + grace` seconds and prints the summary line of test `name`;
    returns the exit status (1 when any check failed). A random `args.seed` unless --seed gave one, printed first
    with what it replays (`replays`). SIGTERM (a CI step's timeout) ends the run through its finally blocks, so every
    process it started is stopped."""
    if args.seed is None:
        args.seed = random.randrange(1 << 30)
    print(f"{name}: seed {args.seed} (--seed to replay {replays})", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    started = time.monotonic()
    checks = Checks()
    try:
        asyncio.run(asyncio.wait_for(run(args, checks), args.total + grace))
    except asyncio.TimeoutError:
        pass  # reported as the check "run"
    elapsed = time.monotonic() - started
    if checks.failed:
        print(f"{name}: FAILED {len(checks.failed)} of {checks.passed + len(checks.failed)} checks "
              f"({', '.join(checks.failed)}) in {elapsed:.0f} s", file=sys.stderr)
        return 1
    print(f"{name}: passed all {checks.passed} checks in {elapsed:.0f} s")
    return 0


def short(problems, limit=3):
    """The first few problems of a list, for a check's line."""
    if not problems:
        return "none"
    more = f" (+{len(problems) - limit} more)" if len(problems) > limit else ""
    return "; ".join(problems[:limit]) + more


def expected_counts(ledgers):
    """The counts every node's document must show: the sum of the ledgers' acked moves."""
    counts = collections.Counter()
    for ledger in ledgers:
        counts.update(ledger.expected_counts())
    return counts


async def run_cluster(args, checks, start_cluster, phases):
    """The frame of a cluster test's run: `start_cluster(args, checks, rng, deadline)` answers (cluster, started),
    `phases(cluster)` runs when it started, and every process the cluster started is stopped on every exit path
    (`Cluster.stop`); running out of time (`args.total`, then `run_checks`'s grace) is the failed check `run`."""
    jsonpatch.self_test()
    rng = random.Random(args.seed)
    cluster = None
    deadline = time.monotonic() + args.total
    try:
        cluster, started = await start_cluster(args, checks, rng, deadline)
        if started:
            await phases(cluster)
    except asyncio.CancelledError:
        checks.report("run", False, f"out of time ({args.total:.0f} s for the run, see --total)")
        raise
    finally:
        if cluster is not None:
            await cluster.stop()
    return checks


class Cluster:
    def __init__(self, redises, proxy, nodes, balancer, admin_token, rng, checks, deadline):
        self.redises = redises  # every Redis server, partition 0 first
        self.redis = redises[0]
        self.proxy = proxy
        self.nodes = nodes  # name -> Node
        self.balancer = balancer
        self.admin_token = admin_token
        self.rng = rng
        self.checks = checks
        self.followers = []  # every spectator and event reader of the main game, from the fan-out phase on
        self.ledgers = []  # every ledger of commands on the main game
        self.one_points = collections.Counter()
        self.game_id = None
        self.scorer_token = None
        self.base_seq = 0  # the main game's seq when it was created: its moves are the seqs after it
        self.feed_bytes = None
        self.follower_tasks = []
        self.behind = []  # where_is_everyone's findings
        self.background = set()
        self.deadline = deadline  # the whole run's

    async def start_nodes(self):
        """Starts every node, then Caddy in front of them; False (the failed check `start`) when one did not come
        up within its deadline."""
        try:
            await asyncio.gather(*(node.start(deadline=60) for node in self.nodes.values()))
            await self.balancer.start()
        except RuntimeError as error:
            self.checks.report("start", False, str(error))
            return False
        return True

    async def stop(self):
        """Stops everything the run started, whichever phase it ended in: the followers first (they would keep
        reconnecting), then the proxy, Caddy, the nodes and every Redis, each with a bounded grace."""
        for task in self.follower_tasks:
            task.cancel()
        await self.proxy.close()
        self.balancer.stop(grace=5)
        for node in self.nodes.values():
            node.stop(grace=10)
        for redis in self.redises:
            redis.stop(grace=10)

    def where_is_everyone(self, since, seq):
        """A resume went back (a node answered since=`since` with an older snapshot, `seq`): asks every node for
        the game's seq at once, so the failure's line shows which node was behind."""
        async def ask():
            seqs = []
            for name, node in sorted(self.nodes.items()):
                snapshot, _ = await self.snapshot(node, self.game_id)
                seqs.append(f"{name} {snapshot['seq'] if snapshot else '?'}")
            if len(self.behind) < 5:
                self.behind.append(f"since={since} answered at {seq}; just after, {', '.join(seqs)}")

        task = asyncio.create_task(ask())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def within(self, seconds):
        """A deadline `seconds` from now, never past the run's: a failing phase cannot eat the next one's time."""
        return min(time.monotonic() + seconds, self.deadline)

    async def create_game(self, url):
        created = await http_call(
            url, "POST", "/api/games", token=self.admin_token,
            body=game_request(rules=RULES), timeout=10)
        if created.status != 201:
            raise RuntimeError(f"POST /api/games on {url}: {created}")
        game = created.json()
        return game["id"], game["scorerToken"]

    async def snapshot(self, node, game_id):
        """GET /api/games/{id} on one node: the snapshot message, or None with the reason."""
        try:
            result = await http_call(node.url, "GET", f"/api/games/{game_id}", timeout=5)
        except (OSError, asyncio.TimeoutError) as error:
            return None, f"{node.name}: {type(error).__name__}: {error}"
        if result.status != 200:
            return None, f"{node.name}: {result}"
        return result.json(), None

    async def converged(self, game_id, deadline):
        """Waits until every node serves the game at one seq with one document; returns (snapshot, problems) with
        the last differences seen when the deadline passed."""
        problems = ["never compared"]
        while True:
            snapshots = {}
            problems = []
            for name, node in self.nodes.items():
                snapshot, error = await self.snapshot(node, game_id)
                if error:
                    problems.append(error)
                else:
                    snapshots[name] = snapshot
            if not problems:
                reference_name = sorted(snapshots)[0]
                reference = snapshots[reference_name]
                for name, snapshot in sorted(snapshots.items()):
                    if snapshot["seq"] != reference["seq"]:
                        problems.append(f"seq {snapshot['seq']} on {name}, {reference['seq']} on {reference_name}")
                    elif jsonpatch.canonical(snapshot["state"]) != jsonpatch.canonical(reference["state"]):
                        difference = jsonpatch.first_difference(reference["state"], snapshot["state"])
                        problems.append(f"{name} differs from {reference_name} at seq {snapshot['seq']}: {difference}")
                if not problems:
                    return reference, []
            if time.monotonic() >= deadline:
                return None, problems
            await asyncio.sleep(0.2)

    async def history_problems(self, game_id, ledgers, base_seq):
        """One history: every acked command has its own seq, the seqs after `base_seq` are exactly the acked
        commands' (no gap, none twice), the game's plays after `base_seq` are exactly the acked commands, and the
        play at each acked seq is that command's move."""
        problems = []
        acked = {}
        for ledger in ledgers:
            for cid, ack in ledger.acks.items():
                acked[cid] = (ack.get("seq"), ledger.commands[cid])
        by_seq = collections.defaultdict(list)
        for cid, (seq, _) in acked.items():
            by_seq[seq].append(cid)
        shared = {seq: cids for seq, cids in by_seq.items() if len(cids) > 1}
        if shared:
            seq, cids = sorted(shared.items())[0]
            problems.append(f"{len(shared)} seqs acked for two commands, e.g. seq {seq}: {cids[:3]}")
        # On Redis a node's memory is never ahead of the log, so a restart keeps the numbering (docs/redis.md,
        # "Applying stored batches"): the acked seqs are exactly the ones after the creation, none skipped.
        want = set(range(base_seq + 1, base_seq + len(acked) + 1))
        if set(by_seq) != want:
            problems.append(
                f"acked seqs are not {base_seq + 1}..{base_seq + len(acked)}: missing {sorted(want - set(by_seq))[:5]}, "
                f"others {sorted(set(by_seq) - want, key=str)[:5]}")
        node = self.nodes[sorted(self.nodes)[0]]
        result = await http_call(node.url, "GET", f"/api/games/{game_id}/plays", timeout=10)
        if result.status != 200:
            return problems + [f"GET /api/games/{game_id}/plays on {node.name}: {result}"]
        plays = [play for play in result.json()["plays"] if play.get("seq", 0) > base_seq]
        if len(plays) != len(acked):
            problems.append(f"{len(plays)} plays after seq {base_seq}, {len(acked)} commands acked")
        play_at = {play["seq"]: play for play in plays}
        wrong = []
        for seq, cids in sorted(by_seq.items()):
            command = acked[cids[0]][1]
            play = play_at.get(seq)
            if play is None or play.get("player") != command["player"] or play.get("move") != command["move"]:
                wrong.append(f"seq {seq}: {cids[0]} was {command['player']} {command['move']}, play is {play}")
        if wrong:
            problems.append(f"{len(wrong)} acked commands not at their seq in the plays: {short(wrong, 2)}")
        return problems

    async def followers_in_step(self, followers, seq, state, deadline):
        """Waits until every follower reaches `seq`; returns the problems: stuck ones, documents that differ from
        `state`, and every rule a stream broke on the way (gaps, repeats, patches that did not apply)."""
        remaining = max(0.1, deadline - time.monotonic())
        await asyncio.gather(*(f.document.wait_for_seq(seq, remaining) for f in followers))
        problems = []
        stuck = [f"{f.name} at {f.document.seq} ({f.connections} connections, {f.failures} failed, last error: "
                 f"{f.last_error or 'none'})" for f in followers
                 if f.document.seq is None or f.document.seq < seq]
        if stuck:
            problems.append(f"{len(stuck)} of {len(followers)} not at seq {seq}: {short(stuck, 2)}")
        canonical = jsonpatch.canonical(state)
        differ = [f.name for f in followers if f.document.seq == seq and jsonpatch.canonical(f.document.state) != canonical]
        if differ:
            one = next(f for f in followers if f.name == differ[0])
            problems.append(
                f"{len(differ)} documents differ from GET /api/games/{{id}}, e.g. {differ[0]}: "
                f"{jsonpatch.first_difference(state, one.document.state)}")
        stream = [p for f in followers for p in f.problems]
        if stream:
            problems.append(f"{len(stream)} stream problems: {short(stream, 3)}")
        return problems

    def expected_counts(self):
        return expected_counts(self.ledgers)

    async def node_health_all(self):
        return {name: await node.health() for name, node in self.nodes.items()}
