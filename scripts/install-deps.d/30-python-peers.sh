#!/usr/bin/env bash
# The Python test peers, in one venv at .build/peers/venv: PyPI websockets (the end-to-end, kill -9 and deflate
# tests, the broadcaster-latency driver, the echo benchmark), standardwebhooks (the webhook receiver's verifier) and uWebSockets through PyPI socketify (benchmarks). socketify's prebuilt library links libuv.so.1: Debian's libuv1. Idempotent (pip
# skips what is installed; the import check runs every time); run as root on a fresh Debian machine.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/python.sh
source scripts/lib/python.sh
ensure_python_venv
apt_install libuv1
venv=.build/peers/venv
if [ ! -x "$venv/bin/python" ]; then
    mkdir -p .build/peers
    timeout 300 python3 -m venv "$venv"
fi
timeout 600 "$venv/bin/pip" install -q --disable-pip-version-check -r benchmarks/peers/requirements.txt
timeout 60 "$venv/bin/python" -c 'import websockets, socketify, standardwebhooks' >/dev/null
echo "python peers: ok ($("$venv/bin/python" --version), websockets, socketify and standardwebhooks import)"
