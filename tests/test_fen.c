/*
 * test_fen.c -- FEN parsing, printing and position validation
 * (README.md, "FEN"): round trips, accepted variants, one failing example per
 * rule with its message, and a fixed-seed fuzz of the parser.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

#define START XQ_START_FEN
#define START_PLACEMENT "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
#define PL ((int)sizeof START_PLACEMENT - 1) /* byte just after the placement */

/* ---- helpers ------------------------------------------------------ */

/* Parse `fen`, which must succeed, and check the incremental key. */
static xq_pos parse_ok(const char *fen, int flags)
{
  xq_pos pos;
  xq_error err = {0, 0, 0, ""};
  int rc = xq_fen_parse(&pos, fen, flags, &err);
  cr_assert_eq(rc, XQ_OK, "parse of \"%s\" failed: %d at %d: %s", fen, rc,
               err.pos, err.msg);
  cr_assert_eq(xq_pos_key_full(&pos), pos.key, "key of \"%s\"", fen);
  return pos;
}

/* Parse `fen`, which must fail with `code` and a message containing
 * `msg`; when `at` >= -1 the error position must be `at`. The output
 * position must be left untouched. */
static void fail_at(const char *fen, int flags, int code, const char *msg, int at)
{
  xq_pos pos, before;
  xq_error err = {0, 0, 0, ""};
  memset(&pos, 0xA5, sizeof pos);
  before = pos;
  int rc = xq_fen_parse(&pos, fen, flags, &err);
  cr_expect_eq(rc, code, "\"%s\": rc %d, wanted %d (%s)", fen, rc, code, err.msg);
  cr_expect_eq(err.code, code, "\"%s\": err.code %d", fen, err.code);
  cr_expect(strstr(err.msg, msg) != NULL, "\"%s\": message \"%s\" lacks \"%s\"",
            fen, err.msg, msg);
  if (at >= -1)
    cr_expect_eq(err.pos, at, "\"%s\": error at %d, wanted %d (%s)", fen,
                 err.pos, at, err.msg);
  cr_expect_eq(err.ply, -1, "\"%s\": ply %d", fen, err.ply);
  cr_expect(memcmp(&pos, &before, sizeof pos) == 0, "\"%s\": pos written", fen);
  /* The same call without an error record must not crash. */
  cr_expect_eq(xq_fen_parse(&pos, fen, flags, NULL), code, "\"%s\" (err NULL)", fen);
}

static void fail(const char *fen, int code, const char *msg)
{
  fail_at(fen, 0, code, msg, -2);
}

/* Format `pos` into a fresh buffer. */
static const char *fmt(const xq_pos *pos, char *buf)
{
  int n = xq_fen_format(pos, buf, XQ_FEN_MAX);
  cr_assert(n > 0 && n < XQ_FEN_MAX, "format returned %d", n);
  cr_assert_eq((size_t)n, strlen(buf));
  return buf;
}

/* ---- round trips --------------------------------------------------- */

Test(fen, start_round_trip)
{
  char buf[XQ_FEN_MAX];
  xq_pos sp, pos = parse_ok(START, 0);
  xq_pos_startpos(&sp);
  cr_assert_str_eq(fmt(&pos, buf), START);
  cr_assert_eq(pos.key, sp.key);
  cr_assert(memcmp(pos.board, sp.board, sizeof sp.board) == 0);
  cr_assert(memcmp(pos.sq, sp.sq, sizeof sp.sq) == 0);
  cr_assert_eq(pos.side, XQ_RED);
  cr_assert_eq(pos.halfmove, 0);
  cr_assert_eq(pos.fullmove, 1);
  cr_assert_str_eq(fmt(&sp, buf), START);
}

Test(fen, perft_suite_round_trip)
{
  FILE *f = fopen(XQ_TEST_DATA "/perft_suite.txt", "r");
  cr_assert_not_null(f, "cannot open perft_suite.txt");
  char line[1024];
  int count = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    char *a = strchr(line, ';');
    cr_assert_not_null(a, "bad line: %s", line);
    char *b = strchr(a + 1, ';');
    cr_assert_not_null(b, "bad line: %s", line);
    *b = 0;
    char *fen = a + 1;
    while (*fen == ' ') fen++;
    for (char *e = b - 1; e >= fen && *e == ' '; e--) *e = 0;

    /* Expected output: the first two fields, then "- - 0 1". */
    char want[2 * XQ_FEN_MAX], buf[XQ_FEN_MAX], two[XQ_FEN_MAX];
    char *sp1 = strchr(fen, ' ');
    cr_assert_not_null(sp1);
    snprintf(two, sizeof two, "%.*s", (int)(sp1 - fen) + 2, fen);
    snprintf(want, sizeof want, "%s - - 0 1", two);

    xq_pos pos = parse_ok(fen, 0);
    cr_expect_str_eq(fmt(&pos, buf), want);
    /* The two-field form of the same FEN is the same position. */
    xq_pos p2 = parse_ok(two, 0);
    cr_expect_eq(p2.key, pos.key, "%s", two);
    cr_expect_str_eq(fmt(&p2, buf), want);
    count++;
  }
  fclose(f);
  cr_expect(count >= 50, "only %d positions in the suite", count);
}

/* Same placement, side and counters. */
static void expect_same(const xq_pos *a, const xq_pos *b, const char *what)
{
  cr_expect_eq(a->key, b->key, "%s: key", what);
  cr_expect(memcmp(a->board, b->board, sizeof a->board) == 0, "%s: board", what);
  cr_expect(memcmp(a->sq, b->sq, sizeof a->sq) == 0, "%s: ids", what);
  cr_expect_eq(a->side, b->side, "%s: side", what);
  cr_expect_eq(a->halfmove, b->halfmove, "%s: halfmove", what);
  cr_expect_eq(a->fullmove, b->fullmove, "%s: fullmove", what);
}

Test(fen, accepted_variants)
{
  xq_pos canon = parse_ok(START, 0);
  static const char *same[] = {
    START_PLACEMENT " w",                       /* two fields */
    START_PLACEMENT " r - - 0 1",               /* side r */
    START_PLACEMENT " r",
    START_PLACEMENT " w -",                     /* fields 4-6 missing */
    START_PLACEMENT " w - -",
    START_PLACEMENT " w - - 0",
    "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
    "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r 1", /* CXBoard */
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w", /* mixed sets */
    "  " START "  ",                            /* surrounding blanks */
    START_PLACEMENT "\tw\t-\t-\t0\t1",          /* tabs */
    START "\n",                                 /* a line with its end */
    START "\r\n",
    START_PLACEMENT " w - - 0 0",               /* fullmove 0 means 1 */
    START_PLACEMENT " w 0 1",                   /* no '-' fields */
    START_PLACEMENT " w - - 00 01",             /* leading zeros */
  };
  for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
    xq_pos p = parse_ok(same[i], 0);
    expect_same(&p, &canon, same[i]);
  }

  /* G/S letters with the compatibility flag; rejected without it. */
  const char *gs = "rheagaehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAGAEHR w";
  xq_pos p = parse_ok(gs, XQ_FEN_ALLOW_GS);
  expect_same(&p, &canon, gs);
  fail_at(gs, 0, XQ_EFEN, "letter 'g' (general) needs the G/S compatibility option", 4);
  p = parse_ok(START, XQ_FEN_ALLOW_GS); /* K/P still fine with the flag */
  expect_same(&p, &canon, "K/P with GS flag");

  /* Black to move: the side key, in both spellings. */
  xq_pos bl = parse_ok(START_PLACEMENT " b - - 0 1", 0);
  xq_pos bl2 = parse_ok("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b", 0);
  expect_same(&bl, &bl2, "black to move");
  cr_expect_eq(bl.side, XQ_BLACK);
  cr_expect_neq(bl.key, canon.key);

  /* Counters. */
  p = parse_ok(START_PLACEMENT " b - - 12 34", 0);
  cr_expect_eq(p.halfmove, 12);
  cr_expect_eq(p.fullmove, 34);
  p = parse_ok(START_PLACEMENT " w - - 7", 0); /* halfmove only */
  cr_expect_eq(p.halfmove, 7);
  cr_expect_eq(p.fullmove, 1);
  p = parse_ok("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r 23", 0);
  cr_expect_eq(p.halfmove, 0); /* CXBoard: the one number is the move number */
  cr_expect_eq(p.fullmove, 23);
  p = parse_ok(START_PLACEMENT " w - - 65535 65535", 0);
  cr_expect_eq(p.halfmove, 65535);
  cr_expect_eq(p.fullmove, 65535);
  char buf[XQ_FEN_MAX];
  cr_expect_str_eq(fmt(&p, buf), START_PLACEMENT " w - - 65535 65535");
}

Test(fen, consecutive_digits_accepted)
{
  /* Runs split in two ("45") are unusual but unambiguous. */
  xq_pos a = parse_ok("4k4/9/9/9/9/9/9/9/9/3K5 w", 0);
  xq_pos b = parse_ok("1111k1111/9/9/9/9/9/9/9/9/12K32 w", 0);
  expect_same(&a, &b, "split runs");
}

/* ---- the parser's rules -------------------------------------------- */

Test(fen, placement_shape)
{
  fail(START_PLACEMENT "/9 w", XQ_EFEN, "more than 10 ranks");
  fail("rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", XQ_EFEN,
       "only 9 ranks, not 10");
  fail_at("rnbakabn/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", 0, XQ_EFEN,
          "rank 9 has 8 files, not 9", 8);
  fail_at("rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", 0, XQ_EFEN,
          "rank 9 has more than 9 files", 9);
  fail_at("rnbakabnr/9/1c5c2/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", 0, XQ_EFEN,
          "rank 7 has more than 9 files", 16);
  fail("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", XQ_EFEN,
       "rank 0 has 8 files, not 9");
  fail("rnbakabnr//1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", XQ_EFEN,
       "rank 8 has 0 files, not 9");
  fail_at("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/09/RNBAKABNR w", 0, XQ_EFEN,
          "'0' is not a run of empty points", 48);
  fail_at("", 0, XQ_EFEN, "empty FEN", 0);
  fail_at("    ", 0, XQ_EFEN, "empty FEN", 4);
  fail_at("/", 0, XQ_EFEN, "rank 9 has 0 files", 0);
}

Test(fen, piece_letters)
{
  fail_at("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1X1P1P/1C5C1/9/RNBAKABNR w", 0, XQ_EFEN,
          "invalid piece letter 'X'", 36);
  fail_at("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAGABNR w", 0, XQ_EFEN,
          "letter 'G' (general) needs the G/S compatibility option; the standard letter is 'K'",
          54);
  fail("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/S1P1P1P1P/1C5C1/9/RNBAKABNR w", XQ_EFEN,
       "letter 'S' (soldier) needs the G/S compatibility option; the standard letter is 'P'");
  fail_at("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1\xC3\xA9P1P/1C5C1/9/RNBAKABNR w", 0,
          XQ_EFEN, "invalid piece letter byte 0xC3", 36);
  fail_at("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1@1P1P/1C5C1/9/RNBAKABNR w", 0, XQ_EFEN,
          "invalid piece letter '@'", 36);
  fail_at("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR\x01w", 0, XQ_EFEN,
          "invalid piece letter byte 0x01", PL);
}

Test(fen, piece_limits)
{
  fail_at("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", 0, XQ_EFEN,
          "too many Red generals (at most 1)", 56); /* the second one read */
  fail("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4R4/RNBAKABNR w", XQ_EFEN,
       "too many Red rooks (at most 2)");
  fail("rnbakabnr/9/1c5c1/p1p1p1p1p/4P4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", XQ_EFEN,
       "too many Red pawns (at most 5)");
  fail("rnbakabnr/9/1c5c1/p1p1p1p1p/4p4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", XQ_EFEN,
       "too many Black pawns (at most 5)");
  fail("rnbakabnr/9/1ccc1c3/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", XQ_EFEN,
       "too many Black cannons (at most 2)");
  fail("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4A4/RNBAKABNR w", XQ_EFEN,
       "too many Red advisors (at most 2)");
  fail("rnbakabnr/9/1c5c1/p1p1p1p1p/9/2N6/P1P1P1P1P/1C5C1/9/RNBAKABNR w", XQ_EFEN,
       "too many Red horses (at most 2)");
  parse_ok(START_PLACEMENT " w", 0); /* exactly the full set */
}

Test(fen, generals)
{
  fail_at("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", 0, XQ_EFEN,
          "Black has no general", -1);
  fail("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w", XQ_EFEN,
       "Red has no general");
  fail("9/9/9/9/9/9/9/9/9/9 w", XQ_EFEN, "Red has no general");
  fail("4k4/9/9/9/9/9/9/9/9/K8 w", XQ_EFEN, "Red general on a0 is outside its palace");
  fail("9/9/9/4k4/9/9/9/9/9/3K5 w", XQ_EFEN, "Black general on e6 is outside its palace");
  fail("4k4/9/9/9/9/9/3K5/9/9/9 w", XQ_EFEN, "Red general on d3 is outside its palace");
  parse_ok("4k4/9/9/9/9/9/9/9/9/5K3 b - - 0 1", 0); /* f0 is in it */
}

Test(fen, palace_points)
{
  fail("4k4/9/9/9/9/9/9/9/9/3KA4 w", XQ_EFEN, "Red advisor on e0 is off its palace points");
  fail("3k5/9/9/9/9/9/9/9/9/A2K5 w", XQ_EFEN, "Red advisor on a0 is off its palace points");
  parse_ok("3k5/4a4/9/9/9/9/9/9/9/4K4 w", 0);
  fail("3k5/3a5/9/9/9/9/9/9/9/4K4 w", XQ_EFEN, "Black advisor on d8 is off its palace points");
}

Test(fen, elephants)
{
  fail("4k4/9/9/9/2B6/9/9/9/9/3K5 w", XQ_EFEN, "Red elephant on c5 is across the river");
  fail("4k4/9/9/9/9/2b6/9/9/9/3K5 w", XQ_EFEN, "Black elephant on c4 is across the river");
  fail("4k4/9/9/9/9/9/9/9/9/1B1K5 w", XQ_EFEN, "Red elephant on b0 is off its 7 points");
  fail("4k4/9/9/9/9/9/9/9/1B7/3K5 w", XQ_EFEN, "Red elephant on b1 is off its 7 points");
  fail("2b1k4/9/b3b3b/9/2b6/2B6/9/B3B3B/9/2B1K4 w", XQ_EFEN, "too many");
  fail("2b1k4/9/b3b4/9/2b6/2B6/9/B3B4/9/2B1K4 w", XQ_EFEN, "too many");
  /* All 7 points of each side are reachable. */
  static const char *ok[] = {
    "2b1k4/9/9/9/9/9/9/9/9/3K2B2 w", "3k2b2/9/9/9/9/9/9/9/9/2B1K4 w",
    "4k4/9/b8/9/9/9/9/B8/9/3K5 w",   "4k4/9/4b4/9/9/9/9/4B4/9/3K5 w",
    "4k4/9/8b/9/9/9/9/8B/9/3K5 w",   "4k4/9/9/9/2b6/2B6/9/9/9/3K5 w",
    "4k4/9/9/9/6b2/6B2/9/9/9/3K5 w",
  };
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) parse_ok(ok[i], 0);
}

Test(fen, pawns)
{
  fail("4k4/9/9/9/9/9/9/9/P8/3K5 w", XQ_EFEN, "Red pawn on a1 is behind its starting rank");
  fail("4k4/9/9/9/9/9/9/9/9/P2K5 w", XQ_EFEN, "Red pawn on a0 is behind its starting rank");
  fail("4k4/9/9/9/9/9/1P7/9/9/3K5 w", XQ_EFEN,
       "Red pawn on b3 is off files a, c, e, g, i before crossing the river");
  fail("4k4/9/9/9/9/1P7/9/9/9/3K5 w", XQ_EFEN, "Red pawn on b4 is off files");
  fail("4k4/p8/9/9/9/9/9/9/9/3K5 w", XQ_EFEN, "Black pawn on a8 is behind its starting rank");
  fail("4k4/9/9/1p7/9/9/9/9/9/3K5 w", XQ_EFEN, "Black pawn on b6 is off files");
  /* Crossed pawns go anywhere; uncrossed ones on their files. */
  parse_ok("4k4/9/9/9/1P7/1p7/9/9/9/3K5 w", 0);
  parse_ok("4k4/9/9/p8/P8/p8/P8/9/9/3K5 w", 0);
  parse_ok("3k5/9/9/9/9/9/9/p8/p8/5K3 w", 0); /* Black pawns deep in Red's half */
  parse_ok("3k5/P8/P8/9/9/9/9/9/9/5K3 w", 0);
}

Test(fen, side_to_move)
{
  fail_at(START_PLACEMENT " x - - 0 1", 0, XQ_EFEN,
          "side to move must be 'w', 'b' or 'r', not 'x'", PL + 1);
  fail_at(START_PLACEMENT " W", 0, XQ_EFEN, "side to move must be 'w', 'b' or 'r'", PL + 1);
  fail_at(START_PLACEMENT " wb", 0, XQ_EFEN, "side to move must be one letter", PL + 2);
  fail_at(START_PLACEMENT, 0, XQ_EFEN, "missing side to move", PL);
  fail_at(START_PLACEMENT "   ", 0, XQ_EFEN, "missing side to move", PL + 3);
  fail_at(START_PLACEMENT " \xFF", 0, XQ_EFEN, "not byte 0xFF", PL + 1);
}

Test(fen, counters)
{
  fail_at(START_PLACEMENT " w - - -1 1", 0, XQ_EFEN,
          "move counter must be a number from 0 to 65535", PL + 7);
  fail_at(START_PLACEMENT " w - - a 1", 0, XQ_EFEN, "expected '-' or a move counter, not 'a'", PL + 7);
  fail_at(START_PLACEMENT " w - - 1a 1", 0, XQ_EFEN,
          "move counter must be a number from 0 to 65535", PL + 8);
  fail_at(START_PLACEMENT " w - - 0 65536", 0, XQ_EFEN,
          "move counter must be a number from 0 to 65535", PL + 9);
  fail(START_PLACEMENT " w - - 0 99999999999999999999999999", XQ_EFEN,
       "move counter must be a number from 0 to 65535");
  fail(START_PLACEMENT " w - - +1 1", XQ_EFEN, "move counter must be a number");
  fail_at(START_PLACEMENT " w KQ - 0 1", 0, XQ_EFEN, "expected '-' or a move counter, not 'K'", PL + 3);
  fail_at(START_PLACEMENT " w - e3 0 1", 0, XQ_EFEN, "en passant field must be '-'", PL + 5);
  fail_at(START_PLACEMENT " w - 0 1", 0, XQ_EFEN, "en passant field must be '-'", PL + 5);
  fail_at(START_PLACEMENT " w - - - 0 1", 0, XQ_EFEN, "more than two '-' fields", PL + 7);
  fail_at(START_PLACEMENT " w 0 -", 0, XQ_EFEN, "'-' after a move counter", PL + 5);
  fail_at(START_PLACEMENT " w -- 0 1", 0, XQ_EFEN, "move counter must be a number", PL + 3);
}

Test(fen, trailing_garbage)
{
  fail_at(START " x", 0, XQ_EFEN, "unexpected text after the move counters", PL + 11);
  fail_at(START " 2", 0, XQ_EFEN, "unexpected text after the move counters", PL + 11);
  fail_at(START "x", 0, XQ_EFEN, "move counter must be a number", PL + 10);
  fail_at(START " \x80", 0, XQ_EFEN, "unexpected text after the move counters", PL + 11);
}

Test(fen, too_long)
{
  char big[XQ_FEN_INPUT_MAX + 64];
  snprintf(big, sizeof big, "%s", START);
  size_t n = strlen(big);
  memset(big + n, ' ', sizeof big - n - 1); /* blanks alone make it too long */
  big[sizeof big - 1] = 0;
  fail_at(big, 0, XQ_EFEN, "FEN longer than 512 bytes", XQ_FEN_INPUT_MAX);
  /* Exactly XQ_FEN_INPUT_MAX bytes is still read. */
  big[XQ_FEN_INPUT_MAX] = 0;
  parse_ok(big, 0);

  /* An unterminated buffer of XQ_FEN_INPUT_MAX + 1 bytes: the parser must
   * stop there (ASan catches a read past the heap block). */
  char *raw = malloc(XQ_FEN_INPUT_MAX + 1);
  cr_assert_not_null(raw);
  memset(raw, '9', XQ_FEN_INPUT_MAX + 1);
  xq_pos pos;
  cr_expect_eq(xq_fen_parse(&pos, raw, 0, NULL), XQ_EFEN);
  free(raw);
}

Test(fen, null_arguments)
{
  xq_pos pos;
  xq_error err = {0, 0, 0, ""};
  cr_expect_eq(xq_fen_parse(NULL, START, 0, &err), XQ_EINVAL);
  cr_expect_eq(err.code, XQ_EINVAL);
  cr_expect_eq(xq_fen_parse(&pos, NULL, 0, &err), XQ_EINVAL);
  cr_expect_eq(err.code, XQ_EINVAL);
  cr_expect_eq(xq_fen_parse(&pos, NULL, 0, NULL), XQ_EINVAL);
  cr_expect_eq(xq_pos_validate(NULL, &err), XQ_EINVAL);
  cr_expect_eq(xq_pos_validate(NULL, NULL), XQ_EINVAL);
  char buf[XQ_FEN_MAX];
  xq_pos_startpos(&pos);
  cr_expect_eq(xq_fen_format(NULL, buf, sizeof buf), XQ_EINVAL);
  cr_expect_eq(xq_fen_format(&pos, NULL, sizeof buf), XQ_EINVAL);
}

Test(fen, format_buffer_size)
{
  xq_pos pos;
  xq_pos_startpos(&pos);
  size_t n = strlen(START);
  char buf[XQ_FEN_MAX];
  memset(buf, 'z', sizeof buf);
  cr_expect_eq(xq_fen_format(&pos, buf, n), XQ_EINVAL);
  cr_expect_eq(buf[0], 'z', "buffer touched on failure");
  cr_expect_eq(xq_fen_format(&pos, buf, 0), XQ_EINVAL);
  cr_expect_eq(xq_fen_format(&pos, buf, n + 1), (int)n);
  cr_expect_str_eq(buf, START);
}

/* ---- check and facing generals (rules 8 and 9) --------------------- */

Test(fen, side_not_to_move_in_check)
{
  /* Red rook on e0 gives check down the open e-file. Black to move:
   * Black is in check, which is fine. Red to move: Red could take the
   * general, so Black's last move was illegal. */
  parse_ok("4k4/9/9/9/9/9/9/9/9/3KR4 b", 0);
  fail_at("4k4/9/9/9/9/9/9/9/9/3KR4 w", 0, XQ_EFEN, "Black (not to move) is in check", -1);
  parse_ok("3kr4/9/9/9/9/9/9/9/9/4K4 w", 0);
  fail("3kr4/9/9/9/9/9/9/9/9/4K4 b", XQ_EFEN, "Red (not to move) is in check");
  /* Horse, cannon and pawn checks. */
  fail("4k4/9/3N5/9/9/9/9/9/9/3K5 w", XQ_EFEN, "Black (not to move) is in check");
  parse_ok("4k4/3n5/3N5/9/9/9/9/9/9/3K5 w", 0); /* the horse's leg is blocked */
  fail("4k4/4a4/9/9/9/9/9/9/9/3KC4 w", XQ_EFEN, "Black (not to move) is in check");
  fail("4k4/4P4/9/9/9/9/9/9/9/3K5 w", XQ_EFEN, "Black (not to move) is in check");
  fail("5k3/9/9/9/9/9/9/9/4p4/4K4 b", XQ_EFEN, "Red (not to move) is in check");
  /* A lax parse takes it. */
  parse_ok("4k4/9/9/9/9/9/9/9/9/3KR4 w", XQ_FEN_LAX);
}

Test(fen, facing_generals)
{
  fail_at("4k4/9/9/9/9/9/9/9/9/4K4 w", 0, XQ_EFEN,
          "the generals face each other on file e", -1);
  fail("4k4/9/9/9/9/9/9/9/9/4K4 b", XQ_EFEN, "the generals face each other on file e");
  fail("9/3k5/9/9/9/9/9/9/3K5/9 b", XQ_EFEN, "the generals face each other on file d");
  parse_ok("4k4/9/9/9/4P4/9/9/9/9/4K4 w", 0); /* a piece between */
  parse_ok("4k4/9/9/9/9/9/9/9/9/4K4 w", XQ_FEN_LAX);
}

Test(fen, validate_direct)
{
  xq_pos pos;
  xq_error err = {0, 0, 0, ""};
  xq_pos_clear(&pos);
  cr_expect_eq(xq_pos_validate(&pos, &err), XQ_EFEN);
  cr_expect_str_eq(err.msg, "Red has no general");
  cr_expect_eq(err.pos, -1);
  cr_expect_eq(err.ply, -1);
  cr_expect_eq(xq_pos_put(&pos, XQ_SQ(4, 0), XQ_RED, XQ_KING), XQ_OK);
  cr_expect_eq(xq_pos_put(&pos, XQ_SQ(4, 9), XQ_BLACK, XQ_KING), XQ_OK);
  cr_expect_eq(xq_pos_validate(&pos, &err), XQ_EFEN);
  cr_expect_str_eq(err.msg, "the generals face each other on file e");
  cr_expect_eq(xq_pos_put(&pos, XQ_SQ(4, 5), XQ_BLACK, XQ_PAWN), XQ_OK);
  cr_expect_eq(xq_pos_validate(&pos, &err), XQ_OK);
  cr_expect_eq(xq_pos_validate(&pos, NULL), XQ_OK);
  xq_pos_startpos(&pos);
  cr_expect_eq(xq_pos_validate(&pos, &err), XQ_OK);
}

/* ---- fuzz --------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rng(void)
{
  uint64_t x = rng_state; /* xorshift64* */
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng_state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

static const char fen_alphabet[] =
  "rnbakcpRNBAKCPheHEgsGS0123456789//////   --wbrx\t\n";

static int flags_for(uint64_t r)
{
  static const int f[4] = {0, XQ_FEN_LAX, XQ_FEN_ALLOW_GS, XQ_FEN_LAX | XQ_FEN_ALLOW_GS};
  return f[r & 3];
}

/* Parse `text` (len bytes plus terminator, copied to an exact-size heap
 * block so that any over-read is caught by ASan) and check the contract.
 * Returns 1 when it parsed. */
static int fuzz_one(const char *text, size_t len, int flags)
{
  char *s = malloc(len + 1);
  cr_assert_not_null(s);
  memcpy(s, text, len);
  s[len] = 0;
  size_t slen = strlen(s);

  xq_pos pos;
  xq_error err = {0, 0, 0, ""};
  int rc = xq_fen_parse(&pos, s, flags, &err);
  if (rc != XQ_OK) {
    cr_assert_eq(rc, XQ_EFEN, "rc %d for \"%s\"", rc, s);
    cr_assert_eq(err.code, rc);
    cr_assert(err.msg[0] != 0, "empty message for \"%s\"", s);
    cr_assert(memchr(err.msg, 0, sizeof err.msg) != NULL);
    cr_assert(err.pos >= -1 && err.pos <= (int)slen, "pos %d for \"%s\"", err.pos, s);
    free(s);
    return 0;
  }

  /* Success: print, parse again, same position. */
  char buf[XQ_FEN_MAX];
  cr_assert_eq(xq_pos_key_full(&pos), pos.key, "key of \"%s\"", s);
  int n = xq_fen_format(&pos, buf, sizeof buf);
  cr_assert(n > 0, "format of \"%s\"", s);
  xq_pos again;
  rc = xq_fen_parse(&again, buf, flags & XQ_FEN_LAX, &err);
  cr_assert_eq(rc, XQ_OK, "\"%s\" -> \"%s\": %s", s, buf, err.msg);
  cr_assert_eq(again.key, pos.key, "\"%s\" -> \"%s\"", s, buf);
  cr_assert(memcmp(again.board, pos.board, sizeof pos.board) == 0);
  cr_assert_eq(again.halfmove, pos.halfmove);
  cr_assert_eq(again.fullmove, pos.fullmove);
  if (!(flags & XQ_FEN_LAX)) cr_assert_eq(xq_pos_validate(&pos, NULL), XQ_OK);
  free(s);
  return 1;
}

Test(fen, fuzz_random_bytes, .timeout = 120)
{
  char text[700];
  int ok = 0;
  rng_state = 0x9E3779B97F4A7C15ULL;
  for (int iter = 0; iter < 100000; iter++) {
    uint64_t r = rng();
    /* Mostly short, sometimes around and beyond the length limit. */
    size_t len = (r >> 8) % 8 == 0 ? (size_t)((r >> 16) % sizeof text) : (size_t)((r >> 16) % 100);
    int mode = (int)((r >> 40) % 3); /* 0 any byte, 1 FEN alphabet, 2 mixed */
    for (size_t j = 0; j < len; j++) {
      uint64_t q = rng();
      int alpha = mode == 1 || (mode == 2 && (q & 1));
      text[j] = alpha ? fen_alphabet[(q >> 8) % (sizeof fen_alphabet - 1)]
                      : (char)(1 + (q >> 8) % 255);
    }
    ok += fuzz_one(text, len, flags_for(r));
  }
  cr_log_info("random bytes: %d of 100000 parsed", ok);
}

/* Valid FENs to mutate: the start, the variants and the perft suite. */
static int load_seeds(char seeds[][XQ_FEN_INPUT_MAX], int max)
{
  int n = 0;
  static const char *fixed[] = {
    START,
    START_PLACEMENT " w",
    "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r 1",
    "rheagaehr/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/9/RHEAGAEHR w - - 3 9",
    "4k4/9/9/9/9/9/9/9/9/3KR4 b",
  };
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed && n < max; i++)
    snprintf(seeds[n++], XQ_FEN_INPUT_MAX, "%s", fixed[i]);
  FILE *f = fopen(XQ_TEST_DATA "/perft_suite.txt", "r");
  cr_assert_not_null(f);
  char line[1024];
  while (n < max && fgets(line, sizeof line, f)) {
    char *a = strchr(line, ';'), *b = a ? strchr(a + 1, ';') : NULL;
    if (line[0] == '#' || !b) continue;
    *b = 0;
    snprintf(seeds[n++], XQ_FEN_INPUT_MAX, "%s", a + 2);
  }
  fclose(f);
  return n;
}

Test(fen, fuzz_mutations, .timeout = 120)
{
  static char seeds[128][XQ_FEN_INPUT_MAX];
  int nseeds = load_seeds(seeds, 128);
  cr_assert(nseeds > 50);
  char text[XQ_FEN_INPUT_MAX + 64];
  int ok = 0;
  rng_state = 0xD1B54A32D192ED03ULL;
  for (int iter = 0; iter < 100000; iter++) {
    uint64_t r = rng();
    size_t len = strlen(seeds[r % (unsigned)nseeds]);
    memcpy(text, seeds[r % (unsigned)nseeds], len);
    int edits = 1 + (int)((r >> 20) % 4);
    for (int e = 0; e < edits; e++) {
      uint64_t q = rng();
      size_t at = len ? (size_t)((q >> 8) % len) : 0;
      char ch = (q >> 30) & 1 ? fen_alphabet[(q >> 32) % (sizeof fen_alphabet - 1)]
                              : (char)(1 + (q >> 32) % 255);
      switch (q % 6) {
      case 0: /* replace a byte */
        if (len) text[at] = ch;
        break;
      case 1: /* insert a byte */
        if (len + 1 < sizeof text) {
          memmove(text + at + 1, text + at, len - at);
          text[at] = ch;
          len++;
        }
        break;
      case 2: /* delete a byte */
        if (len) {
          memmove(text + at, text + at + 1, len - at - 1);
          len--;
        }
        break;
      case 3: /* swap two bytes */
        if (len) {
          size_t at2 = (size_t)((q >> 40) % len);
          char t = text[at];
          text[at] = text[at2];
          text[at2] = t;
        }
        break;
      case 4: /* truncate */
        len = at;
        break;
      case 5: /* move a piece letter onto a digit run's place, or vice versa */
        if (len) text[at] = fen_alphabet[(q >> 32) % 22];
        break;
      }
    }
    ok += fuzz_one(text, len, flags_for(r >> 50));
  }
  cr_log_info("mutations: %d of 100000 parsed", ok);
  cr_expect(ok > 1000, "only %d mutated FENs parsed: fuzz not reaching success", ok);
}

Test(errors, one_strerror_knows_the_codes_of_every_module)
{
  const int codes[] = {XQ_OK, XQ_EINVAL, XQ_EFEN, XQ_EILLEGAL, XQ_EAMBIGUOUS, XQ_ENOTATION,
                       XQ_ENOMEM, XQ_EIO, XQ_ELIMIT, XQ_ENOPAIRING, XQ_ESTORE};
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
    cr_assert_str_neq(xq_strerror(codes[i]), "unknown error", "code %d has its text", codes[i]);
  cr_assert_str_eq(xq_strerror(XQ_ESTORE), "event store error");
  cr_assert_str_eq(xq_strerror(-99), "unknown error");
}
