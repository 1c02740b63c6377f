/*
 * report.c -- the perft report of `xqref perft`: the divide lines as the
 * root moves finish, the progress lines of long runs and the node count.
 */
#include "perft.h"

void xq_perft_print_divide(FILE *out, const xq_pos *pos, const xq_divide_entry *e, int n)
{
  for (int i = 0; i < n; i++) {
    char text[XQ_MOVE_TEXT_MAX];
    xq_move_format(pos, e[i].move, XQ_NOTE_ICCS, text, sizeof text);
    fprintf(out, "%s: %llu\n", text, (unsigned long long)e[i].nodes);
  }
}

/* Where the reports of one run go. */
typedef struct report {
  FILE *out, *progress;
  const xq_pos *pos;
} report;

static void report_root(void *ctx, const xq_divide_entry *e, double elapsed)
{
  report *r = ctx;
  char text[XQ_MOVE_TEXT_MAX];
  xq_move_format(r->pos, e->move, XQ_NOTE_ICCS, text, sizeof text);
  fprintf(r->out, "%s: %llu time %.0f ms\n", text, (unsigned long long)e->nodes,
          elapsed * 1000.0);
  fflush(r->out);
}

static void report_progress(void *ctx, const xq_perft_status *s)
{
  report *r = ctx;
  fprintf(r->progress, "perft: %d/%d root moves, %d/%d subtrees, %.0f s, %.1f M leaves/s",
          s->roots_done, s->roots, s->jobs_done, s->jobs, s->elapsed,
          s->elapsed > 0 ? (double)s->nodes / s->elapsed / 1e6 : 0.0);
  if (s->jobs_done > 0)
    fprintf(r->progress, ", about %.0f s left",
            s->elapsed * (double)(s->jobs - s->jobs_done) / (double)s->jobs_done);
  fputc('\n', r->progress);
  fflush(r->progress);
}

int xq_perft_run(const xq_perft_opts *o, FILE *out, xq_error *err)
{
  xq_pos pos;
  xq_perft_table *table = NULL;

  if (!o || !out || o->depth < 0 || o->depth > XQ_PERFT_MAX_DEPTH || o->threads < 1 ||
      o->threads > XQ_PERFT_MAX_THREADS || o->hash_mb < 0 || o->hash_mb > XQ_PERFT_HASH_MAX_MB)
    return xq_error_set(err, XQ_EINVAL, -1, -1,
                        "perft: NULL argument, or depth, threads or hash size out of range");
  if (o->fen) {
    int rc = xq_fen_parse(&pos, o->fen, 0, err);
    if (rc != XQ_OK) return rc;
  } else {
    xq_pos_startpos(&pos);
  }
  if (o->hash_mb && xq_perft_table_new((size_t)o->hash_mb << 20, &table) != XQ_OK)
    return xq_error_set(err, XQ_ENOMEM, -1, -1, "perft: no memory for a %d MB table",
                        o->hash_mb);

  report r = {out, o->progress, &pos};
  xq_perft_ctl ctl = {o->threads, table, o->divide ? report_root : NULL,
                      o->progress ? report_progress : NULL, XQ_PERFT_PROGRESS_EVERY, &r};
  xq_divide_entry entries[XQ_MAX_MOVES];
  int n = 0;
  double t0 = xq_perft_now();
  uint64_t nodes = xq_perft_split(&pos, o->depth, &ctl, entries, &n);
  double dt = xq_perft_now() - t0;
  fprintf(out, "nodes %llu time %.0f ms nps %.0f", (unsigned long long)nodes, dt * 1000.0,
          dt > 0 ? (double)nodes / dt : 0.0);
  if (table) fprintf(out, " hash %d MB", o->hash_mb);
  fputc('\n', out);
  xq_perft_table_free(table);
  return XQ_OK;
}
