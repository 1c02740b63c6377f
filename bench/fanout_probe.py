#!/usr/bin/env python3
"""fanout_probe.py - one board and one SSE viewer among a crowd (bench/fanout.sh).

  fanout_probe.py JSON_ADDR HTTP_ADDR TOKEN ROUND TABLE GAMES.pgn SECONDS [INTERVAL]

Opens the event stream (only new events), says hello with the board token
of ROUND/TABLE, then plays the first game of GAMES.pgn long enough (ICCS
moves, as `xqref bench --gen-pgn` writes them), a move every INTERVAL
seconds on average (default 0.5; each gap drawn between half and one and
a half of it, so that the moves fall anywhere in the fan-out's ticks) for
SECONDS. For each move it measures the reply
(sent -> acknowledged) and the delivery (sent -> its `move` event read on
the stream, through the server's fan-out with every other viewer), and
prints one line:

  probe moves N ack ms p50 A p99 B delivery ms p50 C p99 D max E

With PROBE_TRACE set in the environment, one line per move before it
(its time from the start, its reply and its delivery). Exit status 1 when
a reply is an error or an event never came.
"""
import json
import os
import random
import re
import socket
import sys
import threading
import time


def addr(text):
    host, port = text.rsplit(":", 1)
    return host, int(port)


def game_moves(path, need):
    """The ICCS moves of the first game of `path` with `need` plies."""
    text = open(path, encoding="utf-8").read()
    for game in text.split("[Game ")[1:]:
        moves = [m.replace("-", "").lower() for m in re.findall(r"\b[A-I][0-9]-[A-I][0-9]\b", game)]
        if len(moves) >= need:
            return moves
    sys.exit("fanout_probe: no game of %d plies in %s" % (need, path))


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p / 100.0 * len(v)))] if v else float("nan")


def main():
    if len(sys.argv) < 8:
        sys.exit(__doc__)
    jaddr, haddr, token = sys.argv[1], sys.argv[2], sys.argv[3]
    rnd, table, games, seconds = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6], float(sys.argv[7])
    interval = float(sys.argv[8]) if len(sys.argv) > 8 else 0.5
    moves = game_moves(games, int(2 * seconds / interval) + 1)

    seen = {}  # ply -> time its event was read
    lock = threading.Lock()
    sse = socket.create_connection(addr(haddr))
    sse.sendall(b"GET /api/events?last_event=0 HTTP/1.1\r\nHost: probe\r\n\r\n")
    mine = '"round":%d,"table":%d' % (rnd, table)

    def reader():
        buf = b""
        while True:
            try:
                data = sse.recv(65536)
            except OSError:
                return
            if not data:
                return
            now = time.monotonic()
            buf += data
            *lines, buf = buf.split(b"\n")
            for line in lines:
                if line.startswith(b"data: ") and mine.encode() in line:
                    m = re.match(rb'data: \{"ply":(\d+),', line)
                    if m:
                        with lock:
                            seen.setdefault(int(m.group(1)), now)

    threading.Thread(target=reader, daemon=True).start()
    board = socket.create_connection(addr(jaddr))
    board.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    rf = board.makefile("rb")

    def call(obj):
        board.sendall((json.dumps(obj) + "\n").encode())
        while True:
            r = json.loads(rf.readline())
            if "event" not in r:
                return r

    if not call({"id": 0, "op": "hello", "token": token}).get("ok"):
        sys.exit("fanout_probe: hello refused")
    time.sleep(0.5)  # the stream has begun
    acks, sent = [], {}
    start = time.monotonic()
    ply = 0
    while time.monotonic() - start < seconds and ply < len(moves):
        t0 = time.monotonic()
        r = call({"id": ply + 1, "op": "move", "seq": ply + 1, "move": moves[ply]})
        if not r.get("ok"):
            sys.exit("fanout_probe: move %d refused: %s" % (ply + 1, r))
        ply += 1
        sent[ply] = t0
        acks.append((time.monotonic() - t0) * 1000)
        time.sleep(max(0.0, interval * random.uniform(0.5, 1.5) - (time.monotonic() - t0)))
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with lock:
            if all(p in seen for p in sent):
                break
        time.sleep(0.05)
    with lock:
        missing = [p for p in sent if p not in seen]
        dl = [(seen[p] - sent[p]) * 1000 for p in sent if p in seen]
    if "PROBE_TRACE" in os.environ:
        for p in sorted(sent):
            print("trace %.2f ack %.1f delivery %.1f" % (sent[p] - start, acks[p - 1], (seen.get(p, float("nan")) - sent[p]) * 1000))
    print("probe moves %d ack ms p50 %.1f p99 %.1f delivery ms p50 %.1f p99 %.1f max %.1f%s"
          % (len(sent), pct(acks, 50), pct(acks, 99), pct(dl, 50), pct(dl, 99), max(dl) if dl else float("nan"),
             " missing %d" % len(missing) if missing else ""))
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
