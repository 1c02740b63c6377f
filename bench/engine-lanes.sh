#!/usr/bin/env bash
# engine-lanes.sh - do engine jobs hold the organiser? (run by bench/hostile.sh)
#
# Three scenarios, each on a fresh demo store (PLAYERS players, round 1
# paired) served by `xqref serve`. The admin first enters every result of
# round 1; then clients queue four `{"op":"perft","depth":7}` each (some
# 2e11 leaves: minutes of a worker thread per job):
#   as filed     two connections without a token
#   lane full    an arbiter and an admin connection (the engine lane's
#                XQ_ENGINE_RUNNING_MAX slots taken, the rest waiting)
#   role caps    two arbiter and two admin connections: 8 jobs of each
#                role, its cap (XQ_ENGINE_JOBS_ARBITER, _ADMIN)
# and, while they run, a board plays ten moves (each committed), a
# tokenless reader asks `event` 200 times, and the admin pairs and
# publishes round 2. Printed: what the perfts got at once, the time of
# the pair (or "no answer after 20 s"), the moves' and reads' latency.
#
# Settings (environment):
#   XQREF    xqref binary       (default build/xqref)
#   PLAYERS  demo players       (default 400)
# Needs python3.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PLAYERS=${PLAYERS:-400}
need_xqref
command -v python3 >/dev/null || die "python3 is needed"

exec python3 - "$XQREF" "$PLAYERS" <<'PY'
import json, os, shutil, socket, statistics, subprocess, sys, tempfile, time

XQ, PLAYERS = sys.argv[1], int(sys.argv[2])

def server(tmp):
    p = subprocess.Popen([XQ, "serve", "--db", os.path.join(tmp, "t.db"), "--listen", "127.0.0.1:0",
                          "--http", "none", "--demo", "--players", str(PLAYERS), "--quiet"],
                         stdout=subprocess.PIPE, text=True)
    t = {"boards": {}}
    for line in p.stdout:
        w = line.split()
        if w[0] == "admin": t["admin"] = w[1]
        elif w[0] == "arbiter": t["arbiter"] = w[3]
        elif w[0] == "board": t["boards"][int(w[2])] = w[3]
        elif w[0] == "json": t["port"] = int(w[1].rsplit(":", 1)[1]); break
    return p, t

class Client:
    def __init__(self, port, token=None):
        self.s = socket.create_connection(("127.0.0.1", port))
        self.f = self.s.makefile("rb")
        self.id = 0
        if token: assert "ok" in self.call({"op": "hello", "token": token})
    def send(self, o): self.s.sendall((json.dumps(o) + "\n").encode())
    def call(self, o, timeout=None):
        """The reply to `o`, or None after `timeout` seconds."""
        self.s.settimeout(timeout)
        self.id += 1
        self.send(dict(o, id=self.id))
        try:
            while True:
                r = json.loads(self.f.readline())
                if r.get("id") == self.id: return r
        except (socket.timeout, TimeoutError):
            return None
    def pending(self):
        """Lines already answered (waits 0.2 s for more)."""
        self.s.settimeout(0.2)
        out = []
        try:
            while True: out.append(json.loads(self.f.readline()))
        except (socket.timeout, TimeoutError, ValueError):
            return out

def timed(c, o, timeout=20):
    t = time.perf_counter()
    r = c.call(o, timeout)
    return r, (time.perf_counter() - t) * 1000 if r else float("inf")

def scenario(name, hog_roles):
    tmp = tempfile.mkdtemp(prefix="xq-engine-lanes.")
    p, t = server(tmp)
    try:
        port = t["port"]
        adm = Client(port, t["admin"])
        # every result of round 1 but table 1's, where the board plays
        for table in sorted(t["boards"])[1:]:
            assert "ok" in adm.call({"op": "result", "round": 1, "table": table, "result": "1-0"})
        hogs = [Client(port, t[role] if role else None) for role in hog_roles]
        for c in hogs:
            for i in range(4): c.send({"id": 1000 + i, "op": "perft", "depth": 7})
        time.sleep(0.5)
        codes = sorted({r.get("error", {}).get("code", "ok") for c in hogs for r in c.pending()})
        board, reader = Client(port, t["boards"][1]), Client(port)
        played = [timed(board, {"op": "move", "seq": i + 1, "move": m})
                  for i, m in enumerate("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9 a0b0 c6c5".split())]
        assert all(r and r.get("ok") for r, _ in played), "every move is accepted and committed"
        moves = [ms for _, ms in played]
        reads = sorted(timed(reader, {"op": "event"})[1] for _ in range(200))
        assert "ok" in adm.call({"op": "result", "round": 1, "table": 1, "result": "1-0"})
        r, ms = timed(adm, {"op": "pair", "publish": True})
        pair = "no answer after 20 s" if not r else "%s in %.1f ms" % ("ok" if r.get("ok") else r["error"]["code"], ms)
        print(name)
        print("  perfts answered at once: %s" % (", ".join(codes) or "none (queued)"))
        print("  admin pair+publish of round 2: %s" % pair)
        print("  board moves: median %.2f ms, max %.2f ms; reads: median %.2f ms, p99 %.2f ms"
              % (statistics.median(moves), max(moves), statistics.median(reads), reads[int(len(reads) * 0.99) - 1]))
    finally:
        p.kill()
        p.wait()
        shutil.rmtree(tmp, ignore_errors=True)

scenario("as filed: two tokenless connections x 4 perft depth 7", [None, None])
scenario("lane full: an arbiter and an admin connection x 4 perft depth 7", ["arbiter", "admin"])
scenario("role caps: two arbiter and two admin connections x 4 perft depth 7 (each role at its cap)",
         ["arbiter", "arbiter", "admin", "admin"])
PY
