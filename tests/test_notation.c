/*
 * test_notation.c -- move notations (README.md, "Move notations"): the fixtures of
 * tests/data/notation (games replayed in ICCS, WXF and Chinese, the tandem and
 * multi-pawn table), the accepted variants and dialects, a print-then-parse
 * property over random playouts, error reporting, and random garbage.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

#define DATA XQ_TEST_DATA "/notation/"
#define LINE_MAX 512
#define TEXT_MAX 96 /* room for a move text and its variants */

static const xq_notation all_notations[4] = {XQ_NOTE_ICCS, XQ_NOTE_ICCS_PGN, XQ_NOTE_WXF,
                                             XQ_NOTE_CHINESE};
static const char *const notation_names[4] = {"ICCS", "ICCS-PGN", "WXF", "Chinese"};

/* ---- helpers ------------------------------------------------------ */

static xq_pos load(const char *fen)
{
  xq_pos pos;
  xq_error err = {0, 0, 0, ""};
  int rc = xq_fen_parse(&pos, fen, 0, &err);
  cr_assert_eq(rc, XQ_OK, "FEN \"%s\": %s", fen, err.msg);
  return pos;
}

/* The first two FEN fields of `pos` (placement and side). */
static void fen2(const xq_pos *pos, char *out)
{
  char buf[XQ_FEN_MAX];
  cr_assert(xq_fen_format(pos, buf, sizeof buf) > 0);
  char *sp = strchr(buf, ' ');
  cr_assert_not_null(sp);
  snprintf(out, XQ_FEN_MAX, "%.*s", (int)(sp - buf) + 2, buf);
}

static const char *square_name(int sq, char *buf)
{
  buf[0] = (char)('a' + XQ_FILE(sq));
  buf[1] = (char)('0' + XQ_RANK(sq));
  buf[2] = 0;
  return buf;
}

static const char *move_name(xq_move m, char *buf)
{
  square_name(XQ_FROM(m), buf);
  square_name(XQ_TO(m), buf + 2);
  return buf;
}

/* Parse `text`, which must give a move; returns it. */
static xq_move parse_ok(const xq_pos *pos, const char *text, xq_notation n)
{
  xq_error err = {0, 0, 0, ""};
  xq_move m = XQ_MOVE_NONE;
  int rc = xq_move_parse(pos, text, n, &m, &err);
  cr_assert_eq(rc, XQ_OK, "%s parse of \"%s\": rc %d: %s", notation_names[n], text, rc,
               err.msg);
  cr_assert(xq_is_legal(pos, m), "\"%s\" gave an illegal move", text);
  return m;
}

/* `text` must parse (in `n`, and with parse_any) to `want`. */
static void expect_parses(const xq_pos *pos, const char *text, xq_notation n, xq_move want)
{
  char a[8], b[8];
  xq_error err = {0, 0, 0, ""};
  xq_move m = XQ_MOVE_NONE;
  int rc = xq_move_parse(pos, text, n, &m, &err);
  cr_expect_eq(rc, XQ_OK, "%s parse of \"%s\": rc %d: %s", notation_names[n], text, rc,
               err.msg);
  if (rc == XQ_OK)
    cr_expect_eq(m, want, "%s \"%s\" gave %s, wanted %s", notation_names[n], text,
                 move_name(m, a), move_name(want, b));
  m = XQ_MOVE_NONE;
  rc = xq_move_parse_any(pos, text, &m, &err);
  cr_expect_eq(rc, XQ_OK, "parse_any of \"%s\": rc %d: %s", text, rc, err.msg);
  if (rc == XQ_OK)
    cr_expect_eq(m, want, "parse_any \"%s\" gave %s, wanted %s", text, move_name(m, a),
                 move_name(want, b));
}

/* `m` must print as `want` in `n`. */
static void expect_prints(const xq_pos *pos, xq_move m, xq_notation n, const char *want)
{
  char buf[XQ_MOVE_TEXT_MAX], mv[8];
  int len = xq_move_format(pos, m, n, buf, sizeof buf);
  cr_expect(len > 0, "%s format of %s failed: %d", notation_names[n], move_name(m, mv), len);
  if (len > 0) {
    cr_expect_eq((size_t)len, strlen(buf));
    cr_expect_str_eq(buf, want, "%s of %s", notation_names[n], move_name(m, mv));
  }
}

/* Replace every `from` in `s` by `to` (in place, `s` has TEXT_MAX bytes). */
static void replace_all(char *s, const char *from, const char *to)
{
  char out[TEXT_MAX];
  size_t o = 0, fl = strlen(from), tl = strlen(to);
  for (const char *p = s; *p;) {
    if (strncmp(p, from, fl) == 0) {
      cr_assert(o + tl < sizeof out);
      memcpy(out + o, to, tl);
      o += tl;
      p += fl;
    } else {
      cr_assert(o + 1 < sizeof out);
      out[o++] = *p++;
    }
  }
  out[o] = 0;
  strcpy(s, out);
}

static const char *const wide[9] = {"１", "２", "３", "４", "５", "６", "７", "８", "９"};
static const char *const cn_num[9] = {"一", "二", "三", "四", "五", "六", "七", "八", "九"};

/* Every variant spelling of the Chinese text `cn` must parse to `m`:
 * ASCII digits, traditional glyphs, 上/下 and 包/傌/俥, the other colour's
 * piece names, Chinese numerals for Black. */
static void chinese_variants(const xq_pos *pos, const char *cn, xq_move m)
{
  char v[TEXT_MAX];
  char ascii[2] = {0, 0};

  strcpy(v, cn); /* ASCII digits */
  for (int d = 0; d < 9; d++) {
    ascii[0] = (char)('1' + d);
    replace_all(v, wide[d], ascii);
  }
  expect_parses(pos, v, XQ_NOTE_CHINESE, m);

  strcpy(v, cn); /* traditional glyphs */
  static const char *const trad[][2] = {{"马", "馬"}, {"车", "車"}, {"炮", "砲"}, {"帅", "帥"},
                                        {"将", "將"}, {"进", "進"}, {"后", "後"}};
  for (size_t i = 0; i < sizeof trad / sizeof trad[0]; i++) replace_all(v, trad[i][0], trad[i][1]);
  expect_parses(pos, v, XQ_NOTE_CHINESE, m);

  strcpy(v, cn); /* other variant glyphs, 上/下 */
  static const char *const var[][2] = {{"马", "傌"}, {"车", "俥"}, {"炮", "包"},
                                       {"进", "上"}, {"退", "下"}};
  for (size_t i = 0; i < sizeof var / sizeof var[0]; i++) replace_all(v, var[i][0], var[i][1]);
  expect_parses(pos, v, XQ_NOTE_CHINESE, m);

  strcpy(v, cn); /* the other colour's names */
  static const char *const swap[][2] = {{"兵", "#1"}, {"卒", "兵"}, {"#1", "卒"}, {"仕", "#2"},
                                        {"士", "仕"}, {"#2", "士"}, {"相", "#3"}, {"象", "相"},
                                        {"#3", "象"}, {"帅", "#4"}, {"将", "帅"}, {"#4", "将"}};
  for (size_t i = 0; i < sizeof swap / sizeof swap[0]; i++) replace_all(v, swap[i][0], swap[i][1]);
  expect_parses(pos, v, XQ_NOTE_CHINESE, m);

  strcpy(v, cn); /* Chinese numerals for Black, full-width digits for Red */
  int black = 0;
  for (int d = 0; d < 9; d++) black |= strstr(v, wide[d]) != NULL;
  for (int d = 0; d < 9; d++) {
    if (black) replace_all(v, wide[d], cn_num[d]);
    else replace_all(v, cn_num[d], wide[d]);
  }
  expect_parses(pos, v, XQ_NOTE_CHINESE, m);
}

/* Variant spellings of the WXF text `w` that must parse to `m`. */
static void wxf_variants(const xq_pos *pos, const char *w, xq_move m)
{
  char v[TEXT_MAX];
  size_t n = strlen(w);

  for (size_t i = 0; i <= n; i++) v[i] = (char)(w[i] >= 'A' && w[i] <= 'Z' ? w[i] + 32 : w[i]);
  expect_parses(pos, v, XQ_NOTE_WXF, m); /* lower case */
  strcpy(v, w);
  if (v[0] == 'H') v[0] = 'N';
  if (v[0] == 'E') v[0] = 'B';
  expect_parses(pos, v, XQ_NOTE_WXF, m); /* N/B letters */
  if (w[2] == '.') {
    strcpy(v, w);
    v[2] = '=';
    expect_parses(pos, v, XQ_NOTE_WXF, m);
    snprintf(v, sizeof v, "%c%c%c", w[0], w[1], w[3]); /* no sign */
    expect_parses(pos, v, XQ_NOTE_WXF, m);
  }
  static const char *const notes[] = {"!", "?", "+", "#", "!?", "++"};
  for (size_t i = 0; i < sizeof notes / sizeof notes[0]; i++) {
    snprintf(v, sizeof v, "%s%s", w, notes[i]);
    expect_parses(pos, v, XQ_NOTE_WXF, m);
  }
  if (w[0] >= 'A' && w[0] <= 'Z' && (w[1] == '+' || w[1] == '-')) {
    snprintf(v, sizeof v, "%c%c%c%c", w[1], w[0], w[2], w[3]); /* xqbase +C-2 */
    expect_parses(pos, v, XQ_NOTE_WXF, m);
  }
}

/* Variant spellings of the ICCS text `u` (lower case, no dash). */
static void iccs_variants(const xq_pos *pos, const char *u, xq_move m)
{
  char v[TEXT_MAX];
  snprintf(v, sizeof v, "%c%c%c%c", u[0] - 32, u[1], u[2] - 32, u[3]);
  expect_parses(pos, v, XQ_NOTE_ICCS, m);
  snprintf(v, sizeof v, "%c%c-%c%c", u[0], u[1], u[2], u[3]);
  expect_parses(pos, v, XQ_NOTE_ICCS_PGN, m);
  snprintf(v, sizeof v, " \t%.8s+ \n", u);
  expect_parses(pos, v, XQ_NOTE_ICCS, m);
}

/* ---- fixture games (tests/data/notation) ------------------------ */

/* Replay game `name` of games.txt: every given notation must print and
 * parse as listed, variants must parse, and the final position must match.
 * Returns the number of plies. */
static int replay_game(const char *name)
{
  FILE *f = fopen(DATA "games.txt", "r");
  cr_assert_not_null(f, "cannot open games.txt");
  char line[LINE_MAX], header[64];
  int in = 0, plies = 0, finished = 0;
  xq_pos pos;

  snprintf(header, sizeof header, "game %s\n", name);
  xq_pos_startpos(&pos);
  while (fgets(line, sizeof line, f)) {
    if (!in) {
      in = strcmp(line, header) == 0;
      continue;
    }
    if (line[0] == '#' || line[0] == '\n') continue;
    if (strncmp(line, "end", 3) == 0) break;
    if (strncmp(line, "final ", 6) == 0) {
      char want[XQ_FEN_MAX], got[XQ_FEN_MAX];
      snprintf(want, sizeof want, "%.*s", (int)sizeof want - 1, line + 6);
      want[strcspn(want, "\n")] = 0;
      fen2(&pos, got);
      cr_expect_str_eq(got, want, "game %s: final position", name);
      finished = 1;
      continue;
    }
    char iccs[TEXT_MAX], wxf[TEXT_MAX], cn[TEXT_MAX];
    cr_assert_eq(sscanf(line, "%95s %95s %95s", iccs, wxf, cn), 3, "bad line: %s", line);
    plies++;

    xq_move m;
    if (strcmp(iccs, "-") != 0) {
      m = parse_ok(&pos, iccs, XQ_NOTE_ICCS);
      expect_prints(&pos, m, XQ_NOTE_ICCS, iccs);
      char pgn[8] = {(char)(iccs[0] - 32), iccs[1], '-', (char)(iccs[2] - 32), iccs[3], 0};
      expect_prints(&pos, m, XQ_NOTE_ICCS_PGN, pgn);
      expect_parses(&pos, pgn, XQ_NOTE_ICCS_PGN, m);
      iccs_variants(&pos, iccs, m);
    } else {
      m = parse_ok(&pos, cn, XQ_NOTE_CHINESE);
    }
    if (strcmp(wxf, "-") != 0) {
      expect_prints(&pos, m, XQ_NOTE_WXF, wxf);
      expect_parses(&pos, wxf, XQ_NOTE_WXF, m);
      wxf_variants(&pos, wxf, m);
    }
    if (strcmp(cn, "-") != 0) {
      expect_prints(&pos, m, XQ_NOTE_CHINESE, cn);
      expect_parses(&pos, cn, XQ_NOTE_CHINESE, m);
      chinese_variants(&pos, cn, m);
    }
    xq_undo u;
    xq_make(&pos, m, &u);
  }
  fclose(f);
  cr_assert(in, "game %s not in games.txt", name);
  cr_expect(finished, "game %s has no final position", name);
  return plies;
}

Test(fixtures, xqbase_example)
{
  cr_expect_eq(replay_game("xqbase"), 10);
}

Test(fixtures, game_a)
{
  cr_expect_eq(replay_game("A"), 63);
}

Test(fixtures, game_b)
{
  cr_expect_eq(replay_game("B"), 125);
}

Test(fixtures, game_c)
{
  cr_expect_eq(replay_game("C"), 102);
}

/* ---- tandem table (tests/data/notation) ------------------------------ */

Test(fixtures, tandem_table)
{
  FILE *f = fopen(DATA "tandem.txt", "r");
  cr_assert_not_null(f, "cannot open tandem.txt");
  char line[LINE_MAX];
  int have = 0, rows = 0, alts = 0, ambs = 0;
  xq_pos pos;

  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (line[0] == '#' || line[0] == 0) continue;
    if (strncmp(line, "fen ", 4) == 0) {
      pos = load(line + 4);
      have = 1;
      continue;
    }
    cr_assert(have, "row before any fen: %s", line);
    char a[TEXT_MAX], b[TEXT_MAX], c[TEXT_MAX];
    if (strncmp(line, "alt ", 4) == 0) {
      cr_assert_eq(sscanf(line + 4, "%95s %95s %95s", a, b, c), 3, "bad line: %s", line);
      xq_move m = parse_ok(&pos, a, XQ_NOTE_ICCS);
      expect_parses(&pos, c, strcmp(b, "wxf") == 0 ? XQ_NOTE_WXF : XQ_NOTE_CHINESE, m);
      alts++;
    } else if (strncmp(line, "amb ", 4) == 0) {
      cr_assert_eq(sscanf(line + 4, "%95s %95s", a, b), 2, "bad line: %s", line);
      xq_error err = {0, 0, 0, ""};
      xq_move m = XQ_MOVE_NONE;
      int rc = xq_move_parse(&pos, b, strcmp(a, "wxf") == 0 ? XQ_NOTE_WXF : XQ_NOTE_CHINESE,
                             &m, &err);
      cr_expect_eq(rc, XQ_EAMBIGUOUS, "\"%s\": rc %d (%s)", b, rc, err.msg);
      cr_expect_eq(err.code, XQ_EAMBIGUOUS);
      cr_expect(strstr(err.msg, "ambiguous") != NULL, "message: %s", err.msg);
      ambs++;
    } else {
      cr_assert_eq(sscanf(line, "%95s %95s %95s", a, b, c), 3, "bad line: %s", line);
      xq_move m = parse_ok(&pos, a, XQ_NOTE_ICCS);
      expect_prints(&pos, m, XQ_NOTE_WXF, b);
      expect_prints(&pos, m, XQ_NOTE_CHINESE, c);
      expect_parses(&pos, b, XQ_NOTE_WXF, m);
      expect_parses(&pos, c, XQ_NOTE_CHINESE, m);
      wxf_variants(&pos, b, m);
      chinese_variants(&pos, c, m);
      rows++;
    }
  }
  fclose(f);
  cr_expect_eq(rows, 32);
  cr_expect(alts >= 30, "only %d alternative spellings", alts);
  cr_expect(ambs >= 6, "only %d ambiguous rows", ambs);
}

/* xqbase's numeric-keypad piece codes (1 = K ... 7 = P) on the start
 * position, where no pawn file is doubled. */
Test(dialects, keypad_codes)
{
  xq_pos pos;
  xq_pos_startpos(&pos);
  static const struct {
    const char *text, *iccs;
  } rows[] = {{"62.5", "h2e2"}, {"42+3", "h0g2"}, {"51+1", "i0i1"}, {"73+1", "g3g4"},
              {"37+5", "c0e2"}, {"24+5", "f0e1"}, {"15+1", "e0e1"}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    expect_parses(&pos, rows[i].text, XQ_NOTE_WXF, parse_ok(&pos, rows[i].iccs, XQ_NOTE_ICCS));
}

/* Full-width letters, digits and signs are the same WXF and ICCS notation
 * (a whole master archive is written Ｃ２＝５ Ｈ８＋７). */
Test(dialects, full_width_ascii)
{
  xq_pos pos;
  xq_pos_startpos(&pos);
  static const struct {
    const char *text, *iccs;
    xq_notation n;
  } rows[] = {{"Ｃ２＝５", "h2e2", XQ_NOTE_WXF},   {"Ｃ２．５", "h2e2", XQ_NOTE_WXF},
              {"Ｈ２＋３", "h0g2", XQ_NOTE_WXF},   {"ｃ８＝５", "b2e2", XQ_NOTE_WXF},
              {"Ｒ１＋１＋", "i0i1", XQ_NOTE_WXF}, {"Ｈ２－Ｅ２", "h2e2", XQ_NOTE_ICCS_PGN},
              {"ｈ２ｅ２", "h2e2", XQ_NOTE_ICCS},  {"Ｃ2=５", "h2e2", XQ_NOTE_WXF}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    xq_move want = parse_ok(&pos, rows[i].iccs, XQ_NOTE_ICCS);
    expect_parses(&pos, rows[i].text, rows[i].n, want);
    xq_move m;
    xq_error err;
    cr_expect_eq(xq_move_parse_any(&pos, rows[i].text, &m, &err), XQ_OK, "%s: %s", rows[i].text,
                 err.msg);
    cr_expect_eq(m, want, "%s", rows[i].text);
  }
  /* Chinese keeps its own full-width digits */
  expect_parses(&pos, "炮２平５", XQ_NOTE_CHINESE, parse_ok(&pos, "h2e2", XQ_NOTE_ICCS));
  /* full-width text that is no move is reported as WXF */
  xq_move m;
  xq_error err;
  cr_expect_eq(xq_move_parse_any(&pos, "Ｚ２＝５", &m, &err), XQ_ENOTATION);
  cr_expect(strstr(err.msg, "WXF") != NULL, "%s", err.msg);
}

/* ---- print then parse, over random playouts ----------------------- */

/* xorshift64*: a small fixed-seed generator. */
static uint64_t rng_next(uint64_t *s)
{
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1DULL;
}

/* Printed moves that needed tandem marks (WXF + - or a file digit for
 * the piece; Chinese 前/中/后/一…五), to show the playouts reach them. */
static long tandem_wxf, tandem_chinese;

static void count_tandem(xq_notation n, const char *text)
{
  if (n == XQ_NOTE_WXF && (text[1] == '+' || text[1] == '-' || text[0] < 'A'))
    tandem_wxf++;
  if (n == XQ_NOTE_CHINESE) {
    static const char *const marks[] = {"前", "中", "后", "一", "二", "三", "四", "五"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
      if (strncmp(text, marks[i], 3) == 0 && strncmp(text + 3, "平", 3) != 0 &&
          strncmp(text + 3, "进", 3) != 0 && strncmp(text + 3, "退", 3) != 0)
        tandem_chinese++;
  }
}

/* Every legal move of `pos` must print and parse back to itself in every
 * notation, also through parse_any. Returns the number of moves. */
static int round_trip_all(const xq_pos *pos)
{
  xq_movelist list;
  char fen[XQ_FEN_MAX];
  xq_gen_legal(pos, &list);
  for (int i = 0; i < list.n; i++) {
    for (int k = 0; k < 4; k++) {
      xq_notation n = all_notations[k];
      char buf[XQ_MOVE_TEXT_MAX], mv[8];
      xq_error err = {0, 0, 0, ""};
      xq_move got = XQ_MOVE_NONE;
      int len = xq_move_format(pos, list.m[i], n, buf, sizeof buf);
      if (len <= 0) {
        xq_fen_format(pos, fen, sizeof fen);
        cr_assert_fail("%s format of %s failed in %s", notation_names[k],
                       move_name(list.m[i], mv), fen);
      }
      count_tandem(n, buf);
      int rc = xq_move_parse(pos, buf, n, &got, &err);
      if (rc != XQ_OK || got != list.m[i]) {
        xq_fen_format(pos, fen, sizeof fen);
        cr_assert_fail("%s: %s printed \"%s\", parsed rc %d (%s) move %d in %s",
                       notation_names[k], move_name(list.m[i], mv), buf, rc, err.msg, got,
                       fen);
      }
      got = XQ_MOVE_NONE;
      rc = xq_move_parse_any(pos, buf, &got, &err);
      if (rc != XQ_OK || got != list.m[i]) {
        xq_fen_format(pos, fen, sizeof fen);
        cr_assert_fail("parse_any: %s printed \"%s\", rc %d (%s) in %s",
                       move_name(list.m[i], mv), buf, rc, err.msg, fen);
      }
    }
  }
  return list.n;
}

/* `games` random playouts of up to `plies` plies from `fen`; returns the
 * number of moves checked. */
static long playouts(const char *fen, int games, int plies, uint64_t seed)
{
  long checked = 0;
  uint64_t s = seed;
  xq_pos start = load(fen);
  for (int g = 0; g < games; g++) {
    xq_pos pos = start;
    for (int p = 0; p < plies; p++) {
      xq_movelist list;
      checked += round_trip_all(&pos);
      xq_gen_legal(&pos, &list);
      if (list.n == 0) break;
      xq_undo u;
      xq_make(&pos, list.m[rng_next(&s) % (uint64_t)list.n], &u);
    }
    checked += round_trip_all(&pos);
  }
  return checked;
}

/* 300 playouts from the start position, in four parallel parts; fewer
 * where XQ_TEST_PLAYOUTS says (the sanitizer tree of scripts/test.sh:
 * each check there costs several times as much, and a memory or UB error
 * of the notations shows in the first positions as well as the last). */
#define START_PLAYOUTS 300
#define PLAYOUT_PLIES 150

static int start_playouts(void)
{
  const char *s = getenv("XQ_TEST_PLAYOUTS");
  int n = s ? atoi(s) : START_PLAYOUTS;
  return n >= 4 && n <= START_PLAYOUTS ? n : START_PLAYOUTS;
}

static void start_part(int part)
{
  int games = start_playouts() / 4;
  long n = playouts(XQ_START_FEN, games, PLAYOUT_PLIES,
                    0x9E3779B97F4A7C15ULL * (uint64_t)(part + 1));
  cr_expect(n > 100000L * games / (START_PLAYOUTS / 4), "only %ld moves checked in %d playouts", n,
            games);
  cr_expect(tandem_wxf > 100 && tandem_chinese > 100, "tandem prints: %ld WXF, %ld Chinese",
            tandem_wxf, tandem_chinese);
  cr_log_info("start playouts part %d: %ld moves x 4 notations, %ld/%ld tandem prints",
              part + 1, n, tandem_wxf, tandem_chinese);
}

Test(property, start_playouts_1, .timeout = 600) { start_part(0); }
Test(property, start_playouts_2, .timeout = 600) { start_part(1); }
Test(property, start_playouts_3, .timeout = 600) { start_part(2); }
Test(property, start_playouts_4, .timeout = 600) { start_part(3); }

/* Positions full of twins: doubled rooks, cannons, horses, 3+2 and 5
 * pawns, for both colours. */
static const char *const tandem_fens[] = {
    "r3k4/8P/r1c6/8P/2c4R1/4p1p2/4p1p2/7R1/4A4/3K5 w",
    "4k4/9/1C7/9/1C3H3/2p3p2/2p3p2/2p2H3/9/3K5 b",
    "5k3/9/2P3P2/2P3P2/6P2/9/9/9/9/4K4 w",
    "2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w",
    "4k4/3P1P3/9/3P1P3/9/9/9/9/9/3K5 w",
    "3k5/9/3r5/9/3r5/9/9/9/9/4K4 b",
    "3k5/9/9/9/9/2B6/9/3A5/9/2BAK4 w",
};

Test(property, tandem_playouts, .timeout = 600)
{
  long n = 0;
  for (size_t i = 0; i < sizeof tandem_fens / sizeof tandem_fens[0]; i++)
    n += playouts(tandem_fens[i], 12, PLAYOUT_PLIES, 0xC0FFEEULL + i);
  cr_expect(n > 10000, "only %ld moves checked", n);
  cr_expect(tandem_wxf > 1000 && tandem_chinese > 1000, "tandem prints: %ld WXF, %ld Chinese",
            tandem_wxf, tandem_chinese);
  cr_log_info("tandem playouts: %ld moves x 4 notations, %ld/%ld tandem prints", n, tandem_wxf,
              tandem_chinese);
}

/* ---- errors ------------------------------------------------------- */

/* `text` must fail in `n` with `code` and a message containing `msg`;
 * `at` >= -1 is the expected byte position. */
static void expect_error(const xq_pos *pos, const char *text, xq_notation n, int code,
                         const char *msg, int at)
{
  xq_error err = {0, 0, 0, ""};
  xq_move m = (xq_move)0x1234;
  int rc = xq_move_parse(pos, text, n, &m, &err);
  cr_expect_eq(rc, code, "%s \"%s\": rc %d, wanted %d (%s)", notation_names[n], text, rc, code,
               err.msg);
  cr_expect_eq(err.code, code, "\"%s\": err.code %d", text, err.code);
  cr_expect(strstr(err.msg, msg) != NULL, "\"%s\": message \"%s\" lacks \"%s\"", text, err.msg,
            msg);
  if (at >= -1) cr_expect_eq(err.pos, at, "\"%s\": pos %d, wanted %d", text, err.pos, at);
  cr_expect_eq(err.ply, -1);
  cr_expect_eq(m, (xq_move)0x1234, "\"%s\": *m written on failure", text);
  cr_expect_eq(xq_move_parse(pos, text, n, &m, NULL), code, "\"%s\" with err NULL", text);
}

Test(errors, iccs)
{
  xq_pos pos;
  xq_pos_startpos(&pos);
  expect_error(&pos, "z2e2", XQ_NOTE_ICCS, XQ_ENOTATION, "'z2e2' is not ICCS", 0);
  expect_error(&pos, "h2e", XQ_NOTE_ICCS, XQ_ENOTATION, "too short", -2);
  expect_error(&pos, "hxe2", XQ_NOTE_ICCS, XQ_ENOTATION, "rank digit", 1);
  expect_error(&pos, "h10g8", XQ_NOTE_ICCS, XQ_ENOTATION, "ranks are 0-9", 2);
  expect_error(&pos, "h2e2x", XQ_NOTE_ICCS_PGN, XQ_ENOTATION, "unexpected", 4);
  expect_error(&pos, "e5e6", XQ_NOTE_ICCS, XQ_EILLEGAL, "e5e6 is not legal: no Red piece on e5",
               0);
  expect_error(&pos, "H9-G7", XQ_NOTE_ICCS_PGN, XQ_EILLEGAL,
               "H9-G7 is not legal: no Red piece on h9", 0);
  expect_error(&pos, "b0b2", XQ_NOTE_ICCS, XQ_EILLEGAL, "cannot take its own piece", 0);
  expect_error(&pos, "a0a5", XQ_NOTE_ICCS, XQ_EILLEGAL, "the rook on a0 cannot move to a5", 0);
  expect_error(&pos, "0000", XQ_NOTE_ICCS, XQ_EILLEGAL, "null move", -2);
  expect_error(&pos, "h2h2", XQ_NOTE_ICCS, XQ_EILLEGAL, "must change square", -2);
  xq_pos pin = load("4k4/9/9/9/4r4/9/9/9/4R4/4K4 w");
  expect_error(&pin, "e1d1", XQ_NOTE_ICCS, XQ_EILLEGAL,
               "e1d1 is not legal: the rook on e1 moving to d1 would leave the Red general in check",
               0);
  /* The error position counts the blanks skipped in front. */
  expect_error(&pos, "  z2e2", XQ_NOTE_ICCS, XQ_ENOTATION, "not ICCS", 2);
}

Test(errors, wxf)
{
  xq_pos pos;
  xq_pos_startpos(&pos);
  expect_error(&pos, "X9.9", XQ_NOTE_WXF, XQ_ENOTATION,
               "'X9.9' is not WXF: unknown piece letter 'X'", 0);
  expect_error(&pos, "C2*5", XQ_NOTE_WXF, XQ_ENOTATION, "not a direction", 2);
  expect_error(&pos, "C2.0", XQ_NOTE_WXF, XQ_ENOTATION, "not a value", 3);
  expect_error(&pos, "C2.", XQ_NOTE_WXF, XQ_ENOTATION, "missing the value", 3);
  expect_error(&pos, "C2+", XQ_NOTE_WXF, XQ_ENOTATION, "missing the value", 3);
  expect_error(&pos, "C2.5x", XQ_NOTE_WXF, XQ_ENOTATION, "unexpected 'x'", 4);
  expect_error(&pos, "C", XQ_NOTE_WXF, XQ_ENOTATION, "too short", -2);
  expect_error(&pos, "CX.5", XQ_NOTE_WXF, XQ_ENOTATION, "not a file", 1);
  expect_error(&pos, "+D.5", XQ_NOTE_WXF, XQ_ENOTATION, "unknown piece letter 'D'", 1);
  expect_error(&pos, "C3.5", XQ_NOTE_WXF, XQ_EILLEGAL, "C3.5 is not legal: Red has no cannon on file 3",
               0);
  expect_error(&pos, "R1+3", XQ_NOTE_WXF, XQ_EILLEGAL,
               "R1+3 is not legal: no Red rook on file 1 can make that move", 0);
  expect_error(&pos, "C+.5", XQ_NOTE_WXF, XQ_EILLEGAL, "is not legal", 0);
  xq_pos two = load("3k5/9/9/9/9/8R/9/9/9/4K3R w");
  expect_error(&two, "R1+1", XQ_NOTE_WXF, XQ_EAMBIGUOUS,
               "'R1+1' is ambiguous: it may be R++1 or R-+1", 0);
  expect_parses(&two, "R++1", XQ_NOTE_WXF, parse_ok(&two, "i4i5", XQ_NOTE_ICCS));
  expect_parses(&two, "R-+1", XQ_NOTE_WXF, parse_ok(&two, "i0i1", XQ_NOTE_ICCS));
  /* A plain file digit for a tandem piece is fine when only one fits. */
  expect_parses(&two, "R1+5", XQ_NOTE_WXF, parse_ok(&two, "i4i9", XQ_NOTE_ICCS));
}

Test(errors, chinese)
{
  xq_pos pos;
  xq_pos_startpos(&pos);
  expect_error(&pos, "炮二平", XQ_NOTE_CHINESE, XQ_ENOTATION, "too short", -2);
  expect_error(&pos, "炮二走五", XQ_NOTE_CHINESE, XQ_ENOTATION, "unknown character '走'", 6);
  expect_error(&pos, "炮二二五", XQ_NOTE_CHINESE, XQ_ENOTATION, "expected 进, 退 or 平", 6);
  expect_error(&pos, "炮二平车", XQ_NOTE_CHINESE, XQ_ENOTATION, "expected a number", 9);
  expect_error(&pos, "平炮二五", XQ_NOTE_CHINESE, XQ_ENOTATION, "is not Chinese notation", -2);
  expect_error(&pos, "炮炮平五", XQ_NOTE_CHINESE, XQ_ENOTATION, "unexpected character", 3);
  expect_error(&pos, "炮二平五六七", XQ_NOTE_CHINESE, XQ_ENOTATION, "too long", 15);
  expect_error(&pos, "炮二平五!五", XQ_NOTE_CHINESE, XQ_ENOTATION, "unexpected text after the move", 13);
  expect_error(&pos, "\xe7\x82", XQ_NOTE_CHINESE, XQ_ENOTATION, "unknown character", 0);
  expect_error(&pos, "炮三平五", XQ_NOTE_CHINESE, XQ_EILLEGAL,
               "炮三平五 is not legal: Red has no cannon on file 3", 0);
  expect_error(&pos, "车一进三", XQ_NOTE_CHINESE, XQ_EILLEGAL, "no Red rook on file 1 can", 0);
  expect_error(&pos, "二炮平五", XQ_NOTE_CHINESE, XQ_EILLEGAL, "is not legal", 0);
  xq_pos two = load("3k5/9/9/9/9/8R/9/9/9/4K3R w");
  expect_error(&two, "车一进一", XQ_NOTE_CHINESE, XQ_EAMBIGUOUS,
               "'车一进一' is ambiguous: it may be 前车进一 or 后车进一", 0);
  expect_parses(&two, "前车进一", XQ_NOTE_CHINESE, parse_ok(&two, "i4i5", XQ_NOTE_ICCS));
  /* With the annotation stripped the move still parses. */
  expect_parses(&pos, "炮二平五！", XQ_NOTE_CHINESE, parse_ok(&pos, "h2e2", XQ_NOTE_ICCS));
  expect_parses(&pos, "\xe3\x80\x80炮二平五 ", XQ_NOTE_CHINESE, parse_ok(&pos, "h2e2", XQ_NOTE_ICCS));
}

Test(errors, limits_and_arguments)
{
  xq_pos pos;
  xq_move m;
  xq_error err;
  char buf[XQ_MOVE_TEXT_MAX];
  char big[200];
  xq_pos_startpos(&pos);

  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = 0;
  for (int k = 0; k < 4; k++)
    expect_error(&pos, big, all_notations[k], XQ_ENOTATION, "too long", -1);
  /* The limit itself: 2 * XQ_MOVE_TEXT_MAX bytes of blanks around a move. */
  memset(big, ' ', sizeof big);
  memcpy(big + 30, "h2e2", 4);
  big[2 * XQ_MOVE_TEXT_MAX] = 0;
  expect_parses(&pos, big, XQ_NOTE_ICCS, parse_ok(&pos, "h2e2", XQ_NOTE_ICCS));
  big[2 * XQ_MOVE_TEXT_MAX] = ' ';
  big[2 * XQ_MOVE_TEXT_MAX + 1] = 0;
  expect_error(&pos, big, XQ_NOTE_ICCS, XQ_ENOTATION, "too long", -1);
  expect_error(&pos, "", XQ_NOTE_WXF, XQ_ENOTATION, "empty", -1);
  expect_error(&pos, " \t ", XQ_NOTE_CHINESE, XQ_ENOTATION, "empty", -1);

  cr_expect_eq(xq_move_parse(NULL, "h2e2", XQ_NOTE_ICCS, &m, &err), XQ_EINVAL);
  cr_expect_eq(xq_move_parse(&pos, NULL, XQ_NOTE_ICCS, &m, &err), XQ_EINVAL);
  cr_expect_eq(xq_move_parse(&pos, "h2e2", XQ_NOTE_ICCS, NULL, NULL), XQ_EINVAL);
  cr_expect_eq(xq_move_parse(&pos, "h2e2", (xq_notation)9, &m, &err), XQ_EINVAL);
  cr_expect_eq(xq_move_parse_any(&pos, NULL, &m, NULL), XQ_EINVAL);

  xq_move h2e2 = parse_ok(&pos, "h2e2", XQ_NOTE_ICCS);
  cr_expect_eq(xq_move_format(NULL, h2e2, XQ_NOTE_ICCS, buf, sizeof buf), XQ_EINVAL);
  cr_expect_eq(xq_move_format(&pos, h2e2, XQ_NOTE_ICCS, NULL, sizeof buf), XQ_EINVAL);
  cr_expect_eq(xq_move_format(&pos, h2e2, (xq_notation)9, buf, sizeof buf), XQ_EINVAL);
  cr_expect_eq(xq_move_format(&pos, XQ_MOVE(XQ_SQ(4, 5), XQ_SQ(4, 6)), XQ_NOTE_WXF, buf,
                              sizeof buf),
               XQ_EINVAL, "illegal move");
  cr_expect_eq(xq_move_format(&pos, h2e2, XQ_NOTE_ICCS, buf, 4), XQ_EINVAL, "buffer too small");
  cr_expect_eq(xq_move_format(&pos, h2e2, XQ_NOTE_ICCS, buf, 5), 4);
  cr_expect_str_eq(buf, "h2e2");
  cr_expect_eq(xq_move_format(&pos, h2e2, XQ_NOTE_CHINESE, buf, 12), XQ_EINVAL);
  cr_expect_eq(xq_move_format(&pos, h2e2, XQ_NOTE_CHINESE, buf, 13), 12);
}

Test(errors, parse_any)
{
  xq_pos pos;
  xq_error err = {0, 0, 0, ""};
  xq_move m;
  xq_pos_startpos(&pos);
  xq_move h2e2 = parse_ok(&pos, "h2e2", XQ_NOTE_ICCS);
  expect_parses(&pos, "H2-E2", XQ_NOTE_ICCS_PGN, h2e2);
  expect_parses(&pos, "C2.5", XQ_NOTE_WXF, h2e2);
  expect_parses(&pos, "炮二平五", XQ_NOTE_CHINESE, h2e2);
  /* Well-formed ICCS decides, even when illegal. */
  cr_expect_eq(xq_move_parse_any(&pos, "e5e6", &m, &err), XQ_EILLEGAL);
  cr_expect(strstr(err.msg, "no Red piece on e5") != NULL, "%s", err.msg);
  /* Well-formed WXF decides too. */
  cr_expect_eq(xq_move_parse_any(&pos, "C3.5", &m, &err), XQ_EILLEGAL);
  cr_expect(strstr(err.msg, "no cannon on file 3") != NULL, "%s", err.msg);
  /* Malformed everywhere: the message names the notation it looks like. */
  cr_expect_eq(xq_move_parse_any(&pos, "h10g8", &m, &err), XQ_ENOTATION);
  cr_expect(strstr(err.msg, "not ICCS") != NULL, "%s", err.msg);
  cr_expect_eq(xq_move_parse_any(&pos, "X9.9", &m, &err), XQ_ENOTATION);
  cr_expect(strstr(err.msg, "not WXF") != NULL, "%s", err.msg);
  cr_expect_eq(xq_move_parse_any(&pos, "炮二走五", &m, &err), XQ_ENOTATION);
  cr_expect(strstr(err.msg, "not Chinese") != NULL, "%s", err.msg);
  cr_expect_eq(xq_move_parse_any(&pos, "??", &m, NULL), XQ_ENOTATION);
}

/* ---- random garbage ----------------------------------------------- */

#define GARBAGE_STRINGS 10000

/* Pieces of real move texts, so that garbage sometimes gets far. */
static const char *const atoms[] = {
    "h", "2", "e", "-", "+", ".", "=", "C", "P", "R", "a", "0", "9", "!", "#", " ",
    "炮", "二", "平", "五", "前", "后", "中", "兵", "卒", "１", "９", "进", "退", "马", "車",
    "\xe7\x82", "\xff", "\x80", "\x01", "一", "\xe3\x80\x80"};

Test(garbage, never_crashes, .timeout = 300)
{
  uint64_t s = 0xDEADBEEFCAFEULL;
  xq_pos positions[3];
  xq_pos_startpos(&positions[0]);
  positions[1] = load(tandem_fens[0]);
  positions[2] = load(tandem_fens[1]);
  int ok = 0;

  for (int i = 0; i < GARBAGE_STRINGS; i++) {
    char tmp[128];
    size_t n = 0;
    int len = (int)(rng_next(&s) % 24);
    int mode = (int)(rng_next(&s) % 2);
    for (int k = 0; k < len && n < 100; k++) {
      if (mode == 0) {
        tmp[n] = (char)(1 + rng_next(&s) % 255); /* any byte but NUL */
        n++;
      } else {
        const char *a = atoms[rng_next(&s) % (sizeof atoms / sizeof atoms[0])];
        size_t al = strlen(a);
        if (n + al >= 100) break;
        memcpy(tmp + n, a, al);
        n += al;
      }
    }
    /* An exactly-sized heap copy lets the sanitizer catch over-reads. */
    char *text = malloc(n + 1);
    cr_assert_not_null(text);
    memcpy(text, tmp, n);
    text[n] = 0;
    const xq_pos *pos = &positions[i % 3];
    for (int k = 0; k < 5; k++) {
      xq_error err;
      xq_move m = XQ_MOVE_NONE;
      memset(&err, 0x5A, sizeof err);
      int rc = k < 4 ? xq_move_parse(pos, text, all_notations[k], &m, &err)
                     : xq_move_parse_any(pos, text, &m, &err);
      cr_assert(rc == XQ_OK || rc == XQ_ENOTATION || rc == XQ_EILLEGAL || rc == XQ_EAMBIGUOUS,
                "rc %d", rc);
      if (rc == XQ_OK) {
        cr_assert(xq_is_legal(pos, m));
        ok++;
      } else {
        cr_assert_eq(err.code, rc);
        cr_assert(memchr(err.msg, 0, sizeof err.msg) != NULL);
        cr_assert(err.pos >= -1 && err.pos <= (int)n, "pos %d of %zu", err.pos, n);
      }
      (void)(k < 4 ? xq_move_parse(pos, text, all_notations[k], &m, NULL)
                   : xq_move_parse_any(pos, text, &m, NULL));
    }
    free(text);
  }
  (void)ok;
}

/* xq_move_format_legal prints every legal move as xq_move_format does
 * (the verdicts use it on moves already found legal), along a game from
 * the start; it refuses an empty from-square and a bad move number. */
Test(format, the_legal_form_prints_what_the_checked_one_does)
{
  xq_pos p;
  xq_error e;
  cr_assert_eq(xq_fen_parse(&p, XQ_START_FEN, 0, &e), XQ_OK);
  static const xq_notation notes[] = {XQ_NOTE_ICCS, XQ_NOTE_ICCS_PGN, XQ_NOTE_WXF, XQ_NOTE_CHINESE};
  for (int ply = 0; ply < 40; ply++) {
    xq_movelist l;
    xq_gen_legal(&p, &l);
    if (!l.n) break;
    for (int i = 0; i < l.n; i++)
      for (int k = 0; k < 4; k++) {
        char a[XQ_MOVE_TEXT_MAX], b[XQ_MOVE_TEXT_MAX];
        int na = xq_move_format(&p, l.m[i], notes[k], a, sizeof a);
        int nb = xq_move_format_legal(&p, l.m[i], notes[k], b, sizeof b);
        cr_assert_eq(na, nb);
        cr_assert_str_eq(a, b);
      }
    xq_undo u;
    xq_make(&p, l.m[(ply * 7) % l.n], &u);
  }
  char buf[XQ_MOVE_TEXT_MAX];
  cr_assert_eq(xq_fen_parse(&p, XQ_START_FEN, 0, &e), XQ_OK);
  xq_move empty = XQ_MOVE(XQ_SQ(4, 4), XQ_SQ(4, 5));
  cr_assert_eq(xq_move_format_legal(&p, empty, XQ_NOTE_CHINESE, buf, sizeof buf), XQ_EINVAL);
  cr_assert_eq(xq_move_format_legal(&p, (xq_move)0xFFFF, XQ_NOTE_CHINESE, buf, sizeof buf), XQ_EINVAL);
}
