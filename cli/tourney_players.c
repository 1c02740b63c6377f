/*
 * tourney_players.c -- the players' actions of `xqref tourney` besides
 * add and withdraw (docs/tourney.md): edit (a registered player's details
 * corrected), reinstate (a withdrawn player taken back), remove (a player
 * deleted before round 1), merge (two entries of one player made one),
 * numbers (the
 * pairing numbers by rating, by lot or by hand before round 1) and
 * import-players (a CSV list previewed and registered).
 */
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

/* The store and its event, or 1 with the error printed. */
static int open_event(const xq__topts *o, const char *act, xq_tstore **st, xq_tournament **ev)
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
static int the_player(const xq__topts *o, const char *act, const xq_tournament *ev)
{
  int id = o->id > 0 ? (int)o->id : xq_tournament_player_no(ev, (int)o->player);
  if (id >= 1 && id <= ev->n) return id;
  if (o->id > 0) fprintf(stderr, "xqref tourney %s: no player has the id %ld\n", act, o->id);
  else fprintf(stderr, "xqref tourney %s: no player has the number %ld (see `tourney players`)\n", act, o->player);
  return 0;
}

/* The edit's player and fields from the options. 0, or 2 after a message. */
static int edit_fields(const xq__topts *o, xq_tplayer *p, unsigned *fields)
{
  const char *str[] = {o->name, o->sex, o->birth, o->region, o->club, o->team}; /* in XQ_PE_* order */
  char *dst[] = {p->name, NULL, p->birth, p->region, p->club, p->team};
  size_t cap[] = {sizeof p->name, 0, sizeof p->birth, sizeof p->region, sizeof p->club, sizeof p->team};
  memset(p, 0, sizeof *p);
  *fields = 0;
  for (int k = 0; k < 6; k++) {
    if (!str[k]) continue;
    *fields |= 1u << k;
    if (k == 1) {
      int sex = xq_player_sex_parse(str[k]);
      if (sex < 0) {
        fprintf(stderr, "xqref tourney edit: --sex is m, w (男, 女) or \"\" (not known)\n");
        return 2;
      }
      p->sex = (char)sex;
    } else if (strlen(str[k]) >= cap[k]) {
      fprintf(stderr, "xqref tourney edit: %s is too long\n", k == 0 ? "the name" : "a field");
      return 2;
    } else {
      strcpy(dst[k], str[k]);
    }
  }
  if (o->rating >= 0) { p->rating = (int)o->rating; *fields |= XQ_PE_RATING; }
  if (o->local >= 0) { p->local = o->local; *fields |= XQ_PE_LOCAL; }
  if (*fields) return 0;
  fprintf(stderr, "xqref tourney edit: nothing to change (--name, --sex, --birth, --region, --club, --team,"
                  " --rating, --local or --not-local)\n");
  return 2;
}

static int cmd_edit(const xq__topts *o)
{
  xq_tplayer p;
  unsigned fields, changed = 0;
  if (o->player < 1 && o->id < 1) { fprintf(stderr, "xqref tourney edit: --player NO (or --id ID) is required\n"); return 2; }
  int rc = edit_fields(o, &p, &fields);
  if (rc) return rc;
  xq_tstore *st;
  xq_tournament *ev;
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
  xq_tournament_free(ev);
  xq_tstore_close(st);
  return rc ? 1 : 0;
}

static int cmd_reinstate(const xq__topts *o)
{
  if (o->player < 1 && o->id < 1) {
    fprintf(stderr, "xqref tourney reinstate: --player NO (or --id ID) is required\n");
    return 2;
  }
  xq_tstore *st;
  xq_tournament *ev;
  if (open_event(o, "reinstate", &st, &ev)) return 1;
  int id = the_player(o, "reinstate", ev), round = o->round > 0 ? (int)o->round : ev->nrounds + 1, rc = 1;
  xq_error err = {0};
  if (id && !(rc = xq_tstore_reinstate(st, round, id, &err)))
    printf("player %d paired again from round %d on\n", xq_tplayer_no(ev, id), round);
  else if (id)
    fprintf(stderr, "xqref tourney reinstate: %s\n", err.msg);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  return rc ? 1 : 0;
}

static int cmd_remove(const xq__topts *o)
{
  if (o->player < 1 && o->id < 1) {
    fprintf(stderr, "xqref tourney remove: --player NO (or --id ID) is required\n");
    return 2;
  }
  xq_tstore *st;
  xq_tournament *ev;
  if (open_event(o, "remove", &st, &ev)) return 1;
  int id = the_player(o, "remove", ev), rc = 1;
  xq_error err = {0};
  if (id && !(rc = xq_tstore_remove(st, id, NULL, &err))) {
    const xq_tplayer *p = &ev->players[id - 1];
    printf("deleted %s (%s %d)", p->name, p->pno ? "number" : "id", xq_tplayer_no(ev, id));
    if (id < ev->n || p->pno) printf("; the ids after his%s close up", p->pno ? " and the numbers above his" : "");
    printf(" (`tourney log` keeps the registration and the deletion)\n");
  } else if (id) {
    fprintf(stderr, "xqref tourney remove: %s\n", err.msg);
  }
  xq_tournament_free(ev);
  xq_tstore_close(st);
  return rc ? 1 : 0;
}

/* merge --keep NO --drop NO: the numbers as every listing prints them. */
static int cmd_merge(const xq__topts *o)
{
  xq_tstore *st;
  xq_tournament *ev;
  if (open_event(o, "merge", &st, &ev)) return 1;
  int keep = xq_tournament_player_no(ev, (int)o->keep), drop = xq_tournament_player_no(ev, (int)o->drop), rc = 1;
  unsigned filled = 0;
  xq_error err = {0};
  if (!keep || !drop) {
    fprintf(stderr, "xqref tourney merge: no player has the number %ld (see `tourney players`)\n",
            keep ? o->drop : o->keep);
  } else if ((rc = xq_tstore_merge(st, keep, drop, &filled, &err))) {
    fprintf(stderr, "xqref tourney merge: %s\n", err.msg);
  } else {
    static const char *const names[XQ_PE_COUNT] = XQ_PE_NAMES;
    const xq_tplayer *k = &ev->players[keep - 1], *d = &ev->players[drop - 1];
    printf("merged %s (number %ld) into %s (number %ld)", d->name, o->drop, k->name, o->keep);
    if (filled) {
      printf("; taken from it:");
      for (int f = 0; f < XQ_PE_COUNT; f++)
        if (filled & (1u << f)) printf(" %s", names[f]);
    }
    if (drop < ev->n || d->pno) printf("; the ids after it%s close up", d->pno ? " and the numbers above it" : "");
    printf(" (`tourney log` keeps both registrations and the merge)\n");
  }
  xq_tournament_free(ev);
  xq_tstore_close(st);
  return rc ? 1 : 0;
}

/* The numbers of --file: a line per player, "ID NO" (spaces, a tab or a
 * comma between), blank lines and lines from '#' skipped, into
 * manual[id - 1]. 0, or 1 after a message naming the line. */
static int read_manual(const char *path, const xq_tournament *ev, int *manual)
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
    } else if (no < 1 || no > ev->n) {
      fprintf(stderr, "xqref tourney numbers: %s:%d: number %ld is not 1..%d\n", path, ln, no, ev->n);
      rc = 1;
    } else if (manual[id - 1]) {
      fprintf(stderr, "xqref tourney numbers: %s:%d: player %ld has a number already\n", path, ln, id);
      rc = 1;
    } else {
      manual[id - 1] = (int)no;
    }
  }
  fclose(f);
  return rc;
}

static int cmd_numbers(const xq__topts *o)
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
  xq_tournament *ev;
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
  xq_tournament_free(ev);
  xq_tstore_close(st);
  return rc;
}

/* The whole file at `path` (at most XQ_CSV_BYTES_MAX + 1 bytes: one more
 * is the reader's to refuse) into *buf (malloc'd), *len. 0, or 1 after a
 * message. */
static int slurp(const char *path, char **buf, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "xqref tourney import-players: %s: %s\n", path, strerror(errno)); return 1; }
  *buf = malloc((size_t)XQ_CSV_BYTES_MAX + 2);
  *len = *buf ? fread(*buf, 1, (size_t)XQ_CSV_BYTES_MAX + 1, f) : 0;
  int bad = !*buf || ferror(f);
  fclose(f);
  if (bad) {
    fprintf(stderr, "xqref tourney import-players: %s: %s\n", path, *buf ? "cannot read it" : "out of memory");
    free(*buf);
    return 1;
  }
  return 0;
}

/* The preview: a line per record, its player as it will be stored or its
 * error. */
static void preview(const char *path, const xq_csv_players *c, int bad)
{
  printf("%s: %s%s, %d lines: %d players, %d with an error\n", path, xq_csv_encoding_name(c->encoding),
         c->doubt ? " (it reads as GBK too: check the names)" : "", c->nlines, c->nlines - bad, bad);
  for (int i = 0; i < c->nlines; i++) {
    const xq_csv_line *l = &c->lines[i];
    const xq_tplayer *p = &l->player;
    printf("line %d%s%s: ", l->line, l->file_no[0] ? " no " : "", l->file_no);
    if (!l->ok) { printf("error: %s\n", l->error); continue; }
    printf("%s, %s, %s, %s, %s, %s, %d\n", p->name, p->sex == 'm' ? "男" : p->sex == 'w' ? "女" : "-",
           p->birth[0] ? p->birth : "-", p->region[0] ? p->region : "-", p->club[0] ? p->club : "-",
           p->team[0] ? p->team : "-", p->rating);
    if (l->warning[0]) printf("  warning: %s\n", l->warning);
  }
}

/* The good lines of `c` registered in one transaction: all or none. */
static int register_all(xq_tstore *st, const xq_csv_players *c, int *first, int *last, xq_error *err)
{
  int rc = xq_tstore_batch_begin(st, err);
  for (int i = 0; !rc && i < c->nlines; i++) {
    int id;
    if (!c->lines[i].ok) continue;
    if (!(rc = xq_tstore_register(st, &c->lines[i].player, &id, err))) {
      if (!*first) *first = id;
      *last = id;
    } else {
      char m[XQ_ERR_MSG_LEN];
      snprintf(m, sizeof m, "line %d: %.120s", c->lines[i].line, err->msg);
      snprintf(err->msg, sizeof err->msg, "%s", m);
    }
  }
  if (!rc) return xq_tstore_batch_commit(st, err);
  xq_tstore_batch_rollback(st);
  return rc;
}

static int cmd_import_players(const xq__topts *o)
{
  if (!o->arg) { fprintf(stderr, "xqref tourney import-players: which CSV file?\n"); return 2; }
  char *buf;
  size_t len;
  if (slurp(o->arg, &buf, &len)) return 1;
  xq_tstore *st;
  xq_tournament *ev;
  if (open_event(o, "import-players", &st, &ev)) { free(buf); return 1; }
  xq_csv_players c;
  xq_error err = {0};
  int rc = xq_csv_players_read(buf, len, ev, &c, &err) ? 1 : 0, bad = 0, first = 0, last = 0;
  free(buf);
  if (rc) fprintf(stderr, "xqref tourney import-players: %s: %s\n", o->arg, err.msg);
  for (int i = 0; !rc && i < c.nlines; i++) bad += !c.lines[i].ok;
  if (!rc) preview(o->arg, &c, bad);
  if (!rc && o->dry_run) {
    printf("dry run: nothing registered\n");
  } else if (!rc && c.nlines > bad && register_all(st, &c, &first, &last, &err)) {
    fprintf(stderr, "xqref tourney import-players: nothing registered: %s\n", err.msg);
    rc = 1;
  } else if (!rc) {
    if (c.nlines > bad) printf("%d players registered: ids %d..%d\n", c.nlines - bad, first, last);
    else printf("nothing registered\n");
  }
  if (!rc && bad) {
    fprintf(stderr, "xqref tourney import-players: %d line%s with an error %s\n", bad, bad == 1 ? "" : "s",
            o->dry_run ? "would be skipped" : "skipped (correct them and import those lines again)");
    rc = 1;
  }
  xq_csv_players_free(&c);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  return rc;
}

int xq__tourney_players_main(const xq__topts *o, const char *action)
{
  if (!strcmp(action, "import-players")) return cmd_import_players(o);
  if (!strcmp(action, "edit")) return cmd_edit(o);
  if (!strcmp(action, "reinstate")) return cmd_reinstate(o);
  if (!strcmp(action, "remove")) return cmd_remove(o);
  if (!strcmp(action, "merge")) return cmd_merge(o);
  return cmd_numbers(o);
}
