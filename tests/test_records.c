/*
 * test_records.c -- game records (docs/records.md, "PGN reading"; docs/records.md, "DhtmlXQ"): the real games of the
 * notation examples read from PGN (ICCS, WXF, Chinese, GBK + CRLF) and
 * DhtmlXQ give the same moves; write -> read round trips; the real XQF
 * files give the header and moves their README lists; XQF files built
 * here cover the other versions, encrypted ones included, and malformed or
 * truncated files give errors; a generated multi-game PGN with broken
 * games reads every good game and reports each broken one once.
 */
#include <criterion/criterion.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "records.h"
#include "support.h"

#define DATA XQ_TEST_DATA "/records/"
#define XQF XQ_TEST_DATA "/xqf/"
#define TEXT_LINE_MAX 8192
#define PLIES_MAX 512

/* ---- helpers ------------------------------------------------------ */

static xq_record *new_record(void)
{
  xq_record *r = malloc(sizeof *r);
  cr_assert_not_null(r);
  xq_record_init(r);
  return r;
}

static void drop_record(xq_record *r)
{
  xq_record_free(r);
  free(r);
}

static void uci(xq_move m, char *out)
{
  out[0] = (char)('a' + XQ_FILE(XQ_FROM(m)));
  out[1] = (char)('0' + XQ_RANK(XQ_FROM(m)));
  out[2] = (char)('a' + XQ_FILE(XQ_TO(m)));
  out[3] = (char)('0' + XQ_RANK(XQ_TO(m)));
  out[4] = '\0';
}

/* Space-separated Chinese text of the main line. */
static void chinese_text(const xq_record *r, char *out, size_t cap)
{
  size_t n = 0;
  xq_pos pos = r->start;
  out[0] = '\0';
  for (int i = 0; i < r->n_moves && n + XQ_MOVE_TEXT_MAX + 1 < cap; i++) {
    char m[XQ_MOVE_TEXT_MAX];
    xq_undo u;
    xq_move_format(&pos, r->moves[i], XQ_NOTE_CHINESE, m, sizeof m);
    n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? " " : "", m);
    xq_make(&pos, r->moves[i], &u);
  }
}

/* Space-separated UCCI text of the main line. */
static void moves_text(const xq_record *r, char *out, size_t cap)
{
  size_t n = 0;
  out[0] = '\0';
  for (int i = 0; i < r->n_moves && n + 6 < cap; i++) {
    char m[8];
    uci(r->moves[i], m);
    n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? " " : "", m);
  }
}

/* Expected main line of fixture game `name` from expected.txt. */
static void expected(const char *name, char *out, size_t cap)
{
  FILE *f = fopen(DATA "expected.txt", "r");
  char line[TEXT_LINE_MAX];
  cr_assert_not_null(f);
  out[0] = '\0';
  while (fgets(line, sizeof line, f)) {
    char g[32];
    int k;
    if (sscanf(line, "game %31s %n", g, &k) == 1 && !strcmp(g, name)) {
      line[strcspn(line, "\n")] = '\0';
      memcpy(out, line + k, strlen(line + k) + 1 < cap ? strlen(line + k) + 1 : 0);
    }
  }
  fclose(f);
  cr_assert(out[0], "no expected line for game %s", name);
}

/* Read the first game of `path`, which must be good. */
static void read_ok(const char *path, xq_record *r)
{
  xq_error err = {0, 0, 0, ""};
  int rc = xq_record_read_file(path, r, &err);
  cr_assert_eq(rc, XQ_OK, "%s: %s", path, err.msg);
}

/* Whole content of a memory stream as a new string. */
typedef struct membuf {
  char *p;
  size_t n;
  FILE *f;
} membuf;

static void mem_open(membuf *m)
{
  m->p = NULL;
  m->n = 0;
  m->f = open_memstream(&m->p, &m->n);
  cr_assert_not_null(m->f);
}

static void mem_close(membuf *m)
{
  fclose(m->f);
}

/* Two records hold the same game: start, moves, result, variations and
 * comments (tags are compared by the callers that care). */
static void same_game(xq_record *a, xq_record *b, const char *what)
{
  char fa[XQ_FEN_MAX], fb[XQ_FEN_MAX];
  xq_fen_format(&a->start, fa, sizeof fa);
  xq_fen_format(&b->start, fb, sizeof fb);
  if (strstr(what, "DhtmlXQ")) { /* DhtmlXQ keeps no move counters */
    *strstr(fa, " - ") = '\0';
    *strstr(fb, " - ") = '\0';
  }
  cr_assert_str_eq(fa, fb, "%s: start", what);
  cr_assert_eq(a->n_moves, b->n_moves, "%s: %d plies, then %d", what, a->n_moves, b->n_moves);
  for (int i = 0; i < a->n_moves; i++)
    cr_assert_eq(a->moves[i], b->moves[i], "%s: ply %d differs", what, i + 1);
  cr_assert_eq(a->result, b->result, "%s: result", what);
  cr_assert_eq(a->n_vars, b->n_vars, "%s: %d variations, then %d", what, a->n_vars, b->n_vars);
  for (int v = 1; v <= a->n_vars; v++) {
    const xq_move *ma, *mb;
    int na, nb;
    xq_record_line(a, v, &ma, &na);
    xq_record_line(b, v, &mb, &nb);
    cr_assert_eq(a->vars[v - 1].parent, b->vars[v - 1].parent, "%s: variation %d parent", what, v);
    cr_assert_eq(a->vars[v - 1].at, b->vars[v - 1].at, "%s: variation %d place", what, v);
    cr_assert_eq(na, nb, "%s: variation %d length", what, v);
    for (int i = 0; i < na; i++) cr_assert_eq(ma[i], mb[i], "%s: variation %d move %d", what, v, i);
  }
  cr_assert_eq(a->n_comments, b->n_comments, "%s: %d comments, then %d", what, a->n_comments,
               b->n_comments);
  for (int i = 0; i < a->n_comments; i++) {
    const xq_comment *ca = &a->comments[i];
    int found = 0;
    for (int j = 0; j < b->n_comments && !found; j++) {
      const xq_comment *cb = &b->comments[j];
      found = ca->line == cb->line && ca->after == cb->after && ca->len == cb->len &&
              !memcmp(a->text + ca->off, b->text + cb->off, ca->len);
    }
    cr_assert(found, "%s: comment %d (line %d after %d) lost", what, i, ca->line, ca->after);
  }
}

/* ---- the real games in every format ------------------------------- */

Test(records, examples_same_moves_in_every_format)
{
  static const struct {
    const char *file, *game;
  } cases[] = {
    {"gameA.dhtml", "A"},         {"gameA_chinese.pgn", "A"}, {"gameA_wxf.pgn", "A"},
    {"gameA_iccs.pgn", "A"},      {"gameB_iccs.pgn", "B"},    {"gameB_wxf.pgn", "B"},
    {"gameB_chinese.pgn", "B"},   {"gameC_chinese.pgn", "C"}, {"gameC_gbk_crlf.pgn", "C"},
    {"xqbase_wxf.pgn", "xqbase"}, {"gameA_big5_crlf.pgn", "A"},
  };
  xq_record *r = new_record();
  char want[TEXT_LINE_MAX], got[TEXT_LINE_MAX], path[256];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    snprintf(path, sizeof path, DATA "%s", cases[i].file);
    read_ok(path, r);
    expected(cases[i].game, want, sizeof want);
    chinese_text(r, got, sizeof got);
    cr_expect_str_eq(got, want, "%s", cases[i].file);
  }
  drop_record(r);
}

Test(records, dhtmlxq_fixture_tags)
{
  xq_record *r = new_record();
  read_ok(DATA "gameA.dhtml", r);
  cr_expect_str_eq(xq_record_tag(r, "Red"), "陳建宇");
  cr_expect_str_eq(xq_record_tag(r, "Black"), "王韋中");
  cr_expect_str_eq(xq_record_tag(r, "Date"), "2018.03.24");
  cr_expect_str_eq(xq_record_tag(r, "Site"), "七張");
  cr_expect_str_eq(xq_record_tag(r, "ECCO"), "D29");
  cr_expect_str_eq(xq_record_tag(r, "Opening"), "顺炮直车对横车");
  cr_expect_eq(r->result, XQ_RESULT_RED_WINS);
  char fen[XQ_FEN_MAX];
  xq_fen_format(&r->end, fen, sizeof fen);
  cr_expect(!strncmp(fen, "2b1kan2/1NcR5/4b1n2/4p3p/5P3/C8/P5r1P/B8/4A4/3K1AB2 b ", 53), "%s",
            fen);
  drop_record(r);
}

Test(records, big5_tags)
{
  xq_record *r = new_record();
  read_ok(DATA "gameA_big5_crlf.pgn", r);
  cr_expect_str_eq(xq_record_tag(r, "Event"), "2018「棋夢盃」全國象棋等級分分組排名試驗賽");
  cr_expect_str_eq(xq_record_tag(r, "Red"), "陳建宇");
  drop_record(r);
}

Test(records, gbk_crlf_keeps_tags_and_comments)
{
  xq_record *u = new_record(), *g = new_record();
  read_ok(DATA "gameC_chinese.pgn", u);
  read_ok(DATA "gameC_gbk_crlf.pgn", g);
  same_game(u, g, "GBK copy");
  cr_expect_str_eq(xq_record_tag(g, "Red"), "永远在路上(北斗)");
  cr_expect_str_eq(xq_record_tag(g, "TimeControl"), "15-5-15");
  cr_assert_eq(g->n_comments, 2);
  cr_expect_eq(g->comments[0].after, 0);
  cr_expect(!memcmp(g->text + g->comments[0].off, "开局评注", g->comments[0].len));
  cr_expect_eq(g->comments[1].after, 11);
  drop_record(u);
  drop_record(g);
}

/* ---- round trips --------------------------------------------------- */

static void roundtrip_all(xq_record *r, const char *what)
{
  static const xq_notation notes[3] = {XQ_NOTE_ICCS, XQ_NOTE_WXF, XQ_NOTE_CHINESE};
  static const char *const names[3] = {"ICCS", "WXF", "Chinese"};
  xq_record *back = new_record();
  xq_error err = {0, 0, 0, ""};
  char label[128];

  for (int n = 0; n < 3; n++) {
    membuf m;
    mem_open(&m);
    cr_assert_eq(xq_pgn_write(m.f, r, notes[n], n == 1 ? XQ_PGN_CRLF : 0, &err), XQ_OK);
    mem_close(&m);
    if (n == 0) cr_assert(strstr(m.p, "[Format \"ICCS\"]") != NULL);
    FILE *in = fmemopen(m.p, m.n, "r");
    xq_pgn_reader *rd;
    cr_assert_eq(xq_pgn_open(&rd, in, XQ_PGN_VARIATIONS), XQ_OK);
    int rc = xq_pgn_next(rd, back, &err);
    snprintf(label, sizeof label, "%s via PGN %s", what, names[n]);
    cr_assert_eq(rc, 1, "%s: rc %d: %s\n%s", label, rc, err.msg, m.p);
    same_game(r, back, label);
    for (int t = 0; t < r->n_tags; t++)
      if (strcmp(r->tags[t].name, "Format"))
        cr_expect_str_eq(xq_record_tag(back, r->tags[t].name), r->tags[t].value, "%s: tag %s",
                         label, r->tags[t].name);
    cr_assert_eq(xq_pgn_next(rd, back, &err), 0, "%s: one game only", label);
    xq_pgn_close(rd);
    fclose(in);
    free(m.p);
  }

  membuf m;
  mem_open(&m);
  cr_assert_eq(xq_dhtmlxq_write(m.f, r, &err), XQ_OK);
  mem_close(&m);
  size_t used = 0;
  int rc = xq_dhtmlxq_read(m.p, m.n, back, &used, &err);
  snprintf(label, sizeof label, "%s via DhtmlXQ", what);
  cr_assert_eq(rc, 1, "%s: rc %d: %s\n%s", label, rc, err.msg, m.p);
  same_game(r, back, label);
  cr_expect_eq(used + 1, m.n); /* all but the final line break */
  cr_assert_eq(xq_dhtmlxq_read(m.p + used, m.n - used, back, &used, &err), 0);
  free(m.p);
  drop_record(back);
}

/* A record read from a file can be written and read back the same. A
 * comment written with surrounding blanks comes back trimmed, so the
 * reference is the record after one PGN pass. */
static void normalised(const char *path, xq_record *r)
{
  xq_record *first = new_record();
  xq_error err;
  read_ok(path, first);
  membuf m;
  mem_open(&m);
  cr_assert_eq(xq_pgn_write(m.f, first, XQ_NOTE_CHINESE, 0, &err), XQ_OK);
  mem_close(&m);
  FILE *in = fmemopen(m.p, m.n, "r");
  xq_pgn_reader *rd;
  xq_pgn_open(&rd, in, XQ_PGN_VARIATIONS);
  cr_assert_eq(xq_pgn_next(rd, r, &err), 1, "%s: %s", path, err.msg);
  cr_assert_eq(r->n_moves, first->n_moves);
  cr_assert_eq(r->n_vars, first->n_vars);
  xq_pgn_close(rd);
  fclose(in);
  free(m.p);
  drop_record(first);
}

Test(records, roundtrip_fixtures)
{
  static const char *const files[] = {DATA "gameA.dhtml",       DATA "gameB_iccs.pgn",
                                      DATA "gameC_gbk_crlf.pgn", XQF "test1.xqf",
                                      XQF "game_varations.xqf", XQF "WildHouse.xqf",
                                      XQF "ucci_test1.xqf",     XQF "030.XQF"};
  xq_record *r = new_record();
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    normalised(files[i], r);
    roundtrip_all(r, files[i]);
  }
  drop_record(r);
}

/* Random legal playouts, from the start or from a Black-to-move FEN,
 * with comments and variations, through every writer. */
static uint64_t rng_state = 88172645463325252ULL;
static uint64_t rng(void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static void random_game(xq_record *r, int plies, int with_vars)
{
  xq_record_reset(r);
  if (rng() % 3 == 0) {
    xq_pos p;
    cr_assert_eq(xq_fen_parse(&p, "rnbakabnr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2",
                              0, NULL), XQ_OK);
    cr_assert_eq(xq_record_set_start(r, &p, NULL), XQ_OK);
  }
  for (int i = 0; i < plies; i++) {
    xq_movelist ml;
    xq_gen_legal(&r->end, &ml);
    if (!ml.n) break;
    if (with_vars && i > 0 && rng() % 8 == 0) {
      /* a variation replacing the previous move: two plies of its own */
      xq_pos before;
      xq_record_position(r, r->n_moves - 1, &before);
      int v = xq_record_add_variation(r, 0, r->n_moves - 1);
      cr_assert(v > 0);
      for (int k = 0; k < 2; k++) {
        xq_movelist vl;
        xq_undo u;
        xq_gen_legal(&before, &vl);
        if (!vl.n) break;
        xq_move m = vl.m[rng() % (uint64_t)vl.n];
        cr_assert_eq(xq_record_add_line_move(r, v, m), XQ_OK);
        xq_make(&before, m, &u);
      }
      if (rng() % 2) cr_assert_eq(xq_record_add_comment(r, v, 1, "变着【注】", strlen("变着【注】")), XQ_OK);
    }
    cr_assert_eq(xq_record_append(r, ml.m[rng() % (uint64_t)ml.n]), XQ_OK);
    if (rng() % 10 == 0) {
      char c[64];
      int n = snprintf(c, sizeof c, "comment %d\nsecond line", i);
      cr_assert_eq(xq_record_add_comment(r, 0, r->n_moves, c, (size_t)n), XQ_OK);
    }
  }
  xq_record_pack(r);
  r->result = (xq_result)(rng() % 4);
  xq_record_set_tag(r, "Event", "随机 \"quoted\" \\ event");
  xq_record_set_tag(r, "Red", "Red player");
}

Test(records, roundtrip_random_games)
{
  xq_record *r = new_record();
  for (int g = 0; g < 40; g++) {
    char what[32];
    random_game(r, 20 + (int)(rng() % 120), g % 2);
    snprintf(what, sizeof what, "random game %d", g);
    xq_record *copy = new_record();
    membuf m;
    xq_error err;
    mem_open(&m);
    cr_assert_eq(xq_pgn_write(m.f, r, XQ_NOTE_WXF, 0, &err), XQ_OK);
    mem_close(&m);
    FILE *in = fmemopen(m.p, m.n, "r");
    xq_pgn_reader *rd;
    xq_pgn_open(&rd, in, XQ_PGN_VARIATIONS);
    cr_assert_eq(xq_pgn_next(rd, copy, &err), 1, "%s: %s\n%s", what, err.msg, m.p);
    xq_pgn_close(rd);
    fclose(in);
    free(m.p);
    roundtrip_all(copy, what);
    drop_record(copy);
  }
  drop_record(r);
}

/* ---- PGN reading details ------------------------------------------ */

static int read_text(const char *text, int flags, xq_record *r, xq_error *err)
{
  FILE *in = fmemopen((void *)text, strlen(text), "r");
  xq_pgn_reader *rd;
  cr_assert_eq(xq_pgn_open(&rd, in, flags), XQ_OK);
  int rc = xq_pgn_next(rd, r, err);
  xq_pgn_close(rd);
  fclose(in);
  return rc;
}

Test(records, variations_kept_or_skipped)
{
  static const char text[] =
    "[Game \"Chinese Chess\"]\n\n"
    "{opening} 1. h2e2 {central cannon} (1. b2e2 h7e7 (1... b9c7) 2. h0g2) 1... h7e7\n"
    "2. h0g2 ; line comment\n"
    "2... h9g7 $1 3. i0h0!? i9h9 1/2-1/2\n"
    "This text after the result is an advertisement and is ignored.\n";
  xq_record *r = new_record();
  xq_error err;
  char got[TEXT_LINE_MAX];

  cr_assert_eq(read_text(text, XQ_PGN_VARIATIONS, r, &err), 1, "%s", err.msg);
  moves_text(r, got, sizeof got);
  cr_expect_str_eq(got, "h2e2 h7e7 h0g2 h9g7 i0h0 i9h9");
  cr_expect_eq(r->result, XQ_RESULT_DRAW);
  cr_assert_eq(r->n_vars, 2);
  const xq_move *m;
  int n;
  xq_record_line(r, 1, &m, &n);
  cr_expect_eq(n, 3);
  cr_expect_eq(r->vars[0].parent, 0);
  cr_expect_eq(r->vars[0].at, 0);
  xq_record_line(r, 2, &m, &n);
  cr_expect_eq(n, 1);
  cr_expect_eq(r->vars[1].parent, 1);
  cr_expect_eq(r->vars[1].at, 1);
  char u[8];
  uci(m[0], u);
  cr_expect_str_eq(u, "b9c7");
  cr_expect_eq(r->n_comments, 3);

  cr_assert_eq(read_text(text, 0, r, &err), 1, "%s", err.msg);
  moves_text(r, got, sizeof got);
  cr_expect_str_eq(got, "h2e2 h7e7 h0g2 h9g7 i0h0 i9h9");
  cr_expect_eq(r->n_vars, 0);
  cr_expect_eq(r->n_comments, 3);

  cr_assert_eq(read_text(text, XQ_PGN_NO_COMMENTS, r, &err), 1, "%s", err.msg);
  cr_expect_eq(r->n_comments, 0);
  drop_record(r);
}

Test(records, pgn_dialects)
{
  xq_record *r = new_record();
  xq_error err;
  char got[TEXT_LINE_MAX];
  /* 1-10 ranks under [Variant "xiangqi"]; move numbers glued to moves */
  cr_assert_eq(read_text("[Variant \"xiangqi\"]\n\n1.h3e3 h8e8 2.h1g3 h10g8 *\n", 0, r, &err), 1,
               "%s", err.msg);
  moves_text(r, got, sizeof got);
  cr_expect_str_eq(got, "h2e2 h7e7 h0g2 h9g7");
  /* Black first from a FEN tag, xqbase's blank Red slot, mixed notations */
  cr_assert_eq(read_text("[FEN \"rnbakabnr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2\"]\r\n"
                         "\r\n  2.         士４进５\r\n  3. H0-G2 h9g7\r\n  4. C8.5 0-1\r\n",
                         0, r, &err),
               1, "%s", err.msg);
  moves_text(r, got, sizeof got);
  cr_expect_str_eq(got, "d9e8 h0g2 h9g7 b2e2");
  cr_expect_eq(r->result, XQ_RESULT_BLACK_WINS);
  cr_expect_eq(r->start.side, XQ_BLACK);
  drop_record(r);
}

/* The movetext of `text` (after its first blank line) with each move in
 * full-width characters (U+FF01 .. U+FF5E), move numbers and the result
 * kept in ASCII as the real archive has them; tag lines starting with
 * `drop` (if not NULL) left out. */
static void full_width_moves(const char *text, const char *drop, char *out, size_t cap)
{
  const char *body = strstr(text, "\n\n");
  size_t k = 0;
  cr_assert(body);
  for (const char *p = text; *p && k + 4 < cap;) {
    if (drop && !strncmp(p, drop, strlen(drop))) {
      p = strchr(p, '\n') + 1;
      continue;
    }
    size_t t = strcspn(p, " \n");
    int keep = p < body || t == 0 || p[t - 1] == '.' || !strncmp(p, "1-0", 3);
    for (size_t i = 0; i < t && k + 4 < cap; i++) {
      if (keep) {
        out[k++] = p[i];
        continue;
      }
      unsigned cp = 0xFF01u + (unsigned)((unsigned char)p[i] - 0x21);
      out[k++] = (char)(0xE0 | cp >> 12);
      out[k++] = (char)(0x80 | ((cp >> 6) & 0x3F));
      out[k++] = (char)(0x80 | (cp & 0x3F));
    }
    p += t;
    if (*p) out[k++] = *p++;
  }
  out[k] = '\0';
}

/* A WXF game written in full-width letters, digits and signs (Ｃ２．５),
 * with and without [Format "WXF"]: the same moves as the ASCII file. */
Test(records, pgn_full_width_wxf)
{
  char text[8192], wide[24576];
  FILE *f = fopen(DATA "gameA_wxf.pgn", "rb");
  cr_assert(f);
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  xq_record *r = new_record(), *w = new_record();
  xq_error err;
  cr_assert_eq(read_text(text, 0, r, &err), 1, "%s", err.msg);
  for (int drop_format = 0; drop_format < 2; drop_format++) {
    full_width_moves(text, drop_format ? "[Format" : NULL, wide, sizeof wide);
    cr_assert(strstr(wide, " 1. Ｃ２．５ Ｃ８．５") != NULL, "%s", wide);
    cr_assert_eq(read_text(wide, 0, w, &err), 1, "%s", err.msg);
    same_game(r, w, "full-width WXF");
    cr_expect_eq(w->result, XQ_RESULT_RED_WINS);
  }
  drop_record(r);
  drop_record(w);
}

/* A tag with unescaped quotes (a real master archive has
 * [Event ""Huangshan Cup" ..."]) or without its closing quote keeps the
 * game: the tag is read as far as its line goes, with a warning. */
Test(records, pgn_tag_with_stray_quotes)
{
  static const char text[] =
    "[Event \"\"Huangshan Cup\" National GM,CM Tournament 2002\"]\n"
    "[Red \"XU YinChuan\"] [Site \"a \"b\" c\"] [Round \"2\"]\n"
    "[Black \"LIU DaHua\n\n1. h2e2 h7e7 *\n";
  xq_record *r = new_record();
  xq_error err;
  cr_assert_eq(read_text(text, 0, r, &err), 1, "%s", err.msg);
  cr_expect_str_eq(xq_record_tag(r, "Event"), "\"Huangshan Cup\" National GM,CM Tournament 2002");
  cr_expect_str_eq(xq_record_tag(r, "Red"), "XU YinChuan");
  cr_expect_str_eq(xq_record_tag(r, "Site"), "a \"b\" c");
  cr_expect_str_eq(xq_record_tag(r, "Round"), "2");
  cr_expect_str_eq(xq_record_tag(r, "Black"), "LIU DaHua");
  cr_expect_eq(r->n_moves, 2);
  cr_expect_eq(r->n_warnings, 3);
  cr_expect(strstr(r->warning, "line 1: tag Event") != NULL, "%s", r->warning);
  /* a well-formed file warns of nothing */
  cr_assert_eq(read_text("[Event \"a \\\"b\\\"\"]\n\n1. h2e2 *\n", 0, r, &err), 1, "%s", err.msg);
  cr_expect_str_eq(xq_record_tag(r, "Event"), "a \"b\"");
  cr_expect_eq(r->n_warnings, 0);
  drop_record(r);
}

/* A kept variation with an illegal move is cut before that move, and the
 * game kept with a warning (as XQF's are); the main line still must be legal. */
Test(records, pgn_variation_with_illegal_move_is_cut)
{
  static const char text[] =
    "[Event \"v\"]\n\n"
    "1. h2e2 (1. b2e2 h7e7 2. a0a5 {gone} b9c7 (2... h9g7) 3. h0g2) (1. c3c4 (1. g3g4 i9i5) h7e7)\n"
    "1... h7e7 2. h0g2 *\n";
  xq_record *r = new_record();
  xq_error err;
  char got[TEXT_LINE_MAX];
  cr_assert_eq(read_text(text, XQ_PGN_VARIATIONS, r, &err), 1, "%s", err.msg);
  moves_text(r, got, sizeof got);
  cr_expect_str_eq(got, "h2e2 h7e7 h0g2");
  cr_assert_eq(r->n_vars, 3);
  const xq_move *m;
  int n;
  xq_record_line(r, 1, &m, &n);
  cr_expect_eq(n, 2, "the first variation keeps b2e2 h7e7");
  xq_record_line(r, 2, &m, &n);
  cr_expect_eq(n, 2, "the second keeps c3c4 h7e7");
  xq_record_line(r, 3, &m, &n);
  cr_expect_eq(n, 1, "the nested one keeps g3g4");
  cr_expect_eq(r->n_comments, 0, "the comment after the cut goes with it");
  cr_expect_eq(r->n_warnings, 2);
  cr_expect(strstr(r->warning, "a0a5") != NULL, "%s", r->warning);
  /* read without variations: nothing to cut, nothing to warn */
  cr_assert_eq(read_text(text, 0, r, &err), 1, "%s", err.msg);
  cr_expect_eq(r->n_warnings, 0);
  /* an illegal main-line move is still an error */
  cr_expect_lt(read_text("[Event \"m\"]\n\n1. h2e2 (1. a0a5) 1... h7h0 *\n", XQ_PGN_VARIATIONS,
                         r, &err), 0);
  drop_record(r);
}

/* Past the variation limits a PGN keeps its main line and the variations
 * that fit, with a warning, as an XQF does. */
Test(records, pgn_past_the_variation_limits_keeps_the_game)
{
  enum { VARS = XQ_REC_VARS_MAX + 20 };
  static char text[VARS * 16 + 128];
  size_t k = (size_t)snprintf(text, sizeof text, "[Event \"many\"]\n\n1. h2e2 ");
  for (int i = 0; i < VARS; i++) k += (size_t)snprintf(text + k, sizeof text - k, "(1. b2e2) ");
  snprintf(text + k, sizeof text - k, "1... h7e7 *\n");
  xq_record *r = new_record();
  xq_error err;
  cr_assert_eq(read_text(text, XQ_PGN_VARIATIONS, r, &err), 1, "%s", err.msg);
  cr_expect_eq(r->n_moves, 2);
  cr_expect_eq(r->n_vars, XQ_REC_VARS_MAX);
  cr_expect_eq(r->n_warnings, VARS - XQ_REC_VARS_MAX);
  cr_expect(strstr(r->warning, "variation left out") != NULL, "%s", r->warning);
  drop_record(r);
}

/* WinBoard's xiangqi SAN (ranks 0-9) and pychess's (ranks 1-10): each
 * game keeps to the count its moves read in; a text the two counts read
 * as two legal moves is ambiguous. */
Test(records, pgn_san_winboard_and_pychess)
{
  static const char winboard[] =
    "[Variant \"xiangqi\"]\n\n1. Cbe2 Hc7 2. Hc2 Rb9 3. Rb0 c5 4. g4 Ch3 5. Hg2 Cxc3 6. Ea2 Ci3 *\n";
  static const char pychess[] =
    "[Variant \"Xiangqi\"]\n\n1. Cbe3 Hc8 2. Pc5 Rb10 3. Hc3 Pg6 4. Hi3 Hg8 5. Rb1 Ri9 *\n";
  xq_record *r = new_record();
  xq_error err;
  char got[TEXT_LINE_MAX];
  cr_assert_eq(read_text(winboard, 0, r, &err), 1, "%s", err.msg);
  moves_text(r, got, sizeof got);
  cr_expect_str_eq(got, "b2e2 b9c7 b0c2 a9b9 a0b0 c6c5 g3g4 h7h3 h0g2 h3c3 c0a2 c3i3");
  cr_assert_eq(read_text(pychess, 0, r, &err), 1, "%s", err.msg);
  moves_text(r, got, sizeof got);
  cr_expect_str_eq(got, "b2e2 b9c7 c3c4 a9b9 b0c2 g6g5 h0i2 h9g7 a0b0 i9i8");
  /* Ri2 is i0i2 counted from 0 and i0i1 counted from 1 */
  cr_expect_eq(read_text("[Variant \"xiangqi\"]\n\n1. Ri2 *\n", 0, r, &err), XQ_EAMBIGUOUS,
               "%s", err.msg);
  /* ... but not once the game has shown its count */
  cr_assert_eq(read_text("[Variant \"xiangqi\"]\n\n1. Cbe2 Hc7 2. Ri2 *\n", 0, r, &err), 1, "%s",
               err.msg);
  moves_text(r, got, sizeof got);
  cr_expect_str_eq(got, "b2e2 b9c7 i0i2");
  drop_record(r);
}

Test(records, pgn_line_too_long)
{
  size_t n = XQ_PGN_LINE_MAX + 100;
  char *text = malloc(n + 200);
  strcpy(text, "[Event \"long\"]\n\n1. h2e2 {");
  size_t k = strlen(text);
  memset(text + k, 'x', n);
  strcpy(text + k + n, "}\n*\n\n[Event \"next\"]\n\n1. h2e2 *\n");
  FILE *in = fmemopen(text, strlen(text), "r");
  xq_pgn_reader *rd;
  xq_pgn_open(&rd, in, 0);
  xq_record *r = new_record();
  xq_error err;
  cr_assert_eq(xq_pgn_next(rd, r, &err), XQ_ELIMIT);
  cr_expect(strstr(err.msg, "line longer than") != NULL, "%s", err.msg);
  cr_assert_eq(xq_pgn_next(rd, r, &err), 1, "%s", err.msg);
  cr_expect_str_eq(xq_record_tag(r, "Event"), "next");
  cr_assert_eq(xq_pgn_next(rd, r, &err), 0);
  xq_pgn_close(rd);
  fclose(in);
  free(text);
  drop_record(r);
}

/* The reader's line and comment buffers start small and grow with the
 * input: a comment of 60,000 bytes over 100 lines, a GBK line of 20,000
 * bytes (30,000 in UTF-8) and a line of 20,000 bytes that are no text
 * (each one U+FFFD, three times the bytes) all come back whole. */
Test(records, pgn_buffers_grow_with_the_input)
{
  size_t cap = 200000, k = 0;
  char *text = malloc(cap);
  cr_assert_not_null(text);
  k += (size_t)sprintf(text + k, "[Event \"long comment\"]\n\n1. h2e2 {");
  for (int i = 0; i < 100; i++) {
    memset(text + k, 'a' + i % 26, 599);
    k += 599;
    text[k++] = '\n';
  }
  k += (size_t)sprintf(text + k, "} h9g7 *\n\n[Event \"gbk\"]\n\n1. h2e2 {");
  for (int i = 0; i < 10000; i++) k += (size_t)sprintf(text + k, "\xC5\xDA"); /* 炮 */
  k += (size_t)sprintf(text + k, "} *\n\n[Event \"no text\"]\n\n1. h2e2 {");
  memset(text + k, 0x80, 20000);
  k += 20000;
  k += (size_t)sprintf(text + k, "} *\n");
  cr_assert_lt(k, cap);
  FILE *in = fmemopen(text, k, "r");
  xq_pgn_reader *rd;
  cr_assert_eq(xq_pgn_open(&rd, in, 0), XQ_OK);
  xq_record *r = new_record();
  xq_error err;

  cr_assert_eq(xq_pgn_next(rd, r, &err), 1, "%s", err.msg);
  cr_assert_eq(r->n_moves, 2);
  cr_assert_eq(r->n_comments, 1);
  cr_expect_eq(r->comments[0].len, 100 * 600 - 1); /* the last line end is trimmed */
  cr_expect_eq(r->text[r->comments[0].off + 600], 'b');
  cr_expect_eq(r->text[r->comments[0].off + 599], '\n');

  cr_assert_eq(xq_pgn_next(rd, r, &err), 1, "%s", err.msg);
  cr_assert_eq(r->n_comments, 1);
  cr_assert_eq(r->comments[0].len, 30000);
  for (size_t i = 0; i < 30000; i += 3)
    cr_assert(!memcmp(r->text + r->comments[0].off + i, "炮", 3), "byte %zu", i);

  cr_assert_eq(xq_pgn_next(rd, r, &err), 1, "%s", err.msg);
  cr_assert_eq(r->n_comments, 1);
  cr_assert_eq(r->comments[0].len, 60000);
  for (size_t i = 0; i < 60000; i += 3)
    cr_assert(!memcmp(r->text + r->comments[0].off + i, "\xEF\xBF\xBD", 3), "byte %zu", i);

  cr_assert_eq(xq_pgn_next(rd, r, &err), 0);
  xq_pgn_close(rd);
  fclose(in);
  free(text);
  drop_record(r);
}

/* The writer puts each comment and variation at its place (a move's
 * comments, then the variations replacing it) in the order they were
 * stored, whatever order the places were filled in. */
Test(records, pgn_write_keeps_stored_order_at_each_place)
{
  xq_record *r = new_record();
  static const char *const moves[] = {"h2e2", "h9g7", "h0g2", "i9h9"};
  xq_pos p = r->start;
  for (int i = 0; i < 4; i++) {
    xq_move m;
    cr_assert_eq(xq_move_parse(&p, moves[i], XQ_NOTE_ICCS, &m, NULL), XQ_OK);
    cr_assert_eq(xq_record_append(r, m), XQ_OK);
    xq_undo u;
    xq_make(&p, m, &u);
  }
  /* comments stored last place first, two at place 2 */
  cr_assert_eq(xq_record_add_comment(r, 0, 4, "four", 4), XQ_OK);
  cr_assert_eq(xq_record_add_comment(r, 0, 2, "two-a", 5), XQ_OK);
  cr_assert_eq(xq_record_add_comment(r, 0, 0, "zero", 4), XQ_OK);
  cr_assert_eq(xq_record_add_comment(r, 0, 2, "two-b", 5), XQ_OK);
  /* variations replacing move 3 (index 2) stored before one replacing move 2 */
  xq_pos before2, before3;
  xq_record_position(r, 1, &before2);
  xq_record_position(r, 2, &before3);
  int v1 = xq_record_add_variation(r, 0, 2), v2 = xq_record_add_variation(r, 0, 1);
  int v3 = xq_record_add_variation(r, 0, 2);
  cr_assert(v1 > 0 && v2 > 0 && v3 > 0);
  xq_move m;
  cr_assert_eq(xq_move_parse(&before3, "b0c2", XQ_NOTE_ICCS, &m, NULL), XQ_OK);
  cr_assert_eq(xq_record_add_line_move(r, v1, m), XQ_OK);
  cr_assert_eq(xq_move_parse(&before2, "b9c7", XQ_NOTE_ICCS, &m, NULL), XQ_OK);
  cr_assert_eq(xq_record_add_line_move(r, v2, m), XQ_OK);
  cr_assert_eq(xq_move_parse(&before3, "i0i1", XQ_NOTE_ICCS, &m, NULL), XQ_OK);
  cr_assert_eq(xq_record_add_line_move(r, v3, m), XQ_OK);
  cr_assert_eq(xq_record_add_comment(r, v3, 1, "in-v3", 5), XQ_OK);

  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  cr_assert_eq(xq_pgn_write(f, r, XQ_NOTE_ICCS, 0, NULL), XQ_OK);
  fclose(f);
  const char *body = strstr(out, "\n\n");
  cr_assert_not_null(body);
  const char *want[] = {"{zero}", "H2-E2", "H9-G7", "{two-a}", "{two-b}", "(1... B9-C7)", "H0-G2",
                        "(2. B0-C2)", "(2. I0-I1 {in-v3})", "I9-H9", "{four}"};
  const char *at = body;
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const char *hit = strstr(at, want[i]);
    cr_assert_not_null(hit, "%s not after the previous in:\n%s", want[i], out);
    at = hit + strlen(want[i]);
  }
  free(out);
  drop_record(r);
}

/* ---- a generated archive with broken games ------------------------ */

Test(records, multi_game_archive_with_broken_games)
{
  enum { GOOD = 200 };
  static const char *const broken[] = {
    /* an illegal move at ply 3 */
    "[Game \"Chinese Chess\"]\n[Event \"broken: illegal\"]\n\n  1. 炮二平五 炮８平５\n  2. 炮五进九 马８进７\n 1-0\n\n",
    /* a FEN tag that is no position */
    "[Game \"Chinese Chess\"]\n[Event \"broken: fen\"]\n[FEN \"rnbakabnr/9/1c5c1/zzz w - - 0 1\"]\n\n  1. h2e2 h7e7\n *\n\n",
    /* a comment that is never closed: the next game must still be read */
    "[Game \"Chinese Chess\"]\n[Event \"broken: comment\"]\n\n  1. h2e2 {this comment\nruns on\n  2. h0g2\n",
    /* garbage instead of moves */
    "[Game \"Chinese Chess\"]\n[Event \"broken: garbage\"]\n\n  1. @@## ^^&& !!~~\n *\n\n",
    /* a malformed tag */
    "[Game \"Chinese Chess\"]\n[Event broken: tag]\n\n  1. h2e2 h7e7\n *\n\n",
    /* a variation that is never closed */
    "[Game \"Chinese Chess\"]\n[Event \"broken: variation\"]\n\n  1. h2e2 (1. b2e2 h7e7\n  2. h0g2\n",
  };
  const int n_broken = (int)(sizeof broken / sizeof broken[0]);
  static const xq_notation notes[3] = {XQ_NOTE_ICCS, XQ_NOTE_WXF, XQ_NOTE_CHINESE};
  xq_record *gen = new_record(), *r = new_record();
  long broken_at[8];
  int total = 0, nb = 0;
  xq_error err;
  membuf m;

  mem_open(&m);
  xq_move *want = malloc(sizeof(xq_move) * GOOD * PLIES_MAX);
  int want_n[GOOD];
  for (int g = 0; g < GOOD; g++) {
    if (g % 33 == 10 && nb < n_broken) {
      fputs(broken[nb], m.f);
      broken_at[nb++] = ++total;
    }
    random_game(gen, 10 + (int)(rng() % 150), g % 4 == 0);
    char ev[32];
    snprintf(ev, sizeof ev, "good %d", g);
    xq_record_set_tag(gen, "Event", ev);
    want_n[g] = gen->n_moves;
    memcpy(want + g * PLIES_MAX, gen->moves, sizeof(xq_move) * (size_t)gen->n_moves);
    cr_assert_eq(xq_pgn_write(m.f, gen, notes[g % 3], g % 2 ? XQ_PGN_CRLF : 0, &err), XQ_OK);
    total++;
  }
  cr_assert_eq(nb, n_broken);
  mem_close(&m);

  FILE *in = fmemopen(m.p, m.n, "r");
  xq_pgn_reader *rd;
  xq_pgn_open(&rd, in, XQ_PGN_VARIATIONS);
  int good = 0, rc, reported[8] = {0};
  while ((rc = xq_pgn_next(rd, r, &err)) != 0) {
    if (rc < 0) {
      int which = -1;
      for (int i = 0; i < n_broken; i++)
        if (broken_at[i] == r->game) which = i;
      cr_assert(which >= 0, "game %ld reported bad: %s", r->game, err.msg);
      reported[which]++;
      char head[32];
      snprintf(head, sizeof head, "game %ld, line ", r->game);
      cr_expect(!strncmp(err.msg, head, strlen(head)), "message names the game: %s", err.msg);
      if (which == 0) cr_expect_eq(err.ply, 3, "%s", err.msg);
      continue;
    }
    cr_assert_lt(good, GOOD);
    char ev[32];
    snprintf(ev, sizeof ev, "good %d", good);
    cr_assert_str_eq(xq_record_tag(r, "Event"), ev);
    cr_assert_eq(r->n_moves, want_n[good], "%s", ev);
    cr_assert(!memcmp(r->moves, want + good * PLIES_MAX, sizeof(xq_move) * (size_t)r->n_moves), "%s",
              ev);
    good++;
  }
  cr_expect_eq(good, GOOD);
  for (int i = 0; i < n_broken; i++)
    cr_expect_eq(reported[i], 1, "broken game %d (%ld) reported %d times", i, broken_at[i],
                 reported[i]);
  cr_expect_eq(xq_pgn_offset(rd), (long long)m.n);
  xq_pgn_close(rd);
  fclose(in);
  free(m.p);
  free(want);
  drop_record(gen);
  drop_record(r);
}

/* ---- XQF: the real files --------------------------------------------- */

/* Value of 'key': '...' in the README's header line. */
static void readme_field(const char *line, const char *key, char *out, size_t cap)
{
  char pat[64];
  snprintf(pat, sizeof pat, "'%s': ", key);
  const char *p = strstr(line, pat);
  cr_assert_not_null(p, "%s missing", key);
  p += strlen(pat);
  size_t n = 0;
  if (*p == '\'') {
    p++;
    while (*p && *p != '\'' && n + 1 < cap) out[n++] = *p++;
  } else {
    while (*p && *p != ',' && *p != '}' && n + 1 < cap) out[n++] = *p++;
  }
  out[n] = '\0';
}

Test(records, xqf_real_files_match_readme)
{
  FILE *f = fopen(XQF "README.md", "r");
  cr_assert_not_null(f);
  char line[TEXT_LINE_MAX], name[128] = "", hdrline[TEXT_LINE_MAX] = "", fenline[256] = "";
  xq_record *r = new_record();
  int checked = 0;

  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    if (!strncmp(line, "## ", 3)) snprintf(name, sizeof name, "%.127s", line + 3);
    else if (line[0] == '{') memcpy(hdrline, line, strlen(line) + 1);
    else if (!strncmp(line, "FEN ", 4)) snprintf(fenline, sizeof fenline, "%.255s", line + 4);
    else if (strstr(line, " plies: ")) {
      char path[256];
      snprintf(path, sizeof path, XQF "%s", name);
      FILE *x = fopen(path, "rb");
      cr_assert_not_null(x, "%s", path);
      static unsigned char buf[XQ_XQF_FILE_MAX];
      size_t len = fread(buf, 1, sizeof buf, x);
      fclose(x);
      xq_xqf_header h;
      xq_error err;
      cr_assert_eq(xq_xqf_read(buf, len, r, &h, &err), XQ_OK, "%s: %s", name, err.msg);

      char v[256];
      readme_field(hdrline, "version", v, sizeof v);
      cr_expect_eq(h.version, atoi(v), "%s version", name);
      readme_field(hdrline, "result", v, sizeof v);
      cr_expect_eq(h.result, atoi(v), "%s result", name);
      readme_field(hdrline, "setup", v, sizeof v);
      cr_expect_eq(h.type, atoi(v), "%s type", name);
      static const char *const keys[6] = {"title", "event", "date", "site", "red", "black"};
      const char *got[6] = {h.title, h.event, h.date, h.site, h.red, h.black};
      for (int k = 0; k < 6; k++) {
        readme_field(hdrline, keys[k], v, sizeof v);
        cr_expect_str_eq(got[k], v, "%s %s", name, keys[k]);
      }
      char fen[XQ_FEN_MAX];
      xq_fen_format(&r->start, fen, sizeof fen);
      cr_expect(!strncmp(fen, fenline, strlen(fenline)) && fen[strlen(fenline)] == ' ',
                "%s start %s, README %s", name, fen, fenline);

      /* the main line, printed in Chinese */
      int n = atoi(line);
      cr_expect_eq(r->n_moves, n, "%s: %d plies", name, r->n_moves);
      const char *p = strstr(line, " plies: ") + 8;
      xq_pos pos = r->start;
      for (int i = 0; i < r->n_moves && *p; i++) {
        char text[XQ_MOVE_TEXT_MAX], want[64];
        size_t k = strcspn(p, " ");
        snprintf(want, sizeof want, "%.*s", (int)k, p);
        p += k + (p[k] == ' ');
        xq_move_format(&pos, r->moves[i], XQ_NOTE_CHINESE, text, sizeof text);
        cr_assert_str_eq(text, want, "%s ply %d", name, i + 1);
        xq_undo u;
        xq_make(&pos, r->moves[i], &u);
      }
      checked++;
    }
  }
  fclose(f);
  cr_expect_eq(checked, 5);
  drop_record(r);
}

Test(records, xqf_variations_and_comments)
{
  xq_record *r = new_record();
  read_ok(XQF "game_varations.xqf", r);
  cr_expect_eq(r->n_vars, 5);
  read_ok(XQF "test1.xqf", r);
  cr_expect_gt(r->n_comments, 10);
  cr_expect_eq(r->comments[0].after, 0);
  drop_record(r);
}

/* ---- XQF: files built here ------------------------------------------ */

typedef struct xnode {
  int from, to; /* XQF squares x*10+y */
  int next, var;
  const char *comment;
} xnode;

static int xqf_sq(const char *s)
{
  return (s[0] - 'a') * 10 + (s[1] - '0');
}

/* Write an XQF file of `version` with the given key bytes: slot squares
 * sq[32] (XQF encoding, -1 absent), type, and pre-order nodes (nodes[0]
 * the root). Returns the length. */
static size_t build_xqf(unsigned char *out, int version, const unsigned char key[8],
                        const int sq[32], int type, const xnode *nodes, int n)
{
  static const char T[33] = "[(C) Copyright Mr. Dong Shiwei.]";
  memset(out, 0, 1024);
  out[0] = 'X';
  out[1] = 'Q';
  out[2] = (unsigned char)version;
  unsigned po = 0, so = 0, dof = 0, co = 0;
  unsigned char stream[32] = {0};
  if (version >= 11) {
    out[3] = key[0];
    memcpy(out + 8, key + 1, 4);
    memcpy(out + 12, key + 4, 4);
    unsigned xy = out[13];
#define MIX(b) ((54u * (b) * (b) + 221u) & 0xFF)
    po = (MIX(xy) * xy) & 0xFF;
    so = (MIX(out[14]) * po) & 0xFF;
    dof = (MIX(out[15]) * so) & 0xFF;
    co = ((unsigned)out[12] * 256 + xy) % 32000 + 767;
    for (int i = 0; i < 32; i++)
      stream[i] = (unsigned char)((out[8 + i % 4] | (out[12 + i % 4] & out[3])) & T[i]);
  }
  for (int i = 0; i < 32; i++) {
    int slot = version >= 12 ? (int)((po + 1 + (unsigned)i) % 32) : i;
    int v = sq[slot] < 0 ? 90 : sq[slot];
    out[16 + i] = (unsigned char)(v + (int)po);
  }
  out[51] = 2;
  out[64] = (unsigned char)type;
  out[80] = 4;
  memcpy(out + 81, "\xB2\xE2\xCA\xD4", 4); /* 测试 in GBK */
  size_t at = 1024;
  for (int i = 0; i < n; i++) {
    const xnode *x = &nodes[i];
    size_t clen = x->comment ? strlen(x->comment) : 0;
    out[at++] = (unsigned char)(x->from + 0x18 + (int)so);
    out[at++] = (unsigned char)(x->to + 0x20 + (int)dof);
    if (version <= 10) {
      out[at++] = (unsigned char)((x->next ? 0xF0 : 0) | (x->var ? 0x0F : 0));
      out[at++] = 0;
    } else {
      out[at++] = (unsigned char)((x->next ? 0x80 : 0) | (x->var ? 0x40 : 0) | (clen ? 0x20 : 0));
      out[at++] = 0;
    }
    if (version <= 10 || clen) {
      uint32_t v = (uint32_t)clen + (version <= 10 ? 0 : co);
      for (int k = 0; k < 4; k++) out[at++] = (unsigned char)(v >> (8 * k));
      memcpy(out + at, x->comment ? x->comment : "", clen);
      at += clen;
    }
  }
  if (version >= 11)
    for (size_t i = 1024; i < at; i++) out[i] = (unsigned char)(out[i] + stream[(i - 1024) % 32]);
  return at;
}

static void start_slots(int sq[32])
{
  static const char *const red[16] = {"a0", "b0", "c0", "d0", "e0", "f0", "g0", "h0",
                                      "i0", "b2", "h2", "a3", "c3", "e3", "g3", "i3"};
  for (int i = 0; i < 16; i++) {
    sq[i] = xqf_sq(red[i]);
    sq[16 + i] = sq[i] / 10 * 10 + (9 - sq[i] % 10);
  }
}

/* Slots of a diagram: the Red general, a Red rook and the Black general
 * on the squares named, no other piece. */
static void diagram_slots(int sq[32], const char *red_king, const char *red_rook,
                          const char *black_king)
{
  for (int i = 0; i < 32; i++) sq[i] = -1;
  sq[4] = xqf_sq(red_king);
  sq[0] = xqf_sq(red_rook);
  sq[20] = xqf_sq(black_king);
}

/* Key bytes of the encrypted versions, any will do. */
static const unsigned char some_key[8] = {0xEF, 0xFA, 0x5D, 0x2D, 0x7C, 0x58, 0xDF, 0x29};

/* The tree built in the tests: 1. h2e2 h7e7 2. h0g2, with 1. b2e2 b9c7 as
 * a variation of the first move, and comments. */
static int test_tree(xnode *t)
{
  const xnode nodes[] = {
    {0, 0, 1, 0, "root comment"},
    {xqf_sq("h2"), xqf_sq("e2"), 1, 1, NULL},
    {xqf_sq("h7"), xqf_sq("e7"), 1, 0, "after two"},
    {xqf_sq("h0"), xqf_sq("g2"), 0, 0, NULL},
    {xqf_sq("b2"), xqf_sq("e2"), 1, 0, "alt"},
    {xqf_sq("b9"), xqf_sq("c7"), 0, 0, NULL},
  };
  memcpy(t, nodes, sizeof nodes);
  return (int)(sizeof nodes / sizeof nodes[0]);
}

Test(records, xqf_built_every_version)
{
  static unsigned char buf[8192];
  static const int versions[] = {1, 2, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18};
  xq_record *r = new_record();
  int sq[32];
  xnode t[8];
  int n = test_tree(t);
  start_slots(sq);
  for (size_t vi = 0; vi < sizeof versions / sizeof versions[0]; vi++)
    for (int trial = 0; trial < 20; trial++) {
      unsigned char key[8];
      for (int k = 0; k < 8; k++) key[k] = (unsigned char)rng();
      int type = trial % 4;
      size_t len = build_xqf(buf, versions[vi], key, sq, type, t, n);
      xq_xqf_header h;
      xq_error err;
      cr_assert_eq(xq_xqf_read(buf, len, r, &h, &err), XQ_OK, "v%d: %s", versions[vi], err.msg);
      cr_expect_eq(h.version, versions[vi]);
      cr_expect_str_eq(h.title, "测试");
      cr_expect_eq(r->result, XQ_RESULT_BLACK_WINS);
      char got[TEXT_LINE_MAX];
      moves_text(r, got, sizeof got);
      cr_expect_str_eq(got, "h2e2 h7e7 h0g2", "v%d", versions[vi]);
      cr_assert_eq(r->n_vars, 1, "v%d", versions[vi]);
      const xq_move *m;
      int vn;
      xq_record_line(r, 1, &m, &vn);
      cr_expect_eq(vn, 2);
      cr_expect_eq(r->vars[0].at, 0);
      cr_assert_eq(r->n_comments, 3, "v%d", versions[vi]);
      cr_expect(!memcmp(r->text + r->comments[0].off, "root comment", 12));
    }
  drop_record(r);
}

Test(records, xqf_setup_position_black_to_move)
{
  static unsigned char buf[4096];
  int sq[32];
  for (int i = 0; i < 32; i++) sq[i] = -1;
  sq[4] = xqf_sq("e0");  /* Red king */
  sq[0] = xqf_sq("a4");  /* Red rook */
  sq[20] = xqf_sq("d9"); /* Black king */
  sq[25] = xqf_sq("c9"); /* Black cannon slot 9 = 25 */
  const xnode t[] = {{0, 0, 1, 0, NULL}, {xqf_sq("d9"), xqf_sq("d8"), 1, 0, NULL},
                     {xqf_sq("a4"), xqf_sq("a8"), 0, 0, NULL}};
  unsigned char key[8] = {0xEF, 0xFA, 0x5D, 0x2D, 0x7C, 0x58, 0xDF, 0x29};
  xq_record *r = new_record();
  xq_error err;
  for (int v = 10; v <= 18; v += 8) {
    size_t len = build_xqf(buf, v, key, sq, 3, t, 3);
    cr_assert_eq(xq_xqf_read(buf, len, r, NULL, &err), XQ_OK, "%s", err.msg);
    cr_expect_eq(r->start.side, XQ_BLACK);
    cr_expect_eq(r->n_moves, 2);
  }
  drop_record(r);
}

/* Real files store compositions under type 0 (full game): the piece table
 * is the start position whatever the type. */
Test(records, xqf_type0_custom_position)
{
  static unsigned char buf[4096];
  int sq[32];
  for (int i = 0; i < 32; i++) sq[i] = -1;
  sq[4] = xqf_sq("d0");  /* Red king */
  sq[0] = xqf_sq("a4");  /* Red rook */
  sq[9] = xqf_sq("b2");  /* Red cannon */
  sq[20] = xqf_sq("e9"); /* Black king */
  sq[27] = xqf_sq("i6"); /* Black pawn */
  const xnode t[] = {{0, 0, 1, 0, NULL}, {xqf_sq("a4"), xqf_sq("e4"), 1, 0, NULL},
                     {xqf_sq("e9"), xqf_sq("f9"), 1, 0, NULL},
                     {xqf_sq("b2"), xqf_sq("f2"), 0, 0, NULL}};
  unsigned char key[8] = {0x13, 0x57, 0x9B, 0xDF, 0x24, 0x68, 0xAC, 0xE0};
  xq_record *r = new_record();
  xq_error err;
  for (int v = 10; v <= 18; v += 8)
    for (int type = 0; type < 2; type++) {
      size_t len = build_xqf(buf, v, key, sq, type, t, 4);
      cr_assert_eq(xq_xqf_read(buf, len, r, NULL, &err), XQ_OK, "v%d type %d: %s", v, type,
                   err.msg);
      char fen[XQ_FEN_MAX];
      xq_fen_format(&r->start, fen, sizeof fen);
      cr_expect_str_eq(fen, "4k4/9/9/8p/9/R8/9/1C7/9/3K5 w - - 0 1");
      char got[TEXT_LINE_MAX];
      moves_text(r, got, sizeof got);
      cr_expect_str_eq(got, "a4e4 e9f9 b2f2");
    }
  /* a type 0 table that is no position (every piece on a0) is the standard start */
  int zero[32] = {0};
  xnode g[8];
  int n = test_tree(g);
  size_t len = build_xqf(buf, 12, key, zero, 0, g, n);
  cr_assert_eq(xq_xqf_read(buf, len, r, NULL, &err), XQ_OK, "%s", err.msg);
  cr_expect_eq(r->n_moves, 3);
  drop_record(r);
}

/* A mate diagram without moves: the position is legal only with Black to
 * move (Black is in check), so Black moves; a quiet diagram stays Red's. */
Test(records, xqf_diagram_without_moves_takes_the_legal_side)
{
  static unsigned char buf[4096];
  int sq[32];
  for (int i = 0; i < 32; i++) sq[i] = -1;
  sq[4] = xqf_sq("d0");  /* Red king */
  sq[0] = xqf_sq("e5");  /* Red rook, checking */
  sq[8] = xqf_sq("f8");  /* Red rook, guarding the f-file */
  sq[20] = xqf_sq("e9"); /* Black king */
  const xnode t[] = {{0, 0, 0, 0, "mate in one"}};
  unsigned char key[8] = {0xEF, 0xFA, 0x5D, 0x2D, 0x7C, 0x58, 0xDF, 0x29};
  xq_record *r = new_record();
  xq_error err;
  for (int v = 10; v <= 18; v += 8)
    for (int type = 0; type < 4; type += 3) {
      size_t len = build_xqf(buf, v, key, sq, type, t, 1);
      cr_assert_eq(xq_xqf_read(buf, len, r, NULL, &err), XQ_OK, "v%d type %d: %s", v, type,
                   err.msg);
      cr_expect_eq(r->start.side, XQ_BLACK, "v%d type %d", v, type);
      cr_expect_eq(r->n_moves, 0);
    }
  sq[0] = xqf_sq("a5"); /* no check: Red moves */
  size_t len = build_xqf(buf, 18, key, sq, 3, t, 1);
  cr_assert_eq(xq_xqf_read(buf, len, r, NULL, &err), XQ_OK, "%s", err.msg);
  cr_expect_eq(r->start.side, XQ_RED);
  drop_record(r);
}

/* A move tree past the variation limits keeps its main line and as many
 * variations as fit, with a warning (a real analysis file holds more than
 * XQ_REC_VAR_MOVES_MAX variation moves). */
Test(records, xqf_past_the_variation_limits_keeps_the_game)
{
  enum { SIBLINGS = XQ_REC_VARS_MAX + 40 };
  static unsigned char buf[16384];
  static xnode t[SIBLINGS + 3];
  int sq[32];
  start_slots(sq);
  t[0] = (xnode){0, 0, 1, 0, NULL};
  t[1] = (xnode){xqf_sq("h2"), xqf_sq("e2"), 1, 1, NULL};
  t[2] = (xnode){xqf_sq("h7"), xqf_sq("e7"), 0, 0, NULL};
  for (int i = 0; i < SIBLINGS; i++) /* each another 1. b2e2 */
    t[3 + i] = (xnode){xqf_sq("b2"), xqf_sq("e2"), 0, i + 1 < SIBLINGS, NULL};
  unsigned char key[8] = {0xEF, 0xFA, 0x5D, 0x2D, 0x7C, 0x58, 0xDF, 0x29};
  xq_record *r = new_record();
  xq_error err;
  for (int v = 10; v <= 18; v += 8) {
    size_t len = build_xqf(buf, v, key, sq, 0, t, SIBLINGS + 3);
    cr_assert_lt(len, sizeof buf);
    cr_assert_eq(xq_xqf_read(buf, len, r, NULL, &err), XQ_OK, "v%d: %s", v, err.msg);
    cr_expect_eq(r->n_moves, 2);
    cr_expect_eq(r->n_vars, XQ_REC_VARS_MAX);
    cr_expect_eq(r->n_warnings, 1, "the later siblings go with the first left out");
    cr_expect(strstr(r->warning, "variation left out") != NULL, "%s", r->warning);
  }
  drop_record(r);
}

Test(records, xqf_malformed_and_truncated)
{
  static unsigned char buf[8192], bad[8192];
  xq_record *r = new_record();
  xq_error err;
  int sq[32];
  xnode t[8];
  int n = test_tree(t);
  start_slots(sq);
  unsigned char key[8] = {0xEF, 0xFA, 0x5D, 0x2D, 0x7C, 0x58, 0xDF, 0x29};

  /* the root record: 4 bytes, its comment's length and its comment */
  size_t root_end = 1024 + 4 + 4 + strlen(t[0].comment);
  for (int v = 10; v <= 16; v += 6) {
    size_t len = build_xqf(buf, v, key, sq, 0, t, n);
    /* every truncation fails cleanly, but for a file that holds its root
     * record and no whole move record: a position without moves */
    for (size_t cut = 0; cut < len; cut++) {
      int rc = xq_xqf_read(buf, cut, r, NULL, &err);
      if (cut >= root_end && cut < root_end + 4) {
        cr_assert_eq(rc, XQ_OK, "v%d cut at %zu: %s", v, cut, err.msg);
        cr_expect_eq(r->n_moves, 0);
        cr_expect(strstr(r->warning, "promises a first move") != NULL, "%s", r->warning);
        continue;
      }
      cr_assert_neq(rc, XQ_OK, "v%d cut at %zu read fine", v, cut);
      cr_assert(err.msg[0], "v%d cut at %zu: no message", v, cut);
    }
    memcpy(bad, buf, len);
    bad[0] = 'Z';
    cr_expect_eq(xq_xqf_read(bad, len, r, NULL, &err), XQ_ENOTATION);
    cr_expect(strstr(err.msg, "signature") != NULL, "%s", err.msg);
    memcpy(bad, buf, len);
    bad[2] = 99;
    cr_expect_eq(xq_xqf_read(bad, len, r, NULL, &err), XQ_ENOTATION);
    cr_expect(strstr(err.msg, "version") != NULL, "%s", err.msg);
  }
  /* two pieces on one square in a setup position */
  int dup[32];
  memcpy(dup, sq, sizeof dup);
  dup[1] = dup[0];
  size_t len = build_xqf(buf, 18, key, dup, 2, t, n);
  cr_expect_eq(xq_xqf_read(buf, len, r, NULL, &err), XQ_EFEN);
  /* an illegal main-line move */
  t[2].from = xqf_sq("a9");
  t[2].to = xqf_sq("a5");
  len = build_xqf(buf, 12, key, sq, 0, t, n);
  cr_expect_eq(xq_xqf_read(buf, len, r, NULL, &err), XQ_EILLEGAL);
  cr_expect_eq(err.ply, 2, "%s", err.msg);
  drop_record(r);
}

/* A header string whose length byte overruns its field (real files have
 * them, mostly in the Site field): the game reads, the string cut at the
 * field's end (not inside a GBK character), with a warning. */
Test(records, xqf_header_string_longer_than_its_field)
{
  static unsigned char buf[8192];
  /* 上海市人民公园广场 in GBK: 18 bytes, the field holds 15 */
  static const char site[] = "\xC9\xCF\xBA\xA3\xCA\xD0\xC8\xCB\xC3\xF1\xB9\xAB\xD4\xB0\xB9\xE3\xB3\xA1";
  xq_record *r = new_record();
  xq_xqf_header h;
  xq_error err;
  int sq[32];
  xnode t[8];
  int n = test_tree(t);
  start_slots(sq);
  unsigned char key[8] = {0xEF, 0xFA, 0x5D, 0x2D, 0x7C, 0x58, 0xDF, 0x29};
  for (int v = 10; v <= 18; v += 8) {
    size_t len = build_xqf(buf, v, key, sq, 0, t, n);
    buf[288] = (unsigned char)(sizeof site - 1); /* Site: 18 bytes claimed */
    memcpy(buf + 289, site, 15);                 /* the field ends in a lead byte */
    buf[304] = 2;                                /* Red, which follows, is whole */
    memcpy(buf + 305, "Wu", 2);
    cr_assert_eq(xq_xqf_read(buf, len, r, &h, &err), XQ_OK, "v%d: %s", v, err.msg);
    cr_expect_str_eq(h.site, "上海市人民公园");
    cr_expect_str_eq(xq_record_tag(r, "Site"), "上海市人民公园");
    cr_expect_str_eq(h.red, "Wu");
    cr_expect_eq(r->n_moves, 3);
    cr_expect_eq(r->n_warnings, 1);
    cr_expect(strstr(r->warning, "Site string claims 18 bytes") != NULL, "%s", r->warning);
  }
  drop_record(r);
}

/* A diagram whose root record promises a first move that is not in the
 * file: the position, without moves, with a warning. */
Test(records, xqf_root_promising_a_missing_move_is_a_position)
{
  static unsigned char buf[4096];
  int sq[32];
  diagram_slots(sq, "d0", "a5", "e9");
  const xnode root[] = {{0, 0, 1, 0, NULL}}; /* has_next, and nothing after it */
  xq_record *r = new_record();
  xq_error err;
  for (int v = 10; v <= 18; v += 8) {
    size_t len = build_xqf(buf, v, some_key, sq, 3, root, 1);
    cr_assert_eq(xq_xqf_read(buf, len, r, NULL, &err), XQ_OK, "v%d: %s", v, err.msg);
    cr_expect_eq(r->n_moves, 0);
    char fen[XQ_FEN_MAX];
    xq_fen_format(&r->start, fen, sizeof fen);
    cr_expect_str_eq(fen, "4k4/9/9/9/R8/9/9/9/9/3K5 w - - 0 1");
    cr_expect_eq(r->n_warnings, 1);
  }
  drop_record(r);
}

/* ---- past the record's limits the game is kept ---------------------- */

/* The shuffle of horses every limit test plays: b0c2 b9c7 c2b0 c7b9 ... */
static const char *const shuffle[4] = {"b0c2", "b9c7", "c2b0", "c7b9"};
enum { SHUFFLE_PLIES = XQ_REC_COMMENTS_MAX + 76 };

/* A game with a comment after each of its SHUFFLE_PLIES plies: every
 * format keeps the game and the first XQ_REC_COMMENTS_MAX comments, and
 * says so in a warning. */
static void expect_comments_cut(xq_record *r, int rc, const xq_error *err, const char *what)
{
  cr_assert_eq(rc, rc == 1 ? 1 : XQ_OK, "%s: %s", what, err->msg);
  cr_expect_eq(r->n_moves, SHUFFLE_PLIES, "%s", what);
  cr_expect_eq(r->n_comments, XQ_REC_COMMENTS_MAX, "%s", what);
  cr_expect_eq(r->n_warnings, 1, "%s", what);
  cr_expect(strstr(r->warning, "comments left out") != NULL, "%s: %s", what, r->warning);
}

Test(records, comments_past_the_limit_keep_the_game)
{
  static char text[SHUFFLE_PLIES * 64 + 256];
  static unsigned char buf[SHUFFLE_PLIES * 16 + 2048];
  static xnode t[SHUFFLE_PLIES + 1];
  xq_record *r = new_record();
  xq_error err;
  size_t k;

  /* PGN */
  k = (size_t)snprintf(text, sizeof text, "[Format \"ICCS\"]\n\n");
  for (int i = 0; i < SHUFFLE_PLIES; i++)
    k += (size_t)snprintf(text + k, sizeof text - k, "%s {c%d}\n", shuffle[i % 4], i);
  snprintf(text + k, sizeof text - k, "*\n");
  expect_comments_cut(r, read_text(text, 0, r, &err), &err, "PGN");

  /* DhtmlXQ: movelist, then comment1 .. commentN */
  static const char *const squares[4] = {"1927", "1022", "2719", "2210"};
  k = (size_t)snprintf(text, sizeof text, "[DhtmlXQ][DhtmlXQ_movelist]");
  for (int i = 0; i < SHUFFLE_PLIES; i++)
    k += (size_t)snprintf(text + k, sizeof text - k, "%s", squares[i % 4]);
  k += (size_t)snprintf(text + k, sizeof text - k, "[/DhtmlXQ_movelist]\n");
  for (int i = 0; i < SHUFFLE_PLIES; i++)
    k += (size_t)snprintf(text + k, sizeof text - k, "[DhtmlXQ_comment%d]c[/DhtmlXQ_comment%d]",
                          i + 1, i + 1);
  snprintf(text + k, sizeof text - k, "[/DhtmlXQ]");
  size_t used;
  expect_comments_cut(r, xq_dhtmlxq_read(text, strlen(text), r, &used, &err), &err, "DhtmlXQ");

  /* XQF */
  int sq[32];
  start_slots(sq);
  t[0] = (xnode){0, 0, 1, 0, NULL};
  for (int i = 0; i < SHUFFLE_PLIES; i++)
    t[i + 1] = (xnode){xqf_sq(shuffle[i % 4]), xqf_sq(shuffle[i % 4] + 2), i + 1 < SHUFFLE_PLIES,
                       0, "c"};
  unsigned char key[8] = {0xEF, 0xFA, 0x5D, 0x2D, 0x7C, 0x58, 0xDF, 0x29};
  for (int v = 10; v <= 18; v += 8) {
    size_t len = build_xqf(buf, v, key, sq, 0, t, SHUFFLE_PLIES + 1);
    cr_assert_lt(len, sizeof buf);
    expect_comments_cut(r, xq_xqf_read(buf, len, r, NULL, &err), &err, "XQF");
  }
  drop_record(r);
}

/* A DhtmlXQ block past the variation limits (more branches than
 * XQ_REC_VARS_MAX, as in a real 546 KB opening book) keeps its main line
 * and the branches that fit; a branch that goes wrong is cut before its
 * bad move, and one leaving a branch that is not there is left out. */
Test(records, dhtmlxq_past_the_variation_limits_keeps_the_game)
{
  enum { BRANCHES = XQ_REC_VARS_MAX + 100 };
  static char text[BRANCHES * 64 + 512];
  size_t k = (size_t)snprintf(text, sizeof text,
                              "[DhtmlXQiFrame][DhtmlXQ_movelist]77477242[/DhtmlXQ_movelist]\n"
                              "[DhtmlXQ_move_0_2_1]70627967[/DhtmlXQ_move_0_2_1]\n"
                              "[DhtmlXQ_move_1_3_2]79670919[/DhtmlXQ_move_1_3_2]\n"
                              "[DhtmlXQ_move_9_3_3]1022[/DhtmlXQ_move_9_3_3]\n");
  for (int i = 0; i < BRANCHES; i++) /* each another 1... h9g7 */
    k += (size_t)snprintf(text + k, sizeof text - k, "[DhtmlXQ_move_0_2_%d]7062[/DhtmlXQ_move_0_2_%d]",
                          i + 4, i + 4);
  cr_assert_lt(k + 20, sizeof text);
  snprintf(text + k, sizeof text - k, "[/DhtmlXQiFrame]");
  xq_record *r = new_record();
  xq_error err;
  size_t used;
  cr_assert_eq(xq_dhtmlxq_read(text, strlen(text), r, &used, &err), 1, "%s", err.msg);
  char got[TEXT_LINE_MAX];
  moves_text(r, got, sizeof got);
  cr_expect_str_eq(got, "h2e2 h7e7");
  cr_expect_eq(r->n_vars, XQ_REC_VARS_MAX);
  const xq_move *m;
  int n;
  xq_record_line(r, 2, &m, &n);
  cr_expect_eq(n, 1, "branch 2 cut before 0919, which is illegal");
  cr_expect_eq(r->n_warnings, 3, "the cut, the branch whose base is missing, the limit");
  cr_expect_eq(used, strlen(text));
  drop_record(r);
}

/* DhtmlXQ as sites export it: the iframe form dpxq.com pages carry (in
 * an iframe's name, without its closing tag, or wrapped in
 * [DhtmlXQiFrame] ... [/DhtmlXQiFrame]), and blocks that start after a
 * long script: the format is told from the whole file. */
Test(records, dhtmlxq_as_sites_export_it)
{
  char path[256];
  snprintf(path, sizeof path, "/tmp/xq_records_page_%d.html", (int)getpid());
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  fputs("<html><script>\n", f);
  for (int i = 0; i < 2000; i++) /* 80 KB of script before the first block */
    fputs("var board = [\"a\", \"b\"]; /* no record here */\n", f);
  fputs("</script>\n<iframe src=\"DhtmlXQ.htm\" name='NoFile_[DhtmlXQiFrame][DhtmlXQ_ver]www_dpxq_com"
        "[/DhtmlXQ_ver][DhtmlXQ_title]one[/DhtmlXQ_title][DhtmlXQ_movelist]77477242"
        "[/DhtmlXQ_movelist]'></iframe>\n"
        "<p>[DhtmlXQiFrame]\n[DhtmlXQ_title]two[/DhtmlXQ_title]\n"
        "[DhtmlXQ_movelist]7967[/DhtmlXQ_movelist]\n[/DhtmlXQiFrame]</p></html>\n",
        f);
  fclose(f);
  xq_games *g;
  xq_error err;
  cr_assert_eq(xq_games_open(&g, path, 0, &err), XQ_OK, "%s", err.msg);
  cr_expect_eq(xq_games_format(g), XQ_FMT_DHTMLXQ);
  xq_record *r = new_record();
  char got[TEXT_LINE_MAX];
  cr_assert_eq(xq_games_next(g, r, &err), 1, "%s", err.msg);
  cr_expect_str_eq(xq_record_tag(r, "Title"), "one");
  moves_text(r, got, sizeof got);
  cr_expect_str_eq(got, "h2e2 h7e7");
  cr_assert_eq(xq_games_next(g, r, &err), 1, "%s", err.msg);
  cr_expect_str_eq(xq_record_tag(r, "Title"), "two");
  cr_expect_eq(r->n_moves, 1);
  cr_expect_eq(xq_games_next(g, r, &err), 0);
  xq_games_close(g);
  drop_record(r);

  /* a page of which nothing reads is no success for either command */
  f = fopen(path, "w");
  cr_assert_not_null(f);
  fputs("<html><p>no record here</p></html>\n", f);
  fclose(f);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "'%s' stats '%s' >/dev/null 2>&1", XQ_BINARY, path);
  cr_expect_eq(WEXITSTATUS(system(cmd)), 1, "stats: nothing read");
  snprintf(cmd, sizeof cmd, "'%s' convert '%s' - >/dev/null 2>&1", XQ_BINARY, path);
  cr_expect_eq(WEXITSTATUS(system(cmd)), 1, "convert: nothing read");
  remove(path);
}

/* ---- 象棋桥 (CCBridge): CBL, CBR, CBF ------------------------------- */

/* Write `path` with n bytes of b. */
static void write_file(const char *path, const void *b, size_t n)
{
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f);
  cr_assert_eq(fwrite(b, 1, n, f), n);
  fclose(f);
}

/* Every game of `path` read through xq_games (variations kept) into
 * r[0..max): returns how many; the format must be `fmt`. */
static int read_games(const char *path, xq_rec_format fmt, xq_record **r, int max)
{
  xq_games *g;
  xq_error err;
  cr_assert_eq(xq_games_open(&g, path, XQ_PGN_VARIATIONS, &err), XQ_OK, "%s", err.msg);
  cr_expect_eq(xq_games_format(g), fmt, "%s: format %d", path, (int)xq_games_format(g));
  int n = 0, rc;
  while (n < max && (rc = xq_games_next(g, r[n], &err)) != 0) {
    cr_assert_eq(rc, 1, "%s: %s", path, err.msg);
    n++;
  }
  xq_games_close(g);
  return n;
}

/* The tree of test_tree: 1. h2e2 h7e7 2. h0g2, 1. b2e2 b9c7 a variation of
 * the first move, the comment "after two" after h7e7. */
static void expect_test_tree(xq_record *r, const char *what)
{
  char got[TEXT_LINE_MAX];
  moves_text(r, got, sizeof got);
  cr_expect_str_eq(got, "h2e2 h7e7 h0g2", "%s", what);
  cr_assert_eq(r->n_vars, 1, "%s", what);
  const xq_move *m;
  int n;
  xq_record_line(r, 1, &m, &n);
  cr_expect_eq(n, 2, "%s", what);
  cr_expect_eq(r->vars[0].at, 0, "%s", what);
  int found = 0;
  for (int i = 0; i < r->n_comments; i++)
    found |= r->comments[i].line == 0 && r->comments[i].after == 2 &&
             r->comments[i].len == 9 && !memcmp(r->text + r->comments[i].off, "after two", 9);
  cr_expect(found, "%s: the comment after h7e7", what);
}

/* UTF-16LE of ASCII or of the code points cp[] at b[off]. */
static void put_utf16(unsigned char *b, size_t off, const unsigned *cp, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    b[off + 2 * i] = (unsigned char)(cp[i] & 0xFF);
    b[off + 2 * i + 1] = (unsigned char)(cp[i] >> 8);
  }
}

/* A CBR record of version `ver` (1 or 2) holding the test tree, into b;
 * returns its length. Title 测试, Red "Wu", Red wins. */
static size_t build_cbr(unsigned char *b, int ver)
{
  static const unsigned title[2] = {0x6D4B, 0x8BD5}, red[2] = {'W', 'u'};
  size_t off = ver == 1 ? 1856 : 2112;
  memset(b, 0, off + 102);
  memcpy(b, "CCBridge Record", 16);
  b[19] = (unsigned char)ver;
  put_utf16(b, ver == 1 ? 52 : 180, title, 2);
  put_utf16(b, ver == 1 ? 948 : 1076, red, 2);
  b[ver == 1 ? 1820 : 2076] = 1;
  b[off] = 1; /* Red to move */
  /* the standard start, rank 9 first: 0x2? Black, 0x1? Red */
  static const char *const rows[10] = {"rnbakabnr", ".........", ".c.....c.", "p.p.p.p.p",
                                       ".........", ".........", "P.P.P.P.P", ".C.....C.",
                                       ".........", "RNBAKABNR"};
  static const char codes[] = "RNBAKCP";
  for (int r = 0; r < 10; r++)
    for (int f = 0; f < 9; f++) {
      char c = rows[r][f];
      if (c == '.') continue;
      int black = c >= 'a';
      b[off + 8 + r * 9 + f] = (unsigned char)((black ? 0x20 : 0x10) +
                                               (int)(strchr(codes, black ? c - 32 : c) - codes) + 1);
    }
  size_t at = off + 102;
  /* the root's comment record, then the tree in pre-order */
  const struct { const char *from, *to; int sig; const char *comment; } nodes[] = {
    {NULL, NULL, 4, "root"},    {"h2", "e2", 2, NULL}, {"h7", "e7", 4, "after two"},
    {"h0", "g2", 1, NULL},      {"b2", "e2", 0, NULL}, {"b9", "c7", 1, NULL}};
  for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
    int fs = 0, ts = 0;
    if (nodes[i].from) {
      int fx = nodes[i].from[0] - 'a', fr = nodes[i].from[1] - '0';
      int tx = nodes[i].to[0] - 'a', tr = nodes[i].to[1] - '0';
      fs = ver == 1 ? fx << 4 | (9 - fr) : (9 - fr) * 9 + fx;
      ts = ver == 1 ? tx << 4 | (9 - tr) : (9 - tr) * 9 + tx;
    }
    b[at] = (unsigned char)nodes[i].sig;
    b[at + 1] = 0;
    b[at + 2] = (unsigned char)fs;
    b[at + 3] = (unsigned char)ts;
    at += 4;
    if (nodes[i].sig & 4) {
      size_t n = strlen(nodes[i].comment);
      unsigned cp[16];
      for (size_t k = 0; k < n; k++) cp[k] = (unsigned char)nodes[i].comment[k];
      uint32_t len = (uint32_t)(2 * n + 4); /* the text ends in CR LF */
      memcpy(b + at, &len, 4);
      put_utf16(b, at + 4, cp, n);
      b[at + 4 + 2 * n] = '\r';
      b[at + 6 + 2 * n] = '\n';
      b[at + 5 + 2 * n] = b[at + 7 + 2 * n] = 0;
      at += 4 + len;
    }
  }
  return at;
}

Test(records, ccbridge_cbr_and_cbl_library)
{
  static unsigned char b[3 * 8192];
  char path[256];
  xq_record *r[3] = {new_record(), new_record(), new_record()};
  snprintf(path, sizeof path, "/tmp/xq_records_%d.cbr", (int)getpid());
  for (int ver = 1; ver <= 2; ver++) {
    size_t n = build_cbr(b, ver);
    write_file(path, b, n);
    cr_assert_eq(read_games(path, XQ_FMT_CBR, r, 3), 1, "v%d", ver);
    expect_test_tree(r[0], ver == 1 ? "CBR v1" : "CBR v2");
    cr_expect_str_eq(xq_record_tag(r[0], "Title"), "测试");
    cr_expect_str_eq(xq_record_tag(r[0], "Red"), "Wu");
    cr_expect_eq(r[0]->result, XQ_RESULT_RED_WINS);
    cr_expect(r[0]->n_comments >= 1 && r[0]->comments[0].len == 4 &&
              !memcmp(r[0]->text + r[0]->comments[0].off, "root", 4), "the root's comment");
  }
  /* a library: its name at 64, CBR records after its index, each in 4 KiB */
  memset(b, 0, sizeof b);
  memcpy(b, "CCBridgeLibrary", 16);
  static const unsigned name[2] = {'L', 'b'};
  put_utf16(b, 64, name, 2);
  build_cbr(b + 4096, 1);
  build_cbr(b + 8192, 2);
  snprintf(path, sizeof path, "/tmp/xq_records_%d.cbl", (int)getpid());
  write_file(path, b, 3 * 4096);
  cr_assert_eq(read_games(path, XQ_FMT_CBL, r, 3), 2);
  expect_test_tree(r[0], "CBL library, game 1");
  expect_test_tree(r[1], "CBL library, game 2");
  cr_expect_str_eq(xq_record_tag(r[1], "Event"), "Lb", "the library's name");
  remove(path);
  snprintf(path, sizeof path, "/tmp/xq_records_%d.cbr", (int)getpid());
  remove(path);
  for (int i = 0; i < 3; i++) drop_record(r[i]);
}

/* A string of an older CBL book: its length, then its bytes. */
static size_t book_str(unsigned char *b, size_t at, const char *s)
{
  uint32_t n = (uint32_t)strlen(s);
  memcpy(b + at, &n, 4);
  memcpy(b + at + 4, s, n);
  return at + 4 + n;
}

static size_t book_u32(unsigned char *b, size_t at, uint32_t v)
{
  memcpy(b + at, &v, 4);
  return at + 4;
}

/* A game of an older CBL book: the standard start, its moves numbered by
 * ply (a variation restarting at the ply it replaces), a comment line
 * each. */
static size_t book_game(unsigned char *b, size_t at, const char *title, const int *ply,
                        const char *const *moves, const char *const *comments, int n)
{
  size_t start = at;
  at += 4; /* the length, filled in last */
  static const char *const red[16] = {"a0", "b0", "c0", "d0", "e0", "f0", "g0", "h0",
                                      "i0", "b2", "h2", "a3", "c3", "e3", "g3", "i3"};
  for (int i = 0; i < 32; i++) {
    int f = red[i % 16][0] - 'a', rank = red[i % 16][1] - '0';
    if (i >= 16) rank = 9 - rank;
    b[at++] = (unsigned char)((f + 1) << 4 | (9 - rank + 1));
  }
  at = book_u32(b, at, 1);      /* a full game */
  at = book_str(b, at, "");     /* event: the book's title stands for it */
  at = book_u32(b, at, 1);
  at = book_str(b, at, title);
  at = book_str(b, at, "");
  at = book_str(b, at, "");
  at = book_str(b, at, "Site");
  at = book_str(b, at, "1990");
  at = book_str(b, at, "Hu");
  at = book_str(b, at, "Liu");
  at = book_u32(b, at, 3);      /* a draw */
  at = book_str(b, at, "Annotator");
  at = book_str(b, at, "");
  at = book_str(b, at, "Creator");
  at = book_str(b, at, "");
  at = book_str(b, at, "line one||line two");
  b[at++] = 1;
  memset(b + at, ' ', 38);
  at += 38;
  at = book_u32(b, at, (uint32_t)n);
  for (int i = 0; i < n; i++) {
    b[at++] = (unsigned char)ply[i];
    b[at++] = 0;
    for (int k = 0; k < 2; k++) /* file << 4 | row from the top */
      b[at++] = (unsigned char)((moves[i][2 * k] - 'a') << 4 | (9 - (moves[i][2 * k + 1] - '0')));
    b[at++] = 0x5A;
    b[at++] = 0x11;
  }
  for (int i = 0; i < n; i++) {
    memcpy(b + at, comments[i], strlen(comments[i]));
    at += strlen(comments[i]);
    b[at++] = '\r';
    b[at++] = '\n';
  }
  book_u32(b, start, (uint32_t)(at - start));
  return at;
}

/* 象棋桥's older CBL book: a zlib stream of GBK games whose moves are
 * numbered by ply. Each game reads, variations and comments included, and
 * a game with an illegal main-line move is reported and skipped. */
Test(records, ccbridge_cbl_book)
{
  static unsigned char raw[8192], file[8192];
  size_t at = 0;
  at = book_str(raw, at, "Book");
  for (int i = 0; i < 4; i++) at = book_str(raw, at, "");
  memset(raw + at, ' ', 38);
  at += 38;
  at = book_u32(raw, at, 3);
  at = book_str(raw, at, "a book of three games");
  static const int ply[5] = {1, 2, 3, 1, 2};
  static const char *const moves[5] = {"h2e2", "h7e7", "h0g2", "b2e2", "b9c7"};
  static const char *const comments[5] = {"", "after two", "", "", ""};
  at = book_game(raw, at, "one", ply, moves, comments, 5);
  static const char *const bad[2] = {"h2e2", "a9a5"};
  at = book_game(raw, at, "two", ply, bad, comments, 2);
  at = book_game(raw, at, "three", ply, moves, comments, 3);
  memcpy(file, "CCBridge", 8);
  uint32_t v = 21, kind = 1, rawlen = (uint32_t)at;
  memcpy(file + 8, &v, 4);
  memcpy(file + 12, &kind, 4);
  memcpy(file + 16, &rawlen, 4);
  uLongf zn = sizeof file - 20;
  cr_assert_eq(compress(file + 20, &zn, raw, at), Z_OK);
  char path[256];
  snprintf(path, sizeof path, "/tmp/xq_records_%d.CBL", (int)getpid());
  write_file(path, file, 20 + zn);

  xq_games *g;
  xq_error err;
  xq_record *r = new_record();
  cr_assert_eq(xq_games_open(&g, path, XQ_PGN_VARIATIONS, &err), XQ_OK, "%s", err.msg);
  cr_expect_eq(xq_games_format(g), XQ_FMT_CBL);
  cr_assert_eq(xq_games_next(g, r, &err), 1, "%s", err.msg);
  expect_test_tree(r, "CBL book");
  cr_expect_str_eq(xq_record_tag(r, "Title"), "one");
  cr_expect_str_eq(xq_record_tag(r, "Event"), "Book");
  cr_expect_str_eq(xq_record_tag(r, "Red"), "Hu");
  cr_expect_str_eq(xq_record_tag(r, "Creator"), "Creator");
  cr_expect_eq(r->result, XQ_RESULT_DRAW);
  cr_expect(r->comments[0].after == 0 && r->comments[0].len == 17 &&
            !memcmp(r->text + r->comments[0].off, "line one\nline two", 17), "the root's comment");
  cr_expect_eq(xq_games_next(g, r, &err), XQ_EILLEGAL);
  cr_expect_eq(err.ply, 2, "%s", err.msg);
  cr_assert_eq(xq_games_next(g, r, &err), 1, "%s", err.msg);
  cr_expect_str_eq(xq_record_tag(r, "Title"), "three");
  cr_expect_eq(r->n_moves, 3);
  cr_expect_eq(xq_games_next(g, r, &err), 0);
  xq_games_close(g);
  remove(path);
  drop_record(r);
}

/* 象棋桥's CBF: XML, the same tree as the CBR above. */
Test(records, ccbridge_cbf)
{
  static const char xml[] =
    "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n"
    "<ChineseChessRecord Version=\"1.0\">\r\n <Head>\r\n  <Name>&lt;T&gt;</Name>\r\n"
    "  <Red>Wu</Red>\r\n  <Black />\r\n  <RecordResult>2</RecordResult>\r\n"
    "  <FEN>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1</FEN>\r\n"
    " </Head>\r\n <MoveList>\r\n"
    "  <Move value=\"00-00\"><![CDATA[root]]></Move>\r\n"
    "  <Move value=\"77-47\" branch=\"1\" />\r\n"
    "  <Move value=\"72-42\"><![CDATA[after two]]></Move>\r\n"
    "  <Move value=\"79-67\" end=\"1\" />\r\n"
    "  <Move value=\"17-47\" />\r\n"
    "  <Move value=\"10-22\" end=\"1\" />\r\n"
    " </MoveList>\r\n</ChineseChessRecord>\r\n";
  char path[256];
  snprintf(path, sizeof path, "/tmp/xq_records_%d.cbf", (int)getpid());
  write_file(path, xml, sizeof xml - 1);
  xq_record *r = new_record();
  cr_assert_eq(read_games(path, XQ_FMT_CBF, &r, 1), 1);
  expect_test_tree(r, "CBF");
  cr_expect_str_eq(xq_record_tag(r, "Title"), "<T>");
  cr_expect_eq(r->result, XQ_RESULT_BLACK_WINS);
  remove(path);
  drop_record(r);
}

/* ---- games as plain text, and the game sites' files ------------------ */

/* Write `text` to a file named with `ext` and read its games (at most
 * 4) in format `fmt`; returns how many. */
static int text_games(const char *text, size_t n, const char *ext, xq_rec_format fmt,
                      xq_record **r)
{
  char path[256];
  snprintf(path, sizeof path, "/tmp/xq_records_%d.%s", (int)getpid(), ext);
  write_file(path, text, n);
  int k = read_games(path, fmt, r, 4);
  remove(path);
  return k;
}

/* Read `text` (a file ending in `ext`) in format `fmt`: `games` games,
 * the first with the moves `moves` (UCCI, space-separated). */
static void expect_text_games(const char *text, size_t n, const char *ext, xq_rec_format fmt,
                              xq_record **r, int games, const char *moves)
{
  char got[TEXT_LINE_MAX];
  cr_assert_eq(text_games(text, n, ext, fmt, r), games, "%s", ext);
  moves_text(r[0], got, sizeof got);
  cr_expect_str_eq(got, moves, "%s", ext);
}

/* Move lists in text files and pages, without tags: the header lines
 * before each list give its tags. */
Test(records, text_move_lists)
{
  static const char txt[] =
    "说明：这些对局没有 PGN 标记。\n\n第一站\n吉林洪智  红先胜  上海林宏敏\n\n"
    "  1. 炮二平五  马８进７    2. 马二进三  车９平８\n  3. 车一平二\n\n"
    "上海胡荣华  红先和  江苏王斌\n 1.相三进五  炮８平６\n\n"
    "标题: 顺手炮\n红方: 甲\n黑方: 乙\n结果: 红胜\n----------\n"
    "  1. 炮二平五  炮８平５    2. 马二进三  马８进７\n----------\n棋谱由软件生成\n";
  static const char html[] =
    "<html><head><script>var a = \"1. 炮二平五\";</script></head><body>\n"
    "<p>对局名称：测试&nbsp;赛</p><p>红方：胡荣华</p><table>"
    "<tr><td>1. 相三进五</td><td>卒7进1</td></tr><tr><td>2. 兵七进一</td><td>马8进7</td></tr>"
    "</table><p>（和）</p></body></html>\n";
  xq_record *r[4] = {new_record(), new_record(), new_record(), new_record()};
  expect_text_games(txt, sizeof txt - 1, "txt", XQ_FMT_TEXT, r, 3,
                    "h2e2 h9g7 h0g2 i9h9 i0h0");
  cr_expect_str_eq(xq_record_tag(r[0], "Red"), "吉林洪智");
  cr_expect_str_eq(xq_record_tag(r[0], "Black"), "上海林宏敏");
  cr_expect_eq(r[0]->result, XQ_RESULT_RED_WINS);
  cr_expect_eq(r[0]->line, 6, "the game's first move line");
  cr_expect_eq(r[1]->n_moves, 2);
  cr_expect_eq(r[1]->result, XQ_RESULT_DRAW);
  cr_expect_str_eq(xq_record_tag(r[2], "Title"), "顺手炮");
  cr_expect_str_eq(xq_record_tag(r[2], "Red"), "甲");
  cr_expect_eq(r[2]->result, XQ_RESULT_RED_WINS);
  cr_expect_eq(r[2]->n_moves, 4);
  expect_text_games(html, sizeof html - 1, "html", XQ_FMT_TEXT, r, 1,
                    "g0e2 g6g5 c3c4 h9g7");
  cr_expect_str_eq(xq_record_tag(r[0], "Event"), "测试 赛");
  cr_expect_str_eq(xq_record_tag(r[0], "Red"), "胡荣华");
  cr_expect_eq(r[0]->result, XQ_RESULT_DRAW);
  /* prose, even one starting "XQ" as an XQF file does, holds no game */
  static const char readme[] = "XQFTOOLS: tools for XQF files.\n1. Copy them.\n";
  cr_expect_eq(text_games(readme, sizeof readme - 1, "txt", XQ_FMT_TEXT, r), 0);
  for (int i = 0; i < 4; i++) drop_record(r[i]);
}

/* playok.com's WXF files (FORMAT, RED, ..., START{ ... }END, marks before
 * move numbers) and bare UBB move lists (rows counted from the top or
 * from the bottom: the count in which the moves are legal). */
Test(records, text_playok_wxf_and_ubb)
{
  static const char wxf[] =
    "FORMAT  \tWXF\nGAME    \nRED     \tHu;;;\nBLACK   \tLiu;;;\nDATE    \t24-12-2022\n\n"
    "START{\n 1.  C2.5  H8+7     !!2.  H2+3  R9.8\n 3.  R1.2!\n}END\n";
  static const char ubb_top[] = "77477242\n", ubb_bottom[] = "72427967\n";
  xq_record *r[4] = {new_record(), new_record(), new_record(), new_record()};
  expect_text_games(wxf, sizeof wxf - 1, "wxf", XQ_FMT_TEXT, r, 1,
                    "h2e2 h9g7 h0g2 i9h9 i0h0");
  cr_expect_str_eq(xq_record_tag(r[0], "Red"), "Hu");
  cr_expect_str_eq(xq_record_tag(r[0], "Black"), "Liu");
  expect_text_games(ubb_top, sizeof ubb_top - 1, "ubb", XQ_FMT_TEXT, r, 1,
                    "h2e2 h7e7");
  expect_text_games(ubb_bottom, sizeof ubb_bottom - 1, "ubb", XQ_FMT_TEXT, r, 1,
                    "h2e2 h9g7");
  for (int i = 0; i < 4; i++) drop_record(r[i]);
}

/* 象棋世家's MXQ, QQ象棋's CHE, 鹏飞象棋's PFC (its default child first). */
Test(records, mxq_che_pfc)
{
  static const char mxq[] = "\x04Site\x0a" "2003-05-21\x0f" "Hu(1)-\xB8\xBA-Liu(2)\x04" "1630"
                            "\x05Moves\x05" "7C-4C\x05" "7J-6H\x04" "Ends\x0b" "CommentsEnd";
  static const char che[] = "1 2 9 32 1 2 1 2 4 0 1 0 25 32 0 7 1 7 4 0 2 0";
  static const char pfc[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"?><n version=\"2\" win=\"1-0\" "
    "m=\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\" c=\"root\">"
    "<n m=\"b2e2\"><n m=\"b9c7\"/></n><n m=\"h2e2\" default=\"true\"><n m=\"h7e7\" c=\"after "
    "two\"><n m=\"h0g2\"/></n></n></n>";
  xq_record *r[4] = {new_record(), new_record(), new_record(), new_record()};
  expect_text_games(mxq, sizeof mxq - 1, "mxq", XQ_FMT_MXQ, r, 1,
                    "h2e2 h9g7");
  cr_expect_str_eq(xq_record_tag(r[0], "Red"), "Hu(1)");
  cr_expect_str_eq(xq_record_tag(r[0], "Black"), "Liu(2)");
  cr_expect_eq(r[0]->result, XQ_RESULT_BLACK_WINS);
  expect_text_games(che, sizeof che - 1, "che", XQ_FMT_CHE, r, 1,
                    "h2e2 h7e7");
  cr_assert_eq(text_games(pfc, sizeof pfc - 1, "pfc", XQ_FMT_PFC, r), 1);
  expect_test_tree(r[0], "PFC");
  cr_expect_eq(r[0]->result, XQ_RESULT_RED_WINS);
  for (int i = 0; i < 4; i++) drop_record(r[i]);
}

/* ---- the commands --------------------------------------------------- */

Test(records, convert_command_leaves_out_bad_games)
{
  char cmd[1024];
  const char *dir = "/tmp";
  char in[256], out[256];
  snprintf(in, sizeof in, "%s/xq_records_in_%d.pgn", dir, (int)getpid());
  snprintf(out, sizeof out, "%s/xq_records_out_%d.txt", dir, (int)getpid());
  FILE *f = fopen(in, "w");
  cr_assert_not_null(f);
  fputs("[Event \"one\"]\n\n1. h2e2 h7e7 *\n\n[Event \"bad\"]\n\n1. a0a5 *\n\n"
        "[Event \"two\"]\n\n1. C2.5 C8.5 1-0\n",
        f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "'%s' convert '%s' '%s' 2>/dev/null", XQ_BINARY, in, out);
  int st = system(cmd);
  cr_expect_eq(WEXITSTATUS(st), 1, "bad game: exit status 1");
  xq_games *g;
  xq_error err;
  cr_assert_eq(xq_games_open(&g, out, 0, &err), XQ_OK, "%s", err.msg);
  cr_expect_eq(xq_games_format(g), XQ_FMT_DHTMLXQ);
  xq_record *r = new_record();
  int games = 0;
  while (xq_games_next(g, r, &err) == 1) games++;
  cr_expect_eq(games, 2);
  xq_games_close(g);
  snprintf(cmd, sizeof cmd, "'%s' stats '%s' >/dev/null 2>&1", XQ_BINARY, out);
  cr_expect_eq(WEXITSTATUS(system(cmd)), 0);
  remove(in);
  remove(out);
  drop_record(r);
}

/* convert keeps a game whose variation goes wrong (cut, with a warning);
 * stats exits 1 when no game reads, and counts a ruling on a game recorded
 * without a result apart from "differs". */
Test(records, commands_cut_variations_and_count_unrecorded_results)
{
  char cmd[1024], in[256], out[256], log[256], buf[4096];
  snprintf(in, sizeof in, "/tmp/xq_records_var_%d.pgn", (int)getpid());
  snprintf(out, sizeof out, "/tmp/xq_records_var_%d.out.pgn", (int)getpid());
  snprintf(log, sizeof log, "/tmp/xq_records_var_%d.log", (int)getpid());
  FILE *f = fopen(in, "w");
  cr_assert_not_null(f);
  /* a mate in the main line, recorded '*'; a variation with an illegal move */
  fputs("[Event \"mate\"]\n[FEN \"4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1\"]\n\n"
        "1. b1b9 (1. d0e0) *\n",
        f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "'%s' convert '%s' '%s' 2>'%s'", XQ_BINARY, in, out, log);
  cr_expect_eq(WEXITSTATUS(system(cmd)), 0, "a cut variation is no bad game");
  f = fopen(log, "r");
  cr_assert_not_null(f);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  cr_expect(strstr(buf, "warning: line 4: variation cut before its move 1") != NULL, "%s", buf);
  xq_games *g;
  xq_error err;
  xq_record *r = new_record();
  cr_assert_eq(xq_games_open(&g, out, XQ_PGN_VARIATIONS, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_games_next(g, r, &err), 1, "%s", err.msg);
  cr_expect_eq(r->n_moves, 1);
  cr_expect_eq(r->n_vars, 1);
  xq_games_close(g);

  char res[4096];
  snprintf(cmd, sizeof cmd, "'%s' stats '%s' 2>/dev/null", XQ_BINARY, in);
  FILE *p = popen(cmd, "r");
  cr_assert_not_null(p);
  n = fread(res, 1, sizeof res - 1, p);
  res[n] = '\0';
  cr_expect_eq(WEXITSTATUS(pclose(p)), 0);
  cr_expect(strstr(res, "differs from the record  0") != NULL, "%s", res);
  cr_expect(strstr(res, "the record has no result 1") != NULL, "%s", res);

  f = fopen(in, "w");
  fputs("[Event \"bad\"]\n\n1. a0a5 *\n\n[Event \"worse\"]\n\n1. h2h8 *\n", f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "'%s' stats '%s' >/dev/null 2>&1", XQ_BINARY, in);
  cr_expect_eq(WEXITSTATUS(system(cmd)), 1, "every game bad: exit status 1");
  remove(in);
  remove(out);
  remove(log);
  drop_record(r);
}

/* Run shell command `cmd`, its output into out (cap bytes, terminated).
 * Returns its exit status. */
static int run_capture(const char *cmd, char *out, size_t cap)
{
  FILE *p = popen(cmd, "r");
  cr_assert_not_null(p);
  size_t n = fread(out, 1, cap - 1, p);
  out[n] = '\0';
  return WEXITSTATUS(pclose(p));
}

/* stats reads several files in one run: the counts are their sums, each
 * message names its file, and a file that reads no game makes it exit 1. */
Test(records, stats_reads_several_files)
{
  char a[256], b[256], cmd[1024], res[4096];
  snprintf(a, sizeof a, "/tmp/xq_records_sa_%d.pgn", (int)getpid());
  snprintf(b, sizeof b, "/tmp/xq_records_sb_%d.pgn", (int)getpid());
  FILE *f = fopen(a, "w");
  cr_assert_not_null(f);
  fputs("[Event \"one\"]\n\n1. h2e2 h7e7 *\n\n[Event \"two\"]\n\n1. h2e2 *\n", f);
  fclose(f);
  f = fopen(b, "w");
  cr_assert_not_null(f);
  fputs("[Event \"three\"]\n\n1. b2e2 *\n", f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "'%s' stats '%s' '%s' --no-judge 2>&1", XQ_BINARY, a, b);
  cr_expect_eq(run_capture(cmd, res, sizeof res), 0, "%s", res);
  cr_expect(strstr(res, "files       2") && strstr(res, "games       3") &&
            strstr(res, "plies       4"), "%s", res);
  f = fopen(b, "w");
  cr_assert_not_null(f);
  fputs("[Event \"bad\"]\n\n1. a0a5 *\n", f);
  fclose(f);
  cr_expect_eq(run_capture(cmd, res, sizeof res), 1, "a file that reads no game: %s", res);
  cr_expect(strstr(res, b) && strstr(res, "no game read") && strstr(res, "games       2"), "%s",
            res);
  remove(a);
  remove(b);
}

/* ---- DhtmlXQ branches as dpxq.com writes them ------------------------- */

Test(records, dhtmlxq_branches_and_comments)
{
  static const char page[] =
    "<p>two records</p>\n[DhtmlXQ]\n[DhtmlXQ_title]t[/DhtmlXQ_title]\n"
    "[DhtmlXQ_movelist]774772427967706289798081[/DhtmlXQ_movelist]\n"
    "[DhtmlXQ_move_0_2_1]12427967102289790010[/DhtmlXQ_move_0_2_1]\n"
    "[DhtmlXQ_move_1_4_2]7062[/DhtmlXQ_move_1_4_2]\n"
    "[DhtmlXQ_comment0]start[/DhtmlXQ_comment0]\n"
    "[DhtmlXQ_comment3]main||three[/DhtmlXQ_comment3]\n"
    "[DhtmlXQ_comment1_3]branch one, step 3[/DhtmlXQ_comment1_3]\n"
    "[DhtmlXQ_result]和棋[/DhtmlXQ_result]\n[/DhtmlXQ]\n"
    "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]\n";
  xq_record *r = new_record();
  xq_error err;
  size_t used;
  char got[TEXT_LINE_MAX];

  cr_assert_eq(xq_dhtmlxq_read(page, strlen(page), r, &used, &err), 1, "%s", err.msg);
  moves_text(r, got, sizeof got);
  cr_expect_str_eq(got, "h2e2 h7e7 h0g2 h9g7 i0h0 i9i8");
  cr_expect_eq(r->result, XQ_RESULT_DRAW);
  cr_assert_eq(r->n_vars, 2);
  const xq_move *m;
  int n;
  char u[8];
  xq_record_line(r, 1, &m, &n);
  cr_expect_eq(r->vars[0].parent, 0);
  cr_expect_eq(r->vars[0].at, 1); /* step 2 = the second ply */
  cr_expect_eq(n, 5);
  uci(m[0], u);
  cr_expect_str_eq(u, "b7e7");
  xq_record_line(r, 2, &m, &n);
  cr_expect_eq(r->vars[1].parent, 1);
  cr_expect_eq(r->vars[1].at, 2); /* step 4 of branch 1, which starts at step 2 */
  uci(m[0], u);
  cr_expect_str_eq(u, "h9g7");
  cr_assert_eq(r->n_comments, 3);
  for (int i = 0; i < 3; i++) {
    const xq_comment *c = &r->comments[i];
    if (c->line == 1) cr_expect_eq(c->after, 2);
    else if (c->after == 3) cr_expect(!memcmp(r->text + c->off, "main\nthree", c->len));
    else cr_expect_eq(c->after, 0);
  }
  cr_assert_eq(xq_dhtmlxq_read(page + used, strlen(page) - used, r, &used, &err), 1, "%s",
               err.msg);
  cr_expect_eq(r->n_moves, 1);
  drop_record(r);
}

/* The result codes of real pages: wxf.ca's W / L / D and the Chinese forms. */
Test(records, dhtmlxq_result_codes)
{
  static const struct { const char *code; xq_result want; } cases[] = {
    {"W", XQ_RESULT_RED_WINS},      {"L", XQ_RESULT_BLACK_WINS},    {"D", XQ_RESULT_DRAW},
    {"红胜", XQ_RESULT_RED_WINS},   {"黑胜", XQ_RESULT_BLACK_WINS}, {"和棋", XQ_RESULT_DRAW},
    {"红方胜", XQ_RESULT_RED_WINS}, {"黑方胜", XQ_RESULT_BLACK_WINS}, {"和局", XQ_RESULT_DRAW},
    {"紅方勝", XQ_RESULT_RED_WINS}, {"黑方勝", XQ_RESULT_BLACK_WINS}, {"紅負", XQ_RESULT_BLACK_WINS},
    {"先负", XQ_RESULT_BLACK_WINS}, {"黑负", XQ_RESULT_RED_WINS},   {"1-0", XQ_RESULT_RED_WINS},
    {"0-1", XQ_RESULT_BLACK_WINS},  {"1/2-1/2", XQ_RESULT_DRAW},    {"未知", XQ_RESULT_UNKNOWN},
    {"?", XQ_RESULT_UNKNOWN}};
  xq_record *r = new_record();
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char page[512];
    snprintf(page, sizeof page,
             "<div>[DhtmlXQ][DhtmlXQ_title]t[/DhtmlXQ_title][DhtmlXQ_result]%s"
             "[/DhtmlXQ_result][DhtmlXQ_movelist]77477242[/DhtmlXQ_movelist][/DhtmlXQ]</div>",
             cases[i].code);
    xq_error err;
    size_t used;
    cr_assert_eq(xq_dhtmlxq_read(page, strlen(page), r, &used, &err), 1, "%s: %s",
                 cases[i].code, err.msg);
    cr_expect_eq(r->result, cases[i].want, "%s", cases[i].code);
    cr_expect_str_eq(xq_record_tag(r, "Result"), xq_result_pgn(cases[i].want), "%s",
                     cases[i].code);
  }
  drop_record(r);
}

/* A diagram without moves or firstnum: Black moves when only that is legal. */
Test(records, dhtmlxq_diagram_without_moves_takes_the_legal_side)
{
  /* Red rook e5 checks the Black king e9; Red king d0, Red rook f8 */
  static const char page[] =
    "[DhtmlXQ][DhtmlXQ_binit]4499999939999999519999999999999999999999409999999999999999999999"
    "[/DhtmlXQ_binit][/DhtmlXQ]";
  xq_record *r = new_record();
  xq_error err;
  size_t used;
  cr_assert_eq(xq_dhtmlxq_read(page, strlen(page), r, &used, &err), 1, "%s", err.msg);
  cr_expect_eq(r->start.side, XQ_BLACK);
  cr_expect_eq(r->n_moves, 0);
  drop_record(r);
}

/* ---- damaged input never crashes ------------------------------------- */

Test(records, damaged_files_fail_cleanly)
{
  static unsigned char orig[16384], buf[16384];
  static const char *const files[] = {XQF "WildHouse.xqf", XQF "test1.xqf", DATA "gameA.dhtml",
                                      DATA "gameC_gbk_crlf.pgn", DATA "gameB_wxf.pgn"};
  xq_record *r = new_record();
  for (size_t fi = 0; fi < sizeof files / sizeof files[0]; fi++) {
    FILE *f = fopen(files[fi], "rb");
    cr_assert_not_null(f);
    size_t len = fread(orig, 1, sizeof orig - 1, f);
    fclose(f);
    for (int trial = 0; trial < 300; trial++) {
      memcpy(buf, orig, len);
      int flips = 1 + (int)(rng() % 8);
      for (int k = 0; k < flips; k++) {
        size_t at = fi < 2 && rng() % 2 ? 1024 + rng() % (len - 1024) : rng() % len;
        buf[at] = (unsigned char)rng();
      }
      xq_error err = {0, 0, 0, ""};
      int rc;
      if (fi < 2) {
        rc = xq_xqf_read(buf, len, r, NULL, &err);
      } else if (fi == 2) {
        size_t used;
        rc = xq_dhtmlxq_read((const char *)buf, len, r, &used, &err);
        cr_assert_leq(used, len);
      } else {
        FILE *in = fmemopen(buf, len, "r");
        xq_pgn_reader *rd;
        xq_pgn_open(&rd, in, XQ_PGN_VARIATIONS);
        while ((rc = xq_pgn_next(rd, r, &err)) != 0)
          if (rc < 0) cr_assert(err.msg[0], "an error without a message");
        xq_pgn_close(rd);
        fclose(in);
      }
      if (rc < 0) cr_assert(err.msg[0], "%s: an error without a message", files[fi]);
      if (rc >= 0 && r->n_moves) {
        /* whatever was read is a legal game */
        xq_pos p = r->start;
        for (int i = 0; i < r->n_moves; i++) {
          xq_undo u;
          cr_assert(xq_is_legal(&p, r->moves[i]));
          xq_make(&p, r->moves[i], &u);
        }
      }
    }
  }
  drop_record(r);
}

/* Every game of `path` (any format): errors carry a message, what reads is
 * a legal game. */
static void read_all_checked(const char *path, xq_record *r)
{
  xq_games *g;
  xq_error err = {0, 0, 0, ""};
  if (xq_games_open(&g, path, XQ_PGN_VARIATIONS, &err) != XQ_OK) {
    cr_assert(err.msg[0], "%s: an open error without a message", path);
    return;
  }
  int rc;
  while ((rc = xq_games_next(g, r, &err)) != 0) {
    if (rc < 0) {
      cr_assert(err.msg[0], "%s: an error without a message", path);
      continue;
    }
    xq_pos p = r->start;
    for (int i = 0; i < r->n_moves; i++) {
      xq_undo u;
      cr_assert(xq_is_legal(&p, r->moves[i]), "%s: an illegal move read", path);
      xq_make(&p, r->moves[i], &u);
    }
  }
  xq_games_close(g);
}

/* The other formats, damaged at random (an older CBL book before its
 * compression), fail cleanly too: run under the sanitizers, this is where
 * a read past a buffer shows. */
Test(records, damaged_other_formats_fail_cleanly)
{
  static unsigned char orig[16384], buf[16384], z[16384];
  static const char *const texts[] = {
    "吉林洪智  红先胜  上海林宏敏\n  1. 炮二平五  马８进７    2. 马二进三  车９平８\n",
    "FORMAT  \tWXF\nRED     \tHu;;;\nSTART{\n 1.  C2.5  H8+7     !!2.  H2+3  R9.8\n}END\n",
    "\x04Site\x0a" "2003-05-21\x0f" "Hu(1)-\xB8\xBA-Liu(2)\x05Moves\x05" "7C-4C\x05" "7J-6H\x04" "Ends",
    "1 2 9 32 1 2 1 2 4 0 1 0 25 32 0 7 1 7 4 0 2 0",
    "<n version=\"2\" m=\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\">"
    "<n m=\"b2e2\"><n m=\"b9c7\"/></n><n m=\"h2e2\" default=\"true\"><n m=\"h7e7\"/></n></n>",
    "<ChineseChessRecord><MoveList><Move value=\"00-00\" /><Move value=\"77-47\" branch=\"1\" />"
    "<Move value=\"72-42\" end=\"1\" /><Move value=\"17-47\" end=\"1\" /></MoveList>"
    "</ChineseChessRecord>"};
  char path[256];
  snprintf(path, sizeof path, "/tmp/xq_records_damaged_%d", (int)getpid());
  xq_record *r = new_record();
  for (int kind = 0; kind < 9; kind++) {
    size_t len;
    if (kind < 6) {
      len = strlen(texts[kind]);
      memcpy(orig, texts[kind], len);
    } else if (kind < 8) {
      len = build_cbr(orig, kind - 5);
    } else { /* an older CBL book: damaged before it is compressed */
      static const int ply[5] = {1, 2, 3, 1, 2};
      static const char *const moves[5] = {"h2e2", "h7e7", "h0g2", "b2e2", "b9c7"};
      static const char *const comments[5] = {"", "c", "", "", ""};
      len = book_str(orig, 0, "Book");
      for (int i = 0; i < 4; i++) len = book_str(orig, len, "");
      memset(orig + len, ' ', 38);
      len = book_u32(orig, len + 38, 1);
      len = book_str(orig, len, "");
      len = book_game(orig, len, "one", ply, moves, comments, 5);
    }
    for (int trial = 0; trial < 150; trial++) {
      memcpy(buf, orig, len);
      for (int k = 1 + (int)(rng() % 6); k > 0; k--) buf[rng() % len] = (unsigned char)rng();
      size_t n = len;
      if (kind == 8) { /* into its zlib container */
        memcpy(z, "CCBridge\x15\0\0\0\x01\0\0\0", 12);
        uint32_t raw = (uint32_t)len;
        memcpy(z + 16, &raw, 4);
        uLongf zn = sizeof z - 20;
        cr_assert_eq(compress(z + 20, &zn, buf, len), Z_OK);
        memcpy(buf, z, 20 + zn);
        n = 20 + zn;
      }
      write_file(path, buf, n);
      read_all_checked(path, r);
    }
  }
  remove(path);
  drop_record(r);
}

/* The archive of random games that benchmarks run on (`xqref bench
 * --gen-pgn`): legal games that the readers take whole, the same for the
 * same seed, another for another seed; bad arguments are usage errors. */
Test(records, random_games_are_legal_and_repeat_by_seed)
{
  char *a = NULL, *b = NULL, *c = NULL;
  size_t na = 0, nb = 0, nc = 0;
  FILE *fa = open_memstream(&a, &na), *fb = open_memstream(&b, &nb), *fc = open_memstream(&c, &nc);
  xq_error err = {0};
  cr_assert_eq(xq_pgn_write_random(fa, 5, 42, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_pgn_write_random(fb, 5, 42, &err), XQ_OK);
  cr_assert_eq(xq_pgn_write_random(fc, 5, 43, &err), XQ_OK);
  fclose(fa), fclose(fb), fclose(fc);
  cr_assert(na > 0 && na == nb && !memcmp(a, b, na), "the same seed writes the same games");
  cr_assert(na != nc || memcmp(a, c, na), "another seed writes other games");
  cr_assert_eq(xq_pgn_write_random(stdout, 0, 1, &err), XQ_EINVAL, "no games is not an archive");
  free(a), free(b), free(c);

  char path[256], args[600];
  xq_test_db_path(path, sizeof path, "genpgn");
  int st;
  snprintf(args, sizeof args, "bench --gen-pgn 7 '%s' 3", path);
  free(xq_test_run(args, &st));
  cr_assert_eq(st, 0);
  snprintf(args, sizeof args, "stats '%s'", path);
  char *out = xq_test_run(args, &st);
  cr_assert_eq(st, 0, "%s", out);
  cr_assert(strstr(out, "games       7\n") && strstr(out, "bad         0\n"), "%s", out);
  free(out);
  remove(path);
  out = xq_test_run("bench --gen-pgn x /tmp/xq-never.pgn", &st);
  cr_assert_eq(st, 2);
  cr_assert(strstr(out, "N must be 1..10000000"), "%s", out);
  free(out);
  out = xq_test_run("bench --gen-pgn 3 /nonexistent-dir/g.pgn", &st);
  cr_assert_eq(st, 1);
  cr_assert(strstr(out, "cannot create /nonexistent-dir/g.pgn"), "%s", out);
  free(out);
}

/* ---- GBK text whose bytes are valid UTF-8 ---------------------------- */

/* UTF-8 `text` in GBK, into out (cap bytes, terminated). */
static void to_gbk(const char *text, char *out, size_t cap)
{
  iconv_t cd = iconv_open("GBK", "UTF-8");
  cr_assert_neq(cd, (iconv_t)-1);
  char *in = (char *)text, *o = out;
  size_t left = strlen(text), room = cap - 1;
  cr_assert_neq(iconv(cd, &in, &left, &o, &room), (size_t)-1, "%s", text);
  *o = 0;
  iconv_close(cd);
}

/* A one-game PGN file of Red `red`, Black `black` and, when not NULL,
 * Site `site` (each UTF-8, written in GBK when `gbk`), read back: Red and
 * Black into red_out / black_out, the first warning into warn (empty
 * when none). */
static void read_names(const char *red, const char *black, const char *site, int gbk, char *red_out,
                       char *black_out, char *warn)
{
  char r[128], b[128], st[128], path[256], text[1024];
  if (gbk) {
    to_gbk(red, r, sizeof r);
    to_gbk(black, b, sizeof b);
    if (site) to_gbk(site, st, sizeof st);
  } else {
    snprintf(r, sizeof r, "%s", red);
    snprintf(b, sizeof b, "%s", black);
    if (site) snprintf(st, sizeof st, "%s", site);
  }
  int n = snprintf(text, sizeof text, "[Game \"Chinese Chess\"]\n[Event \"Test\"]\n%s%s%s[Red \"%s\"]\n"
                   "[Black \"%s\"]\n[Result \"1-0\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H7-E7\n2. H0-G2 I9-I8 1-0\n",
                   site ? "[Site \"" : "", site ? st : "", site ? "\"]\n" : "", r, b);
  snprintf(path, sizeof path, "/tmp/xq_records_gbk_%d.pgn", (int)getpid());
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f);
  cr_assert_eq(fwrite(text, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  xq_games *g;
  xq_error err;
  cr_assert_eq(xq_games_open(&g, path, 0, &err), XQ_OK, "%s", err.msg);
  xq_record *rec = new_record();
  cr_assert_eq(xq_games_next(g, rec, &err), 1, "%s", err.msg);
  snprintf(red_out, 128, "%s", xq_record_tag(rec, "Red") ? xq_record_tag(rec, "Red") : "");
  snprintf(black_out, 128, "%s", xq_record_tag(rec, "Black") ? xq_record_tag(rec, "Black") : "");
  snprintf(warn, XQ_REC_WARNING_MAX, "%s", rec->n_warnings ? rec->warning : "");
  xq_games_close(g);
  drop_record(rec);
  remove(path);
}

/* Well-known players' names in a GBK file of ASCII otherwise: each comes
 * back as it is, though 郑惟桐 in GBK (D6A3 CEA9 CDA9) is also valid
 * UTF-8 (U+05A3 U+03A9 U+0369: a Hebrew accent, omega, a combining mark). */
Test(records, gbk_names_valid_as_utf8_are_read_as_gbk)
{
  static const char *const names[] = {"赵国荣", "吕钦", "胡荣华", "许银川", "王天一", "郑惟桐", "蒋川", "洪智",
                                      "汪洋", "谢靖", "孙勇征", "赵鑫鑫", "徐天红", "李来群", "柳大华", "陶汉明",
                                      "于幼华", "卜凤波", "金波", "聂铁文", "郝继超", "王斌", "蒋凤山", "尚威"};
  char gbk[64], red[128], black[128], warn[XQ_REC_WARNING_MAX];
  to_gbk("郑惟桐", gbk, sizeof gbk);
  cr_assert(xq_utf8_valid(gbk, strlen(gbk)), "the case in point: GBK bytes that are UTF-8");
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    read_names(names[i], "Wang Tianyi", NULL, 1, red, black, warn);
    cr_expect_str_eq(red, names[i]);
    cr_expect_str_eq(warn, "", "%s: %s", names[i], warn);
  }
  /* and in UTF-8, with accents and a section sign, nothing changes */
  read_names("郑惟桐", "José Núñez §2", "北京", 0, red, black, warn);
  cr_expect_str_eq(red, "郑惟桐");
  cr_expect_str_eq(black, "José Núñez §2");
  cr_expect_str_eq(warn, "");
}

/* Bytes that read plausibly both ways (莽锚 in GBK is "çê" in UTF-8) are
 * read with a warning: as UTF-8 in a file all UTF-8, as GBK in a file
 * whose other text is GBK (the whole file is looked at first, the line
 * that tells coming after it). */
Test(records, text_that_reads_both_ways_is_warned_of)
{
  char red[128], black[128], warn[XQ_REC_WARNING_MAX];
  read_names("Zheng Weitong", "莽锚", NULL, 1, red, black, warn);
  cr_expect_str_eq(black, "çê");
  cr_expect(strstr(warn, "reads both as UTF-8 and as GBK: read as UTF-8"), "%s", warn);
  read_names("Zheng Weitong", "莽锚", "北京", 1, red, black, warn);
  cr_expect_str_eq(black, "莽锚");
  cr_expect(strstr(warn, "reads both as UTF-8 and as GBK: read as GBK"), "%s", warn);
}

/* Clock comments (docs/records.md, "Clocks"): a PGN's {[%clk H:MM:SS]}
 * after each move is written back as read, in PGN and in DhtmlXQ (whose
 * comments hold it as ［%clk ...］, read back as [%clk ...]), and a
 * comment's own full-width brackets stay as they are. */
Test(records, clock_comments_kept_through_pgn_and_dhtmlxq)
{
  static const char text[] = "[Game \"Chinese Chess\"]\n\n"
                             "1. h2e2 {[%clk 1:29:51]} h9g7 {[%clk 1:29:47.5] ［注］}\n"
                             "2. h0g2 {[%emt 0:00:17] [%clk 1:29:30.25]} i9h9 {[%clk 1:29:41]} *\n";
  xq_record *r = new_record();
  xq_error err = {0, 0, 0, ""};
  cr_assert_eq(read_text(text, 0, r, &err), 1, "%s", err.msg);
  cr_assert_eq(r->n_comments, 4);
  roundtrip_all(r, "clocks");

  membuf m;
  mem_open(&m);
  cr_assert_eq(xq_dhtmlxq_write(m.f, r, &err), XQ_OK);
  mem_close(&m);
  cr_assert(strstr(m.p, "[DhtmlXQ_comment1]［%clk 1:29:51］[/DhtmlXQ_comment1]"), "%s", m.p);
  xq_record *back = new_record();
  size_t used = 0;
  cr_assert_eq(xq_dhtmlxq_read(m.p, m.n, back, &used, &err), 1, "%s", err.msg);
  static const char *const want[4] = {"[%clk 1:29:51]", "[%clk 1:29:47.5] ［注］",
                                      "[%emt 0:00:17] [%clk 1:29:30.25]", "[%clk 1:29:41]"};
  cr_assert_eq(back->n_comments, 4);
  for (int i = 0; i < 4; i++) {
    const xq_comment *c = &back->comments[i];
    cr_assert_eq(c->after, i + 1);
    cr_assert_eq(c->len, strlen(want[i]), "comment %d: %.*s", i + 1, (int)c->len, back->text + c->off);
    cr_assert(!memcmp(back->text + c->off, want[i], c->len), "comment %d: %.*s", i + 1, (int)c->len,
              back->text + c->off);
  }
  free(m.p);
  drop_record(back);
  drop_record(r);
}
