/*
 * tourney_event.c -- the `xqref tourney` actions of the event itself
 * (docs/tourney.md): new, settings, add, import, players, pair, result, foul,
 * absent, withdraw, standings, export and log, on the store of --db.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pair/pair.h"
#include "prize.h"
#include "sheet/sheet.h"
#include "store/store.h"
#include "tourney.h"
#include "tourney_cli.h"

/* Open o->db as `create` (XQ_TSTORE_*) says. Returns 0, 1 or 2. */
static int open_store(const xq__topts *o, int create, xq_tstore **st)
{
  xq_error err = {0};
  if (xq_tstore_open(o->db, create, st, &err)) {
    fprintf(stderr, "xqref tourney: %s\n", err.msg);
    return 1;
  }
  return 0;
}

static int load(xq_tstore *st, xq_tournament **ev)
{
  xq_error err = {0};
  if (xq_tstore_load(st, ev, &err)) {
    fprintf(stderr, "xqref tourney: %s\n", err.msg);
    return 1;
  }
  return 0;
}

/* The event of o->db, read and the store closed again. Returns 0, 1 or 2. */
static int read_event(const xq__topts *o, xq_tournament **ev)
{
  xq_tstore *st;
  int rc = open_store(o, XQ_TSTORE_OPEN, &st);
  if (rc) return rc;
  rc = load(st, ev);
  xq_tstore_close(st);
  return rc;
}

/* The event's title: the preset's, and for --group the title, a space
 * and the name of a group that plays an event of its own (entry.c reads
 * it back). 0, or 2 with a message. */
static int group_title(const xq__topts *o, const xq_regulation *r, char *title, size_t cap)
{
  snprintf(title, cap, "%s", r ? r->title : "");
  if (!o->group) return 0;
  xq_tgroup g[XQ_REG_GROUPS_MAX];
  int ng = 0;
  if (!r || xq_regulation_groups(r, g, XQ_REG_GROUPS_MAX, &ng, NULL)) {
    fprintf(stderr, "xqref tourney new: --group needs --preset NAME\n");
    return 2;
  }
  for (int i = 1; i < ng; i++)
    if (g[i].apart && xq_group_named(&g[i], o->group)) {
      snprintf(title, cap, "%s %s", r->title, g[i].name);
      return 0;
    }
  fprintf(stderr, "xqref tourney new: %s has no group '%s' that plays an event of its own; those that do:", r->name,
          o->group);
  for (int i = 1; i < ng; i++)
    if (g[i].apart) fprintf(stderr, " \"%s\"", g[i].name);
  fprintf(stderr, "\n");
  return 2;
}

static int text_fields(const xq__topts *o, unsigned allowed, xq_tsettings *s, unsigned *fields, const char *cmd);

/* new --dates --venue --organiser --arbiter: the event's details, kept as
 * settings once the event is made (the sheets' header and signature
 * lines). 0, or 1 after a message. */
static int new_details(const xq__topts *o, xq_tstore *st)
{
  xq_tsettings s;
  unsigned fields, changed = 0;
  xq_error err = {0};
  if (text_fields(o, XQ_TS_DATES | XQ_TS_VENUE | XQ_TS_ORGANISER | XQ_TS_ARBITER, &s, &fields, "new")) return 2;
  if (fields && xq_tstore_settings(st, &s, fields, &changed, &err)) {
    fprintf(stderr, "xqref tourney new: %s\n", err.msg);
    return 1;
  }
  return 0;
}

static int cmd_new(const xq__topts *o)
{
  xq_tconfig cfg;
  xq_error err = {0};
  if (o->evformat >= 3 && (o->dates || o->venue || o->organiser || o->arbiter)) {
    fprintf(stderr, "xqref tourney new: --dates, --venue, --organiser and --arbiter are not kept for a team event yet\n");
    return 2;
  }
  if (o->evformat >= 3 && !o->preset && o->scoring < 0 && o->games < 0 && o->rr_groups < 0)
    return xq__tourney_team_new(o);
  if (o->evformat >= 3 || o->boards > 0 || o->match_points || o->board_order || o->min_players > 0) {
    fprintf(stderr, "xqref tourney new: --boards, --match-points, --board-order and --min-players are a team\n"
                    "event's (--format team-rr|team-rr2|team-swiss), which takes no --preset, --scoring,\n"
                    "--games or --groups\n");
    return 2;
  }
  xq_tconfig_default(&cfg);
  /* a preset's settings first (the same as a simulation's), then what
   * the command line says */
  const xq_regulation *r = NULL;
  if (o->preset && xq_regulation_find(o->preset, &r)) {
    fprintf(stderr, "xqref tourney new: no preset '%s' (xqref presets lists them)\n", o->preset);
    return 2;
  }
  if (r && xq_regulation_tconfig(r, &cfg, &err)) {
    fprintf(stderr, "xqref tourney new: preset %s: %s\n", r->name, err.msg);
    return 1;
  }
  char title[XQ_TOURNEY_NAME_MAX];
  if (group_title(o, r, title, sizeof title)) return 2;
  if (o->evformat > 0 && r) {
    fprintf(stderr, "xqref tourney new: the presets are Swiss events: --format rr|rr2 takes no --preset\n");
    return 2;
  }
  if (o->evformat > 0 && o->rounds > 0) {
    fprintf(stderr, "xqref tourney new: a round robin's rounds follow from its entrants: no --rounds\n");
    return 2;
  }
  if (o->evformat > 0) xq_tconfig_round_robin(&cfg, o->evformat);
  if (o->rr_groups > 1 && cfg.format != XQ_FORMAT_RR) {
    fprintf(stderr, "xqref tourney new: --groups is for a round robin (--format rr|rr2)\n");
    return 2;
  }
  if (o->rr_groups > 1) cfg.rr_groups = (int)o->rr_groups;
  if (o->games == 2 && xq_tconfig_two_games(&cfg)) {
    fprintf(stderr, "xqref tourney new: --games 2 is for a single round robin (--format rr)\n");
    return 2;
  }
  if (o->rounds > 0) cfg.rounds = (int)o->rounds;
  if (cfg.rounds < 1 && cfg.format != XQ_FORMAT_RR) { /* an event of no rounds would pair until no pairing is possible */
    fprintf(stderr, "xqref tourney new: --rounds N is required: the event's rounds (a --preset gives its own)\n");
    return 2;
  }
  if (o->scoring >= 0) xq_tconfig_scoring(&cfg, o->scoring);
  if (o->tiebreaks && xq_tconfig_tiebreaks(&cfg, o->tiebreaks, &err)) {
    fprintf(stderr, "xqref tourney: %s\n", err.msg);
    return 2;
  }
  if (o->first >= 0) cfg.first_round = o->first;
  if (o->byeos >= 0) cfg.bye_os = o->byeos;
  if (o->de >= 0) cfg.de_mode = o->de;
  if (o->seed >= 0) cfg.lot_seed = (uint64_t)o->seed;
  xq_tstore *st;
  int rc = open_store(o, o->init ? XQ_TSTORE_INIT : XQ_TSTORE_CREATE, &st);
  if (rc) return rc;
  /* the preset's title names the event: groups and prizes find the
   * regulation by it */
  rc = xq_tstore_create_event(st, o->name ? o->name : title, &cfg, &err);
  if (rc) fprintf(stderr, "xqref tourney: %s\n", err.msg);
  else rc = new_details(o, st);
  xq_tstore_close(st);
  if (rc) return rc < 0 ? 1 : rc;
  char tb[256];
  xq_tconfig_tb_format(&cfg, tb, sizeof tb);
  if (cfg.format == XQ_FORMAT_RR)
    printf("created %s: a %sround robin%s%s (rounds: N - 1%s for N entrants%s, N even), scoring %s, tie-breaks %s\n",
           o->db, cfg.cycles == 2 ? "double " : "", cfg.rr_games == 2 ? " of two-game pairings" : "",
           cfg.rr_groups > 1 ? " in groups" : "", cfg.cycles == 2 || cfg.rr_games == 2 ? " twice" : "",
           cfg.rr_groups > 1 ? " of the largest group" : "", cfg.win == 4 ? "2/1/0" : "1/0.5/0", tb);
  else
    printf("created %s: %d rounds, scoring %s, tie-breaks %s\n", o->db, cfg.rounds, cfg.win == 4 ? "2/1/0" : "1/0.5/0",
           tb);
  if (cfg.missed_rounds_withdraw > 0)
    printf("a player is not paired again after %d missed rounds%s\n", cfg.missed_rounds_withdraw,
           cfg.withdraw_consecutive ? " in a row" : "");
  return 0;
}

/* The settings of `ev`, a line each, and what may no longer change. */
static void settings_print(const xq_tournament *ev, FILE *f)
{
  static const char *const formats[] = {"swiss", "rr", "rr2"};
  xq_tsettings s;
  xq_tsettings_of(ev, &s);
  fprintf(f, "name: %s\ndates: %s\nvenue: %s\norganiser: %s\narbiter: %s\n", s.name, s.info.dates, s.info.venue,
          s.info.organiser, s.info.arbiter);
  fprintf(f, "format: %s\nrounds: %d\nsystem: %s\ntiebreaks: %s\nscoring: %s\npaired: %d\n", formats[s.format],
          s.rounds, s.system == XQ_PAIR_DUTCH ? "dutch" : "cn", s.tiebreaks, s.halves ? "1-0.5-0" : "2-1-0",
          ev->nrounds);
  if (s.delay < 0) fprintf(f, "delay: server\n");
  else fprintf(f, "delay: %d\n", s.delay);
  static const char *const names[XQ_TS_COUNT] = XQ_TS_NAMES;
  for (int k = 0; k < XQ_TS_COUNT; k++) {
    const char *why = xq_tsettings_locked(ev->name, &ev->cfg, ev->nrounds, 1u << k);
    if (why) fprintf(f, "locked: %s: %s\n", names[k], why);
  }
  if (ev->nrounds > 0 && ev->cfg.format != XQ_FORMAT_RR)
    fprintf(f, "locked: rounds: not fewer than the %d paired\n", ev->nrounds);
}

/* The text settings of the command line (name, dates, venue, organiser,
 * chief arbiter, tie-breaks) among `allowed` into *s (cleared first) and
 * their bits into *fields. 0, or 2 after a message naming `cmd`. */
static int text_fields(const xq__topts *o, unsigned allowed, xq_tsettings *s, unsigned *fields, const char *cmd)
{
  memset(s, 0, sizeof *s);
  *fields = 0;
  const struct { const char *v; unsigned bit; char *dst; size_t cap; } texts[] = {
    {o->name, XQ_TS_NAME, s->name, sizeof s->name}, {o->dates, XQ_TS_DATES, s->info.dates, sizeof s->info.dates},
    {o->venue, XQ_TS_VENUE, s->info.venue, sizeof s->info.venue},
    {o->organiser, XQ_TS_ORGANISER, s->info.organiser, sizeof s->info.organiser},
    {o->arbiter, XQ_TS_ARBITER, s->info.arbiter, sizeof s->info.arbiter},
    {o->tiebreaks, XQ_TS_TIEBREAKS, s->tiebreaks, sizeof s->tiebreaks},
  };
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    if (!texts[i].v || !(texts[i].bit & allowed)) continue;
    if (strlen(texts[i].v) >= texts[i].cap) {
      fprintf(stderr, "xqref tourney %s: a value longer than %zu bytes\n", cmd, texts[i].cap - 1);
      return 2;
    }
    strcpy(texts[i].dst, texts[i].v);
    *fields |= texts[i].bit;
  }
  return 0;
}

/* The settings of the command line into *s and the fields given. 0, or
 * 2 after a message. */
static int settings_fields(const xq__topts *o, xq_tsettings *s, unsigned *fields)
{
  if (text_fields(o, ~0u, s, fields, "settings")) return 2;
  if (o->rounds > 0) { s->rounds = (int)o->rounds; *fields |= XQ_TS_ROUNDS; }
  if (o->evformat >= 0) { s->format = o->evformat; *fields |= XQ_TS_FORMAT; }
  if (o->scoring >= 0) { s->halves = o->scoring; *fields |= XQ_TS_SCORING; }
  if (o->system) {
    s->system = xq_pair_system_parse(o->system);
    *fields |= XQ_TS_SYSTEM;
  }
  if (o->delay) {
    char *end = NULL;
    long d = strcmp(o->delay, "server") ? strtol(o->delay, &end, 10) : -1;
    if (end && (end == o->delay || *end || d < 0 || d > XQ_TOURNEY_DELAY_MAX)) {
      fprintf(stderr, "xqref tourney settings: --delay is 0..%d seconds or server\n", XQ_TOURNEY_DELAY_MAX);
      return 2;
    }
    s->delay = (int)d;
    *fields |= XQ_TS_DELAY;
  }
  xq_error err = {0};
  if (xq_tsettings_check(s, *fields, &err)) {
    fprintf(stderr, "xqref tourney settings: %s\n", err.msg);
    return 2;
  }
  return 0;
}

/* settings: print them, or change those given and print them. */
static int cmd_settings(const xq__topts *o)
{
  int team = xq__tourney_team_dispatch(o, "settings");
  if (team >= 0) return team;
  xq_tsettings s;
  unsigned fields, changed = 0;
  xq_error err = {0};
  int rc = settings_fields(o, &s, &fields);
  if (rc) return rc;
  xq_tstore *st;
  xq_tournament *ev = NULL;
  if ((rc = open_store(o, XQ_TSTORE_OPEN, &st))) return rc;
  if (fields && xq_tstore_settings(st, &s, fields, &changed, &err)) {
    fprintf(stderr, "xqref tourney settings: %s\n", err.msg);
    xq_tstore_close(st);
    return 1;
  }
  rc = load(st, &ev);
  xq_tstore_close(st);
  if (rc) return rc;
  if (fields) {
    static const char *const names[XQ_TS_COUNT] = XQ_TS_NAMES;
    printf("changed:");
    for (int k = 0; k < XQ_TS_COUNT; k++)
      if (changed & (1u << k)) printf(" %s", names[k]);
    printf("%s\n", changed ? "" : " nothing");
  }
  settings_print(ev, stdout);
  xq_tournament_free(ev);
  return 0;
}

/* The player of add's options into *p. 0, or 2 after a message. */
static int add_fields(const xq__topts *o, xq_tplayer *p)
{
  memset(p, 0, sizeof *p);
  if (strlen(o->name) >= sizeof p->name) { fprintf(stderr, "xqref tourney add: name too long\n"); return 2; }
  strcpy(p->name, o->name);
  p->rating = o->rating > 0 ? (int)o->rating : 0;
  if (o->birth && strlen(o->birth) > 10) { fprintf(stderr, "xqref tourney add: bad birth date\n"); return 2; }
  if (o->birth) snprintf(p->birth, sizeof p->birth, "%s", o->birth);
  int sex = o->sex ? xq_player_sex_parse(o->sex) : 0;
  if (sex < 0) { fprintf(stderr, "xqref tourney add: --sex is m or w (男 or 女)\n"); return 2; }
  p->sex = (char)sex;
  const char *f[3] = {o->region, o->club, o->team};
  char *dst[3] = {p->region, p->club, p->team};
  for (int i = 0; i < 3; i++)
    if (f[i]) {
      if (strlen(f[i]) >= XQ_TOURNEY_FIELD_MAX) { fprintf(stderr, "xqref tourney add: field too long\n"); return 2; }
      strcpy(dst[i], f[i]);
    }
  p->local = o->local > 0;
  return 0;
}

static int cmd_add(const xq__topts *o)
{
  xq_tplayer p;
  xq_error err = {0};
  int rc = add_fields(o, &p), id = 0;
  if (rc) return rc;
  if (xq_player_check(&p, &err)) { fprintf(stderr, "xqref tourney add: %s\n", err.msg); return 2; }
  xq_tstore *st;
  xq_tournament *ev = NULL;
  if ((rc = open_store(o, XQ_TSTORE_OPEN, &st))) return rc;
  if ((rc = load(st, &ev))) { xq_tstore_close(st); return rc; }
  /* the regulation's groups: one that plays its own event is refused
   * here, a missing birth date warned (entry.c) */
  char warn[512] = "", full[256] = "";
  int same = o->force ? 0 : xq_tournament_same_player(ev, &p);
  xq_regulation_entry_count(ev->name, ev->n, full, sizeof full);
  if (same)
    fprintf(stderr, "xqref tourney add: %s (born %s, club %s) is registered already as player %d;"
            " --force registers a namesake\n", p.name, p.birth[0] ? p.birth : "not given",
            p.club[0] ? p.club : "none", xq_tplayer_no(ev, same));
  else if ((rc = xq_regulation_entry(ev->name, &p, warn, sizeof warn, &err)) ||
           (rc = xq_tstore_register(st, &p, &id, &err)))
    fprintf(stderr, "xqref tourney add: %s\n", err.msg);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  if (same || rc) return 1;
  printf("player %d: %s\n", id, p.name);
  if (warn[0]) printf("warning: %s\n", warn);
  if (full[0]) printf("warning: %s\n", full);
  return 0;
}

static int cmd_import(const xq__topts *o)
{
  xq_tournament *ev;
  xq_error err = {0};
  if (!o->arg) { fprintf(stderr, "xqref tourney import: which TRF file?\n"); return 2; }
  if (xq_trf_read(o->arg, &ev, &err)) {
    fprintf(stderr, "xqref tourney import: %s: %s\n", o->arg, err.msg);
    return 1;
  }
  xq_tconfig cfg = ev->cfg;
  xq_tconfig def;
  xq_tconfig_default(&def);
  cfg.missed_rounds_withdraw = def.missed_rounds_withdraw; /* the store's rule from now on */
  if (o->rounds > 0) cfg.rounds = (int)o->rounds;
  if (o->tiebreaks && xq_tconfig_tiebreaks(&cfg, o->tiebreaks, &err)) {
    fprintf(stderr, "xqref tourney import: %s\n", err.msg);
    xq_tournament_free(ev);
    return 2;
  }
  xq_tstore *st;
  int rc = open_store(o, o->init ? XQ_TSTORE_INIT : XQ_TSTORE_CREATE, &st);
  if (rc) { xq_tournament_free(ev); return rc; }
  rc = xq_tstore_import(st, ev, &cfg, &err);
  long events = xq_tstore_event_count(st);
  xq_tstore_close(st);
  if (rc) {
    fprintf(stderr, "xqref tourney import: %s: %s\n", o->arg, err.msg);
    xq_tournament_free(ev);
    return 1;
  }
  printf("imported %s: %d players, %d rounds, %ld events\n", o->arg, ev->n, ev->nrounds, events);
  xq_tournament_free(ev);
  return 0;
}

static int cmd_players(const xq__topts *o)
{
  xq_tournament *ev;
  int rc = read_event(o, &ev);
  if (rc) return rc;
  xq_list_players(ev, stdout);
  xq_tournament_free(ev);
  return 0;
}

static int cmd_pair(const xq__topts *o)
{
  xq_tstore *st;
  xq_tournament *ev;
  xq_error err = {0};
  int team = xq__tourney_team_dispatch(o, "pair");
  if (team >= 0) return team;
  int system = o->system ? xq_pair_system_parse(o->system) : XQ_PAIR_CN;
  if (system < 0) {
    fprintf(stderr, "xqref tourney pair: unknown system '%s' (cn or dutch)\n", o->system);
    return 2;
  }
  int rc = open_store(o, XQ_TSTORE_OPEN, &st);
  if (rc) return rc;
  if ((rc = load(st, &ev))) { xq_tstore_close(st); return rc; }
  if (!o->system) system = ev->cfg.system == XQ_PAIR_DUTCH ? XQ_PAIR_DUTCH : XQ_PAIR_CN; /* the event's */
  xq_tpairing pr = {0};
  if (xq_tstore_pair_next(st, ev, system, &pr, &err)) {
    fprintf(stderr, "xqref tourney pair: %s\n", err.msg);
    rc = 1;
  } else {
    xq_list_boards(ev, &pr, stdout);
  }
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  return rc;
}

static int cmd_unpair(const xq__topts *o)
{
  xq_tstore *st;
  xq_error err = {0};
  int rc = open_store(o, XQ_TSTORE_OPEN, &st);
  if (rc) return rc;
  if (xq_tstore_unpublish(st, (int)o->round, &err)) {
    fprintf(stderr, "xqref tourney unpair: %s\n", err.msg);
    rc = 1;
  } else {
    printf("round %d withdrawn: it can be paired again\n", (int)o->round);
  }
  xq_tstore_close(st);
  return rc;
}

/* The id of the player known as `no` (xq_tplayer_no). 0, or 1 with a
 * message. */
static int player_by_no(xq_tstore *st, const char *action, int no, int *id)
{
  xq_tournament *ev;
  if (load(st, &ev)) return 1;
  *id = xq_tournament_player_no(ev, no);
  xq_tournament_free(ev);
  if (*id) return 0;
  fprintf(stderr, "xqref tourney %s: no player has the number %d (see `tourney players`)\n", action, no);
  return 1;
}

static int cmd_record(const xq__topts *o, const char *action)
{
  xq_tstore *st;
  xq_error err = {0};
  if (!strcmp(action, "result")) {
    if (!o->arg) {
      fprintf(stderr, "xqref tourney result: a result code is required\n");
      return 2;
    }
  } else if (o->player < 1 && o->id < 1) {
    fprintf(stderr, "xqref tourney %s: --player NO (or --id ID) is required\n", action);
    return 2;
  }
  int rc = open_store(o, XQ_TSTORE_OPEN, &st);
  if (rc) return rc;
  int r = (int)o->round, id = o->id > 0 ? (int)o->id : 0;
  if (strcmp(action, "result") && !id && (rc = player_by_no(st, action, (int)o->player, &id))) {
    xq_tstore_close(st);
    return rc;
  }
  xq_ko ko = {0};
  if (!strcmp(action, "result") && xq__tourney_ko_guard(o, st, r, &ko)) {
    xq_tstore_close(st);
    return 1;
  }
  if (!strcmp(action, "result")) rc = xq_tstore_result(st, r, (int)o->board, o->arg, &err);
  else if (!strcmp(action, "foul") && !o->fouls) rc = xq_tstore_foul_set(st, r, id, 0, &err);
  else if (!strcmp(action, "foul")) rc = xq_tstore_foul(st, r, id, (int)o->fouls, &err);
  else if (!strcmp(action, "absent")) rc = xq_tstore_absence(st, r, id, o->bye >= 0 ? o->bye : XQ_TR_ZPB, &err);
  else rc = xq_tstore_withdraw(st, r, id, &err);
  if (!rc && xq_ko_decided_by(&ko, r)) xq__tourney_ko_difference(st, &ko); /* a result --force changed */
  xq_tstore_close(st);
  if (rc) { fprintf(stderr, "xqref tourney %s: %s\n", action, err.msg); return 1; }
  return 0;
}

static int cmd_standings(const xq__topts *o)
{
  xq_tournament *ev;
  int team = xq__tourney_team_dispatch(o, "standings");
  if (team >= 0) return team;
  if (o->format || o->out || o->lang) {
    fprintf(stderr, "xqref tourney standings: --format, --lang and --out are a team event's; an individual event's\n"
                    "sheets: tourney export --what standings\n");
    return 2;
  }
  int rc = read_event(o, &ev);
  if (rc) return rc;
  rc = xq_list_standings(ev, o->after > 0 ? (int)o->after : 0, stdout);
  xq_tournament_free(ev);
  if (rc && rc != XQ_EIO) { /* no room for the standings */
    fprintf(stderr, "xqref tourney standings: out of memory\n");
    return 1;
  }
  return 0;
}

/* --what of export: 0 standings, 1 pairings, 2 score sheets, 3 the
 * cross table, 4 the score cards, 5 who plays where; -1 unknown. */
static int export_what(const char *what)
{
  static const char *const names[] = {"standings", "pairings", "scoresheets", "crosstable", "cards", "where"};
  if (!what) return 0;
  for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
    if (!strcmp(what, names[i])) return i;
  return -1;
}

static int cmd_export(const xq__topts *o)
{
  int team = xq__tourney_team_dispatch(o, "export");
  if (team >= 0) return team;
  xq_tstore *st;
  xq_tournament *ev;
  xq_tpairing pr = {0};
  xq_error err = {0};
  int fmt = o->format ? xq_sheet_format_parse(o->format) : XQ_SHEET_TRF;
  int lang = o->lang ? xq_sheet_lang_parse(o->lang) : XQ_LANG_EN;
  int what = export_what(o->what);
  if (fmt < 0) { fprintf(stderr, "xqref tourney export: --format is trf, csv, html, text or xlsx\n"); return 2; }
  if (lang < 0) { fprintf(stderr, "xqref tourney export: --lang is zh or en\n"); return 2; }
  if (what < 0) {
    fprintf(stderr, "xqref tourney export: --what is standings, pairings, scoresheets, crosstable, cards or where\n");
    return 2;
  }
  if (fmt == XQ_SHEET_TRF && (o->what || o->lang || o->round > 0)) {
    fprintf(stderr, "xqref tourney export: --what, --lang and --round need --format csv, html, text or xlsx\n");
    return 2;
  }
  int rc = 0;
  if (fmt == XQ_SHEET_XLSX && !o->out && isatty(fileno(stdout)))
    return xq__tourney_final_sheet_out("tourney export", NULL, fmt, &(xq__paths_out){0});
  if ((rc = open_store(o, XQ_TSTORE_OPEN, &st))) return rc;
  if ((rc = load(st, &ev))) { xq_tstore_close(st); return rc; }
  int round = o->round > 0 ? (int)o->round : o->after > 0 ? (int)o->after : ev->nrounds;
  if (o->player > 0 && what != 4) {
    fprintf(stderr, "xqref tourney export: --player is for --what cards\n");
    xq_tstore_close(st);
    xq_tournament_free(ev);
    return 2;
  }
  if (o->player > 0 && !xq_tournament_player_no(ev, (int)o->player)) {
    fprintf(stderr, "xqref tourney export: no player has the number %ld (tourney players lists them)\n", (long)o->player);
    xq_tstore_close(st);
    xq_tournament_free(ev);
    return 1;
  }
  if ((what == 1 || what == 2 || what == 5) && xq_tstore_pairing(st, round, &pr, &err)) {
    fprintf(stderr, "xqref tourney export: %s\n", err.msg);
    xq_tstore_close(st);
    xq_tournament_free(ev);
    return 1;
  }
  xq_tstore_close(st);
  xq__paths_out w;
  if ((rc = xq__tourney_final_sheet_out("tourney export", o->out, fmt, &w))) {
    xq_tpairing_clear(&pr);
    xq_tournament_free(ev);
    return rc;
  }
  FILE *f = w.f;
  rc = fmt == XQ_SHEET_TRF ? xq_trf_write(ev, f)
     : what == 1 ? xq_sheet_pairings(ev, &pr, fmt, lang, f)
     : what == 2 ? xq_sheet_scoresheets(ev, &pr, fmt, lang, f)
     : what == 3 ? xq_sheet_crosstable(ev, o->round > 0 || o->after > 0 ? round : 0, fmt, lang, f)
     : what == 4 ? xq_sheet_cards(ev, (int)o->player, o->round > 0 || o->after > 0 ? round : 0, fmt, lang, f)
     : what == 5 ? xq_sheet_where(ev, &pr, fmt, lang, f)
     : xq_sheet_standings(ev, o->round > 0 || o->after > 0 ? round : 0, fmt, lang, f); /* 0: after the
                                                                  last round whose games are all in */
  int closed = xq__paths_close(&w, !rc); /* a failed sheet leaves --out as it was */
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  if (closed) return 1;
  if (rc) {
    /* a write failure names the file (or the temporary file of a workbook) */
    fprintf(stderr, "xqref tourney export: %s%s%s%s\n", o->out ? o->out : "", o->out ? ": " : "",
            rc == XQ_EIO && fmt == XQ_SHEET_XLSX ? "cannot write the workbook: " : "", xq_strerror(rc));
    return 1;
  }
  return 0;
}

static int cmd_log(const xq__topts *o)
{
  xq_tstore *st;
  int rc = open_store(o, XQ_TSTORE_OPEN, &st);
  if (rc) return rc;
  rc = xq_tstore_dump(st, stdout);
  xq_tstore_close(st);
  return rc ? 1 : 0;
}

int xq__tourney_event_main(const xq__topts *o, const char *a)
{
  if (!strcmp(a, "new")) return cmd_new(o);
  if (!strcmp(a, "settings")) return cmd_settings(o);
  if (!strcmp(a, "add")) return cmd_add(o);
  if (!strcmp(a, "import")) return cmd_import(o);
  if (!strcmp(a, "players")) return cmd_players(o);
  if (!strcmp(a, "pair")) return cmd_pair(o);
  if (!strcmp(a, "unpair")) return cmd_unpair(o);
  if (!strcmp(a, "standings")) return cmd_standings(o);
  if (!strcmp(a, "export")) return cmd_export(o);
  if (!strcmp(a, "log")) return cmd_log(o);
  return cmd_record(o, a); /* result, foul, absent, withdraw */
}
