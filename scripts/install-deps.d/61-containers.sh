#!/usr/bin/env bash
# The container engine for scripts/ci.d/61-cluster-deploy.sh (issue 10 "Done when", deploy/cluster/ proven for real):
# podman and podman-compose run the compose stack, runc is their OCI runtime, netavark and aardvark-dns give the
# stack's network and the name lookup between its containers (Caddy finds `courtside-1` by name; podman's other
# backend, CNI, has no DNS in Debian without another plugin), and mmdebstrap makes the local base images from the
# Debian archive (no registry can be reached here). Debian packages only; idempotent: installs only what is missing
# and rewrites containers.conf only when it differs.
set -euo pipefail

# shellcheck source=scripts/lib/python.sh
source "$(dirname "$0")/../lib/python.sh"  # apt_install
apt_install podman podman-compose runc netavark aardvark-dns mmdebstrap

# podman's settings (measured, ../shared/research/containers-offline.md):
# - runc, not crun: crun refuses this VM's hybrid cgroup layout ("cgroups in hybrid mode not supported");
# - limits within the machine's hard limits: podman's defaults (nofile 1,048,576, nproc its own maximum) are above
#   them here, and runc fails to start a container with "setrlimit: Operation not permitted" ("error setting
#   rlimit type 6" for nproc in a container that runs as a non-root user, as deploy/Dockerfile's does). A
#   container's own ulimits replace this list, so deploy/cluster/compose.yaml names both;
# - the network backend named, so podman never falls back to CNI.
# limit HARD CAP: the smaller of a hard limit (`ulimit -H…`, maybe "unlimited") and CAP.
limit() { if [ "$1" = unlimited ] || [ "$1" -gt "$2" ]; then echo "$2"; else echo "$1"; fi; }
nofile=$(limit "$(ulimit -Hn)" 20000)
nproc=$(limit "$(ulimit -Hu)" 32768)
conf=$(
    cat <<CONF
# Written by Courtside's scripts/install-deps.d/61-containers.sh.
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]

[engine]
runtime = "runc"

[network]
network_backend = "netavark"
CONF
)
mkdir -p /etc/containers
if [ "$(cat /etc/containers/containers.conf 2>/dev/null)" != "$conf" ]; then
    printf '%s\n' "$conf" >/etc/containers/containers.conf
fi
version() { dpkg-query -W -f='${Version}' "$1"; }
echo "containers: ok (podman $(version podman), podman-compose $(version podman-compose), runc $(version runc)," \
    "netavark $(version netavark), mmdebstrap $(version mmdebstrap))"
