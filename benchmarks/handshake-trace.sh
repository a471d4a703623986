#!/usr/bin/env bash
# Where a burst of handshakes spends its wall time, for `courtside serve` and uWebSockets side by side: the same
# burst as benchmarks/handshakes.sh (N spectators of benchmarks/spectators.c, 256 in flight), and for each server
#   - its threads' scheduler accounting over the burst (/proc/PID/task/TID/schedstat: ns on a CPU, ns runnable but
#     waiting for one, and timeslices), so wall time = running + waiting for a core + sleeping (in epoll_wait);
#   - its system calls over the burst, counted by `perf stat` on the syscall tracepoints (no ptrace slow-down):
#     epoll_wait calls (loop iterations), accept4, read, write/writev, epoll_ctl, setsockopt, per handshake.
#
#   benchmarks/handshake-trace.sh        # CONNECTIONS=10000 ROUNDS=2
#
# Needs perf (with the syscalls tracepoints), the socketify peer and a C compiler with zlib. Bounded: connecting
# 120 s per burst. Raw logs: .build/bench-handshake-trace/.
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

connections=${CONNECTIONS:-10000}
rounds=${ROUNDS:-2}
out=.build/bench-handshake-trace
fresh_dir "$out"
raise_open_files
require_peers
command -v perf >/dev/null || {
    echo "perf is not installed" >&2
    exit 1
}

bin=$(release_bin courtside)
build_spectators "$out"
token=$(random_token trace-admin-token)
calls=(epoll_wait epoll_pwait accept4 read recvfrom write writev sendto sendmsg epoll_ctl setsockopt)

# threads PID: one line per thread, "TID RUN_NS WAIT_NS SLICES VOLUNTARY INVOLUNTARY" (sched.c's schedstat: ns on a
# CPU, ns runnable on a run queue, timeslices; the context switches from status).
threads() {
    local task
    for task in /proc/"$1"/task/*; do
        [ -r "$task/schedstat" ] || continue
        echo "${task##*/} $(cat "$task/schedstat") $(awk '/^voluntary_ctxt/ { v = $2 } /^nonvoluntary_ctxt/ { i = $2 }
            END { print v + 0, i + 0 }' "$task/status")"
    done
}

# busiest BEFORE AFTER: the thread that ran longest between the two `threads` listings (the event loop, for
# both servers), as "RUN_NS WAIT_NS SLICES VOLUNTARY INVOLUNTARY" deltas.
busiest() {
    awk 'NR == FNR { for (i = 2; i <= 6; i++) b[$1, i] = $i; next }
        { d = $2 - b[$1, 2]; if (d > best) { best = d; line = d " " ($3 - b[$1, 3]) " " ($4 - b[$1, 4]) " " ($5 - b[$1, 5]) " " ($6 - b[$1, 6]) } }
        END { print line }' "$1" "$2"
}

# process PID: "RUN_NS WAIT_NS" over all its threads.
process() {
    cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ r += $1; w += $2 } END { print r + 0, w + 0 }'
}

# burst SERVER ROUND: one burst against a fresh server, printing one table row.
burst() {
    local server=$1 round=$2 port path wait_first tag
    port=$(free_loopback_port)
    tag=$server-$round
    start_burst_server "$server" "$out" "$tag" "$port" "$bin" "$token"
    path=$BURST_PATH
    wait_first=$BURST_WAIT_FIRST
    for _ in $(seq 1 "$connections"); do echo "0 $path"; done >"$out/$tag.plan"
    local events
    events=$(printf 'syscalls:sys_enter_%s,' "${calls[@]}")
    perf stat -x, -e "${events%,}" -p "$SERVER_PID" -o "$out/$tag.perf" &
    local perf_pid=$!
    sleep 0.5
    local start end
    threads "$SERVER_PID" >"$out/$tag.before"
    start=$(date +%s%N)
    # stdin held open on a fifo (the program stops when it closes) so its accounting can be read once it is ready.
    rm -f "$out/$tag.ctl" && mkfifo "$out/$tag.ctl"
    SPECTATORS_WAIT_FIRST=$wait_first "$out/spectators" "$port" 16 0 "$out/$tag.plan" "$out/$tag.records" \
        <"$out/$tag.ctl" >"$out/$tag.clients" &
    local clients=$!
    exec 4>"$out/$tag.ctl"
    wait_for_clients_ready "$out/$tag.clients" "$clients" 1200
    end=$(date +%s%N)
    threads "$SERVER_PID" >"$out/$tag.after"
    local loop client
    read -r -a loop <<<"$(busiest "$out/$tag.before" "$out/$tag.after")"
    read -r -a client <<<"$(process "$clients")"
    kill -INT "$perf_pid"
    wait "$perf_pid" || true
    exec 4>&-
    wait "$clients" 2>/dev/null || true
    stop_servers
    local timing
    timing=$(grep '^timing' "$out/$tag.clients" || echo "timing 0 0 0 0")
    read -r _ open _ to_open to_first <<<"$timing"
    [ "$server" = socketify ] && to_first=$to_open
    # Calls per handshake from perf's CSV (count,,event,...).
    local per
    per=$(awk -F, -v n="$open" '{ sub("syscalls:sys_enter_", "", $3); c[$3] = $1 }
        END { printf "%.2f %.2f %.2f %.2f %.2f %.2f", (c["epoll_wait"] + c["epoll_pwait"]) / n, c["accept4"] / n,
              (c["read"] + c["recvfrom"]) / n, (c["write"] + c["writev"] + c["sendto"] + c["sendmsg"]) / n, c["epoll_ctl"] / n,
              c["setsockopt"] / n }' "$out/$tag.perf")
    awk -v s="$server" -v r="$round" -v l="$(load_average 1)" -v n="$open" -v w="$to_first" \
        -v run="${loop[0]}" -v wait="${loop[1]}" -v sl="${loop[2]}" -v vol="${loop[3]}" -v inv="${loop[4]}" \
        -v p="$per" -v crun="${client[0]}" -v cwait="${client[1]}" 'BEGIN {
            split(p, c, " "); wall = w / 1e6; sleep = wall - run / 1e6 - wait / 1e6
            printf "| %d | %s | %s | %d | %.0f | %.0f | %.0f | %.0f | %d | %d | %d | %s | %s | %s | %s | %s | %s | %.0f / %.0f |\n",
                r, s, l, n, wall, run / 1e6, wait / 1e6, sleep, sl, vol, inv, c[1], c[2], c[3], c[4], c[5], c[6],
                crun / 1e6, cwait / 1e6 }'
}

echo
echo "Handshake trace: $connections spectators at once, 256 in flight; started $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "| round | server | load | handshakes | ms first connect → last snapshot/101 | ms on a CPU | ms runnable, waiting | ms asleep | timeslices | voluntary switches | involuntary switches | epoll_wait / hs | accept4 / hs | read / hs | write(v) / hs | epoll_ctl / hs | setsockopt / hs | clients' ms on a CPU / runnable, waiting |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for round in $(seq 1 "$rounds"); do
    for server in courtside socketify; do
        burst "$server" "$round"
    done
done
echo "(finished $(date -u +%Y-%m-%dT%H:%M:%SZ); load average $(load_average))"
