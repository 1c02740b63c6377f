/*
 * cli.c -- `xqref tourney ...` (the event store from the command line) and
 * `xqref pair --system cn|dutch FILE.trf` (pairings in bbpPairings' output
 * format).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sheet/sheet_internal.h"

static const char tourney_usage[] =
  "usage: xqref tourney ACTION --db FILE [OPTIONS]\n"
  "\n"
  "actions:\n"
  "  new        create the event: [--name TEXT] [--rounds N] [--scoring 210|1-0.5-0]\n"
  "             [--tiebreaks LIST|PRESET] [--first-round rating|lot] [--seed N]\n"
  "             [--bye-os zero|lowest] [--de fide|two]\n"
  "  add        register a player: --name NAME [--rating N] [--birth YYYY/MM/DD]\n"
  "             [--sex m|w] [--region X] [--club X] [--team X] [--local]\n"
  "  import     FILE.trf: a whole event from TRF into a new store\n"
  "             [--rounds N] [--tiebreaks LIST|PRESET]\n"
  "  players    list the players\n"
  "  pair       [--system cn|dutch]: pair and publish the next round, print its\n"
  "             boards (cn: Chinese adjacent pairing, the default; dutch: FIDE)\n"
  "  result     --round R --board B CODE   (CODE: 1-0 0-1 = +- -+ --)\n"
  "  foul       --round R --player ID [--count N]\n"
  "  absent     --round R --player ID [--bye zero|half|full]\n"
  "             (announced absence before pairing: a 0, ½ or full point bye)\n"
  "  withdraw   --round R --player ID      (not paired from round R on)\n"
  "  standings  [--after R]\n"
  "  export     [--out FILE] [--format trf|csv|html|text] [--what standings|pairings]\n"
  "             [--round R] [--lang zh|en]  (FIDE TRF-16; CSV; printable HTML; text)\n"
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
  "  groups     [--preset NAME] [--group NAME] [--swiss]: each group's standings\n"
  "             places, teams, prizes, groups: [--format text|html|csv] [--lang en|zh]\n"
  "  demo       [--players N]: a demo event in a new store (round 1 paired),\n"
  "             prints the admin, board and arbiter tokens\n"
  "  token      --role admin|arbiter|board|viewer [--round R --table T]\n"
  "             [--label TEXT]: a new server access token\n"
  "  tokens     list the live tokens: role round table token label\n"
  "  revoke     TOKEN: the token no longer opens the server\n"
  "  games      [--round R [--table T]]: the game log, one row a line:\n"
  "             id round table source seq event\n"
  "\n"
  "Tie-break codes: PTS OS OS_C1 PS WINS BWINS RWINS BLACK FOULS DE SB ROUNDBACK\n"
  "ROUNDBACK_FIRST LOT; presets: os ps xinjiang burqin shaanxi wujiaqu tangshan.\n";

static const char pair_usage[] =
  "usage: xqref pair --system cn|dutch [--round K] [--rounds N] FILE.trf\n"
  "\n"
  "Pair the round after the last one in the TRF file and print the boards:\n"
  "the number of boards (the bye counts), then `red black` per board, 0 for\n"
  "the bye. Players with a block already written for that round are absent.\n"
  "\n"
  "  --system S   cn: Chinese adjacent pairing (the default); dutch: FIDE\n"
  "               Dutch, the pairing bbpPairings gives\n"
  "  --round K    pair round K as if only rounds 1..K-1 were in the file\n"
  "               (blocks of round K other than games and the PAB are kept\n"
  "               as announced absences): replays an event round by round\n"
  "  --rounds N   the event has N rounds (overrides XXR / 142)\n";

/* Forget rounds K and later, keeping round K's announced absences
 * (data/pairing README: replaying a generated event). */
static void truncate_rounds(xq_tevent *ev, int k)
{
  for (int id = 1; id <= ev->n; id++)
    for (int r = k; r <= ev->nrounds; r++) {
      xq_tslot *s = xq_tevent_slot(ev, id, r);
      if (r == k && !s->opp && s->res != XQ_TR_PAB && s->res != XQ_TR_NONE) continue;
      memset(s, 0, sizeof *s);
    }
  if (ev->nrounds > k) ev->nrounds = k;
}

typedef struct opts {
  const char *db, *name, *scoring, *tiebreaks, *first, *birth, *sex, *region, *club, *team;
  const char *out, *byeos, *de, *code, *bye, *format, *what, *lang, *system;
  long rounds, rating, round, board, player, count, after, seed;
  int local;
} opts;

int xq__cli_number(const char *s, long lo, long hi, long *out)
{
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end || errno || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

/* Parse the options after the action. Returns 0 or 2 (usage error). */
static int parse_opts(int argc, char **argv, opts *o)
{
  memset(o, 0, sizeof *o);
  o->rounds = o->rating = o->round = o->board = o->player = o->after = o->seed = -1;
  o->count = 1;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    const char **str = NULL;
    long *num = NULL, lo = 0, hi = 0;
    if (!strcmp(a, "--local")) { o->local = 1; continue; }
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
    else if (!strcmp(a, "--count")) num = &o->count, lo = 1, hi = 99;
    else if (!strcmp(a, "--after")) num = &o->after, lo = 1, hi = XQ_TOURNEY_ROUNDS_MAX;
    else if (!strcmp(a, "--seed")) num = &o->seed, lo = 0, hi = 2147483647;
    else { fprintf(stderr, "xqref tourney: unknown option '%s'\n", a); return 2; }
    if (!v) { fprintf(stderr, "xqref tourney: %s needs a value\n", a); return 2; }
    if (str) *str = v;
    else if (!xq__cli_number(v, lo, hi, num)) {
      fprintf(stderr, "xqref tourney: %s wants a number %ld..%ld, not '%s'\n", a, lo, hi, v);
      return 2;
    }
    i++;
  }
  return 0;
}

/* Display width of UTF-8 text: CJK and full-width characters count 2. */
static int display_width(const char *s)
{
  int w = 0;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    unsigned cp;
    int n = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : 4;
    cp = n == 1 ? *p : (unsigned)(*p & (0x7F >> n));
    for (int i = 1; i < n && p[i]; i++) cp = (cp << 6) | (p[i] & 0x3F);
    p += n;
    w += (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
         (cp >= 0xFFE0 && cp <= 0xFFE6) || cp >= 0x20000 ? 2 : 1;
  }
  return w;
}

static void put_padded(const char *s, int width)
{
  fputs(s, stdout);
  for (int w = display_width(s); w < width; w++) putchar(' ');
}

static int open_store(const opts *o, int create, xq_tstore **st)
{
  xq_error err = {0};
  if (!o->db) { fprintf(stderr, "xqref tourney: --db FILE is required\n"); return 2; }
  if (xq_tstore_open(o->db, create, st, &err)) {
    fprintf(stderr, "xqref tourney: %s: %s\n", o->db, err.msg);
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
  int rc = open_store(o, 0, &st);
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
  int rc = open_store(o, 1, &st);
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
  int rc = open_store(o, 0, &st), id = 0;
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
  int rc = open_store(o, 1, &st);
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
  printf("  id  no  ");
  put_padded("name", 24);
  printf(" rating  born        sex  team\n");
  for (int id = 1; id <= ev->n; id++) {
    const xq_tplayer *p = &ev->players[id - 1];
    printf("%4d %3d  ", id, p->pno);
    put_padded(p->name, 24);
    printf(" %6d  %-10s  %c    %s%s\n", p->rating, p->birth[0] ? p->birth : "-", p->sex ? p->sex : '-',
           p->team, p->local ? " (local)" : "");
  }
  xq_tevent_free(ev);
  return 0;
}

static void print_board(const xq_tevent *ev, int b, const xq_tboard *bd, int round)
{
  char pts[16];
  const xq_tplayer *r = &ev->players[bd->red - 1];
  xq__half_text(pts, sizeof pts, xq_tevent_points(ev, bd->red, round - 1));
  printf("%4d  %4d ", b, bd->red);
  put_padded(r->name, 20);
  printf(" %4s", pts);
  if (!bd->black) { printf("   bye\n"); return; }
  const xq_tplayer *k = &ev->players[bd->black - 1];
  xq__half_text(pts, sizeof pts, xq_tevent_points(ev, bd->black, round - 1));
  printf("  -  %4d ", bd->black);
  put_padded(k->name, 20);
  printf(" %4s\n", pts);
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
  int rc = open_store(o, 0, &st);
  if (rc) return rc;
  if ((rc = load(st, &ev))) { xq_tstore_close(st); return rc; }
  int round = ev->nrounds + 1;
  if (ev->cfg.rounds && round > ev->cfg.rounds) {
    fprintf(stderr, "xqref tourney pair: all %d rounds are paired\n", ev->cfg.rounds);
    rc = 1;
  } else if (!xq_tevent_round_complete(ev, round - 1)) {
    fprintf(stderr, "xqref tourney pair: round %d still has boards without a result\n", round - 1);
    rc = 1;
  } else if (ev->n < 2) {
    fprintf(stderr, "xqref tourney pair: at least two players are needed\n");
    rc = 1;
  }
  if (rc) goto out;
  xq_assign_pnos(ev);
  xq_tpairing pr = {0};
  xq_pair_stats ps = {0};
  /* ev is this command's own copy: the Dutch pairer may mark it */
  rc = xq_pair_system(ev, round, system, &pr, &ps);
  if (rc) {
    fprintf(stderr, "xqref tourney pair: round %d: %s\n", round, xq_tourney_strerror(rc));
    rc = 1;
    goto out;
  }
  if (xq_tstore_publish(st, ev, &pr, &err)) {
    fprintf(stderr, "xqref tourney pair: %s\n", err.msg);
    xq_tpairing_clear(&pr);
    rc = 1;
    goto out;
  }
  printf("round %d: %d boards\n", round, pr.nboards);
  for (int b = 0; b < pr.nboards; b++) print_board(ev, b + 1, &pr.boards[b], round);
  xq_tpairing_clear(&pr);
out:
  xq_tevent_free(ev);
  xq_tstore_close(st);
  return rc;
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
  } else if (o->player < 1) {
    fprintf(stderr, "xqref tourney %s: --player is required\n", action);
    return 2;
  }
  int rc = open_store(o, 0, &st);
  if (rc) return rc;
  int r = (int)o->round, id = (int)o->player;
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
  int upto = o->after > 0 ? (int)o->after : ev->nrounds;
  if (upto > ev->nrounds) upto = ev->nrounds;
  xq_tstanding *s = malloc(sizeof *s * (size_t)(ev->n ? ev->n : 1));
  if (!s || xq_standings(ev, upto, s)) {
    free(s);
    xq_tevent_free(ev);
    fprintf(stderr, "xqref tourney standings: out of memory\n");
    return 1;
  }
  printf("%s: standings after round %d\n", ev->name[0] ? ev->name : "event", upto);
  printf("rank   no  ");
  put_padded("name", 20);
  for (int t = 0; t < ev->cfg.ntb; t++)
    printf(" %*s", ev->cfg.tb[t] == XQ_TB_ROUNDBACK_FIRST ? 15 : ev->cfg.tb[t] == XQ_TB_ROUNDBACK_LAST ? 9 : 6,
           xq_tb_name(ev->cfg.tb[t]));
  printf("   W-D-L\n");
  for (int i = 0; i < ev->n; i++) {
    const xq_tplayer *p = &ev->players[s[i].id - 1];
    printf("%4d %4d  ", s[i].rank, s[i].id);
    put_padded(p->name, 20);
    for (int t = 0; t < ev->cfg.ntb; t++) {
      char v[32];
      xq__tb_text(v, sizeof v, ev->cfg.tb[t], s[i].val[t]);
      if (!v[0]) snprintf(v, sizeof v, "-");
      printf(" %*s", ev->cfg.tb[t] == XQ_TB_ROUNDBACK_FIRST ? 15 : ev->cfg.tb[t] == XQ_TB_ROUNDBACK_LAST ? 9 : 6, v);
    }
    printf("   %d-%d-%d\n", s[i].wins, s[i].draws, s[i].losses);
  }
  free(s);
  xq_tevent_free(ev);
  return 0;
}

static int cmd_export(const opts *o)
{
  xq_tstore *st;
  xq_tevent *ev;
  xq_tpairing pr = {0};
  xq_error err = {0};
  int fmt = o->format ? xq_sheet_format_parse(o->format) : XQ_SHEET_TRF;
  int lang = o->lang ? xq_sheet_lang_parse(o->lang) : XQ_LANG_EN;
  int pairings = o->what && !strcmp(o->what, "pairings");
  if (fmt < 0) { fprintf(stderr, "xqref tourney export: --format is trf, csv, html or text\n"); return 2; }
  if (lang < 0) { fprintf(stderr, "xqref tourney export: --lang is zh or en\n"); return 2; }
  if (o->what && !pairings && strcmp(o->what, "standings")) {
    fprintf(stderr, "xqref tourney export: --what is standings or pairings\n");
    return 2;
  }
  if (fmt == XQ_SHEET_TRF && (o->what || o->lang || o->round > 0)) {
    fprintf(stderr, "xqref tourney export: --what, --lang and --round need --format csv, html or text\n");
    return 2;
  }
  int rc = open_store(o, 0, &st);
  if (rc) return rc;
  if ((rc = load(st, &ev))) { xq_tstore_close(st); return rc; }
  int round = o->round > 0 ? (int)o->round : o->after > 0 ? (int)o->after : ev->nrounds;
  if (pairings && xq_tstore_pairing(st, round, &pr, &err)) {
    fprintf(stderr, "xqref tourney export: %s\n", err.msg);
    xq_tstore_close(st);
    xq_tevent_free(ev);
    return 1;
  }
  xq_tstore_close(st);
  FILE *f = o->out ? fopen(o->out, "w") : stdout;
  if (!f) {
    fprintf(stderr, "xqref tourney export: %s: %s\n", o->out, strerror(errno));
    xq_tpairing_clear(&pr);
    xq_tevent_free(ev);
    return 1;
  }
  rc = fmt == XQ_SHEET_TRF ? xq_trf_write(ev, f)
     : pairings ? xq_sheet_pairings(ev, &pr, fmt, lang, f)
     : xq_sheet_standings(ev, round, fmt, lang, f);
  if (o->out ? fclose(f) : fflush(f)) rc = XQ_EIO;
  xq_tpairing_clear(&pr);
  xq_tevent_free(ev);
  if (rc) { fprintf(stderr, "xqref tourney export: %s\n", xq_tourney_strerror(rc)); return 1; }
  return 0;
}

static int cmd_log(const opts *o)
{
  xq_tstore *st;
  int rc = open_store(o, 0, &st);
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
  if (xq__tourney_final_action(argv[1])) return xq__tourney_final_main(argc, argv);
  if (xq__tourney_live_action(argv[1])) return xq__tourney_live_main(argc, argv);
  opts o;
  if (parse_opts(argc, argv, &o)) return 2;
  const char *a = argv[1];
  if (o.code && strcmp(a, "result") && strcmp(a, "import")) {
    fprintf(stderr, "xqref tourney: unexpected argument '%s'\n", o.code);
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

int xq_pair_main(int argc, char **argv)
{
  const char *system = NULL, *file = NULL;
  long round_opt = 0, rounds_opt = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { fputs(pair_usage, stdout); return 0; }
    if (!strcmp(argv[i], "--system") && i + 1 < argc) system = argv[++i];
    else if ((!strcmp(argv[i], "--round") || !strcmp(argv[i], "--rounds")) && i + 1 < argc) {
      long *dst = !strcmp(argv[i], "--round") ? &round_opt : &rounds_opt;
      if (!xq__cli_number(argv[i + 1], 1, XQ_TOURNEY_ROUNDS_MAX, dst)) {
        fprintf(stderr, "xqref pair: %s wants a number 1..%d\n", argv[i], XQ_TOURNEY_ROUNDS_MAX);
        return 2;
      }
      i++;
    }
    else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "xqref pair: unknown option '%s'\n%s", argv[i], pair_usage);
      return 2;
    } else if (!file) file = argv[i];
    else { fprintf(stderr, "xqref pair: one TRF file only\n"); return 2; }
  }
  if (!system) system = "cn";
  if (!file) { fputs(pair_usage, stderr); return 2; }
  int dutch = !strcmp(system, "dutch");
  if (!dutch && strcmp(system, "cn")) {
    fprintf(stderr, "xqref pair: unknown system '%s' (cn or dutch)\n", system);
    return 2;
  }
  xq_tevent *ev;
  xq_error err = {0};
  int rc = xq_trf_read(file, &ev, &err);
  if (rc) { fprintf(stderr, "xqref pair: %s: %s\n", file, err.msg); return 1; }
  if (rounds_opt) ev->cfg.rounds = (int)rounds_opt;
  if (round_opt) truncate_rounds(ev, (int)round_opt);
  int round = xq_trf_next_round(ev);
  if (round_opt && round != round_opt) {
    fprintf(stderr, "xqref pair: %s: round %ld cannot be paired: the file ends at round %d\n", file,
            round_opt, round - 1);
    xq_tevent_free(ev);
    return 1;
  }
  if (ev->cfg.rounds && round > ev->cfg.rounds) {
    fprintf(stderr, "xqref pair: %s: all %d rounds are already paired\n", file, ev->cfg.rounds);
    xq_tevent_free(ev);
    return 1;
  }
  if (round > XQ_TOURNEY_ROUNDS_MAX || !xq_tevent_round_complete(ev, round - 1)) {
    fprintf(stderr, "xqref pair: %s: round %d has games without a result\n", file, round - 1);
    xq_tevent_free(ev);
    return 1;
  }
  xq_tpairing pr = {0};
  rc = dutch ? xq_pair_dutch(ev, round, &pr) : xq_pair_cn(ev, round, &pr, NULL);
  if (rc) {
    fprintf(stderr, "xqref pair: %s: round %d: %s\n", file, round, xq_tourney_strerror(rc));
    xq_tevent_free(ev);
    return 1;
  }
  /* bbpPairings' output: boards (the bye counts), then `red black` */
  printf("%d\n", pr.nboards);
  for (int b = 0; b < pr.nboards; b++) printf("%d %d\n", pr.boards[b].red, pr.boards[b].black);
  xq_tpairing_clear(&pr);
  xq_tevent_free(ev);
  return fflush(stdout) ? 1 : 0;
}
