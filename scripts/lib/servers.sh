# shellcheck shell=bash
# Helpers shared by scripts/autobahn and benchmarks/*.sh: find shared/, pick a loopback port, make a throwaway
# certificate, start a server in the background and wait until it answers, and stop every server on exit.
# Source it after `set -euo pipefail` with ROOT set to the repository root.

# The shared tools folder: CI clones the repository with shared/ beside it ($ROOT/../shared); a developer worktree
# under wt/<name> has it one level further up. COURTSIDE_SHARED overrides both.
courtside_shared_dir() {
    local candidate
    for candidate in "${COURTSIDE_SHARED:-}" "$ROOT/../shared" "$ROOT/../../shared"; do
        if [ -n "$candidate" ] && [ -d "$candidate/tools" ]; then
            (cd "$candidate" && pwd)
            return 0
        fi
    done
    echo "shared/ not found beside the repository (set COURTSIDE_SHARED)" >&2
    return 1
}

# A free TCP port on 127.0.0.1 below the ephemeral range (scripts/lib/free_port.py says why).
free_loopback_port() {
    python3 "$ROOT/scripts/lib/free_port.py"
}

# make_self_signed_cert DIR: writes DIR/cert.pem and DIR/key.pem (P-256, CN and SAN for localhost and 127.0.0.1).
make_self_signed_cert() {
    local dir=$1
    mkdir -p "$dir"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
        -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
        -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null
}

# Servers started by start_server, killed by stop_servers (installed as an EXIT trap by start_server).
SERVER_PIDS=()

stop_servers() {
    local pid
    for pid in "${SERVER_PIDS[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill -TERM "$pid" 2>/dev/null || true
            # give it a moment for a graceful exit, then insist
            for _ in 1 2 3 4 5 6 7 8 9 10; do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.2
            done
            kill -KILL "$pid" 2>/dev/null || true
        fi
        wait "$pid" 2>/dev/null || true
    done
    SERVER_PIDS=()
}

# start_server LOGFILE COMMAND...: runs COMMAND in the background, output to LOGFILE; sets SERVER_PID. Makes sure
# the servers are stopped on exit: an EXIT trap that already calls stop_servers (with the caller's own clean-up, such
# as removing a work folder) is kept; any other is replaced by stop_servers.
start_server() {
    local log=$1
    shift
    case "$(trap -p EXIT)" in
        *stop_servers*) ;;
        *) trap stop_servers EXIT ;;
    esac
    trap 'exit 130' INT
    trap 'exit 143' TERM
    "$@" >"$log" 2>&1 &
    SERVER_PID=$!
    SERVER_PIDS+=("$SERVER_PID")
}

# wait_for_port PORT PID [SECONDS]: until 127.0.0.1:PORT accepts a TCP connection; fails early if PID died.
wait_for_port() {
    local port=$1 pid=$2 limit=${3:-30} tries
    tries=$((limit * 10))
    while [ "$tries" -gt 0 ]; do
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "server (pid $pid) exited before it listened on port $port" >&2
            return 1
        fi
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            return 0
        fi
        sleep 0.1
        tries=$((tries - 1))
    done
    echo "nothing answered on 127.0.0.1:$port within ${limit}s" >&2
    return 1
}

# release_bin PRODUCT...: builds the products in release (quietly) and prints the folder holding them; with BIN
# set, prints BIN instead and builds nothing (to measure binaries built elsewhere, such as a "before" build).
release_bin() {
    if [ -n "${BIN:-}" ]; then
        echo "$BIN"
        return 0
    fi
    local product
    for product in "$@"; do
        echo "building $product (release)" >&2
        swift build -c release --product "$product" >/dev/null
    done
    swift build -c release --show-bin-path
}

# wait_for_descriptors PID COUNT [SECONDS]: until the process holds COUNT open files (its clients are connected).
wait_for_descriptors() {
    local pid=$1 count=$2 limit=${3:-120}
    for _ in $(seq $((limit * 5))); do
        [ "$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" -ge "$count" ] && return 0
        sleep 0.2
    done
    echo "pid $pid never held $count descriptors" >&2
    return 1
}

# stop_profiled: TERM to SERVER_PID, then as long as a profiler (valgrind) needs to close the connections and write
# its output (≤ 120 s), then stop_servers.
stop_profiled() {
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 600); do
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.2
    done
    stop_servers
}
