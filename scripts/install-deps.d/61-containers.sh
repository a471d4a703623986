#!/usr/bin/env bash
# The container engine for scripts/ci.d/61-cluster-deploy.sh (deploy/cluster/ proven for real):
# podman and podman-compose run the compose stack, runc is their OCI runtime, netavark and aardvark-dns give the
# stack's network and the name lookup between its containers (Caddy finds `courtside-1` by name; podman's other
# backend, CNI, has no DNS in Debian without another plugin), and mmdebstrap makes the local base images from the
# Debian archive (no registry can be reached here). netavark sets up every container network with iptables, which
# Debian pulls in with neither podman nor netavark: without it the first `podman build` fails with "netavark: No
# such file or directory (os error 2)", naming no package. busybox-static gives the smoke test below a container
# root file system of one file. Debian packages only; idempotent: installs only what is missing and rewrites
# containers.conf only when it differs. Last, a smoke test: a container on podman's default network and one on a
# network of its own that finds itself by name (aardvark-dns), failing with the piece that is missing.
set -euo pipefail

# shellcheck source=scripts/lib/python.sh
source "$(dirname "$0")/../lib/python.sh"  # apt_install
# iproute2: `ip netns`, the network namespace the step's single-node recipe runs in.
apt_install podman podman-compose runc netavark aardvark-dns iptables mmdebstrap busybox-static iproute2

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
# --- the smoke test ---------------------------------------------------------------------------------------------
smoke_fail() {
    echo "containers: FAILED: $1" >&2
    [ -z "${2:-}" ] || sed 's/^/    /' "$2" >&2
    exit 1
}
smoke=$(mktemp -d "${TMPDIR:-/tmp}/courtside-podman-smoke.XXXXXX")
network="courtside-smoke-$$"
trap 'podman network rm -f "$network" >/dev/null 2>&1 || true; rm -rf "$smoke"' EXIT
for tool in iptables netavark aardvark-dns; do
    command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/lib/podman/$tool" ] ||
        smoke_fail "$tool is not installed (apt-get install $tool)"
done
mkdir -p "$smoke/rootfs/bin"
cp /bin/busybox "$smoke/rootfs/bin/busybox"
podman run --rm --rootfs "$smoke/rootfs" /bin/busybox true >"$smoke/log" 2>&1 ||
    smoke_fail "podman cannot run a container on its default network (netavark needs iptables)" "$smoke/log"
podman network create "$network" >"$smoke/log" 2>&1 || smoke_fail "podman network create" "$smoke/log"
podman run --rm --network "$network" --name "$network-probe" --rootfs "$smoke/rootfs" \
    /bin/busybox nslookup "$network-probe" >"$smoke/log" 2>&1 ||
    smoke_fail "a container cannot look itself up by name on its network (aardvark-dns)" "$smoke/log"

version() { dpkg-query -W -f='${Version}' "$1"; }
echo "containers: ok (podman $(version podman), podman-compose $(version podman-compose), runc $(version runc)," \
    "netavark $(version netavark), iptables $(version iptables), mmdebstrap $(version mmdebstrap);" \
    "a container ran on the default network and found itself by name on its own)"
