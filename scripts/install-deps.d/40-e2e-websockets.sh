#!/usr/bin/env bash
# The end-to-end client of scripts/ci.d/40-e2e-websockets.sh: PyPI `websockets` (a WebSocket client nobody here
# wrote, with permessage-deflate) in a venv under .build/e2e-venv, so the CI step itself does not download.
# Idempotent; run as root on a fresh Debian machine.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/python.sh
source scripts/lib/python.sh
ensure_python_venv
if ! .build/e2e-venv/bin/python -c 'import websockets' >/dev/null 2>&1; then
    mkdir -p .build
    python3 -m venv .build/e2e-venv
    .build/e2e-venv/bin/pip install --quiet "websockets==17.4"
fi
