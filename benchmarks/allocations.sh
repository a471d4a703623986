#!/usr/bin/env bash
# Heap allocations per delivered frame on the fan-out path, as a regression guard: `courtside-echo --threads 1`
# runs with benchmarks/alloc_counter.c preloaded (it counts every malloc, calloc, realloc, free and aligned
# allocation into a shared file), and `courtside-load fanout --alloc-counter FILE` reads the counts when
# publishing starts and once every subscriber has every message, so connecting and closing are left out. Plain
# frames, then permessage-deflate (every subscriber offering it), then with TLS=1 over TLS (wss://, a throwaway
# certificate; OpenSSL's own record buffer, allocated and freed per write under SSL_MODE_RELEASE_BUFFERS, counts
# too). Prints each run and fails when the plain path needs more than MAX_PER_FRAME (re)allocations per delivered
# frame.
#
#   benchmarks/allocations.sh
#
# Environment (optional): SUBSCRIBERS (default 1000), RATE messages/s (default 20), DURATION seconds (default 5),
# MAX_PER_FRAME (default 0.05), TLS (default 0; 1 adds the wss:// row), BIN (a folder with built courtside-echo and courtside-load to use instead of
# building). Raw JSON: .build/bench-allocations/.
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

subscribers=${SUBSCRIBERS:-1000}
rate=${RATE:-20}
duration=${DURATION:-5}
max_per_frame=${MAX_PER_FRAME:-0.05}
out=.build/bench-allocations
fresh_dir "$out"
raise_open_files

bin=$(release_bin courtside-echo courtside-load)
build_alloc_counter "$out"
kinds=(plain deflate)
if [ "${TLS:-0}" = 1 ]; then
    throwaway_certificate "$out"
    kinds+=(tls)
fi

status=0
echo "Fan-out allocations: courtside-echo --threads 1, $subscribers subscribers, $rate msg/s for ${duration}s ($(date -u +%Y-%m-%dT%H:%MZ))"
echo "| frames | load average | delivered | allocations | reallocations | frees | bytes | (re)allocations per frame | frees per frame |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
for kind in "${kinds[@]}"; do
    port=$(free_loopback_port)
    counts="$ROOT/$out/counts-$kind"
    scheme=ws
    server_tls=()
    extra=()
    [ "$kind" = deflate ] && extra=(--require-deflate)
    if [ "$kind" = tls ]; then
        scheme=wss
        server_tls=(--tls-cert "$out/cert.pem" --tls-key "$out/key.pem")
        extra=(--tls-ca "$out/cert.pem")
    fi
    ALLOC_COUNTER_FILE=$counts LD_PRELOAD="$ROOT/$out/alloc_counter.so" \
        start_server "$out/server-$kind.log" "$bin/courtside-echo" --host 127.0.0.1 --port "$port" --threads 1 \
        ${server_tls[@]+"${server_tls[@]}"}
    wait_for_port "$port" "$SERVER_PID" 20 >&2
    load=$(load_average 1)
    rc=0
    timeout -k 5 $((duration + 120)) "$bin/courtside-load" fanout --sub-url "$scheme://127.0.0.1:$port/sub" \
        --pub-url "$scheme://127.0.0.1:$port/pub" --subscribers "$subscribers" --rate "$rate" --duration "$duration" \
        --alloc-counter "$counts" --json ${extra[@]+"${extra[@]}"} >"$out/$kind.json" || rc=$?
    stop_servers
    row=$(python3 - "$out/$kind.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a = r.get("serverAllocations") or {}
print(r["delivered"], a.get("allocations", "?"), a.get("reallocations", "?"), a.get("frees", "?"), a.get("bytes", "?"),
      "%.4f" % (r.get("serverAllocationsPerDelivery") or -1), "%.4f" % (r.get("serverFreesPerDelivery") or -1))
PY
)
    read -r delivered allocations reallocations frees bytes per frees_per <<<"$row"
    echo "| $kind | $load | $delivered | $allocations | $reallocations | $frees | $bytes | $per | $frees_per |"
    [ "$rc" -eq 0 ] || { echo "courtside-load failed ($rc): see $out/$kind.json" >&2; status=1; }
    if [ "$kind" = plain ] && ! awk -v p="$per" -v m="$max_per_frame" 'BEGIN { exit !(p >= 0 && p <= m) }'; then
        echo "REGRESSION: $per (re)allocations per plain delivered frame, over MAX_PER_FRAME=$max_per_frame" >&2
        status=1
    fi
done
exit "$status"
