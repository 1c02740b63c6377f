/*
 * regulation_fixture.h -- small events and the regulations' tables as the
 * regulation-data and final-sheet suites set them up
 * (tests/regulation_fixture.c). Every step is asserted: a failure fails
 * the current test with the library's message.
 */
#ifndef XQ_TEST_REGULATION_FIXTURE_H
#define XQ_TEST_REGULATION_FIXTURE_H

#include "prize.h"
#include "tourney.h"

/* The regulation preset `name`. */
const xq_regulation *xq_test_reg(const char *name);

/* The prize table of preset `name` for `entrants` players into *t. */
void xq_test_prize_table(const char *name, int entrants, xq_prize_table *t);

/* The groups of preset `name` into g[0..XQ_REG_GROUPS_MAX); returns their
 * number. */
int xq_test_groups(const char *name, xq_tgroup *g);

/* An event "regdata" of n players P1..Pn (nothing else set); places[i] =
 * i + 1, the id order, when places is not NULL. The caller frees it. */
xq_tournament *xq_test_event(int n, int *places);

/* Award `t` over `ev` with `places`; returns the awards (caller frees)
 * and their number in *na. */
xq_award *xq_test_award(const xq_tournament *ev, const int *places, const xq_prize_table *t, int *na);

#endif /* XQ_TEST_REGULATION_FIXTURE_H */
