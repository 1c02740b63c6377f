#!/usr/bin/env python3
"""compare_fsf.py - differential test of xqref's AXF repetition rulings
against Fairy-Stockfish (variant xiangqi). Run through bench/compare-fsf.sh,
which documents the options; `compare_fsf.py --help` lists them too.

The script generates repetition cases, each a position and a move list that
ends on the third occurrence of a position:

  random    random legal positions and a random cycle played twice; the
            moves of each side are drawn with a bias towards checks and
            towards moves that create captures, so that checks, chases and
            their mixtures are frequent;
  mutation  a case of the project's AXF case files (tests/data/rules) with
            one piece added, removed or moved, the same moves still legal.

It asks Fairy-Stockfish for its ruling (the Python binding pyffish,
is_optional_game_end; or the engine binary in xboard mode, which claims the
result on `go`), writes every case into one JSON-lines case file with that
ruling as "expect", runs `xqref judge --cases FILE --verbose` on it, and
prints the agreement and every disagreement with xqref's classes of the
cycle's moves. Fairy-Stockfish is GPL-3: it is only run, never linked,
built or downloaded here.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter

from fsf_board import (apply, format_fen, in_check, legal_moves, legal_position, on_board_for,
                       other, parse_fen, sq_of, MOST)

VARIANT = "xiangqi"

def ucci(move):
    """ICCS (ranks 0-9) to UCI of 10-rank boards (ranks 1-10)."""
    fr, to = move[:2], move[2:]
    return fr[0] + str(int(fr[1:]) + 1) + to[0] + str(int(to[1:]) + 1)


def iccs(move):
    """UCI of 10-rank boards (ranks 1-10) to ICCS (ranks 0-9)."""
    i = 1
    while move[i].isdigit():
        i += 1
    return move[0] + str(int(move[1:i]) - 1) + move[i] + str(int(move[i + 1:]) - 1)


def ruling_word(won, side_to_move):
    """A result for the side to move (1 win, -1 loss, 0 draw, None no end)."""
    if won is None:
        return "ongoing"
    if won == 0:
        return "draw"
    red_wins = (won > 0) == (side_to_move == "w")
    return "red_wins" if red_wins else "black_wins"


# ---------------------------------------------------------------------------
# Fairy-Stockfish, through pyffish or the engine binary.


class Pyffish:
    name = "pyffish"

    def __init__(self, path):
        if path:
            sys.path.insert(0, path)
        import pyffish  # noqa: E402 (the user's build)
        self.sf = pyffish

    def version(self):
        return "pyffish %s" % ".".join(map(str, self.sf.version()))

    def legal(self, fen, moves):
        return [iccs(m) for m in self.sf.legal_moves(VARIANT, fen, [ucci(m) for m in moves])]

    def ruling(self, fen, moves, side_to_move):
        end, value = self.sf.is_optional_game_end(VARIANT, fen, [ucci(m) for m in moves])
        if not end:
            return "ongoing"
        return ruling_word((value > 0) - (value < 0), side_to_move)

    def close(self):
        pass


class Engine:
    """The engine binary: UCI for the check of move lists (go perft 1), the
    xboard protocol for rulings (the engine claims a result on `go`)."""

    name = "engine"

    def __init__(self, path):
        self.uci = self._start(path, ["uci", "setoption name UCI_Variant value xiangqi", "isready"],
                               "readyok")
        self.xb = self._start(path, ["xboard", "protover 2"], "done=1")
        self._send(self.xb, "variant xiangqi")
        self.path = path

    @staticmethod
    def _start(path, lines, until):
        p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, bufsize=1)
        for line in lines:
            Engine._send(p, line)
        Engine._read_until(p, lambda s: until in s)
        return p

    @staticmethod
    def _send(p, line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    @staticmethod
    def _read_until(p, done):
        out = []
        while True:
            s = p.stdout.readline()
            if not s:
                raise RuntimeError("Fairy-Stockfish exited")
            out.append(s.rstrip("\n"))
            if done(s):
                return out

    def version(self):
        return "engine " + self.path

    def _position(self, fen, moves):
        tail = " moves " + " ".join(ucci(m) for m in moves) if moves else ""
        self._send(self.uci, "position fen " + fen + tail)

    def legal(self, fen, moves):
        self._position(fen, moves)
        self._send(self.uci, "go perft 1")
        out = self._read_until(self.uci, lambda s: s.startswith("Nodes searched"))
        return [iccs(s.split(":")[0]) for s in out if ": " in s and not s.startswith("Nodes")]

    def ruling(self, fen, moves, side_to_move):
        xb = self.xb
        self._send(xb, "new")
        self._send(xb, "force")
        self._send(xb, "setboard " + fen)
        for m in moves:  # xboard squares of 10-rank boards are ICCS (ranks 0-9)
            self._send(xb, "usermove " + m)
        self._send(xb, "sd 1")
        self._send(xb, "go")
        out = self._read_until(xb, lambda s: s.startswith(("move ", "1-0", "0-1", "1/2-1/2",
                                                            "Illegal", "Error")))
        last = out[-1]
        if not last.startswith("move "):
            # After a claimed result the engine keeps the searched game's
            # states and puts them back on the next move it is given; one
            # move of its own from the start position hands them back.
            for line in ("new", "sd 1", "go"):
                self._send(xb, line)
            self._read_until(xb, lambda s: s.startswith("move "))
        self._send(xb, "force")
        if last.startswith("1/2-1/2"):
            return "draw"
        if last.startswith("1-0"):
            return "red_wins"
        if last.startswith("0-1"):
            return "black_wins"
        if last.startswith("move "):
            return "ongoing"
        raise RuntimeError("Fairy-Stockfish: " + last)

    def chased(self, fen, moves):
        """The pieces Fairy-Stockfish counts as chased by each move (the
        "Chased:" line of its `d` command), ICCS squares."""
        out = []
        for k in range(1, len(moves) + 1):
            self._position(fen, moves[:k])
            self._send(self.uci, "d")
            line = self._read_until(self.uci, lambda s: s.startswith("Chased:"))[-1]
            sqs = [x[0] + str(int(x[1:]) - 1) for x in line.split(":", 1)[1].split()]
            out.append("%s:{%s}" % (moves[k - 1], " ".join(sqs)))
        return " ".join(out)

    def close(self):
        for p in (self.uci, self.xb):
            try:
                self._send(p, "quit")
                p.wait(timeout=5)
            except Exception:  # noqa: BLE001 (best effort at exit)
                p.kill()


# ---------------------------------------------------------------------------
# Case generation (fsf_board's move generator; Fairy-Stockfish only rules).


def random_position(rng):
    """A random legal position with a move for the side to move."""
    while True:
        board = ["."] * 90
        for ch in "Kk":
            board[rng.choice([s for s in range(90) if on_board_for(ch, s)])] = ch
        for ch in "RNCABPrncabp":
            n = rng.randint(0, MOST[ch.upper()]) if rng.random() < 0.55 else 0
            pts = [s for s in range(90) if board[s] == "." and on_board_for(ch, s)]
            for s in rng.sample(pts, min(n, len(pts))):
                board[s] = ch
        side = rng.choice("wb")
        if legal_position(board, side):
            return board, side


def capture_targets(board, side):
    return {m[2:] for m in legal_moves(board, side) if board[sq_of(m[2:])] != "."}


def pick_move(rng, board, side, legal):
    """A quiet legal move, biased towards checks and towards moves that make
    a capture possible that was not (the raw material of chases)."""
    quiet = [m for m in legal if board[sq_of(m[2:])] == "."]
    if not quiet:
        return None
    rng.shuffle(quiet)
    checks, attacks = [], []
    before = capture_targets(board, side) if not in_check(board, side) else set()
    for m in quiet[:16]:
        after = apply(board, m)
        if in_check(after, other(side)):
            checks.append(m)
        elif capture_targets(after, side) - before:
            attacks.append(m)
    roll = rng.random()
    if checks and roll < 0.35:
        return rng.choice(checks)
    if attacks and roll < 0.85:
        return rng.choice(attacks)
    return quiet[0]


def next_move(rng, board, side, own, length):
    """The next move of one side's tour: one piece out and back (length 2),
    round a triangle (3), or two pieces out and back (4)."""
    legal = legal_moves(board, side)
    k = len(own)
    back = lambda m: m[2:] + m[:2]  # noqa: E731
    if k == 0:
        m = pick_move(rng, board, side, legal)
    elif length == 2:
        m = back(own[0])
    elif length == 3 and k == 1:  # on to a third point, from which it may return
        opts = [x for x in legal if x[:2] == own[0][2:] and board[sq_of(x[2:])] == "."
                and x[2:] != own[0][:2]]
        m = rng.choice(opts) if opts else None
    elif length == 3:
        m = own[1][2:] + own[0][:2]
    elif k == 1:  # a second piece
        opts = [x for x in legal if x[:2] != own[0][2:] and board[sq_of(x[2:])] == "."]
        m = pick_move(rng, board, side, opts) if opts else None
    else:
        m = back(own[k - 2])
    if m is None or m not in legal or board[sq_of(m[2:])] != ".":
        return None
    return m


def random_cycle(rng, board, side):
    """A cycle of 2 * L plies (L = 2, 3 or 4 moves a side), played twice;
    None when the tours do not close."""
    length = rng.choice([2, 2, 2, 3, 4])
    plan = {"w": [], "b": []}
    moves, b, s = [], board, side
    for _ in range(2 * length):
        m = next_move(rng, b, s, plan[s], length)
        if m is None:
            return None
        plan[s].append(m)
        moves.append(m)
        b, s = apply(b, m), other(s)
    return moves + moves if b == board else None


def third_occurrence_at_end(board, side, moves):
    """True when the position after the last move occurs there for the third
    time since the last capture, and no position did so before."""
    seen = Counter({("".join(board), side): 1})
    for i, m in enumerate(moves):
        if board[sq_of(m[2:])] != ".":
            seen = Counter()
        board, side = apply(board, m), other(side)
        key = ("".join(board), side)
        seen[key] += 1
        if seen[key] >= 3:
            return i == len(moves) - 1
    return False


def legal_line(board, side, moves):
    for m in moves:
        if m not in legal_moves(board, side):
            return False
        board, side = apply(board, m), other(side)
    return True


def mutate(rng, case):
    """The case's position with one piece added, removed or moved (off the
    points its moves use), its moves still legal; None when not a case."""
    board, side = parse_fen(case["fen"])
    used = {sq_of(m[:2]) for m in case["moves"]} | {sq_of(m[2:]) for m in case["moves"]}
    free = [s for s in range(90) if board[s] == "."]
    mine = [s for s in range(90) if board[s] not in ".Kk" and s not in used]
    op = rng.choice(["add", "add", "remove", "move"])
    if op != "add" and not mine:
        return None
    if op == "add":
        ch = rng.choice("RNCABPrncabp")
        pts = [s for s in free if on_board_for(ch, s)]
        if not pts:
            return None
        board[rng.choice(pts)] = ch
    elif op == "remove":
        board[rng.choice(mine)] = "."
    else:
        s = rng.choice(mine)
        pts = [t for t in free if on_board_for(board[s], t) and t not in used]
        if not pts:
            return None
        board[rng.choice(pts)], board[s] = board[s], "."
    if not legal_position(board, side) or not legal_line(board, side, case["moves"]):
        return None
    if not third_occurrence_at_end(board, side, case["moves"]):
        return None
    return format_fen(board, side)


def rule_cases(root):
    out = []
    d = os.path.join(root, "tests", "data", "rules")
    for name in sorted(os.listdir(d)):
        if not name.endswith(".jsonl"):
            continue
        with open(os.path.join(d, name), encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                c = json.loads(line)
                if c.get("ruleset") == "axf":
                    c["file"] = name
                    out.append(c)
    return out


def generate(args, fsf, rng):
    """args.cases distinct cases; every 10th random position's legal moves
    are checked against Fairy-Stockfish's."""
    cases, seen = [], set()
    bases = rule_cases(args.root)
    n_mut = int(args.cases * args.mutations)
    tries = 0
    while len(cases) < args.cases:
        tries += 1
        if tries > 1000 * args.cases:
            raise RuntimeError("cannot generate enough cases")
        if len(cases) < n_mut:
            base = rng.choice(bases)
            fen = mutate(rng, base)
            if not fen:
                continue
            moves, origin = list(base["moves"]), "mutation of " + base["id"]
        else:
            board, side = random_position(rng)
            fen = format_fen(board, side)
            if fsf and tries % 10 == 0:
                mine, theirs = sorted(legal_moves(board, side)), sorted(fsf.legal(fen, []))
                if mine != theirs:
                    raise RuntimeError("move generators differ on %s: %s against %s"
                                       % (fen, mine, theirs))
            moves = random_cycle(rng, board, side)
            if not moves or not third_occurrence_at_end(board, side, moves):
                continue
            origin = "random"
        key = (fen, " ".join(moves))
        if key in seen:
            continue
        seen.add(key)
        cases.append({"fen": fen, "moves": moves, "origin": origin})
        if args.progress and len(cases) % 1000 == 0:
            print("generated %d cases" % len(cases), file=sys.stderr)
    return cases


# ---------------------------------------------------------------------------
# Rulings and report.


def final_side(fen, moves):
    side = fen.split()[1]
    return side if len(moves) % 2 == 0 else ("b" if side == "w" else "w")


def xqref_rulings(args, path):
    out = subprocess.run([args.xqref, "judge", "--cases", path, "--verbose"],
                         capture_output=True, text=True, check=False).stdout
    got = {}
    for line in out.splitlines():
        # "pass ID: RULING (REASON)" or "FAIL ID: expected X, got Y (REASON)"
        if line.startswith("pass "):
            cid, rest = line[5:].split(": ", 1)
            got[cid] = (rest.split(" ")[0], rest.split("(")[-1].rstrip(")"))
        elif line.startswith("FAIL "):
            cid, rest = line[5:].split(": ", 1)
            if rest.startswith("expected ") and ", got " in rest:
                tail = rest.split(", got ", 1)[1]
                got[cid] = (tail.split(" ")[0], tail.split("(")[-1].rstrip(")"))
            else:
                got[cid] = ("error", rest)
    return got


def xqref_classes(args, case):
    """xqref's class of every move of the ruled cycle (for the report)."""
    out = subprocess.run([args.xqref, "judge", "--rules", "axf", "--fen", case["fen"],
                          "--moves", " ".join(case["moves"])],
                         capture_output=True, text=True, check=False).stdout
    for line in out.splitlines():
        v = json.loads(line)
        if "cycle" in v:
            return " ".join("%s:%s" % (c["move"], c["class"]) for c in v["cycle"])
    return "-"


def write_cases(cases, path):
    with open(path, "w", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps({k: c[k] for k in ("id", "ruleset", "fen", "moves", "expect",
                                                   "origin")}) + "\n")


def self_test(cases, got):
    """Without Fairy-Stockfish: xqref must accept every case move by move and
    rule it on its last move (the generator's legality and repetition
    bookkeeping, checked by xqref's). Returns the exit status."""
    bad = [(c, got.get(c["id"], ("missing", ""))) for c in cases]
    bad = [(c, x) for c, x in bad if x[0] not in ("red_wins", "black_wins", "draw")]
    for c, x in bad:
        print("BAD %s (%s): %s %s -- xqref: %s %s" % (c["id"], c["origin"], c["fen"],
                                                     " ".join(c["moves"]), x[0], x[1]))
    kinds = Counter("random" if c["origin"] == "random" else "mutation" for c in cases)
    print("self-test: %d cases (%d random, %d mutations), %d ruled on their last move"
          % (len(cases), kinds["random"], kinds["mutation"], len(cases) - len(bad)))
    return 1 if bad else 0


def report(args, fsf, cases, got):
    agree, pairs, by_origin, bad = 0, Counter(), Counter(), []
    for c in cases:
        x = got.get(c["id"], ("missing", ""))
        kind = "random" if c["origin"] == "random" else "mutation"
        by_origin[(kind, "n")] += 1
        if x[0] == c["expect"]:
            agree += 1
            by_origin[(kind, "agree")] += 1
        else:
            pairs[(c["expect"], x[0])] += 1
            bad.append((c, x))
    n = len(cases)
    print("Fairy-Stockfish: %s; xqref: %s; seed %d" % (fsf.version(), args.xqref, args.seed))
    print("rulings: " + ", ".join("%s %d" % (k, v) for k, v in
                                  sorted(Counter(c["expect"] for c in cases).items())))
    for kind in ("random", "mutation"):
        if by_origin[(kind, "n")]:
            print("%-8s %5d cases, %5d agree" % (kind, by_origin[(kind, "n")],
                                                 by_origin[(kind, "agree")]))
    print("agreement: %d / %d (%.2f%%)" % (agree, n, 100.0 * agree / n if n else 0))
    for (f, x), k in sorted(pairs.items(), key=lambda t: -t[1]):
        print("  Fairy-Stockfish %s, xqref %s: %d" % (f, x, k))
    for c, x in bad:
        print("DISAGREE %s (%s)" % (c["id"], c["origin"]))
        print("  fen   %s" % c["fen"])
        print("  moves %s" % " ".join(c["moves"]))
        print("  Fairy-Stockfish %s; xqref %s (%s)" % (c["expect"], x[0], x[1]))
        print("  xqref classes: %s" % xqref_classes(args, c))
        if hasattr(fsf, "chased"):
            print("  Fairy-Stockfish chased: %s" % fsf.chased(c["fen"], c["moves"]))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pyffish", help="directory holding the pyffish module you built")
    ap.add_argument("--engine", help="Fairy-Stockfish engine binary (largeboards build)")
    ap.add_argument("--self-test", action="store_true",
                    help="no Fairy-Stockfish: check the generated cases with xqref alone")
    ap.add_argument("--xqref", required=True)
    ap.add_argument("--root", required=True, help="the repository (for tests/data/rules)")
    ap.add_argument("--cases", type=int, default=10000)
    ap.add_argument("--mutations", type=float, default=0.3,
                    help="share of cases that mutate the case files (default 0.3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="write the cases (with Fairy-Stockfish's ruling) here")
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args()
    fsf = None
    if not args.self_test:
        fsf = Engine(args.engine) if args.engine else Pyffish(args.pyffish)
    rng = random.Random(args.seed)
    try:
        cases = generate(args, fsf, rng)
        for i, c in enumerate(cases):
            c["id"] = "fsf-%05d" % (i + 1)
            c["ruleset"] = "axf"
            c["expect"] = fsf.ruling(c["fen"], c["moves"], final_side(c["fen"], c["moves"])) \
                if fsf else "draw"
        fd, path = tempfile.mkstemp(suffix=".jsonl")
        os.close(fd)
        write_cases(cases, path)
        got = xqref_rulings(args, path)
        if args.keep:
            os.replace(path, args.keep)
        else:
            os.unlink(path)
        return self_test(cases, got) if args.self_test else report(args, fsf, cases, got)
    finally:
        if fsf:
            fsf.close()


if __name__ == "__main__":
    sys.exit(main())
