#!/usr/bin/env bash
# The Autobahn|Testsuite fuzzing client for scripts/autobahn: a Python 3 venv (shared/tools/autobahn/setup.sh
# runs `python3 -m venv` and pip installs wheels from PyPI), copied into .build/autobahn and set up here so that
# the CI step itself does not download. Idempotent; run as root on a fresh Debian machine.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/lib/python.sh
source scripts/lib/python.sh
ensure_python_venv
# scripts/autobahn copies the tool and runs setup.sh when its stamp is missing or stale: run it with no
# server so only that part happens.
scripts/autobahn --setup-only
