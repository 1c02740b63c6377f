/*
 * gen_pgn.c -- games of random legal play written as one PGN file (moves
 * in ICCS, WXF and Chinese in turn): the archive `xqref bench --gen-pgn`
 * writes for measuring `xqref stats --time`, the judge bench and the load
 * tools on many games.
 */
#include <stdio.h>
#include <stdlib.h>

#include "records_internal.h"

/* Game `g` (0-based) into `rec`: its tags, 40 to 199 random legal plies
 * (fewer after mate or stalemate) and a result, drawn from the stream
 * *rng (xq_random_next). */
static void random_game(xq_record *rec, long g, uint64_t *rng)
{
  char buf[64];
  xq_record_reset(rec);
  snprintf(buf, sizeof buf, "Random playout %ld", g + 1);
  xq_record_set_tag(rec, "Event", buf);
  xq_record_set_tag(rec, "Red", "Random A");
  xq_record_set_tag(rec, "Black", "Random B");
  int plies = 40 + (int)(xq_random_next(rng) % 160);
  for (int p = 0; p < plies; p++) {
    xq_movelist ml;
    xq_gen_legal(&rec->end, &ml);
    if (ml.n == 0) break;
    xq_record_append(rec, ml.m[xq_random_next(rng) % (uint64_t)ml.n]);
  }
  xq_movelist ml;
  xq_gen_legal(&rec->end, &ml);
  if (ml.n == 0)
    rec->result = rec->end.side == XQ_RED ? XQ_RESULT_BLACK_WINS : XQ_RESULT_RED_WINS;
  else
    rec->result = (xq_result)(xq_random_next(rng) % 4);
}

int xq_pgn_write_random(FILE *out, long n, uint64_t seed, xq_error *err)
{
  static const xq_notation notes[3] = {XQ_NOTE_ICCS_PGN, XQ_NOTE_WXF, XQ_NOTE_CHINESE};
  if (!out || n < 1 || n > XQ_GEN_PGN_GAMES_MAX)
    return xq_error_set(err, XQ_EINVAL, -1, 0, "NULL stream, or not 1..%ld games",
                        XQ_GEN_PGN_GAMES_MAX);
  xq_record *rec = malloc(sizeof *rec);
  if (!rec) return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
  xq_record_init(rec);
  uint64_t rng = seed;
  int rc = XQ_OK;
  for (long g = 0; g < n && rc == XQ_OK; g++) {
    random_game(rec, g, &rng);
    rc = xq_pgn_write(out, rec, notes[g % 3], 0, err);
  }
  xq_record_free(rec);
  free(rec);
  return rc;
}
