#!/usr/bin/env bash
# The browser tests (Tests/browser, run by scripts/ci.d/40-browser.sh) drive Debian's Chromium through
# chromium-driver with PyPI selenium and pytest. Idempotent: installs only what is missing.
set -euo pipefail

apt_packages=(chromium chromium-driver python3 python3-pip)
missing=()
for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

python=python3
# zxing-cpp (with numpy) decodes the QR codes the lobby draws, as a phone's camera would (Tests/browser/test_crew.py).
if ! "$python" -c 'import selenium, pytest, zxingcpp, numpy' 2>/dev/null; then
    # Debian's system Python refuses pip installs without this flag (PEP 668); a virtualenv'd or pyenv
    # Python ignores it.
    "$python" -m pip install --quiet --break-system-packages 'selenium>=4.10' pytest zxing-cpp numpy 2>/dev/null \
        || "$python" -m pip install --quiet 'selenium>=4.10' pytest zxing-cpp numpy
fi
