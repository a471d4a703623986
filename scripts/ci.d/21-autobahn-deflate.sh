#!/usr/bin/env bash
# Conformance for permessage-deflate: Autobahn|Testsuite cases 12.x and 13.x (all 216) against courtside-echo
# (deflate on by default) over ws:// and wss://. Both runs always happen, side by side: the fuzzing client (Python)
# spends about 85% of the CPU of a run (measured: courtside-echo used 7.5 s of CPU for the 51 s of case 12.2.10), so
# on two cores the pair takes little more than one run does alone. The step fails if either has a FAILED case, an
# unclean close (STRICT_CLOSE=1) or an incomplete run. A missing tool or server is a failure, never a skip. TIMEOUT
# (default here 2400 s) bounds each run; AUTOBAHN_DEFLATE_CASES narrows the cases (to try the step quickly).
set -euo pipefail
cd "$(dirname "$0")/../.."

# Build once, before the runs start (two `swift build`s on one .build would only queue on its lock).
swift build -c release --product courtside-echo
logs=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$logs"' EXIT
declare -A pids
for scheme in ws wss; do
    STRICT_CLOSE=${STRICT_CLOSE:-1} TIMEOUT=${TIMEOUT:-2400} scripts/autobahn "$scheme" "${AUTOBAHN_DEFLATE_CASES:-12.*,13.*}" \
        >"$logs/$scheme.log" 2>&1 &
    pids[$scheme]=$!
done
status=0
for scheme in ws wss; do
    rc=0
    wait "${pids[$scheme]}" || rc=$?
    printf '\n--- autobahn %s 12.* 13.*\n' "$scheme"
    cat "$logs/$scheme.log"
    if [ "$rc" -ne 0 ]; then
        echo "autobahn $scheme 12/13: FAILED (exit $rc; report .build/autobahn-results/courtside-$scheme/reports/index.html)" >&2
        status=1
    fi
done
exit "$status"
