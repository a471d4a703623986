#!/usr/bin/env bash
# scripts/ci.d/45-testssl.sh scans `courtside serve`'s TLS with Debian's testssl.sh. Idempotent.
set -euo pipefail

if ! dpkg-query -W -f='${Status}' testssl.sh 2>/dev/null | grep -q "install ok installed"; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends testssl.sh
fi
