#!/usr/bin/env bash
# Profiles of courtside-echo's fan-out (one loop, release build) under valgrind, since `perf` cannot count
# instructions on this VM:
# - massif: the heap with SUBSCRIBERS idle /sub connections (what an idle connection costs);
# - callgrind, plain and with permessage-deflate: instructions while SUBSCRIBERS subscribers receive MESSAGES
#   patches at saturation (instrumentation switched on only after every subscriber has connected).
#
#   benchmarks/fanout-profile.sh
#
# Environment (optional): SUBSCRIBERS (default 1000), MESSAGES (default 300).
# Output in .build/profile/: massif.txt, callgrind-plain.txt, callgrind-deflate.txt (and the raw files).
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

subscribers=${SUBSCRIBERS:-1000}
messages=${MESSAGES:-300}
out=.build/profile
mkdir -p "$out"
raise_open_files
bin=$(release_bin courtside-load courtside-echo)

load() {
    local port=$1
    shift
    timeout -k 5 400 "$bin/courtside-load" fanout --sub-url "ws://127.0.0.1:$port/sub" \
        --pub-url "ws://127.0.0.1:$port/pub" --subscribers "$subscribers" --connect-timeout 120 \
        --drain-timeout 60 "$@"
}

echo "--- massif: $subscribers idle subscribers"
port=$(free_loopback_port)
start_server "$out/massif-server.log" valgrind --tool=massif --threshold=0.5 --detailed-freq=1 \
    --max-snapshots=200 --massif-out-file="$out/massif.out" "$bin/courtside-echo" --host 127.0.0.1 --port "$port" \
    --threads 1
wait_for_port "$port" "$SERVER_PID" 60
load "$port" --rate 5 --messages 3 --duration 5 --settle 3
stop_profiled
ms_print "$out/massif.out" >"$out/massif.txt"

for kind in plain deflate; do
    echo "--- callgrind: $subscribers subscribers, $messages patches at saturation, $kind"
    port=$(free_loopback_port)
    start_server "$out/callgrind-$kind-server.log" valgrind --tool=callgrind --instr-atstart=no \
        --callgrind-out-file="$out/callgrind.$kind.out" "$bin/courtside-echo" --host 127.0.0.1 --port "$port" \
        --threads 1
    wait_for_port "$port" "$SERVER_PID" 60
    flags=(--rate max --window 64 --messages "$messages" --duration 300 --settle 6)
    [ "$kind" = deflate ] && flags+=(--deflate)
    load "$port" "${flags[@]}" >"$out/callgrind-$kind-load.txt" &
    load_pid=$!
    # The subscribers connect uninstrumented; the profile covers the publishing only.
    wait_for_descriptors "$SERVER_PID" $((subscribers + 5))
    sleep 2
    callgrind_control -i on "$SERVER_PID" >/dev/null
    wait "$load_pid"
    callgrind_control -i off "$SERVER_PID" >/dev/null
    stop_profiled
    cat "$out/callgrind-$kind-load.txt"
    callgrind_annotate "$out/callgrind.$kind.out" >"$out/callgrind-$kind.txt"
    callgrind_annotate --inclusive=yes "$out/callgrind.$kind.out" >"$out/callgrind-$kind-inclusive.txt"
    grep -m1 "PROGRAM TOTALS" "$out/callgrind-$kind.txt"
done
