# What the cluster CI steps (scripts/ci.d/56-cluster.sh, 57-partitions.sh) share; sourced, after cd to the root.

# Checks for redis-server and caddy. With CI=true a missing one fails the step (exit 1); elsewhere the step says what
# is missing and skips (exit 0). $1 names the step in the message.
cluster_require_tools() {
    local step=$1 tool
    local missing=()
    for tool in redis-server caddy; do
        command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "${CI:-}" = "true" ]; then
        echo "$step: FAILED: missing ${missing[*]} (scripts/install-deps installs redis-server," \
            "scripts/install-deps.d/60-deploy.sh caddy)" >&2
        exit 1
    fi
    echo "$step: SKIPPED: missing ${missing[*]}; run scripts/install-deps as root (CI fails instead)"
    exit 0
}

# Prints the last 15 lines of each log that exists, named relative to the work directory $1.
cluster_dump_logs() {
    local work=$1 log
    shift
    for log in "$@"; do
        [ -f "$work/$log" ] || continue
        echo "--- $log (last 15 lines)" >&2
        tail -n 15 "$work/$log" >&2 || true
    done
}
