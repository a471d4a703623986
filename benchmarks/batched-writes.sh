#!/usr/bin/env bash
# What batching a fan-out's sends buys on this kernel ("the physical limit" of a fan-out): benchmarks/batched_writes.c
# sends M messages to N loopback TCP connections one send(2) each, as io_uring SENDs submitted thousands per
# system call (liburing), and as one writev(2) per connection for every two messages, in interleaved rounds, and
# prints wall and CPU nanoseconds and system calls per delivered message, with the load average.
#
#   benchmarks/batched-writes.sh                   # CONNECTIONS=9000 MESSAGES=50 BYTES=225 ROUNDS=3; ~1 minute
#
# Needs a C compiler and liburing (Debian: apt-get install liburing-dev; not in scripts/install-deps, since the
# package does not use it: docs/benchmarks.md, "Batched writes"). Two descriptors per connection: the open-file
# limit is raised to the hard limit.
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"
out=.build/bench-batched-writes
mkdir -p "$out"
if [ ! -f /usr/include/liburing.h ]; then
    echo "liburing is missing: apt-get install liburing-dev" >&2
    exit 1
fi
build_c "$out/batched_writes" benchmarks/batched_writes.c -luring
raise_open_files
echo "kernel $(uname -r), $(nproc) cores shared; load average before: $(load_average)"
timeout 600 "$out/batched_writes" "${CONNECTIONS:-9000}" "${MESSAGES:-50}" "${BYTES:-225}" "${ROUNDS:-3}"
echo "load average after: $(load_average)"
