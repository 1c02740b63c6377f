/*
 * store_fixture.c -- the event store of the tourney and net suites
 * (store_fixture.h).
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "store_fixture.h"
#include "support.h"

void xq_test_db_fresh(char *buf, size_t len, const char *tag)
{
  xq_test_db_path(buf, len, tag);
  xq_test_db_remove(buf);
}

xq_tstore *xq_test_store_new(const char *path, const char *name, int rounds)
{
  xq_tstore *st;
  xq_error err = {0};
  xq_tconfig cfg;
  xq_tconfig_default(&cfg);
  cfg.rounds = rounds;
  cr_assert_eq(xq_tstore_open(path, XQ_TSTORE_CREATE, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_create_event(st, name, &cfg, &err), XQ_OK, "%s", err.msg);
  return st;
}

void xq_test_store_add(xq_tstore *st, const char *name, int rating)
{
  xq_tplayer p;
  xq_error err = {0};
  memset(&p, 0, sizeof p);
  snprintf(p.name, sizeof p.name, "%s", name);
  p.rating = rating;
  cr_assert_eq(xq_tstore_register(st, &p, NULL, &err), XQ_OK, "%s", err.msg);
}

xq_tstore *xq_test_store_open(const char *path)
{
  xq_tstore *st;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(path, XQ_TSTORE_OPEN, &st, &err), XQ_OK, "%s", err.msg);
  return st;
}

xq_tournament *xq_test_store_load(xq_tstore *st)
{
  xq_tournament *ev = NULL;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK, "%s", err.msg);
  return ev;
}

xq_tournament *xq_test_store_event(const char *path, int round, xq_tpairing *pr)
{
  xq_error err = {0};
  xq_tstore *st = xq_test_store_open(path);
  xq_tournament *ev = xq_test_store_load(st);
  if (pr) cr_assert_eq(xq_tstore_pairing(st, round, pr, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  return ev;
}

void xq_test_store_pair_cn(xq_tstore *st, int round, xq_tpairing *pr)
{
  xq_error err = {0};
  xq_tournament *ev = xq_test_store_load(st);
  xq_assign_pnos(ev);
  cr_assert_eq(xq_pair_cn(ev, round, pr, NULL), XQ_OK);
  cr_assert_eq(xq_tstore_publish(st, ev, pr, &err), XQ_OK, "%s", err.msg);
  xq_tournament_free(ev);
}

void xq_test_copy_file(const char *from, const char *to)
{
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  cr_assert(in && out);
  char buf[8192];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) cr_assert_eq(fwrite(buf, 1, n, out), n);
  fclose(in);
  cr_assert_eq(fclose(out), 0);
}

int64_t xq_test_sql_int(const char *path, const char *sql)
{
  sqlite3 *db;
  sqlite3_stmt *q;
  int64_t v = -1;
  cr_assert_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
  if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK) {
    if (sqlite3_step(q) == SQLITE_ROW) v = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
  }
  sqlite3_close(db);
  return v;
}
