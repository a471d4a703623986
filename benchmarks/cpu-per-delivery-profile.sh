#!/usr/bin/env bash
# Where the CPU per delivery goes: `courtside serve` and `courtside-echo` under callgrind (`perf` cannot count
# instructions on this VM), one loop each, driven exactly as benchmarks/cpu-per-delivery.sh drives them (one game
# with SPECTATORS spectators and a scorer at RATE moves/s, against /sub subscribers and a /pub publisher sending
# patch-shaped text at the same rate). Instrumentation is switched on only once every spectator is connected and
# off before they close, so the profile covers the patches (and, for serve, the commands behind them).
#
#   benchmarks/cpu-per-delivery-profile.sh
#
# Environment: SPECTATORS (1000), RATE (10 moves/s), DURATION (10 s), SERVERS ("serve echo"), BIN (directory of
# release binaries; default: build them). Output in .build/profile-cpu/: callgrind-{serve,echo}.txt (self cost) and -inclusive.txt, and the
# driver's JSON. User-space instructions only: system calls (a `send` per delivery) are not in these counts.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

spectators=${SPECTATORS:-1000}
rate=${RATE:-10}
duration=${DURATION:-10}
python=$(e2e_python)
if [ -n "${BIN:-}" ]; then
    bin=$BIN
else
    build_courtside release >/dev/null
    swift build -c release --product courtside-echo >&2
    bin=$(swift build -c release --show-bin-path)
fi
out=.build/profile-cpu
mkdir -p "$out"
cc=${CC:-$(command -v cc || command -v clang)}
"$cc" -O2 -Wall -Wextra -o "$out/spectators" benchmarks/spectators.c -lz
work=$(mktemp -d "${TMPDIR:-/tmp}/courtside-cpu-profile.XXXXXX")
trap 'stop_servers; rm -rf "$work"' EXIT
mkdir -p "$work/public"
token="cpu-profile-token-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
ulimit -n "$(ulimit -Hn)"

# wait_for_descriptors PID COUNT: until the process holds COUNT open files (its spectators are connected).
wait_for_descriptors() {
    local pid=$1 count=$2
    for _ in $(seq 900); do
        [ "$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" -ge "$count" ] && return 0
        sleep 0.2
    done
    echo "pid $pid never held $count descriptors" >&2
    return 1
}

for name in ${SERVERS:-serve echo}; do
    echo "--- callgrind: $name, $spectators spectators, $rate patches/s for ${duration}s ($(date -u +%H:%M) UTC)"
    port=$(free_loopback_port)
    rm -rf "$work/data"
    if [ "$name" = serve ]; then
        command=("$bin/courtside" serve --host 127.0.0.1 --port "$port" --data "$work/data" --public "$work/public"
            --admin-token "$token" --threads 1)
    else
        command=("$bin/courtside-echo" --host 127.0.0.1 --port "$port" --threads 1)
    fi
    start_server "$out/$name-server.log" valgrind --tool=callgrind --instr-atstart=no \
        --callgrind-out-file="$out/callgrind.$name.out" "${command[@]}"
    trap 'stop_servers; rm -rf "$work"' EXIT
    wait_for_port "$port" "$SERVER_PID" 120
    timeout -k 10 900 "$python" benchmarks/broadcaster_latency.py --port "$port" --admin-token "$token" \
        --server-pid "$SERVER_PID" --games 1 --spectators-per-game "$spectators" --rate-per-game "$rate" \
        --duration "$duration" --processes 1 --settle 6 --drain 20 --tail 20 --connect-timeout 300 \
        --spectators-binary "$out/spectators" --json $([ "$name" = echo ] && echo --echo) >"$out/$name.json" &
    driver=$!
    # Connected (and, for serve, the scorer too), then the driver's settle: instrument the commands and patches,
    # and the 20 s the driver waits after the last ack for the patches a slowed-down server still owes (under
    # valgrind it falls seconds behind), but not the closes after it.
    wait_for_descriptors "$SERVER_PID" $((spectators + 5))
    sleep 3
    callgrind_control -i on "$SERVER_PID" >/dev/null
    sleep $((duration + 18))
    callgrind_control -i off "$SERVER_PID" >/dev/null
    wait "$driver" || echo "driver: incomplete run (see $out/$name.json)" >&2
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 600); do
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.2
    done
    stop_servers
    callgrind_annotate "$out/callgrind.$name.out" >"$out/callgrind-$name.txt"
    callgrind_annotate --inclusive=yes "$out/callgrind.$name.out" >"$out/callgrind-$name-inclusive.txt"
    "$python" - "$out/$name.json" "$out/callgrind-$name.txt" <<'EOF'
import json, re, sys
result = json.load(open(sys.argv[1]))
totals = next(line for line in open(sys.argv[2]) if "PROGRAM TOTALS" in line)
instructions = int(re.sub(r"[^0-9]", "", totals.split()[0]))
deliveries = result["deliveriesMeasured"]
print(f"{instructions:,} instructions for {deliveries:,} deliveries "
      f"(expected {result['deliveriesExpected']:,}): {instructions / max(deliveries, 1):,.0f} per delivery")
EOF
done
