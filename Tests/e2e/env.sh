# shellcheck shell=bash
# Shared by scripts/ci.d/50-e2e.sh, scripts/ci.d/55-kill9.sh and benchmarks/broadcaster-latency.sh: the Python with
# PyPI websockets (scripts/install-deps.d/30-python-peers.sh) and the courtside executable. Source it with ROOT set.

# e2e_python: prints the venv's python, or fails naming the install step. Never a skip: a missing client is a
# failed check (STYLE.md 17), in CI and on a laptop alike.
e2e_python() {
    local python="$ROOT/.build/peers/venv/bin/python"
    if [ ! -x "$python" ] || ! "$python" -c 'import websockets' >/dev/null 2>&1; then
        echo "PyPI websockets is not installed in .build/peers/venv: run scripts/install-deps.d/30-python-peers.sh" >&2
        return 1
    fi
    echo "$python"
}

# e2e_require_standardwebhooks PYTHON: fails naming the install step unless PYTHON has PyPI standardwebhooks (the
# webhook checks' receivers verify every delivery with it).
e2e_require_standardwebhooks() {
    if ! "$1" -c 'import standardwebhooks' >/dev/null 2>&1; then
        echo "PyPI standardwebhooks is not installed in .build/peers/venv:" \
            "run scripts/install-deps.d/30-python-peers.sh" >&2
        return 1
    fi
}

# build_courtside [CONFIGURATION]: builds the courtside executable (debug unless told release) and prints its path.
build_courtside() {
    local configuration=${1:-debug}
    swift build -c "$configuration" --product courtside >&2
    echo "$(swift build -c "$configuration" --show-bin-path)/courtside"
}

# serve_and_check NAME CONFIGURATION CHECK [SERVE-ARGS...]: builds courtside (debug or release), serves it on a free
# loopback port with a fresh data directory and a random admin token (plus SERVE-ARGS), runs the shell function
# CHECK with $port, $token, $SERVER_PID and $work set, and exits with CHECK's status: failing too when the server
# died meanwhile, and then showing the server log's tail. The server and $work are removed on exit.
serve_and_check() {
    local name=$1 configuration=$2 check=$3
    shift 3
    local courtside status=0
    courtside=$(build_courtside "$configuration")
    work=$(mktemp -d "${TMPDIR:-/tmp}/courtside-$name.XXXXXX")
    token="$name-admin-token-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
    port=$(free_loopback_port)
    mkdir -p "$work/public"
    start_server "$work/server.log" "$courtside" serve --host 127.0.0.1 --port "$port" --data "$work/data" \
        --public "$work/public" --admin-token "$token" "$@"
    trap 'stop_servers; rm -rf "$work"' EXIT
    wait_for_port "$port" "$SERVER_PID" 60
    "$check" || status=$?
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        echo "$name: the server exited during the test" >&2
        status=1
    fi
    if [ "$status" -ne 0 ]; then
        echo "--- server log (last 40 lines)" >&2
        tail -n 40 "$work/server.log" >&2 || true
    fi
    exit "$status"
}
