"""The cluster test's courts phase (docs/redis.md, "Courts"): courts and the pickup queue are shared by every node.

- `courts/created`: a court created on a is served by b and c within a second;
- `courts/queue`: one team joins on each of a, b and c at once (with the join code b shows): each is answered 200 and
  every node shows all three in one order within a second (a join that met another node's is made again from it);
- `courts/display`: a court socket on b follows a game put on the court through c within a second.
"""

import asyncio
import json
import time

from websockets.asyncio.client import connect

from cluster_state import short
from courtside_client import http_call, ws_url
from phase_faults import until


async def court_on(node, court_id):
    result = await http_call(node.url, "GET", f"/api/courts/{court_id}", timeout=5)
    return result.json() if result.status == 200 else None


async def courts(cluster):
    checks, nodes = cluster.checks, cluster.nodes
    created = await http_call(nodes["a"].url, "POST", "/api/courts", token=cluster.admin_token,
                              body={"name": "Park"}, timeout=10)
    if created.status != 201:
        checks.report("courts/created", False, f"POST /api/courts on a: {created}")
        return
    court_id, display_key = created.json()["id"], created.json()["displayKey"]

    async def everywhere(wanted):
        return all([wanted(await court_on(node, court_id)) for node in nodes.values()])

    seen = await until(lambda: everywhere(lambda court: court is not None and court["name"] == "Park"),
                       cluster.within(1.0), 0.02)
    checks.report("courts/created", seen is not None,
                  f"{court_id} created on a, served by b and c {seen * 1000:.0f} ms later" if seen is not None
                  else f"{court_id} created on a is not served by every node within a second")

    code = await http_call(nodes["b"].url, "GET", f"/api/courts/{court_id}/code", token=display_key, timeout=5)
    teams = {name: f"Team {name}" for name in nodes}
    answers = await asyncio.gather(*(
        http_call(node.url, "POST", f"/api/courts/{court_id}/queue", timeout=10,
                  body={"name": teams[name], "players": ["Ann", "Bo", "Cy"], "code": code.json().get("code")})
        for name, node in nodes.items()))
    refused = [f"{name}: {answer}" for name, answer in zip(nodes, answers) if answer.status != 200]
    at = time.monotonic()

    async def queues():
        return [[team["name"] for team in (await court_on(node, court_id) or {}).get("queue", [])]
                for node in nodes.values()]

    async def one_queue():
        shown = await queues()
        return all(sorted(queue) == sorted(teams.values()) and queue == shown[0] for queue in shown)

    alike = await until(one_queue, min(at + 1.0, cluster.deadline), 0.02)
    checks.report("courts/queue", not refused and alike is not None,
                  f"one team joined on each of a, b and c at once: every node shows {await queues()} "
                  f"{alike * 1000:.0f} ms after the last answer" if not refused and alike is not None
                  else f"refused: {short(refused)}; queues on a, b, c: {await queues()}")

    game_id, _ = await cluster.create_game(nodes["c"].url)
    async with connect(ws_url(nodes["b"].url, f"/ws/courts/{court_id}"), open_timeout=5) as display:
        snapshot = json.loads(await asyncio.wait_for(display.recv(), 5))
        put = await http_call(nodes["c"].url, "PUT", f"/api/courts/{court_id}", token=cluster.admin_token,
                              body={"game": game_id}, timeout=10)
        at = time.monotonic()
        patch = None
        try:
            while patch is None:
                message = json.loads(await asyncio.wait_for(display.recv(), max(0.05, at + 1.0 - time.monotonic())))
                if message.get("type") == "courtPatch":
                    patch = message
        except asyncio.TimeoutError:
            pass
        took = time.monotonic() - at
    wanted = [{"op": "replace", "path": "/game", "value": game_id}]
    ok = snapshot.get("type") == "courtSnapshot" and put.status == 200 and patch is not None and patch["ops"] == wanted
    checks.report("courts/display", ok,
                  f"a court socket on b got the game put on through c {took * 1000:.0f} ms later: {patch['ops']}"
                  if ok else f"snapshot {snapshot.get('type')}, PUT on c {put.status}, patch {patch}")
