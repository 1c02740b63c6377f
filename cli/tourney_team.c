/*
 * tourney_team.c -- the `xqref tourney` actions of a team competition
 * (团体赛, docs/tourney.md "Team competitions"): new --format team-rr|
 * team-rr2|team-swiss, team, lineup, pair, match-result, team-withdraw,
 * standings, board-prizes and match-sheet (团体对阵表), on the store of
 * --db: the players are its registrations, the rest its team log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pair/pair.h"
#include "paths.h"
#include "sheet/sheet.h"
#include "store/store.h"
#include "store/team_store.h"
#include "teammatch.h"
#include "tourney.h"
#include "tourney_cli.h"

/* An open team event: the store, its players and the team competition. */
typedef struct tev {
  xq_tstore *st;
  xq_tournament *people;
  xq_tm_event *ev;   /* NULL: the store holds an individual event */
} tev;

static void tev_close(tev *t)
{
  xq_tm_event_free(t->ev);
  xq_tournament_free(t->people);
  if (t->st) xq_tstore_close(t->st);
  memset(t, 0, sizeof *t);
}

/* Open o->db and load both events. Returns 0, or 1 after a message. */
static int tev_open(const xq__topts *o, const char *action, tev *t)
{
  xq_error err = {0};
  memset(t, 0, sizeof *t);
  if (xq_tstore_open(o->db, XQ_TSTORE_OPEN, &t->st, &err) || xq_tstore_load(t->st, &t->people, &err) ||
      xq_tstore_team_load(t->st, t->people, &t->ev, &err)) {
    fprintf(stderr, "xqref tourney %s: %s\n", action, err.msg);
    tev_close(t);
    return 1;
  }
  return 0;
}

/* Record rows[0..n) (checked against the event first). 0, or 1 after a message. */
static int record(tev *t, const char *action, const xq_tm_logrow *rows, int n)
{
  xq_error err = {0};
  if (!xq_tstore_team_record(t->st, t->people, &t->ev, rows, n, &err)) return 0;
  fprintf(stderr, "xqref tourney %s: %s\n", action, err.msg);
  return 1;
}

static const char *team_name(const xq_tm_event *ev, int t)
{
  return t ? ev->teams[t - 1].name : "bye";
}

static const char *player_name(const tev *t, int id)
{
  return id > 0 && id <= t->people->n ? t->people->players[id - 1].name : "-";
}

/* The tie-break order "MP,GP,TDE,TBR,LOT" into buf. */
static const char *tb_text(const xq_tm_config *cfg, char *buf, size_t cap)
{
  buf[0] = 0;
  for (int i = 0; i < cfg->ntb; i++)
    snprintf(buf + strlen(buf), cap - strlen(buf), "%s%s", i ? "," : "", xq_ttb_name(cfg->tb[i]));
  return buf;
}

/* ------------------------------------------------------------------ */
/* new                                                                 */
/* ------------------------------------------------------------------ */

int xq__tourney_team_new(const xq__topts *o)
{
  xq_error err = {0};
  if (o->boards < 2) {
    fprintf(stderr, "xqref tourney new: a team event needs --boards B (2..%d)\n", XQ_TM_BOARDS_MAX);
    return 2;
  }
  int swiss = o->evformat == 5;
  xq_tm_config cfg;
  xq_tm_config_default(&cfg, swiss ? XQ_TM_SWISS : XQ_TM_RR, (int)o->boards);
  cfg.cycles = o->evformat == 4 ? 2 : 1;
  if (swiss && o->rounds > 0) cfg.rounds = (int)o->rounds;
  if (!swiss && o->rounds > 0) {
    fprintf(stderr, "xqref tourney new: a round robin's rounds follow from its teams: no --rounds\n");
    return 2;
  }
  cfg.lot_seed = o->seed >= 0 ? (uint64_t)o->seed : 20260101u;
  if (o->system && (cfg.system = xq_pair_system_parse(o->system)) < 0) {
    fprintf(stderr, "xqref tourney new: unknown system '%s' (cn or dutch)\n", o->system);
    return 2;
  }
  if (o->board_order && strcmp(o->board_order, "fixed") && strcmp(o->board_order, "free")) {
    fprintf(stderr, "xqref tourney new: --board-order is fixed or free\n");
    return 2;
  }
  if (o->board_order) cfg.board_order = !strcmp(o->board_order, "free") ? XQ_TM_ORDER_FREE : XQ_TM_ORDER_FIXED;
  if ((o->match_points && xq_tm_config_match_points(&cfg, o->match_points, &err)) ||
      (o->tiebreaks && xq_tm_config_tiebreaks(&cfg, o->tiebreaks, &err))) {
    fprintf(stderr, "xqref tourney new: %s\n", err.msg);
    return 2;
  }
  if (o->min_players > 0) cfg.min_players = (int)o->min_players;
  xq_tm_logrow row = {.kind = XQ_TML_CONFIG};
  xq_tm_config_write(&cfg, row.text, sizeof row.text);
  xq_tconfig icfg;
  xq_tconfig_default(&icfg);
  icfg.rounds = swiss ? cfg.rounds : XQ_TOURNEY_ROUNDS_MAX;
  tev t = {0};
  if (xq_tstore_open(o->db, o->init ? XQ_TSTORE_INIT : XQ_TSTORE_CREATE, &t.st, &err) ||
      xq_tstore_create_event(t.st, o->name ? o->name : "", &icfg, &err)) {
    fprintf(stderr, "xqref tourney new: %s\n", err.msg);
    tev_close(&t);
    return 1;
  }
  int rc = record(&t, "new", &row, 1);
  tev_close(&t);
  if (rc) return rc;
  char tb[128];
  printf("created %s: a team %s on %d boards%s, match points %d/%d/%d, game points %d/%d/%d, tie-breaks %s\n", o->db,
         swiss ? "Swiss" : cfg.cycles == 2 ? "double round robin" : "round robin", cfg.boards,
         swiss ? (cfg.system == XQ_PAIR_DUTCH ? ", FIDE Dutch" : ", Chinese adjacent") : "", cfg.mp_win, cfg.mp_draw,
         cfg.mp_loss, cfg.gp_win, cfg.gp_draw, cfg.gp_loss, tb_text(&cfg, tb, sizeof tb));
  return 0;
}

/* ------------------------------------------------------------------ */
/* Teams and lineups                                                   */
/* ------------------------------------------------------------------ */

/* The players "NO,NO,..." (numbers as the listings print them, 0 an
 * absent player when `zero`) into row->list. 0, or 2 after a message. */
static int player_list(const tev *t, const char *action, const char *text, int zero, xq_tm_logrow *row)
{
  row->nlist = 0;
  for (const char *p = text; *p;) {
    char *end;
    long no = strtol(p, &end, 10);
    int id = no > 0 ? xq_tournament_player_no(t->people, (int)no) : 0;
    if (end == p || (*end && *end != ',') || row->nlist == XQ_TM_ROSTER_MAX || (!id && !(zero && no == 0))) {
      fprintf(stderr, "xqref tourney %s: --players: \"%s\" is not a list of player numbers\n", action, text);
      return 2;
    }
    row->list[row->nlist++] = id;
    p = end + (*end == ',');
  }
  return 0;
}

static int cmd_team(tev *t, const xq__topts *o)
{
  xq_tm_logrow row = {.kind = XQ_TML_TEAM};
  snprintf(row.text, sizeof row.text, "%s", o->name);
  if (o->list && player_list(t, "team", o->list, 0, &row)) return 2;
  for (int id = 1; !o->list && id <= t->people->n && row.nlist < XQ_TM_ROSTER_MAX; id++)
    if (!strcmp(t->people->players[id - 1].team, o->name)) row.list[row.nlist++] = id;
  row.a = o->regulars > 0 ? (int)o->regulars : t->ev->cfg.boards;
  if (row.a > row.nlist) row.a = row.nlist;
  if (record(t, "team", &row, 1)) return 1;
  const xq_tm_team *tm = &t->ev->teams[t->ev->nteams - 1];
  printf("team %d %s:", t->ev->nteams, tm->name);
  for (int i = 0; i < tm->nroster; i++)
    printf(" %s%s", i == tm->nregular ? "| reserves: " : "", tm->roster[i].name);
  printf("\n");
  return 0;
}

static int cmd_lineup(tev *t, const xq__topts *o)
{
  xq_tm_logrow row = {.kind = XQ_TML_LINEUP, .round = (int)o->round};
  row.a = xq_tm_team_find(t->ev, o->team);
  if (!row.a) {
    fprintf(stderr, "xqref tourney lineup: no team '%s'\n", o->team);
    return 2;
  }
  if (player_list(t, "lineup", o->list, 1, &row)) return 2;
  if (record(t, "lineup", &row, 1)) return 1;
  const xq_tm_match *x = &t->ev->matches[xq_tm_match_of(t->ev, row.round, row.a)];
  const int *l = x->lineup[x->first == row.a ? 0 : 1];
  printf("round %d, %s:", row.round, o->team);
  for (int b = 0; b < t->ev->cfg.boards; b++) printf(" %d %s", b + 1, l[b] ? player_name(t, l[b]) : "(empty)");
  printf("\n");
  return 0;
}

/* ------------------------------------------------------------------ */
/* Matches: pairing, results, the match sheet                          */
/* ------------------------------------------------------------------ */

/* Match m as the match sheet (团体对阵表) prints it: a heading with its
 * 局分 and 场分, then a line per board: colours, players, result. */
static void print_match(const tev *t, int m, int k, FILE *f)
{
  const xq_tm_event *ev = t->ev;
  const xq_tm_match *x = &ev->matches[m];
  xq_tm_score sc;
  xq_tm_match_score(ev, m, &sc);
  if (!x->second) {
    fprintf(f, "match %d  %s  bye  %d:0  %d\n", k, team_name(ev, x->first), sc.gp[0], sc.mp[0]);
    return;
  }
  fprintf(f, "match %d  %s - %s", k, team_name(ev, x->first), team_name(ev, x->second));
  if (sc.decided) fprintf(f, "  %d:%d  %d:%d", sc.gp[0], sc.gp[1], sc.mp[0], sc.mp[1]);
  if (sc.forfeit) fprintf(f, "  (forfeited by %s)", sc.forfeit == XQ_TMF_BOTH ? "both" : team_name(ev, sc.forfeit == XQ_TMF_FIRST ? x->first : x->second));
  fprintf(f, "\n");
  for (int b = 0; b < ev->cfg.boards; b++) {
    int red = xq_tm_first_red(&ev->cfg, b + 1), r = sc.board_res[0][b];
    if (sc.forfeit) r = XQ_TR_NONE;
    else if (r == XQ_TR_NONE) r = x->res[b];
    fprintf(f, "  board %d  %s %s  -  %s %s  %s\n", b + 1, red ? "red" : "black",
            x->lineup[0][b] ? player_name(t, x->lineup[0][b]) : "(empty)", red ? "black" : "red",
            x->lineup[1][b] ? player_name(t, x->lineup[1][b]) : "(empty)", *xq_tm_result_code(r) ? xq_tm_result_code(r) : "*");
  }
}

static void print_round(const tev *t, int round, FILE *f)
{
  fprintf(f, "round %d\n", round);
  for (int k = 1, m; (m = xq_tm_match_at(t->ev, round, k)) >= 0; k++) print_match(t, m, k, f);
}

static int cmd_pair(tev *t)
{
  xq_tm_event *ev = t->ev;
  xq_error err = {0};
  int round = ev->nrounds + 1, before = ev->nmatches;
  xq_tm_logrow numbers = {.kind = XQ_TML_NUMBERS};
  if (round == 1) {
    snprintf(numbers.text, sizeof numbers.text, "%llu",
             ev->cfg.format == XQ_TM_RR ? (unsigned long long)ev->cfg.lot_seed : 0ULL);
    xq_tm_number_teams(ev, strtoull(numbers.text, NULL, 10));
  }
  if (xq_tm_pair(ev, round, &err)) {
    fprintf(stderr, "xqref tourney pair: %s\n", err.msg);
    return 1;
  }
  int n = ev->nmatches - before, k = round == 1;
  xq_tm_logrow *rows = calloc((size_t)n + 1, sizeof *rows);
  if (!rows) return 1;
  if (k) rows[0] = numbers;
  for (int i = 0; i < n; i++)
    rows[k + i] = (xq_tm_logrow){.kind = XQ_TML_MATCH, .round = round, .a = ev->matches[before + i].first,
                                 .b = ev->matches[before + i].second};
  /* the rows are applied again to the event as loaded, then kept */
  xq_tm_event *fresh = NULL;
  xq_tstore_team_load(t->st, t->people, &fresh, &err);
  xq_tm_event_free(t->ev);
  t->ev = fresh;
  int rc = fresh ? record(t, "pair", rows, n + k) : 1;
  free(rows);
  if (!rc) print_round(t, round, stdout);
  return rc;
}

static int cmd_match_result(tev *t, const xq__topts *o)
{
  static const char *const forfeits[] = {"none", "first", "second", "both"};
  xq_tm_logrow row = {.round = (int)o->round, .a = (int)o->match};
  if (xq_tm_match_at(t->ev, row.round, row.a) < 0) {
    fprintf(stderr, "xqref tourney match-result: round %d has no match %d\n", row.round, row.a);
    return 2;
  }
  if (o->forfeit) {
    row.kind = XQ_TML_FORFEIT;
    row.b = -1;
    for (int i = 0; i < 4; i++)
      if (!strcmp(o->forfeit, forfeits[i])) row.b = i;
  } else {
    row.kind = XQ_TML_RESULT;
    row.b = (int)o->board;
    row.c = xq_tm_result_parse(o->arg);
  }
  if ((o->forfeit && row.b < 0) || (!o->forfeit && (row.c < 0 || row.b < 1))) {
    fprintf(stderr, "xqref tourney match-result: give --board B and CODE (1-0 0-1 = +- -+ *, the first team's "
                    "side) or --forfeit none|first|second|both\n");
    return 2;
  }
  if (record(t, "match-result", &row, 1)) return 1;
  print_match(t, xq_tm_match_at(t->ev, row.round, row.a), row.a, stdout);
  return 0;
}

static int cmd_withdraw(tev *t, const xq__topts *o)
{
  xq_tm_logrow row = {.kind = XQ_TML_WITHDRAW, .round = (int)o->round, .a = xq_tm_team_find(t->ev, o->team)};
  if (!row.a) {
    fprintf(stderr, "xqref tourney team-withdraw: no team '%s'\n", o->team);
    return 2;
  }
  if (record(t, "team-withdraw", &row, 1)) return 1;
  printf("%s withdraws from round %d\n", o->team, row.round);
  return 0;
}

/* The team sheets. */
enum { SH_STANDINGS, SH_MATCHES, SH_BOARDS, SH_CROSS };

/* A team sheet `kind` (sheet_team.c) of `action` with --format, to --out
 * or stdout. 0, 1 or 2 after a message. */
static int team_sheet(tev *t, const xq__topts *o, const char *action, int kind, int upto)
{
  int format = xq_sheet_format_parse(o->format), lang = o->lang ? xq_sheet_lang_parse(o->lang) : XQ_LANG_EN;
  if (format != XQ_SHEET_TEXT && format != XQ_SHEET_HTML && format != XQ_SHEET_CSV && format != XQ_SHEET_XLSX) {
    fprintf(stderr, "xqref tourney %s: --format is text, html, csv or xlsx\n", action);
    return 2;
  }
  if (lang < 0) {
    fprintf(stderr, "xqref tourney %s: --lang is en or zh\n", action);
    return 2;
  }
  char cmd[48];
  snprintf(cmd, sizeof cmd, "tourney %s", action);
  xq__paths_out w = {0};
  int rc = xq__tourney_final_sheet_out(cmd, o->out, format, &w);
  if (rc) return rc;
  if (kind == SH_STANDINGS) rc = xq_sheet_team_standings(t->people, t->ev, upto, format, lang, w.f);
  else if (kind == SH_CROSS) rc = xq_sheet_team_crosstable(t->people, t->ev, upto, format, lang, w.f);
  else if (kind == SH_BOARDS)
    rc = xq_sheet_team_boards(t->people, t->ev, o->board > 0 ? (int)o->board : 0, upto, format, lang, w.f);
  else rc = xq_sheet_team_matches(t->people, t->ev, o->round > 0 ? (int)o->round : t->ev->nrounds, format, lang, w.f);
  if (xq__paths_close(&w, !rc)) return 1;
  if (!rc) return 0;
  fprintf(stderr, "xqref tourney %s: %s\n", action, rc == XQ_EINVAL ? "no such round" : xq_strerror(rc));
  return 1;
}

/* ------------------------------------------------------------------ */
/* Standings and board prizes                                          */
/* ------------------------------------------------------------------ */

/* Whether the table prints a value for tie-break `code` (the group
 * and vector codes and the lot have none). */
static int has_value(int code)
{
  return code != XQ_TTB_TDE && code != XQ_TTB_TDE2W && code != XQ_TTB_TBR && code != XQ_TTB_TBRW &&
         code != XQ_TTB_BBE && code != XQ_TTB_LOT && code != XQ_TTB_MP && code != XQ_TTB_GP;
}

/* The last round whose matches are all decided. */
static int rounds_decided(const xq_tm_event *ev)
{
  int last = ev->nrounds;
  for (int m = 0; m < ev->nmatches; m++) {
    xq_tm_score sc;
    xq_tm_match_score(ev, m, &sc);
    if (!sc.decided && ev->matches[m].round <= last) last = ev->matches[m].round - 1;
  }
  return last;
}

static int cmd_standings(tev *t, const xq__topts *o)
{
  const xq_tm_event *ev = t->ev;
  int upto = o->after > 0 ? (int)o->after : rounds_decided(ev);
  if (o->format) return team_sheet(t, o, "standings", SH_STANDINGS, upto);
  xq_tm_row *rows = calloc((size_t)ev->nteams + 1, sizeof *rows);
  if (!rows || xq_tm_standings(ev, upto, rows)) {
    free(rows);
    return 1;
  }
  char tb[128];
  printf("team standings after round %d (%s)\n%-5s %-20s %6s %3s %3s %3s %4s %4s", upto, tb_text(&ev->cfg, tb, sizeof tb), "place", "team", "played", "+",
         "=", "-", "MP", "GP");
  for (int i = 0; i < ev->cfg.ntb; i++)
    if (has_value(ev->cfg.tb[i])) printf(" %6s", xq_ttb_name(ev->cfg.tb[i]));
  printf("  board GP\n");
  for (int i = 0; i < ev->nteams; i++) {
    const xq_tm_row *r = &rows[i];
    char place[8] = "-";
    if (!r->annulled) snprintf(place, sizeof place, "%d", r->place);
    printf("%-5s %-20s %6d %3d %3d %3d %4d %4d", place, team_name(ev, r->team), r->played, r->mw, r->md, r->ml, r->mp,
           r->gp);
    for (int k = 0; k < ev->cfg.ntb; k++)
      if (has_value(ev->cfg.tb[k])) printf(" %6lld", (long long)xq_tm_row_value(r, ev->cfg.tb[k]));
    printf(" ");
    for (int b = 0; b < ev->cfg.boards; b++) printf(" %d", r->board_gp[b]);
    printf("%s\n", r->annulled ? "  (withdrew: results annulled)" : "");
  }
  free(rows);
  return 0;
}

static int cmd_board_prizes(tev *t, const xq__topts *o)
{
  const xq_tm_event *ev = t->ev;
  int upto = rounds_decided(ev), cap = ev->nteams * XQ_TM_ROSTER_MAX + 1;
  if (o->format) return team_sheet(t, o, "board-prizes", SH_BOARDS, upto);
  xq_tm_board_row *rows = calloc((size_t)cap, sizeof *rows);
  if (!rows) return 1;
  for (int b = 1; b <= ev->cfg.boards; b++) {
    if (o->board > 0 && b != o->board) continue;
    int n = xq_tm_board_prizes(ev, b, upto, rows, cap);
    printf("board %d\n", b);
    for (int i = 0; i < n && i < cap; i++) {
      const xq_tm_board_row *r = &rows[i];
      printf("  %2d  %-16s %-16s games %d  +%d =%d -%d  points %d/%d%s\n", i + 1, player_name(t, r->player),
             team_name(ev, r->team), r->games, r->wins, r->draws, r->losses, r->points, ev->cfg.gp_win * r->games,
             r->eligible ? "" : "  (too few games)");
    }
  }
  free(rows);
  return 0;
}

/* The team event's settings, a line each; none of them changes once made. */
static int cmd_settings(tev *t, const xq__topts *o)
{
  if (o->name || o->dates || o->venue || o->organiser || o->arbiter || o->evformat >= 0 || o->rounds > 0 ||
      o->scoring >= 0 || o->tiebreaks || o->system) {
    fprintf(stderr, "xqref tourney settings: a team event's settings are those it was made with\n");
    return 2;
  }
  const xq_tm_config *c = &t->ev->cfg;
  char tb[128];
  printf("format: team %s\nboards: %d\n", c->format == XQ_TM_SWISS ? "swiss" : c->cycles == 2 ? "rr2" : "rr",
         c->boards);
  if (c->format == XQ_TM_SWISS)
    printf("rounds: %d\nsystem: %s\n", c->rounds, c->system == XQ_PAIR_DUTCH ? "dutch" : "cn");
  printf("board order: %s\nmin players: %d\ngame points: %d/%d/%d\nmatch points: %d/%d/%d", 
         c->board_order == XQ_TM_ORDER_FREE ? "free" : "fixed", c->min_players, c->gp_win, c->gp_draw, c->gp_loss,
         c->mp_win, c->mp_draw, c->mp_loss);
  if (c->home_away) printf(" (a drawn match: home %d, away %d)", c->mp_draw_home, c->mp_draw_away);
  printf("\nwhole-match forfeit: %d game points\nbye: %d game points, %d match points\ntie-breaks: %s\n",
         c->forfeit_match_gp, c->bye_gp, c->bye_mp, tb_text(c, tb, sizeof tb));
  return 0;
}

/* export on a team event: --what standings (the default), pairings (the
 * match sheets of --round R, default the last), crosstable. */
static int cmd_export(tev *t, const xq__topts *o)
{
  const char *what = o->what ? o->what : "standings";
  int kind = !strcmp(what, "standings") ? SH_STANDINGS : !strcmp(what, "pairings") ? SH_MATCHES
           : !strcmp(what, "crosstable") ? SH_CROSS : -1;
  if (!o->format || !strcmp(o->format, "trf") || kind < 0) {
    fprintf(stderr, "xqref tourney export: a team event exports --what standings, pairings or crosstable\n"
                    "with --format text, html, csv or xlsx\n");
    return 2;
  }
  int upto = o->after > 0 ? (int)o->after : o->round > 0 && kind != SH_MATCHES ? (int)o->round : rounds_decided(t->ev);
  return team_sheet(t, o, "export", kind, upto);
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                            */
/* ------------------------------------------------------------------ */

int xq__tourney_team_dispatch(const xq__topts *o, const char *action)
{
  tev t;
  if (tev_open(o, action, &t)) return 1;
  int rc = -1;
  if (!t.ev && strcmp(action, "pair") && strcmp(action, "standings") && strcmp(action, "settings") &&
      strcmp(action, "export")) {
    fprintf(stderr, "xqref tourney %s: %s holds no team event (tourney new --format team-rr|team-swiss)\n", action,
            o->db);
    rc = 1;
  } else if (!t.ev) {
    rc = -1; /* an individual event: the caller goes on */
  } else if (!strcmp(action, "settings")) {
    rc = cmd_settings(&t, o);
  } else if (!strcmp(action, "team")) {
    rc = o->name ? cmd_team(&t, o) : 2;
  } else if (!strcmp(action, "lineup")) {
    rc = cmd_lineup(&t, o);
  } else if (!strcmp(action, "pair")) {
    rc = cmd_pair(&t);
  } else if (!strcmp(action, "match-result")) {
    rc = cmd_match_result(&t, o);
  } else if (!strcmp(action, "team-withdraw")) {
    rc = cmd_withdraw(&t, o);
  } else if (!strcmp(action, "standings")) {
    rc = cmd_standings(&t, o);
  } else if (!strcmp(action, "board-prizes")) {
    rc = cmd_board_prizes(&t, o);
  } else if (!strcmp(action, "export")) {
    rc = cmd_export(&t, o);
  } else if (!strcmp(action, "match-sheet") && o->format) {
    rc = team_sheet(&t, o, action, SH_MATCHES, 0);
  } else if (!strcmp(action, "match-sheet")) {
    for (int r = o->round > 0 ? (int)o->round : 1; r <= (o->round > 0 ? o->round : t.ev->nrounds); r++)
      print_round(&t, r, stdout);
    rc = 0;
  }
  tev_close(&t);
  return rc;
}

int xq__tourney_team_main(const xq__topts *o, const char *action)
{
  int rc = xq__tourney_team_dispatch(o, action);
  return rc < 0 ? 1 : rc;
}
