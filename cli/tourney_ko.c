/*
 * tourney_ko.c -- the `xqref tourney` actions of the knockout stage:
 * knockout, bracket, ko-result, and the store and stage they open, which
 * places, teams, prizes and groups (tourney_final.c) open too
 * (docs/tourney.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knockout.h"
#include "prize.h"
#include "store/store.h"
#include "tourney.h"
#include "tourney_cli.h"

int xq__tourney_ko_open(const xq__topts *o, xq_tstore **st, xq_tournament **ev, xq_ko *ko)
{
  xq_error err = {0};
  *ev = NULL;
  if (xq_tstore_open(o->db, XQ_TSTORE_OPEN, st, &err)) {
    fprintf(stderr, "xqref tourney: %s\n", err.msg);
    return 1;
  }
  if (xq_tstore_load(*st, ev, &err) || xq_tstore_ko_load(*st, ko, &err)) {
    fprintf(stderr, "xqref tourney: %s\n", err.msg);
    xq_tournament_free(*ev);
    *ev = NULL;
    xq_tstore_close(*st);
    return 1;
  }
  return 0;
}

/* Set the stage up as `ko` says, store it and print its bracket.
 * Returns 0 or 1. */
static int start(const xq__topts *o, const xq_ko_opts *ko)
{
  xq_tstore *st;
  xq_tournament *ev;
  xq_ko k;
  xq_error err = {0};
  int rc = 1;
  if (xq__tourney_ko_open(o, &st, &ev, &k)) return 1;
  if (xq_ko_setup_event(ev, ko, &k, &err) || xq_tstore_ko_start(st, &k, &err)) {
    fprintf(stderr, "xqref tourney knockout: %s\n", err.msg);
  } else {
    xq_list_bracket(ev, &k, stdout);
    rc = 0;
  }
  xq_tournament_free(ev);
  xq_tstore_close(st);
  return rc;
}

/* knockout --seeding lot: a knockout-only event (docs/village-king.md),
 * every registered player drawn into the bracket by lot; --pools FIELD
 * puts each value of the field in a half; --lot N the drawing seed
 * (default the event's). */
static int cmd_knockout_lot(const xq__topts *o)
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

/* The regulation whose knockout the event plays: the one whose title the
 * event bears (`tourney new --preset NAME`), if it has a knockout after
 * its Swiss rounds (Xinjiang 九(二), Wujiaqu 九(一), Tangshan 八.3); else
 * NULL. */
static const xq_regulation *event_ko_regulation(const xq__topts *o)
{
  xq_tstore *st;
  xq_tournament *ev = NULL;
  xq_error err = {0};
  const xq_regulation *r = NULL;
  if (xq_tstore_open(o->db, XQ_TSTORE_OPEN, &st, &err)) return NULL;
  if (!xq_tstore_load(st, &ev, &err)) r = xq_regulation_titled(ev->name);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  return r && r->ko_size > 0 && r->ko_after_round > 0 ? r : NULL;
}

static int cmd_knockout(const xq__topts *o)
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
  /* what the options leave out, the event's regulation states: its round,
   * bracket size, seeding and tie-break games */
  const xq_regulation *r = event_ko_regulation(o);
  if (r && !o->seeding && r->ko_top_chooses) ko.seeding = XQ_KO_TOP_CHOOSES;
  long after = o->after >= 1 ? o->after : r ? r->ko_after_round : -1;
  const char *format = o->format ? o->format : r ? r->ko_format : NULL;
  if (after < 1) { fprintf(stderr, "xqref tourney knockout: --after K is required\n"); return 2; }
  if (format && xq_ko_parse_format(format, &ko.format)) {
    fprintf(stderr, "xqref tourney knockout: bad --seeding or --format\n");
    return 2;
  }
  if (ko.seeding == XQ_KO_TOP_CHOOSES && o->choice < 0) {
    fprintf(stderr, "xqref tourney knockout: --seeding choose needs --choice 3|4 (the top seed's pick)\n");
    return 2;
  }
  ko.after = (int)after;
  ko.size = o->size > 0 ? (int)o->size : r ? r->ko_size : 8;
  ko.choice = (int)o->choice;
  if (r) printf("the knockout of %s (%s), unless an option says otherwise\n", r->name, r->rows[XQ_REG_KNOCKOUT].clause);
  return start(o, &ko);
}

static int cmd_bracket(const xq__topts *o)
{
  xq_tstore *st;
  xq_tournament *ev;
  xq_ko ko;
  if (xq__tourney_ko_open(o, &st, &ev, &ko)) return 1;
  int rc = 0;
  if (!ko.after) { fprintf(stderr, "xqref tourney bracket: no knockout stage started\n"); rc = 1; }
  else xq_list_bracket(ev, &ko, stdout);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  return rc;
}

/* Why match m takes no game with `red` (a player id, 0: by default) as
 * Red: a sentence after "match M ", into buf. */
static const char *ko_refusal(const xq_tournament *ev, const xq_ko *ko, int m, int red, char *buf, size_t len)
{
  int a = 0, b = 0, k = xq_ko_match_players(ko, m, &a, &b);
  if (m > xq_ko_nmatches(ko) || k < 0)
    snprintf(buf, len, "is not in the bracket (matches 1..%d)", xq_ko_nmatches(ko));
  else if (k == 0)
    snprintf(buf, len, "is not ready: an earlier match still has no winner");
  else if (k == 2)
    snprintf(buf, len, "is a bye: no game is played");
  else if (xq_ko_winner(ko, m))
    snprintf(buf, len, "is decided: no more games");
  else if (red && red != a && red != b)
    snprintf(buf, len, "is %d v %d: --red %d is not one of them", xq_tplayer_no(ev, a), xq_tplayer_no(ev, b),
             xq_tplayer_no(ev, red));
  else
    snprintf(buf, len, "goes on with the colours swapped: its next Red is not --red %d (leave --red out)",
             xq_tplayer_no(ev, red));
  return buf;
}

static int cmd_ko_result(const xq__topts *o)
{
  xq_tstore *st;
  xq_tournament *ev;
  xq_ko ko;
  xq_ko_game g;
  xq_error err = {0};
  int res;
  if (o->match < 1 || !o->arg) {
    fprintf(stderr, "xqref tourney ko-result: --match M and a result (1-0 0-1 = +- -+) are required\n");
    return 2;
  }
  if (!strcmp(o->arg, "1-0") || !strcmp(o->arg, "+-")) res = 1;
  else if (!strcmp(o->arg, "0-1") || !strcmp(o->arg, "-+")) res = -1;
  else if (!strcmp(o->arg, "=") || !strcmp(o->arg, "1/2") || !strcmp(o->arg, "0.5-0.5")) res = 0;
  else { fprintf(stderr, "xqref tourney ko-result: bad result '%s'\n", o->arg); return 2; }
  if (xq__tourney_ko_open(o, &st, &ev, &ko)) return 1;
  int rc = 1;
  if (!ko.after) { fprintf(stderr, "xqref tourney ko-result: no knockout stage started\n"); goto out; }
  /* --red names the player by his number (序号), as the bracket does */
  int red = o->red > 0 ? xq_tournament_player_no(ev, (int)o->red) : 0;
  if (o->red > 0 && !red) { fprintf(stderr, "xqref tourney ko-result: no player numbered %ld\n", o->red); goto out; }
  int r = xq_ko_next_game(&ko, (int)o->match, red, &g);
  if (r) {
    char why[160];
    fprintf(stderr, "xqref tourney ko-result: match %ld %s\n", o->match,
            r == XQ_ELIMIT ? "has reached its game limit" : ko_refusal(ev, &ko, (int)o->match, red, why, sizeof why));
    goto out;
  }
  if (xq_ko_red_drawn(&ko, &g) && !red) {
    /* the lot (or the better place's choice) at the table gave Red: a
     * default would be a guess (and an armageddon's draw is Black's win) */
    if (g.type == XQ_KG_ARMAGEDDON)
      fprintf(stderr, "xqref tourney ko-result: match %ld's next game is the armageddon, whose colours are drawn "
              "(or chosen) at the table and whose draw is Black's win: give --red NO, the player who had Red\n",
              o->match);
    else
      fprintf(stderr, "xqref tourney ko-result: match %ld's game's colours are drawn by lot at the table, as the "
              "regulation says: give --red NO, the player who had Red\n", o->match);
    goto out;
  }
  g.res = res;
  if (xq_tstore_ko_game(st, &g, &err)) { fprintf(stderr, "xqref tourney ko-result: %s\n", err.msg); goto out; }
  xq_ko_add_game(&ko, &g);
  xq_list_ko_game(ev, &ko, &g, o->arg, stdout);
  rc = 0;
out:
  xq_tournament_free(ev);
  xq_tstore_close(st);
  return rc;
}

int xq__tourney_ko_guard(const xq__topts *o, xq_tstore *st, int round, xq_ko *ko)
{
  xq_error err = {0};
  if (xq_tstore_ko_load(st, ko, &err)) {
    fprintf(stderr, "xqref tourney result: %s\n", err.msg);
    return 1;
  }
  if (!xq_ko_decided_by(ko, round) || o->force) return 0;
  fprintf(stderr, "xqref tourney result: round %d decided the knockout (seeded after round %d): a changed result\n"
          "would leave the bracket apart from the standings; --force changes it and prints the difference\n",
          round, ko->after);
  return 1;
}

void xq__tourney_ko_difference(xq_tstore *st, const xq_ko *ko)
{
  xq_tournament *ev = NULL;
  xq_ko *now = malloc(sizeof *now);
  xq_error err = {0};
  if (!now || xq_tstore_load(st, &ev, &err) || xq_ko_reseed(ev, ko, now, &err)) {
    printf("the knockout was seeded after round %d; its seeding cannot be compared now: %s\n", ko->after,
           now ? err.msg : "out of memory");
    xq_tournament_free(ev);
    free(now);
    return;
  }
  int differ = 0;
  for (int i = 0; i < ko->size; i++) {
    if (ko->seeds[i] == now->seeds[i]) continue;
    if (!differ++)
      printf("the knockout was seeded after round %d; seeded now from the standings it would differ:\n", ko->after);
    int a = ko->seeds[i], b = now->seeds[i];
    printf("  seed %d: %s (%d) in the bracket, %s (%d) now\n", i + 1, ev->players[a - 1].name, xq_tplayer_no(ev, a),
           ev->players[b - 1].name, xq_tplayer_no(ev, b));
  }
  if (!differ)
    printf("the knockout was seeded after round %d; its seeding still matches the standings\n", ko->after);
  else
    printf("the bracket stays as seeded (the knockout log is append-only); correct the result again to restore it\n");
  xq_tournament_free(ev);
  free(now);
}

int xq__tourney_ko_main(const xq__topts *o, const char *action)
{
  if (!strcmp(action, "knockout")) return cmd_knockout(o);
  if (!strcmp(action, "bracket")) return cmd_bracket(o);
  return cmd_ko_result(o);
}
