/*
 * live_json.c -- the state of live games as JSON, as the HTTP API
 * (games.json) and the broadcast snapshot show it: players from the
 * pairing, the position, the moves in ICCS (and in WXF and Chinese, for
 * viewers), the result, fouls, clocks and what needs an arbiter; and
 * the data of a "move" broadcast, from a board or a PGN source alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delay.h"
#include "internal.h"
#include "live.h"

static cJSON *player_json(const xq__server *s, int id)
{
  if (id < 1 || !s->ev || id > s->ev->n) return cJSON_CreateNull();
  const xq_tplayer *p = &s->ev->players[id - 1];
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "id", id);
  cJSON_AddStringToObject(o, "name", p->name);
  if (p->rating) cJSON_AddNumberToObject(o, "rating", p->rating);
  return o;
}

/* The result of view `v` of game `lv` as the tournament has it: a
 * forfeit recorded by an arbiter ("+-", "-+", "--") is not in the game's
 * own state. */
static const char *result_of(const xq__server *s, const xq__live *lv, const xq__view *v)
{
  if (s->ev && lv->red >= 1 && lv->red <= s->ev->n && lv->round <= XQ_TOURNEY_ROUNDS_MAX) {
    const xq_tslot *r = xq_tournament_slot(s->ev, lv->red, lv->round);
    const xq_tslot *b = lv->black >= 1 && lv->black <= s->ev->n ? xq_tournament_slot(s->ev, lv->black, lv->round) : NULL;
    if (r->res == XQ_TR_FLOSS && b && b->res == XQ_TR_FLOSS) return "--";
    if (r->res == XQ_TR_FWIN) return "+-";
    if (r->res == XQ_TR_FLOSS) return "-+";
    xq_outcome own = v ? v->result : XQ_OUT_NONE;
    if (own == XQ_OUT_NONE || own == XQ_OUT_NEEDS_ARBITER) {
      if (r->res == XQ_TR_WIN) return "1-0";
      if (r->res == XQ_TR_LOSS) return "0-1";
      if (r->res == XQ_TR_DRAW) return "1/2-1/2";
    }
  }
  return v ? xq__live_view_result(v) : "*";
}

const char *xq__live_json_result(const xq__server *s, const xq__live *lv) { return result_of(s, lv, lv->view); }

cJSON *xq__live_json_game(xq__server *s, const xq__live *lv) { return xq__live_json_view(s, lv, lv->view); }

cJSON *xq__live_json_view(xq__server *s, const xq__live *lv, const xq__view *v)
{
  cJSON *o = v ? cJSON_CreateObject() : NULL;
  if (!o) return NULL;
  cJSON_AddNumberToObject(o, "round", lv->round);
  cJSON_AddNumberToObject(o, "table", lv->board);
  cJSON_AddItemToObject(o, "red", player_json(s, lv->red));
  cJSON_AddItemToObject(o, "black", player_json(s, lv->black));
  char fen[XQ_FEN_MAX];
  xq_pos start;
  xq_pos_startpos(&start);
  if (v->start.key != start.key || v->start.fullmove != 1 || v->start.halfmove != 0) {
    xq_fen_format(&v->start, fen, sizeof fen);
    cJSON_AddStringToObject(o, "start", fen);
  }
  xq_fen_format(&v->pos, fen, sizeof fen);
  cJSON_AddStringToObject(o, "fen", fen);
  cJSON *moves = cJSON_AddArrayToObject(o, "moves");
  cJSON *wxf = cJSON_AddArrayToObject(o, "wxf");
  cJSON *zh = cJSON_AddArrayToObject(o, "zh");
  xq_pos pos = v->start;
  for (int i = 0; i < v->nply; i++) {
    char m[XQ_MOVE_TEXT_MAX], w[XQ_MOVE_TEXT_MAX], z[XQ_MOVE_TEXT_MAX];
    xq_undo u;
    /* WXF and Chinese depend on the position before the move (tandem pieces) */
    if (xq_move_format(&pos, v->moves[i], XQ_NOTE_ICCS, m, sizeof m) < 0 ||
        xq_move_format(&pos, v->moves[i], XQ_NOTE_WXF, w, sizeof w) < 0 ||
        xq_move_format(&pos, v->moves[i], XQ_NOTE_CHINESE, z, sizeof z) < 0)
      break;
    cJSON_AddItemToArray(moves, cJSON_CreateString(m));
    cJSON_AddItemToArray(wxf, cJSON_CreateString(w));
    cJSON_AddItemToArray(zh, cJSON_CreateString(z));
    xq_make(&pos, v->moves[i], &u);
  }
  cJSON_AddNumberToObject(o, "ply", v->nply);
  cJSON_AddStringToObject(o, "result", result_of(s, lv, v));
  if (v->result != XQ_OUT_NONE) cJSON_AddStringToObject(o, "reason", xq_reason_name(v->reason));
  if (v->result == XQ_OUT_NEEDS_ARBITER) cJSON_AddTrueToObject(o, "needs_arbiter");
  /* a 变着 order in force (R5): the side that must change */
  if (v->must_change >= 0) cJSON_AddStringToObject(o, "must_change", v->must_change == XQ_RED ? "red" : "black");
  cJSON *f = cJSON_AddArrayToObject(o, "fouls");
  cJSON_AddItemToArray(f, cJSON_CreateNumber(v->fouls[0]));
  cJSON_AddItemToArray(f, cJSON_CreateNumber(v->fouls[1]));
  if (v->clock[0] >= 0 || v->clock[1] >= 0) {
    cJSON *c = cJSON_AddArrayToObject(o, "clock");
    cJSON_AddItemToArray(c, cJSON_CreateNumber((double)v->clock[0]));
    cJSON_AddItemToArray(c, cJSON_CreateNumber((double)v->clock[1]));
    /* when they were read: the side to move's has run since */
    if (v->clock_at) cJSON_AddNumberToObject(o, "clock_at", (double)v->clock_at);
  } else {
    cJSON_AddNullToObject(o, "clock");
  }
  if (v->paused) cJSON_AddTrueToObject(o, "paused");
  /* the last ruling, its sentences in both languages: kept across reloads */
  cJSON *vj = v->verdict ? cJSON_Parse(v->verdict) : NULL;
  if (vj) cJSON_AddItemToObject(o, "verdict", vj);
  /* every ruling, in order (the desk's list), and how many the arbiters
   * marked seen (the seen op) */
  cJSON *rj = v->rulings ? cJSON_Parse(v->rulings) : NULL;
  cJSON_AddItemToObject(o, "rulings", rj ? rj : cJSON_CreateArray());
  int nr = rj ? cJSON_GetArraySize(rj) : 0;
  cJSON_AddNumberToObject(o, "seen", lv->seen < nr ? lv->seen : nr);
  if (lv->round == XQ_KO_ROUND && s->ko && lv->board <= s->ko->ntables) {
    /* a knockout table: which match, and which of its games */
    const xq_ko_table *t = &s->ko->tables[lv->board - 1];
    cJSON *k = cJSON_AddObjectToObject(o, "knockout");
    cJSON_AddNumberToObject(k, "match", t->match);
    cJSON_AddNumberToObject(k, "stage", xq_ko_stage(s->ko, t->match));
    cJSON_AddStringToObject(k, "type", xq_ko_gtype_name(t->type));
    cJSON_AddStringToObject(k, "time_control", xq_ko_game_time_control(s->ko, t->match, t->type));
  }
  return o;
}

/* A round's games as last made: {"round":R,"games":[...]} and a newline,
 * with its entity tag, for the version of the round it was made at. */
struct xq__round_cache {
  uint64_t version;
  int pub;                     /* made for anonymous readers of a delayed broadcast */
  char *text;
  size_t len;
  char tag[20];
};

/* The text of round `round`'s games, made now. NULL when out of memory. */
static char *round_text(xq__server *s, int round, size_t *len)
{
  cJSON *o = cJSON_CreateObject(), *a = NULL;
  if (o) cJSON_AddNumberToObject(o, "round", round);
  if (o) a = cJSON_AddArrayToObject(o, "games");
  for (int b = 1; a && b <= s->nboards[round]; b++) {
    xq__live *lv = xq__live_get(s, round, b);
    cJSON *g = lv ? xq__live_json_game(s, lv) : NULL;
    if (g) cJSON_AddItemToArray(a, g);
  }
  char *text = a ? cJSON_PrintUnformatted(o) : NULL;
  cJSON_Delete(o);
  if (!text) return NULL;
  size_t n = strlen(text);
  char *t = realloc(text, n + 2);
  if (!t) {
    free(text);
    return NULL;
  }
  t[n] = '\n';
  t[n + 1] = 0;
  *len = n + 1;
  return t;
}

const char *xq__live_json_round(xq__server *s, int round, size_t *len, const char **tag)
{
  if (round < 1 || round > XQ_ROUNDS_LIVE_MAX || !s->rounds[round]) return NULL;
  struct xq__round_cache *c = s->round_cache[round];
  int pub = xq__delay_public(s);
  if (c && c->text && c->version == s->round_version[round] && c->pub == pub) {
    *len = c->len;
    if (tag) *tag = c->tag;
    return c->text;
  }
  if (!c && !(c = s->round_cache[round] = calloc(1, sizeof *c))) return NULL;
  size_t n = 0;
  char *text = round_text(s, round, &n);
  if (!text) return NULL;
  free(c->text);
  c->text = text;
  c->len = n;
  c->version = s->round_version[round];
  c->pub = pub;
  uint64_t h = 1469598103934665603ull; /* FNV-1a, as every other entity tag */
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
  snprintf(c->tag, sizeof c->tag, "\"%016llx\"", (unsigned long long)h);
  *len = n;
  if (tag) *tag = c->tag;
  return text;
}

void xq__live_json_free(xq__server *s)
{
  for (int r = 0; r <= XQ_ROUNDS_LIVE_MAX; r++) {
    if (s->round_cache[r]) free(s->round_cache[r]->text);
    free(s->round_cache[r]);
    s->round_cache[r] = NULL;
  }
}

char *xq__live_json_move(const xq__live *lv, const xq_pos *before, xq_move m, const char *ruling,
                         const char *source)
{
  char iccs[XQ_MOVE_TEXT_MAX], wxf[XQ_MOVE_TEXT_MAX], zh[XQ_MOVE_TEXT_MAX], fen[XQ_FEN_MAX];
  xq_move_format(before, m, XQ_NOTE_ICCS, iccs, sizeof iccs);
  xq_move_format(before, m, XQ_NOTE_WXF, wxf, sizeof wxf);
  xq_move_format(before, m, XQ_NOTE_CHINESE, zh, sizeof zh);
  xq_fen_format(&lv->g->pos, fen, sizeof fen);
  char clock[64] = "null";
  long ck[2];
  xq__live_clock(lv, ck);
  if (ck[0] >= 0) snprintf(clock, sizeof clock, "[%ld,%ld]", ck[0], ck[1]);
  char src[48] = "";
  if (source) snprintf(src, sizeof src, ",\"source\":\"%.16s\"", source);
  size_t n = 512 + (ruling ? strlen(ruling) : 0);
  char *t = malloc(n);
  if (t)
    snprintf(t, n, "{\"ply\":%d,\"move\":\"%s\",\"wxf\":\"%s\",\"zh\":\"%s\",\"fen\":\"%s\",\"clock\":%s,"
             "\"result\":\"%s\"%s%s%s}",
             lv->g->nply, iccs, wxf, zh, fen, clock, xq__live_result(lv), src, ruling ? ",\"ruling\":" : "",
             ruling ? ruling : "");
  return t;
}
