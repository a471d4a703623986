#!/usr/bin/env bash
# Conformance: the Autobahn|Testsuite fuzzing client, cases 1.x to 10.x, against courtside-echo over ws:// and
# wss://. Both runs always happen; the step fails if either has a FAILED case or an incomplete run.
# A missing tool or server is a failure, never a skip. STRICT_CLOSE=1 (see scripts/autobahn): a close handshake
# that was not clean fails too, so wss:// is held to the same run as ws:// (the suite only remarks on it).
set -euo pipefail
cd "$(dirname "$0")/../.."

status=0
for scheme in ws wss; do
    printf '\n--- autobahn %s\n' "$scheme"
    rc=0
    STRICT_CLOSE=${STRICT_CLOSE:-1} scripts/autobahn "$scheme" || rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "autobahn $scheme: FAILED (exit $rc; report .build/autobahn-results/courtside-$scheme/reports/index.html)" >&2
        status=1
    fi
done
exit "$status"
