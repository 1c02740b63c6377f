/*
 * trf.c -- FIDE TRF-16 / TRF(x) import and export (docs/tourney.md, "TRF").
 *
 * Columns are 1-based and counted in Unicode code points, not bytes: a
 * Chinese name of three characters fills three of the 33 name columns
 * (bbpPairings reads lines as code points).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tourney_internal.h"

static int fail(xq_error *err, int code, int line, const char *msg)
{
  if (err) {
    err->code = code;
    err->pos = line > 0 ? line : -1;
    err->ply = -1;
    /* line 0: the file as a whole (it cannot be opened or read), no line */
    if (line > 0) snprintf(err->msg, sizeof err->msg, "line %d: %.140s", line, msg);
    else snprintf(err->msg, sizeof err->msg, "%.140s", msg);
  }
  return code;
}

/* Byte offsets of the code points of `s` (len bytes): off[i] is where
 * column i+1 starts; off[ncp] = len. Returns ncp or -1 (bad UTF-8). */
static int cp_offsets(const char *s, int len, int *off, int max)
{
  int n = 0, i = 0;
  while (i < len && n < max) {
    unsigned char c = (unsigned char)s[i];
    int w = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (!w || i + w > len) return -1;
    for (int k = 1; k < w; k++)
      if (((unsigned char)s[i + k] & 0xC0) != 0x80) return -1;
    off[n++] = i;
    i += w;
  }
  off[n] = i;
  return n;
}

/* Copy columns [from, to] (1-based, inclusive) into out, trimmed. */
static void field(const char *s, const int *off, int ncp, int from, int to, char *out, size_t cap)
{
  out[0] = 0;
  if (from > ncp) return;
  if (to > ncp) to = ncp;
  int a = off[from - 1], b = off[to];
  while (a < b && s[a] == ' ') a++;
  while (b > a && s[b - 1] == ' ') b--;
  size_t n = (size_t)(b - a);
  if (n >= cap) n = cap - 1;
  memcpy(out, s + a, n);
  out[n] = 0;
}

/* A decimal number with at most one fractional digit, in half-units. */
static int half_units(const char *t, int *out)
{
  char *end;
  errno = 0;
  double v = strtod(t, &end);
  if (end == t || errno) return 0;
  while (*end == ' ') end++;
  if (*end) return 0;
  /* twice a number of one fractional digit .0 or .5 is exact: whole, in
   * range, checked before the conversion (a "nan" or "1e300" is no score) */
  long long h;
  if (!xq_whole_number(v * 2, -XQ_TRF_HALF_UNITS_MAX, XQ_TRF_HALF_UNITS_MAX, &h)) return 0;
  *out = (int)h;
  return 1;
}

static int keep_line(xq_tournament *ev, const char *s, int len)
{
  if (ev->extra_len + (size_t)len + 1 > (size_t)XQ_TRF_EXTRA_MAX) return XQ_ELIMIT;
  char *p = realloc(ev->extra, ev->extra_len + (size_t)len + 2);
  if (!p) return XQ_ENOMEM;
  ev->extra = p;
  memcpy(p + ev->extra_len, s, (size_t)len);
  ev->extra_len += (size_t)len;
  p[ev->extra_len++] = '\n';
  p[ev->extra_len] = 0;
  return XQ_OK;
}

static int result_of(char code, int opp, int *res)
{
  switch (code) {
  case '1': case 'W': *res = XQ_TR_WIN; return 1;
  case '=': case 'D': *res = XQ_TR_DRAW; return 1;
  case '0': case 'L': *res = XQ_TR_LOSS; return 1;
  case '+': *res = XQ_TR_FWIN; return 1;
  /* lichess writes "0000 - -" for a player left out of the round */
  case '-': *res = opp ? XQ_TR_FLOSS : XQ_TR_ZPB; return 1;
  case 'H': *res = XQ_TR_HPB; return 1;
  case 'F': *res = XQ_TR_FPB; return 1;
  case 'U': *res = XQ_TR_PAB; return 1;
  case 'Z': *res = XQ_TR_ZPB; return 1;
  case ' ': *res = opp ? XQ_TR_NONE : XQ_TR_ZPB; return 1;
  case '*': *res = XQ_TR_NONE; return 1; /* TRF-2026: not played yet */
  default: return 0;
  }
}

typedef struct pline { int lineno; int pno; int pts; char *text; int len; } pline;

static int parse_player(xq_tournament *ev, const pline *pl, xq_error *err)
{
  int off[XQ_TRF_LINE_MAX + 1];
  int ncp = cp_offsets(pl->text, pl->len, off, XQ_TRF_LINE_MAX);
  char buf[XQ_TOURNEY_NAME_MAX];
  xq_tplayer p;
  int id = pl->pno, rc;
  if (ncp < 0) return fail(err, XQ_EINVAL, pl->lineno, "not valid UTF-8");
  memset(&p, 0, sizeof p);
  field(pl->text, off, ncp, 10, 10, buf, sizeof buf);
  p.sex = buf[0] == 'm' || buf[0] == 'w' ? buf[0] : 0;
  field(pl->text, off, ncp, 11, 13, p.title, sizeof p.title);
  field(pl->text, off, ncp, 15, 47, p.name, sizeof p.name);
  if (!p.name[0]) snprintf(p.name, sizeof p.name, "Player %d", id);
  field(pl->text, off, ncp, 49, 52, buf, sizeof buf);
  p.rating = atoi(buf);
  field(pl->text, off, ncp, 54, 56, p.fed, sizeof p.fed);
  field(pl->text, off, ncp, 58, 68, p.fide_id, sizeof p.fide_id);
  field(pl->text, off, ncp, 86, 89, buf, sizeof buf);
  p.trf_rank = atoi(buf);
  p.pno = id;
  char birth[11];
  field(pl->text, off, ncp, 70, 79, birth, sizeof birth);
  if ((rc = xq_tournament_add(ev, &p, NULL, err))) {
    if (err) {
      char m[XQ_ERR_MSG_LEN];
      snprintf(m, sizeof m, "%s", err->msg);
      fail(err, rc, pl->lineno, m);
    }
    return rc;
  }
  /* the birth date is kept as written (TRF files carry 1990/00/00) */
  memcpy(ev->players[id - 1].birth, birth, sizeof birth);
  int pts = 0;
  for (int r = 1; 92 + 10 * (r - 1) <= ncp; r++) {
    int c0 = 92 + 10 * (r - 1);
    char opp[8], col[4], res[4];
    if (r > XQ_TOURNEY_ROUNDS_MAX) return fail(err, XQ_ELIMIT, pl->lineno, "too many rounds");
    field(pl->text, off, ncp, c0, c0 + 3, opp, sizeof opp);
    field(pl->text, off, ncp, c0 + 5, c0 + 5, col, sizeof col);
    field(pl->text, off, ncp, c0 + 7, c0 + 7, res, sizeof res);
    if (!opp[0] && !col[0] && !res[0]) continue;
    xq_tslot *s = xq_tournament_slot(ev, id, r);
    char *end;
    long o = opp[0] ? strtol(opp, &end, 10) : 0;
    if (opp[0] && (*end || o < 0 || o > XQ_TOURNEY_PLAYERS_MAX))
      return fail(err, XQ_EINVAL, pl->lineno, "bad opponent number");
    if (opp[0] == '0' && o > 0) ev->trf_zero_pad = 1;
    int rr;
    if (!result_of(res[0] ? res[0] : ' ', (int)o, &rr))
      return fail(err, XQ_EINVAL, pl->lineno, "unknown result code");
    s->opp = (uint16_t)o;
    s->colour = col[0] == 'w' ? XQ_TC_RED : col[0] == 'b' ? XQ_TC_BLACK : XQ_TC_NONE;
    s->res = (uint8_t)rr;
    s->code = res[0] ? res[0] : ' ';
    if (o && !s->colour) return fail(err, XQ_EINVAL, pl->lineno, "a game without a colour");
    if (r > ev->nrounds) ev->nrounds = r;
    pts += xq_tslot_points(ev, s);
  }
  /* docs/tourney.md, "TRF": recompute the points and reject a disagreement */
  if (pts != pl->pts) {
    char m[120];
    snprintf(m, sizeof m, "player %d: points %.1f do not match the results (%.1f)", id,
             pl->pts / 2.0, pts / 2.0);
    return fail(err, XQ_EINVAL, pl->lineno, m);
  }
  return XQ_OK;
}

/* 162: letter at column 6, value at 7-10, next letter at 15, ... */
static void parse_162(xq_tconfig *c, const char *s, int len)
{
  for (int col = 6; col <= len; col += 9) {
    char v[8];
    int h, n = len - col < 4 ? len - col : 4;
    if (n <= 0) break;
    memcpy(v, s + col, (size_t)n);
    v[n] = 0;
    if (!half_units(v, &h)) continue;
    switch (s[col - 1]) {
    case 'W': c->win = c->pab = c->fwin = h; break;
    case 'D': c->draw = h; break;
    case 'L': c->loss = h; break;
    default: break;
    }
  }
}

/* JaVaFo's XXS: "XXS WW=2.0 BW=2.0 WD=1.0 ... PAB=2.0 FW=2.0 FL=0.0". */
static void parse_xxs(xq_tconfig *c, const char *s, int len)
{
  char buf[512], *save = NULL;
  int n = len - 3 < (int)sizeof buf - 1 ? len - 3 : (int)sizeof buf - 1;
  if (n <= 0) return;
  memcpy(buf, s + 3, (size_t)n);
  buf[n] = 0;
  for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
    char *eq = strchr(t, '=');
    int h;
    if (!eq || !half_units(eq + 1, &h)) continue;
    *eq = 0;
    if (!strcmp(t, "WW") || !strcmp(t, "BW")) c->win = h;
    else if (!strcmp(t, "WD") || !strcmp(t, "BD")) c->draw = h;
    else if (!strcmp(t, "WL") || !strcmp(t, "BL")) c->loss = h;
    else if (!strcmp(t, "PAB")) c->pab = h;
    else if (!strcmp(t, "FW")) c->fwin = h;
    else if (!strcmp(t, "FL")) c->floss = h;
  }
}

/* XXP ID ID ...: every two of the players are a forbidden pair for the
 * whole event; TRF-2026 "260 R1 RL ID ID ...": for rounds R1..RL
 * (docs/tourney.md, "TRF"). Both pairing systems honour them. The line itself is
 * kept with the other lines, so the file writes back as it was read. */
static int parse_forbid(xq_tournament *ev, const char *s, int l)
{
  int v[XQ_TRF_LINE_MAX / 2], nv = 0, i = 3;
  while (i < l && nv < (int)(sizeof v / sizeof *v)) {
    while (i < l && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i >= l) break;
    if (s[i] < '0' || s[i] > '9') return XQ_EINVAL;
    long x = 0;
    while (i < l && s[i] >= '0' && s[i] <= '9' && x <= XQ_TOURNEY_PLAYERS_MAX) x = x * 10 + (s[i++] - '0');
    if (x > XQ_TOURNEY_PLAYERS_MAX || (i < l && s[i] != ' ' && s[i] != '\t')) return XQ_EINVAL;
    v[nv++] = (int)x;
  }
  int from = 1, to = XQ_TOURNEY_ROUNDS_MAX, k = 0;
  if (s[0] == '2') {
    if (nv < 2) return XQ_EINVAL;
    from = v[0], to = v[1], k = 2;
  }
  if (nv - k < 2) return XQ_EINVAL;
  for (int x = k; x < nv; x++)
    for (int y = x + 1; y < nv; y++) {
      int rc = xq_tournament_forbid(ev, v[x], v[y], from, to);
      if (rc) return rc;
    }
  return XQ_OK;
}

/* Acceleration lines (docs/tourney.md, "TRF"), columns 1-based:
 *   XXA NNNN aaaa aaaa ...  player NNNN (5-8) gets aaaa extra points for
 *                           pairing in round 1 (10-13), round 2 (15-18),
 *                           ...; a blank field is 0
 *   250 MMMM GGGG RRR RRR PPPP PPPP  (TRF-2026) players 23-26 .. 28-31 get
 *                           GGGG (10-13) extra points in rounds 15-17 ..
 *                           19-21; the match points MMMM (5-8) are for team
 *                           events and must be blank or 0
 * Later lines override earlier ones for the same player and round. The
 * lines are kept with the other lines, so the file writes back as it was
 * read. accel_line checks one line (acc NULL) or adds what it sets for
 * `round` to acc[1..n] (in half-units); XQ_EINVAL for a malformed line. */
static int accel_num(const char *s, int l, int a, int b, long max, long *v)
{
  char t[16];
  int k = 0;
  for (int i = a; i < b && i < l; i++)
    if (s[i] != ' ') {
      if (s[i] < '0' || s[i] > '9' || k >= 8) return 0;
      t[k++] = s[i];
    }
  t[k] = 0;
  *v = k ? strtol(t, NULL, 10) : 0;
  return k > 0 && *v <= max;
}

static int accel_pts(const char *s, int l, int a, int *h)
{
  char t[8];
  int k = 0;
  for (int i = a; i < a + 4 && i < l; i++) t[k++] = s[i];
  t[k] = 0;
  if (strspn(t, " ") == (size_t)k) { *h = 0; return 1; }
  const char *u = t + strspn(t, " ");
  return half_units(u, h) && *h >= 0 && *h <= XQ_TRF_ACCEL_MAX;
}

static int accel_line(const char *s, int l, int round, int n, int *acc)
{
  long id, r0, r1, p0, p1;
  int h, m;
  if (l >= 3 && !memcmp(s, "XXA", 3)) {
    if (l < 8 || !accel_num(s, l, 4, 8, XQ_TOURNEY_PLAYERS_MAX, &id) || id < 1) return XQ_EINVAL;
    int i = 9, r = 1;
    for (; i + 4 <= l; i += 5, r++) {
      if (r > XQ_TOURNEY_ROUNDS_MAX || !accel_pts(s, l, i, &h)) return XQ_EINVAL;
      if (acc && r == round && id <= n) acc[id] = h;
    }
    for (; i < l; i++)
      if (s[i] != ' ') return XQ_EINVAL;
    return XQ_OK;
  }
  /* 250 */
  if (l < 31 || !accel_pts(s, l, 4, &m) || m != 0 || !accel_pts(s, l, 9, &h) ||
      !accel_num(s, l, 14, 17, XQ_TOURNEY_ROUNDS_MAX, &r0) ||
      !accel_num(s, l, 18, 21, XQ_TOURNEY_ROUNDS_MAX, &r1) ||
      !accel_num(s, l, 22, 26, XQ_TOURNEY_PLAYERS_MAX, &p0) ||
      !accel_num(s, l, 27, 31, XQ_TOURNEY_PLAYERS_MAX, &p1) ||
      r0 < 1 || r1 < r0 || p0 < 1 || p1 < p0)
    return XQ_EINVAL;
  for (int i = 31; i < l; i++)
    if (s[i] != ' ') return XQ_EINVAL;
  if (acc && round >= r0 && round <= r1)
    for (long p = p0; p <= p1 && p <= n; p++) acc[p] = h;
  return XQ_OK;
}

int xq__trf_accel(const xq_tournament *ev, int round, int *acc)
{
  int any = 0;
  for (int id = 0; id <= ev->n; id++) acc[id] = 0;
  for (size_t i = 0; ev->extra && i < ev->extra_len;) {
    size_t j = i;
    while (j < ev->extra_len && ev->extra[j] != '\n') j++;
    const char *s = ev->extra + i;
    int l = (int)(j - i);
    if (l >= 3 && (!memcmp(s, "XXA", 3) || !memcmp(s, "250", 3)) &&
        accel_line(s, l, round, ev->n, acc) == XQ_OK)
      any = 1;
    i = j + 1;
  }
  for (int id = 1; id <= ev->n && any; id++)
    if (acc[id]) return 1;
  return 0;
}

/* The 001 lines of a file, kept until every line is read. */
typedef struct plines {
  pline *v;
  int n, cap, maxpno;
} plines;

/* A 001 line: its number and points checked, the line kept for
 * parse_player. */
static int player_line(xq_tournament *ev, plines *pl, const char *s, int l, int lineno, xq_error *err)
{
  char num[8] = {0};
  int pts = 0;
  if (l >= 8) memcpy(num, s + 4, 4);
  int pno = atoi(num);
  if (pno < 1 || pno > XQ_TOURNEY_PLAYERS_MAX) return fail(err, XQ_EINVAL, lineno, "bad player number");
  /* points at 81-84: the name before them may hold multi-byte
   * characters, so find the column through the code points */
  int off[XQ_TRF_LINE_MAX + 1];
  int ncp = cp_offsets(s, l, off, XQ_TRF_LINE_MAX);
  char ptxt[8];
  if (ncp < 0) return fail(err, XQ_EINVAL, lineno, "not valid UTF-8");
  field(s, off, ncp, 81, 84, ptxt, sizeof ptxt);
  if (ptxt[0] && !half_units(ptxt, &pts)) return fail(err, XQ_EINVAL, lineno, "bad points field");
  if (pl->n == pl->cap) {
    pl->cap = pl->cap ? pl->cap * 2 : 64;
    pline *np_ = realloc(pl->v, sizeof *pl->v * (size_t)pl->cap);
    if (!np_) return XQ_ENOMEM;
    pl->v = np_;
  }
  pl->v[pl->n++] = (pline){lineno, pno, pts, (char *)s, l};
  if (pno > pl->maxpno) pl->maxpno = pno;
  if (ev->extra_at < 0) ev->extra_at = (int)ev->extra_len;
  return XQ_OK;
}

/* The rounds of an XXR (142) line's argument into *rounds (blank: 0, not
 * known): 0, or -1 for text that is not a whole number from 0 (a number past
 * XQ_TOURNEY_ROUNDS_MAX is kept as one past it: "too many rounds"). */
static int rounds_line(const char *a, int *rounds)
{
  a += strspn(a, " ");
  size_t n = strspn(a, "0123456789");
  if (a[n + strspn(a + n, " ")]) return -1; /* blank: 0, not known */
  long v = 0;
  for (size_t i = 0; i < n && v <= XQ_TOURNEY_ROUNDS_MAX; i++) v = v * 10 + (a[i] - '0');
  *rounds = v > XQ_TOURNEY_ROUNDS_MAX ? XQ_TOURNEY_ROUNDS_MAX + 1 : (int)v;
  return 0;
}

/* Any other line: the header values read from it, then kept verbatim. */
static int other_line(xq_tournament *ev, const char *s, int l, int lineno, xq_error *err)
{
  char tag[4] = {0};
  memcpy(tag, s, l < 3 ? (size_t)l : 3);
  const char *arg = l > 3 ? s + 4 : "";
  char a[64] = {0};
  int h, rc;
  if (l > 4) memcpy(a, arg, (size_t)(l - 4) < sizeof a - 1 ? (size_t)(l - 4) : sizeof a - 1);
  if (!strcmp(tag, "012")) snprintf(ev->name, sizeof ev->name, "%.*s", l > 4 ? l - 4 : 0, arg);
  else if (!strcmp(tag, "022")) snprintf(ev->info.venue, sizeof ev->info.venue, "%.*s", l > 4 ? l - 4 : 0, arg);
  else if (!strcmp(tag, "102")) snprintf(ev->info.arbiter, sizeof ev->info.arbiter, "%.*s", l > 4 ? l - 4 : 0, arg);
  else if ((!strcmp(tag, "XXR") || !strcmp(tag, "142")) && rounds_line(a, &ev->cfg.rounds))
    return fail(err, XQ_EINVAL, lineno, "bad XXR line: the rounds are a whole number");
  else if (!strcmp(tag, "XXC")) ev->initial_black = strstr(a, "black1") != NULL;
  else if (!strcmp(tag, "152")) ev->initial_black = a[strspn(a, " ")] == 'B';
  else if (!strcmp(tag, "162")) parse_162(&ev->cfg, s, l);
  else if (!strcmp(tag, "XXS")) parse_xxs(&ev->cfg, s, l);
  else if ((!strcmp(tag, "XXP") || !strcmp(tag, "260")) && (rc = parse_forbid(ev, s, l))) {
    fail(err, rc, lineno, rc == XQ_EINVAL ? "a forbidden pair line needs rounds and two players or more"
                          : rc == XQ_ELIMIT ? "too many forbidden pairs" : "out of memory");
    return rc;
  }
  else if ((!strcmp(tag, "XXA") || !strcmp(tag, "250")) && accel_line(s, l, 0, 0, NULL)) {
    return fail(err, XQ_EINVAL, lineno, tag[0] == 'X' ? "bad XXA line (player in columns 5-8, "
                "then 4-column points per round from column 10)" : "bad 250 line (points in "
                "columns 10-13, rounds 15-17 and 19-21, players 23-26 and 28-31)");
  }
  else if (tag[0] == 'B' && tag[1] == 'B' && half_units(a, &h)) {
    if (tag[2] == 'W') ev->cfg.win = ev->cfg.fwin = h;
    else if (tag[2] == 'D') ev->cfg.draw = h;
    else if (tag[2] == 'L') ev->cfg.loss = h;
    else if (tag[2] == 'U') ev->cfg.pab = h;
    else if (tag[2] == 'F') ev->cfg.floss = h;
  }
  if ((rc = keep_line(ev, s, l))) {
    fail(err, rc, lineno, rc == XQ_ELIMIT ? "too many lines besides the players" : "out of memory");
    return rc;
  }
  return XQ_OK;
}

/* The players of the 001 lines, numbered 1..n without gaps (the lines
 * may come in any order), then the pairs and games checked: a forbidden
 * pair names players of the file, every game is written on both sides. */
static int read_players(xq_tournament *ev, const plines *pl, xq_error *err)
{
  int rc = XQ_OK;
  if (pl->maxpno != pl->n) return fail(err, XQ_EINVAL, 0, "player numbers must run 1..n without gaps or repeats");
  pline **by = calloc((size_t)pl->n + 1, sizeof *by);
  if (!by) return XQ_ENOMEM;
  for (int k = 0; k < pl->n; k++) {
    if (by[pl->v[k].pno]) {
      free(by);
      return fail(err, XQ_EINVAL, pl->v[k].lineno, "player number given twice");
    }
    by[pl->v[k].pno] = &pl->v[k];
  }
  for (int k = 1; k <= pl->n && !rc; k++) rc = parse_player(ev, by[k], err);
  free(by);
  if (rc) return rc;
  for (int k = 0; k < ev->nforbid; k++)
    if (ev->forbid[k].b > ev->n) return fail(err, XQ_EINVAL, 0, "a forbidden pair names a player not in the file");
  for (int id = 1; id <= ev->n; id++)
    for (int r = 1; r <= ev->nrounds; r++) {
      const xq_tslot *s = xq_tournament_slot(ev, id, r);
      if (!s->opp) continue;
      const xq_tslot *t = s->opp <= ev->n ? xq_tournament_slot(ev, s->opp, r) : NULL;
      if (!t || t->opp != id || t->colour == s->colour) {
        char m[100];
        snprintf(m, sizeof m, "round %d: players %d and %d do not agree on their game", r, id, s->opp);
        return fail(err, XQ_EINVAL, 0, m);
      }
    }
  return XQ_OK;
}

int xq_trf_parse(const char *text, size_t len, xq_tournament **out, xq_error *err)
{
  if (!text || !out) return XQ_EINVAL;
  *out = NULL;
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  xq_tconfig_scoring(&cfg, 1);        /* TRF default: 1/½/0 */
  cfg.missed_rounds_withdraw = 0;     /* absences are written in the file */
  xq_tournament *ev = xq_tournament_new(&cfg, NULL);
  plines pl = {0};
  int lineno = 0, rc = XQ_OK;
  if (!ev) return XQ_ENOMEM;
  size_t i = 0;
  while (i < len && !rc) {
    size_t j = i;
    while (j < len && text[j] != '\r' && text[j] != '\n') j++;
    int l = (int)(j - i);
    const char *s = text + i;
    lineno++;
    if (l > XQ_TRF_LINE_MAX) rc = fail(err, XQ_ELIMIT, lineno, "line too long");
    else if (l >= 3 && !memcmp(s, "001", 3)) rc = player_line(ev, &pl, s, l, lineno, err);
    else rc = other_line(ev, s, l, lineno, err);
    /* CR, LF or CRLF end a line */
    i = j;
    if (i < len && text[i] == '\r') i++;
    if (i < len && text[i] == '\n') i++;
  }
  if (!rc && ev->cfg.rounds > XQ_TOURNEY_ROUNDS_MAX) rc = fail(err, XQ_ELIMIT, 0, "too many rounds");
  if (!rc) rc = read_players(ev, &pl, err);
  free(pl.v);
  if (rc) { xq_tournament_free(ev); return rc; }
  *out = ev;
  return XQ_OK;
}

int xq_trf_read(const char *path, xq_tournament **out, xq_error *err)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    char why[160];
    snprintf(why, sizeof why, "cannot open the file: %s", strerror(errno));
    return fail(err, XQ_EIO, 0, why);
  }
  char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap) {
      cap = cap ? cap * 2 : 65536;
      if ((long)cap > XQ_TRF_FILE_MAX) { free(buf); fclose(f); return fail(err, XQ_ELIMIT, 0, "file too large"); }
      char *b = realloc(buf, cap);
      if (!b) { free(buf); fclose(f); return XQ_ENOMEM; }
      buf = b;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) { free(buf); return fail(err, XQ_EIO, 0, "cannot read the file"); }
  int rc = xq_trf_parse(buf, n, out, err);
  free(buf);
  return rc;
}

int xq_trf_next_round(const xq_tournament *ev)
{
  int last = 0;
  for (int id = 1; id <= ev->n; id++)
    for (int r = 1; r <= ev->nrounds; r++) {
      const xq_tslot *s = xq_tournament_slot(ev, id, r);
      if ((s->opp || s->res == XQ_TR_PAB) && r > last) last = r;
    }
  return last + 1;
}

static char code_of(const xq_tslot *s)
{
  if (s->code) return s->code;
  switch (s->res) {
  case XQ_TR_WIN: return '1';
  case XQ_TR_DRAW: return '=';
  case XQ_TR_LOSS: return '0';
  case XQ_TR_FWIN: return '+';
  case XQ_TR_FLOSS: return '-';
  case XQ_TR_PAB: return 'U';
  case XQ_TR_HPB: return 'H';
  case XQ_TR_FPB: return 'F';
  case XQ_TR_ZPB: case XQ_TR_KO: return 'Z';
  default: return ' ';
  }
}

/* A number of half-units as TRF writes points: 1.5, -0.5, 12.0. */
static void fmt_half(char *buf, size_t cap, int half)
{
  int neg = half < 0, a = neg ? -half : half;
  snprintf(buf, cap, "%s%d.%d", neg ? "-" : "", a / 2, a % 2 ? 5 : 0);
}

static void put_pts(FILE *f, int w, int half)
{
  char b[16];
  fmt_half(b, sizeof b, half);
  fprintf(f, "%*s", w, b);
}

static void put_name(FILE *f, const char *name)
{
  /* docs/tourney.md, "TRF": pad to 33 code points, not bytes */
  int n = 0;
  const unsigned char *p = (const unsigned char *)name;
  while (*p && n < XQ_TRF_NAME_CHARS) {
    int w = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : 4;
    fwrite(p, 1, (size_t)w, f);
    p += w;
    n++;
  }
  for (; n < XQ_TRF_NAME_CHARS; n++) fputc(' ', f);
}

/* The block of player `id` in round `r` (10 characters) into b, numbers
 * as num[] gives them: the game, the bye or the absence; "0000 - Z" for a
 * round the player is withdrawn from, or announced absent without points
 * from (a requested half- or full-point bye of a round not paired yet is
 * left blank: its points would not add up to the points column); blanks
 * for a round without any. Returns its length. */
static int round_block(const xq_tournament *ev, int id, int r, const int *num, char *b)
{
  static const char blank[] = "          ";
  const xq_tslot *s = xq_tournament_slot(ev, id, r);
  char c = code_of(s);
  if (!s->opp && s->res == XQ_TR_NONE && !s->code) {
    c = 0;
    if (ev->extra_at < 0) /* not a file read with its own blocks */
      c = xq__event_withdrawn(ev, id, r) || s->absent == XQ_TR_ZPB ? 'Z' : 0;
    if (!c) return snprintf(b, sizeof blank, "%s", blank);
  }
  int o = s->opp ? num[s->opp] : 0;
  return snprintf(b, 16, ev->trf_zero_pad || !o ? "  %04d %c %c" : "  %4d %c %c", o,
                  s->colour == XQ_TC_RED ? 'w' : s->colour == XQ_TC_BLACK ? 'b' : '-', c);
}

int xq_trf_write(const xq_tournament *ev, FILE *f)
{
  if (!ev || !f) return XQ_EINVAL;
  int *rank = calloc((size_t)ev->n + 1, sizeof *rank), have_rank = 0;
  if (!rank) return XQ_ENOMEM;
  for (int id = 1; id <= ev->n; id++)
    if (ev->players[id - 1].trf_rank) have_rank = 1;
  if (have_rank || ev->extra_at >= 0) {
    for (int id = 1; id <= ev->n; id++) rank[id] = ev->players[id - 1].trf_rank;
  } else if (ev->n) {
    xq_tstanding *st = malloc(sizeof *st * (size_t)ev->n);
    if (!st || xq_standings(ev, 0, st)) { free(st); free(rank); return XQ_ENOMEM; }
    for (int i = 0; i < ev->n; i++) rank[st[i].id] = st[i].rank;
    free(st);
  }
  size_t head = ev->extra_at >= 0 ? (size_t)ev->extra_at : ev->extra_len;
  if (ev->extra) fwrite(ev->extra, 1, head, f);
  if (!ev->extra) {
    const xq_tconfig *c = &ev->cfg;
    fprintf(f, "012 %s\n", ev->name);
    /* the event's settings TRF has a line for: 022 city (the venue), 102 chief arbiter */
    if (ev->info.venue[0]) fprintf(f, "022 %s\n", ev->info.venue);
    if (ev->info.arbiter[0]) fprintf(f, "102 %s\n", ev->info.arbiter);
    if (c->rounds) fprintf(f, "XXR %d\n", c->rounds);
    fprintf(f, "XXC %s\n", ev->initial_black ? "black1" : "white1");
    if (c->win != 2 || c->draw != 1 || c->loss != 0) {
      /* docs/tourney.md, "TRF": declare 2/1/0 or bbpPairings rejects the points */
      /* letters at columns 6, 15, 24; values in the 4 columns after */
      fputs("162  W", f); put_pts(f, 4, c->win);
      fputs("    D", f); put_pts(f, 4, c->draw);
      fputs("    L", f); put_pts(f, 4, c->loss);
      fputs("\nBBW ", f); put_pts(f, 4, c->win);
      fputs("\nBBD ", f); put_pts(f, 4, c->draw);
      fputs("\nBBL ", f); put_pts(f, 4, c->loss);
      fputc('\n', f);
    }
  }
  /* one 001 line per player, in pairing-number order */
  int *by = calloc((size_t)ev->n + 2, sizeof *by);
  if (!by) { free(rank); return XQ_ENOMEM; }
  int seq = 0;
  for (int id = 1; id <= ev->n; id++) {
    int pno = ev->players[id - 1].pno;
    if (pno >= 1 && pno <= ev->n && !by[pno]) by[pno] = id;
  }
  for (int k = 1; k <= ev->n; k++)
    if (!by[k]) by[k] = -1;
  int *num = calloc((size_t)ev->n + 1, sizeof *num); /* TRF number of each id */
  if (!num) { free(by); free(rank); return XQ_ENOMEM; }
  for (int k = 1; k <= ev->n; k++)
    if (by[k] > 0) num[by[k]] = k;
  for (int id = 1; id <= ev->n; id++)
    if (!num[id]) {
      while (by[++seq] > 0) {}
      num[id] = seq;
      by[seq] = id;
    }
  for (int k = 1; k <= ev->n; k++) {
    int id = by[k];
    const xq_tplayer *p = &ev->players[id - 1];
    fprintf(f, "001 %4d %c%3s ", k, p->sex ? p->sex : ' ', p->title);
    put_name(f, p->name);
    if (p->rating) fprintf(f, " %4d", p->rating);
    else fputs("     ", f);
    /* the fixed part up to the rank, then the round blocks; trailing
     * blanks are dropped at the end of the line */
    char buf[XQ_TRF_LINE_MAX];
    int at = snprintf(buf, sizeof buf, " %-3s %-11s %-10s ", p->fed, p->fide_id, p->birth);
    char ptxt[16];
    fmt_half(ptxt, sizeof ptxt, xq_tournament_points(ev, id, ev->nrounds));
    if (rank[id]) at += snprintf(buf + at, sizeof buf - (size_t)at, "%4s %4d", ptxt, rank[id]);
    else at += snprintf(buf + at, sizeof buf - (size_t)at, "%4s     ", ptxt);
    /* the rounds played, then (an event of the store) the planned rounds
     * still to pair: a withdrawn player's and an announced absence's
     * blocks say so, so that a FIDE pairer leaves them out */
    int last = ev->extra_at < 0 && ev->cfg.rounds > ev->nrounds ? ev->cfg.rounds : ev->nrounds;
    for (int r = 1; r <= last && at < (int)sizeof buf - 16; r++) at += round_block(ev, id, r, num, buf + at);
    while (at > 0 && buf[at - 1] == ' ') at--;
    buf[at] = 0;
    fprintf(f, "%s\n", buf);
  }
  if (!ev->extra && ev->cfg.forfeit_counts_as_met) {
    /* docs/tourney.md, "Pairing", "TRF": a forfeit counts as a meeting here, not for
     * a FIDE engine, which would pair the two again: say so with XXP */
    for (int id = 1; id <= ev->n; id++)
      for (int r = 1; r <= ev->nrounds; r++) {
        const xq_tslot *s = xq_tournament_slot(ev, id, r);
        int o = s->opp;
        if (o <= id || o > ev->n || xq__event_played(s)) continue;
        int played = 0, earlier = 0;
        for (int q = 1; q <= ev->nrounds && !played; q++) {
          const xq_tslot *t = xq_tournament_slot(ev, id, q);
          played = t->opp == o && xq__event_played(t);
          earlier |= q < r && t->opp == o;
        }
        if (!played && !earlier) fprintf(f, "XXP %d %d\n", num[id], num[o]); /* once a pair */
      }
  }
  if (ev->extra && head < ev->extra_len) fwrite(ev->extra + head, 1, ev->extra_len - head, f);
  free(by);
  free(num);
  free(rank);
  return ferror(f) ? XQ_EIO : XQ_OK;
}
