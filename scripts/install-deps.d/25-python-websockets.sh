#!/usr/bin/env bash
# Python `websockets` (PyPI) for the shared-deflate-stream test (Tests/Scripts/deflate_subscribers.py, driven by
# Tests/CourtsideNetTests/PythonWebsocketsTests.swift): a venv at .build/python-websockets, which the test finds by
# itself. Idempotent (the venv is made once; pip skips what is installed; the import check runs every time); run as
# root on a fresh Debian machine.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/python.sh
source scripts/lib/python.sh
ensure_python_venv
venv=.build/python-websockets
if [ ! -x "$venv/bin/python" ]; then
    mkdir -p .build
    timeout 300 python3 -m venv "$venv"
fi
timeout 600 "$venv/bin/pip" install -q --disable-pip-version-check "websockets==17.4"
timeout 60 "$venv/bin/python" -c 'import websockets' >/dev/null
echo "python websockets: ok ($("$venv/bin/python" -c 'import websockets; print(websockets.__version__)'))"
