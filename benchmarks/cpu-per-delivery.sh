#!/usr/bin/env bash
# Server CPU per delivered patch: the real server against courtside-echo, side by side ("the application
# adds nothing to the hot path"; figures in docs/benchmarks.md, "CPU per delivery").
#
# Each round runs, one right after the other and each against a fresh server with the same thread count:
#   serve  `courtside serve`: one game, SPECTATORS spectators on /ws/games/{id}, its scorer sending RATE moves a
#          second for DURATION seconds (assist, rebound, foul, onePoint in turn);
#   echo   `courtside-echo`: SPECTATORS subscribers on /sub, one publisher on /pub sending RATE patch-shaped text
#          messages a second (the same size and shape as serve's patches) for DURATION seconds.
# Both are driven by benchmarks/broadcaster_latency.py (`--echo` for the second) with the same clients: the
# spectators are benchmarks/spectators.c (PROCESSES processes, one epoll loop each) connecting from 127.0.0.1 ...
# 127.0.0.16, so each address holds SPECTATORS/16 connections, under both servers' per-address cap of 1,024. The
# server's CPU (`utime + stime` from /proc/PID/stat) is read from the first command to TAIL seconds after the last
# ack, and divided by the deliveries measured (every spectator must get every patch). Rounds alternate which server
# goes first. Prints, per round, both µs per delivery (and the user-space part: system time is mostly the `send` per
# delivery, the same work in both; the application's own work is user time), the ratios serve/echo and the load
# average, then the median ratios. The CPU per delivery of one run moves by ±20% on a shared machine (the loopback
# receive path is charged partly to the sender), so read the medians.
#
# Environment: ROUNDS (5), SPECTATORS (10000), RATE (4 moves/s), DURATION (15 s), THREADS (2 event loops each),
# PROCESSES (2), TAIL (4 s), BIN (a directory holding release courtside and courtside-echo binaries, e.g. a saved "before"
# build; default: build them here). Bounded: every client step has a deadline (broadcaster_latency.py), and each
# round is wrapped in `timeout`.
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

rounds=${ROUNDS:-5}
spectators=${SPECTATORS:-10000}
rate=${RATE:-4}
duration=${DURATION:-15}
threads=${THREADS:-2}
processes=${PROCESSES:-2}
# Seconds after the last ack before the CPU is read: the last patch must have reached every spectator by then (on a
# machine at load 15 the tail of a patch's fan-out took over 2 s), and the idle seconds count alike for both.
tail=${TAIL:-4}
python=$(e2e_python)
bin=$(release_bin courtside courtside-echo)
courtside=$bin/courtside
echo_server=$bin/courtside-echo
for binary in "$courtside" "$echo_server"; do
    [ -x "$binary" ] || { echo "missing $binary" >&2; exit 2; }
done
mkdir -p .build/cpu-per-delivery
build_spectators .build/cpu-per-delivery
serve_work cpu
# Each spectator is a descriptor here and one in the server.
raise_open_files

# run_server NAME ROUND: starts the server, drives it, stops it; prints one line of figures (see the python below).
run_server() {
    local name=$1 round=$2 port out load
    port=$(free_loopback_port)
    out=.build/cpu-per-delivery/$name-$round.json
    rm -rf "$work/data"
    if [ "$name" = serve ]; then
        start_server "$work/$name.log" "$courtside" serve --host 127.0.0.1 --port "$port" --data "$work/data" \
            --public "$work/public" --admin-token "$token" --threads "$threads"
    else
        start_server "$work/$name.log" "$echo_server" --host 127.0.0.1 --port "$port" --threads "$threads"
    fi
    wait_for_port "$port" "$SERVER_PID" 60
    load=$(load_average 1)
    timeout -k 10 600 "$python" benchmarks/broadcaster_latency.py --port "$port" --admin-token "$token" \
        --server-pid "$SERVER_PID" --games 1 --spectators-per-game "$spectators" --rate-per-game "$rate" \
        --duration "$duration" --processes "$processes" --drain 5 --tail "$tail" \
        --spectators-binary .build/cpu-per-delivery/spectators --json $([ "$name" = echo ] && echo --echo) >"$out"
    stop_servers
    "$python" - "$out" "$load" <<'EOF'
import json, sys
result = json.load(open(sys.argv[1]))
deliveries = result["deliveriesMeasured"]
if deliveries != result["deliveriesExpected"] or result["spectators"] != result["spectatorsPerGame"]:
    raise SystemExit(f"incomplete run: {result}")
cpu, user = result["serverCPUSecondsDuringCommands"], result["serverUserCPUSecondsDuringCommands"]
# µs of CPU per delivery, of which user space; deliveries; CPU s; load; p50; p99
print(f"{cpu / deliveries * 1e6:.2f} {user / deliveries * 1e6:.2f} {deliveries} {cpu:.2f} {sys.argv[2]} "
      f"{result['p50ms']} {result['p99ms']}")
EOF
}

echo "cpu-per-delivery: $spectators spectators, $rate patches/s, ${duration}s, $threads loops each ($(date -u +%H:%M) UTC)"
echo "courtside: $courtside"
echo "echo:      $echo_server"
echo "µs of server CPU per delivery (user + system), and of it in user space; ratio = serve / echo"
printf '| round | serve µs | echo µs | ratio | serve user µs | echo user µs | user ratio | deliveries | load (serve, echo) | p50/p99 ms serve | p50/p99 ms echo |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|\n'
ratios=()
user_ratios=()
for round in $(seq 1 "$rounds"); do
    # Alternate which server goes first, so a trend in the machine's load does not favour one.
    if [ $((round % 2)) -eq 1 ]; then
        read -r s_us s_user s_n s_cpu s_load s_p50 s_p99 < <(run_server serve "$round")
        read -r e_us e_user e_n e_cpu e_load e_p50 e_p99 < <(run_server echo "$round")
    else
        read -r e_us e_user e_n e_cpu e_load e_p50 e_p99 < <(run_server echo "$round")
        read -r s_us s_user s_n s_cpu s_load s_p50 s_p99 < <(run_server serve "$round")
    fi
    ratio=$(awk -v s="$s_us" -v e="$e_us" 'BEGIN { printf "%.2f", s / e }')
    user_ratio=$(awk -v s="$s_user" -v e="$e_user" 'BEGIN { printf "%.2f", (e > 0 ? s / e : 0) }')
    ratios+=("$ratio")
    user_ratios+=("$user_ratio")
    printf '| %s | %s | %s | %s× | %s | %s | %s× | %s | %s, %s | %s / %s | %s / %s |\n' "$round" "$s_us" "$e_us" \
        "$ratio" "$s_user" "$e_user" "$user_ratio" "$s_n" "$s_load" "$e_load" "$s_p50" "$s_p99" "$e_p50" "$e_p99"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "median ratio $(median "${ratios[@]}")× (user space $(median "${user_ratios[@]}")×) over $rounds rounds"
echo "load average at the end: $(load_average); raw results in .build/cpu-per-delivery/"
