/*
 * team_store.c -- the team log of a team competition (store/team_store.h;
 * schema 13, docs/store.md "team_log"): rows checked against the event
 * before they are appended, and the event rebuilt from them in order.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tourney_internal.h"
#include "store_internal.h"
#include "team_store.h"

/* A row's list as "1,2,3". */
static void list_text(const xq_tm_logrow *r, char *buf, size_t cap)
{
  size_t len = 0;
  buf[0] = 0;
  for (int i = 0; i < r->nlist && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%d", i ? "," : "", r->list[i]);
}

static int list_read(const char *s, xq_tm_logrow *r)
{
  r->nlist = 0;
  while (*s) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || r->nlist == XQ_TM_ROSTER_MAX || v < 0 || v > XQ_TOURNEY_PLAYERS_MAX) return XQ_EINVAL;
    r->list[r->nlist++] = (int)v;
    s = end + (*end == ',');
  }
  return XQ_OK;
}

static int append(sqlite3 *db, const xq_tm_logrow *r)
{
  sqlite3_stmt *q;
  char list[XQ_TM_ROSTER_MAX * 8];
  list_text(r, list, sizeof list);
  if (sqlite3_prepare_v2(db, "INSERT INTO team_log(kind, round, a, b, c, list, text) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         -1, &q, NULL) != SQLITE_OK)
    return XQ_ESTORE;
  sqlite3_bind_text(q, 1, xq_tm_log_kind_name(r->kind), -1, SQLITE_STATIC);
  sqlite3_bind_int(q, 2, r->round);
  sqlite3_bind_int(q, 3, r->a);
  sqlite3_bind_int(q, 4, r->b);
  sqlite3_bind_int(q, 5, r->c);
  sqlite3_bind_text(q, 6, list, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(q, 7, r->text, -1, SQLITE_STATIC);
  int rc = sqlite3_step(q) == SQLITE_DONE ? XQ_OK : XQ_ESTORE;
  sqlite3_finalize(q);
  return rc;
}

int xq_tstore_team_record(xq_tstore *st, const xq_tournament *people, xq_tm_event **ev, const xq_tm_logrow *rows,
                          int n, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  if (!db || !ev || (!rows && n)) return xq__error(err, XQ_EINVAL, "no team log rows");
  for (int i = 0; i < n; i++) {
    int rc = xq_tm_log_apply(ev, people, &rows[i], err);
    if (rc) return rc;
  }
  xq__store_lock(st);
  if (xq__store_begin(st, 1, err)) {
    xq__store_unlock(st);
    return XQ_ESTORE;
  }
  int rc = XQ_OK;
  for (int i = 0; i < n && !rc; i++) rc = append(db, &rows[i]);
  if (rc) {
    rc = xq__store_dberr(st, err, "team log");
    xq__store_rollback(st);
  } else {
    rc = xq__store_commit(st, err);
  }
  xq__store_unlock(st);
  return rc;
}

int xq_tstore_team_load(xq_tstore *st, const xq_tournament *people, xq_tm_event **out, xq_error *err)
{
  sqlite3 *db = xq__store_db(st);
  if (!db || !out) return xq__error(err, XQ_EINVAL, "no store");
  *out = NULL;
  sqlite3_stmt *q;
  xq__store_lock(st);
  if (sqlite3_prepare_v2(db, "SELECT kind, round, a, b, c, list, text FROM team_log ORDER BY id", -1, &q, NULL) !=
      SQLITE_OK) {
    xq__store_unlock(st);
    return xq__store_dberr(st, err, "team log");
  }
  int rc = XQ_OK, step;
  xq_tm_logrow r;
  while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW) {
    memset(&r, 0, sizeof r);
    r.kind = xq_tm_log_kind_parse(xq__store_col_text(q, 0));
    r.round = sqlite3_column_int(q, 1);
    r.a = sqlite3_column_int(q, 2), r.b = sqlite3_column_int(q, 3), r.c = sqlite3_column_int(q, 4);
    snprintf(r.text, sizeof r.text, "%s", xq__store_col_text(q, 6));
    if (list_read(xq__store_col_text(q, 5), &r)) rc = xq__error(err, XQ_ESTORE, "team log: a bad list");
    else rc = xq_tm_log_apply(out, people, &r, err);
  }
  if (!rc && step != SQLITE_DONE) rc = xq__store_dberr(st, err, "team log");
  sqlite3_finalize(q);
  xq__store_unlock(st);
  if (rc) {
    xq_tm_event_free(*out);
    *out = NULL;
  }
  /* boards played as games of the individual rounds: their results */
  if (!rc) xq_tm_sync_games(*out, people);
  return rc;
}

void xq__store_team_dump(xq_tstore *st, FILE *f)
{
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(xq__store_db(st), "SELECT id, at, kind, round, a, b, c, list, text FROM team_log ORDER BY id",
                         -1, &q, NULL) != SQLITE_OK)
    return;
  while (sqlite3_step(q) == SQLITE_ROW) {
    fprintf(f, "team %lld %s %-8s", (long long)sqlite3_column_int64(q, 0), xq__store_col_text(q, 1),
            xq__store_col_text(q, 2));
    static const char *const cols[] = {"round", "a", "b", "c"};
    for (int i = 0; i < 4; i++)
      if (sqlite3_column_int(q, 3 + i)) fprintf(f, " %s=%d", cols[i], sqlite3_column_int(q, 3 + i));
    if (*xq__store_col_text(q, 7)) fprintf(f, " list=%s", xq__store_col_text(q, 7));
    if (*xq__store_col_text(q, 8)) fprintf(f, " text=%s", xq__store_col_text(q, 8));
    fputc('\n', f);
  }
  sqlite3_finalize(q);
}
