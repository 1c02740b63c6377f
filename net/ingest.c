/*
 * ingest.c -- PGN ingestion for events without digital boards
 * (docs/http.md, "PGN push" and "Polling a PGN URL"): a pushed or polled PGN document is read game by game, each game is
 * matched to its table and the live game is brought in line with it.
 *
 * The rules, from what broadcast users ask for (docs/http.md, "PGN push"):
 *   - games are keyed by (round, table): a [Round "3.5"] tag (round.table),
 *     a [Table] or [Board] tag, or the Red and Black names against the
 *     round's pairing -- never by their position in the file;
 *   - the source is authoritative: the same moves change nothing, new
 *     moves are appended, a differing move replaces the game's line from
 *     the first differing ply ("truncate:N" restarts the game and replays
 *     its first N plies, then the source's moves follow);
 *   - an illegal move in the source is judged by the adjudicator like a
 *     board's (a foul, or a loss under P9) and reported with its ply,
 *     never dropped in silence; pushing the same document again does not
 *     record it twice;
 *   - a result other than "*" is recorded as the source gives it.
 * Everything one game needs goes into one game-log row; the push is
 * answered, and its broadcasts published, only once that row is durable.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commit.h"
#include "hub.h"
#include "ingest.h"
#include "internal.h"
#include "live.h"
#include "records.h"

/* Per round and table: a digest of the last illegal move recorded from a
 * source (prefix, ply and text), so that pushing the same PGN again does
 * not record the same foul twice. */
struct xq__ingest {
  uint64_t *illegal_seen[XQ_ROUNDS_LIVE_MAX + 1];
  int illegal_n[XQ_ROUNDS_LIVE_MAX + 1];
};

/* ------------------------------------------------------------------ */
/* State                                                               */
/* ------------------------------------------------------------------ */

int xq__ingest_init(xq__server *s)
{
  s->ingest = calloc(1, sizeof *s->ingest);
  return s->ingest ? XQ_OK : XQ_ENOMEM;
}

void xq__ingest_free(xq__server *s)
{
  xq__ingest *in = s->ingest;
  if (!in) return;
  for (int r = 0; r <= XQ_ROUNDS_LIVE_MAX; r++) free(in->illegal_seen[r]);
  free(in);
  s->ingest = NULL;
}

static uint64_t *seen_slot(xq__server *s, int round, int board)
{
  xq__ingest *in = s->ingest;
  if (!in || round < 1 || round > XQ_ROUNDS_LIVE_MAX || board < 1) return NULL;
  if (board > in->illegal_n[round]) {
    int n = s->nboards[round] > board ? s->nboards[round] : board;
    uint64_t *a = realloc(in->illegal_seen[round], (size_t)n * sizeof *a);
    if (!a) return NULL;
    memset(a + in->illegal_n[round], 0, (size_t)(n - in->illegal_n[round]) * sizeof *a);
    in->illegal_seen[round] = a;
    in->illegal_n[round] = n;
  }
  return &in->illegal_seen[round][board - 1];
}

/* ------------------------------------------------------------------ */
/* The text of a bad move                                              */
/* ------------------------------------------------------------------ */

/* The records reader reports an illegal move by its ply; the adjudicator
 * needs its text. Find the ply-th move token of the game that starts on
 * line `line` (1-based, LF, CR LF or CR endings) of text[0..len), with
 * the reader's movetext rules: tag lines, {comments}, ; comments,
 * (variations), $NAGs, move numbers and "..." are not moves; a result
 * ends the game. Ranks 1-10 ICCS tokens ([Variant "xiangqi"]) are turned
 * to 0-9. Returns 1 with out filled, 0 when not found. */
static int move_token(const char *text, size_t len, long line, int ply, int ranks_from_1, char *out,
                      size_t cap)
{
  size_t i = 0;
  for (long l = 1; l < line && i < len; i++) {
    if (text[i] == '\n') l++;
    else if (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n')) l++;
  }
  int at_line_start = 1, in_tags = 1, depth = 0, count = 0;
  while (i < len) {
    char c = text[i];
    if (c == '\n' || c == '\r') {
      at_line_start = 1;
      i++;
      continue;
    }
    if (at_line_start) {
      size_t j = i;
      while (j < len && (text[j] == ' ' || text[j] == '\t')) j++;
      if (j < len && (text[j] == '[' || text[j] == '%') && (in_tags || text[j] == '%')) {
        while (i < len && text[i] != '\n' && text[i] != '\r') i++;
        continue;
      }
      if (j < len && text[j] == '[' && !depth) return 0; /* the next game */
      at_line_start = 0;
      if (j < len && text[j] != '\n' && text[j] != '\r') in_tags = 0;
    }
    if (c == ' ' || c == '\t') {
      i++;
      continue;
    }
    if (c == '{') {
      while (i < len && text[i] != '}') i++;
      i++;
      continue;
    }
    if (c == ';') {
      while (i < len && text[i] != '\n' && text[i] != '\r') i++;
      continue;
    }
    if (c == '(' || c == ')') {
      depth += c == '(' ? 1 : -1;
      i++;
      continue;
    }
    if (c == '$') {
      i++;
      while (i < len && text[i] >= '0' && text[i] <= '9') i++;
      continue;
    }
    size_t s = i;
    while (i < len && !strchr(" \t\r\n{}()[];$", text[i]) &&
           !(i + 2 < len && (unsigned char)text[i] == 0xE3 && (unsigned char)text[i + 1] == 0x80 &&
             (unsigned char)text[i + 2] == 0x80))
      i++;
    if (i == s) { /* a stray delimiter or an ideographic space */
      i += (unsigned char)text[i] == 0xE3 ? 3 : 1;
      continue;
    }
    if (depth) continue;
    char tok[64];
    size_t n = i - s < sizeof tok - 1 ? i - s : sizeof tok - 1;
    memcpy(tok, text + s, n);
    tok[n] = 0;
    if (!strcmp(tok, "*") || xq_result_parse(tok) != XQ_RESULT_UNKNOWN) return 0;
    char *t = tok;
    if (t[0] >= '0' && t[0] <= '9') {
      size_t d = 0;
      while (t[d] >= '0' && t[d] <= '9') d++;
      if (t[d] == '.') {
        size_t e = d;
        while (t[e] == '.') e++;
        if (!t[e]) continue;
        if (!(t[e] >= '0' && t[e] <= '9')) t += e;
      }
    }
    if (!strcmp(t, "...") || !strcmp(t, "\xE2\x80\xA6")) continue;
    n = strlen(t);
    while (n > 0 && (t[n - 1] == '!' || t[n - 1] == '?')) t[--n] = 0;
    if (!n || ++count < ply) continue;
    if (ranks_from_1) {
      /* h3e3 -> h2e2, h10g8 -> h9g7 */
      char r0[64];
      size_t o = 0, k = 0;
      int ok = 1;
      for (int half = 0; half < 2 && ok; half++) {
        if (!((t[k] >= 'a' && t[k] <= 'i') || (t[k] >= 'A' && t[k] <= 'I'))) ok = 0;
        else r0[o++] = t[k++];
        if (!ok) break;
        if (t[k] == '1' && t[k + 1] == '0') r0[o++] = '9', k += 2;
        else if (t[k] >= '1' && t[k] <= '9') r0[o++] = (char)(t[k++] - 1);
        else ok = 0;
        if (ok && half == 0 && t[k] == '-') r0[o++] = t[k++];
      }
      if (ok && !t[k]) {
        r0[o] = 0;
        t = r0;
        snprintf(out, cap, "%s", t);
        return 1;
      }
    }
    snprintf(out, cap, "%s", t);
    return 1;
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* Reading the document                                                */
/* ------------------------------------------------------------------ */

/* One game of the document, as far as it could be read. */
typedef struct src_game {
  cJSON *tags;                 /* every tag, for the reply */
  char round_tag[32], table_tag[16], red[XQ_TOURNEY_NAME_MAX], black[XQ_TOURNEY_NAME_MAX];
  int variant_xiangqi;
  int readable;                /* moves[] holds its main line, or the part before a bad move */
  xq_pos start;
  int fen;                     /* a FEN tag gave the start */
  xq_move *moves;
  int n;
  xq_result result;
  long *clk;                   /* [%clk] after each move: the mover's time left in ms, -1 none */
  int bad_ply;                 /* 1-based ply of a move that could not be read, 0 none */
  char bad_tok[64];            /* its text */
  char error[XQ_ERR_MSG_LEN];  /* why the game could not be read at all */
} src_game;

static void src_free(src_game *g, int n)
{
  for (int i = 0; i < n; i++) {
    cJSON_Delete(g[i].tags);
    free(g[i].moves);
    free(g[i].clk);
  }
  free(g);
}

static void copy_tag(const xq_record *rec, const char *name, char *out, size_t cap)
{
  const char *v = xq_record_tag(rec, name);
  snprintf(out, cap, "%s", v ? v : "");
}

/* Digits in one part of a [%clk] reading, at most. */
#define XQ__CLK_DIGITS 4

/* A DGT-style clock comment "[%clk H:MM:SS]" (docs/records.md, "PGN reading"; docs/http.md, "PGN push") in
 * text[0..len): the time in ms, or -1. */
static long clk_ms(const char *text, size_t len)
{
  for (size_t i = 0; i + 6 <= len; i++) {
    if (memcmp(text + i, "[%clk", 5)) continue;
    const char *p = text + i + 5, *end = text + len;
    while (p < end && *p == ' ') p++;
    long part[3] = {0, 0, 0};
    int k = 0, digits = 0;
    long frac = 0; /* ms: the first three digits after the point, the rest dropped */
    for (; p < end && k < 3; p++) {
      if (*p >= '0' && *p <= '9') {
        if (++digits > XQ__CLK_DIGITS) return -1; /* no overflow: 9999 h at most */
        part[k] = part[k] * 10 + (*p - '0');
      }
      else if (*p == ':' && digits) k++, digits = 0;
      else break;
    }
    if (p < end && *p == '.' && k == 2) {
      long scale = 100;
      for (p++; p < end && *p >= '0' && *p <= '9'; p++, scale /= 10) frac += (*p - '0') * scale;
    }
    if (k != 2 || !digits || p >= end || *p != ']' || part[1] > 59 || part[2] > 59) return -1;
    long ms = ((part[0] * 60 + part[1]) * 60 + part[2]) * 1000 + frac;
    return ms <= INT32_MAX ? ms : -1; /* a clock reading's range (protocol.md) */
  }
  return -1;
}

/* The [%clk] of each main-line move of `rec` into g->clk. */
static int read_clocks(const xq_record *rec, src_game *g)
{
  for (int c = 0; c < rec->n_comments; c++) {
    const xq_comment *cm = &rec->comments[c];
    if (cm->line != 0 || cm->after < 1 || cm->after > g->n) continue;
    long ms = clk_ms(rec->text + cm->off, cm->len);
    if (ms < 0) continue;
    if (!g->clk) {
      if (!(g->clk = malloc(sizeof *g->clk * (size_t)g->n))) return XQ_ENOMEM;
      for (int i = 0; i < g->n; i++) g->clk[i] = -1;
    }
    g->clk[cm->after - 1] = ms;
  }
  return XQ_OK;
}

/* Read every game of text[0..len) into *out (*n games). Returns XQ_OK,
 * XQ_ELIMIT (more than XQ_PGN_PUSH_GAMES_MAX games), XQ_EINVAL (no game)
 * or XQ_ENOMEM, with err. */
static int read_games(const char *text, size_t len, src_game **out, int *n, xq_error *err)
{
  *out = NULL;
  *n = 0;
  FILE *f = fmemopen((void *)text, len, "r");
  xq_pgn_reader *rd = NULL;
  xq_record *rec = malloc(sizeof *rec);
  src_game *games = calloc(XQ_PGN_PUSH_GAMES_MAX, sizeof *games);
  int rc = XQ_OK, count = 0;
  if (!f || !rec || !games || xq_pgn_open(&rd, f, 0) != XQ_OK) {
    rc = XQ_ENOMEM;
    snprintf(err->msg, sizeof err->msg, "out of memory");
    goto out;
  }
  xq_record_init(rec);
  for (;;) {
    xq_error e = {0};
    int r = xq_pgn_next(rd, rec, &e);
    if (r == 0) break;
    if (r == XQ_EIO) {
      rc = XQ_EIO;
      snprintf(err->msg, sizeof err->msg, "the PGN could not be read");
      goto out;
    }
    if (count == XQ_PGN_PUSH_GAMES_MAX) {
      rc = XQ_ELIMIT;
      snprintf(err->msg, sizeof err->msg, "more than %d games in one push", XQ_PGN_PUSH_GAMES_MAX);
      goto out;
    }
    src_game *g = &games[count++];
    g->tags = cJSON_CreateObject();
    for (int t = 0; t < rec->n_tags; t++)
      cJSON_AddStringToObject(g->tags, rec->tags[t].name, rec->tags[t].value);
    copy_tag(rec, "Round", g->round_tag, sizeof g->round_tag);
    copy_tag(rec, "Table", g->table_tag, sizeof g->table_tag);
    if (!g->table_tag[0]) copy_tag(rec, "Board", g->table_tag, sizeof g->table_tag);
    copy_tag(rec, "Red", g->red, sizeof g->red);
    copy_tag(rec, "Black", g->black, sizeof g->black);
    const char *variant = xq_record_tag(rec, "Variant");
    g->variant_xiangqi = variant && !strcasecmp(variant, "xiangqi");
    const char *fen = xq_record_tag(rec, "FEN");
    g->fen = fen && *fen;
    g->start = rec->start;
    g->result = rec->result;
    if (r == 1 || (e.ply > 0 && (r == XQ_EILLEGAL || r == XQ_ENOTATION || r == XQ_EAMBIGUOUS))) {
      /* a whole game, or the moves before one that does not read */
      g->readable = 1;
      g->n = rec->n_moves;
      g->moves = malloc(sizeof *g->moves * ((size_t)g->n + 1));
      if (!g->moves) {
        rc = XQ_ENOMEM;
        snprintf(err->msg, sizeof err->msg, "out of memory");
        goto out;
      }
      memcpy(g->moves, rec->moves, sizeof *g->moves * (size_t)g->n);
      if (read_clocks(rec, g) != XQ_OK) {
        rc = XQ_ENOMEM;
        snprintf(err->msg, sizeof err->msg, "out of memory");
        goto out;
      }
      if (r != 1) {
        g->bad_ply = e.ply;
        if (!move_token(text, len, rec->line, e.ply, g->variant_xiangqi, g->bad_tok, sizeof g->bad_tok))
          snprintf(g->bad_tok, sizeof g->bad_tok, "?");
        /* the reply says the ply itself: drop the reader's "game G, line
         * L, ply P: " prefix */
        const char *m = e.msg;
        if (!strncmp(m, "game ", 5) && strstr(m, ": ")) m = strstr(m, ": ") + 2;
        snprintf(g->error, sizeof g->error, "%s", m);
      }
    } else {
      snprintf(g->error, sizeof g->error, "%s", e.msg[0] ? e.msg : xq_strerror(r));
    }
  }
  if (!count) {
    rc = XQ_EINVAL;
    snprintf(err->msg, sizeof err->msg, "no PGN game in the document");
  }
out:
  xq_pgn_close(rd);
  if (f) fclose(f);
  if (rec) xq_record_free(rec);
  free(rec);
  if (rc != XQ_OK) {
    if (games) src_free(games, count);
    err->code = rc;
    return rc;
  }
  *out = games;
  *n = count;
  return XQ_OK;
}

/* ------------------------------------------------------------------ */
/* Matching a game to its table                                        */
/* ------------------------------------------------------------------ */

/* Names compare without surrounding blanks, ASCII case-insensitively. */
static int same_name(const char *a, const char *b)
{
  while (*a == ' ') a++;
  while (*b == ' ') b++;
  size_t na = strlen(a), nb = strlen(b);
  while (na && a[na - 1] == ' ') na--;
  while (nb && b[nb - 1] == ' ') nb--;
  return na == nb && na > 0 && !strncasecmp(a, b, na);
}

static const char *player_name(const xq__server *s, int id)
{
  return s->ev && id >= 1 && id <= s->ev->n ? s->ev->players[id - 1].name : "";
}

/* A whole positive number, or -1. */
static int whole(const char *s, const char **end)
{
  long v = 0;
  int d = 0;
  while (*s >= '0' && *s <= '9' && v < 100000) v = v * 10 + (*s++ - '0'), d++;
  if (end) *end = s;
  return d ? (int)v : -1;
}

/* The table of round `round` game `g` belongs to, or 0 with `why`. */
static int match_table(xq__server *s, int round, const src_game *g, char *why, size_t cap)
{
  int table = -1;
  const char *e;
  if (g->round_tag[0]) {
    int r = whole(g->round_tag, &e);
    if (r > 0 && (*e == '.' || !*e)) {
      if (r != round) {
        snprintf(why, cap, "the game is for round %d (Round \"%s\"), pushed to round %d", r, g->round_tag, round);
        return 0;
      }
      if (*e == '.') {
        table = whole(e + 1, &e);
        if (table <= 0 || *e) {
          snprintf(why, cap, "Round \"%s\" is not ROUND.TABLE", g->round_tag);
          return 0;
        }
      }
    }
  }
  if (table < 0 && g->table_tag[0]) {
    table = whole(g->table_tag, &e);
    if (table <= 0 || *e) {
      snprintf(why, cap, "Table \"%s\" is not a table number", g->table_tag);
      return 0;
    }
  }
  if (table > 0) {
    if (!xq__live_get(s, round, table)) {
      snprintf(why, cap, "round %d has no game at table %d", round, table);
      return 0;
    }
    return table;
  }
  if (!g->red[0] || !g->black[0]) {
    snprintf(why, cap, "no table: give [Round \"%d.T\"], [Table] or the Red and Black names", round);
    return 0;
  }
  for (int b = 1; b <= s->nboards[round]; b++) {
    const xq__live *lv = xq__live_get(s, round, b);
    if (!lv) continue;
    const char *rn = player_name(s, lv->red), *bn = player_name(s, lv->black);
    if (same_name(g->red, rn) && same_name(g->black, bn)) return b;
    if (same_name(g->red, bn) && same_name(g->black, rn)) {
      snprintf(why, cap, "Red and Black are the other way round at table %d of round %d", b, round);
      return 0;
    }
  }
  snprintf(why, cap, "round %d has no board %.100s - %.100s", round, g->red, g->black);
  return 0;
}

/* ------------------------------------------------------------------ */
/* Bringing a game in line with its source                             */
/* ------------------------------------------------------------------ */

/* One push (or one polled document) between reading and durability. */
typedef struct push {
  xq__server *s;
  int round;
  cJSON *reply;                /* {"games":[...]} */
  xq__ingest_done done;
  void *arg;
} push;

typedef struct bcast {
  const char *type;
  char *data;
} bcast;

/* What a push applied to one game: its events (the game-log row), how
 * many steps applied them (a move and the clock reading after it are
 * one), their broadcasts and the view of the game after them, both for
 * when the row is durable. */
typedef struct applied {
  xq_events ev;
  int count;
  bcast *b;
  int nb, capb;
  xq__live *lv;
  xq__view *view;
} applied;

static void applied_free(applied *k)
{
  for (int i = 0; i < k->nb; i++) free(k->b[i].data);
  free(k->b);
  xq__live_view_free(k->view);
  xq_events_clear(&k->ev);
  k->b = NULL;
  k->nb = k->capb = 0;
  k->view = NULL;
}

static int add_bcast(applied *k, const char *type, char *data)
{
  if (!data) return XQ_ENOMEM;
  if (k->nb == k->capb) {
    int cap = k->capb ? k->capb * 2 : 16;
    bcast *n = realloc(k->b, (size_t)cap * sizeof *n);
    if (!n) {
      free(data);
      return XQ_ENOMEM;
    }
    k->b = n;
    k->capb = cap;
  }
  k->b[k->nb++] = (bcast){type, data};
  return XQ_OK;
}

static uint64_t digest(const xq_move *m, int n, const char *tok)
{
  uint64_t h = 1469598103934665603ULL; /* FNV-1a */
  for (int i = 0; i < n; i++) {
    h = (h ^ (m[i] & 0xFF)) * 1099511628211ULL;
    h = (h ^ (m[i] >> 8)) * 1099511628211ULL;
  }
  h = (h ^ (uint64_t)n) * 1099511628211ULL;
  for (const char *c = tok; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ULL;
  return h | 1; /* 0 means "none" */
}

/* Apply events ev[0..n) and note them: row, broadcast. Returns XQ_OK, or
 * an engine status (nothing applied; err says why). *v gets the verdict. */
static int apply(push *p, xq__live *lv, applied *k, const xq_event *ev, int n, xq_verdict *v,
                 xq_error *err)
{
  xq_pos before = lv->g->pos;
  int nply = lv->g->nply;
  int rc = xq__live_apply(lv, ev, n, v, err);
  if (rc != XQ_OK) return rc;
  char *vjson = v->kind == XQ_VERDICT_ACCEPTED ? NULL : xq_verdict_json(v);
  xq__live_note_verdict(lv, v, vjson);
  if (!v->changed && lv->g->nply == nply) {
    /* refused (a game over, a result already so): nothing to record */
    free(vjson);
    return XQ_OK;
  }
  for (int i = 0; i < n; i++)
    if ((rc = xq_events_add(&k->ev, &ev[i])) != XQ_OK) {
      free(vjson);
      return rc;
    }
  k->count++;
  if (ev[0].kind == XQ_EVENT_TRUNCATE) {
    /* the game as it is now that the source's line replaced its own */
    xq__view *now = xq__live_view_take(lv);
    cJSON *st = now ? xq__live_json_view(p->s, lv, now) : NULL;
    char *data = st ? cJSON_PrintUnformatted(st) : NULL;
    cJSON_Delete(st);
    xq__live_view_free(now);
    rc = add_bcast(k, "game", data);
  } else if (lv->g->nply == nply + 1) {
    rc = add_bcast(k, "move", xq__live_json_move(lv, &before, lv->g->hist[nply].move, vjson, "pgn"));
  } else {
    rc = add_bcast(k, "verdict", vjson ? strdup(vjson) : xq_verdict_json(v));
  }
  free(vjson);
  return rc;
}

/* Text that can be a move in some notation (ICCS and WXF have digits,
 * Chinese is not ASCII) and no other word of the event language (those
 * are letters, '-' and ':'). */
static int move_like(const char *t)
{
  int ok = 0;
  for (const char *c = t; *c; c++) {
    if (*c == ':') return 0;
    if ((*c >= '0' && *c <= '9') || (unsigned char)*c >= 0x80) ok = 1;
  }
  return ok;
}

static xq_outcome outcome_of(xq_result r)
{
  return r == XQ_RESULT_RED_WINS ? XQ_OUT_RED_WINS
         : r == XQ_RESULT_BLACK_WINS ? XQ_OUT_BLACK_WINS
         : r == XQ_RESULT_DRAW ? XQ_OUT_DRAW : XQ_OUT_NONE;
}

static void set_error(cJSON *entry, int ply, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_error(cJSON *entry, int ply, const char *fmt, ...)
{
  char msg[2 * XQ_ERR_MSG_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!cJSON_GetObjectItemCaseSensitive(entry, "error")) cJSON_AddStringToObject(entry, "error", msg);
  if (ply > 0 && !cJSON_GetObjectItemCaseSensitive(entry, "ply")) cJSON_AddNumberToObject(entry, "ply", ply);
}

/* Apply the source's moves after the game's last one, each with the
 * clock reading after it when the source has one; stops at the first
 * move not taken (noted in `entry`). XQ_OK, or a status that fails the
 * whole game. */
static int sync_moves(push *p, const src_game *g, xq__live *lv, applied *k, cJSON *entry,
                      xq_error *err)
{
  xq_game *gm = lv->g;
  xq_event ev[2];
  xq_verdict v;
  int rc;
  /* the clocks as last read: the game's, then the source's [%clk] */
  long known[2] = {lv->clock_ms[0], lv->clock_ms[1]};
  for (int i = 0; g->clk && i < gm->nply && i < g->n; i++)
    if (g->clk[i] >= 0) known[(g->start.side + i) % 2] = g->clk[i];
  for (int i = gm->nply; i < g->n; i++) {
    char iccs[XQ_MOVE_TEXT_MAX];
    int nev = 1;
    if (xq_move_format(&gm->pos, g->moves[i], XQ_NOTE_ICCS, iccs, sizeof iccs) <= 0 ||
        xq_event_move(&ev[0], iccs, 0, err) != XQ_OK)
      return XQ_EINVAL;
    if (g->clk && g->clk[i] >= 0) {
      /* the move and the clock reading after it, as a board sends them;
       * a reading needs both clocks, so it waits until both are known */
      known[(g->start.side + i) % 2] = g->clk[i];
      if (known[0] >= 0 && known[1] >= 0) {
        xq_event_init(&ev[1], XQ_EVENT_CLOCK);
        ev[1].ms[0] = known[0];
        ev[1].ms[1] = known[1];
        nev = 2;
      }
    }
    if ((rc = apply(p, lv, k, ev, nev, &v, err)) != XQ_OK) return rc;
    if (gm->nply != i + 1) {
      set_error(entry, i + 1, "ply %d (%s) was not taken: %s", i + 1, iccs,
                v.en[0] ? v.en : xq_verdict_kind_name(v.kind));
      break; /* a move was not taken: stop there */
    }
  }
  return XQ_OK;
}

/* The source's illegal move after the game's last one: the adjudicator
 * rules on it like on a board's, once per source text. XQ_OK (noted in
 * `entry`), or a status that fails the whole game. */
static int sync_illegal(push *p, const src_game *g, xq__live *lv, applied *k, cJSON *entry)
{
  uint64_t d = digest(g->moves, g->bad_ply - 1, g->bad_tok);
  uint64_t *seen = seen_slot(p->s, lv->round, lv->board);
  xq_event ev;
  if (seen && *seen == d) {
    set_error(entry, g->bad_ply, "ply %d: %s (already recorded)", g->bad_ply, g->error);
    return XQ_OK;
  }
  if (!move_like(g->bad_tok) || xq_event_move(&ev, g->bad_tok, 0, NULL) != XQ_OK) {
    /* only move text reaches the adjudicator, never its other events
     * ("result:1-0", "resign", ...) smuggled into a source */
    set_error(entry, g->bad_ply, "ply %d: %s (not a move: not recorded)", g->bad_ply, g->error);
    return XQ_OK;
  }
  xq_verdict v;
  xq_error e2 = {0};
  int r2 = apply(p, lv, k, &ev, 1, &v, &e2);
  if (r2 == XQ_OK) {
    const char *what = v.en[0] ? v.en : xq_verdict_kind_name(v.kind);
    if (v.changed && seen) *seen = d;
    set_error(entry, g->bad_ply, v.changed ? "ply %d: %s; recorded: %s" : "ply %d: %s; not recorded: %s",
              g->bad_ply, g->error, what);
  } else if (r2 == XQ_ENOMEM) {
    return r2;
  } else {
    set_error(entry, g->bad_ply, "ply %d: %s (not a move the adjudicator can judge: %s)", g->bad_ply, g->error,
              e2.msg[0] ? e2.msg : xq_strerror(r2));
  }
  return XQ_OK;
}

/* A game's row of the push is durable: what answers show of the game is
 * its view after the row, and its broadcasts go out. Or it failed: the
 * game goes back to what the store holds (the push's reply says so). */
static void row_durable(xq__server *s, void *arg, int status)
{
  applied *k = arg;
  xq__live *lv = k->lv;
  if (status == XQ_OK) {
    xq__live_view_set(s, lv, k->view);
    k->view = NULL;
    for (int i = 0; i < k->nb; i++) xq__hub_publish(s, k->b[i].type, lv->round, lv->board, k->b[i].data);
  } else {
    xq__live_failed(s, lv);
  }
  applied_free(k);
  free(k);
}

/* Bring table `lv` in line with source game `g`; notes go to `entry`. */
static void sync_game(push *p, const src_game *g, xq__live *lv, cJSON *entry)
{
  xq__server *s = p->s;
  xq_game *gm = lv->g;
  applied k = {.lv = lv};
  xq_event ev;
  xq_verdict v;
  xq_error err = {0};
  int rc = XQ_OK;

  if (lv->g->paused) {
    set_error(entry, 0, "the game is paused by an arbiter: nothing applied");
    return;
  }
  if (g->start.key != gm->start.key || g->start.side != gm->start.side) {
    set_error(entry, 0, "the game starts from another position than the one at the table");
    return;
  }
  /* the first ply where the source and the game differ */
  int same = 0;
  while (same < g->n && same < gm->nply && g->moves[same] == gm->hist[same].move) same++;
  /* an illegal move right after the common part differs from the
   * game's move there too */
  if (same < gm->nply && (same < g->n || (g->bad_ply && same == g->bad_ply - 1))) {
    /* the source corrected a move: its line replaces the game's from there */
    xq_event_init(&ev, XQ_EVENT_TRUNCATE);
    ev.plies = same;
    if ((rc = apply(p, lv, &k, &ev, 1, &v, &err)) != XQ_OK) goto fail;
    cJSON_AddNumberToObject(entry, "replaced_from", same + 1);
    /* a result the tournament has for the old line is recorded again when
     * the new line ends (a later result replaces it in the log) */
    lv->recorded = 0;
  }
  if ((rc = sync_moves(p, g, lv, &k, entry, &err)) != XQ_OK) goto fail;
  if (g->bad_ply && gm->nply == g->bad_ply - 1) {
    if ((rc = sync_illegal(p, g, lv, &k, entry)) != XQ_OK) goto fail;
  } else if (g->bad_ply) {
    set_error(entry, g->bad_ply, "ply %d: %s", g->bad_ply, g->error);
  }
  /* the source's result, when it has one and the game does not */
  if (outcome_of(g->result) != XQ_OUT_NONE && gm->result != outcome_of(g->result)) {
    xq_event_init(&ev, XQ_EVENT_RESULT);
    ev.result = outcome_of(g->result);
    if ((rc = apply(p, lv, &k, &ev, 1, &v, &err)) != XQ_OK) goto fail;
  }
  if (g->n < gm->nply && !g->bad_ply && same == g->n)
    cJSON_AddNumberToObject(entry, "behind", gm->nply - g->n); /* an older copy: no change */
  cJSON_AddNumberToObject(entry, "moves", gm->nply);
  cJSON_AddNumberToObject(entry, "applied", k.count);
  if (k.count) {
    xq_tgame_rec rec = {.round = lv->round, .board = lv->board, .source = XQ_GSRC_INGEST, .reply = ""};
    /* the row owns what `k` gathered, once queued */
    applied *row = malloc(sizeof *row);
    if (!row || !(k.view = xq__live_view_take(lv))) rc = XQ_ENOMEM;
    if (rc == XQ_OK) {
      *row = k;
      rc = xq__commit_row(s, &rec, k.ev.v, k.ev.n, row_durable, row);
    }
    if (rc != XQ_OK) {
      free(row);
      goto fail;
    }
    xq_events_clear(&row->ev); /* queued: the row keeps their text */
    xq__live_settle(s, lv);
    return;
  }
  applied_free(&k);
  return;
fail:
  /* nothing of this game may stay in memory that the log will not have */
  if (k.count) xq__live_rebuild(s, lv, NULL);
  /* its broadcasts go too */
  applied_free(&k);
  cJSON_DeleteItemFromObjectCaseSensitive(entry, "error");
  set_error(entry, 0, "%s", rc == XQ_ELIMIT ? "too many events waiting for the store: nothing applied"
                           : err.msg[0] ? err.msg : xq_strerror(rc));
  cJSON_DeleteItemFromObjectCaseSensitive(entry, "applied");
  cJSON_AddNumberToObject(entry, "applied", 0);
}

/* ------------------------------------------------------------------ */
/* A push                                                              */
/* ------------------------------------------------------------------ */

static void push_free(push *p)
{
  cJSON_Delete(p->reply);
  free(p);
}

static void push_durable(xq__server *s, void *arg, int status)
{
  (void)s;
  push *p = arg;
  char *json = NULL;
  if (status == XQ_OK) {
    /* (each game's broadcasts went out as its row became durable) */
    json = cJSON_PrintUnformatted(p->reply);
    if (!json) status = XQ_ENOMEM;
  } else {
    json = strdup("the store could not commit the push: nothing was recorded");
  }
  xq__ingest_done done = p->done;
  void *darg = p->arg;
  push_free(p);
  done(darg, status, json);
}

int xq__ingest_pgn(xq__server *s, int round, const char *text, size_t len, xq__ingest_done done,
                   void *arg, xq_error *err)
{
  xq_error tmp = {0};
  if (!err) err = &tmp;
  memset(err, 0, sizeof *err);
  if (round < 1 || round > XQ_ROUNDS_LIVE_MAX || !s->rounds[round]) {
    snprintf(err->msg, sizeof err->msg, "round %d is not published", round);
    return err->code = XQ_EINVAL;
  }
  if (len > XQ_PGN_FETCH_MAX) {
    snprintf(err->msg, sizeof err->msg, "the PGN is larger than %d bytes", XQ_PGN_FETCH_MAX);
    return err->code = XQ_ELIMIT;
  }
  src_game *games;
  int n, rc = read_games(text, len, &games, &n, err);
  if (rc != XQ_OK) return rc;
  push *p = calloc(1, sizeof *p);
  cJSON *arr = NULL;
  if (!p || !(p->reply = cJSON_CreateObject()) || !(arr = cJSON_AddArrayToObject(p->reply, "games"))) {
    if (p) cJSON_Delete(p->reply);
    free(p);
    src_free(games, n);
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return err->code = XQ_ENOMEM;
  }
  p->s = s;
  p->round = round;
  p->done = done;
  p->arg = arg;
  char taken[XQ_BOARDS_MAX / 8 + 1] = {0};
  for (int i = 0; i < n; i++) {
    src_game *g = &games[i];
    cJSON *entry = cJSON_CreateObject();
    cJSON_AddItemToObject(entry, "tags", g->tags);
    g->tags = NULL;
    cJSON_AddItemToArray(arr, entry);
    if (!g->readable) {
      set_error(entry, 0, "%s", g->error);
      continue;
    }
    char why[256];
    int table = match_table(s, round, g, why, sizeof why);
    if (!table) {
      set_error(entry, 0, "%s", why);
      continue;
    }
    cJSON_AddNumberToObject(entry, "table", table);
    if (taken[table / 8] & (1 << (table % 8))) {
      set_error(entry, 0, "table %d has another game earlier in this push", table);
      continue;
    }
    taken[table / 8] |= (char)(1 << (table % 8));
    sync_game(p, g, xq__live_get(s, round, table), entry);
  }
  src_free(games, n);
  xq__commit_then(s, push_durable, p);
  return XQ_OK;
}
