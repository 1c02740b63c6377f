/*
 * regulation_fixture.c -- small events and the regulations' tables for
 * the regulation-data and final-sheet suites (regulation_fixture.h).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regulation_fixture.h"

const xq_regulation *xq_test_reg(const char *name)
{
  const xq_regulation *r = NULL;
  cr_assert_eq(xq_regulation_find(name, &r), XQ_OK, "%s", name);
  return r;
}

void xq_test_prize_table(const char *name, int entrants, xq_prize_table *t)
{
  xq_error err = {0};
  cr_assert_eq(xq_regulation_prizes(xq_test_reg(name), entrants, t, &err), XQ_OK, "%s", err.msg);
}

int xq_test_groups(const char *name, xq_tgroup *g)
{
  int n = -1;
  xq_error err = {0};
  cr_assert_eq(xq_regulation_groups(xq_test_reg(name), g, XQ_REG_GROUPS_MAX, &n, &err), XQ_OK, "%s", err.msg);
  return n;
}

xq_tournament *xq_test_event(int n, int *places)
{
  xq_tournament *ev = xq_tournament_new(NULL, "regdata");
  cr_assert_not_null(ev);
  for (int i = 1; i <= n; i++) {
    xq_tplayer p;
    xq_error err = {0};
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "P%d", i);
    cr_assert_eq(xq_tournament_add(ev, &p, NULL, &err), XQ_OK, "%s", err.msg);
    if (places) places[i - 1] = i;
  }
  return ev;
}

xq_award *xq_test_award(const xq_tournament *ev, const int *places, const xq_prize_table *t, int *na)
{
  int cap = XQ_AWARDS_MAX(t, ev->n);
  xq_award *aw = malloc(sizeof *aw * (size_t)cap);
  cr_assert_not_null(aw);
  cr_assert_eq(xq_prizes_award(ev, places, t, aw, cap, na), XQ_OK);
  return aw;
}
