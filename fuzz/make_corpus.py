#!/usr/bin/env python3
"""Make the seed corpora of fuzz/corpus/<target>/ from the repository's
test data (small files only). Run from anywhere; rewrites the seeds it
makes and leaves other files alone. See docs/fuzzing.md."""
import hashlib, os, re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data")
OUT = os.path.join(ROOT, "fuzz", "corpus")
SMALL = 16 * 1024

def put(target, blob):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(blob).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(blob)

def read(*p):
    with open(os.path.join(DATA, *p), "rb") as f:
        return f.read()

# FEN: the perft suite's positions, and a few variants of the notation
for line in read("perft_suite.txt").decode().splitlines():
    if line.startswith("#") or ";" not in line: continue
    put("fen", line.split(";")[1].strip().encode())
for fen in ["rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r",
            "rheagaehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAGAEHR w - - 0 1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 1"]:
    put("fen", fen.encode())

# notations: ICCS, WXF and Chinese move text (first byte: the position)
moves = {"iccs": set(), "wxf": set(), "chinese": set()}
for f in ("games.txt", "tandem.txt"):
    for line in read("notation", f).decode().splitlines():
        parts = line.split()
        if len(parts) == 3 and not line.startswith(("#", "fen", "game", "alt")):
            for t, m in zip(("iccs", "wxf", "chinese"), parts):
                if m != "-": moves[t].add(m)
for t, ms in moves.items():
    for i, m in enumerate(sorted(ms)[:40]):
        put(t, bytes([i % 5]) + m.encode())

# PGN (first byte: reader flags), DhtmlXQ, XQF
for i, f in enumerate(sorted(os.listdir(os.path.join(DATA, "records")))):
    b = read("records", f)
    if f.endswith(".pgn"): put("pgn", bytes([i % 4]) + b)
    if f.endswith(".dhtml"): put("dhtmlxq", b)
for f in sorted(os.listdir(os.path.join(DATA, "xqf"))):
    if f.lower().endswith(".xqf") and len(read("xqf", f)) <= SMALL: put("xqf", read("xqf", f))

# TRF
for f in sorted(os.listdir(os.path.join(DATA, "pairing"))):
    if f.endswith((".trf", ".input")) and len(read("pairing", f)) <= SMALL:
        put("trf", read("pairing", f))

# JSON lines (first byte: 0 no token, 1 admin, 2 arbiter, 3.. a board)
J = [
 (0, ['{"id":1,"op":"ping"}', '{"id":2,"op":"validate_fen","fen":"4k4/R8/1R7/9/9/9/9/9/9/3K5 w"}',
      '{"id":3,"op":"legal_moves","fen":"3k5/4a4/9/9/9/9/9/9/4R4/4K4 b","notation":"chinese"}']),
 (0, ['{"id":4,"op":"apply","moves":["炮二平五","h9g7","C5+4"],"notation":"wxf"}',
      '{"id":5,"op":"apply","moves":"h2e2 a0a5 h9g7","record_illegal":true}',
      '{"id":7,"op":"convert","moves":["炮二平五","马8进7"],"to":"iccs"}']),
 (0, ['{"id":9,"op":"perft","depth":2}', '{"id":11,"op":"adjudicate","fen":"4k4/R8/1R7/9/9/9/9/9/9/3K5 w","moves":["b7b9","e9e8"]}']),
 (0, ['{"id":1,"op":"event"}', '{"id":2,"op":"players"}', '{"id":3,"op":"pairings","round":1}',
      '{"id":4,"op":"standings"}', '{"id":5,"op":"watch","round":1,"last_event":0}', '{"op":"unwatch"}']),
 (3, ['{"id":1,"op":"move","seq":1,"move":"h2e2","clock":[5391000,5400000]}',
      '{"id":2,"op":"move","seq":2,"move":"马8进7"}', '{"id":3,"op":"clock","seq":3,"clock":[5300000,5390000]}',
      '{"id":4,"op":"lift","seq":4,"square":"h0"}', '{"id":5,"op":"release","seq":5}',
      '{"id":6,"op":"draw","seq":6,"action":"offer"}', '{"id":7,"op":"claim","seq":7,"kind":"repetition"}']),
 (4, ['{"id":1,"op":"position","seq":1,"board":"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR"}',
      '{"id":2,"op":"resign","seq":2,"side":"black"}']),
 (2, ['{"id":1,"op":"game","round":1,"table":2}', '{"id":2,"op":"games","round":1}',
      '{"id":3,"op":"foul","round":1,"table":2,"side":"red"}', '{"id":4,"op":"pause","round":1,"table":2}',
      '{"id":5,"op":"resume","round":1,"table":2}', '{"id":6,"op":"export","format":"csv","what":"pairings","round":1}']),
 (1, ['{"id":1,"op":"add_player","player":{"name":"王天一","rating":2650,"birth":"1988-11-03","sex":"m"}}',
      '{"id":2,"op":"result","round":1,"table":1,"result":"1-0"}', '{"id":3,"op":"pair","system":"dutch"}',
      '{"id":4,"op":"token","role":"viewer","label":"hall"}', '{"id":5,"op":"tokens"}',
      '{"id":6,"op":"withdraw","player":3,"round":2}', '{"id":7,"op":"absent","player":4,"round":2,"bye":"half"}',
      '{"id":8,"op":"export","format":"trf"}']),
 (0, ['not json', '[1,2]', '{"op":7}', '{"id":"x","op":"nope"}', '{"id":1,"op":"move","seq":1,"move":"h2e2"}']),
]
for pick, lines in J:
    put("jsonl", bytes([pick]) + ("\n".join(lines) + "\n").encode())

# HTTP (first byte: bytes per read, 0 = all at once)
H = [
 b"GET /api/event HTTP/1.1\r\nHost: x\r\n\r\n",
 b"GET /api/rounds/1/games?notation=wxf&x=%41+b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
 b"GET /events?round=1 HTTP/1.1\r\nHost: x\r\nLast-Event-ID: 5\r\nAccept: text/event-stream\r\n\r\n",
 b"POST /api/rounds/1/push HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\nAuthorization: Bearer abc\r\n\r\n[Event \"x\"]",
 b"GET http://h/x HTTP/1.0\r\n\r\nGET / HTTP/1.1\r\nHost: y\r\nTransfer-Encoding: chunked\r\n\r\n",
 b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
 b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nabcd",
]
for i, h in enumerate(H):
    put("http", bytes([(0, 1, 7, 3, 0, 0, 2)[i]]) + h)

# URLs (the poller's and --publish's)
for u in ["http://127.0.0.1:8080/live/round1.pgn", "http://example.org/pgn?round=3&fmt=xq#top",
          "http://[::1]:9000/pub/", "http://edge.local/pub/xq", "HTTP://h:80", "http://h?q=1",
          "https://example.org/x", "http://user@h/", "http://[::1/x", "http://h:0/", "http://h:65536/"]:
    put("url", u.encode())

# prize tables
P = [
 "# main table of 16 places, capped at 40% of the entrants\ncap 40\ncategory open all\n"
 "1 5000\n2 2000\n3 1000\n4 800\n5 600\n6 500\n7-8 400\n9-12 300\n13-16 200\n"
 "category local local repeat   # on top of another prize\n1 1000\n2 600\n3 500\n"
 "category seniors born ..1957/12/31\n1 600\n2 500\n3 400\nlucky 18 10 100\n",
 "category open all\n1 5000\n2 2000\n3 1000\ncategory local local repeat\n1 1000\n2 600\n"
 "lucky 18 10 100 last 38 active\nteam 1 1800\nteam 2 1500\nteam 3 1200\n"
 "category seniors born ..1957/12/31 apart\n1 600\n",
 "category 榆林 region 榆林 repeat\n1-3 300\ncategory u12 born 2012/09/01..2014/08/31 sex w\n1 10\n"
 "category locals local region 佳县 born 1958/01/01..\n1 10\n",
 "category a all\n1 100\n1 50\n",
]
for p in P:
    put("prize", p.encode())

# rules files (and preset names: text that is not an object)
R = [read("rules_files", "county40.json"),
     b'{"preset":"wujiaqu2024","fouls_to_lose":4,"clock_base_s":600,"clock_increment_s":5}',
     b'{"ruleset":"axf","natural_check_policy":"exclude_claimant_checks","armageddon":true}',
     b'{"name":"x","kill_search_nodes":1000,"simple_draw":"extended","natural_trigger":"auto"}',
     b'{"fouls_to_lose":-1.3e110}', b'{"natural_limit_moves":1e300,"armageddon":2}', b"cxa2020", b"  axf"]
for r in R:
    put("rules", r)

# the game log's event language (first byte: the rule set)
E = [
 (0, "h2e2 clock:5400000/5399000\nh9g7\nheld:b2e2\nlift:b0\nrelease\noffer-red\ndecline\nclaim\n"),
 (1, "snap:rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR\nh9g7 tick:1500\nrepetition-black\n"
     "foul-red\npause\nresume\nresult:=\nresult:none\ntruncate:1\nresign-black\n"),
 (2, "炮二平五 马8进7 C2.5\nflag:h0g2 clock:-5/0\naccept-black\nresult:1/2-1/2\nresult:*"),
 (3, "h2e2 h9g7 e2e6 clock:9223372036854775807/9223372036854775807 h0g2 tick:99999999999999999999"),
]
for pick, e in E:
    put("event", bytes([pick]) + e.encode())
