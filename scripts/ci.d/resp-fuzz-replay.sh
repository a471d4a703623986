#!/usr/bin/env bash
# Replays the RESP reply parser's seed corpus and saved crashers through the plain (non-fuzzing) build of the fuzz
# executable, which checks the same invariants as the fuzzer. See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product courtside-fuzz-resp
.build/debug/courtside-fuzz-resp Fuzz/Corpus/resp
