/*
 * tourney.c -- `xqref tourney ...`, the event store from the command line:
 * the usage text, the options of the event's own actions (new, add,
 * import, players, pair, result, foul, absent, withdraw, standings,
 * export, log) and the dispatch to the players' (tourney_players.c),
 * knockout (tourney_ko.c), results (tourney_final.c) and live-server
 * (tourney_live.c) actions.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tourney.h"
#include "tourney_cli.h"

static const char tourney_usage[] =
  "usage: xqref tourney ACTION --db FILE [OPTIONS]\n"
  "\n"
  "actions:\n"
  "  new        create the event: [--name TEXT] [--rounds N] [--scoring 210|1-0.5-0]\n"
  "             [--tiebreaks LIST|PRESET] [--first-round rating|lot] [--seed N]\n"
  "             [--bye-os zero|lowest] [--de fide|two] [--init]\n"
  "  add        register a player: --name NAME [--rating N] [--birth YYYY/MM/DD]\n"
  "             [--sex m|w] [--region X] [--club X] [--team X] [--local]\n"
  "  import     FILE.trf: a whole event from TRF into a new store\n"
  "             [--rounds N] [--tiebreaks LIST|PRESET] [--init]\n"
  "  players    list the players\n"
  "  pair       [--system cn|dutch]: pair and publish the next round, print its\n"
  "             boards (cn: Chinese adjacent pairing, the default; dutch: FIDE)\n"
  "  result     --round R --board B CODE   (CODE: 1-0 0-1 = +- -+ --)\n"
  "  foul       --round R --player NO [--count N]\n"
  "  absent     --round R --player NO [--bye zero|half|full]\n"
  "             (announced absence before pairing: a 0, ½ or full point bye)\n"
  "  withdraw   --round R --player NO      (not paired from round R on)\n"
  "             NO: the player's number (序号) as every listing and sheet prints\n"
  "             it; --id ID names the registration id instead\n"
  "  reinstate  --player NO [--round R]  (a withdrawn player paired again from R,\n"
  "             default the next round to pair)\n"
  "  edit       --player NO [--name X] [--sex m|w] [--birth YYYY/MM/DD] [--region X]\n"
  "             [--club X] [--team X] [--rating N] [--local|--not-local]: correct a\n"
  "             player's details (not the id or number; the team not after round 1)\n"
  "  numbers    --by rating|lot|manual [--seed S] [--file F]: the pairing numbers\n"
  "             before round 1 (lot: seeded by S, else a random seed, printed; manual:\n"
  "             F has a line \"ID NO\" per player); again until round 1, the last counts\n"
  "  standings  [--after R]\n"
  "  export     [--out FILE] [--format trf|csv|html|text|xlsx]\n"
  "             [--what standings|pairings|scoresheets] [--round R] [--lang zh|en]\n"
  "             (FIDE TRF-16; CSV; printable HTML; text; an XLSX workbook, which\n"
  "             needs --out FILE or a redirected stdout; scoresheets: 记分表)\n"
  "  log        print the event log\n"
  "  knockout   --after K [--size 2|4|8|16] [--seeding fixed|choose --choice 3|4]\n"
  "             [--format xinjiang|shaanxi|tangshan|wujiaqu]: start the knockout\n"
  "  knockout   --seeding lot [--pools region|club|team] [--lot N] [--format village]:\n"
  "             a knockout-only event, every player drawn into the bracket by lot\n"
  "  bracket    show the knockout matches, games and the next game\n"
  "  ko-result  --match M [--red ID] CODE  (the next game of match M)\n"
  "  places     final places (knockout, then Swiss) [--swiss: Swiss order only]\n"
  "  teams      [--preset NAME] [--table FILE] [--mode places|points] [--count N] [--swiss]\n"
  "  prizes     --table FILE | --preset NAME [--group NAME] [--swiss]\n"
  "             (teams, prizes, groups: --option KEY=VALUE, a reading of the preset)\n"
  "  groups     [--preset NAME] [--group NAME] [--swiss]: each group's standings\n"
  "             places, teams, prizes, groups: [--format text|html|csv|xlsx] [--lang en|zh]\n"
  "             [--out FILE]\n"
  "  demo       [--players N] [--init]: a demo event in a new store (round 1\n"
  "             paired), prints the admin, board and arbiter tokens\n"
  "  token      --role admin|arbiter|board|viewer [--round R --table T]\n"
  "             [--label TEXT]: a new server access token\n"
  "  tokens     list the live tokens: role round table token label\n"
  "  revoke     TOKEN: the token no longer opens the server\n"
  "  games      [--round R [--table T]]: the game log, one row a line:\n"
  "             id round table source seq event\n"
  "\n"
  "new, import and demo create FILE when it is missing; an existing empty (0-byte)\n"
  "FILE is refused unless --init is given (a store cut to nothing is not a new one).\n"
  "Tie-break codes: PTS OS OS_C1 PS WINS BWINS RWINS BLACK FOULS DE SB ROUNDBACK\n"
  "ROUNDBACK_FIRST LOT; presets: os ps xinjiang burqin shaanxi wujiaqu tangshan.\n";

typedef struct opts {
  const char *db, *name, *scoring, *tiebreaks, *first, *birth, *sex, *region, *club, *team;
  const char *out, *byeos, *de, *code, *bye, *format, *what, *lang, *system;
  long rounds, rating, round, board, player, id, count, after, seed;
  int local, init;
} opts;

/* Parse the options after the action. Returns 0 or 2 (usage error). */
static int parse_opts(int argc, char **argv, opts *o)
{
  memset(o, 0, sizeof *o);
  o->rounds = o->rating = o->round = o->board = o->player = o->id = o->after = o->seed = -1;
  o->count = 1;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    const char **str = NULL;
    long *num = NULL, lo = 0, hi = 0;
    if (!strcmp(a, "--local")) { o->local = 1; continue; }
    if (!strcmp(a, "--init")) { o->init = 1; continue; }
    if (a[0] != '-' || !strcmp(a, "-") || (a[1] && isdigit((unsigned char)a[1])) || !strcmp(a, "--") ||
        !strcmp(a, "+-") || !strcmp(a, "-+")) {
      if (o->code) { fprintf(stderr, "xqref tourney: unexpected argument '%s'\n", a); return 2; }
      o->code = a;
      continue;
    }
    if (!strcmp(a, "--db")) str = &o->db;
    else if (!strcmp(a, "--name")) str = &o->name;
    else if (!strcmp(a, "--scoring")) str = &o->scoring;
    else if (!strcmp(a, "--tiebreaks")) str = &o->tiebreaks;
    else if (!strcmp(a, "--first-round")) str = &o->first;
    else if (!strcmp(a, "--birth")) str = &o->birth;
    else if (!strcmp(a, "--sex")) str = &o->sex;
    else if (!strcmp(a, "--region")) str = &o->region;
    else if (!strcmp(a, "--club")) str = &o->club;
    else if (!strcmp(a, "--team")) str = &o->team;
    else if (!strcmp(a, "--out")) str = &o->out;
    else if (!strcmp(a, "--bye-os")) str = &o->byeos;
    else if (!strcmp(a, "--de")) str = &o->de;
    else if (!strcmp(a, "--bye")) str = &o->bye;
    else if (!strcmp(a, "--format")) str = &o->format;
    else if (!strcmp(a, "--what")) str = &o->what;
    else if (!strcmp(a, "--lang")) str = &o->lang;
    else if (!strcmp(a, "--system")) str = &o->system;
    else if (!strcmp(a, "--rounds")) num = &o->rounds, lo = 1, hi = XQ_TOURNEY_ROUNDS_MAX;
    else if (!strcmp(a, "--rating")) num = &o->rating, lo = 0, hi = 9999;
    else if (!strcmp(a, "--round")) num = &o->round, lo = 1, hi = XQ_TOURNEY_ROUNDS_MAX;
    else if (!strcmp(a, "--board")) num = &o->board, lo = 1, hi = XQ_TOURNEY_PLAYERS_MAX;
    else if (!strcmp(a, "--player")) num = &o->player, lo = 1, hi = XQ_TOURNEY_PLAYERS_MAX;
    else if (!strcmp(a, "--id")) num = &o->id, lo = 1, hi = XQ_TOURNEY_PLAYERS_MAX;
    else if (!strcmp(a, "--count")) num = &o->count, lo = 1, hi = 99;
    else if (!strcmp(a, "--after")) num = &o->after, lo = 1, hi = XQ_TOURNEY_ROUNDS_MAX;
    else if (!strcmp(a, "--seed")) num = &o->seed, lo = 0, hi = 2147483647;
    else { fprintf(stderr, "xqref tourney: unknown option '%s'\n", a); return 2; }
    if (xq__cli_value("tourney", NULL, a, v, str, lo, hi, num)) return 2;
    i++;
  }
  return 0;
}

/* Open o->db as `create` (XQ_TSTORE_*) says. Returns 0, 1 or 2. */
static int open_store(const opts *o, int create, xq_tstore **st)
{
  xq_error err = {0};
  if (!o->db) { fprintf(stderr, "xqref tourney: --db FILE is required\n"); return 2; }
  if (xq_tstore_open(o->db, create, st, &err)) {
    fprintf(stderr, "xqref tourney: %s\n", err.msg);
    return 1;
  }
  return 0;
}

static int load(xq_tstore *st, xq_tevent **ev)
{
  xq_error err = {0};
  if (xq_tstore_load(st, ev, &err)) {
    fprintf(stderr, "xqref tourney: %s\n", err.msg);
    return 1;
  }
  return 0;
}

/* The event of o->db, read and the store closed again. Returns 0, 1 or 2. */
static int read_event(const opts *o, xq_tevent **ev)
{
  xq_tstore *st;
  int rc = open_store(o, XQ_TSTORE_OPEN, &st);
  if (rc) return rc;
  rc = load(st, ev);
  xq_tstore_close(st);
  return rc;
}

static int cmd_new(const opts *o)
{
  xq_tconfig cfg;
  xq_error err = {0};
  xq_tconfig_default(&cfg);
  if (o->rounds > 0) cfg.rounds = (int)o->rounds;
  if (o->scoring) {
    if (!strcmp(o->scoring, "210") || !strcmp(o->scoring, "2-1-0")) xq_tconfig_scoring(&cfg, 0);
    else if (!strcmp(o->scoring, "1-0.5-0") || !strcmp(o->scoring, "10.50")) xq_tconfig_scoring(&cfg, 1);
    else { fprintf(stderr, "xqref tourney: --scoring is 210 or 1-0.5-0\n"); return 2; }
  }
  if (o->tiebreaks && xq_tconfig_tiebreaks(&cfg, o->tiebreaks, &err)) {
    fprintf(stderr, "xqref tourney: %s\n", err.msg);
    return 2;
  }
  if (o->first) {
    if (!strcmp(o->first, "rating")) cfg.first_round = XQ_FIRST_BY_RATING;
    else if (!strcmp(o->first, "lot")) cfg.first_round = XQ_FIRST_BY_LOT;
    else { fprintf(stderr, "xqref tourney: --first-round is rating or lot\n"); return 2; }
  }
  if (o->byeos) {
    if (!strcmp(o->byeos, "zero")) cfg.bye_os = XQ_BYE_OS_ZERO;
    else if (!strcmp(o->byeos, "lowest")) cfg.bye_os = XQ_BYE_OS_LOWEST;
    else { fprintf(stderr, "xqref tourney: --bye-os is zero or lowest\n"); return 2; }
  }
  if (o->de) {
    if (!strcmp(o->de, "fide")) cfg.de_mode = XQ_DE_FIDE;
    else if (!strcmp(o->de, "two")) cfg.de_mode = XQ_DE_TWO_ONLY;
    else { fprintf(stderr, "xqref tourney: --de is fide or two\n"); return 2; }
  }
  if (o->seed >= 0) cfg.lot_seed = (uint64_t)o->seed;
  xq_tstore *st;
  int rc = open_store(o, o->init ? XQ_TSTORE_INIT : XQ_TSTORE_CREATE, &st);
  if (rc) return rc;
  rc = xq_tstore_create_event(st, o->name ? o->name : "", &cfg, &err);
  xq_tstore_close(st);
  if (rc) { fprintf(stderr, "xqref tourney: %s\n", err.msg); return 1; }
  char tb[256];
  xq_tconfig_tb_format(&cfg, tb, sizeof tb);
  printf("created %s: %d rounds, scoring %s, tie-breaks %s\n", o->db, cfg.rounds,
         cfg.win == 4 ? "2/1/0" : "1/0.5/0", tb);
  return 0;
}

static int cmd_add(const opts *o)
{
  xq_tplayer p;
  xq_error err = {0};
  memset(&p, 0, sizeof p);
  if (!o->name) { fprintf(stderr, "xqref tourney add: --name is required\n"); return 2; }
  if (strlen(o->name) >= sizeof p.name) { fprintf(stderr, "xqref tourney add: name too long\n"); return 2; }
  strcpy(p.name, o->name);
  p.rating = o->rating > 0 ? (int)o->rating : 0;
  if (o->birth) snprintf(p.birth, sizeof p.birth, "%s", o->birth);
  if (o->birth && strlen(o->birth) > 10) { fprintf(stderr, "xqref tourney add: bad birth date\n"); return 2; }
  if (o->sex) {
    if (strcmp(o->sex, "m") && strcmp(o->sex, "w")) { fprintf(stderr, "xqref tourney add: --sex is m or w\n"); return 2; }
    p.sex = o->sex[0];
  }
  const char *f[3] = {o->region, o->club, o->team};
  char *dst[3] = {p.region, p.club, p.team};
  for (int i = 0; i < 3; i++)
    if (f[i]) {
      if (strlen(f[i]) >= XQ_TOURNEY_FIELD_MAX) { fprintf(stderr, "xqref tourney add: field too long\n"); return 2; }
      strcpy(dst[i], f[i]);
    }
  p.local = o->local;
  xq_tstore *st;
  int rc = open_store(o, XQ_TSTORE_OPEN, &st), id = 0;
  if (rc) return rc;
  rc = xq_tstore_register(st, &p, &id, &err);
  xq_tstore_close(st);
  if (rc) { fprintf(stderr, "xqref tourney add: %s\n", err.msg); return 1; }
  printf("player %d: %s\n", id, p.name);
  return 0;
}

static int cmd_import(const opts *o)
{
  xq_tevent *ev;
  xq_error err = {0};
  if (!o->code) { fprintf(stderr, "xqref tourney import: which TRF file?\n"); return 2; }
  if (xq_trf_read(o->code, &ev, &err)) {
    fprintf(stderr, "xqref tourney import: %s: %s\n", o->code, err.msg);
    return 1;
  }
  xq_tconfig cfg = ev->cfg;
  xq_tconfig def;
  xq_tconfig_default(&def);
  cfg.missed_rounds_withdraw = def.missed_rounds_withdraw; /* the store's rule from now on */
  if (o->rounds > 0) cfg.rounds = (int)o->rounds;
  if (o->tiebreaks && xq_tconfig_tiebreaks(&cfg, o->tiebreaks, &err)) {
    fprintf(stderr, "xqref tourney import: %s\n", err.msg);
    xq_tevent_free(ev);
    return 2;
  }
  xq_tstore *st;
  int rc = open_store(o, o->init ? XQ_TSTORE_INIT : XQ_TSTORE_CREATE, &st);
  if (rc) { xq_tevent_free(ev); return rc; }
  rc = xq_tstore_import(st, ev, &cfg, &err);
  long events = xq_tstore_event_count(st);
  xq_tstore_close(st);
  if (rc) {
    fprintf(stderr, "xqref tourney import: %s: %s\n", o->code, err.msg);
    xq_tevent_free(ev);
    return 1;
  }
  printf("imported %s: %d players, %d rounds, %ld events\n", o->code, ev->n, ev->nrounds, events);
  xq_tevent_free(ev);
  return 0;
}

static int cmd_players(const opts *o)
{
  xq_tevent *ev;
  int rc = read_event(o, &ev);
  if (rc) return rc;
  xq_list_players(ev, stdout);
  xq_tevent_free(ev);
  return 0;
}

static int cmd_pair(const opts *o)
{
  xq_tstore *st;
  xq_tevent *ev;
  xq_error err = {0};
  int system = o->system ? xq_pair_system_parse(o->system) : XQ_PAIR_CN;
  if (system < 0) {
    fprintf(stderr, "xqref tourney pair: unknown system '%s' (cn or dutch)\n", o->system);
    return 2;
  }
  int rc = open_store(o, XQ_TSTORE_OPEN, &st);
  if (rc) return rc;
  if ((rc = load(st, &ev))) { xq_tstore_close(st); return rc; }
  xq_tpairing pr = {0};
  if (xq_tstore_pair_next(st, ev, system, &pr, &err)) {
    fprintf(stderr, "xqref tourney pair: %s\n", err.msg);
    rc = 1;
  } else {
    xq_list_boards(ev, &pr, stdout);
  }
  xq_tpairing_clear(&pr);
  xq_tevent_free(ev);
  xq_tstore_close(st);
  return rc;
}

/* The id of the player known as `no` (xq_tplayer_no). 0, or 1 with a
 * message. */
static int player_by_no(xq_tstore *st, const char *action, int no, int *id)
{
  xq_tevent *ev;
  if (load(st, &ev)) return 1;
  *id = xq_tevent_player_no(ev, no);
  xq_tevent_free(ev);
  if (*id) return 0;
  fprintf(stderr, "xqref tourney %s: no player has the number %d (see `tourney players`)\n", action, no);
  return 1;
}

static int cmd_record(const opts *o, const char *action)
{
  xq_tstore *st;
  xq_error err = {0};
  if (o->round < 1) { fprintf(stderr, "xqref tourney %s: --round is required\n", action); return 2; }
  if (!strcmp(action, "result")) {
    if (o->board < 1 || !o->code) {
      fprintf(stderr, "xqref tourney result: --board B and a result code are required\n");
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
  if (!strcmp(action, "result")) rc = xq_tstore_result(st, r, (int)o->board, o->code, &err);
  else if (!strcmp(action, "foul")) rc = xq_tstore_foul(st, r, id, (int)o->count, &err);
  else if (!strcmp(action, "absent")) {
    int bye = !o->bye || !strcmp(o->bye, "zero") ? XQ_TR_ZPB : !strcmp(o->bye, "half") ? XQ_TR_HPB
            : !strcmp(o->bye, "full") ? XQ_TR_FPB : -1;
    if (bye < 0) {
      xq_tstore_close(st);
      fprintf(stderr, "xqref tourney absent: --bye is zero, half or full\n");
      return 2;
    }
    rc = xq_tstore_absence(st, r, id, bye, &err);
  }
  else rc = xq_tstore_withdraw(st, r, id, &err);
  xq_tstore_close(st);
  if (rc) { fprintf(stderr, "xqref tourney %s: %s\n", action, err.msg); return 1; }
  return 0;
}

static int cmd_standings(const opts *o)
{
  xq_tevent *ev;
  int rc = read_event(o, &ev);
  if (rc) return rc;
  rc = xq_list_standings(ev, o->after > 0 ? (int)o->after : 0, stdout);
  xq_tevent_free(ev);
  if (rc && rc != XQ_EIO) { /* no room for the standings */
    fprintf(stderr, "xqref tourney standings: out of memory\n");
    return 1;
  }
  return 0;
}

/* --what of export: 0 standings, 1 pairings, 2 score sheets; -1 unknown. */
static int export_what(const char *what)
{
  if (!what || !strcmp(what, "standings")) return 0;
  if (!strcmp(what, "pairings")) return 1;
  if (!strcmp(what, "scoresheets")) return 2;
  return -1;
}

static int cmd_export(const opts *o)
{
  xq_tstore *st;
  xq_tevent *ev;
  xq_tpairing pr = {0};
  xq_error err = {0};
  int fmt = o->format ? xq_sheet_format_parse(o->format) : XQ_SHEET_TRF;
  int lang = o->lang ? xq_sheet_lang_parse(o->lang) : XQ_LANG_EN;
  int what = export_what(o->what);
  if (fmt < 0) { fprintf(stderr, "xqref tourney export: --format is trf, csv, html, text or xlsx\n"); return 2; }
  if (lang < 0) { fprintf(stderr, "xqref tourney export: --lang is zh or en\n"); return 2; }
  if (what < 0) {
    fprintf(stderr, "xqref tourney export: --what is standings, pairings or scoresheets\n");
    return 2;
  }
  if (fmt == XQ_SHEET_TRF && (o->what || o->lang || o->round > 0)) {
    fprintf(stderr, "xqref tourney export: --what, --lang and --round need --format csv, html, text or xlsx\n");
    return 2;
  }
  int rc = 0;
  if (fmt == XQ_SHEET_XLSX && !o->out && isatty(fileno(stdout))) {
    xq__sheet_out("tourney export", NULL, fmt, &rc);
    return rc;
  }
  if ((rc = open_store(o, XQ_TSTORE_OPEN, &st))) return rc;
  if ((rc = load(st, &ev))) { xq_tstore_close(st); return rc; }
  int round = o->round > 0 ? (int)o->round : o->after > 0 ? (int)o->after : ev->nrounds;
  if (what && xq_tstore_pairing(st, round, &pr, &err)) {
    fprintf(stderr, "xqref tourney export: %s\n", err.msg);
    xq_tstore_close(st);
    xq_tevent_free(ev);
    return 1;
  }
  xq_tstore_close(st);
  FILE *f = xq__sheet_out("tourney export", o->out, fmt, &rc);
  if (!f) {
    xq_tpairing_clear(&pr);
    xq_tevent_free(ev);
    return rc;
  }
  rc = fmt == XQ_SHEET_TRF ? xq_trf_write(ev, f)
     : what == 1 ? xq_sheet_pairings(ev, &pr, fmt, lang, f)
     : what == 2 ? xq_sheet_scoresheets(ev, &pr, fmt, lang, f)
     : xq_sheet_standings(ev, o->round > 0 || o->after > 0 ? round : 0, fmt, lang, f); /* 0: after the
                                                                  last round whose games are all in */
  if ((o->out ? fclose(f) : fflush(f)) && !rc) rc = XQ_EIO;
  xq_tpairing_clear(&pr);
  xq_tevent_free(ev);
  if (rc) {
    /* a write failure names the file (or the temporary file of a workbook) */
    fprintf(stderr, "xqref tourney export: %s%s%s%s\n", o->out ? o->out : "", o->out ? ": " : "",
            rc == XQ_EIO && fmt == XQ_SHEET_XLSX ? "cannot write the workbook: " : "", xq_tourney_strerror(rc));
    return 1;
  }
  return 0;
}

static int cmd_log(const opts *o)
{
  xq_tstore *st;
  int rc = open_store(o, XQ_TSTORE_OPEN, &st);
  if (rc) return rc;
  rc = xq_tstore_dump(st, stdout);
  xq_tstore_close(st);
  return rc ? 1 : 0;
}

int xq_tourney_main(int argc, char **argv)
{
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    fputs(tourney_usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  for (int i = 2; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { fputs(tourney_usage, stdout); return 0; }
  if (xq__tourney_ko_action(argv[1])) return xq__tourney_ko_main(argc, argv);
  if (xq__tourney_results_action(argv[1])) return xq__tourney_results_main(argc, argv);
  if (xq__tourney_live_action(argv[1])) return xq__tourney_live_main(argc, argv);
  if (xq__tourney_players_action(argv[1])) return xq__tourney_players_main(argc, argv);
  opts o;
  if (parse_opts(argc, argv, &o)) return 2;
  const char *a = argv[1];
  if (o.code && strcmp(a, "result") && strcmp(a, "import")) {
    fprintf(stderr, "xqref tourney: unexpected argument '%s'\n", o.code);
    return 2;
  }
  if (o.init && strcmp(a, "new") && strcmp(a, "import")) {
    fprintf(stderr, "xqref tourney %s: --init applies only to new, import and demo\n", a);
    return 2;
  }
  if (!strcmp(a, "new")) return cmd_new(&o);
  if (!strcmp(a, "add")) return cmd_add(&o);
  if (!strcmp(a, "import")) return cmd_import(&o);
  if (!strcmp(a, "players")) return cmd_players(&o);
  if (!strcmp(a, "pair")) return cmd_pair(&o);
  if (!strcmp(a, "result") || !strcmp(a, "foul") || !strcmp(a, "absent") || !strcmp(a, "withdraw"))
    return cmd_record(&o, a);
  if (!strcmp(a, "standings")) return cmd_standings(&o);
  if (!strcmp(a, "export")) return cmd_export(&o);
  if (!strcmp(a, "log")) return cmd_log(&o);
  fprintf(stderr, "xqref tourney: unknown action '%s'\n\n%s", a, tourney_usage);
  return 2;
}
