#!/usr/bin/env bash
# Conformance for permessage-deflate: Autobahn|Testsuite cases 12.x and 13.x (all 216) against courtside-echo
# (deflate on by default) over ws:// and wss://, about 5 minutes each. Both runs always happen; the step fails if
# either has a FAILED case, an unclean close (STRICT_CLOSE=1) or an incomplete run. A missing tool or server is a
# failure, never a skip. TIMEOUT (default here 2400 s) bounds each run: on a loaded machine wss takes far longer
# than the 5 minutes it needs alone.
set -euo pipefail
cd "$(dirname "$0")/../.."

status=0
for scheme in ws wss; do
    printf '\n--- autobahn %s 12.* 13.*\n' "$scheme"
    rc=0
    STRICT_CLOSE=${STRICT_CLOSE:-1} TIMEOUT=${TIMEOUT:-2400} scripts/autobahn "$scheme" '12.*,13.*' || rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "autobahn $scheme 12/13: FAILED (exit $rc; report .build/autobahn-results/courtside-$scheme/reports/index.html)" >&2
        status=1
    fi
done
exit "$status"
