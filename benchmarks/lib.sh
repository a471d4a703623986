# shellcheck shell=bash
# What the benchmark programs (benchmarks/*.sh) share at start-up. Source it right after `set -euo pipefail`:
#
#   source "$(dirname "$0")/lib.sh"
#
# It sets ROOT to the repository root, changes to it and sources scripts/lib/servers.sh (free_loopback_port,
# start_server / wait_for_port / stop_servers, release_bin, wait_for_descriptors, stop_profiled); then the helpers
# below: the open-file limit, fresh output folders, the C helpers built from benchmarks/*.c, tokens, and what the
# programs read from /proc (VmRSS, CPU ticks, the load average) so every table reads them the same way.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh

# The Python of the peer servers (socketify's uWebSockets, websockets), relative to ROOT: .build/peers is a venv
# that scripts/install-deps.d/30-python-peers.sh makes (a worktree links it to the main checkout's).
peers_python=.build/peers/venv/bin/python

# require_peers: ends the benchmark, saying how to install them, when the peers' Python is missing.
require_peers() {
    [ -x "$peers_python" ] && return 0
    echo "the peers' Python (socketify, websockets) is not installed (scripts/install-deps.d/30-python-peers.sh)" >&2
    exit 1
}

# raise_open_files: the soft open-file limit up to the hard one (10,000 connections need more than the usual 1,024;
# the clients and the servers the programs start inherit it); sets OPEN_FILES to the limit now in force, as a number
# (1,048,576, the kernel's usual nr_open, when the hard limit reads "unlimited").
raise_open_files() {
    local hard
    hard=$(ulimit -Hn)
    if [ "$hard" = unlimited ]; then
        OPEN_FILES=1048576
    else
        ulimit -n "$hard"
        OPEN_FILES=$hard
    fi
}

# fresh_dir DIR...: each DIR emptied (removed and made again): a run's raw results never mix with an older run's.
fresh_dir() {
    rm -rf "$@"
    mkdir -p "$@"
}

# build_c OUTPUT SOURCE [ARGS...]: compiles one C file of benchmarks/ with CC (else cc, else clang), -O2 and the
# usual warnings; ARGS go last (libraries, -shared -fPIC).
build_c() {
    local output=$1 source=$2 cc
    shift 2
    cc=${CC:-$(command -v cc || command -v clang)}
    "$cc" -O2 -Wall -Wextra -o "$output" "$source" "$@"
}

# build_spectators DIR: DIR/spectators, the C client of many idle or reading WebSockets (benchmarks/spectators.c).
build_spectators() {
    build_c "$1/spectators" benchmarks/spectators.c -lz
}

# build_alloc_counter DIR: DIR/alloc_counter.so, the LD_PRELOAD heap counter (benchmarks/alloc_counter.c).
build_alloc_counter() {
    build_c "$1/alloc_counter.so" benchmarks/alloc_counter.c -shared -fPIC
}

# random_token NAME: NAME followed by 16 random hex digits (an admin token nobody else knows).
random_token() {
    echo "$1-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
}

# serve_work NAME: for a program that runs `courtside serve`: a temporary folder $work (with an empty
# $work/public), removed on exit once the servers are stopped, and an admin $token (NAME-admin-token-…).
serve_work() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/courtside-$1.XXXXXX")
    mkdir -p "$work/public"
    trap 'stop_servers; rm -rf "$work"' EXIT
    token=$(random_token "$1-admin-token")
}

# rss_kib PID: the process's resident set (VmRSS), in KiB.
rss_kib() {
    awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}

# cpu_ticks PID: the process's user plus system CPU time so far, in clock ticks (ticks_per_second a second;
# proc(5), /proc/PID/stat fields 14 and 15).
cpu_ticks() {
    awk '{ print $14 + $15 }' "/proc/$1/stat"
}
ticks_per_second=$(getconf CLK_TCK)

# load_average [N]: the first N of the 1, 5 and 15 minute load averages (default all three), as /proc/loadavg has
# them: every table row says how busy the shared machine was.
load_average() {
    cut -d' ' -f"1-${1:-3}" /proc/loadavg
}

# wait_for_clients_ready FILE PID [STEPS]: waits until the spectators program (benchmarks/spectators.c, PID) writing
# FILE has said `ready` (every connection made, or its attempts spent), or has exited; at most STEPS tenths of a
# second (default 1,800: three minutes).
wait_for_clients_ready() {
    local file=$1 pid=$2 _
    for _ in $(seq 1 "${3:-1800}"); do
        grep -q '^ready' "$file" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
}

# start_burst_server SERVER OUT TAG PORT BIN TOKEN: for a burst of handshakes (benchmarks/handshakes.sh,
# handshake-trace.sh), a fresh server on PORT, listening: SERVER `courtside` (`courtside serve --threads 1` from BIN
# with admin TOKEN, data under OUT, one game made) or `socketify` (uWebSockets' pub/sub peer). Sets SERVER_PID,
# BURST_PATH (the spectators' path) and BURST_WAIT_FIRST (1: the server sends a first message, the snapshot). With
# the array SERVER_CPUS set (`taskset -c 0`), the server runs under it.
start_burst_server() {
    local server=$1 out=$2 tag=$3 port=$4 bin=$5 token=$6 game
    case "$server" in
        courtside)
            rm -rf "$out/data" && mkdir -p "$out/public"
            start_server "$out/$tag.log" ${SERVER_CPUS[@]+"${SERVER_CPUS[@]}"} "$bin/courtside" serve --host 127.0.0.1 --port "$port" --threads 1 \
                --data "$out/data" --public "$out/public" --admin-token "$token" --log-level warning
            wait_for_port "$port" "$SERVER_PID" 60 >&2
            read -r game _ <<<"$("$peers_python" benchmarks/handshake_game.py create "$port" "$token")"
            BURST_PATH=/ws/games/$game
            BURST_WAIT_FIRST=1 ;;
        socketify)
            start_server "$out/$tag.log" ${SERVER_CPUS[@]+"${SERVER_CPUS[@]}"} "$peers_python" \
                benchmarks/peers/socketify_pubsub.py --port "$port"
            wait_for_port "$port" "$SERVER_PID" 60 >&2
            BURST_PATH=/sub
            BURST_WAIT_FIRST=0 ;;
    esac
}

# throwaway_certificate DIR: DIR/cert.pem and DIR/key.pem, a self-signed P-256 certificate for 127.0.0.1 and
# localhost valid one day, made with the openssl CLI for one TLS run (the clients trust exactly it, --tls-ca).
throwaway_certificate() {
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
        -addext subjectAltName=IP:127.0.0.1,DNS:localhost -keyout "$1/key.pem" -out "$1/cert.pem" 2>/dev/null
}
