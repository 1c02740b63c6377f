#!/usr/bin/env python3
"""hostile.py - the attacks of docs/security.md ("Limits and deadlines")
against a running `xqref serve`, each while a board and a viewer keep
working; then the staff's heavy operations ("Staff operations": staff-*,
the admin's client in a process of its own) and `idle`, the probes alone.
Engine jobs are bench/engine-lanes.sh's.

For every attack it prints the latency of the honest clients (a board
sending clock events, which are stored and acknowledged, and a viewer
fetching /api/knockout over keep-alive HTTP): count, median, p99 and the
worst, in ms; the server's resident memory growth (peak during the attack
minus before it); and what the attack got: connections still open at
their deadline, replies received, status lines.

Started by bench/hostile.sh, which makes the store and the server; usable
alone: hostile.py PID JSON_PORT HTTP_PORT TOKENS_FILE [ATTACK ...]
TOKENS_FILE holds the lines `xqref serve --demo` printed.
"""
import asyncio
import multiprocessing
import resource
import socket
import sys
import time

ATTACKS = ["pipeline-json", "pipeline-json-10", "pipeline-http", "bodies",
           "trickle-http", "trickle-json", "silent-json", "flood",
           "pipeline-read", "games-64",
           "staff-exports", "staff-slips", "staff-import", "staff-late",
           "deaf-sse", "deaf-watch", "idle"]

# The honest board's clock events: one every 60 ms, inside a game's budget
# of events that are not moves (XQ_GAME_QUIET_PER_S, 20 a second), so that
# every one is stored before it is acknowledged and measured.
PROBE_EVERY_S = 0.06


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def pct(v, p):
    if not v:
        return float("nan")
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


class Ctx:
    def __init__(self, pid, jport, hport, tokens):
        self.pid, self.jport, self.hport = pid, jport, hport
        self.boards = tokens["boards"]
        self.admin = tokens.get("admin", "")
        self.stop = False
        self.peak = 0
        self.refused = 0


def read_tokens(path):
    t = {"boards": []}
    for line in open(path):
        w = line.split()
        if not w:
            continue
        if w[0] == "admin":
            t["admin"] = w[1]
        elif w[0] == "arbiter":
            t["arbiter"] = w[3]
        elif w[0] == "board":
            t["boards"].append(w[3])
    return t


async def raw(port, rcvbuf=None):
    """A non-blocking socket connected to 127.0.0.1:port."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.setblocking(False)
    await asyncio.get_running_loop().sock_connect(s, ("127.0.0.1", port))
    return s


def is_open(s):
    """The server has not closed s (EOF or reset)."""
    try:
        d = s.recv(65536, socket.MSG_PEEK)
        if d == b"":
            return False
        # data waiting (an error page, replies): drain and look again
        while True:
            d = s.recv(65536)
            if d == b"":
                return False
    except BlockingIOError:
        return True
    except OSError:
        return False


async def board_probe(ctx, lat, token, tag):
    r, w = await asyncio.open_connection("127.0.0.1", ctx.jport)
    w.write(b'{"id":0,"op":"hello","token":"%s"}\n' % token.encode())
    hello = await r.readline()
    seq = int(hello.split(b'"last_seq":')[1].split(b",")[0]) if b"last_seq" in hello else 0
    while not ctx.stop:
        seq += 1
        t0 = time.monotonic()
        w.write(b'{"id":%d,"op":"clock","seq":%d,"clock":[600000,600000]}\n' % (seq, seq))
        line = await r.readline()
        if not line:
            lat.append(float("inf"))
            break
        # acknowledged (stored) events only: past the game's budget of
        # quiet events (XQ_GAME_QUIET_PER_S, below this pace) the server
        # answers LIMIT at once, which measures no commit
        if b'"ok":true' in line:
            lat.append((time.monotonic() - t0) * 1000)
        else:
            ctx.refused += 1
        await asyncio.sleep(PROBE_EVERY_S)
    w.close()


async def viewer_probe(ctx, lat):
    r, w = await asyncio.open_connection("127.0.0.1", ctx.hport)
    while not ctx.stop:
        t0 = time.monotonic()
        w.write(b"GET /api/knockout HTTP/1.1\r\nHost: x\r\n\r\n")
        n = 0
        while True:
            line = await r.readline()
            if not line:
                lat.append(float("inf"))
                return
            if line.lower().startswith(b"content-length:"):
                n = int(line.split(b":")[1])
            if line == b"\r\n":
                break
        await r.readexactly(n)
        lat.append((time.monotonic() - t0) * 1000)
        await asyncio.sleep(0.05)
    w.close()


async def sampler(ctx):
    while not ctx.stop:
        ctx.peak = max(ctx.peak, rss_kb(ctx.pid))
        await asyncio.sleep(0.05)


async def sendall(s, data):
    await asyncio.get_running_loop().sock_sendall(s, data)


async def pipeline_json(ctx, conns, hold):
    socks = [await raw(ctx.jport, 4096) for _ in range(conns)]
    burst = b"".join(b'{"id":%d,"op":"players"}\n' % i for i in range(3800))
    tasks = [asyncio.create_task(sendall(s, burst)) for s in socks]
    await asyncio.sleep(hold)
    for t in tasks:
        t.cancel()
    still = sum(is_open(s) for s in socks)
    for s in socks:
        s.close()
    return f"{conns} connection(s) x 3800 players requests, unread; open after {hold}s: {still}"


async def pipeline_http(ctx, hold):
    s = await raw(ctx.hport, 4096)
    one = b"GET /api/rounds/1/games.json HTTP/1.1\r\nHost: x\r\n\r\n"
    burst = one * 320
    t = asyncio.create_task(sendall(s, burst))
    await asyncio.sleep(hold)
    t.cancel()
    still = is_open(s)
    s.close()
    return f"320 pipelined GET games.json ({len(burst)} bytes), unread; open after {hold}s: {int(still)}"


async def bodies(ctx, hold):
    socks = []
    head = (b"POST /api/event HTTP/1.1\r\nHost: x\r\nContent-Length: 4194304\r\n\r\n")
    for _ in range(400):
        s = await raw(ctx.hport)
        await sendall(s, head + b"x" * 65536)
        socks.append(s)
    await asyncio.sleep(hold)
    still = sum(is_open(s) for s in socks)
    for s in socks:
        s.close()
    return f"400 tokenless POST /api/event, Content-Length 4 MiB; open after {hold}s: {still}"


async def trickle(ctx, port, conns, every, data, watch):
    socks = []
    for _ in range(conns):
        try:
            socks.append(await raw(port))
        except OSError:
            break
    t0 = time.monotonic()
    out = []
    i = 0
    for at in watch:
        while time.monotonic() - t0 < at:
            for s in socks:
                try:
                    s.send(data[i % len(data):i % len(data) + 1])
                except OSError:
                    pass
            i += 1
            await asyncio.sleep(min(every, max(0.0, at - (time.monotonic() - t0))))
        out.append(f"open at {at}s: {sum(is_open(s) for s in socks)}")
    for s in socks:
        s.close()
    return f"{len(socks)} connections, a byte every {every}s; " + ", ".join(out)


async def silent(ctx, conns, watch):
    socks = [await raw(ctx.jport) for _ in range(conns)]
    t0 = time.monotonic()
    out = []
    for at in watch:
        await asyncio.sleep(max(0.0, at - (time.monotonic() - t0)))
        out.append(f"open at {at}s: {sum(is_open(s) for s in socks)}")
    for s in socks:
        s.close()
    return f"{conns} silent connections (no hello); " + ", ".join(out)


async def flood(ctx, conns):
    """Connections without a token up to the server's limit and past it;
    then a board that was not connected comes in and plays."""
    socks = []
    for i in range(conns):
        try:
            socks.append(await raw(ctx.jport if i % 2 else ctx.hport))
        except OSError:
            break
    await asyncio.sleep(0.5)
    held = sum(is_open(s) for s in socks)
    t0 = time.monotonic()
    r, w = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", ctx.jport), 5)
    w.write(b'{"id":0,"op":"hello","token":"%s"}\n' % ctx.boards[-1].encode())
    hello = await asyncio.wait_for(r.readline(), 5)
    seq = int(hello.split(b'"last_seq":')[1].split(b",")[0]) + 1 if b"last_seq" in hello else 0
    w.write(b'{"id":1,"op":"clock","seq":%d,"clock":[1000,1000]}\n' % seq)
    rep = await asyncio.wait_for(r.readline(), 5)
    ms = (time.monotonic() - t0) * 1000
    ok = b'"ok":true' in hello and b'"ok":true' in rep
    w.close()
    for s in socks:
        s.close()
    return (f"{len(socks)} connections without a token opened, {held} held by the server; a new board "
            f"{'connected, said hello and was acknowledged' if ok else 'FAILED'} in {ms:.1f} ms")


async def deaf(ctx, port, request, conns, watch):
    """conns connections that ask for a stream (request) and never read
    their socket (a 4 KiB receive buffer): the server must drop them
    within XQ_STALL_MS and give their memory back."""
    socks = []
    for _ in range(conns):
        try:
            s = await raw(port, 4096)
            await sendall(s, request)
            socks.append(s)
        except OSError:
            break
    t0 = time.monotonic()
    out = []
    for at in watch:
        await asyncio.sleep(max(0.0, at - (time.monotonic() - t0)))
        open_now = sum(is_open(s) for s in socks) if at == watch[-1] else None
        out.append(f"RSS at {at}s +{(rss_kb(ctx.pid) - ctx.before) / 1024.0:.1f} MB"
                   + (f", open {open_now}" if open_now is not None else ""))
    for s in socks:
        s.close()
    return f"{len(socks)} connections that never read; " + ", ".join(out)


def reader_attack(jport, secs):
    """One connection without a token pipelining cheap reads (standings)
    and reading every reply, for secs seconds (in its own process)."""
    s = socket.create_connection(("127.0.0.1", jport))
    burst = b"".join(b'{"id":%d,"op":"standings"}\n' % i for i in range(3400))
    t0, got, sent = time.monotonic(), 0, 0
    s.setblocking(False)
    out = memoryview(burst)
    while time.monotonic() - t0 < secs:
        try:
            n = s.send(out)
            out = out[n:]
            if not out:
                out = memoryview(burst)
                sent += 3400
        except BlockingIOError:
            pass
        try:
            d = s.recv(1 << 20)
            if not d:
                break
            got += d.count(b"\n")
        except BlockingIOError:
            time.sleep(0.0005)
    s.close()
    print(f"    (the reader had {got} replies)", flush=True)


def games_loop_attack(hport, secs):
    """A keep-alive HTTP client fetching games.json again and again."""
    s = socket.create_connection(("127.0.0.1", hport))
    t0 = time.monotonic()
    req = b"GET /api/rounds/1/games.json HTTP/1.1\r\nHost: x\r\n\r\n"
    f = s.makefile("rb")
    while time.monotonic() - t0 < secs:
        s.sendall(req)
        n = 0
        while True:
            line = f.readline()
            if not line:
                return
            if line.lower().startswith(b"content-length:"):
                n = int(line.split(b":")[1])
            if line == b"\r\n":
                break
        f.read(n)
    s.close()


class Staff:
    """The admin's client, in a process of its own (what it does to read
    2 MB replies must not delay the honest board's measurement)."""

    def __init__(self, jport, hport, admin):
        self.jport, self.hport, self.admin = jport, hport, admin

    def session(self):
        s = socket.create_connection(("127.0.0.1", self.jport))
        f = s.makefile("rb")
        s.sendall(b'{"id":0,"op":"hello","token":"%s"}\n' % self.admin.encode())
        f.readline()
        return s, f


def ms_fmt(v):
    return f"p50 {pct(v, 50):.1f} max {max(v):.1f} ms" if v else "none"


def staff_slips(st, times):
    """The admin asks the slips of round 1 (every table a new token and a
    QR code) again and again."""
    s, f = st.session()
    took, size = [], 0
    for i in range(times):
        t0 = time.monotonic()
        s.sendall(b'{"id":%d,"op":"slips","round":1}\n' % (i + 1))
        line = f.readline()
        took.append((time.monotonic() - t0) * 1000)
        if b'"ok":true' not in line:
            return f"slips failed: {line[:200]!r}"
        size = len(line)
    s.close()
    return f"{times} slips of round 1 in a row ({size} bytes each), each took {ms_fmt(took)}"


def staff_import(st, batches, per):
    """The admin imports players: POST /api/op batches of `per` add_player
    lines, one after the other over a kept connection."""
    s = socket.create_connection(("127.0.0.1", st.hport))
    f = s.makefile("rb")
    took, ok = [], 0
    for b in range(batches):
        body = b"".join(b'{"id":%d,"op":"add_player","player":{"name":"Import %d-%d","rating":1500}}\n'
                        % (i, b, i) for i in range(per))
        t0 = time.monotonic()
        s.sendall(b"POST /api/op HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
                  b"Content-Length: %d\r\n\r\n" % (st.admin.encode(), len(body)) + body)
        n = 0
        while True:
            line = f.readline()
            if not line:
                return f"the server closed the import after {b} batches"
            if line.lower().startswith(b"content-length:"):
                n = int(line.split(b":")[1])
            if line == b"\r\n":
                break
        out = f.read(n)
        took.append((time.monotonic() - t0) * 1000)
        ok += out.count(b'"ok":true')
    s.close()
    return f"{batches} POST /api/op of {per} add_player each: {ok} players added, each batch took {ms_fmt(took)}"


def staff_late(st, count, window):
    """Late entries: single add_player requests on the admin's session,
    `window` sent at once and their replies read before the next."""
    s, f = st.session()
    took, ok = [], 0
    for k in range(0, count, window):
        t0 = time.monotonic()
        s.sendall(b"".join(b'{"id":%d,"op":"add_player","player":{"name":"Late %d","rating":1400}}\n' % (i, i)
                           for i in range(k, k + window)))
        for _ in range(window):
            ok += b'"ok":true' in f.readline()
        took.append((time.monotonic() - t0) * 1000)
    s.close()
    return f"{count} add_player, {window} at a time: {ok} added, each {window} took {ms_fmt(took)}"


EXPORTS = [("trf", "event"), ("csv", "standings"), ("html", "standings"), ("xlsx", "standings"),
           ("html", "pairings"), ("html", "scoresheets"), ("xlsx", "scoresheets"), ("html", "places"),
           ("xlsx", "places")]


def staff_exports(st, times):
    """The admin's sheets: every export kind in turn, `times` over, and
    the standings with their tie-breaks."""
    s, f = st.session()
    took = {}
    for k in range(times):
        for i, (fmt, what) in enumerate(EXPORTS + [("json", "standings")]):
            t0 = time.monotonic()
            if fmt == "json":
                s.sendall(b'{"id":%d,"op":"standings"}\n' % i)
            else:
                s.sendall(b'{"id":%d,"op":"export","format":"%s","what":"%s"}\n' % (i, fmt.encode(), what.encode()))
            line = f.readline()
            if b'"ok":true' not in line:
                return f"export {fmt} {what} failed: {line[:200]!r}"
            took.setdefault(f"{fmt} {what}", []).append((time.monotonic() - t0) * 1000)
    s.close()
    worst = sorted(((max(v), k) for k, v in took.items()), reverse=True)[:4]
    return (f"{times} x {len(took)} sheets (exports and standings); slowest: " +
            ", ".join(f"{k} {m:.1f} ms" for m, k in worst))


def staff_child(fn, st, args, q):
    q.put(fn(st, *args))


async def staff(ctx, fn, *args):
    """Run the admin's fn(Staff, *args) in its own process; what it says."""
    q = multiprocessing.Queue()
    p = multiprocessing.Process(target=staff_child, args=(fn, Staff(ctx.jport, ctx.hport, ctx.admin), args, q))
    p.start()
    while p.is_alive() and q.empty():
        await asyncio.sleep(0.05)
    what = q.get() if not q.empty() or p.is_alive() else "the staff client died"
    p.join()
    return what


async def in_processes(target, args, count, secs):
    ps = [multiprocessing.Process(target=target, args=args + (secs,)) for _ in range(count)]
    for p in ps:
        p.start()
    while any(p.is_alive() for p in ps):
        await asyncio.sleep(0.1)
    return sum(p.exitcode == 0 for p in ps)


async def run_attack(ctx, name):
    board_lat, view_lat = [], []
    ctx.stop = False
    ctx.refused = 0
    before = rss_kb(ctx.pid)
    ctx.before = ctx.peak = before
    bt = ATTACKS.index(name) % len(ctx.boards)
    probes = [asyncio.create_task(board_probe(ctx, board_lat, ctx.boards[bt], name)),
              asyncio.create_task(viewer_probe(ctx, view_lat)),
              asyncio.create_task(sampler(ctx))]
    await asyncio.sleep(1.0)
    if name == "pipeline-json":
        what = await pipeline_json(ctx, 1, 10)
    elif name == "pipeline-json-10":
        what = await pipeline_json(ctx, 10, 10)
    elif name == "pipeline-http":
        what = await pipeline_http(ctx, 10)
    elif name == "bodies":
        what = await bodies(ctx, 5)
    elif name == "trickle-http":
        what = await trickle(ctx, ctx.hport, 1000, 1.0, b"GET / HTTP/1.1\r\nHost: x\r\n", [5, 12, 20])
    elif name == "trickle-json":
        what = await trickle(ctx, ctx.jport, 500, 1.0, b'{"op":"ping","id":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}',
                             [5, 12, 20])
    elif name == "flood":
        what = await flood(ctx, 4400)
    elif name == "pipeline-read":
        n = await in_processes(reader_attack, (ctx.jport,), 1, 10)
        what = f"one connection without a token pipelining standings and reading its replies, 10 s ({n} ran)"
    elif name == "games-64":
        n = await in_processes(games_loop_attack, (ctx.hport,), 64, 10)
        what = f"64 keep-alive loops of GET games.json, 10 s ({n} ran)"
    elif name == "staff-slips":
        what = await staff(ctx, staff_slips, 10)
    elif name == "staff-import":
        what = await staff(ctx, staff_import, 40, 64)
    elif name == "staff-late":
        what = await staff(ctx, staff_late, 1280, 64)
    elif name == "staff-exports":
        what = await staff(ctx, staff_exports, 5)
    elif name == "idle":
        await asyncio.sleep(10)
        what = "nothing else for 10 s (the probes alone)"
    elif name == "deaf-sse":
        what = "SSE viewers: " + await deaf(ctx, ctx.hport, b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n",
                                            1000, [5, 30, 65])
    elif name == "deaf-watch":
        what = "anonymous watchers with a snapshot: " + await deaf(
            ctx, ctx.jport, b'{"id":1,"op":"watch","last_event":999999999999}\n', 1000, [5, 30, 65])
    elif name == "silent-json":
        what = await silent(ctx, 1000, [5, 12])
    else:
        raise SystemExit(f"unknown attack {name}")
    await asyncio.sleep(0.5)
    ctx.stop = True
    await asyncio.gather(*probes, return_exceptions=True)
    grow = (ctx.peak - before) / 1024.0
    def fmt(v):
        return (f"n={len(v)} p50={pct(v, 50):.1f} p99={pct(v, 99):.1f} max={max(v) if v else float('nan'):.1f}")
    print(f"{name}: {what}")
    print(f"  board clock events ms: {fmt(board_lat)}" + (f" ({ctx.refused} more refused by the game's budget)" if ctx.refused else ""))
    print(f"  viewer GET ms:         {fmt(view_lat)}")
    print(f"  server RSS: {before / 1024.0:.1f} MB before, peak +{grow:.1f} MB")
    sys.stdout.flush()


async def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    pid, jport, hport, tokfile = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    names = sys.argv[5:] or ATTACKS
    ctx = Ctx(pid, jport, hport, read_tokens(tokfile))
    for n in names:
        await run_attack(ctx, n)
        await asyncio.sleep(1.0)


asyncio.run(main())
