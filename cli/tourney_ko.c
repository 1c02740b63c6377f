/*
 * tourney_ko.c -- the `xqref tourney` actions of the knockout stage:
 * knockout, bracket, ko-result, the store they open and the option
 * parsing they share with places, teams, prizes and groups
 * (tourney_final.c) (docs/tourney.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "knockout.h"
#include "prize.h"
#include "tourney_cli.h"

typedef xq__kopts kopts;

int xq__tourney_ko_parse(int argc, char **argv, kopts *o)
{
  memset(o, 0, sizeof *o);
  o->after = o->choice = o->match = o->red = -1;
  o->size = 8;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    const char **str = NULL;
    long *n = NULL, lo = 0, hi = 0;
    if (!strcmp(a, "--swiss")) { o->swiss = 1; continue; }
    if (a[0] != '-' || !strcmp(a, "-+")) {
      if (o->code) { fprintf(stderr, "xqref tourney: unexpected argument '%s'\n", a); return 2; }
      o->code = a;
      continue;
    }
    if (!strcmp(a, "--db")) str = &o->db;
    else if (!strcmp(a, "--seeding")) str = &o->seeding;
    else if (!strcmp(a, "--format")) str = &o->format;
    else if (!strcmp(a, "--mode")) str = &o->mode;
    else if (!strcmp(a, "--table")) str = &o->table;
    else if (!strcmp(a, "--preset")) str = &o->preset;
    else if (!strcmp(a, "--lang")) str = &o->lang;
    else if (!strcmp(a, "--group")) str = &o->group;
    else if (!strcmp(a, "--pools")) str = &o->pools;
    else if (!strcmp(a, "--lot")) str = &o->lot;
    else if (!strcmp(a, "--out")) str = &o->out;
    else if (!strcmp(a, "--option")) {
      if (o->noptions == XQ_REG_OPTIONS_MAX) { fprintf(stderr, "xqref tourney: too many --option\n"); return 2; }
      str = &o->options[o->noptions++];
    }
    else if (!strcmp(a, "--after")) n = &o->after, lo = 1, hi = XQ_TOURNEY_ROUNDS_MAX;
    else if (!strcmp(a, "--size")) n = &o->size, lo = 2, hi = XQ_KO_SIZE_MAX;
    else if (!strcmp(a, "--choice")) n = &o->choice, lo = 3, hi = 4;
    else if (!strcmp(a, "--match")) n = &o->match, lo = 1, hi = XQ_KO_MATCHES_MAX;
    else if (!strcmp(a, "--red")) n = &o->red, lo = 1, hi = XQ_TOURNEY_PLAYERS_MAX;
    else if (!strcmp(a, "--count")) n = &o->count, lo = 1, hi = XQ_TEAM_COUNTED_MAX;
    else { fprintf(stderr, "xqref tourney: unknown option '%s'\n", a); return 2; }
    if (xq__cli_value("tourney", NULL, a, v, str, lo, hi, n)) return 2;
    i++;
  }
  if (!o->db) { fprintf(stderr, "xqref tourney: --db FILE is required\n"); return 2; }
  return 0;
}

int xq__ko_open(const kopts *o, xq_tstore **st, xq_tevent **ev, xq_ko *ko)
{
  xq_error err = {0};
  *ev = NULL;
  if (xq_tstore_open(o->db, XQ_TSTORE_OPEN, st, &err)) {
    fprintf(stderr, "xqref tourney: %s\n", err.msg);
    return 1;
  }
  if (xq_tstore_load(*st, ev, &err) || xq_tstore_ko_load(*st, ko, &err)) {
    fprintf(stderr, "xqref tourney: %s\n", err.msg);
    xq_tevent_free(*ev);
    *ev = NULL;
    xq_tstore_close(*st);
    return 1;
  }
  return 0;
}

/* Set the stage up as `ko` says, store it and print its bracket.
 * Returns 0 or 1. */
static int start(const kopts *o, const xq_ko_opts *ko)
{
  xq_tstore *st;
  xq_tevent *ev;
  xq_ko k;
  xq_error err = {0};
  int rc = 1;
  if (xq__ko_open(o, &st, &ev, &k)) return 1;
  if (xq_ko_setup_event(ev, ko, &k, &err) || xq_tstore_ko_start(st, &k, &err)) {
    fprintf(stderr, "xqref tourney knockout: %s\n", err.msg);
  } else {
    xq_list_bracket(ev, &k, stdout);
    rc = 0;
  }
  xq_tevent_free(ev);
  xq_tstore_close(st);
  return rc;
}

/* knockout --seeding lot: a knockout-only event (docs/village-king.md),
 * every registered player drawn into the bracket by lot; --pools FIELD
 * puts each value of the field in a half; --lot N the drawing seed
 * (default the event's). */
static int cmd_knockout_lot(const kopts *o)
{
  xq_ko_opts ko = {.seeding = XQ_KO_LOT, .format = XQ_KO_FMT_VILLAGE, .pools = o->pools};
  char *end = NULL;
  if (o->after >= 0) {
    fprintf(stderr, "xqref tourney knockout: a bracket drawn by lot has no Swiss round (no --after)\n");
    return 2;
  }
  if (o->format && xq_ko_parse_format(o->format, &ko.format)) {
    fprintf(stderr, "xqref tourney knockout: bad --format\n");
    return 2;
  }
  if (o->lot) {
    errno = 0;
    ko.lot = strtoull(o->lot, &end, 10);
    if (!o->lot[0] || o->lot[0] == '-' || *end || errno) {
      fprintf(stderr, "xqref tourney knockout: --lot wants a whole number, not '%s'\n", o->lot);
      return 2;
    }
    ko.lot_given = 1;
  }
  return start(o, &ko);
}

static int cmd_knockout(const kopts *o)
{
  xq_ko_opts ko = {.seeding = XQ_KO_FIXED, .format = XQ_KO_FMT_RAPID_ARMAGEDDON};
  if (o->seeding && xq_ko_parse_seeding(o->seeding, &ko.seeding)) {
    fprintf(stderr, "xqref tourney knockout: bad --seeding or --format\n");
    return 2;
  }
  if (ko.seeding == XQ_KO_LOT) return cmd_knockout_lot(o);
  if (o->pools || o->lot) {
    fprintf(stderr, "xqref tourney knockout: --pools and --lot go with --seeding lot\n");
    return 2;
  }
  if (o->after < 1) { fprintf(stderr, "xqref tourney knockout: --after K is required\n"); return 2; }
  if (o->format && xq_ko_parse_format(o->format, &ko.format)) {
    fprintf(stderr, "xqref tourney knockout: bad --seeding or --format\n");
    return 2;
  }
  if (ko.seeding == XQ_KO_TOP_CHOOSES && o->choice < 0) {
    fprintf(stderr, "xqref tourney knockout: --seeding choose needs --choice 3|4 (the top seed's pick)\n");
    return 2;
  }
  ko.after = (int)o->after;
  ko.size = (int)o->size;
  ko.choice = (int)o->choice;
  return start(o, &ko);
}

static int cmd_bracket(const kopts *o)
{
  xq_tstore *st;
  xq_tevent *ev;
  xq_ko ko;
  if (xq__ko_open(o, &st, &ev, &ko)) return 1;
  int rc = 0;
  if (!ko.after) { fprintf(stderr, "xqref tourney bracket: no knockout stage started\n"); rc = 1; }
  else xq_list_bracket(ev, &ko, stdout);
  xq_tevent_free(ev);
  xq_tstore_close(st);
  return rc;
}

static int cmd_ko_result(const kopts *o)
{
  xq_tstore *st;
  xq_tevent *ev;
  xq_ko ko;
  xq_ko_game g;
  xq_error err = {0};
  int res;
  if (o->match < 1 || !o->code) {
    fprintf(stderr, "xqref tourney ko-result: --match M and a result (1-0 0-1 = +- -+) are required\n");
    return 2;
  }
  if (!strcmp(o->code, "1-0") || !strcmp(o->code, "+-")) res = 1;
  else if (!strcmp(o->code, "0-1") || !strcmp(o->code, "-+")) res = -1;
  else if (!strcmp(o->code, "=") || !strcmp(o->code, "1/2") || !strcmp(o->code, "0.5-0.5")) res = 0;
  else { fprintf(stderr, "xqref tourney ko-result: bad result '%s'\n", o->code); return 2; }
  if (xq__ko_open(o, &st, &ev, &ko)) return 1;
  int rc = 1;
  if (!ko.after) { fprintf(stderr, "xqref tourney ko-result: no knockout stage started\n"); goto out; }
  int r = xq_ko_next_game(&ko, (int)o->match, o->red > 0 ? (int)o->red : 0, &g);
  if (r) {
    fprintf(stderr, "xqref tourney ko-result: match %ld %s\n", o->match,
            r == XQ_ELIMIT ? "has reached its game limit"
                           : "is decided, not ready, or --red is not a player of it / breaks the colour swap");
    goto out;
  }
  g.res = res;
  if (xq_tstore_ko_game(st, &g, &err)) { fprintf(stderr, "xqref tourney ko-result: %s\n", err.msg); goto out; }
  xq_ko_add_game(&ko, &g);
  xq_list_ko_game(ev, &ko, &g, o->code, stdout);
  rc = 0;
out:
  xq_tevent_free(ev);
  xq_tstore_close(st);
  return rc;
}

int xq__tourney_ko_action(const char *action)
{
  static const char *const names[] = {"knockout", "bracket", "ko-result"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(action, names[i])) return 1;
  return 0;
}

int xq__tourney_ko_main(int argc, char **argv)
{
  kopts o;
  if (xq__tourney_ko_parse(argc, argv, &o)) return 2;
  const char *a = argv[1];
  if (o.code && strcmp(a, "ko-result")) {
    fprintf(stderr, "xqref tourney: unexpected argument '%s'\n", o.code);
    return 2;
  }
  if (!strcmp(a, "knockout")) return cmd_knockout(&o);
  if (!strcmp(a, "bracket")) return cmd_bracket(&o);
  return cmd_ko_result(&o);
}
