/*
 * test_simulate.c -- `xqref simulate`: one small event per regulation
 * preset, run on the real server with a fixed seed, and the rules that
 * make each regulation what it is checked in the store it leaves behind
 * (issue 9, part 3): Xinjiang's knockout of the top 8 after round 8 with
 * places 9+ playing on, and its drop-round tie-break; Burqin's lucky
 * prizes at 18th/28th/38th and local prizes won twice; Shaanxi's adjacent
 * first round and withdrawal after two forfeits; Wujiaqu's 1–8 cross
 * knockout after round 10 and Red's duty to vary an early cycle; Tangshan's
 * top-4 final where the Swiss winner picks its semi-final opponent, and
 * the merged women's section; Shaanxi's village-king sub-event, a
 * knockout with no Swiss, drawn by lot with byes, two townships and the
 * final's tie-break games.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knockout.h"
#include "pair/pair.h"
#include "prize.h"
#include "region.h"
#include "sheet/sheet.h"
#include "simulate.h"
#include "simulate_internal.h"
#include "store/store.h"
#include "support.h"
#include "tourney.h"

typedef struct simrun {
  char dir[128];
  char db[192];
  xq_sim_report rep;
  char *out;
  size_t outlen;
  xq_tstore *st;
  xq_tournament *ev;
  xq_ko ko;
  const xq_regulation *r;
} simrun;

/* A fresh directory for the store: in memory when /dev/shm is there (the
 * server syncs every commit; a disk makes the suite slow, not different). */
static void make_dir(simrun *R)
{
  snprintf(R->dir, sizeof R->dir, "/dev/shm/xqref-simtest-XXXXXX");
  if (!mkdtemp(R->dir)) {
    snprintf(R->dir, sizeof R->dir, "/tmp/xqref-simtest-XXXXXX");
    cr_assert_not_null(mkdtemp(R->dir));
  }
  snprintf(R->db, sizeof R->db, "%s/event.db", R->dir);
}

static void run_sim(simrun *R, xq_sim_opts *o)
{
  xq_error err = {0};
  FILE *out = open_memstream(&R->out, &R->outlen);
  cr_assert_not_null(out);
  o->db = R->db;
  o->out = out;
  o->log = NULL;
  int rc = xq_simulate(o, &R->rep, &err);
  fclose(out);
  cr_assert_eq(rc, XQ_OK, "simulate %s: %s", o->preset, err.msg);
  cr_assert_eq(xq_regulation_find(o->preset, &R->r), XQ_OK);
  cr_assert_eq(xq_tstore_open(R->db, 0, &R->st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_load(R->st, &R->ev, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_ko_load(R->st, &R->ko, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(R->ev->n, R->rep.players);
}

/* Small events with short games: the rules apply all the same. */
static void opts_for(xq_sim_opts *o, const char *preset, int players, uint64_t seed)
{
  xq_sim_opts_default(o);
  o->preset = preset;
  o->players = players;
  o->seed = seed;
  o->min_plies = 16;
  o->max_plies = 50;
}

static void done(simrun *R)
{
  xq_tournament_free(R->ev);
  xq_tstore_close(R->st);
  free(R->out);
  const char *sfx[] = {"", "-wal", "-shm", ".admin"};
  char p[256];
  for (size_t i = 0; i < sizeof sfx / sizeof *sfx; i++) {
    snprintf(p, sizeof p, "%s%s", R->db, sfx[i]);
    unlink(p);
  }
  rmdir(R->dir);
}

/* The top `k` of the Swiss standings after `round` are the seeds. */
static void seeds_are_top(const simrun *R, int round, int k)
{
  xq_tstanding *tab = calloc((size_t)R->ev->n, sizeof *tab);
  cr_assert_not_null(tab);
  cr_assert_eq(xq_standings(R->ev, round, tab), XQ_OK);
  /* the players withdrawn before the knockout was seeded (in the round
   * after the cut at the latest) are passed over */
  xq_tournament_apply_withdrawals(R->ev, R->ev->nrounds);
  for (int i = 0, at = 0; i < k; i++, at++) {
    while (at < R->ev->n && R->ev->players[tab[at].id - 1].withdrawn &&
           R->ev->players[tab[at].id - 1].withdrawn <= round + 1)
      at++;
    cr_assert_lt(at, R->ev->n);
    cr_assert_eq(R->ko.seeds[i], tab[at].id, "seed %d is player %d, rank %d after round %d is %d", i + 1,
                 R->ko.seeds[i], at + 1, round, tab[at].id);
  }
  free(tab);
}

static int is_seed(const xq_ko *ko, int id)
{
  for (int i = 0; i < ko->size; i++)
    if (ko->seeds[i] == id) return 1;
  return 0;
}

/* After the cut the seeds sit out the Swiss (result KO) while every other
 * player still in the event is paired (a game, a bye or a forfeit). */
static void swiss_goes_on(simrun *R, int from, int to)
{
  xq_tournament_apply_withdrawals(R->ev, to);
  int paired = 0;
  for (int r = from; r <= to; r++)
    for (int id = 1; id <= R->ev->n; id++) {
      const xq_tslot *s = xq_tournament_slot(R->ev, id, r);
      if (is_seed(&R->ko, id)) {
        cr_assert(s->opp == 0 && s->res == XQ_TR_KO, "seed %d paired in round %d", id, r);
        continue;
      }
      int w = R->ev->players[id - 1].withdrawn;
      if (w && w <= r) continue;
      cr_assert(s->res != XQ_TR_NONE && s->res != XQ_TR_KO, "player %d not paired in round %d", id, r);
      paired += s->opp > 0;
    }
  cr_assert_gt(paired, 0);
}

/* Final places: the knockout's places, then the others in the order of
 * the Swiss standings after the last round. */
static void places_merge(simrun *R)
{
  int n = R->ev->n;
  int *ids = calloc((size_t)n, sizeof *ids), kids[XQ_KO_SIZE_MAX];
  xq_tstanding *tab = calloc((size_t)n, sizeof *tab);
  cr_assert(ids && tab);
  cr_assert_eq(xq_final_places(R->ev, &R->ko, ids), XQ_OK);
  cr_assert_eq(xq_ko_places(&R->ko, kids), 1, "the knockout is not finished");
  for (int i = 0; i < R->ko.size; i++) cr_assert_eq(ids[i], kids[i], "place %d", i + 1);
  cr_assert_eq(xq_standings(R->ev, 0, tab), XQ_OK);
  int k = R->ko.size;
  for (int i = 0; i < n; i++)
    if (!is_seed(&R->ko, tab[i].id)) cr_assert_eq(ids[k++], tab[i].id, "place %d", k);
  free(ids);
  free(tab);
}

static int count_row(void *ctx, const xq_tgame_rec *r)
{
  (void)r;
  ++*(int *)ctx;
  return 0;
}

/* Every knockout game was played on the server: on a knockout table of
 * its own (round XQ_KO_ROUND), which has its rows in the game log. */
static void ko_on_tables(simrun *R)
{
  const xq_ko *ko = &R->ko;
  cr_assert_eq(ko->ntables, ko->ngames, "one knockout table per game");
  for (int i = 0; i < ko->ngames; i++) {
    int k = ko->games[i].table, rows = 0;
    cr_assert(k >= 1 && k <= ko->ntables && ko->tables[k - 1].done, "game %d has no table", i + 1);
    xq_error err = {0};
    cr_assert_eq(xq_tstore_game_scan(R->st, XQ_KO_ROUND, k, count_row, &rows, &err), XQ_OK, "%s", err.msg);
    cr_assert_gt(rows, 0, "knockout table %d has nothing in the game log", k);
  }
}

/* Each match's games follow the regulation: a drawn standard game is
 * followed by the colour-swapped rapid game, and so on until decided. */
static void tiebreak_games(const xq_ko *ko)
{
  int nm = xq_ko_nmatches(ko), extra = 0;
  for (int m = 1; m <= nm; m++) {
    cr_assert_neq(xq_ko_winner(ko, m), 0, "match %d undecided", m);
    const xq_ko_game *prev = NULL;
    for (int i = 0; i < ko->ngames; i++) {
      const xq_ko_game *g = &ko->games[i];
      if (g->match != m) continue;
      if (!prev) cr_assert_eq(g->type, XQ_KG_STANDARD, "match %d starts with a standard game", m);
      else {
        cr_assert(prev->res == 0 && prev->type != XQ_KG_ARMAGEDDON, "match %d went on after a decisive game", m);
        extra++;
        if (prev->type == XQ_KG_STANDARD && g->type == XQ_KG_RAPID)
          cr_assert(g->red == prev->black && g->black == prev->red, "match %d: rapid game not colour-swapped", m);
      }
      prev = g;
    }
    cr_assert_not_null(prev);
  }
  (void)extra;
}

static int count_str(const char *hay, const char *needle)
{
  int n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
  return n;
}

/* Round 1 by numbers, adjacent: 1–2, 4–3, 5–6, 8–7 (odd board: the
 * smaller number is Red, even board: the larger). */
static void round1_adjacent(simrun *R)
{
  xq_tpairing pr = {0};
  xq_error err = {0};
  cr_assert_eq(xq_tstore_pairing(R->st, 1, &pr, &err), XQ_OK, "%s", err.msg);
  int games = 0;
  for (int i = 0; i < pr.nboards; i++) {
    if (!pr.boards[i].black) continue;
    int rn = R->ev->players[pr.boards[i].red - 1].pno, bn = R->ev->players[pr.boards[i].black - 1].pno;
    int lo = 2 * i + 1, hi = 2 * i + 2;
    if (i % 2 == 0) cr_assert(rn == lo && bn == hi, "board %d: %d-%d, want %d-%d", i + 1, rn, bn, lo, hi);
    else cr_assert(rn == hi && bn == lo, "board %d: %d-%d, want %d-%d", i + 1, rn, bn, hi, lo);
    games++;
  }
  cr_assert_geq(games, R->ev->n / 2 - 1);
  xq_tpairing_clear(&pr);
}

/* Round 1 by FIDE Dutch (C.04.3 B.2): the players paired, in the order
 * of their numbers (序号), top half against bottom half, board k the
 * k-th against the (k + m/2)-th. */
static void round1_top_half(simrun *R)
{
  xq_tpairing pr = {0};
  xq_error err = {0};
  cr_assert_eq(xq_tstore_pairing(R->st, 1, &pr, &err), XQ_OK, "%s", err.msg);
  int no[XQ_TOURNEY_PLAYERS_MAX], m = 0;
  for (int i = 0; i < pr.nboards; i++) {
    if (!pr.boards[i].black) continue;
    no[m++] = R->ev->players[pr.boards[i].red - 1].pno;
    no[m++] = R->ev->players[pr.boards[i].black - 1].pno;
  }
  for (int i = 1; i < m; i++) /* insertion sort: a few dozen numbers */
    for (int k = i; k > 0 && no[k - 1] > no[k]; k--) {
      int t = no[k];
      no[k] = no[k - 1];
      no[k - 1] = t;
    }
  for (int i = 0, b = 0; i < pr.nboards; i++) {
    if (!pr.boards[i].black) continue;
    int rn = R->ev->players[pr.boards[i].red - 1].pno, bn = R->ev->players[pr.boards[i].black - 1].pno;
    int lo = rn < bn ? rn : bn, hi = rn < bn ? bn : rn;
    cr_assert(lo == no[b] && hi == no[b + m / 2], "board %d: %d-%d, want %d-%d", i + 1, rn, bn, no[b],
              no[b + m / 2]);
    b++;
  }
  xq_tpairing_clear(&pr);
}

/* ------------------------------------------------------------------ */

Test(simulate, xinjiang_knockout_after_8_places_9_play_on_drop_round)
{
  simrun R = {0};
  xq_sim_opts o;
  make_dir(&R);
  opts_for(&o, "xinjiang2018", 24, 7);
  run_sim(&R, &o);
  round1_top_half(&R); /* by the numbers, not the order of registration */
  cr_assert_eq(R.ko.after, 8);
  cr_assert_eq(R.ko.size, 8);
  cr_assert_eq(R.ko.seeding, XQ_KO_FIXED);
  cr_assert_eq(R.ko.format, XQ_KO_FMT_RAPID_ARMAGEDDON);
  seeds_are_top(&R, 8, 8);
  /* places 9+ play rounds 9–11 of the Swiss while the top 8 play off */
  cr_assert_eq(R.ev->nrounds, 11);
  swiss_goes_on(&R, 9, 11);
  places_merge(&R);
  tiebreak_games(&R.ko);
  ko_on_tables(&R);
  cr_assert_eq(R.rep.ko_games, R.ko.ngames);
  /* 积分、累进分、胜局、犯规、后走局数, then drop round 1, 2, ...: the
   * standings follow points, then progressive score */
  const xq_tconfig *c = &R.ev->cfg;
  cr_assert_eq(c->tb[1], XQ_TB_PS);
  cr_assert_eq(c->tb[c->ntb - 2], XQ_TB_ROUNDBACK_FIRST);
  xq_tstanding *tab = calloc((size_t)R.ev->n, sizeof *tab);
  cr_assert_eq(xq_standings(R.ev, 8, tab), XQ_OK);
  for (int i = 1; i < R.ev->n; i++) {
    cr_assert_geq(tab[i - 1].val[0], tab[i].val[0]);
    if (tab[i - 1].val[0] == tab[i].val[0]) cr_assert_geq(tab[i - 1].val[1], tab[i].val[1], "rank %d", i + 1);
  }
  free(tab);
  /* the report and the printed lists */
  cr_assert_gt(R.rep.moves, 0);
  cr_assert(strstr(R.out, "Knockout") && strstr(R.out, "Final places") && strstr(R.out, "Team standings"));
  /* Xinjiang's cap: prizes for at most 40% of the entrants */
  cr_assert_gt(R.rep.prizes, 0);
  cr_assert_leq(R.rep.prizes, R.ev->n * 40 / 100);
  done(&R);
}

Test(simulate, burqin_lucky_prizes_and_local_prizes_won_twice)
{
  simrun R = {0};
  xq_sim_opts o;
  make_dir(&R);
  opts_for(&o, "burqin2018", 40, 11);
  run_sim(&R, &o);
  round1_top_half(&R);
  cr_assert_eq(R.ko.after, 0, "Burqin has no knockout");
  int n = R.ev->n;
  int *ids = calloc((size_t)n, sizeof *ids);
  xq_prize_table t;
  xq_error err = {0};
  cr_assert_eq(xq_final_places(R.ev, NULL, ids), XQ_OK);
  cr_assert_eq(xq_regulation_prizes(R.r, n, &t, &err), XQ_OK, "%s", err.msg);
  int cap = XQ_AWARDS_MAX(&t, n), naw = 0;
  xq_award *aw = calloc((size_t)cap, sizeof *aw);
  cr_assert_eq(xq_prizes_award(R.ev, ids, &t, aw, cap, &naw), XQ_OK);
  cr_assert_eq(naw, R.rep.prizes, "the printed list is the store's");
  /* lucky prizes at 18th, 28th, 38th: 100 each, and no other place */
  int lucky = 0;
  for (int i = 0; i < naw; i++) {
    if (aw[i].cat != -1) continue;
    cr_assert(aw[i].place == 18 || aw[i].place == 28 || aw[i].place == 38, "lucky prize at %d", aw[i].place);
    cr_assert_eq(aw[i].amount, 100);
    cr_assert_eq(aw[i].id, ids[aw[i].place - 1]);
    lucky++;
  }
  cr_assert_eq(lucky, 3);
  /* Burqin players' prizes go to the best-placed Burqin players, whether or
   * not they also won an open prize: may be won twice */
  int local_cat = -1, open_cat = -1;
  for (int c = 0; c < t.ncats; c++) {
    if (t.cats[c].filter == XQ_PF_LOCAL) local_cat = c;
    if (t.cats[c].filter == XQ_PF_ALL) open_cat = c;
  }
  cr_assert(local_cat >= 0 && open_cat >= 0);
  int locals[64], nl = 0, twice = 0;
  for (int i = 0; i < n && nl < 64; i++)
    if (R.ev->players[ids[i] - 1].local) locals[nl++] = ids[i];
  cr_assert_geq(nl, 6, "the event has Burqin players");
  int got = 0;
  for (int i = 0; i < naw; i++) {
    if (aw[i].cat != local_cat) continue;
    cr_assert_eq(aw[i].id, locals[aw[i].cat_place - 1], "local place %d", aw[i].cat_place);
    got++;
    for (int k = 0; k < naw; k++) twice += aw[k].cat == open_cat && aw[k].id == aw[i].id;
  }
  cr_assert_eq(got, 6);
  cr_assert_gt(twice, 0, "no Burqin player holds both an open and a local prize");
  /* teams: the sum of the members' points, higher first; the top three
   * teams paid 1800, 1500, 1200 */
  cr_assert(strstr(R.out, "Team standings"));
  cr_assert_eq(R.rep.team_prize_total, 1800 + 1500 + 1200);
  free(aw);
  free(ids);
  done(&R);
}

Test(simulate, shaanxi_adjacent_round1_and_withdrawal_after_two_forfeits)
{
  simrun R = {0};
  xq_sim_opts o;
  make_dir(&R);
  opts_for(&o, "shaanxi2019", 20, 13);
  o.absentees = 2;
  o.rate_late = 0;
  run_sim(&R, &o);
  cr_assert_eq(R.ev->cfg.first_round, XQ_FIRST_BY_LOT, "drawn numbers");
  round1_adjacent(&R);
  /* two forfeits in a row: not paired again */
  int gone = 0, checked = 0;
  for (int id = 1; id <= R.ev->n; id++) {
    int floss = 0, out_from = 0;
    for (int r = 1; r <= R.ev->nrounds; r++) {
      const xq_tslot *s = xq_tournament_slot(R.ev, id, r);
      if (out_from) {
        cr_assert(s->opp == 0 && s->res != XQ_TR_PAB, "player %d paired in round %d after two forfeits", id, r);
        continue;
      }
      if (s->res == XQ_TR_FLOSS && ++floss == 2) out_from = r + 1;
    }
    gone += out_from > 0;
    checked += out_from && out_from <= R.ev->nrounds;
  }
  cr_assert_geq(checked, 1, "no player was left out after two forfeits");
  cr_assert_eq(R.rep.withdrawn, gone);
  cr_assert_geq(R.rep.forfeits, 2 * gone, "the absentees forfeited");
  done(&R);
}

/* Every early-cycle order in the game log of the store. */
typedef struct orders {
  int early, against_red, before_25, red_lost_ignoring, black_lost_ignoring;
} orders;

static int scan_orders(void *ctx, const xq_tgame_rec *rec)
{
  orders *o = ctx;
  if (!rec->reply || (!strstr(rec->reply, "must_change") && !strstr(rec->reply, "change_order_ignored"))) return 0;
  cJSON *j = cJSON_Parse(rec->reply);
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "verdict");
  const cJSON *kind = cJSON_GetObjectItemCaseSensitive(v, "verdict");
  const cJSON *reason = cJSON_GetObjectItemCaseSensitive(v, "reason");
  const cJSON *side = cJSON_GetObjectItemCaseSensitive(v, "side");
  const cJSON *ply = cJSON_GetObjectItemCaseSensitive(v, "ply");
  if (cJSON_IsString(kind) && cJSON_IsString(reason) && !strcmp(reason->valuestring, "early_cycle")) {
    o->early++;
    o->against_red += cJSON_IsString(side) && !strcmp(side->valuestring, "red");
    o->before_25 += cJSON_IsNumber(ply) && ply->valueint < 50;
  }
  if (cJSON_IsString(reason) && !strcmp(reason->valuestring, "change_order_ignored") && cJSON_IsString(side)) {
    if (!strcmp(side->valuestring, "red")) o->red_lost_ignoring++;
    else o->black_lost_ignoring++;
  }
  cJSON_Delete(j);
  return 0;
}

Test(simulate, wujiaqu_cross_knockout_after_10_and_red_must_vary)
{
  simrun R = {0};
  xq_sim_opts o;
  make_dir(&R);
  opts_for(&o, "wujiaqu2024", 24, 17);
  o.rate_repetition = 300; /* many opening shuffles */
  run_sim(&R, &o);
  round1_top_half(&R);
  cr_assert_eq(R.ko.after, 10);
  cr_assert_eq(R.ko.size, 8);
  cr_assert_eq(R.ko.format, XQ_KO_FMT_RAPID_BLITZ);
  seeds_are_top(&R, 10, 8);
  /* 1–8, 2–7, 3–6, 4–5 */
  for (int m = 1; m <= 4; m++) {
    int a, b;
    cr_assert_eq(xq_ko_match_players(&R.ko, m, &a, &b), 1);
    cr_assert(a == R.ko.seeds[m - 1] && b == R.ko.seeds[8 - m], "match %d", m);
  }
  cr_assert_eq(R.ev->nrounds, 13);
  swiss_goes_on(&R, 11, 13);
  places_merge(&R);
  tiebreak_games(&R.ko);
  ko_on_tables(&R);
  /* a drawn cycle before move 25: Red (who moved first) must vary */
  orders ord = {0};
  xq_error err = {0};
  cr_assert_eq(xq_tstore_game_scan(R.st, 0, 0, scan_orders, &ord, &err), XQ_OK, "%s", err.msg);
  cr_assert_gt(ord.early, 0, "no early cycle was ruled");
  cr_assert_eq(ord.against_red, ord.early, "an early-cycle order against Black");
  cr_assert_eq(ord.before_25, ord.early);
  cr_assert_gt(ord.red_lost_ignoring, 0, "no Red player lost for repeating on");
  cr_assert_leq(ord.early, R.rep.early_orders);
  done(&R);
}

Test(simulate, tangshan_top4_winner_picks_and_women_merged)
{
  simrun R = {0};
  xq_sim_opts o;
  make_dir(&R);
  opts_for(&o, "tangshan2018", 16, 19);
  o.women = 2;
  run_sim(&R, &o);
  round1_adjacent(&R);
  /* the top 4 after the ninth and last Swiss round */
  cr_assert_eq(R.ev->nrounds, 9);
  cr_assert_eq(R.ko.after, 9);
  cr_assert_eq(R.ko.size, 4);
  cr_assert_eq(R.ko.seeding, XQ_KO_TOP_CHOOSES);
  seeds_are_top(&R, 9, 4);
  /* #1 picks #3 or #4 (the simulated winner takes the lower-rated one);
   * #2 meets the other; a final and a third-place match */
  cr_assert(R.ko.choice == 3 || R.ko.choice == 4);
  const xq_tplayer *p3 = &R.ev->players[R.ko.seeds[2] - 1], *p4 = &R.ev->players[R.ko.seeds[3] - 1];
  cr_assert_eq(R.ko.choice, p4->rating < p3->rating ? 4 : 3);
  int a, b, other = R.ko.choice == 3 ? 4 : 3;
  cr_assert_eq(xq_ko_match_players(&R.ko, 1, &a, &b), 1);
  cr_assert(a == R.ko.seeds[0] && b == R.ko.seeds[R.ko.choice - 1]);
  cr_assert_eq(xq_ko_match_players(&R.ko, 2, &a, &b), 1);
  cr_assert(a == R.ko.seeds[1] && b == R.ko.seeds[other - 1]);
  cr_assert_eq(xq_ko_nmatches(&R.ko), 4);
  tiebreak_games(&R.ko);
  ko_on_tables(&R);
  places_merge(&R);
  int ids[XQ_KO_SIZE_MAX];
  xq_ko_places(&R.ko, ids);
  cr_assert_eq(ids[0], xq_ko_winner(&R.ko, 3), "the final's winner is first");
  cr_assert_eq(ids[2], xq_ko_winner(&R.ko, 4), "the third-place match's winner is third");
  /* the other groups play their own events: not ranked from this one */
  cr_assert_eq(R.rep.women_merged, 0);
  cr_assert_null(strstr(R.out, "Group standings"), "%s", R.out);
  cr_assert(strstr(R.out, "Groups playing their own events (--group NAME): 老年组 seniors, 少年组 juniors, "
                          "儿童组 children"));
  done(&R);
}

/* A group's own event with two women, who rank apart: a women's section
 * of fewer than three merges into the men's (九.3-4). */
Test(simulate, tangshan_women_merged_in_a_groups_event)
{
  simrun R = {0};
  xq_sim_opts o;
  make_dir(&R);
  opts_for(&o, "tangshan2018", 16, 19);
  o.group = "juniors";
  o.women = 2;
  run_sim(&R, &o);
  cr_assert_eq(R.ev->nrounds, 9);
  cr_assert_eq(R.rep.women_merged, 2);
  cr_assert_geq(count_str(R.out, "男女合并（女子不足三人）"), 1);
  cr_assert_eq(count_str(R.out, " 女子（"), 0, "a women's section was listed");
  done(&R);
  /* 八.2 7或9轮: the other reading, 7 rounds */
  simrun R7 = {0};
  make_dir(&R7);
  opts_for(&o, "tangshan2018", 16, 19);
  o.group = "juniors";
  const char *opt[1] = {"group_rounds=7"};
  o.options = opt;
  o.noptions = 1;
  run_sim(&R7, &o);
  cr_assert_eq(R7.ev->nrounds, 7);
  done(&R7);
}

/* Tangshan 七: the groups play apart (分别进行比赛). The seniors' own event:
 * seniors only, no knockout, men and women listed and paid apart (六.2-4),
 * each list 九.3's 600, 500, 400, 300, 200, 200 to places 1-6. */
Test(simulate, tangshan_seniors_play_their_own_event)
{
  simrun R = {0};
  xq_sim_opts o;
  make_dir(&R);
  opts_for(&o, "tangshan2018", 16, 5);
  o.group = "seniors";
  o.women = 4;
  run_sim(&R, &o);
  cr_assert_eq(R.ev->n, 16);
  for (int i = 0; i < R.ev->n; i++)
    cr_assert(strcmp(R.ev->players[i].birth, "1957/12/31") <= 0, "%s born %s", R.ev->players[i].name,
              R.ev->players[i].birth);
  cr_assert_eq(R.ko.after, 0, "the knockout is the open group's");
  cr_assert(strstr(R.ev->name, "老年组"), "%s", R.ev->name);
  /* 六.2 男、女分开录取成绩: a men's list of six (12 men) and a women's
   * (4 women: all four placed), each with 九.3's amounts (奖金不分男女) */
  cr_assert_eq(R.rep.prizes, 6 + 4);
  cr_assert_eq(R.rep.prize_total, 600 + 500 + 400 + 300 + 200 + 200 + 600 + 500 + 400 + 300);
  cr_assert_eq(count_str(R.out, "公开组 open"), 0, "the open group's prizes are not this event's");
  cr_assert_eq(count_str(R.out, "老年组 seniors 女子（4人）"), 1, "%s", R.out);
  done(&R);
}

Test(simulate, same_seed_same_event)
{
  simrun R1 = {0}, R2 = {0};
  xq_sim_opts o;
  make_dir(&R1);
  make_dir(&R2);
  opts_for(&o, "tangshan2018", 14, 23);
  run_sim(&R1, &o);
  opts_for(&o, "tangshan2018", 14, 23);
  run_sim(&R2, &o);
  cr_assert_eq(R1.rep.moves, R2.rep.moves);
  cr_assert_eq(R1.rep.events, R2.rep.events);
  cr_assert_str_eq(R1.out, R2.out);
  done(&R1);
  done(&R2);
}

Test(simulate, refuses_bad_options)
{
  xq_sim_opts o;
  xq_sim_report rep;
  xq_error err = {0};
  xq_sim_opts_default(&o);
  o.preset = "nowhere2030";
  cr_assert_eq(xq_simulate(&o, &rep, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "nowhere2030"));
  o.preset = "shaanxi2019";
  o.players = 101; /* entry limit 100 */
  cr_assert_eq(xq_simulate(&o, &rep, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "100"), "%s", err.msg);
  o.players = 20;
  o.rate_illegal = 800;
  o.rate_flag = 300;
  cr_assert_eq(xq_simulate(&o, &rep, &err), XQ_EINVAL);
  o.rate_illegal = 30;
  o.rate_flag = 20;
  o.group = "open"; /* the open group is the preset's own event */
  cr_assert_eq(xq_simulate(&o, &rep, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "open"), "%s", err.msg);
  xq_test_expect(2, "simulate --preset nowhere2030");
  xq_test_expect(2, "simulate --preset tangshan2018 --group children-of-2030");
  xq_test_expect(0, "simulate --help");
  /* a file the run would make beside its store is there already: refused,
   * and left as it was */
  char db[128], rules[160];
  snprintf(db, sizeof db, "/tmp/xqref-simtest-beside-%d.db", (int)getpid());
  snprintf(rules, sizeof rules, "%s.rules.json", db);
  FILE *f = fopen(rules, "w");
  cr_assert_not_null(f);
  fputs("mine", f);
  fclose(f);
  xq_sim_opts_default(&o);
  o.preset = "shaanxi2019";
  o.players = 20;
  o.db = db;
  cr_assert_eq(xq_simulate(&o, &rep, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "rules.json exists"), "%s", err.msg);
  char *kept = xq_test_slurp(rules);
  cr_assert_str_eq(kept, "mine");
  free(kept);
  cr_assert_neq(access(db, F_OK), 0, "no store made");
  unlink(rules);
}

/* Does the reply of some row of a game say the armageddon turned a draw
 * into Black's win? */
static int armageddon_row(void *ctx, const xq_tgame_rec *r)
{
  if (strstr(r->reply, "armageddon: Black wins")) ++*(int *)ctx;
  return 0;
}

/* Shaanxi 十(二)2, 十二(二)5: the village-king sub-event, a knockout with
 * no Swiss. 13 entrants alternate between two townships (7 and 6), drawn
 * by lot into the two halves of a bracket of 16 (3 byes); every game on a
 * knockout table of its own; the townships' winners meet in the final
 * (20+10), a draw going to the swapped 10+5 and then the armageddon,
 * whose draw is Black's win; each township's places 1-6 paid 300, 200,
 * 100, 50, 50, 50 and the king 200 more. Seed 1 is one whose final goes
 * the whole way. */
Test(simulate, shaanxi_village_king_knockout_without_swiss)
{
  simrun R = {0};
  xq_sim_opts o;
  make_dir(&R);
  opts_for(&o, "shaanxi2019", 13, 1);
  o.group = "village";
  run_sim(&R, &o);
  const xq_ko *ko = &R.ko;
  cr_assert_eq(R.ev->n, 13);
  cr_assert_eq(R.ev->nrounds, 0, "no Swiss round");
  cr_assert_eq(ko->after, XQ_KO_NO_SWISS);
  cr_assert_eq(ko->seeding, XQ_KO_LOT);
  cr_assert_eq(ko->format, XQ_KO_FMT_VILLAGE);
  cr_assert_eq(ko->pools, 2);
  cr_assert_eq(ko->size, 16);
  cr_assert_eq(R.rep.ko_size - R.rep.ko_entrants, 3);
  /* each township's entrants in its own half, byes in the first stage */
  int byes = 0;
  for (int id = 1; id <= 13; id++)
    cr_assert_eq(xq_ko_pool_of(ko, id), (id - 1) % 2, "player %d drawn into the other township's half", id);
  for (int m = 1; m <= ko->size / 2; m++) {
    int a, b;
    if (xq_ko_match_players(ko, m, &a, &b) == 2) {
      cr_assert_neq(a, 0, "match %d: two byes", m);
      byes++;
    }
  }
  cr_assert_eq(byes, 3);
  /* every match decided, each by the regulation's sequence of games, each
   * game at its own table with rows in the game log */
  int nm = xq_ko_nmatches(ko);
  for (int m = 1; m <= nm; m++) cr_assert(xq_ko_decided(ko, m), "match %d undecided", m);
  ko_on_tables(&R);
  cr_assert_eq(ko->ngames, R.rep.ko_games);
  const xq_ko_game *fin[3] = {NULL, NULL, NULL};
  int nfin = 0;
  for (int i = 0; i < ko->ngames; i++) {
    const xq_ko_game *g = &ko->games[i];
    int k = 0;
    for (int j = 0; j < i; j++) k += ko->games[j].match == g->match;
    static const int seq[3] = {XQ_KG_STANDARD, XQ_KG_RAPID, XQ_KG_ARMAGEDDON};
    cr_assert(k < 3 && g->type == seq[k], "match %d game %d is %s", g->match, k + 1, xq_ko_gtype_name(g->type));
    if (g->match == nm) fin[nfin++] = g;
  }
  cr_assert_eq(nfin, 3, "seed 1: the final drawn twice");
  cr_assert_str_eq(xq_ko_game_time_control(ko, nm, fin[0]->type), "20+10");
  cr_assert_str_eq(xq_ko_game_time_control(ko, 1, XQ_KG_STANDARD), "20m+5m SD");
  cr_assert_eq(fin[0]->res, 0);
  cr_assert(fin[1]->red == fin[0]->black && fin[1]->black == fin[0]->red, "和棋换先");
  cr_assert_str_eq(xq_ko_game_time_control(ko, nm, fin[1]->type), "10+5");
  cr_assert_eq(fin[1]->res, 0);
  cr_assert_str_eq(xq_ko_game_time_control(ko, nm, fin[2]->type), "R6+3/B4+3");
  int king = xq_ko_winner(ko, nm), conv = 0;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_game_scan(R.st, XQ_KO_ROUND, fin[2]->table, armageddon_row, &conv, &err), XQ_OK);
  /* seed 1: the armageddon drawn too, which the server records as
   * Black's win (和棋黑胜) */
  cr_assert_geq(conv, 1, "the final's armageddon was not drawn");
  cr_assert_eq(fin[2]->res, -1);
  cr_assert_eq(king, fin[2]->black, "a drawn armageddon is Black's");
  cr_assert_neq(xq_ko_pool_of(ko, fin[0]->red), xq_ko_pool_of(ko, fin[0]->black), "the townships' winners meet");
  /* prizes: 300, 200, 100, 50 x3 a township, 200 to the king */
  cr_assert_eq(R.rep.prizes, 2 * 6 + 1);
  cr_assert_eq(R.rep.prize_total, 2 * (300 + 200 + 100 + 3 * 50) + 200);
  cr_assert_eq(R.rep.king_bonus, 200);
  cr_assert_str_eq(R.rep.king, R.ev->players[king - 1].name);
  char line[256];
  snprintf(line, sizeof line, "棋王 king (总决赛 final)");
  cr_assert_eq(count_str(R.out, line), 2, "the king's prize and its subtotal:\n%s", R.out);
  cr_assert_eq(count_str(R.out, "乡镇一 township 1 places"), 1);
  cr_assert_eq(count_str(R.out, "乡镇二 township 2 places"), 1);
  cr_assert_eq(count_str(R.out, "Swiss standings"), 0);
  /* the places and township sheets: the stage reached and the bracket
   * position, no Swiss score columns (积分, 胜-和-负) */
  const char *sheets = strstr(R.out, "Final places 最终名次 (knockout order)");
  cr_assert_not_null(sheets, "%s", R.out);
  const char *end = strstr(sheets, "Prizes 奖金");
  cr_assert_not_null(end);
  size_t len = (size_t)(end - sheets);
  char *part = strndup(sheets, len);
  cr_assert_not_null(part);
  cr_assert_eq(count_str(part, "签位"), 3, "a bracket position column in each of the 3 lists:\n%s", part);
  cr_assert_eq(count_str(part, "淘汰赛成绩"), 3);
  cr_assert_eq(count_str(part, "积分"), 0, "Swiss points in a knockout-only sheet:\n%s", part);
  cr_assert_eq(count_str(part, "胜-和-负"), 0, "Swiss W-D-L in a knockout-only sheet:\n%s", part);
  cr_assert_eq(count_str(part, "总决赛胜"), 2, "the king, in the places and in his township's:\n%s", part);
  cr_assert_eq(count_str(part, "总决赛负"), 2);
  free(part);
  /* each township's first is the finalist of its half: 300 each */
  int w[XQ_KO_SIZE_MAX];
  for (int p = 0; p < 2; p++) {
    cr_assert_eq(xq_ko_pool_places(ko, p, w), p ? 6 : 7);
    cr_assert(w[0] == fin[0]->red || w[0] == fin[0]->black, "township %d's first did not reach the final", p + 1);
  }
  done(&R);
}

Test(simulate, village_king_refuses_a_field_it_cannot_draw)
{
  xq_sim_opts o;
  xq_sim_report rep;
  xq_error err = {0};
  xq_sim_opts_default(&o);
  o.preset = "shaanxi2019";
  o.group = "village";
  o.players = 1;
  cr_assert_eq(xq_simulate(&o, &rep, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "entrants"), "%s", err.msg);
  o.players = XQ_KO_SIZE_MAX + 1;
  cr_assert_eq(xq_simulate(&o, &rep, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "128"), "%s", err.msg);
  xq_test_expect(2, "simulate --preset shaanxi2019 --group village --players 1");
}

/* ------------------------------------------------------------------ */
/* The regulations to the letter (issue 23)                            */
/* ------------------------------------------------------------------ */

/* The awards of the preset's table over the final places (free). */
static xq_award *final_awards(simrun *R, xq_prize_table *t, int *ids, int *naw)
{
  xq_error err = {0};
  cr_assert_eq(xq_final_places(R->ev, R->ko.after ? &R->ko : NULL, ids), XQ_OK);
  cr_assert_eq(xq_regulation_prizes(R->r, R->ev->n, t, &err), XQ_OK, "%s", err.msg);
  int cap = XQ_AWARDS_MAX(t, R->ev->n);
  xq_award *aw = calloc((size_t)cap, sizeof *aw);
  cr_assert_eq(xq_prizes_award(R->ev, ids, t, aw, cap, naw), XQ_OK);
  return aw;
}

/* Xinjiang 七, 十(一) 老年组和公开组同场竞技, 九(三) the 11 rounds of
 * 公开组、老年组: the junior groups play events of their own. The open
 * event has no junior; its prizes go down the final places. */
Test(simulate, xinjiang_juniors_play_their_own_events)
{
  simrun R = {0};
  xq_sim_opts o;
  make_dir(&R);
  opts_for(&o, "xinjiang2018", 60, 7);
  run_sim(&R, &o);
  round1_top_half(&R); /* board 1 is number 1, not registration 39 v 21 */
  int n = R.ev->n, ids[60], naw, open = 0;
  xq_prize_table t;
  xq_award *aw = final_awards(&R, &t, ids, &naw);
  for (int id = 1; id <= n; id++) {
    cr_assert_leq(strcmp(R.ev->players[id - 1].birth, "2001/12/31"), 0, "junior %s (born %s) in the open event",
                  R.ev->players[id - 1].name, R.ev->players[id - 1].birth);
    open++;
  }
  for (int i = 0; i < R.ko.size; i++)
    cr_assert_leq(strcmp(R.ev->players[R.ko.seeds[i] - 1].birth, "2001/12/31"), 0, "a junior seeded");
  /* 十(一): the open table for the open group and the seniors, 40% of
   * them, down the final places; no junior group's list in this event */
  int paid = 0;
  for (int i = 0; i < naw; i++) {
    cr_assert_eq(aw[i].cat, 0, "a prize of %s in the open event", t.cats[aw[i].cat].name);
    cr_assert_eq(aw[i].place, aw[i].cat_place, "open prize %d to place %d", aw[i].cat_place, aw[i].place);
    paid++;
  }
  cr_assert_eq(paid, open * 40 / 100 < 40 ? open * 40 / 100 : 40);
  cr_assert_eq(R.rep.prizes, naw);
  /* a board a round: played or forfeited (the knockout's games apart) */
  cr_assert_eq(R.rep.boards, R.rep.forfeited_boards + R.rep.games - R.rep.ko_games);
  cr_assert_leq(R.rep.forfeited_boards, R.rep.forfeits);
  /* 补充规定 八: offers out of one's own time are refused */
  cr_assert_gt(R.rep.offers_refused, 0);
  free(aw);
  done(&R);
}

/* Issue 33: at 40, 60 and 150 players, seeds 1-10, the open event's
 * entrants are open and senior players only (so no board, seed or open
 * prize of a junior), and the store's entry rule takes each of them. */
Test(simulate, xinjiang_open_event_entrants_have_no_junior)
{
  const xq_regulation *r;
  cr_assert_eq(xq_regulation_find("xinjiang2018", &r), XQ_OK);
  xq_tgroup g[XQ_REG_GROUPS_MAX];
  int ng = 0;
  cr_assert_eq(xq__simulate_final_open_groups(r, g, XQ_REG_GROUPS_MAX, &ng), XQ_OK);
  cr_assert_eq(ng, 2, "公开组 and 老年组");
  static const int sizes[] = {40, 60, 150};
  xq_tplayer *pl = calloc(150, sizeof *pl);
  xq_prize_table *pt = calloc(1, sizeof *pt);
  cr_assert(pl && pt);
  for (int si = 0; si < 3; si++)
    for (uint64_t seed = 1; seed <= 10; seed++) {
      cr_assert_eq(xq__simulate_final_reg_prizes(r, sizes[si], pt), XQ_OK);
      xq__simulate_players_make(r, g, ng, pt, sizes[si], -1, seed, pl);
      for (int i = 0; i < sizes[si]; i++) {
        xq_error err = {0};
        char warn[512];
        cr_assert_leq(strcmp(pl[i].birth, "2001/12/31"), 0, "%d players, seed %d: %s born %s", sizes[si], (int)seed,
                      pl[i].name, pl[i].birth);
        cr_assert_eq(xq_regulation_entry(r->title, &pl[i], warn, sizeof warn, &err), XQ_OK, "%s", err.msg);
        cr_assert_str_empty(warn);
      }
    }
  free(pl);
  free(pt);
}

/* A junior group's own event: its players only, no knockout, its list. */
Test(simulate, xinjiang_junior_group_event)
{
  simrun R = {0};
  xq_sim_opts o;
  make_dir(&R);
  opts_for(&o, "xinjiang2018", 16, 3);
  o.group = "12岁组";
  run_sim(&R, &o);
  for (int i = 0; i < R.ev->n; i++)
    cr_assert(strcmp(R.ev->players[i].birth, "2006/01/01") >= 0 && strcmp(R.ev->players[i].birth, "2007/12/31") <= 0,
              "%s born %s", R.ev->players[i].name, R.ev->players[i].birth);
  cr_assert_eq(R.ko.after, 0, "the knockout is the open event's");
  cr_assert_eq(count_str(R.out, "公开组 open"), 0, "the open group's prizes are not this event's");
  done(&R);
}

Test(simulate, burqin_teams_are_altays_and_declined_offers_stand)
{
  simrun R = {0};
  xq_sim_opts o;
  make_dir(&R);
  opts_for(&o, "burqin2018", 60, 7);
  run_sim(&R, &o);
  xq_team_rule rule;
  cr_assert_eq(xq_regulation_team_rule(R.r, &rule), XQ_OK);
  int ids[60], nt;
  cr_assert_eq(xq_final_places(R.ev, NULL, ids), XQ_OK);
  xq_team_row rows[64];
  cr_assert_eq(xq_team_standings_rule(R.ev, ids, &rule, rows, 64, &nt), XQ_OK);
  cr_assert_gt(nt, 0);
  for (int t = 0; t < nt; t++)
    for (int k = 0; k < rows[t].nmembers; k++)
      cr_assert(xq_region_within(R.ev->players[rows[t].members[k] - 1].region, "阿勒泰"), "%s", rows[t].team);
  /* the simulated field has teams from outside Altay too: not listed */
  int outside = 0;
  for (int id = 1; id <= R.ev->n; id++) {
    const xq_tplayer *p = &R.ev->players[id - 1];
    outside += p->team[0] && !xq_region_within(p->region, "阿勒泰");
  }
  cr_assert_gt(outside, 0);
  cr_assert_null(strstr(R.out, "乌鲁木齐一队"), "an Urumqi team in the team list");
  /* 补充规定 2: a declined offer stands unless the clearly better side
   * offered short of time; each ruling counted once */
  cr_assert_gt(R.rep.offers_declined, R.rep.arbiter_rulings);
  xq_sim_report rep = {0};
  xq__simulate_games_count(&rep, "needs_arbiter", "draw_offer", 10);
  cr_assert_eq(rep.arbiter_rulings, 0, "play_boards counts the ruling, not the verdict too");
  done(&R);
}

Test(simulate, tangshan_teams_on_the_swiss_standings)
{
  simrun R = {0};
  xq_sim_opts o;
  make_dir(&R);
  opts_for(&o, "tangshan2018", 40, 7);
  run_sim(&R, &o);
  xq_team_rule rule;
  cr_assert_eq(xq_regulation_team_rule(R.r, &rule), XQ_OK);
  cr_assert_eq(rule.basis, XQ_TEAM_BASIS_SWISS);
  xq_tstanding s[40];
  cr_assert_eq(xq_standings(R.ev, 9, s), XQ_OK);
  int swiss_place[41] = {0};
  for (int i = 0; i < R.ev->n; i++) swiss_place[s[i].id] = i + 1;
  int ids[40], nt;
  cr_assert_eq(xq_team_order(R.ev, NULL, rule.basis, ids), XQ_OK);
  xq_team_row rows[64];
  cr_assert_eq(xq_team_standings_rule(R.ev, ids, &rule, rows, 64, &nt), XQ_OK);
  cr_assert_gt(nt, 0);
  for (int t = 0; t < nt; t++) {
    long sum = 0;
    for (int k = 0; k < rows[t].nmembers; k++) sum += swiss_place[rows[t].members[k]];
    cr_assert_eq(rows[t].value, sum, "%s", rows[t].team);
  }
  cr_assert(strstr(R.out, "按预赛成绩"));
  done(&R);
}

/* A double round robin of ten (--format rr2) on the real server: 18
 * rounds, every round the table's by the numbers drawn, everyone meets
 * everyone twice with colours swapped, every game has a result, the
 * points add up to two per game, the stored event replays to the
 * standings the run printed, and the cross table is among its lists. An
 * odd count (7, single) gives each entrant one bye. */
Test(simulate, a_double_round_robin_plays_the_table_on_the_server)
{
  simrun R = {0};
  xq_sim_opts o;
  make_dir(&R);
  opts_for(&o, NULL, 10, 11);
  o.preset = "wujiaqu2024";
  o.format = 2;
  run_sim(&R, &o);
  xq_tournament *ev = R.ev;
  cr_assert_eq(ev->cfg.format, XQ_FORMAT_RR);
  cr_assert_eq(ev->nrounds, 18);
  cr_assert_eq(ev->cfg.rounds, 18);
  cr_assert(R.rep.round_robin && R.rep.ko_games == 0);
  int by_no[11] = {0}, total = 0;
  for (int id = 1; id <= 10; id++) by_no[ev->players[id - 1].pno] = id;
  for (int r = 1; r <= 18; r++) {
    xq_tboard b[8];
    cr_assert_eq(xq_rr_round(10, 2, 1, r, b), 5);
    for (int k = 0; k < 5; k++) {
      const xq_tslot *s = xq_tournament_slot(ev, by_no[b[k].red], r);
      cr_assert(s->opp == by_no[b[k].black] && s->colour == XQ_TC_RED, "round %d board %d", r, k + 1);
      cr_assert_neq(s->res, XQ_TR_NONE, "round %d board %d has a result", r, k + 1);
    }
  }
  for (int id = 1; id <= 10; id++) total += xq_tournament_points(ev, id, 18);
  cr_assert_eq(total, 90 * 4, "two points a game, in half-units: %d", total);
  /* the standings printed are the stored event's */
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cr_assert_eq(xq_sheet_standings(ev, 0, XQ_SHEET_TEXT, XQ_LANG_ZH, f), XQ_OK);
  fclose(f);
  const char *rows = strstr(buf, "名次");
  cr_assert(rows && strstr(R.out, rows), "the run's standings are the store's:\n%s", buf);
  cr_assert(strstr(R.out, "交叉表"), "%s", R.out);
  free(buf);
  done(&R);

  make_dir(&R);
  opts_for(&o, NULL, 7, 12);
  o.format = 1;
  o.preset = "wujiaqu2024";
  run_sim(&R, &o);
  cr_assert_eq(R.ev->nrounds, 7);
  for (int id = 1; id <= 7; id++) {
    int byes = 0;
    for (int r = 1; r <= 7; r++) {
      const xq_tslot *s = xq_tournament_slot(R.ev, id, r);
      if (s->res != XQ_TR_PAB) continue;
      byes++;
      cr_assert_eq(xq_tslot_points(R.ev, s), 0, "a round robin's bye is worth nothing");
    }
    cr_assert_eq(byes, 1, "player %d sat out %d rounds", id, byes);
  }
  done(&R);
  /* 26 twice would be 50 rounds; 2 is no round robin; no group's event */
  xq_sim_report rep;
  xq_error err = {0};
  const struct { int players, format; const char *group, *says; } bad[] = {
    {26, 2, NULL, "3..25 entrants"}, {2, 1, NULL, "3..50 entrants"}, {10, 1, "seniors", "without --group"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    opts_for(&o, "tangshan2018", bad[i].players, 1);
    o.format = bad[i].format;
    o.group = bad[i].group;
    cr_assert_eq(xq_simulate(&o, &rep, &err), XQ_EINVAL, "case %zu", i);
    cr_assert(strstr(err.msg, bad[i].says), "case %zu: %s", i, err.msg);
  }
}

/* Four groups of six into a knockout of eight (--format rr --groups 4
 * --ko 8) on the real server: each group a round robin of five rounds,
 * no game between groups, then the first two of each group crossed:
 * every first-stage match a group's winner against another group's
 * runner-up, the two of one group in opposite halves; the knockout
 * played to its final. */
Test(simulate, groups_of_six_cross_into_a_knockout_of_eight)
{
  simrun R = {0};
  xq_sim_opts o;
  make_dir(&R);
  opts_for(&o, "wujiaqu2024", 24, 5);
  o.format = 1;
  o.rr_groups = 4;
  o.ko_size = 8;
  run_sim(&R, &o);
  xq_tournament *ev = R.ev;
  cr_assert_eq(ev->cfg.rr_groups, 4);
  cr_assert_eq(ev->nrounds, 5);
  for (int id = 1; id <= ev->n; id++)
    for (int r = 1; r <= 5; r++) {
      const xq_tslot *s = xq_tournament_slot(ev, id, r);
      cr_assert(s->opp && xq_rr_group_of(ev, s->opp) == xq_rr_group_of(ev, id), "P%d round %d", id, r);
    }
  int place[XQ_TOURNEY_PLAYERS_MAX + 1] = {0};
  for (int g = 0; g < 4; g++) {
    int *ids;
    xq_tournament *sub = xq_rr_group_event(ev, g, &ids);
    xq_tstanding s[6];
    cr_assert_eq(xq_standings(sub, 0, s), XQ_OK);
    for (int i = 0; i < sub->n; i++) place[ids[s[i].id - 1]] = s[i].rank;
    free(ids);
    xq_tournament_free(sub);
  }
  cr_assert_eq(R.ko.size, 8);
  int half_of_place[4][3] = {{0}}; /* [group][place]: 1 (matches 1 and 4 meet next) or 2 */
  for (int m = 1; m <= 4; m++) {
    int a, b;
    cr_assert_geq(xq_ko_match_players(&R.ko, m, &a, &b), 1);
    cr_assert(place[a] == 1 && place[b] == 2, "match %d: a winner v a runner-up (%d, %d)", m, place[a], place[b]);
    cr_assert_neq(xq_rr_group_of(ev, a), xq_rr_group_of(ev, b), "match %d: of two groups", m);
    half_of_place[xq_rr_group_of(ev, a)][1] = half_of_place[xq_rr_group_of(ev, b)][2] = m == 1 || m == 4 ? 1 : 2;
  }
  for (int g = 0; g < 4; g++)
    cr_assert_neq(half_of_place[g][1], half_of_place[g][2], "group %c's two meet in the final at the earliest", 'A' + g);
  int champion = xq_ko_winner(&R.ko, 7);
  cr_assert(champion >= 1, "the final is decided");
  cr_assert(strstr(R.out, "A组 交叉表") && strstr(R.out, "D组 交叉表"), "%s", R.out);
  done(&R);
}
