#!/usr/bin/env bash
# ci-lane: background
# A short libFuzzer run of every harness under AddressSanitizer (release build, scripts/fuzz): new inputs beyond
# the seeds, with ASan watching every access, on every submission. Longer runs are recorded in docs/fuzzing.md.
#   COURTSIDE_FUZZ_SECONDS (default 20) per harness.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${COURTSIDE_FUZZ_SECONDS:-20}"
mkdir -p .build/fuzz-logs
for corpus in Fuzz/Corpus/*/; do
    name="$(basename "$corpus")"
    log=".build/fuzz-logs/$name.log"
    echo "--- fuzzing $name for ${seconds}s (libFuzzer + ASan), log in $log"
    if ! scripts/fuzz "$name" "$seconds" > "$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "fuzzing $name failed; crashers are in .build/fuzz-artifacts/$name/" >&2
        exit 1
    fi
    grep -E "^(#[0-9]+ +DONE|Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss_mb)" "$log" || true
done
