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

# cluster_step STEP TEST SECONDS SEED_VARIABLE LOG...: the whole of a cluster CI step, after the checks for the tools:
# the e2e Python and a release courtside (the build 52-abuse.sh made: a no-op here), a temporary work directory
# removed on exit, then TEST (a Python program of Tests/cluster taking --courtside, --work and --seed) under a
# `timeout` of SECONDS (then SIGKILL 10 s later), with --seed from the variable named SEED_VARIABLE when it is set.
# On failure, the tail of each LOG (relative to the work directory) that exists. Exits with the test's status.
# The test stops every process it started on every exit path (and they die with it: PR_SET_PDEATHSIG).
cluster_step() {
    local step=$1 test=$2 limit=$3 seed=$4
    shift 4
    cluster_require_tools "$step"
    local python courtside status=0 seed_args=()
    python=$(e2e_python)
    courtside=$(build_courtside release)
    # Global, not local: the EXIT trap runs after this function has returned.
    CLUSTER_WORK=$(mktemp -d "${TMPDIR:-/tmp}/courtside-${step#*-}.XXXXXX")
    trap 'rm -rf "$CLUSTER_WORK"' EXIT
    if [ -n "${!seed:-}" ]; then seed_args=(--seed "${!seed}"); fi
    timeout -k 10 "$limit" "$python" "$test" --courtside "$courtside" --work "$CLUSTER_WORK" "${seed_args[@]}" \
        || status=$?
    if [ "$status" -ne 0 ]; then
        cluster_dump_logs "$CLUSTER_WORK" "$@"
    fi
    exit "$status"
}
