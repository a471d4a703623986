"""A free TCP port on 127.0.0.1, below the kernel's ephemeral range (32768 and up by default): a port from that range
may be taken a moment later as the local port of an outgoing connection, such as one of the thousand a load run
opens, and then the server cannot listen. A tiny race with other programs remains. Run as a program it prints one
(scripts/lib/servers.sh `free_loopback_port`); the Python harnesses import `free_loopback_port`."""

import random
import socket


def free_loopback_port():
    low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
    for _ in range(200):
        port = random.randrange(10000, max(10001, low))
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise SystemExit("no free loopback port found")


if __name__ == "__main__":
    print(free_loopback_port())
