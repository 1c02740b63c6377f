/*
 * judge_bench.c -- the judge bench: adjudication throughput. Games are
 * prepared first (a games file, or seeded random games that cycle now and
 * then so that repetition rulings run), then replayed move by move
 * through the full rules of xq_game; only the replay is timed. A last
 * round replays them as a board's moves reach the server: Chinese move
 * text, tested for a search and judged as events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adjudicator.h"
#include "records.h"

/* A random game from the start, drawn from the stream *rng
 * (xq_random_next): mostly random legal moves, and now and then a stretch
 * that plays the last four plies again (a cycle). Stops at mate,
 * stalemate or XQ_BENCH_GAME_PLIES. */
static void random_game(xq_bench_game *g, uint64_t *rng)
{
  xq_pos p;
  xq_pos_startpos(&p);
  xq_fen_format(&p, g->fen, sizeof g->fen);
  g->n = 0;
  while (g->n < XQ_BENCH_GAME_PLIES) {
    xq_movelist l;
    xq_gen_legal(&p, &l);
    if (l.n == 0) break;
    xq_move m = l.m[xq_random_next(rng) % (uint64_t)l.n];
    if (g->n >= 4 && xq_random_next(rng) % 8 == 0) {
      xq_move back = g->m[g->n - 4];
      if (xq_is_legal(&p, back)) m = back;
    }
    xq_undo u;
    xq_make(&p, m, &u);
    g->m[g->n++] = m;
  }
}

void xq_bench_games_random(xq_bench_game *games, int n, uint64_t seed)
{
  uint64_t rng = seed;
  for (int i = 0; games && i < n; i++) random_game(&games[i], &rng);
}

int xq_bench_games_read(const char *path, xq_bench_game *games, int max, xq_error *err)
{
  xq_games *gs;
  xq_error local;
  if (!err) err = &local;
  if (!path || !games) {
    err->code = XQ_EINVAL;
    err->pos = err->ply = -1;
    snprintf(err->msg, sizeof err->msg, "NULL argument");
    return XQ_EINVAL;
  }
  int rc = xq_games_open(&gs, path, XQ_PGN_NO_COMMENTS, err);
  if (rc != XQ_OK) return rc;
  xq_record *rec = malloc(sizeof *rec);
  if (!rec) {
    xq_games_close(gs);
    err->code = XQ_ENOMEM;
    err->pos = err->ply = -1;
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return XQ_ENOMEM;
  }
  xq_record_init(rec);
  int n = 0;
  while (n < max && (rc = xq_games_next(gs, rec, &local)) != 0) {
    if (rc == XQ_EIO) break;
    if (rc < 0) continue;
    xq_fen_format(&rec->start, games[n].fen, sizeof games[n].fen);
    games[n].n = rec->n_moves < XQ_BENCH_GAME_PLIES ? rec->n_moves : XQ_BENCH_GAME_PLIES;
    memcpy(games[n].m, rec->moves, sizeof(xq_move) * (size_t)games[n].n);
    n++;
  }
  xq_record_free(rec);
  free(rec);
  xq_games_close(gs);
  return n;
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* What the timed rounds and the round timing each verdict count. */
typedef struct bench_tally {
  long plies, rulings, ended;
  double dt;                 /* seconds of the timed rounds */
  double worst, ruled_t;     /* the slowest verdict; the time of those ruling a cycle */
  long ruled_n;
  int worst_ruled;           /* the slowest verdict ruled a cycle */
  long text_plies, text_searched; /* the move-text round: plies, and those xq_game_may_search sent off */
  double text_dt;            /* its seconds */
} bench_tally;

/* `rounds` replays of every game, timed as a whole. */
static void timed_rounds(xq_game *g, const xq_rules *r, const xq_bench_game *games, int n,
                         int rounds, bench_tally *t)
{
  double t0 = now_s();
  for (int round = 0; round < rounds; round++)
    for (int i = 0; i < n; i++) {
      xq_game_init(g, r, games[i].fen, NULL);
      for (int k = 0; k < games[i].n && g->result == XQ_OUT_NONE; k++) {
        xq_verdict v;
        xq_game_move(g, games[i].m[k], 0, &v);
        t->plies++;
        t->rulings += v.has_cls;
      }
      t->ended += g->result != XQ_OUT_NONE;
    }
  t->dt = now_s() - t0;
}

/* One more round timing each verdict: the slowest one, and the mean of
 * those that ruled a repeated cycle (classification included). */
static void verdict_round(xq_game *g, const xq_rules *r, const xq_bench_game *games, int n,
                          bench_tally *t)
{
  for (int i = 0; i < n; i++) {
    xq_game_init(g, r, games[i].fen, NULL);
    for (int k = 0; k < games[i].n && g->result == XQ_OUT_NONE; k++) {
      xq_verdict v;
      double a = now_s();
      xq_game_move(g, games[i].m[k], 0, &v);
      double e = now_s() - a;
      if (e > t->worst) {
        t->worst = e;
        t->worst_ruled = v.has_cls;
      }
      if (v.has_cls) {
        t->ruled_t += e;
        t->ruled_n++;
      }
    }
  }
}

/* The moves of `bg` as a board sends them: Chinese text in MOVE events,
 * ev[0..bg->n). */
static void game_events(const xq_bench_game *bg, xq_event *ev)
{
  xq_pos p;
  xq_fen_parse(&p, bg->fen, XQ_FEN_LAX, NULL);
  for (int k = 0; k < bg->n; k++) {
    char text[XQ_MOVE_TEXT_MAX];
    xq_undo u;
    xq_move_format(&p, bg->m[k], XQ_NOTE_CHINESE, text, sizeof text);
    xq_event_move(&ev[k], text, 0, NULL);
    xq_make(&p, bg->m[k], &u);
  }
}

/* One more round on the server's path of a board's move (net/ops_game.c):
 * each move as text, tested with xq_game_may_search and judged with
 * xq_game_apply. Only the replay of each game is timed, not the making
 * of its events. */
static void text_round(xq_game *g, const xq_rules *r, const xq_bench_game *games, int n,
                       xq_event *ev, bench_tally *t)
{
  for (int i = 0; i < n; i++) {
    game_events(&games[i], ev);
    double a = now_s();
    xq_game_init(g, r, games[i].fen, NULL);
    for (int k = 0; k < games[i].n && g->result == XQ_OUT_NONE; k++) {
      xq_verdict v;
      t->text_searched += xq_game_may_search(g, &ev[k], 1);
      xq_game_apply(g, &ev[k], 1, &v, NULL);
      t->text_plies++;
    }
    t->text_dt += now_s() - a;
  }
}

int xq_judge_bench(const xq_rules *rules, const xq_bench_game *games, int n, int rounds,
                   FILE *out)
{
  if (!rules || !games || !out || n < 1 || rounds < 1) return XQ_EINVAL;
  xq_game *g = malloc(sizeof *g);
  xq_event *ev = malloc(sizeof *ev * XQ_BENCH_GAME_PLIES);
  if (!g || !ev) {
    free(g);
    free(ev);
    return XQ_ENOMEM;
  }
  bench_tally t = {0};
  timed_rounds(g, rules, games, n, rounds, &t);
  verdict_round(g, rules, games, n, &t);
  text_round(g, rules, games, n, ev, &t);
  fprintf(out,
          "judge: %d games x %d rounds, %ld plies, %ld repetition rulings, %ld games decided\n", n,
          rounds, t.plies, t.rulings, t.ended);
  fprintf(out, "time %.3f s, %.0f plies/s, %.3f us per verdict\n", t.dt,
          t.dt > 0 ? t.plies / t.dt : 0.0, t.plies ? t.dt * 1e6 / t.plies : 0.0);
  fprintf(out, "slowest verdict %.1f us (%s); verdicts ruling a cycle: %ld, mean %.1f us\n",
          t.worst * 1e6, t.worst_ruled ? "a cycle ruling" : "no cycle ruled", t.ruled_n,
          t.ruled_n ? t.ruled_t * 1e6 / t.ruled_n : 0.0);
  fprintf(out,
          "move text (a board's path): %ld plies, %.0f plies/s, %.3f us per move; "
          "%ld sent to search\n",
          t.text_plies, t.text_dt > 0 ? t.text_plies / t.text_dt : 0.0,
          t.text_plies ? t.text_dt * 1e6 / t.text_plies : 0.0, t.text_searched);
  free(ev);
  free(g);
  return XQ_OK;
}
