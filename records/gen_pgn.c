/*
 * gen_pgn.c -- xq_gen_pgn, a benchmark helper: write N games of random
 * legal play as one PGN file (moves in ICCS, WXF and Chinese in turn),
 * for measuring `xqref stats --time` on a large archive.
 *
 *   xq_gen_pgn N OUT.pgn [SEED]
 */
#include <stdio.h>
#include <stdlib.h>

#include "records.h"

#define GEN_GAMES_MAX 10000000L

static uint64_t rng_state;

static uint64_t rng(void)
{
  /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}

int main(int argc, char **argv)
{
  static const xq_notation notes[3] = {XQ_NOTE_ICCS_PGN, XQ_NOTE_WXF, XQ_NOTE_CHINESE};
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: xq_gen_pgn N OUT.pgn [SEED]\n");
    return 2;
  }
  long n = strtol(argv[1], NULL, 10);
  if (n < 1 || n > GEN_GAMES_MAX) {
    fprintf(stderr, "xq_gen_pgn: N must be 1..%ld\n", GEN_GAMES_MAX);
    return 2;
  }
  rng_state = argc == 4 ? strtoull(argv[3], NULL, 10) * 2 + 1 : 0x9E3779B97F4A7C15ULL;
  FILE *out = fopen(argv[2], "wb");
  if (!out) {
    fprintf(stderr, "xq_gen_pgn: cannot create %s\n", argv[2]);
    return 1;
  }
  xq_record *rec = malloc(sizeof *rec);
  if (!rec) return 1;
  xq_record_init(rec);
  for (long g = 0; g < n; g++) {
    char buf[64];
    xq_record_reset(rec);
    snprintf(buf, sizeof buf, "Random playout %ld", g + 1);
    xq_record_set_tag(rec, "Event", buf);
    xq_record_set_tag(rec, "Red", "Random A");
    xq_record_set_tag(rec, "Black", "Random B");
    int plies = 40 + (int)(rng() % 160);
    for (int p = 0; p < plies; p++) {
      xq_movelist ml;
      xq_gen_legal(&rec->end, &ml);
      if (ml.n == 0) break;
      xq_record_append(rec, ml.m[rng() % (uint64_t)ml.n]);
    }
    xq_movelist ml;
    xq_gen_legal(&rec->end, &ml);
    if (ml.n == 0)
      rec->result = rec->end.side == XQ_RED ? XQ_RESULT_BLACK_WINS : XQ_RESULT_RED_WINS;
    else
      rec->result = (xq_result)(rng() % 4);
    if (xq_pgn_write(out, rec, notes[g % 3], 0, NULL) != XQ_OK) {
      fprintf(stderr, "xq_gen_pgn: write error\n");
      return 1;
    }
  }
  xq_record_free(rec);
  free(rec);
  return fclose(out) == 0 ? 0 : 1;
}
