#!/usr/bin/env bash
# Pub/sub fan-out through courtside-echo (/pub → /sub) and uWebSockets' pub/sub (socketify peer), measured in one
# run with `courtside-load fanout` on loopback: for each subscriber count, at a fixed publish rate and at
# saturation, without and with permessage-deflate. Each server is started fresh for each measurement (so its
# idle RSS per connection is its own), loaded, and stopped; a markdown table and the targets follow.
#
#   benchmarks/fanout-compare.sh
#
# Environment (optional):
#   SIZES         subscriber counts (default "1000 10000 max"; max = the open-file hard limit less 100, since
#                 each subscriber is a descriptor in the load generator and one in the server)
#   SERVERS       plain variants in order (default "courtside-1 socketify"): courtside-echo on one loop (the peer
#                 is single-threaded), uWebSockets; add "courtside" for courtside-echo with a loop per core
#   DEFLATE_SERVERS  variants with permessage-deflate offered by every subscriber (default "courtside-1
#                 socketify-shared socketify-dedicated"): courtside's shared-context broadcast, uWebSockets'
#                 SHARED_COMPRESSOR (no context takeover) and DEDICATED_COMPRESSOR (a 256 KiB stream per socket)
#   DEDICATED_MAX largest count run with socketify-dedicated (default 1000: 256 KiB × N of server memory)
#   MODES         "rate max" (default): the fixed RATE, then saturation with WINDOW messages in flight
#   RATE          messages per second at the fixed rate (default 10: a busy game's patch rate, which is 199,000
#                 frames/s at 19,900 subscribers; 20 was more than this shared machine sustained there)
#   WINDOW        messages in flight at saturation (default 64)
#   DURATION      seconds of publishing per measurement (default 10)
#   LOAD_THREADS  courtside-load subscriber threads (default 1)
#
# Needs scripts/install-deps.d/30-bench-peers.sh for the peer. A server that cannot start gets a row saying so;
# the exit status is non-zero if any measurement lost a message or failed. Raw JSON: .build/bench-fanout/.
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

sizes=${SIZES:-1000 10000 max}
servers=${SERVERS:-courtside-1 socketify}
deflate_servers=${DEFLATE_SERVERS:-courtside-1 socketify-shared socketify-dedicated}
dedicated_max=${DEDICATED_MAX:-1000}
modes=${MODES:-rate max}
rate=${RATE:-10}
window=${WINDOW:-64}
duration=${DURATION:-10}
load_threads=${LOAD_THREADS:-1}
out=.build/bench-fanout
fresh_dir "$out"

# Servers and the load generator inherit the raised limit; each needs one descriptor per subscriber.
raise_open_files
largest=$((OPEN_FILES - 100))
[ "$largest" -le 25000 ] || largest=25000

bin=$(release_bin courtside-load)
echo_ok=1
release_bin courtside-echo >/dev/null || echo_ok=0

server_command() {
    local server=$1 port=$2
    case "$server" in
        # --max-per-address: the subscribers come from 8 loopback addresses, above the default 1024 per address.
        courtside) command=("$bin/courtside-echo" --host 127.0.0.1 --port "$port" --max-per-address 25000) ;;
        courtside-1)
            command=("$bin/courtside-echo" --host 127.0.0.1 --port "$port" --threads 1 --max-per-address 25000)
            ;;
        socketify) command=("$peers_python" benchmarks/peers/socketify_pubsub.py --port "$port") ;;
        socketify-shared)
            command=("$peers_python" benchmarks/peers/socketify_pubsub.py --port "$port" --compression shared)
            ;;
        socketify-dedicated)
            command=("$peers_python" benchmarks/peers/socketify_pubsub.py --port "$port" --compression dedicated)
            ;;
        *)
            echo "unknown server $server" >&2
            return 1
            ;;
    esac
}

load_before=$(load_average)
started=$(date -u +%Y-%m-%dT%H:%MZ)
status=0
: >"$out/runs.tsv"
note() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$out/runs.tsv"; }

for size in $sizes; do
    subscribers=$size
    [ "$size" = max ] && subscribers=$largest
    if [ "$subscribers" -gt "$largest" ]; then
        note "-" "$subscribers" "-" "-" "skipped: the open-file hard limit ($hard_limit) allows at most $largest"
        continue
    fi
    for mode in $modes; do
        variants=()
        for server in $servers; do variants+=("$server:plain"); done
        for server in $deflate_servers; do variants+=("$server:deflate"); done
        for variant in "${variants[@]}"; do
            server=${variant%%:*}
            kind=${variant#*:}
            tag=$server-$kind-$subscribers-$mode
            if [ "$server" = socketify-dedicated ] && [ "$subscribers" -gt "$dedicated_max" ]; then
                note "$server" "$subscribers" "$kind" "$mode" \
                    "skipped: DEDICATED_MAX=$dedicated_max (a 256 KiB deflate stream per subscriber)"
                continue
            fi
            if [[ $server == courtside* ]] && [ "$echo_ok" = 0 ]; then
                note "$server" "$subscribers" "$kind" "$mode" "courtside-echo did not build"
                status=1
                continue
            fi
            port=$(free_loopback_port)
            server_command "$server" "$port"
            start_server "$out/$tag.server.log" "${command[@]}"
            if ! wait_for_port "$port" "$SERVER_PID" 20; then
                note "$server" "$subscribers" "$kind" "$mode" "server did not start (see $out/$tag.server.log)"
                stop_servers
                status=1
                continue
            fi
            load=(--rate "$rate")
            [ "$mode" = max ] && load=(--rate max --window "$window")
            [ "$kind" = deflate ] && load+=(--deflate)
            echo "--- $server, $subscribers subscribers, $kind, rate $mode, ${duration}s"
            rc=0
            # courtside-load bounds itself (connect, duration, drain and close timeouts); timeout is the belt.
            # In the background and waited for, so a TERM or INT runs the trap (stopping the server) at once.
            timeout -k 5 $((duration + 150)) "$bin/courtside-load" fanout \
                --sub-url "ws://127.0.0.1:$port/sub" --pub-url "ws://127.0.0.1:$port/pub" \
                --subscribers "$subscribers" --duration "$duration" --threads "$load_threads" \
                --server-pid "$SERVER_PID" --json "${load[@]}" >"$out/$tag.json" &
            wait $! || rc=$?
            stop_servers
            note "$server" "$subscribers" "$kind" "$mode" "$tag.json $rc"
            [ "$rc" -eq 0 ] || status=1
        done
    done
done

echo
echo "Fan-out over ws:// on loopback: one publisher of scoreboard patches, N subscribers, ${duration}s of publishing"
echo "per row, fixed rate $rate msg/s or saturation with $window messages in flight; courtside-load on $load_threads"
echo "subscriber thread(s), $(nproc) cores shared with the load generator ($started; load average before the run:"
echo "$load_before; after: $(load_average))."
echo
python3 benchmarks/fanout_table.py "$out" || status=1
exit "$status"
