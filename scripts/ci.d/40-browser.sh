#!/usr/bin/env bash
# ci-lane: quiet
# Browser tests (Tests/browser, README "Pages"): builds `courtside`, and pytest starts it on a free loopback port with a
# temporary data directory and a known admin token, then drives the pages in headless Chromium via
# chromium-driver + Selenium. Screenshots of the four pages go to $COURTSIDE_SCREENSHOTS
# (default .build/browser-screenshots). In CI (CI=true) a missing browser is a failure; locally it is a skip.
# COURTSIDE_UPDATE_SCREENSHOTS=1 also copies the screenshots to docs/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Whole-run bound: a hung browser or server must not hang CI.
RUN_TIMEOUT_S="${COURTSIDE_BROWSER_TIMEOUT:-600}"

missing=()
command -v chromedriver >/dev/null 2>&1 || missing+=("chromium-driver (apt)")
[ -x /usr/lib/chromium/chromium ] || command -v chromium >/dev/null 2>&1 || missing+=("chromium (apt)")
python3 -c 'import selenium' 2>/dev/null || missing+=("selenium (pip)")
python3 -c 'import pytest' 2>/dev/null || missing+=("pytest (pip)")
python3 -c 'import zxingcpp, numpy' 2>/dev/null || missing+=("zxing-cpp and numpy (pip)")
if [ ${#missing[@]} -gt 0 ]; then
    echo "browser tests: missing ${missing[*]}; scripts/install-deps.d/40-browser.sh installs them" >&2
    if [ "${CI:-}" = "true" ]; then
        echo "browser tests: FAILED (CI=true, so a missing browser is an error, not a skip)" >&2
        exit 1
    fi
    echo "browser tests: SKIPPED (not in CI)" >&2
    exit 0
fi

# The same flags as scripts/ci's build, so after it this is a no-op rather than a second build.
swift build --product courtside -Xswiftc -warnings-as-errors
bin_path="$(swift build --show-bin-path)"
export COURTSIDE_BIN="$bin_path/courtside"
[ -x "$COURTSIDE_BIN" ] || { echo "browser tests: $COURTSIDE_BIN was not built" >&2; exit 1; }
export COURTSIDE_SCREENSHOTS="${COURTSIDE_SCREENSHOTS:-$PWD/.build/browser-screenshots}"
# Selenium must use the Debian driver and browser, never fetch its own.
export SE_OFFLINE=true SE_AVOID_STATS=true

status=0
timeout --kill-after=10 "$RUN_TIMEOUT_S" python3 -m pytest Tests/browser -q -ra --tb=short -p no:cacheprovider "$@" || status=$?
if [ "$status" -eq 5 ]; then
    echo "browser tests: pytest collected no tests; that is a failure" >&2
    exit 1
fi
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "browser tests: timed out after ${RUN_TIMEOUT_S}s" >&2
fi
[ "$status" -eq 0 ] && echo "browser tests: passed; screenshots in $COURTSIDE_SCREENSHOTS"
exit "$status"
