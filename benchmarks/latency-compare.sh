#!/usr/bin/env bash
# Latency at a game's rate, side by side in one run: courtside-echo (/pub → /sub, one loop) and uWebSockets'
# pub/sub (socketify peer) each get N subscribers (default 10,000) and one publisher at a fixed RATE (default 25
# messages/s), in interleaved rounds (courtside, uWebSockets, courtside, …), each server started fresh per row.
# With SATURATION=1 (the default) each round also runs both at saturation (WINDOW messages in flight), which the
# same target requires to stay at least 1.0× uWebSockets' delivered frames/s. Prints every row with the load
# average, each round's p99 ratio, and the medians over the rounds. Each row also gives the load generator's CPU
# per frame and how long the server's and the generator's threads waited runnable for a core (/proc schedstat):
# on two shared cores that wait, not the fan-out itself, is most of the p99 (docs/benchmarks.md).
#
# `courtside-n` is courtside-echo as built (one loop per core): reported separately, since uWebSockets is one
# thread and the one-loop row (`courtside-1`) is the comparison. `courtside-before` (with BEFORE=DIR) is the
# courtside-echo in DIR with one loop, a build from before a change, in the same interleaved rounds.
#
#   benchmarks/latency-compare.sh                  # about 6 minutes: ROUNDS=3, 10,000 subscribers, 25 msg/s
#   TLS=1 SATURATION=0 benchmarks/latency-compare.sh   # the same over TLS (wss://), see below
#
# With TLS=1 every server serves wss:// with a throwaway self-signed certificate made here with the openssl CLI
# (P-256, one day, in the output folder): courtside-echo with --tls-cert/--tls-key, uWebSockets (socketify's
# SSLApp) with --cert/--key. The subscribers and the publisher speak TLS (`courtside-load fanout` with wss:// URLs
# and --tls-ca on that certificate). The summary then gives, per round, the server CPU per delivery and the p99 of
# courtside-1 over uWebSockets' at the same rate and fan-out, against the TLS targets (≤ 1.1× and ≤ 1.0×).
#
# Environment (optional): ROUNDS (default 3), SUBSCRIBERS (default 10000), RATE (default 25), DURATION seconds
# of publishing per row (default 10), SATURATION (default 1; 0 = fixed rate only), WINDOW (default 64), SERVERS
# (default "courtside-1 socketify courtside-n"), TLS (default 0; 1 = wss:// as above), BIN (a folder with built courtside-echo and courtside-load to use instead of
# building, e.g. a "before" build), BEFORE (a folder holding an earlier courtside-echo: adds `courtside-before` to
# SERVERS). Needs scripts/install-deps.d/30-bench-peers.sh for the peer. Exit status
# non-zero if a row lost a message or failed. Raw JSON: .build/bench-latency/.
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

rounds=${ROUNDS:-3}
subscribers=${SUBSCRIBERS:-10000}
rate=${RATE:-25}
duration=${DURATION:-10}
saturation=${SATURATION:-1}
window=${WINDOW:-64}
servers=${SERVERS:-courtside-1 socketify courtside-n}
if [ -n "${BEFORE:-}" ] && [[ " $servers " != *" courtside-before "* ]]; then servers="$servers courtside-before"; fi
tls=${TLS:-0}
out=.build/bench-latency
[ "$tls" = 1 ] && out=.build/bench-latency-tls
fresh_dir "$out"
scheme=ws
courtside_tls=()
socketify_tls=()
load_tls=()
if [ "$tls" = 1 ]; then
    # A certificate for this run only; the subscribers trust exactly it (no host name is checked on loopback).
    throwaway_certificate "$out"
    scheme=wss
    courtside_tls=(--tls-cert "$out/cert.pem" --tls-key "$out/key.pem")
    socketify_tls=(--cert "$out/cert.pem" --key "$out/key.pem")
    load_tls=(--tls-ca "$out/cert.pem")
fi

raise_open_files

bin=$(release_bin courtside-echo courtside-load)

modes=(rate)
[ "$saturation" = 1 ] && modes+=(max)
started=$(date -u +%Y-%m-%dT%H:%MZ)
status=0
: >"$out/runs.tsv"
for round in $(seq 1 "$rounds"); do
    for mode in "${modes[@]}"; do
        for server in $servers; do
            port=$(free_loopback_port)
            case "$server" in
                # The load generator spreads subscribers over 8 loopback addresses: above the default 1024 per
                # address, 1,809 of 10,000 were refused (503) until this flag.
                courtside-1)
                    command=("$bin/courtside-echo" --host 127.0.0.1 --port "$port" --threads 1
                        --max-per-address "$subscribers" ${courtside_tls[@]+"${courtside_tls[@]}"})
                    ;;
                courtside-before)
                    command=("$BEFORE/courtside-echo" --host 127.0.0.1 --port "$port" --threads 1
                        --max-per-address "$subscribers" ${courtside_tls[@]+"${courtside_tls[@]}"})
                    ;;
                courtside-n)
                    command=("$bin/courtside-echo" --host 127.0.0.1 --port "$port" --max-per-address "$subscribers"
                        ${courtside_tls[@]+"${courtside_tls[@]}"})
                    ;;
                socketify)
                    command=("$peers_python" benchmarks/peers/socketify_pubsub.py --port "$port"
                        ${socketify_tls[@]+"${socketify_tls[@]}"})
                    ;;
                *)
                    echo "unknown server $server" >&2
                    exit 2
                    ;;
            esac
            tag=$round-$mode-$server
            start_server "$out/$tag.server.log" "${command[@]}"
            if ! wait_for_port "$port" "$SERVER_PID" 20; then
                stop_servers
                printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$mode" "$server" "-" "server did not start" >>"$out/runs.tsv"
                status=1
                continue
            fi
            load=(--rate "$rate")
            [ "$mode" = max ] && load=(--rate max --window "$window")
            loadavg=$(cut -d' ' -f1 /proc/loadavg)
            echo "--- round $round, $server, $subscribers subscribers, rate $mode, ${duration}s (load $loadavg)" >&2
            rc=0
            # courtside-load bounds itself (connect, duration, drain and close timeouts); timeout is the belt.
            timeout -k 5 $((duration + 150)) "$bin/courtside-load" fanout \
                --sub-url "$scheme://127.0.0.1:$port/sub" --pub-url "$scheme://127.0.0.1:$port/pub" \
                ${load_tls[@]+"${load_tls[@]}"} \
                --subscribers "$subscribers" --duration "$duration" --threads 1 \
                --server-pid "$SERVER_PID" --json "${load[@]}" >"$out/$tag.json" &
            wait $! || rc=$?
            stop_servers
            printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$mode" "$server" "$loadavg" "$tag.json $rc" >>"$out/runs.tsv"
            [ "$rc" -eq 0 ] || status=1
        done
    done
done

echo
echo "Latency at a game's rate ($scheme://): $subscribers subscribers, one publisher, ${duration}s per row, fixed rate $rate msg/s"
echo "(and saturation with $window in flight: $saturation); $rounds interleaved rounds, $(nproc) cores shared with the"
echo "load generator ($started; load average now $(cut -d' ' -f1-3 /proc/loadavg))."
echo
python3 - "$out" "$tls" <<'PY' || status=1
import json, statistics, sys
from pathlib import Path
out = Path(sys.argv[1])
tls = sys.argv[2] == "1"
# The targets: plain, p99 ≤ 0.80× uWebSockets' and saturation ≥ 1.50×; over TLS, p99 ≤ 1.0× and CPU ≤ 1.1×.
p99_target = 1.0 if tls else 0.80
rows, status = {}, 0
print("| round | mode | server | load | delivered frames/s | loss | p50 ms | p99 ms | p99.9 ms | server µs/frame "
      "| load µs/frame | server wait s | load wait s |")
print("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
def figure(value, digits):
    return "-" if value is None else f"{value:.{digits}f}"
for line in (out / "runs.tsv").read_text().splitlines():
    rnd, mode, server, load, what = line.split("\t")
    name, _, rc = what.rpartition(" ")
    try:
        r = json.loads((out / name).read_text())
    except (OSError, ValueError):
        print(f"| {rnd} | {mode} | {server} | {load} | | | | | | {what} | | | |")
        status = 1
        continue
    lat = r["latencyMicroseconds"]
    loss = max(r["missing"], r["expectedDeliveries"] - r["delivered"])
    if loss or rc != "0":
        status = 1
    rows[(int(rnd), mode, server)] = r
    print(f"| {rnd} | {mode} | {server} | {load} | {r['deliveredPerSecond']:,.0f} | {loss:,} | {lat['p50'] / 1000:.2f} "
          f"| {lat['p99'] / 1000:.2f} | {lat['p999'] / 1000:.2f} | {figure(r.get('serverCPUMicrosecondsPerDelivery'), 3)} "
          f"| {figure(r.get('loadCPUMicrosecondsPerDelivery'), 3)} | {figure(r.get('serverRunQueueWaitSeconds'), 2)} "
          f"| {figure(r.get('loadRunQueueWaitSeconds'), 2)} |")
print()
ours, peer = "courtside-1", "socketify"
ratios, sat, cpu = [], [], []
for rnd in sorted({k[0] for k in rows}):
    a, b = rows.get((rnd, "rate", ours)), rows.get((rnd, "rate", peer))
    if a and b:
        ratio = a["latencyMicroseconds"]["p99"] / b["latencyMicroseconds"]["p99"]
        ratios.append(ratio)
        print(f"- round {rnd}: p99 courtside {a['latencyMicroseconds']['p99'] / 1000:.1f} ms, uWebSockets "
              f"{b['latencyMicroseconds']['p99'] / 1000:.1f} ms: {ratio:.2f}× (target ≤ {p99_target:.2f}×)")
        ca, cb = a.get("serverCPUMicrosecondsPerDelivery"), b.get("serverCPUMicrosecondsPerDelivery")
        if ca and cb:
            cpu.append(ca / cb)
            print(f"- round {rnd}: server CPU per delivery courtside {ca:.3f} µs, uWebSockets {cb:.3f} µs: "
                  f"{ca / cb:.2f}×" + (" (target ≤ 1.10×)" if tls else ""))
    a, b = rows.get((rnd, "max", ours)), rows.get((rnd, "max", peer))
    if a and b:
        ratio = a["deliveredPerSecond"] / b["deliveredPerSecond"]
        sat.append(ratio)
        print(f"- round {rnd}: saturation courtside {a['deliveredPerSecond']:,.0f} vs uWebSockets "
              f"{b['deliveredPerSecond']:,.0f} frames/s: {ratio:.2f}× (target ≥ 1.50×)")
for rnd in sorted({k[0] for k in rows}):
    for mode, key in (("rate", "p99"), ("max", "frames/s")):
        a, b = rows.get((rnd, mode, "courtside-before")), rows.get((rnd, mode, peer))
        if a and b:
            if mode == "rate":
                ratio = a["latencyMicroseconds"]["p99"] / b["latencyMicroseconds"]["p99"]
            else:
                ratio = a["deliveredPerSecond"] / b["deliveredPerSecond"]
            print(f"- round {rnd}, before the change (courtside-before): {key} {ratio:.2f}× uWebSockets'")
many = []
for rnd in sorted({k[0] for k in rows}):
    a, b = rows.get((rnd, "rate", "courtside-n")), rows.get((rnd, "rate", peer))
    if a and b:
        ratio = a["latencyMicroseconds"]["p99"] / b["latencyMicroseconds"]["p99"]
        many.append(ratio)
        print(f"- round {rnd}, apart from the comparison: p99 courtside-echo as built (one loop per core) "
              f"{a['latencyMicroseconds']['p99'] / 1000:.1f} ms against uWebSockets' one thread: {ratio:.2f}×")
if ratios:
    print(f"- median p99 ratio over {len(ratios)} rounds: {statistics.median(ratios):.2f}×")
if cpu:
    print(f"- median CPU per delivery ratio over {len(cpu)} rounds: {statistics.median(cpu):.2f}×")
if many:
    print(f"- median p99 ratio of courtside-n (one loop per core, not the comparison): {statistics.median(many):.2f}×")
if sat:
    print(f"- median saturation ratio over {len(sat)} rounds: {statistics.median(sat):.2f}×")
sys.exit(status)
PY
exit "$status"
