/*
 * tourney_players.c -- the players' actions of `xqref tourney` besides
 * add and withdraw (docs/tourney.md): edit (a registered player's details
 * corrected), reinstate (a withdrawn player taken back) and numbers (the
 * pairing numbers by rating, by lot or by hand before round 1).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pair/pair.h"
#include "sheet/sheet.h"
#include "store/store.h"
#include "tourney.h"
#include "tourney_cli.h"

typedef struct popts {
  const char *db, *by, *file;
  const char *str[XQ_PE_COUNT]; /* edit: the text fields given (name, sex, birth, region, club, team) */
  long player, id, round, rating, seed;
  int local;                    /* edit: 1 --local, 0 --not-local, -1 neither */
} popts;

static const char *const actions[] = {"edit", "reinstate", "numbers"};

int xq__tourney_players_action(const char *action)
{
  for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++)
    if (action && !strcmp(action, actions[i])) return 1;
  return 0;
}

/* The option that sets text field k of an edit, or -1. */
static int text_field(const char *opt)
{
  static const char *const opts[] = {"--name", "--sex", "--birth", "--region", "--club", "--team"};
  for (int k = 0; k < (int)(sizeof opts / sizeof opts[0]); k++)
    if (!strcmp(opt, opts[k])) return k;
  return -1;
}

/* Options after the action. Returns 0 or 2 (usage error, printed). */
static int parse(int argc, char **argv, popts *o)
{
  const char *act = argv[1];
  int edit = !strcmp(act, "edit"), numbers = !strcmp(act, "numbers");
  memset(o, 0, sizeof *o);
  o->player = o->id = o->round = o->rating = o->seed = -1;
  o->local = -1;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    const char **str = NULL;
    long *num = NULL, lo = 0, hi = 0;
    int k = text_field(a), ok = 1;
    if (edit && (!strcmp(a, "--local") || !strcmp(a, "--not-local"))) { o->local = a[2] == 'l'; continue; }
    if (!strcmp(a, "--db")) str = &o->db;
    else if (edit && k >= 0) str = &o->str[k];
    else if (numbers && !strcmp(a, "--by")) str = &o->by;
    else if (numbers && !strcmp(a, "--file")) str = &o->file;
    else if (!numbers && !strcmp(a, "--player")) num = &o->player, lo = 1, hi = XQ_TOURNEY_PLAYERS_MAX;
    else if (!numbers && !strcmp(a, "--id")) num = &o->id, lo = 1, hi = XQ_TOURNEY_PLAYERS_MAX;
    else if (!strcmp(act, "reinstate") && !strcmp(a, "--round")) num = &o->round, lo = 1, hi = XQ_TOURNEY_ROUNDS_MAX;
    else if (edit && !strcmp(a, "--rating")) num = &o->rating, lo = 0, hi = 9999;
    else if (numbers && !strcmp(a, "--seed")) num = &o->seed, lo = 0, hi = (long)XQ_NUM_SEED_MAX;
    else ok = 0;
    if (!ok) { fprintf(stderr, "xqref tourney %s: unknown option '%s'\n", act, a); return 2; }
    if (xq__cli_value("tourney", act, a, v, str, lo, hi, num)) return 2;
    i++;
  }
  if (!o->db) { fprintf(stderr, "xqref tourney %s: --db FILE is required\n", act); return 2; }
  return 0;
}

/* The store and its event, or 1 with the error printed. */
static int open_event(const popts *o, const char *act, xq_tstore **st, xq_tevent **ev)
{
  xq_error err = {0};
  if (xq_tstore_open(o->db, XQ_TSTORE_OPEN, st, &err)) {
    fprintf(stderr, "xqref tourney %s: %s\n", act, err.msg);
    return 1;
  }
  if (xq_tstore_load(*st, ev, &err)) {
    fprintf(stderr, "xqref tourney %s: %s\n", act, err.msg);
    xq_tstore_close(*st);
    return 1;
  }
  return 0;
}

/* The id of the player of --player NO or --id ID, or 0 after a message. */
static int the_player(const popts *o, const char *act, const xq_tevent *ev)
{
  int id = o->id > 0 ? (int)o->id : xq_tevent_player_no(ev, (int)o->player);
  if (id >= 1 && id <= ev->n) return id;
  if (o->id > 0) fprintf(stderr, "xqref tourney %s: no player has the id %ld\n", act, o->id);
  else fprintf(stderr, "xqref tourney %s: no player has the number %ld (see `tourney players`)\n", act, o->player);
  return 0;
}

/* The edit's player and fields from the options. 0, or 2 after a message. */
static int edit_fields(const popts *o, xq_tplayer *p, unsigned *fields)
{
  char *dst[] = {p->name, NULL, p->birth, p->region, p->club, p->team};
  size_t cap[] = {sizeof p->name, 0, sizeof p->birth, sizeof p->region, sizeof p->club, sizeof p->team};
  memset(p, 0, sizeof *p);
  *fields = 0;
  for (int k = 0; k < 6; k++) {
    if (!o->str[k]) continue;
    *fields |= 1u << k;
    if (k == 1) {
      if (o->str[k][0] && strcmp(o->str[k], "m") && strcmp(o->str[k], "w")) {
        fprintf(stderr, "xqref tourney edit: --sex is m, w or \"\" (not known)\n");
        return 2;
      }
      p->sex = o->str[k][0];
    } else if (strlen(o->str[k]) >= cap[k]) {
      fprintf(stderr, "xqref tourney edit: %s is too long\n", k == 0 ? "the name" : "a field");
      return 2;
    } else {
      strcpy(dst[k], o->str[k]);
    }
  }
  if (o->rating >= 0) { p->rating = (int)o->rating; *fields |= XQ_PE_RATING; }
  if (o->local >= 0) { p->local = o->local; *fields |= XQ_PE_LOCAL; }
  if (*fields) return 0;
  fprintf(stderr, "xqref tourney edit: nothing to change (--name, --sex, --birth, --region, --club, --team,"
                  " --rating, --local or --not-local)\n");
  return 2;
}

static int cmd_edit(const popts *o)
{
  xq_tplayer p;
  unsigned fields, changed = 0;
  if (o->player < 1 && o->id < 1) { fprintf(stderr, "xqref tourney edit: --player NO (or --id ID) is required\n"); return 2; }
  int rc = edit_fields(o, &p, &fields);
  if (rc) return rc;
  xq_tstore *st;
  xq_tevent *ev;
  if (open_event(o, "edit", &st, &ev)) return 1;
  int id = the_player(o, "edit", ev);
  xq_error err = {0};
  rc = 1;
  if (id && xq_tstore_edit(st, id, &p, fields, &changed, &err)) fprintf(stderr, "xqref tourney edit: %s\n", err.msg);
  else if (id) rc = 0;
  if (!rc) {
    static const char *const names[XQ_PE_COUNT] = XQ_PE_NAMES;
    printf("player %d (id %d):", xq_tplayer_no(ev, id), id);
    for (int k = 0; k < XQ_PE_COUNT; k++)
      if (changed & (1u << k)) printf(" %s", names[k]);
    printf(" changed (`tourney log` shows old and new)\n");
  }
  xq_tevent_free(ev);
  xq_tstore_close(st);
  return rc ? 1 : 0;
}

static int cmd_reinstate(const popts *o)
{
  if (o->player < 1 && o->id < 1) {
    fprintf(stderr, "xqref tourney reinstate: --player NO (or --id ID) is required\n");
    return 2;
  }
  xq_tstore *st;
  xq_tevent *ev;
  if (open_event(o, "reinstate", &st, &ev)) return 1;
  int id = the_player(o, "reinstate", ev), round = o->round > 0 ? (int)o->round : ev->nrounds + 1, rc = 1;
  xq_error err = {0};
  if (id && !(rc = xq_tstore_reinstate(st, round, id, &err)))
    printf("player %d paired again from round %d on\n", xq_tplayer_no(ev, id), round);
  else if (id)
    fprintf(stderr, "xqref tourney reinstate: %s\n", err.msg);
  xq_tevent_free(ev);
  xq_tstore_close(st);
  return rc ? 1 : 0;
}

/* The numbers of --file: a line per player, "ID NO" (spaces, a tab or a
 * comma between), blank lines and lines from '#' skipped, into
 * manual[id - 1]. 0, or 1 after a message naming the line. */
static int read_manual(const char *path, const xq_tevent *ev, int *manual)
{
  FILE *f = fopen(path, "r");
  if (!f) { fprintf(stderr, "xqref tourney numbers: %s: %s\n", path, strerror(errno)); return 1; }
  char line[256];
  int ln = 0, rc = 0;
  while (!rc && fgets(line, sizeof line, f)) {
    ln++;
    char *s = line + strspn(line, " \t\r\n");
    if (!*s || *s == '#') continue;
    long id, no;
    char *end;
    id = strtol(s, &end, 10);
    s = end + strspn(end, " \t,");
    no = strtol(s, &end, 10);
    if (end == s || end[strspn(end, " \t\r\n")] || id < 1 || id > ev->n) {
      fprintf(stderr, "xqref tourney numbers: %s:%d: want \"ID NO\" with a player's id 1..%d\n", path, ln, ev->n);
      rc = 1;
    } else if (manual[id - 1]) {
      fprintf(stderr, "xqref tourney numbers: %s:%d: player %ld has a number already\n", path, ln, id);
      rc = 1;
    } else {
      manual[id - 1] = no < 1 || no > XQ_TOURNEY_PLAYERS_MAX ? -1 : (int)no;
    }
  }
  fclose(f);
  return rc;
}

static int cmd_numbers(const popts *o)
{
  xq_tnumbering how = {.method = o->by ? xq_num_method_parse(o->by) : -1};
  if (how.method < 0) { fprintf(stderr, "xqref tourney numbers: --by rating, lot or manual is required\n"); return 2; }
  if ((how.method == XQ_NUM_MANUAL) != (o->file != NULL) || (o->seed >= 0 && how.method != XQ_NUM_LOT)) {
    fprintf(stderr, "xqref tourney numbers: --file goes with --by manual, --seed with --by lot\n");
    return 2;
  }
  if (how.method == XQ_NUM_LOT && o->seed >= 0) how.seed = (uint64_t)o->seed;
  else if (how.method == XQ_NUM_LOT && xq_lot_seed_random(&how.seed)) {
    fprintf(stderr, "xqref tourney numbers: the system's random source failed\n");
    return 1;
  }
  xq_tstore *st;
  xq_tevent *ev;
  if (open_event(o, "numbers", &st, &ev)) return 1;
  int *manual = calloc((size_t)ev->n + 1, sizeof *manual), rc = manual ? 0 : 1;
  if (!rc && o->file) rc = read_manual(o->file, ev, manual);
  how.manual = manual;
  xq_error err = {0};
  if (!rc && (rc = xq_tstore_numbers(st, ev, &how, &err) ? 1 : 0))
    fprintf(stderr, "xqref tourney numbers: %s\n", err.msg);
  if (!rc) {
    printf("%d players numbered by %s", ev->n, xq_num_method_name(how.method));
    if (how.method == XQ_NUM_LOT) printf(", seed %" PRIu64, how.seed);
    printf("\n");
    xq_list_players(ev, stdout);
  }
  free(manual);
  xq_tevent_free(ev);
  xq_tstore_close(st);
  return rc;
}

int xq__tourney_players_main(int argc, char **argv)
{
  popts o;
  if (parse(argc, argv, &o)) return 2;
  if (!strcmp(argv[1], "edit")) return cmd_edit(&o);
  if (!strcmp(argv[1], "reinstate")) return cmd_reinstate(&o);
  return cmd_numbers(&o);
}
