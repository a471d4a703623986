#!/usr/bin/env python3
"""A fixed number of keep-alive GETs of the stylesheet on one loopback connection, one at a time, each answer read
to its Content-Length (benchmarks/http-instructions.sh: a count of requests, where wrk runs for a time).

    http_requests.py PORT COUNT identity|gzip

Every read has a deadline (10 s).
"""

import socket
import sys


def main():
    port, count, encoding = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    request = b"GET /css/courtside.css HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if encoding == "gzip":
        request += b"Accept-Encoding: gzip\r\n"
    request += b"\r\n"
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    buffer = b""
    for _ in range(count):
        sock.sendall(request)
        while b"\r\n\r\n" not in buffer:
            chunk = sock.recv(65536)
            if not chunk:
                raise SystemExit("closed before an answer")
            buffer += chunk
        head, _, buffer = buffer.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200 "):
            raise SystemExit(f"unexpected answer: {head[:100]!r}")
        length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        while len(buffer) < length:
            chunk = sock.recv(65536)
            if not chunk:
                raise SystemExit("closed inside a body")
            buffer += chunk
        buffer = buffer[length:]
    print("done", count)


if __name__ == "__main__":
    main()
