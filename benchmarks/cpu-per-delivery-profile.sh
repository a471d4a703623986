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
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

spectators=${SPECTATORS:-1000}
rate=${RATE:-10}
duration=${DURATION:-10}
python=$(e2e_python)
bin=$(release_bin courtside courtside-echo)
out=.build/profile-cpu
mkdir -p "$out"
build_spectators "$out"
serve_work cpu-profile
raise_open_files

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
    wait_for_port "$port" "$SERVER_PID" 120
    timeout -k 10 900 "$python" benchmarks/broadcaster_latency.py --port "$port" --admin-token "$token" \
        --server-pid "$SERVER_PID" --games 1 --spectators-per-game "$spectators" --rate-per-game "$rate" \
        --duration "$duration" --processes 1 --settle 6 --drain 20 --tail 20 --connect-timeout 300 \
        --spectators-binary "$out/spectators" --json $([ "$name" = echo ] && echo --echo) >"$out/$name.json" &
    driver=$!
    # Connected (and, for serve, the scorer too), then the driver's settle: instrument the commands and patches,
    # and the 20 s the driver waits after the last ack for the patches a slowed-down server still owes (under
    # valgrind it falls seconds behind), but not the closes after it.
    wait_for_descriptors "$SERVER_PID" $((spectators + 5)) 180
    sleep 3
    callgrind_control -i on "$SERVER_PID" >/dev/null
    sleep $((duration + 18))
    callgrind_control -i off "$SERVER_PID" >/dev/null
    wait "$driver" || echo "driver: incomplete run (see $out/$name.json)" >&2
    stop_profiled
    # (callgrind_annotate 3.19 warns about uninitialised values on some inputs; its output is complete.)
    callgrind_annotate "$out/callgrind.$name.out" >"$out/callgrind-$name.txt" 2>/dev/null
    callgrind_annotate --inclusive=yes "$out/callgrind.$name.out" >"$out/callgrind-$name-inclusive.txt" 2>/dev/null
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
