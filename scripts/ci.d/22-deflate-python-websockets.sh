#!/usr/bin/env bash
# The shared deflate stream against Python `websockets` subscribers (and raw zlib clients) on a running
# courtside-echo. Run again here with CI=1 so that a missing Python `websockets` fails the build instead of skipping
# the test (scripts/install-deps.d/25-python-websockets.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/../.."
CI=1 swift test --skip-build --filter PythonWebsocketsTests
