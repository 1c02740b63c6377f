"""fsf_board.py - a small xiangqi board for bench/compare_fsf.py: FEN,
moves in ICCS (files a-i, ranks 0-9, rank 0 = Red's back rank), legal
moves and checks. It only generates test cases; the rulings compared are
xqref's and Fairy-Stockfish's. A board is a list of 90 characters (FEN
letters, '.' for an empty point), index rank * 9 + file; Red is 'w'.
"""
FILES, RANKS = 9, 10
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
HORSE = ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1))
# Most pieces of one kind a side may have (xqref's FEN check).
MOST = {"K": 1, "A": 2, "B": 2, "N": 2, "R": 2, "C": 2, "P": 5}


def parse_fen(fen):
    rows = fen.split()[0].split("/")
    board = ["."] * 90
    for i, row in enumerate(rows):
        r, f = RANKS - 1 - i, 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[r * 9 + f] = {"h": "n", "e": "b", "H": "N", "E": "B"}.get(ch, ch)
                f += 1
    parts = fen.split()
    return board, parts[1] if len(parts) > 1 else "w"


def format_fen(board, side):
    rows = []
    for r in range(RANKS - 1, -1, -1):
        row, empty = "", 0
        for f in range(FILES):
            ch = board[r * 9 + f]
            if ch == ".":
                empty += 1
            else:
                row += (str(empty) if empty else "") + ch
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " " + side + " - - 0 1"


def other(side):
    return "b" if side == "w" else "w"


def sq_of(name):
    return int(name[1:]) * 9 + "abcdefghi".index(name[0])


def sq_name(sq):
    return "abcdefghi"[sq % 9] + str(sq // 9)


def move_name(fr, to):
    return sq_name(fr) + sq_name(to)


def apply(board, move):
    b = list(board)
    fr, to = sq_of(move[:2]), sq_of(move[2:])
    b[to], b[fr] = b[fr], "."
    return b


def owner(ch):
    return "." if ch == "." else ("w" if ch.isupper() else "b")


def on_board_for(ch, sq):
    """The points a piece may stand on."""
    f, r = sq % 9, sq // 9
    rr = r if ch.isupper() else 9 - r
    k = ch.upper()
    if k == "K":
        return 3 <= f <= 5 and rr <= 2
    if k == "A":
        return (f, rr) in {(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)}
    if k == "B":
        return (f, rr) in {(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}
    if k == "P":
        return rr >= 5 or (rr in (3, 4) and f % 2 == 0)
    return True


def count_ok(board):
    for ch in set(board) - {"."}:
        if board.count(ch) > MOST[ch.upper()]:
            return False
    return "K" in board and "k" in board


def at(board, f, r):
    return board[r * 9 + f] if 0 <= f < FILES and 0 <= r < RANKS else None


def in_check(board, side):
    """True when the general of `side` is attacked (the facing general too)."""
    kch = "K" if side == "w" else "k"
    k = board.index(kch)
    kf, kr = k % 9, k // 9
    up = str.lower if side == "w" else str.upper  # enemy letters
    for df, dr in ORTH:
        f, r, seen = kf + df, kr + dr, 0
        while 0 <= f < FILES and 0 <= r < RANKS:
            ch = board[r * 9 + f]
            if ch != ".":
                if seen == 0 and (ch == up("R") or (ch == up("K") and df == 0)):
                    return True
                if seen == 1 and ch == up("C"):
                    return True
                seen += 1
                if seen == 2:
                    break
            f, r = f + df, r + dr
    for df, dr in HORSE:
        hf, hr = kf + df, kr + dr
        if at(board, hf, hr) != up("N"):
            continue
        lf = hf - (df // 2 if abs(df) == 2 else 0)
        lr = hr - (dr // 2 if abs(dr) == 2 else 0)
        if board[lr * 9 + lf] == ".":
            return True
    fwd = -1 if side == "b" else 1  # the enemy pawn stands ahead of the general
    for pf, pr in ((kf, kr + fwd), (kf - 1, kr), (kf + 1, kr)):
        if at(board, pf, pr) == up("P"):
            return True
    return False


def pseudo_moves(board, side):
    """Moves by the pieces' own rules (the general's safety ignored)."""
    out = []
    for s, ch in enumerate(board):
        if owner(ch) != side:
            continue
        f, r, k = s % 9, s // 9, ch.upper()

        def add(tf, tr):
            t = at(board, tf, tr)
            if t is not None and owner(t) != side and on_board_for(ch, tr * 9 + tf):
                out.append(move_name(s, tr * 9 + tf))

        if k in "KA":
            for df, dr in (ORTH if k == "K" else DIAG):
                add(f + df, r + dr)
        elif k == "B":
            for df, dr in DIAG:
                if at(board, f + df, r + dr) == ".":
                    add(f + 2 * df, r + 2 * dr)
        elif k == "N":
            for df, dr in HORSE:
                lf = f + (df // 2 if abs(df) == 2 else 0)
                lr = r + (dr // 2 if abs(dr) == 2 else 0)
                if at(board, lf, lr) == ".":
                    add(f + df, r + dr)
        elif k in "RC":
            for df, dr in ORTH:
                tf, tr, screen = f + df, r + dr, False
                while 0 <= tf < FILES and 0 <= tr < RANKS:
                    t = board[tr * 9 + tf]
                    if not screen:
                        if t == ".":
                            out.append(move_name(s, tr * 9 + tf))
                        elif k == "R":
                            add(tf, tr)
                            break
                        else:
                            screen = True
                    elif t != ".":
                        if owner(t) != side:
                            out.append(move_name(s, tr * 9 + tf))
                        break
                    tf, tr = tf + df, tr + dr
        else:  # pawn
            fwd = 1 if side == "w" else -1
            add(f, r + fwd)
            if (r >= 5) == (side == "w"):
                add(f - 1, r)
                add(f + 1, r)
    return out


def legal_moves(board, side):
    return [m for m in pseudo_moves(board, side) if not in_check(apply(board, m), side)]


def legal_position(board, side):
    """A position xqref and Fairy-Stockfish both accept, with a move."""
    if not count_ok(board) or in_check(board, other(side)):
        return False
    if any(ch != "." and not on_board_for(ch, s) for s, ch in enumerate(board)):
        return False
    return bool(legal_moves(board, side))
