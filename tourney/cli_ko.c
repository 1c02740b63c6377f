/*
 * cli_ko.c -- the `xqref tourney` actions of the final stage: knockout,
 * bracket, ko-result, and the option parsing they share with places,
 * teams, prizes and groups (cli_final.c) (docs/tourney.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sheet/sheet_internal.h"
#include "knockout.h"
#include "prize.h"

typedef xq__kopts kopts;

static int parse(int argc, char **argv, kopts *o)
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
    else if (!strcmp(a, "--after")) n = &o->after, lo = 1, hi = XQ_TOURNEY_ROUNDS_MAX;
    else if (!strcmp(a, "--size")) n = &o->size, lo = 2, hi = XQ_KO_SIZE_MAX;
    else if (!strcmp(a, "--choice")) n = &o->choice, lo = 3, hi = 4;
    else if (!strcmp(a, "--match")) n = &o->match, lo = 1, hi = XQ_KO_MATCHES_MAX;
    else if (!strcmp(a, "--red")) n = &o->red, lo = 1, hi = XQ_TOURNEY_PLAYERS_MAX;
    else if (!strcmp(a, "--count")) n = &o->count, lo = 1, hi = XQ_TEAM_COUNTED_MAX;
    else { fprintf(stderr, "xqref tourney: unknown option '%s'\n", a); return 2; }
    if (!v) { fprintf(stderr, "xqref tourney: %s needs a value\n", a); return 2; }
    if (str) *str = v;
    else if (!xq__cli_number(v, lo, hi, n)) {
      fprintf(stderr, "xqref tourney: %s wants a number %ld..%ld, not '%s'\n", a, lo, hi, v);
      return 2;
    }
    i++;
  }
  if (!o->db) { fprintf(stderr, "xqref tourney: --db FILE is required\n"); return 2; }
  return 0;
}

int xq__ko_open(const kopts *o, xq_tstore **st, xq_tevent **ev, xq_ko *ko)
{
  xq_error err = {0};
  *ev = NULL;
  if (xq_tstore_open(o->db, 0, st, &err)) {
    fprintf(stderr, "xqref tourney: %s: %s\n", o->db, err.msg);
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

static const char *pname(const xq_tevent *ev, int id)
{
  return id >= 1 && id <= ev->n ? ev->players[id - 1].name : "?";
}

static const char *stage_name(const xq_ko *ko, int m)
{
  int s = xq_ko_stage(ko, m), left = 0;
  for (int k = ko->size; k > 1; k /= 2) left++;
  left -= s; /* stages after this one */
  if (ko->seeding == XQ_KO_TOP_CHOOSES && m == ko->size) return "third place";
  return xq__ko_stage_word(left, XQ_LANG_EN);
}

static void print_bracket(const xq_tevent *ev, const xq_ko *ko)
{
  if (ko->after == XQ_KO_NO_SWISS)
    printf("knockout-only event: %d entrants drawn into a bracket of %d%s, games %s\n", xq_ko_entrants(ko),
           ko->size, ko->pools > 1 ? " (a half per pool; the halves' winners meet in the final)" : "",
           xq_ko_format_name(ko->format));
  else
    printf("knockout after round %d: top %d, seeding %s, tie-breaks %s\n", ko->after, ko->size,
           xq_ko_seeding_name(ko->seeding), xq_ko_format_name(ko->format));
  for (int m = 1; m <= xq_ko_nmatches(ko); m++) {
    int a, b, kind = xq_ko_match_players(ko, m, &a, &b), known = kind == 1;
    printf("match %d (%s): ", m, stage_name(ko, m));
    if (kind == 2) {
      /* a drawn bracket's bye: the player goes on without a game */
      if (a) printf("%s (%d) has a bye\n", pname(ev, a), a);
      else printf("two byes\n");
      continue;
    }
    if (!known) { printf("waiting for earlier matches\n"); continue; }
    /* #n: the seed, or in a drawn bracket the position */
    printf("#%d %s (%d) - #%d %s (%d)\n", xq__ko_seed(ko, a), pname(ev, a), a, xq__ko_seed(ko, b), pname(ev, b), b);
    int k = 0;
    for (int i = 0; i < ko->ngames; i++) {
      const xq_ko_game *g = &ko->games[i];
      if (g->match != m) continue;
      printf("  game %d %-10s %-9s red %d black %d  %s%s\n", ++k, xq_ko_gtype_name(g->type),
             xq_ko_game_time_control(ko, m, g->type), g->red, g->black,
             g->res > 0 ? "1-0" : g->res < 0 ? "0-1" : "=",
             !g->res && g->type == XQ_KG_ARMAGEDDON ? " (draw: Black wins)" : "");
    }
    int w = xq_ko_winner(ko, m), t = xq_ko_in_play(ko, m);
    xq_ko_game next;
    if (w) printf("  winner: %s (%d)\n", pname(ev, w), w);
    else if (t) /* published to the live server: its result comes from there */
      printf("  playing: game %d %s %s, red %d black %d at knockout table %d (round %d)\n", k + 1,
             xq_ko_gtype_name(ko->tables[t - 1].type), xq_ko_game_time_control(ko, m, ko->tables[t - 1].type),
             ko->tables[t - 1].red, ko->tables[t - 1].black, t, XQ_KO_ROUND);
    else if (!xq_ko_next_game(ko, m, 0, &next))
      printf("  next: game %d %s %s, red %d black %d\n", k + 1, xq_ko_gtype_name(next.type),
             xq_ko_game_time_control(ko, m, next.type), next.red, next.black);
  }
}

/* The pool field of a player: "region", "club" or "team"; NULL for
 * another name. */
static const char *pool_field(const xq_tplayer *p, const char *field)
{
  return !strcmp(field, "region") ? p->region : !strcmp(field, "club") ? p->club
       : !strcmp(field, "team") ? p->team : NULL;
}

/* Every registered player an entrant; with `field`, the players of each
 * value of that field a pool (in order of first registration), at most
 * XQ_KO_POOLS_MAX of them. Returns NULL or what is wrong. */
static const char *lot_pools(const xq_tevent *ev, const char *field, int *ids, int *pool, int *np)
{
  const char *names[XQ_KO_POOLS_MAX];
  *np = 1;
  if (field && !pool_field(&ev->players[0], field)) return "--pools takes region, club or team";
  for (int i = 0; i < ev->n; i++) {
    ids[i] = i + 1;
    pool[i] = 0;
    if (!field) continue;
    const char *v = pool_field(&ev->players[i], field);
    if (!v[0]) return "a player has no value in the --pools field";
    int k = 0;
    if (i == 0) names[0] = v;
    while (k < *np && strcmp(names[k], v)) k++;
    if (k == *np) {
      if (*np == XQ_KO_POOLS_MAX) return "more than two values in the --pools field: a bracket has two halves";
      names[(*np)++] = v;
    }
    pool[i] = k;
  }
  return NULL;
}

/* knockout --seeding lot: a knockout-only event (docs/village-king.md),
 * every registered player drawn into the bracket by lot; --pools FIELD
 * puts each value of the field in a half; --lot N the drawing seed
 * (default the event's). */
static int cmd_knockout_lot(const kopts *o)
{
  xq_tstore *st;
  xq_tevent *ev;
  xq_ko ko;
  xq_error err = {0};
  int format = XQ_KO_FMT_VILLAGE;
  unsigned long long seed = 0;
  char *end = NULL;
  if (o->after >= 0) {
    fprintf(stderr, "xqref tourney knockout: a bracket drawn by lot has no Swiss round (no --after)\n");
    return 2;
  }
  if (o->format && xq_ko_parse_format(o->format, &format)) {
    fprintf(stderr, "xqref tourney knockout: bad --format\n");
    return 2;
  }
  if (o->lot) {
    errno = 0;
    seed = strtoull(o->lot, &end, 10);
    if (!o->lot[0] || o->lot[0] == '-' || *end || errno) {
      fprintf(stderr, "xqref tourney knockout: --lot wants a whole number, not '%s'\n", o->lot);
      return 2;
    }
  }
  if (xq__ko_open(o, &st, &ev, &ko)) return 1;
  int ids[XQ_KO_SIZE_MAX], pool[XQ_KO_SIZE_MAX], np = 1, rc = 1;
  const char *bad = ev->n < 2 ? "a bracket needs 2 or more registered players"
                  : ev->n > XQ_KO_SIZE_MAX ? "more players than a bracket holds (128)"
                  : ev->nrounds > 0 ? "a knockout-only event cannot follow Swiss rounds"
                  : lot_pools(ev, o->pools, ids, pool, &np);
  if (!bad) {
    int r = xq_ko_setup_lot(&ko, ids, pool, ev->n, np, o->lot ? seed : ev->cfg.lot_seed, format);
    if (r == XQ_ELIMIT) bad = "more entrants than a bracket holds (64 a pool with two pools)";
    else if (r) bad = "the entrants do not make a bracket";
  }
  if (bad) fprintf(stderr, "xqref tourney knockout: %s\n", bad);
  else if (xq_tstore_ko_start(st, &ko, &err)) fprintf(stderr, "xqref tourney knockout: %s\n", err.msg);
  else {
    print_bracket(ev, &ko);
    rc = 0;
  }
  xq_tevent_free(ev);
  xq_tstore_close(st);
  return rc;
}

static int cmd_knockout(const kopts *o)
{
  xq_tstore *st;
  xq_tevent *ev;
  xq_ko ko;
  xq_error err = {0};
  int seeding = XQ_KO_FIXED, format = XQ_KO_FMT_RAPID_ARMAGEDDON;
  if (o->seeding && xq_ko_parse_seeding(o->seeding, &seeding)) {
    fprintf(stderr, "xqref tourney knockout: bad --seeding or --format\n");
    return 2;
  }
  if (seeding == XQ_KO_LOT) return cmd_knockout_lot(o);
  if (o->pools || o->lot) {
    fprintf(stderr, "xqref tourney knockout: --pools and --lot go with --seeding lot\n");
    return 2;
  }
  if (o->after < 1) { fprintf(stderr, "xqref tourney knockout: --after K is required\n"); return 2; }
  if (o->format && xq_ko_parse_format(o->format, &format)) {
    fprintf(stderr, "xqref tourney knockout: bad --seeding or --format\n");
    return 2;
  }
  if (seeding == XQ_KO_TOP_CHOOSES && o->choice < 0) {
    fprintf(stderr, "xqref tourney knockout: --seeding choose needs --choice 3|4 (the top seed's pick)\n");
    return 2;
  }
  if (xq__ko_open(o, &st, &ev, &ko)) return 1;
  int rc = 1;
  xq_tstanding *s = malloc(sizeof *s * (size_t)(ev->n ? ev->n : 1));
  if (!s) { fprintf(stderr, "xqref tourney knockout: out of memory\n"); goto out; }
  if (o->after > ev->nrounds || !xq_tevent_round_complete(ev, (int)o->after)) {
    fprintf(stderr, "xqref tourney knockout: round %ld is not complete\n", o->after);
    goto out;
  }
  /* §6.1: rank the Swiss after the cut with the full tie-break list */
  if (xq_standings(ev, (int)o->after, s) ||
      xq_ko_setup(&ko, s, ev->n, (int)o->after, (int)o->size, seeding, format, (int)o->choice)) {
    fprintf(stderr, "xqref tourney knockout: size must be 2, 4, 8 or 16 and at most the players"
                    " (choose: size 4)\n");
    goto out;
  }
  if (xq_tstore_ko_start(st, &ko, &err)) { fprintf(stderr, "xqref tourney knockout: %s\n", err.msg); goto out; }
  print_bracket(ev, &ko);
  rc = 0;
out:
  free(s);
  xq_tevent_free(ev);
  xq_tstore_close(st);
  return rc;
}

static int cmd_bracket(const kopts *o)
{
  xq_tstore *st;
  xq_tevent *ev;
  xq_ko ko;
  if (xq__ko_open(o, &st, &ev, &ko)) return 1;
  int rc = 0;
  if (!ko.after) { fprintf(stderr, "xqref tourney bracket: no knockout stage started\n"); rc = 1; }
  else print_bracket(ev, &ko);
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
  printf("match %ld %s: red %d black %d %s\n", o->match, xq_ko_gtype_name(g.type), g.red, g.black, o->code);
  int w = xq_ko_winner(&ko, (int)o->match);
  if (w) printf("winner: %s (%d)\n", pname(ev, w), w);
  else if (!xq_ko_next_game(&ko, (int)o->match, 0, &g))
    printf("next: %s %s, red %d black %d\n", xq_ko_gtype_name(g.type),
           xq_ko_game_time_control(&ko, (int)o->match, g.type), g.red, g.black);
  rc = 0;
out:
  xq_tevent_free(ev);
  xq_tstore_close(st);
  return rc;
}

int xq__tourney_final_action(const char *action)
{
  static const char *const names[] = {"knockout", "bracket", "ko-result", "places", "teams", "prizes",
                                      "groups"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(action, names[i])) return 1;
  return 0;
}

int xq__tourney_final_main(int argc, char **argv)
{
  kopts o;
  if (parse(argc, argv, &o)) return 2;
  const char *a = argv[1];
  if (o.code && strcmp(a, "ko-result")) {
    fprintf(stderr, "xqref tourney: unexpected argument '%s'\n", o.code);
    return 2;
  }
  if (!strcmp(a, "knockout")) return cmd_knockout(&o);
  if (!strcmp(a, "bracket")) return cmd_bracket(&o);
  if (!strcmp(a, "ko-result")) return cmd_ko_result(&o);
  return xq__tourney_results(&o, a);
}

int xq_ko_event_print(const xq_regulation *r, FILE *f)
{
  const xq_ko_event *e;
  int format = 0;
  if (xq_regulation_ko_event(r, NULL, &e) != XQ_OK) return XQ_OK;
  xq_ko_parse_format(e->format, &format);
  fprintf(f, "\nknockout-only sub-event %s (`xqref simulate --preset %s --group %s`):\n\n", e->name, r->name,
          e->key);
  fprintf(f, "entry       free, by record; %d entrants when simulated\n            %s\n", e->entrants_default,
          e->entry_clause);
  fprintf(f, "bracket     positions by lot, byes to a power of two; %d pools (", e->pools);
  for (int p = 0; p < e->pools; p++) fprintf(f, "%s%s", p ? ", " : "", e->pool_names[p]);
  fprintf(f, "), a half each: each pool's knockout, then its winners' final\n");
  /* the final's own clock: match 1 of a bracket of two is a final */
  xq_ko *two = calloc(1, sizeof *two);
  if (!two) return XQ_ENOMEM;
  two->size = 2;
  two->format = format;
  fprintf(f, "games       format %s: standard %s; final %s, colours by lot; draw -> swapped %s; draw -> "
          "armageddon %s, colours by lot, a draw is a Black win\n            %s\n", e->format,
          xq_ko_time_control(format, XQ_KG_STANDARD), xq_ko_game_time_control(two, 1, XQ_KG_STANDARD),
          xq_ko_time_control(format, XQ_KG_RAPID), xq_ko_time_control(format, XQ_KG_ARMAGEDDON), e->format_clause);
  free(two);
  fprintf(f, "places      a pool's: by the stage lost in, then the place of the player who won (no 3rd-place match)\n");
  fprintf(f, "prizes      each pool:");
  for (int i = 0; i < e->nplaces; i++) fprintf(f, "%s %d %d", i ? "," : "", i + 1, e->amount[i]);
  fprintf(f, "\n            %s\n", e->prize_clause);
  if (e->final_bonus) fprintf(f, "king        +%d to the final's winner\n            %s\n", e->final_bonus, e->bonus_clause);
  return ferror(f) ? XQ_EIO : XQ_OK;
}
