/*
 * store_fixture.h -- the event store as the tourney and net suites set it
 * up and read it back (tests/store_fixture.c): a new store with its event,
 * players registered, the event loaded, a fixture store copied, and one
 * number read from the file with SQL. Every step is asserted: a failure
 * fails the current test with the store's message.
 */
#ifndef XQ_TEST_STORE_FIXTURE_H
#define XQ_TEST_STORE_FIXTURE_H

#include <stdint.h>

#include "pair/pair.h"
#include "store/store.h"
#include "tourney.h"

/* A fresh store path for this test process (xq_test_db_path), with any
 * store left there by an earlier run removed. */
void xq_test_db_fresh(char *buf, size_t len, const char *tag);

/* Open (or create) the store at `path` and record the event `name` of
 * `rounds` rounds, the default configuration otherwise. The caller
 * closes the store. */
xq_tstore *xq_test_store_new(const char *path, const char *name, int rounds);

/* Register a player called `name` rated `rating`, nothing else given. */
void xq_test_store_add(xq_tstore *st, const char *name, int rating);

/* Open the existing store at `path` (XQ_TSTORE_OPEN); the caller closes it. */
xq_tstore *xq_test_store_open(const char *path);

/* The event of `st` as xq_tstore_load builds it (caller frees). */
xq_tournament *xq_test_store_load(xq_tstore *st);

/* The event of the store at `path`, and when `pr` is not NULL the stored
 * pairing of round `round` into *pr; the store is closed again. */
xq_tournament *xq_test_store_event(const char *path, int round, xq_tpairing *pr);

/* Pair round `round` of the store's event with xq_pair_cn (the players
 * numbered by xq_assign_pnos first) and publish it; *pr gets the
 * published pairing (the caller clears it). */
void xq_test_store_pair_cn(xq_tstore *st, int round, xq_tpairing *pr);

/* Copy the file `from` to `to` (a fixture store to a test's path). */
void xq_test_copy_file(const char *from, const char *to);

/* The first column of the first row `sql` gives on the store at `path`,
 * opened read-only with SQLite itself; -1 when the query fails or gives
 * no row. */
int64_t xq_test_sql_int(const char *path, const char *sql);

#endif /* XQ_TEST_STORE_FIXTURE_H */
