/*
 * tree.c -- a move tree read in pre-order into a record: each node is a
 * move with a continuation flag and a sibling flag (node, its
 * continuation, then its sibling), the order XQF, 象棋桥's CBR and CBF and
 * the XML trees of PFC store their variations in. The first continuation
 * at each node is the main line; a sibling becomes a variation.
 */
#include <stdlib.h>
#include <string.h>

#include "records_internal.h"

void xq__tree_start(xq__tree *t, xq_record *rec, int more)
{
  memset(t, 0, sizeof *t);
  t->rec = rec;
  t->pos = rec->start;
  t->more = more;
}

void xq__tree_end(xq__tree *t)
{
  free(t->stack);
  t->stack = NULL;
  t->depth = t->cap = 0;
}

/* Push branching point *p (the stack grows as the tree needs, up to
 * XQ_REC_VARS_MAX entries). Returns XQ_OK, XQ_ELIMIT or XQ_ENOMEM. */
static int push(xq__tree *t, const xq__branch *p)
{
  if (t->depth >= XQ_REC_VARS_MAX) return XQ_ELIMIT;
  if (t->depth == t->cap) {
    int nc = t->cap ? (t->cap * 2 < XQ_REC_VARS_MAX ? t->cap * 2 : XQ_REC_VARS_MAX) : 16;
    xq__branch *q = realloc(t->stack, sizeof(xq__branch) * (size_t)nc);
    if (!q) return XQ_ENOMEM;
    t->stack = q;
    t->cap = nc;
  }
  t->stack[t->depth++] = *p;
  return XQ_OK;
}

int xq__tree_next(xq__tree *t)
{
  t->fork = 0;
  if (t->more) {
    t->plies++;
    return 1;
  }
  if (t->depth == 0) return 0;
  xq__branch *p = &t->stack[--t->depth];
  /* The sibling replaces move p->at of p->line: a new variation, made
   * once its first move is known to be legal and to fit. */
  t->broken = p->broken;
  t->fork = !t->broken;
  t->fork_line = p->line;
  t->fork_at = p->at;
  t->line = -1;
  t->at = 0;
  t->pos = p->pos;
  t->plies = p->ply + 1;
  return 1;
}

/* Open the variation of a sibling whose first move `m` is legal: left
 * out (the node and what follows it) past the variation limits. */
static void open_fork(xq__tree *t)
{
  t->fork = 0;
  int v = t->rec->n_var_moves < XQ_REC_VAR_MOVES_MAX
              ? xq_record_add_variation(t->rec, t->fork_line, t->fork_at)
              : XQ_ELIMIT;
  if (v >= 0) {
    t->line = v;
    return;
  }
  /* Past the variation limits, a variation is left out, not the game. */
  t->broken = 1;
  t->line = 0;
  xq__record_warn(t->rec, "ply %d: variation left out: more than %d variations, %d variation moves "
                       "or nested %d deep", t->plies, XQ_REC_VARS_MAX, XQ_REC_VAR_MOVES_MAX,
               XQ_REC_VAR_DEPTH_MAX);
}

int xq__tree_move(xq__tree *t, xq_move m, int has_next, int has_var, int where, xq_error *err)
{
  xq_record *rec = t->rec;
  int ply = t->plies, rc;
  t->added = 0;
  int legal = !t->broken && xq_is_legal(&t->pos, m); /* tested once: the costly part */
  if (t->fork && legal) open_fork(t);
  if (!t->broken && t->line != 0 && !legal) {
    /* Real files hold variations that go wrong (WildHouse.xqf): the
     * variation is cut before the bad move, the main line is kept. */
    t->broken = 1;
    t->cut++;
    xq__record_warn(rec, "ply %d: variation cut before its illegal move %c%d%c%d", ply,
                 'a' + XQ_FILE(XQ_FROM(m)), XQ_RANK(XQ_FROM(m)), 'a' + XQ_FILE(XQ_TO(m)),
                 XQ_RANK(XQ_TO(m)));
  }
  if (!t->broken && !legal) {
    char fen[XQ_FEN_MAX];
    xq_fen_format(&t->pos, fen, sizeof fen);
    return xq_error_set(err, XQ_EILLEGAL, where, ply, "ply %d: illegal move %c%d%c%d in %.60s",
                        ply, 'a' + XQ_FILE(XQ_FROM(m)), XQ_RANK(XQ_FROM(m)),
                        'a' + XQ_FILE(XQ_TO(m)), XQ_RANK(XQ_TO(m)), fen);
  }
  if (has_var) {
    xq__branch here = {t->line, t->at, ply - 1, t->broken, t->pos};
    /* A sibling of a variation's first move is hoisted to the variation's
     * own branching point (or to the one this variation would have had). */
    if (t->fork) { /* the branching point it shares is sound */
      here.line = t->fork_line;
      here.at = t->fork_at;
      here.broken = 0;
    } else if (t->line > 0 && t->at == 0) {
      here.line = rec->vars[t->line - 1].parent;
      here.at = rec->vars[t->line - 1].at;
    }
    if ((rc = push(t, &here)) != XQ_OK)
      return xq_error_set(err, rc, where, ply,
                          rc == XQ_ENOMEM ? "out of memory" : "too many variations");
  }
  t->more = has_next;
  if (t->broken) return XQ_OK;
  if ((rc = xq_record_add_line_move(rec, t->line, m)) != XQ_OK && t->line != 0) {
    t->broken = 1; /* the variation moves are full: the rest of this one goes */
    xq__record_warn(rec, "ply %d: variation cut: more than %d variation moves", ply,
                 XQ_REC_VAR_MOVES_MAX);
    return XQ_OK;
  }
  if (rc != XQ_OK)
    return xq_error_set(err, XQ_ELIMIT, where, ply, "more than %d plies in the main line",
                        XQ_REC_PLIES_MAX);
  xq_undo u;
  xq_make(&t->pos, m, &u);
  t->at++;
  if (t->line == 0) rec->end = t->pos;
  t->added = 1;
  return XQ_OK;
}

int xq__tree_comment(xq__tree *t, const char *text, size_t len)
{
  if (!len) return XQ_OK;
  if (t->plies > 0 && !t->added) return XQ_OK; /* the node was left out */
  return xq__text_add_comment_or_drop(t->rec, t->plies > 0 ? t->line : 0, t->plies > 0 ? t->at : 0,
                                 text, len, &t->dropped);
}
