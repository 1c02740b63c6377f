/*
 * test_tourney_results.c -- who plays whom and who is seeded, on events
 * made as an organiser makes them, with `xqref tourney`: FIDE Dutch pairs
 * by the pairing numbers (序号), not the order of registration.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_fixture.h"
#include "support.h"

/* One board of a `tourney pair` listing: board, the Red and Black
 * players' numbers (0: a bye). */
typedef struct board { int b, red, black; } board;

/* The boards of a `tourney pair` listing into bd[]; returns their count. */
static int boards_of(const char *listing, board *bd, int cap)
{
  int n = 0;
  for (const char *l = listing; l && *l && n < cap;) {
    board x = {0};
    if (sscanf(l, "%d %d %*s %*d - %d", &x.b, &x.red, &x.black) == 3) bd[n++] = x;
    const char *nl = strchr(l, '\n');
    l = nl ? nl + 1 : NULL;
  }
  return n;
}

/* A new event in `db` made by `new_args`, with n players P1..Pn whose
 * ratings rise with registration (so rating order is the reverse). */
static void event_of(const char *db, const char *new_args, int n)
{
  free(xq_test_run_db(0, "tourney new --db %s %s", db, new_args));
  for (int i = 1; i <= n; i++) {
    char extra[64];
    snprintf(extra, sizeof extra, "--name P%d --rating %d", i, 1500 + 50 * i);
    free(xq_test_run_db(0, "tourney add --db %s %s", db, extra));
  }
}

/* FIDE C.04.3 B.2 round 1: S1 = the top half by pairing number against
 * S2 = the bottom half, 1–5, 6–2, 3–7, 8–4 for 8 players; the numbers by
 * rating are the reverse of registration here, so a pairing by
 * registration order is not this one. */
Test(dutch, round1_by_the_pairing_numbers_not_registration)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "res_dutch");
  event_of(db, "--rounds 5", 8);
  xq_test_run_db_says(0, "   8   1  P8", "tourney numbers --db %s %s", db, "--by rating");
  char *out = xq_test_run_db(0, "tourney pair --db %s %s", db, "--system dutch");
  board bd[8];
  cr_assert_eq(boards_of(out, bd, 8), 4, "%s", out);
  static const int want[4][2] = {{1, 5}, {6, 2}, {3, 7}, {8, 4}};
  for (int i = 0; i < 4; i++)
    cr_assert(bd[i].red == want[i][0] && bd[i].black == want[i][1], "board %d is %d-%d, not %d-%d:\n%s", i + 1,
              bd[i].red, bd[i].black, want[i][0], want[i][1], out);
  free(out);
  xq_test_db_remove(db);
}
