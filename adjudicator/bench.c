/*
 * bench.c -- `xqref bench --judge`: adjudication throughput. Games are
 * prepared first (a games file, or seeded random games that cycle now
 * and then so that repetition rulings run), then replayed move by move
 * through the full rules of xq_game; only the replay is timed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adjudicator.h"
#include "records.h"

#define XQ_BENCH_GAMES_MAX 4096   /* games held in memory */
#define XQ_BENCH_GAME_PLIES 400   /* plies kept per game */

typedef struct bgame {
  char fen[XQ_FEN_MAX];
  int n;
  xq_move m[XQ_BENCH_GAME_PLIES];
} bgame;

static uint64_t rng_state;

static uint64_t rnd(void)
{
  /* xorshift64*: a fixed seed gives the same games on every machine. */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}

/* A random game from the start: mostly random legal moves, and now and
 * then a stretch that plays the last four plies again (a cycle). Stops at
 * mate, stalemate or XQ_BENCH_GAME_PLIES. */
static void random_game(bgame *g)
{
  xq_pos p;
  xq_pos_startpos(&p);
  xq_fen_format(&p, g->fen, sizeof g->fen);
  g->n = 0;
  while (g->n < XQ_BENCH_GAME_PLIES) {
    xq_movelist l;
    xq_gen_legal(&p, &l);
    if (l.n == 0) break;
    xq_move m = l.m[rnd() % (uint64_t)l.n];
    if (g->n >= 4 && rnd() % 8 == 0) {
      xq_move back = g->m[g->n - 4];
      if (xq_is_legal(&p, back)) m = back;
    }
    xq_undo u;
    xq_make(&p, m, &u);
    g->m[g->n++] = m;
  }
}

/* Read up to `max` games (main lines, at most XQ_BENCH_GAME_PLIES plies
 * each) from a PGN, XQF or DhtmlXQ file; bad games are skipped. Returns
 * the number read, or -1 when the file cannot be opened. */
static int read_games(const char *path, bgame *games, int max)
{
  xq_games *gs;
  xq_error err;
  if (xq_games_open(&gs, path, XQ_PGN_NO_COMMENTS, &err) != XQ_OK) {
    fprintf(stderr, "xqref bench: %s: %s\n", path, err.msg);
    return -1;
  }
  xq_record *rec = malloc(sizeof *rec);
  if (!rec) {
    xq_games_close(gs);
    return -1;
  }
  xq_record_init(rec);
  int n = 0, rc;
  while (n < max && (rc = xq_games_next(gs, rec, &err)) != 0) {
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

int xq_judge_bench_main(int argc, char **argv)
{
  const char *file = NULL, *rules_name = "cxa2011";
  int ngames = 500, rounds = 5;
  unsigned long long seed = 20240601ULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: xqref bench --judge [--games FILE] [--random N] [--rounds R] [--seed S] "
             "[--rules NAME]\n"
             "Replays games through the full rules and reports plies/s and the mean time\n"
             "of one verdict. --games reads real games from a PGN, XQF or DhtmlXQ file\n"
             "(up to %d). Without --games: N seeded random games (default 500) that\n"
             "cycle now and then, so repetition rulings run too.\n", XQ_BENCH_GAMES_MAX);
      return 0;
    }
    if (!strcmp(argv[i], "--judge")) continue;
    if (i + 1 >= argc) {
      fprintf(stderr, "xqref bench: missing value for %s\n", argv[i]);
      return 2;
    }
    if (!strcmp(argv[i], "--games")) file = argv[++i];
    else if (!strcmp(argv[i], "--random")) ngames = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--rounds")) rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--rules")) rules_name = argv[++i];
    else {
      fprintf(stderr, "xqref bench: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (ngames < 1 || ngames > XQ_BENCH_GAMES_MAX || rounds < 1) {
    fprintf(stderr, "xqref bench: --random takes 1..%d, --rounds 1 or more\n", XQ_BENCH_GAMES_MAX);
    return 2;
  }
  xq_rules r;
  if (xq_rules_preset(rules_name, &r) != XQ_OK) {
    fprintf(stderr, "xqref bench: unknown rules %s\n", rules_name);
    return 2;
  }
  bgame *games = malloc(sizeof(bgame) * XQ_BENCH_GAMES_MAX);
  xq_game *g = malloc(sizeof *g);
  if (!games || !g) {
    free(games);
    free(g);
    fprintf(stderr, "xqref bench: out of memory\n");
    return 1;
  }
  int n;
  if (file) {
    n = read_games(file, games, XQ_BENCH_GAMES_MAX);
    if (n <= 0) {
      fprintf(stderr, "xqref bench: no games read from %s\n", file);
      free(games);
      free(g);
      return 1;
    }
  } else {
    rng_state = seed ? seed : 1;
    for (n = 0; n < ngames; n++) random_game(&games[n]);
  }
  long plies = 0, rulings = 0, ended = 0;
  double t0 = now_s();
  for (int round = 0; round < rounds; round++)
    for (int i = 0; i < n; i++) {
      xq_game_init(g, &r, games[i].fen, NULL);
      for (int k = 0; k < games[i].n && g->result == XQ_OUT_NONE; k++) {
        xq_verdict v;
        xq_game_move(g, games[i].m[k], 0, &v);
        plies++;
        rulings += v.has_cls;
      }
      ended += g->result != XQ_OUT_NONE;
    }
  double dt = now_s() - t0;
  /* One more round timing each verdict: the slowest one, and the mean of
   * those that ruled a repeated cycle (classification included). */
  double worst = 0, ruled_t = 0;
  long ruled_n = 0;
  int worst_ruled = 0;
  for (int i = 0; i < n; i++) {
    xq_game_init(g, &r, games[i].fen, NULL);
    for (int k = 0; k < games[i].n && g->result == XQ_OUT_NONE; k++) {
      xq_verdict v;
      double a = now_s();
      xq_game_move(g, games[i].m[k], 0, &v);
      double e = now_s() - a;
      if (e > worst) {
        worst = e;
        worst_ruled = v.has_cls;
      }
      if (v.has_cls) {
        ruled_t += e;
        ruled_n++;
      }
    }
  }
  printf("judge: %d games x %d rounds, %ld plies, %ld repetition rulings, %ld games decided\n", n,
         rounds, plies, rulings, ended);
  printf("time %.3f s, %.0f plies/s, %.3f us per verdict\n", dt, dt > 0 ? plies / dt : 0.0,
         plies ? dt * 1e6 / plies : 0.0);
  printf("slowest verdict %.1f us (%s); verdicts ruling a cycle: %ld, mean %.1f us\n",
         worst * 1e6, worst_ruled ? "a cycle ruling" : "no cycle ruled", ruled_n,
         ruled_n ? ruled_t * 1e6 / ruled_n : 0.0);
  free(games);
  free(g);
  return 0;
}
