#!/usr/bin/env bash
# ci-lane: background
# Replays every fuzzer's seed corpus and saved crashers through the plain (non-fuzzing) build of its executable,
# which checks the same invariants as the fuzzer: Fuzz/Corpus/NAME through courtside-fuzz-NAME. See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
for corpus in Fuzz/Corpus/*/; do
    name="$(basename "$corpus")"
    swift build --product "courtside-fuzz-$name"
    ".build/debug/courtside-fuzz-$name" "$corpus"
done
