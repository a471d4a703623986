#!/usr/bin/env bash
# User-space instructions per wss:// delivery of courtside-echo (one loop), counted by valgrind's callgrind with
# instrumentation switched on only while SUBSCRIBERS TLS subscribers receive messages at RATE/s (`callgrind_control
# -i on/off`), divided by the number of `SSL_write_ex` calls in that window (one per delivery at a game's rate: each
# connection's frame is one record). A count, not a time: it does not move with the machine's load, so it compares
# two builds where the CPU per delivery of `benchmarks/latency-compare.sh` swings by ±30% (docs/benchmarks.md). The
# kernel's share (send, TCP) is not in it. Prints the total and the share per shared object.
#
#   benchmarks/tls-instructions.sh
#
# Environment (optional): SUBSCRIBERS (default 100: the handshakes run under valgrind), RATE (default 10), BIN (a
# folder with built courtside-echo and courtside-load to use instead of building). Raw output:
# .build/bench-tls-instructions/.
set -euo pipefail
# shellcheck source=benchmarks/lib.sh
source "$(dirname "$0")/lib.sh"

subscribers=${SUBSCRIBERS:-100}
rate=${RATE:-10}
out=.build/bench-tls-instructions
fresh_dir "$out"
raise_open_files
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
bin=$(release_bin courtside-echo courtside-load)
throwaway_certificate "$out"

port=$(free_loopback_port)
start_server "$out/server.log" valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out/callgrind.out" \
    "$bin/courtside-echo" --host 127.0.0.1 --port "$port" --threads 1 --tls-cert "$out/cert.pem" \
    --tls-key "$out/key.pem"
wait_for_port "$port" "$SERVER_PID" 60
load=$(load_average 1)
timeout -k 5 300 "$bin/courtside-load" fanout --sub-url "wss://127.0.0.1:$port/sub" \
    --pub-url "wss://127.0.0.1:$port/pub" --tls-ca "$out/cert.pem" --subscribers "$subscribers" --rate "$rate" \
    --duration 10 --settle 3 >"$out/load.txt" &
load_pid=$!
# From after the handshakes (and the settle) for 6 of the 10 publishing seconds: deliveries only.
wait_for_descriptors "$SERVER_PID" $((subscribers + 4)) 200
sleep 2
callgrind_control -i on "$SERVER_PID" >/dev/null 2>&1
sleep 6
callgrind_control -i off "$SERVER_PID" >/dev/null 2>&1
wait "$load_pid" || true
kill -TERM "$SERVER_PID" 2>/dev/null || true
# callgrind writes its file at exit.
for _ in $(seq 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.2; done
stop_servers
grep -E "delivered" "$out/load.txt" || true
echo "courtside-echo under callgrind, $subscribers wss:// subscribers at $rate msg/s (load $load, $(date -u +%Y-%m-%dT%H:%MZ)):"
callgrind_annotate --threshold=100 "$out/callgrind.out" >"$out/annotate.txt" 2>/dev/null
python3 - "$out/callgrind.out" "$out/annotate.txt" <<'PY'
import re, sys
from collections import defaultdict
# Calls to SSL_write_ex: callgrind names a function once as "cfn=(id) name", then by "(id)" alone.
names, calls, total, callee = {}, defaultdict(int), 0, None
for line in open(sys.argv[1], errors="replace"):
    if line.startswith(("summary:", "totals:")):
        total = int(line.split()[1])
    m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
    if m:
        if m.group(3):
            names[m.group(2)] = m.group(3).strip()
        callee = m.group(2) if m.group(1) == "cfn" else None
    elif line.startswith("calls=") and callee is not None:
        calls[callee] += int(line.split("=")[1].split()[0])
        callee = None
writes = sum(n for k, n in calls.items() if names.get(k) == "SSL_write_ex")
if not writes:
    sys.exit("no SSL_write_ex call counted")
print(f"  {writes} deliveries (SSL_write_ex calls), {total:,} instructions: {total / writes:,.0f} per delivery")
shares = defaultdict(int)
for line in open(sys.argv[2]):
    m = re.match(r"\s*([\d,]+) \(.*\[(.*)\]\s*$", line)
    if m:
        shares[m.group(2).rsplit("/", 1)[-1]] += int(m.group(1).replace(",", ""))
for name, count in sorted(shares.items(), key=lambda kv: -kv[1])[:6]:
    print(f"  {count / writes:8,.0f} {name}")
PY
