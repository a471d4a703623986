"""The processes of the cluster test (Tests/cluster/cluster.py), each started, killed with SIGKILL and restarted by
the test itself, every wait bounded by a deadline:

- `RedisProcess`: Debian's `redis-server` on a loopback port, in a temporary directory, with a password and the AOF
  fsynced before every reply (`appendfsync always`), so a `kill -9` loses nothing it answered; restarted on the
  same directory, it replays the AOF.
- `Node`: one `courtside serve --redis URL` on its own port and data directory (the admin token, the shutdown
  marker), named by `COURTSIDE_NODE_ID` (shapes: `--node-id` or the variable; the variable leaves a build without
  the flag able to start, so the test reports what fails instead of a usage error).
- `Balancer`: Caddy (Debian's) in front of the nodes, with active health checks on `/healthz` (a node answering 503,
  e.g. cut off from Redis, is drained), passive ones (a refused connection marks a killed node down at once), and
  retries of a failed dial on another node: a client that reconnects through it reaches a live node.
"""

import asyncio
import ctypes
import os
import signal
import subprocess
import time

from courtside_client import http_call
from free_port import free_loopback_port


def _die_with_parent():
    """In the child before exec: SIGKILL when the test's process dies, however it dies (even by SIGKILL from the
    CI step's `timeout`), so no node, Redis or Caddy outlives the test (prctl(2), PR_SET_PDEATHSIG)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)


class Process:
    """A child process whose output goes to a log file; `kill()` is SIGKILL (nothing flushed), `stop()` SIGTERM."""

    def __init__(self, name, log_path):
        self.name = name
        self.log_path = log_path
        self.process = None
        self.starts = 0

    def spawn(self, command, env=None, cwd=None):
        log = open(self.log_path, "ab")
        log.write(f"--- start {self.starts + 1} of {self.name}: {' '.join(command)}\n".encode())
        log.flush()
        self.process = subprocess.Popen(
            command, stdout=log, stderr=log, stdin=subprocess.DEVNULL, env=env, cwd=cwd,
            preexec_fn=_die_with_parent,
        )
        log.close()
        self.starts += 1

    @property
    def pid(self):
        return self.process.pid if self.process is not None else None

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def exit_status(self):
        """The exit status of a process that ended by itself, None while it runs or when it was never started."""
        return None if self.process is None else self.process.poll()

    def kill(self):
        if self.alive():
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)
        self.process = None

    def stop(self, grace=10):
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        self.process = None

    def log_tail(self, lines=20):
        try:
            with open(self.log_path, "rb") as log:
                return b"\n".join(log.read().splitlines()[-lines:]).decode("utf-8", "replace")
        except OSError as error:
            return f"(no log: {error})"


async def redis_ping(port, password, timeout=1.0):
    """Whether Redis on `port` answers PING after AUTH (not while it is still loading its AOF: `-LOADING`)."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    except (OSError, asyncio.TimeoutError):
        return False
    try:
        auth = f"*2\r\n$4\r\nAUTH\r\n${len(password)}\r\n{password}\r\n"
        writer.write((auth + "*1\r\n$4\r\nPING\r\n").encode())
        first = await asyncio.wait_for(reader.readline(), timeout)
        second = await asyncio.wait_for(reader.readline(), timeout)
        return first == b"+OK\r\n" and second == b"+PONG\r\n"
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
        return False
    finally:
        writer.close()


class RedisProcess(Process):
    def __init__(self, directory, password, durable=True):
        super().__init__("redis", os.path.join(directory, "redis.out"))
        self.directory = directory
        self.password = password
        # durable=False (the test's --sabotage): no AOF, so a kill -9 forgets everything, acked writes included.
        self.durable = durable
        self.port = free_loopback_port()

    def url(self, port=None):
        return f"redis://:{self.password}@127.0.0.1:{port or self.port}/0"

    async def start(self, deadline=30):
        self.spawn([
            "redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.directory,
            "--appendonly", "yes" if self.durable else "no", "--appendfsync", "always", "--save", "",
            "--requirepass", self.password,
            "--daemonize", "no", "--protected-mode", "no", "--logfile", "redis.log",
        ])
        started = time.monotonic()
        while time.monotonic() - started < deadline:
            if not self.alive():
                raise RuntimeError(f"redis-server exited at start: {self.log_tail()}")
            if await redis_ping(self.port, self.password):
                return time.monotonic() - started
            await asyncio.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer PING within {deadline} s")


class Node(Process):
    """One `courtside serve --redis` node. `redis_url` may point at a PartitionProxy instead of Redis itself."""

    def __init__(self, name, courtside, directory, admin_token, redis_url, public):
        super().__init__(f"node {name}", os.path.join(directory, f"{name}.log"))
        self.node_id = name
        self.courtside = courtside
        self.data = os.path.join(directory, f"{name}-data")
        self.admin_token = admin_token
        self.redis_url = redis_url
        self.public = public
        self.port = free_loopback_port()
        self.url = f"http://127.0.0.1:{self.port}"

    def command(self):
        return [
            self.courtside, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--data", self.data,
            "--public", self.public, "--admin-token", self.admin_token, "--redis", self.redis_url,
            # A consistency test, not a rate-limit test: scorers may send as fast as acks come back.
            "--command-burst", "100000", "--commands-per-second", "100000",
            "--trusted-proxies", "127.0.0.1",
        ]

    async def start(self, deadline=30):
        """Starts the node and waits until its /healthz answers 200; returns the seconds that took."""
        env = dict(os.environ, COURTSIDE_NODE_ID=self.node_id)
        self.spawn(self.command(), env=env)
        started = time.monotonic()
        while time.monotonic() - started < deadline:
            if not self.alive():
                raise RuntimeError(
                    f"{self.name} exited with status {self.exit_status()} at start: {self.log_tail(8)}")
            if await self.healthy():
                return time.monotonic() - started
            await asyncio.sleep(0.05)
        raise RuntimeError(f"{self.name}: /healthz did not answer 200 within {deadline} s")

    async def health(self, timeout=2.0):
        """(status, body) of GET /healthz, or (None, error) when nothing answered."""
        try:
            result = await http_call(self.url, "GET", "/healthz", timeout=timeout)
            return result.status, result.body.decode("utf-8", "replace")
        except (OSError, asyncio.TimeoutError) as error:
            return None, f"{type(error).__name__}: {error}"

    async def healthy(self):
        status, _ = await self.health(timeout=1.0)
        return status == 200


CADDYFILE = """{{
\tadmin off
\tauto_https off
\thttp_port {port}
\tdefault_bind 127.0.0.1
}}

http://127.0.0.1:{port} {{
\treverse_proxy {upstreams} {{
\t\t# Any node serves any game: no stickiness. A dial that fails (a killed node) is tried on another node for up
\t\t# to lb_try_duration; a failed dial also marks the node down for fail_duration (passive check).
\t\tlb_policy round_robin
\t\tlb_try_duration 5s
\t\tlb_try_interval 100ms
\t\tfail_duration 2s
\t\t# Active check: a node whose /healthz is not 200 (e.g. 503, Redis unreachable) gets no new requests.
\t\thealth_uri /healthz
\t\thealth_interval 500ms
\t\thealth_timeout 1s
\t\thealth_status 200
\t\tflush_interval -1
\t}}
}}
"""


class Balancer(Process):
    def __init__(self, directory, nodes):
        super().__init__("caddy", os.path.join(directory, "caddy.log"))
        self.directory = directory
        self.port = free_loopback_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.config = os.path.join(directory, "Caddyfile")
        with open(self.config, "w") as file:
            file.write(CADDYFILE.format(
                port=self.port, upstreams=" ".join(f"127.0.0.1:{node.port}" for node in nodes)))

    async def start(self, deadline=30):
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(self.directory, "caddy-data"),
                   XDG_CONFIG_HOME=os.path.join(self.directory, "caddy-config"), HOME=self.directory)
        self.spawn(["caddy", "run", "--config", self.config, "--adapter", "caddyfile"], env=env)
        started = time.monotonic()
        while time.monotonic() - started < deadline:
            if not self.alive():
                raise RuntimeError(f"caddy exited at start: {self.log_tail()}")
            try:
                result = await http_call(self.url, "GET", "/healthz", timeout=1.0)
                if result.status == 200:
                    return time.monotonic() - started
            except (OSError, asyncio.TimeoutError):
                pass
            await asyncio.sleep(0.1)
        raise RuntimeError(f"caddy did not pass /healthz through within {deadline} s: {self.log_tail()}")
