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

# build_courtside [CONFIGURATION]: builds the courtside executable (debug unless told release) and prints its path.
build_courtside() {
    local configuration=${1:-debug}
    swift build -c "$configuration" --product courtside >&2
    echo "$(swift build -c "$configuration" --show-bin-path)/courtside"
}
