#!/usr/bin/env python3
"""Runs `courtside-load journal` against a throwaway Redis (benchmarks/redis-journal.sh): Debian's redis-server,
started by Tests/cluster's `RedisProcess` (imported, so it is the cluster test's Redis: AOF with `appendfsync
always`, a password, loopback, in a temporary directory), and the SQLite journal in a temporary directory on the
same disk. Prints the load program's table; stops Redis on every exit path (and Redis dies with this process:
PR_SET_PDEATHSIG)."""

import asyncio
import os
import secrets
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path[:0] = [os.path.join(ROOT, "Tests", "cluster"), os.path.join(ROOT, "Tests", "e2e"),
                os.path.join(ROOT, "scripts", "lib")]

from cluster_processes import RedisProcess  # noqa: E402


def main():
    if len(sys.argv) < 2:
        raise SystemExit("usage: redis_journal.py COURTSIDE-LOAD [journal options...]")
    load, options = sys.argv[1], sys.argv[2:]
    work = tempfile.mkdtemp(prefix="courtside-redis-journal-")
    redis = RedisProcess(work, secrets.token_hex(16))
    try:
        asyncio.run(redis.start())
        command = [load, "journal", "--redis", redis.url(), "--redis-pid", str(redis.pid), "--directory", work]
        # The URL carries the password: show the command without it.
        shown = " ".join(command[:3] + ["redis://:…@127.0.0.1:%d/0" % redis.port] + command[4:] + options)
        print(f"redis_journal: {shown}", flush=True)
        return subprocess.run(command + options, timeout=1800).returncode
    finally:
        redis.stop(grace=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
