#!/usr/bin/env python3
"""Runs a test command with a time limit, passing its output through, and names the tests still running when the
limit passes (then kills the command's whole process group and exits 124).

Why: a test that blocks Swift concurrency's cooperative pool (two threads on a two-core machine) can stall every
test behind it; the run then hangs silently until CI's cut-off. Swift Testing prints a line when a test starts and
when it ends ("◇ Test NAME started.", "✔ Test NAME passed after …", "✘ … failed …", "➜ … skipped"), so the tests
started and not ended are the suspects, and CI's log says which they are.

usage: test_watchdog.py --limit SECONDS [--quiet-limit SECONDS] -- COMMAND [ARGS...]
"""
import argparse
import collections
import os
import re
import signal
import subprocess
import sys
import threading
import time

STARTED = re.compile(r"^\S+ Test (.+) started\.$")
ENDED = re.compile(r"^\S+ Test (.+?) (?:passed|failed|skipped)\b")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=float, required=True, help="seconds the whole command may take")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    if not command:
        parser.error("no command")

    running: collections.Counter = collections.Counter()
    started_at: dict = {}
    lock = threading.Lock()
    began = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)

    def pump() -> None:
        assert child.stdout is not None
        for raw in child.stdout:
            line = raw.decode("utf-8", "replace")
            sys.stdout.write(line)
            sys.stdout.flush()
            text = line.rstrip("\n")
            with lock:
                if m := STARTED.match(text):
                    running[m.group(1)] += 1
                    started_at.setdefault(m.group(1), time.monotonic())
                elif m := ENDED.match(text):
                    name = m.group(1)
                    if running[name] > 0:
                        running[name] -= 1
                        if running[name] == 0:
                            del running[name]
                            started_at.pop(name, None)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    try:
        status = child.wait(timeout=options.limit)
    except subprocess.TimeoutExpired:
        now = time.monotonic()
        with lock:
            suspects = sorted(running, key=lambda name: started_at.get(name, now))
            print(f"\ntest watchdog: {' '.join(command)} still running after {options.limit:.0f} s;"
                  f" {len(suspects)} test(s) started and not ended:", flush=True)
            for name in suspects:
                print(f"  - {name} (running for {now - started_at.get(name, now):.0f} s)", flush=True)
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        child.wait()
        return 124
    reader.join(timeout=10)
    print(f"test watchdog: {' '.join(command)} finished in {time.monotonic() - began:.0f} s (status {status})",
          flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
