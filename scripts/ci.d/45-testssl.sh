#!/usr/bin/env bash
# ci-lane: quiet
# TLS configuration check with a scanner nobody here wrote (docs/server.md, "TLS"): Debian's testssl.sh against
# `courtside serve --tls-cert/--tls-key` on a free loopback port, with a throwaway RSA certificate. The JSON report
# is judged by scripts/lib/testssl_verdict.py: nothing vulnerable, no CBC (or any non-AEAD) suite, only the strong
# cipher category offered, Strict-Transport-Security present; the test certificate's own findings (self-signed,
# expires in 2 days) are the only ones ignored. Without testssl the check skips locally and fails under CI=true.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/servers.sh
source scripts/lib/servers.sh
# shellcheck source=Tests/e2e/env.sh
source Tests/e2e/env.sh

testssl=$(command -v testssl || command -v testssl.sh || true)
if [ -z "$testssl" ]; then
    echo "45-testssl: testssl.sh (apt) is missing; scripts/install-deps.d/45-testssl.sh installs it" >&2
    if [ "${CI:-}" = "true" ]; then
        echo "45-testssl: FAILED (CI=true, so a missing scanner is an error, not a skip)" >&2
        exit 1
    fi
    echo "45-testssl: SKIPPED (not in CI)" >&2
    exit 0
fi

courtside=$(build_courtside debug)
work=$(mktemp -d "${TMPDIR:-/tmp}/courtside-testssl.XXXXXX")
# RSA, so the RSA key-exchange checks (ROBOT, static RSA suites) have something to test; the ECDSA suites are
# covered by TLSContextPolicyTests.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=localhost" \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
port=$(free_loopback_port)
mkdir -p "$work/public"
echo '<!doctype html><title>testssl</title>' >"$work/public/index.html"
start_server "$work/server.log" "$courtside" serve --host 127.0.0.1 --port "$port" --data "$work/data" \
    --public "$work/public" --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" \
    --admin-token "testssl-admin-token-0123456789"
trap 'stop_servers; rm -rf "$work"' EXIT
wait_for_port "$port" "$SERVER_PID" 60

status=0
# A full run (protocols, cipher categories, every cipher, server defaults, headers, vulnerabilities): about two
# minutes here. --warnings batch: never stop for a question.
timeout -k 5 600 "$testssl" --quiet --color 0 --warnings batch --jsonfile "$work/report.json" \
    "https://127.0.0.1:$port/" >"$work/testssl.txt" 2>&1 || status=$?
# testssl's exit status counts its findings (the self-signed certificate among them): the verdict is ours.
if [ ! -s "$work/report.json" ]; then
    echo "45-testssl: testssl wrote no report (exit $status)" >&2
    tail -n 40 "$work/testssl.txt" >&2 || true
    exit 1
fi
status=0
python3 scripts/lib/testssl_verdict.py "$work/report.json" || status=$?
if [ "$status" -ne 0 ]; then
    echo "--- testssl output (last 60 lines)" >&2
    tail -n 60 "$work/testssl.txt" >&2 || true
fi
exit "$status"
