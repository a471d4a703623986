"""STOPGAP ONLY: a tiny stand-in for `courtside serve`, written from docs/protocol.md, so the pages and the browser
tests could be developed before the real server existed. The browser tests run against the real server; this file
is used only when COURTSIDE_FAKE=1 is set. Standard library only.

    python3 fake_courtside.py --port 8080 --data DIR --public Public --admin-token T
"""

import argparse
import asyncio
import base64
import hashlib
import json
import mimetypes
import os
import secrets
import struct
import time
from pathlib import Path

MOVES = {
    "onePoint": ("onePointMoveCount", 1),
    "twoPoints": ("twoPointMoveCount", 2),
    "assist": ("assistMoveCount", 0),
    "rebound": ("reboundMoveCount", 0),
    "foul": ("foulMoveCount", 0),
}
PRESETS = {"pickup": (21, 2, None), "fiba3x3": (21, 1, 600000)}


def now_ms():
    return int(time.time() * 1000)


def fmt(ms, running):
    if running:
        ms = ms // 1000 * 1000
    t = ms // 100
    return f"{t // 600:02d}:{(t % 600) // 10:02d}.{t % 10}"


def diff(a, b, path=""):
    ops = []
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a:
            p = path + "/" + k.replace("~", "~0").replace("/", "~1")
            if k not in b:
                ops.append({"op": "remove", "path": p})
            else:
                ops += diff(a[k], b[k], p)
        for k in b:
            if k not in a:
                ops.append({"op": "add", "path": path + "/" + k.replace("~", "~0").replace("/", "~1"), "value": b[k]})
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            ops += diff(x, y, f"{path}/{i}")
    elif a != b or type(a) is not type(b):
        ops.append({"op": "replace", "path": path, "value": b})
    return ops


def enc(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Game:
    def __init__(self, gid, req, token):
        self.id = gid
        self.req = req
        self.token = token
        self.events = []  # applied commands in order
        self.answers = {}  # cid -> answer
        self.seq = 0
        self.window = []
        self.subscribers = set()
        r = req.get("rules") or {"preset": "pickup"}
        if r.get("preset") == "custom":
            self.rules = {"preset": "custom", "targetScore": r["targetScore"], "winBy": r.get("winBy", 1), "timeLimitMs": r.get("timeLimitMs")}
        else:
            t, w, l = PRESETS[r.get("preset", "pickup")]
            self.rules = {"preset": r.get("preset", "pickup"), "targetScore": t, "winBy": w, "timeLimitMs": l}
        self.created = now_ms()
        self.clock = {"running": False, "elapsedMs": 0, "asOf": self.created}
        self.moves = []  # (player, move, undone)

    def player(self, pid):
        side, i = pid.split("-")
        return side, int(i)

    def state(self):
        players = {"home": [], "away": []}
        for side in ("home", "away"):
            for i, name in enumerate(self.req[side + "Players"]):
                p = {"id": f"{side}-{i}", "playerName": name, "points": 0}
                for m, (field, _) in MOVES.items():
                    p[field] = 0
                players[side].append(p)
        for pid, move, undone in self.moves:
            if undone:
                continue
            side, i = self.player(pid)
            field, pts = MOVES[move]
            players[side][i][field] += 1
            players[side][i]["points"] += pts
        for side in players:
            for p in players[side]:
                for field, _ in MOVES.values():
                    p[field] = str(p[field])
        hs = sum(p["points"] for p in players["home"])
        as_ = sum(p["points"] for p in players["away"])
        winner = self.winner(hs, as_)
        c = dict(self.clock)
        elapsed = c["elapsedMs"] + ((self.tick_base - c["asOf"]) if c["running"] else 0)
        return {
            "id": self.id, "homeTeam": self.req["homeTeam"], "awayTeam": self.req["awayTeam"],
            "score": f"{hs} - {as_}", "homeScore": hs, "awayScore": as_,
            "time": fmt(elapsed, c["running"]), "clock": c, "isPaused": not c["running"],
            "isFinished": winner is not None, "winner": winner, "rules": self.rules,
            "homePlayers": players["home"], "awayPlayers": players["away"],
        }

    tick_base = 0

    def winner(self, h, a):
        t, w = self.rules["targetScore"], self.rules["winBy"]
        if h >= t and h - a >= w:
            return "home"
        if a >= t and a - h >= w:
            return "away"
        return None


class Server:
    def __init__(self, args):
        self.args = args
        self.public = Path(args.public).resolve()
        self.data = Path(args.data)
        self.data.mkdir(parents=True, exist_ok=True)
        self.games = {}
        self.lobby_seq = 0
        self.lobby_subs = set()
        self.load()

    # persistence: the command log, replayed on start
    def load(self):
        f = self.data / "fake.json"
        if not f.exists():
            return
        saved = json.loads(f.read_text())
        for g in saved["games"]:
            game = Game(g["id"], g["req"], g["token"])
            game.created = g["created"]
            game.clock = g["clock"]
            game.moves = [tuple(m) for m in g["moves"]]
            game.answers = g["answers"]
            game.seq = g["seq"]
            game.tick_base = g.get("tick_base", game.created)
            self.games[game.id] = game
        self.lobby_seq = saved["lobby_seq"]

    def save(self):
        out = {"lobby_seq": self.lobby_seq, "games": [
            {"id": g.id, "req": g.req, "token": g.token, "created": g.created, "clock": g.clock, "moves": g.moves,
             "answers": g.answers, "seq": g.seq, "tick_base": g.tick_base} for g in self.games.values()]}
        tmp = self.data / "fake.json.tmp"
        tmp.write_text(json.dumps(out))
        os.replace(tmp, self.data / "fake.json")

    def lobby(self):
        games = {}
        for order, g in enumerate(self.games.values()):
            s = g.state()
            games[g.id] = {"id": g.id, "order": order, "homeTeam": s["homeTeam"], "awayTeam": s["awayTeam"], "score": s["score"],
                           "homeScore": s["homeScore"], "awayScore": s["awayScore"], "isFinished": s["isFinished"],
                           "isLive": bool(g.moves) and not s["isFinished"], "winner": s["winner"]}
        return {"games": games}

    async def publish_game(self, game, before):
        after = game.state()
        ops = diff(before, after)
        if not ops:
            return False
        game.seq += 1
        msg = enc({"v": 1, "type": "patch", "game": game.id, "seq": game.seq, "ops": ops})
        game.window.append((game.seq, msg))
        game.window = game.window[-1024:]
        for ws in list(game.subscribers):
            await ws.send_text(msg)
        return True

    async def publish_lobby(self, before):
        ops = diff(before, self.lobby())
        if not ops:
            return
        self.lobby_seq += 1
        msg = enc({"v": 1, "type": "lobbyPatch", "seq": self.lobby_seq, "ops": ops})
        for ws in list(self.lobby_subs):
            await ws.send_text(msg)

    async def apply(self, game, cmd):
        cid = cmd.get("id")
        if cid in game.answers:
            return game.answers[cid]
        before, lobby_before = game.state(), self.lobby()
        err = None
        t = cmd.get("type")
        s = before
        if t == "move":
            if s["isFinished"]:
                err = ("game_finished", "the game is finished")
            elif cmd.get("player") not in [p["id"] for p in s["homePlayers"] + s["awayPlayers"]]:
                err = ("unknown_player", f"no player \"{cmd.get('player')}\" in this game")
            elif cmd.get("move") not in MOVES:
                err = ("bad_command", "unknown move")
            else:
                game.moves.append((cmd["player"], cmd["move"], False))
                if game.state()["isFinished"] and game.clock["running"]:
                    n = now_ms()
                    game.clock = {"running": False, "elapsedMs": game.clock["elapsedMs"] + n - game.clock["asOf"], "asOf": n}
        elif t == "clock":
            n = now_ms()
            if cmd.get("action") == "start":
                if s["isFinished"]:
                    err = ("game_finished", "the game is finished")
                elif game.clock["running"]:
                    err = ("clock_running", "the clock is running")
                else:
                    game.clock = {"running": True, "elapsedMs": game.clock["elapsedMs"], "asOf": n}
                    game.tick_base = n
            elif cmd.get("action") == "pause":
                if not game.clock["running"]:
                    err = ("clock_stopped", "the clock is stopped")
                else:
                    game.clock = {"running": False, "elapsedMs": game.clock["elapsedMs"] + n - game.clock["asOf"], "asOf": n}
            else:
                err = ("bad_command", f"unknown clock action \"{cmd.get('action')}\" (expected start or pause)")
        elif t == "undo":
            for i in range(len(game.moves) - 1, -1, -1):
                if not game.moves[i][2]:
                    game.moves[i] = (game.moves[i][0], game.moves[i][1], True)
                    break
            else:
                err = ("nothing_to_undo", "there is no move to undo")
        else:
            err = ("bad_command", "not a command")
        if err:
            answer = {"v": 1, "type": "error", "id": cid, "code": err[0], "message": err[1]}
        else:
            await self.publish_game(game, before)
            answer = {"v": 1, "type": "ack", "id": cid, "seq": game.seq}
            await self.publish_lobby(lobby_before)
        if cid:
            game.answers[cid] = answer
        self.save()
        return answer

    async def ticker(self):
        while True:
            await asyncio.sleep(0.05)
            n = now_ms()
            for g in self.games.values():
                c = g.clock
                if c["running"]:
                    elapsed = c["elapsedMs"] + n - c["asOf"]
                    last = c["elapsedMs"] + g.tick_base - c["asOf"]
                    if elapsed // 1000 > last // 1000:
                        before = g.state()
                        g.tick_base = n
                        await self.publish_game(g, before)

    # HTTP
    async def handle(self, reader, writer):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, target, _ = lines[0].split(" ", 2)
                headers = {}
                for l in lines[1:]:
                    if ":" in l:
                        k, v = l.split(":", 1)
                        headers[k.strip().lower()] = v.strip()
                body = b""
                if "content-length" in headers:
                    body = await reader.readexactly(int(headers["content-length"]))
                path, _, query = target.partition("?")
                params = dict(p.split("=", 1) for p in query.split("&") if "=" in p)
                if headers.get("upgrade", "").lower() == "websocket":
                    await self.websocket(reader, writer, headers, path, params)
                    return
                status, ctype, out = await self.route(method, path, headers, body)
                writer.write(f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {len(out)}\r\nCache-Control: no-cache\r\n\r\n".encode() + out)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def route(self, method, path, headers, body):
        if path == "/api/games" and method == "POST":
            if headers.get("authorization") != f"Bearer {self.args.admin_token}":
                return "401 Unauthorized", "application/json", b'{"message":"admin token required"}'
            req = json.loads(body or b"{}")
            errors = {}
            for side in ("home", "away"):
                if not str(req.get(side + "Team", "")).strip():
                    errors[side + "Team"] = "Enter the team's name"
                for i, n in enumerate(req.get(side + "Players", ["", "", ""])):
                    if not str(n).strip():
                        errors[f"{side}Players[{i}]"] = "Enter the player's name"
            r = req.get("rules") or {}
            if r.get("preset") == "custom" and not (1 <= int(r.get("targetScore", 0)) <= 999):
                errors["targetScore"] = "Enter a target from 1 to 999"
            if errors:
                return "400 Bad Request", "application/json", enc({"v": 1, "type": "error", "code": "invalid_game", "message": "invalid fields", "fields": errors}).encode()
            lobby_before = self.lobby()
            gid = secrets.token_hex(4)
            token = secrets.token_urlsafe(16)
            self.games[gid] = Game(gid, req, token)
            self.games[gid].tick_base = self.games[gid].created
            self.save()
            await self.publish_lobby(lobby_before)
            return "201 Created", "application/json", enc({"id": gid, "scorerToken": token, "links": {
                "spectator": f"/game.html?id={gid}", "scorer": f"/score.html?id={gid}", "display": f"/display.html?id={gid}"}}).encode()
        if path.startswith("/api/games/") and method == "GET":
            g = self.games.get(path.split("/")[3])
            if not g:
                return "404 Not Found", "application/json", b'{"message":"no such game"}'
            return "200 OK", "application/json", enc({"v": 1, "type": "snapshot", "game": g.id, "seq": g.seq, "state": g.state()}).encode()
        if path == "/healthz":
            return "200 OK", "text/plain", b"ok"
        rel = "index.html" if path == "/" else path.lstrip("/")
        f = (self.public / rel).resolve()
        if self.public in f.parents and f.is_file():
            return "200 OK", mimetypes.guess_type(str(f))[0] or "application/octet-stream", f.read_bytes()
        return "404 Not Found", "text/plain", b"not found"

    async def websocket(self, reader, writer, headers, path, params):
        accept = base64.b64encode(hashlib.sha1((headers["sec-websocket-key"] + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
        parts = path.strip("/").split("/")
        game = self.games.get(parts[2]) if len(parts) >= 3 else None
        if path != "/ws/games" and not game:
            writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            await writer.drain()
            return
        writer.write(f"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n".encode())
        ws = WS(reader, writer)
        if path == "/ws/games":
            await ws.send_text(enc({"v": 1, "type": "lobbySnapshot", "seq": self.lobby_seq, "state": self.lobby()}))
            self.lobby_subs.add(ws)
            try:
                while await ws.recv() is not None:
                    pass
            finally:
                self.lobby_subs.discard(ws)
            return
        scorer = len(parts) == 4 and parts[3] == "scorer"
        if scorer:
            try:
                first = await asyncio.wait_for(ws.recv(), 5)
                auth = json.loads(first or "{}")
            except (asyncio.TimeoutError, ValueError):
                auth = {}
            if auth.get("type") != "auth" or auth.get("token") != game.token:
                await ws.close(1008, "the scorer token was refused")
                return
            await ws.send_text(enc({"v": 1, "type": "authenticated", "game": game.id}))
        since = params.get("since")
        resumed = False
        if since is not None and since.isdigit() and not scorer:
            n = int(since)
            if n == game.seq:
                resumed = True
            elif game.window and game.window[0][0] <= n + 1 and n < game.seq:
                for s, msg in game.window:
                    if s > n:
                        await ws.send_text(msg)
                resumed = True
        if not resumed:
            await ws.send_text(enc({"v": 1, "type": "snapshot", "game": game.id, "seq": game.seq, "state": game.state()}))
        game.subscribers.add(ws)
        try:
            while True:
                text = await ws.recv()
                if text is None:
                    break
                try:
                    cmd = json.loads(text)
                except ValueError:
                    await ws.send_text(enc({"v": 1, "type": "error", "id": None, "code": "bad_json", "message": "not JSON"}))
                    continue
                if not scorer:
                    await ws.send_text(enc({"v": 1, "type": "error", "id": cmd.get("id"), "code": "read_only", "message": "spectators cannot send commands"}))
                    continue
                await ws.send_text(enc(await self.apply(game, cmd)))
        finally:
            game.subscribers.discard(ws)


class WS:
    def __init__(self, reader, writer):
        self.r, self.w = reader, writer

    async def send_text(self, text):
        data = text.encode()
        n = len(data)
        head = bytes([0x81]) + (bytes([n]) if n < 126 else bytes([126]) + struct.pack(">H", n) if n < 65536 else bytes([127]) + struct.pack(">Q", n))
        try:
            self.w.write(head + data)
            await self.w.drain()
        except ConnectionError:
            pass

    async def close(self, code, reason):
        payload = struct.pack(">H", code) + reason.encode()
        self.w.write(bytes([0x88, len(payload)]) + payload)
        await self.w.drain()

    async def recv(self):
        try:
            while True:
                b1, b2 = await self.r.readexactly(2)
                n = b2 & 0x7F
                if n == 126:
                    n = struct.unpack(">H", await self.r.readexactly(2))[0]
                elif n == 127:
                    n = struct.unpack(">Q", await self.r.readexactly(8))[0]
                mask = await self.r.readexactly(4) if b2 & 0x80 else b"\0\0\0\0"
                data = bytes(c ^ mask[i % 4] for i, c in enumerate(await self.r.readexactly(n)))
                op = b1 & 0x0F
                if op == 0x8:
                    await self.close(1000, "")
                    return None
                if op == 0x9:
                    self.w.write(bytes([0x8A, len(data)]) + data)
                    continue
                if op == 0x1:
                    return data.decode()
        except (asyncio.IncompleteReadError, ConnectionError):
            return None


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--data", default="./courtside-data")
    ap.add_argument("--public", default="./Public")
    ap.add_argument("--admin-token", default="admin")
    args = ap.parse_args()
    server = Server(args)
    srv = await asyncio.start_server(server.handle, args.host, args.port, reuse_address=True)
    asyncio.create_task(server.ticker())
    print(f"fake courtside listening on http://{args.host}:{args.port}", flush=True)
    async with srv:
        await srv.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
