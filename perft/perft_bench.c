/*
 * perft_bench.c -- the perft bench: perft over a fixed set of positions,
 * printing per position and in total nodes, time and nodes per second.
 * The expected counts come from the perft suite, so a bench run is also a
 * correctness signature; with a table (`bench --hash`) the same counts
 * are checked and the figures are the hashed ones.
 */
#include "perft.h"

typedef struct bench_pos {
  const char *name;
  const char *fen;
  int depth;
  uint64_t nodes; /* expected count at `depth` */
} bench_pos;

/* Openings, middlegames with cannon screens and pins, and sparse endings. */
static const bench_pos bench_set[] = {
  {"start", XQ_START_FEN, 5, 133312995ull},
  {"cpw02", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", 5, 53112976ull},
  {"cpw03", "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", 5, 10369923ull},
  {"cpw04", "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", 6, 100055401ull},
  {"fsf1", "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1", 4, 4485547ull},
  {"pfbench05", "2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1", 5, 30104131ull},
  {"pfbench16", "3akab2/3r5/8n/8p/2P1C1b2/8P/cR2N2r1/2n1B1N2/4A4/2B1KR3 w - - 0 1", 5, 273679644ull},
  {"pfbench39", "4ka3/4a4/N8/p8/C8/9/9/8B/3p2ppc/4K4 w - - 0 1", 6, 6269601ull},
  {"selfscreen", "5k3/9/4c4/9/9/R8/2N6/9/9/4K4 w - - 0 1", 6, 48942946ull},
};

/* Count one bench position: plain, or through a fresh table of `mb` MiB
 * (the table's allocation is not timed). Returns XQ_OK or XQ_ENOMEM. */
static int bench_count(const xq_pos *pos, int depth, int threads, int mb, uint64_t *nodes,
                       double *secs)
{
  xq_perft_table *t = NULL;
  xq_divide_entry entries[XQ_MAX_MOVES];
  int n;
  if (mb && xq_perft_table_new((size_t)mb << 20, &t) != XQ_OK) return XQ_ENOMEM;
  xq_perft_ctl ctl = {threads, t, NULL, NULL, 0, NULL};
  double t0 = xq_perft_now();
  *nodes = xq_perft_split(pos, depth, &ctl, entries, &n);
  *secs = xq_perft_now() - t0;
  xq_perft_table_free(t);
  return XQ_OK;
}

int xq_perft_bench(const xq_bench_opts *o, FILE *out, xq_error *err)
{
  int threads = o ? o->threads : 0, quick = o ? o->quick : 0, bad = 0;
  int mb = o ? o->hash_mb : 0;
  uint64_t total = 0;
  double elapsed = 0;

  if (!o || !out || threads < 1 || threads > XQ_PERFT_MAX_THREADS || mb < 0 ||
      mb > XQ_PERFT_HASH_MAX_MB)
    return xq_error_set(err, XQ_EINVAL, -1, -1,
                        "bench: NULL argument, or threads or hash size out of range");
  fprintf(out, "%-12s %5s %13s %9s %12s\n", "position", "depth", "nodes", "ms", "nodes/s");
  for (size_t i = 0; i < sizeof bench_set / sizeof bench_set[0]; i++) {
    const bench_pos *b = &bench_set[i];
    xq_pos pos;
    xq_error why;
    if (xq_fen_parse(&pos, b->fen, 0, &why) != XQ_OK) {
      if (err) {
        *err = why;
        snprintf(err->msg, sizeof err->msg, "%.12s: %.140s", b->name, why.msg);
      }
      return XQ_EFEN;
    }
    int depth = b->depth - quick;
    uint64_t nodes;
    double dt;
    if (bench_count(&pos, depth, threads, mb, &nodes, &dt) != XQ_OK)
      return xq_error_set(err, XQ_ENOMEM, -1, -1, "bench: no memory for a %d MB table", mb);
    int mismatch = !quick && nodes != b->nodes;
    fprintf(out, "%-12s %5d %13llu %9.0f %12.0f%s\n", b->name, depth, (unsigned long long)nodes,
            dt * 1000.0, dt > 0 ? (double)nodes / dt : 0.0, mismatch ? "  MISMATCH" : "");
    bad += mismatch;
    total += nodes;
    elapsed += dt;
  }
  fprintf(out, "total nodes %llu time %.0f ms nps %.0f threads %d", (unsigned long long)total,
          elapsed * 1000.0, elapsed > 0 ? (double)total / elapsed : 0.0, threads);
  if (mb) fprintf(out, " hash %d MB", mb);
  fputc('\n', out);
  return bad;
}
