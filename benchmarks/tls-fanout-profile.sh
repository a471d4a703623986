#!/usr/bin/env bash
# Where a TLS fan-out's server CPU goes: courtside-echo (one loop) and uWebSockets (socketify's SSLApp), each
# sampled with `perf record -e cpu-clock` (a software clock: this VM has no hardware counters) while
# `courtside-load fanout` drives SUBSCRIBERS wss:// subscribers at RATE messages/s for DURATION seconds, with a
# throwaway self-signed certificate (openssl CLI). Prints each server's top symbols (self time, by shared object)
# and keeps the raw perf files in .build/profile-tls/.
#
#   benchmarks/tls-fanout-profile.sh
#
# Environment (optional): SUBSCRIBERS (default 2000), RATE (default 25), DURATION (default 10), TOP (default 25).
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

subscribers=${SUBSCRIBERS:-2000}
rate=${RATE:-25}
duration=${DURATION:-10}
top=${TOP:-25}
out=.build/profile-tls
fresh_dir "$out"
raise_open_files
bin=$(release_bin courtside-echo courtside-load)
throwaway_certificate "$out"

for server in courtside-1 socketify; do
    port=$(free_loopback_port)
    if [ "$server" = socketify ]; then
        command=("$peers_python" benchmarks/peers/socketify_pubsub.py --port "$port" --cert "$out/cert.pem"
            --key "$out/key.pem")
    else
        command=("$bin/courtside-echo" --host 127.0.0.1 --port "$port" --threads 1 --max-per-address "$subscribers"
            --tls-cert "$out/cert.pem" --tls-key "$out/key.pem")
    fi
    start_server "$out/$server.server.log" "${command[@]}"
    wait_for_port "$port" "$SERVER_PID" 20
    echo "--- $server: $subscribers wss:// subscribers, $rate msg/s, ${duration}s (load $(cut -d' ' -f1 /proc/loadavg))"
    timeout -k 5 $((duration + 150)) "$bin/courtside-load" fanout --sub-url "wss://127.0.0.1:$port/sub" \
        --pub-url "wss://127.0.0.1:$port/pub" --tls-ca "$out/cert.pem" --subscribers "$subscribers" \
        --rate "$rate" --duration "$duration" --settle 3 --server-pid "$SERVER_PID" >"$out/$server.load.txt" &
    load_pid=$!
    # Sampled from after the handshakes (the settle second) to the end of publishing: the deliveries only.
    wait_for_descriptors "$SERVER_PID" $((subscribers + 4)) 120
    timeout -s INT "$duration" perf record -q -e cpu-clock -F 999 -g -p "$SERVER_PID" \
        -o "$out/$server.perf.data" >/dev/null 2>&1 || true
    wait "$load_pid" || true
    stop_servers
    grep -E "delivered|server CPU|latency" "$out/$server.load.txt" || true
    echo "self time by shared object:"
    perf report -i "$out/$server.perf.data" --no-children --sort dso --stdio 2>/dev/null |
        awk '/^ +[0-9]/ { printf "  %s %s\n", $1, $2 }' | tee "$out/$server.dso.txt"
    echo "top $top symbols:"
    # awk, not head: head would close the pipe early and, under pipefail, end the script.
    perf report -i "$out/$server.perf.data" --no-children --sort dso,symbol --stdio 2>/dev/null |
        awk -v top="$top" '/^ +[0-9]/ && shown < top { shown++; printf "  %s %s %s\n", $1, $2, $4 }' |
        tee "$out/$server.top.txt"
done
