#!/usr/bin/env bash
# The Python client of the end-to-end, kill -9 and broadcaster-latency programs (Tests/e2e, benchmarks/): PyPI
# websockets in a venv at .build/e2e/venv. Idempotent (pip skips what is installed; the import check runs every
# time); run as root on a fresh Debian machine.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/python.sh
source scripts/lib/python.sh
ensure_python_venv
venv=.build/e2e/venv
if [ ! -x "$venv/bin/python" ]; then
    mkdir -p .build/e2e
    timeout 300 python3 -m venv "$venv"
fi
timeout 600 "$venv/bin/pip" install -q --disable-pip-version-check -r Tests/e2e/requirements.txt
timeout 60 "$venv/bin/python" -c 'import websockets' >/dev/null
echo "e2e peers: ok ($("$venv/bin/python" --version), websockets $("$venv/bin/python" -c 'import websockets; print(websockets.__version__)'))"
