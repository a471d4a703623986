#!/usr/bin/env bash
# Smoke test of courtside-load taptoscreen (debug builds, which scripts/ci has built), tiny and bounded: 3 games ×
# 6 spectators (half of them offering permessage-deflate) against one `courtside serve` on plain sockets, then
# against one serving TLS (a self-signed certificate made with openssl), the scorers at ten times a real pace for
# 3 s, with the limit (SQLite commit, a bare fan-out pass on courtside-echo) measured for 1 s. Fails unless the
# report is produced with samples in every class (ack and each kind of spectator), every command acked and no
# patch lost.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh

swift build --product courtside
swift build --product courtside-echo
swift build --product courtside-load
bin=$(swift build --show-bin-path)
out=.build/taptoscreen-smoke
rm -rf "$out" && mkdir -p "$out/public"
token=taptoscreen-smoke-admin-token
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 \
    -keyout "$out/key.pem" -out "$out/cert.pem" 2>/dev/null
echo_port=$(free_loopback_port)
start_server "$out/echo.log" "$bin/courtside-echo" --host 127.0.0.1 --port "$echo_port"
wait_for_port "$echo_port" "$SERVER_PID" 30
for mode in plain tls; do
    port=$(free_loopback_port)
    flags=()
    scheme=ws
    if [ "$mode" = tls ]; then
        flags=(--tls-cert "$out/cert.pem" --tls-key "$out/key.pem")
        scheme=wss
    fi
    start_server "$out/$mode.log" "$bin/courtside" serve --host 127.0.0.1 --port "$port" --data "$out/$mode/data" \
        --public "$out/public" --admin-token "$token" --log-level warning "${flags[@]}"
    wait_for_port "$port" "$SERVER_PID" 60
    echo "--- courtside-load taptoscreen: 3 games x 6 spectators, $mode"
    # courtside-load exits non-zero unless every spectator connected, every command was acked and no patch was
    # lost; the check below says which class came out empty.
    timeout -k 5 120 "$bin/courtside-load" taptoscreen --url "$scheme://127.0.0.1:$port" --admin-token "$token" \
        --games 3 --spectators 6 --deflate-share 0.5 --duration 3 --speed 10 --drain-timeout 10 \
        --store-dir "$out" --echo-url "ws://127.0.0.1:$echo_port" --limit-seconds 1 --json >"$out/$mode.json"
    python3 - "$out/$mode.json" "$mode" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
names = [c["name"] for c in report["classes"]]
expected = {"plain": ["ack", "screen plain", "screen plain deflate"],
            "tls": ["ack", "screen tls", "screen tls deflate"]}[sys.argv[2]]
problems = [f"class {name} missing" for name in expected if name not in names]
problems += [f"class {c['name']}: no samples" for c in report["classes"] if c["samples"] == 0]
if report["lostPatches"] != 0:
    problems.append(f"{report['lostPatches']} patches lost")
if report["limitP99Ms"] is None:
    problems.append("the limit was not measured: " + "; ".join(report["limit"]["problems"]))
for row in report["classes"]:
    print(f"  {row['name']:<24} {row['samples']:>6} samples, p99 {row['p99Ms']:.3f} ms")
if problems:
    sys.exit("taptoscreen smoke: " + "; ".join(problems))
PY
done
