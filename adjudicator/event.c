/*
 * event.c -- the events of a game as typed values and their text form:
 * one word per event ("h2e2", "held:h2e2", "clock:5400000/5399000",
 * "claim-red", "result:1-0", "truncate:12"), written only to store them
 * (the server's game log) and read back to replay them. The one writer
 * and the one reader of that form.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adjudicator.h"

/* The words of the kinds that carry nothing but a side. */
static const struct {
  xq_event_kind kind;
  const char *word;
  int side_required;       /* "foul-red": no implied side */
} verbs[] = {
  {XQ_EVENT_CLAIM_NATURAL, "claim", 0},
  {XQ_EVENT_CLAIM_REPETITION, "repetition", 0},
  {XQ_EVENT_OFFER, "offer", 0},
  {XQ_EVENT_RESIGN, "resign", 0},
  {XQ_EVENT_ACCEPT, "accept", 0},
  {XQ_EVENT_DECLINE, "decline", 0},
  {XQ_EVENT_FOUL, "foul", 1},
};
#define NVERBS ((int)(sizeof verbs / sizeof verbs[0]))

/* Say that the word tok[0..len) is `what` (a format taking the word's
 * first 40 bytes). */
#define fail(err, code, what, tok, len) \
  xq_error_set((err), (code), -1, -1, (what), (int)((len) > 40 ? 40 : (len)), (tok))

static int verb_of(xq_event_kind kind)
{
  for (int i = 0; i < NVERBS; i++)
    if (verbs[i].kind == kind) return i;
  return -1;
}

void xq_event_init(xq_event *ev, xq_event_kind kind)
{
  memset(ev, 0, sizeof *ev);
  ev->kind = kind;
  ev->side = XQ_SIDE_IMPLIED;
}

int xq_event_simple(xq_event *ev, xq_event_kind kind, int side)
{
  if (!ev || side < XQ_SIDE_IMPLIED || side > XQ_BLACK) return XQ_EINVAL;
  int k = verb_of(kind);
  if (k < 0 && kind != XQ_EVENT_RELEASE && kind != XQ_EVENT_PAUSE && kind != XQ_EVENT_RESUME) return XQ_EINVAL;
  if (k < 0 && side != XQ_SIDE_IMPLIED) return XQ_EINVAL;
  if (k >= 0 && verbs[k].side_required && side == XQ_SIDE_IMPLIED) return XQ_EINVAL;
  xq_event_init(ev, kind);
  ev->side = side;
  return XQ_OK;
}

int xq_event_move(xq_event *ev, const char *text, unsigned flags, xq_error *err)
{
  if (!ev || !text || (flags & ~(XQ_MV_HELD | XQ_MV_FLAG_FELL))) return XQ_EINVAL;
  size_t n = strlen(text);
  xq_event as;
  if (!n || n >= XQ_EVENT_TEXT_MAX || strpbrk(text, " \t\r\n")) {
    fail(err, XQ_ENOTATION, "\"%.*s\" is not one move", text, n);
    return XQ_ENOTATION;
  }
  /* the word must come back as this move when the log is replayed */
  if (xq_event_parse(text, n, &as, NULL) != XQ_OK || as.kind != XQ_EVENT_MOVE || as.flags) {
    fail(err, XQ_ENOTATION, "\"%.*s\" is not a move", text, n);
    return XQ_ENOTATION;
  }
  xq_event_init(ev, XQ_EVENT_MOVE);
  ev->flags = flags;
  memcpy(ev->text, text, n + 1);
  return XQ_OK;
}

int xq_event_snapshot(xq_event *ev, const char *board, xq_error *err)
{
  if (!ev || !board) return XQ_EINVAL;
  size_t n = strcspn(board, " ");
  if (!n || n >= XQ_EVENT_TEXT_MAX) {
    fail(err, XQ_ENOTATION, "\"%.*s\" is not a board placement", board, n);
    return XQ_ENOTATION;
  }
  xq_event_init(ev, XQ_EVENT_SNAPSHOT);
  memcpy(ev->text, board, n);
  ev->text[n] = 0;
  return XQ_OK;
}

/* ------------------------------------------------------------------ */
/* Writing                                                              */
/* ------------------------------------------------------------------ */

static const char *side_suffix(int side)
{
  return side == XQ_RED ? "-red" : side == XQ_BLACK ? "-black" : "";
}

static const char *result_word(xq_outcome r)
{
  switch (r) {
  case XQ_OUT_RED_WINS: return "1-0";
  case XQ_OUT_BLACK_WINS: return "0-1";
  case XQ_OUT_DRAW: return "=";
  default: return "none";
  }
}

int xq_event_format(const xq_event *ev, char *buf, size_t cap)
{
  if (!ev || !buf) return XQ_EINVAL;
  int k = verb_of(ev->kind), n;
  if (k >= 0) {
    n = snprintf(buf, cap, "%s%s", verbs[k].word, side_suffix(ev->side));
  } else {
    switch (ev->kind) {
    case XQ_EVENT_MOVE:
      n = snprintf(buf, cap, "%s%s", ev->flags & XQ_MV_HELD ? "held:" : ev->flags & XQ_MV_FLAG_FELL ? "flag:" : "",
                   ev->text);
      break;
    case XQ_EVENT_SNAPSHOT: n = snprintf(buf, cap, "snap:%s", ev->text); break;
    case XQ_EVENT_LIFT: n = snprintf(buf, cap, "lift:%c%d", 'a' + XQ_FILE(ev->square), XQ_RANK(ev->square)); break;
    case XQ_EVENT_RELEASE: n = snprintf(buf, cap, "release"); break;
    case XQ_EVENT_CLOCK: n = snprintf(buf, cap, "clock:%ld/%ld", ev->ms[0], ev->ms[1]); break;
    case XQ_EVENT_TICK: n = snprintf(buf, cap, "tick:%ld", ev->ms[0]); break;
    case XQ_EVENT_RESULT: n = snprintf(buf, cap, "result:%s", result_word(ev->result)); break;
    case XQ_EVENT_PAUSE: n = snprintf(buf, cap, "pause"); break;
    case XQ_EVENT_RESUME: n = snprintf(buf, cap, "resume"); break;
    case XQ_EVENT_TRUNCATE: n = snprintf(buf, cap, "truncate:%d", ev->plies); break;
    default: return XQ_EINVAL;
    }
  }
  return n >= 0 && (size_t)n < cap ? n : XQ_ELIMIT;
}

char *xq_events_format(const xq_event *ev, int n)
{
  if (!ev || n < 1) return NULL;
  size_t cap = (size_t)n * XQ_EVENT_FORMAT_MAX, len = 0;
  char *t = malloc(cap);
  if (!t) return NULL;
  for (int i = 0; i < n; i++) {
    if (i) t[len++] = ' ';
    int w = xq_event_format(&ev[i], t + len, cap - len);
    if (w < 0) {
      free(t);
      return NULL;
    }
    len += (size_t)w;
  }
  return t;
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */
/* ------------------------------------------------------------------ */

/* tok[0..len) is `word` alone or followed by "-red" / "-black": the
 * side (XQ_SIDE_IMPLIED for the bare word), or -2 for another text. */
static int word_side(const char *tok, size_t len, const char *word)
{
  size_t w = strlen(word);
  if (len < w || memcmp(tok, word, w)) return -2;
  if (len == w) return XQ_SIDE_IMPLIED;
  if (len - w == 4 && !memcmp(tok + w, "-red", 4)) return XQ_RED;
  if (len - w == 6 && !memcmp(tok + w, "-black", 6)) return XQ_BLACK;
  return -2;
}

static int is_word(const char *tok, size_t len, const char *word)
{
  return strlen(word) == len && !memcmp(tok, word, len);
}

/* A decimal number filling s[0..len) from -max to max: 1 with *out,
 * else 0 (strtol's clamping of a long run of digits is no number). */
static int number(const char *s, size_t len, long max, long *out)
{
  char b[64];
  if (!len || len >= sizeof b) return 0;
  memcpy(b, s, len);
  b[len] = 0;
  char *e;
  errno = 0;
  long v = strtol(b, &e, 10);
  if (e == b || *e || errno || v < -max || v > max) return 0;
  *out = v;
  return 1;
}

/* The words with an argument after a colon; 0 when tok is none of them. */
static int parse_arg(const char *tok, size_t len, xq_event *ev, int *rc)
{
  const char *colon = memchr(tok, ':', len);
  if (!colon) return 0;
  size_t wl = (size_t)(colon - tok), al = len - wl - 1;
  const char *a = colon + 1;
  long x = 0, y = 0;
  *rc = XQ_OK;
  if (wl == 4 && (!memcmp(tok, "held", 4) || !memcmp(tok, "flag", 4))) {
    ev->kind = XQ_EVENT_MOVE;
    ev->flags = tok[0] == 'h' ? XQ_MV_HELD : XQ_MV_FLAG_FELL;
    memcpy(ev->text, a, al);
  } else if (wl == 4 && !memcmp(tok, "snap", 4)) {
    ev->kind = XQ_EVENT_SNAPSHOT;
    memcpy(ev->text, a, al);
  } else if (wl == 4 && !memcmp(tok, "lift", 4)) {
    ev->kind = XQ_EVENT_LIFT;
    if (al != 2 || a[0] < 'a' || a[0] > 'i' || a[1] < '0' || a[1] > '9') *rc = XQ_EINVAL;
    else ev->square = XQ_SQ(a[0] - 'a', a[1] - '0');
  } else if (wl == 5 && !memcmp(tok, "clock", 5)) {
    const char *slash = memchr(a, '/', al);
    ev->kind = XQ_EVENT_CLOCK;
    if (!slash || !number(a, (size_t)(slash - a), XQ_CLOCK_MS_MAX, &x) ||
        !number(slash + 1, al - (size_t)(slash - a) - 1, XQ_CLOCK_MS_MAX, &y))
      *rc = XQ_EINVAL;
    ev->ms[0] = x, ev->ms[1] = y;
  } else if (wl == 4 && !memcmp(tok, "tick", 4)) {
    ev->kind = XQ_EVENT_TICK;
    if (!number(a, al, XQ_CLOCK_MS_MAX, &x)) *rc = XQ_EINVAL;
    ev->ms[0] = x;
  } else if (wl == 6 && !memcmp(tok, "result", 6)) {
    ev->kind = XQ_EVENT_RESULT;
    if (is_word(a, al, "1-0")) ev->result = XQ_OUT_RED_WINS;
    else if (is_word(a, al, "0-1")) ev->result = XQ_OUT_BLACK_WINS;
    else if (is_word(a, al, "=") || is_word(a, al, "1/2-1/2")) ev->result = XQ_OUT_DRAW;
    else if (is_word(a, al, "none") || is_word(a, al, "*")) ev->result = XQ_OUT_NONE;
    else *rc = XQ_EINVAL;
  } else if (wl == 8 && !memcmp(tok, "truncate", 8)) {
    ev->kind = XQ_EVENT_TRUNCATE;
    if (!number(a, al, XQ_GAME_PLIES_MAX, &x) || x < 0) *rc = XQ_EINVAL;
    ev->plies = (int)x;
  } else {
    return 0;
  }
  return 1;
}

int xq_event_parse(const char *tok, size_t len, xq_event *ev, xq_error *err)
{
  if (!tok || !ev) return XQ_EINVAL;
  if (len >= XQ_EVENT_TEXT_MAX) {
    fail(err, XQ_ENOTATION, "\"%.*s...\" is too long for a move", tok, len);
    return XQ_ENOTATION;
  }
  xq_event_init(ev, 0);
  int rc;
  if (parse_arg(tok, len, ev, &rc)) {
    if (rc != XQ_OK) fail(err, rc, "\"%.*s\" is not a well-formed event", tok, len);
    return rc;
  }
  for (int i = 0; i < NVERBS; i++) {
    int side = word_side(tok, len, verbs[i].word);
    if (side == -2 || (verbs[i].side_required && side == XQ_SIDE_IMPLIED)) continue;
    ev->kind = verbs[i].kind;
    ev->side = side;
    return XQ_OK;
  }
  if (is_word(tok, len, "release")) ev->kind = XQ_EVENT_RELEASE;
  else if (is_word(tok, len, "pause")) ev->kind = XQ_EVENT_PAUSE;
  else if (is_word(tok, len, "resume")) ev->kind = XQ_EVENT_RESUME;
  else {
    /* any other word is a move, judged against the position when applied */
    ev->kind = XQ_EVENT_MOVE;
    memcpy(ev->text, tok, len);
  }
  return XQ_OK;
}

int xq_events_add(xq_events *l, const xq_event *ev)
{
  if (!l || !ev) return XQ_EINVAL;
  if (l->n >= XQ_GAME_PLIES_MAX * 4) return XQ_ELIMIT;
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 8;
    xq_event *v = realloc(l->v, sizeof *v * (size_t)cap);
    if (!v) return XQ_ENOMEM;
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = *ev;
  return XQ_OK;
}

void xq_events_clear(xq_events *l)
{
  if (!l) return;
  free(l->v);
  l->v = NULL;
  l->n = l->cap = 0;
}

int xq_events_parse(const char *text, xq_events *out, xq_error *err)
{
  if (!text || !out) return XQ_EINVAL;
  out->n = 0;
  for (const char *p = text; *p;) {
    while (*p == ' ') p++;
    if (!*p) break;
    size_t n = strcspn(p, " ");
    xq_event ev;
    int rc = xq_event_parse(p, n, &ev, err);
    if (rc == XQ_OK) rc = xq_events_add(out, &ev);
    if (rc != XQ_OK) return rc;
    p += n;
  }
  return out->n ? XQ_OK : XQ_EINVAL;
}
