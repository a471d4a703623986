#!/usr/bin/env python3
"""The table and the target checks of benchmarks/fanout-compare.sh, from its runs.tsv and JSON files.

    fanout_table.py DIR

Exit status 1 if any run has no result, failed, or lost a message.
"""

import json
import sys
from pathlib import Path


def main() -> int:
    out = Path(sys.argv[1])
    status = 0
    results = {}
    print("| server | subscribers | deflate | rate msg/s | delivered frames/s | loss | p50 ms | p99 ms | p99.9 ms "
          "| RSS/conn KiB | wire B/msg (ratio) | server µs/frame | notes |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for line in (out / "runs.tsv").read_text().splitlines():
        server, subscribers, kind, mode, what = line.split("\t")
        if ".json " not in what:
            print(f"| {server} | {subscribers} | {kind} | {mode} | | | | | | | | | {what} |")
            if not what.startswith("skipped"):
                status = 1
            continue
        name, rc = what.rsplit(" ", 1)
        try:
            r = json.loads((out / name).read_text())
        except (OSError, ValueError):
            print(f"| {server} | {subscribers} | {kind} | {mode} | | | | | | | | | no result (exit {rc}) |")
            status = 1
            continue
        results[(server, int(subscribers), kind, mode)] = r
        lat = r["latencyMicroseconds"]
        rss = r.get("serverRSSPerConnectionKiB")
        cpu = r.get("serverCPUMicrosecondsPerDelivery")
        rate = f'{r["publishedPerSecond"]:,.0f}' if mode == "max" else f'{r["rate"]:,.0f}'
        notes = []
        if mode == "max":
            notes.append(f'max, window {r["window"]}')
        if r["connected"] != r["subscribers"]:
            notes.append(f'{r["connected"]}/{r["subscribers"]} connected')
        if kind == "deflate":
            notes.append(f'deflate agreed {r["deflateNegotiated"]}/{r["connected"]}')
        if r["failed"]:
            notes.append(f'{r["failed"]} failed: {", ".join(r["failureExamples"][:2])}')
        if r["decodeErrors"]:
            notes.append(f'{r["decodeErrors"]} decode errors')
        if r["outOfOrder"]:
            notes.append(f'{r["outOfOrder"]} out of order')
        if not r["drained"]:
            notes.append(f'not drained in time: {r.get("late", 0):,} frames late')
        if r.get("publisherFailure"):
            notes.append(f'publisher: {r["publisherFailure"]}')
        if rc != "0":
            notes.append(f"exit {rc}")
            status = 1
        loss = max(r["missing"], r["expectedDeliveries"] - r["delivered"])
        print(f'| {server} | {subscribers} | {kind} | {rate} | {r["deliveredPerSecond"]:,.0f} | {loss:,} '
              f'| {lat["p50"] / 1000:.2f} | {lat["p99"] / 1000:.2f} | {lat["p999"] / 1000:.2f} '
              f'| {rss:.2f} | {r["wireBytesPerMessage"]:.1f} ({r["wireRatio"]:.2f}) '
              f'| {cpu:.3f} | {"; ".join(notes)} |' if rss is not None and cpu is not None else
              f'| {server} | {subscribers} | {kind} | {rate} | {r["deliveredPerSecond"]:,.0f} | {loss:,} '
              f'| {lat["p50"] / 1000:.2f} | {lat["p99"] / 1000:.2f} | {lat["p999"] / 1000:.2f} | - '
              f'| {r["wireBytesPerMessage"]:.1f} ({r["wireRatio"]:.2f}) | - | {"; ".join(notes)} |')

    print()
    print('Targets (docs/benchmarks-log.md, "Fan-out"):')
    courtside = "courtside-1"

    def get(server, n, kind, mode):
        return results.get((server, n, kind, mode))

    sizes = sorted({key[1] for key in results})
    for n in sizes:
        ours, theirs = get(courtside, n, "plain", "max"), get("socketify", n, "plain", "max")
        if ours and theirs:
            a, b = ours["deliveredPerSecond"], theirs["deliveredPerSecond"]
            verdict = "met" if a >= b else f"missed by {(1 - a / b) * 100:.0f}%"
            print(f"- frames/s at {n:,} plain, saturation: courtside {a:,.0f} vs uWebSockets {b:,.0f} "
                  f"({a / b:.2f}×): {verdict}" + ("" if n == 10000 else " (the target is set at 10,000)"))
    for n in sizes:
        ours = get(courtside, n, "plain", "rate")
        if ours and ours.get("serverRSSPerConnectionKiB") is not None:
            rss = ours["serverRSSPerConnectionKiB"]
            theirs = get("socketify", n, "plain", "rate")
            other = f', uWebSockets {theirs["serverRSSPerConnectionKiB"]:.2f}' if theirs and theirs.get(
                "serverRSSPerConnectionKiB") is not None else ""
            verdict = "met" if rss <= 1.0 else f"missed by {rss - 1.0:.3f} KiB"
            print(f"- RSS per idle plain connection at {n:,}: courtside {rss:.3f} KiB{other} (≤ 1 KiB): {verdict}")
    for n in sizes:
        for mode in ("rate", "max"):
            plain, deflate = get(courtside, n, "plain", mode), get(courtside, n, "deflate", mode)
            if not (plain and deflate):
                continue
            ratio = deflate["wireBytesPerMessage"] / plain["wireBytesPerMessage"]
            verdict = "met" if ratio <= 0.4 else f"missed by {ratio - 0.4:.2f}"
            line = (f"- {n:,} {mode}: deflate wire bytes {deflate['wireBytesPerMessage']:.1f} vs plain "
                    f"{plain['wireBytesPerMessage']:.1f} per patch = {ratio:.3f}× (≤ 0.4×): {verdict}")
            pc, dc = plain.get("serverCPUMicrosecondsPerDelivery"), deflate.get("serverCPUMicrosecondsPerDelivery")
            if pc and dc:
                cpu = dc / pc
                verdict = "met" if cpu <= 1.5 else f"missed by {cpu - 1.5:.2f}×"
                line += f"; server CPU/frame {dc:.3f} vs {pc:.3f} µs = {cpu:.2f}× (≤ 1.5×): {verdict}"
            print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
