#!/usr/bin/env bash
# The real peers of scripts/ci.d/60-deploy.sh (README, "Deploy"): nginx and caddy as the TLS-terminating reverse
# proxies the deploy recipes configure, and systemd-analyze (package systemd) to verify the service unit. Debian
# packages only; idempotent (installs only what is missing). The packages' own services are never started here:
# policy-rc.d refuses service starts during the install, and the test starts each proxy itself on loopback ports.
set -euo pipefail

packages=(nginx caddy)
command -v systemd-analyze >/dev/null 2>&1 || packages+=(systemd)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    # Keep the package scripts from starting nginx/caddy on ports 80/443 (invoke-rc.d honours exit status 101).
    created_policy=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod 0755 /usr/sbin/policy-rc.d
        created_policy=1
    fi
    status=0
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "${missing[@]}"; } || status=$?
    if [ "$created_policy" -eq 1 ]; then
        rm -f /usr/sbin/policy-rc.d
    fi
    [ "$status" -eq 0 ] || exit "$status"
fi
echo "deploy peers: ok ($(nginx -v 2>&1), caddy $(caddy version 2>/dev/null | cut -d' ' -f1), $(systemd-analyze --version | head -n1))"
