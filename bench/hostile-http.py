#!/usr/bin/env python3
"""hostile-http.py - the HTTP side of `xqref serve` under hostile clients
(docs/security.md, "Limits and deadlines"): prints figures, asserts nothing.

Starts `xqref serve --demo --players PLAYERS` on a fresh store in a
temporary directory and runs, one after the other:

  pipeline  one connection with a 4 KiB receive buffer sends COUNT
            pipelined `GET /api/rounds/1/games.json` in one burst and
            never reads; meanwhile another client asks GET /api/event
            every 20 ms
  bodies    BODIES connections without a token each send a head
            `POST /api/event` with `Content-Length: 4194304` and wait for
            the answer, then send the 4 MiB body all the same; the same
            reading client meanwhile
  trickle   TRICKLERS connections each send a request head a byte every
            5 s; how many are still open, every 5 s, until none is
  json      JSON_TRICKLERS JSON-lines connections say an anonymous hello,
            then send a line a byte every 20 s; the same count

For each: the server's RSS before and at its highest (VmRSS of
/proc/PID/status), and the other client's latency (p50, p99, max).

Settings (environment): XQREF (default build/xqref), PLAYERS (400), COUNT
(320), BODIES (400), TRICKLERS (1000), JSON_TRICKLERS (500), ONLY (a
comma-separated list of the scenarios to run).
"""
import os
import re
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
XQREF = os.environ.get("XQREF", os.path.join(ROOT, "build", "xqref"))
PLAYERS = int(os.environ.get("PLAYERS", "400"))
COUNT = int(os.environ.get("COUNT", "320"))
BODIES = int(os.environ.get("BODIES", "400"))
TRICKLERS = int(os.environ.get("TRICKLERS", "1000"))
JSON_TRICKLERS = int(os.environ.get("JSON_TRICKLERS", "500"))
ONLY = [x for x in os.environ.get("ONLY", "pipeline,bodies,trickle,json").split(",") if x]


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Watch:
    """Samples the server's RSS and one reading client's latency."""

    def __init__(self, pid, port):
        self.pid, self.port = pid, port
        self.rss0 = rss_kb(pid)
        self.peak = self.rss0
        self.lat = []
        self.stop = False
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def run(self):
        req = b"GET /api/event HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
        while not self.stop:
            t0 = time.monotonic()
            try:
                s = socket.create_connection(("127.0.0.1", self.port), timeout=30)
                s.sendall(req)
                while s.recv(65536):
                    pass
                s.close()
                self.lat.append((time.monotonic() - t0) * 1000)
            except OSError:
                self.lat.append(float("inf"))
            self.peak = max(self.peak, rss_kb(self.pid))
            time.sleep(0.02)

    def done(self, name):
        self.stop = True
        self.t.join()
        lat = sorted(self.lat) or [float("nan")]
        pick = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))]
        print("%-9s RSS %d -> %d KiB (+%.1f MiB); other client: %d requests, p50 %.1f ms, p99 %.1f ms, max %.1f ms"
              % (name, self.rss0, self.peak, (self.peak - self.rss0) / 1024, len(lat), pick(0.5), pick(0.99), lat[-1]))


def pipeline(pid, port, jport):
    w = Watch(pid, port)
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /api/rounds/1/games.json HTTP/1.1\r\nHost: t\r\n\r\n" * COUNT)
    time.sleep(5)
    w.done("pipeline")
    s.close()


def bodies(pid, port, jport):
    w = Watch(pid, port)
    socks, answered, t0 = [], 0, time.monotonic()
    for _ in range(BODIES):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"POST /api/event HTTP/1.1\r\nHost: t\r\nContent-Length: 4194304\r\n\r\n")
        socks.append(s)
    waiting, took = set(socks), 0.0
    while waiting and time.monotonic() - t0 < 10:
        ready, _, _ = select.select(list(waiting), [], [], 0.5)
        for s in ready:
            waiting.discard(s)
            try:
                answered += s.recv(4096).startswith(b"HTTP/1.1 4")
            except OSError:
                pass
            took = time.monotonic() - t0
    # then each sends its 4 MiB body all the same
    body = b"x" * 4194304
    sent = [0] * len(socks)

    def push(i, s):
        s.setblocking(True)
        s.settimeout(20)
        try:
            s.sendall(body)
            sent[i] = len(body)
        except OSError:
            pass

    ts = [threading.Thread(target=push, args=(i, s), daemon=True) for i, s in enumerate(socks)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    time.sleep(1)
    w.done("bodies")
    print("          %d of %d answered (4xx) without a body byte (the last after %.2f s; 10 s allowed);"
          " then %d of the %d bodies of 4 MiB were taken whole" % (answered, BODIES, took, sum(1 for x in sent if x), BODIES))
    for s in socks:
        s.close()


def count_open(socks):
    n = 0
    for s in socks:
        if s.fileno() < 0:
            continue
        try:
            s.setblocking(False)
            if s.recv(1) == b"":
                s.close()
                continue
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            continue
        n += 1
    return n


def trickled(name, pid, port, first, text, gap):
    w = Watch(pid, port)
    socks = []
    for _ in range(TRICKLERS if name == "trickle" else JSON_TRICKLERS):
        s = socket.create_connection(("127.0.0.1", port if name == "trickle" else first))
        socks.append(s)
    if name == "json":
        for s in socks:
            s.sendall(b'{"op":"hello"}\n')
            s.recv(4096)
    t0, i, line = time.monotonic(), 0, []
    while True:
        for s in socks:
            if s.fileno() >= 0:
                try:
                    s.sendall(text[i:i + 1])
                except OSError:
                    s.close()
        i += 1
        time.sleep(gap)
        n = count_open(socks)
        line.append("%ds:%d" % (round(time.monotonic() - t0), n))
        if n == 0 or i >= len(text):
            break
    w.done(name)
    print("          open at each byte: " + " ".join(line))


def main():
    tmp = tempfile.mkdtemp(prefix="xq-hostile-")
    db = os.path.join(tmp, "t.db")
    srv = subprocess.Popen([XQREF, "serve", "--db", db, "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0",
                            "--demo", "--players", str(PLAYERS)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True)
    ports = {}
    while len(ports) < 2:
        m = re.match(r"(json|http) 127\.0\.0\.1:(\d+)", srv.stdout.readline())
        if m:
            ports[m.group(1)] = int(m.group(2))
    threading.Thread(target=lambda: srv.stdout.read(), daemon=True).start()
    try:
        print("xqref serve --demo --players %d (pid %d)" % (PLAYERS, srv.pid))
        if "pipeline" in ONLY:
            pipeline(srv.pid, ports["http"], ports["json"])
        if "bodies" in ONLY:
            bodies(srv.pid, ports["http"], ports["json"])
        if "trickle" in ONLY:
            trickled("trickle", srv.pid, ports["http"], ports["json"],
                     b"GET /api/event HTTP/1.1\r\nHost: t\r\nX-Pad: " + b"a" * 64 + b"\r\n\r\n", 5)
        if "json" in ONLY:
            trickled("json", srv.pid, ports["http"], ports["json"], b'{"id":1,"op":"ping","pad":"' + b"a" * 64 + b'"}\n', 20)
    finally:
        srv.terminate()
        srv.wait()
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)


if __name__ == "__main__":
    sys.exit(main())
