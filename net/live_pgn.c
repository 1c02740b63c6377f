/*
 * live_pgn.c -- live games as XQ-PGN (docs/records.md, "PGN reading") for GET
 * /api/rounds/N.pgn and /api/rounds/N/T.pgn: each game becomes a record
 * (start position, the moves played, tags from the pairing) written by
 * the records module's writer, so what the server serves reads back with
 * every PGN reader of the project, the push endpoint included. Each move
 * whose clock is known carries it as a comment {[%clk H:MM:SS]}, with
 * [%emt H:MM:SS] when the board's readings tell the move's time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "live.h"
#include "records.h"

static xq_result pgn_result(const char *code)
{
  if (!strcmp(code, "1-0") || !strcmp(code, "+-")) return XQ_RESULT_RED_WINS;
  if (!strcmp(code, "0-1") || !strcmp(code, "-+")) return XQ_RESULT_BLACK_WINS;
  if (!strcmp(code, "1/2-1/2")) return XQ_RESULT_DRAW;
  return XQ_RESULT_UNKNOWN;
}

/* `ms` as H:MM:SS (a fraction of a second, when there is one, as ".f"
 * up to ".fff": nothing is lost) into buf. */
static int hms(long ms, char *buf, size_t cap)
{
  long s = ms / 1000, frac = ms % 1000;
  int n = snprintf(buf, cap, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  if (frac) {
    char f[8];
    snprintf(f, sizeof f, ".%03ld", frac);
    for (size_t k = strlen(f); k > 2 && f[k - 1] == '0'; k--) f[k - 1] = 0;
    n += snprintf(buf + n, cap - (size_t)n, "%s", f);
  }
  return n;
}

/* A ply's clock as a comment "[%clk H:MM:SS]" and, when the move's time
 * is known, " [%emt H:MM:SS]", into buf (64 bytes). */
static int clock_comment(const xq__ply_clock *pc, char *buf, size_t cap)
{
  char t[32];
  hms(pc->ms, t, sizeof t);
  int n = snprintf(buf, cap, "[%%clk %s]", t);
  if (pc->emt >= 0) {
    hms(pc->emt, t, sizeof t);
    n += snprintf(buf + n, cap - (size_t)n, " [%%emt %s]", t);
  }
  return n;
}

/* Fill `rec` (initialised) from the live game. */
static int fill_record(xq__server *s, const xq__live *lv, xq_record *rec)
{
  const xq__view *v = lv->view; /* what the store holds */
  char buf[64];
  if (!v || xq_record_set_start(rec, &v->start, NULL) != XQ_OK) return XQ_EINVAL;
  int n = 0;
  while (n < v->nply && xq_record_append(rec, v->moves[n]) == XQ_OK) n++; /* XQ_REC_PLIES_MAX */
  for (int i = 0; i < n; i++) {
    if (v->ply_clock[i].ms < 0) continue;
    int len = clock_comment(&v->ply_clock[i], buf, sizeof buf);
    if (xq_record_add_comment(rec, 0, i + 1, buf, (size_t)len) != XQ_OK) break; /* XQ_REC_COMMENTS_MAX */
  }
  if (s->ev && s->ev->name[0]) xq_record_set_tag(rec, "Event", s->ev->name);
  snprintf(buf, sizeof buf, "%d.%d", lv->round, lv->board);
  xq_record_set_tag(rec, "Round", buf);
  snprintf(buf, sizeof buf, "%d", lv->board);
  xq_record_set_tag(rec, "Table", buf);
  for (int side = 0; side < 2; side++) {
    int id = side ? lv->black : lv->red;
    if (!s->ev || id < 1 || id > s->ev->n) continue;
    const xq_tplayer *p = &s->ev->players[id - 1];
    xq_record_set_tag(rec, side ? "Black" : "Red", p->name);
    if (p->rating) {
      snprintf(buf, sizeof buf, "%d", p->rating);
      xq_record_set_tag(rec, side ? "BlackElo" : "RedElo", buf);
    }
    if (p->team[0]) xq_record_set_tag(rec, side ? "BlackTeam" : "RedTeam", p->team);
  }
  const char *code = xq__live_json_result(s, lv);
  rec->result = pgn_result(code);
  if (code[1] == '-' && (code[0] == '+' || code[0] == '-')) xq_record_set_tag(rec, "Termination", "forfeit");
  return XQ_OK;
}

/* Write the games of `lvs[0..n)` to one text. */
static char *render(xq__server *s, xq__live *const *lvs, int n, xq_notation notation, size_t *len)
{
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  xq_record *rec = malloc(sizeof *rec);
  if (!f || !rec) {
    if (f) fclose(f);
    free(text);
    free(rec);
    return NULL;
  }
  xq_record_init(rec);
  int rc = XQ_OK;
  for (int i = 0; i < n && rc == XQ_OK; i++) {
    if (!lvs[i]) continue;
    xq_record_reset(rec);
    if ((rc = fill_record(s, lvs[i], rec)) != XQ_OK) break;
    rc = xq_pgn_write(f, rec, notation, XQ_PGN_NO_VARS_OUT, NULL);
    if (rc == XQ_OK && i + 1 < n) fputc('\n', f);
  }
  xq_record_free(rec);
  free(rec);
  if (fclose(f) != 0 || rc != XQ_OK) {
    free(text);
    return NULL;
  }
  *len = size;
  return text;
}

char *xq__live_pgn_game(xq__server *s, const xq__live *lv, xq_notation notation, size_t *len)
{
  xq__live *one = (xq__live *)lv;
  return render(s, &one, 1, notation, len);
}

char *xq__live_pgn_round(xq__server *s, int round, xq_notation notation, size_t *len)
{
  if (round < 1 || round > XQ_ROUNDS_LIVE_MAX || !s->rounds[round]) return NULL;
  return render(s, s->rounds[round], s->nboards[round], notation, len);
}
