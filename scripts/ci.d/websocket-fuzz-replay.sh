#!/usr/bin/env bash
# Replays the WebSocket fuzz seed corpus and saved crashers through the plain (non-fuzzing) build of the fuzz
# executable, which checks the same invariants as the fuzzer. See docs/fuzzing-websocket.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product courtside-fuzz-websocket
.build/debug/courtside-fuzz-websocket Fuzz/Corpus/websocket
