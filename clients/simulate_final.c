/*
 * simulate_final.c -- the end of a simulated event (docs/simulate.md §5): the
 * final places (knockout places first, docs/tourney.md, "Knockout stage"), the Swiss
 * standings, team standings, group standings (men's and women's sections
 * where the regulation ranks them apart; a women's section under
 * XQ_WOMEN_SECTION_MIN merges into the men's) and the prize list, each as
 * text on o->out and as an HTML page in o->out_dir.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sheet/sheet.h"
#include "simulate_internal.h"

int xq__simulate_final_reg_prizes(const xq_regulation *r, int entrants, xq_prize_table *t)
{
  return xq_regulation_prizes(r, entrants, t, NULL);
}

int xq__simulate_final_reg_groups(const xq_regulation *r, xq_tgroup *out, int cap, int *n)
{
  return xq_regulation_groups(r, out, cap, n, NULL);
}

int xq__simulate_final_open_groups(const xq_regulation *r, xq_tgroup *out, int cap, int *n)
{
  int rc = xq_regulation_groups(r, out, cap, n, NULL);
  if (rc || !*n) return rc;
  int k = 1;
  for (int i = 1; i < *n; i++)
    if (!out[i].apart) out[k++] = out[i];
  *n = k;
  return XQ_OK;
}


/* One list, as text to o->out and as HTML to DIR/name.html. `write` is
 * called once per format. */
typedef int (*sheet_fn)(void *ctx, int format, FILE *f);

static int emit(const xq_sim_opts *o, const char *name, sheet_fn fn, void *ctx, xq_error *err)
{
  int rc = XQ_OK;
  if (o->out) {
    rc = fn(ctx, XQ_SHEET_TEXT, o->out);
    fputc('\n', o->out);
  }
  if (!rc && o->out_dir) {
    char path[XQ_SIM_PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s.html", o->out_dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
      snprintf(err->msg, sizeof err->msg, "cannot write %.80s: %.50s", path, strerror(errno));
      return err->code = XQ_EIO;
    }
    rc = fn(ctx, XQ_SHEET_HTML, f);
    if (fclose(f) && !rc) rc = XQ_EIO;
  }
  if (rc && !err->msg[0]) {
    snprintf(err->msg, sizeof err->msg, "the %.20s list: %.80s", name, xq_strerror(rc));
    err->code = rc;
  }
  return rc;
}

typedef struct fin {
  const xq_sim_opts *o;
  const xq_regulation *r;
  xq_tournament *ev;
  int *places;          /* ids in final-place order */
  int *place_of;        /* [id] = final place */
  xq_team_row *teams;
  int nteams, team_mode;
  xq_team_rule team_rule;
  xq_prize_table *pt;
  xq_award *aw;
  int naw;
  xq_tgroup groups[XQ_REG_GROUPS_MAX];
  int ngroups;
} fin;

static int w_places(void *ctx, int format, FILE *f)
{
  fin *F = ctx;
  return xq_sheet_places(F->ev, "Final places 最终名次", F->places, NULL, F->ev->n, format, XQ_LANG_ZH, f);
}

static int w_standings(void *ctx, int format, FILE *f)
{
  fin *F = ctx;
  if (format == XQ_SHEET_TEXT)
    fprintf(f, F->ev->cfg.format == XQ_FORMAT_RR ? "Round robin standings 循环赛成绩\n" : "Swiss standings 积分编排成绩\n");
  return xq_sheet_standings(F->ev, 0, format, XQ_LANG_ZH, f);
}

static int w_cross(void *ctx, int format, FILE *f)
{
  fin *F = ctx;
  return xq_sheet_crosstable(F->ev, 0, format, XQ_LANG_ZH, f);
}

static int w_teams(void *ctx, int format, FILE *f)
{
  fin *F = ctx;
  if (format == XQ_SHEET_TEXT) {
    fprintf(f, "Team standings 团体成绩");
    if (F->team_rule.basis == XQ_TEAM_BASIS_SWISS) fprintf(f, " (on the Swiss standings 按预赛成绩)");
    if (F->team_rule.area[0]) fprintf(f, " (teams of %s only)", F->team_rule.area);
    fputc('\n', f);
  }
  return xq_sheet_teams(F->ev, F->teams, F->nteams, F->team_mode, format, XQ_LANG_ZH, f);
}

static int w_prizes(void *ctx, int format, FILE *f)
{
  fin *F = ctx;
  if (format == XQ_SHEET_TEXT) fprintf(f, "Prizes 奖金\n");
  int rc = xq_sheet_prizes(F->ev, F->pt, F->aw, F->naw, format, XQ_LANG_ZH, f);
  int unstated = 0;
  for (int i = 0; i < F->naw; i++) unstated |= F->aw[i].cat >= 0 && !F->aw[i].amount;
  if (!rc && unstated && format == XQ_SHEET_TEXT)
    fprintf(f, "(\"-\": a place the regulation awards without a stated amount)\n");
  return rc;
}

/* The group standings: every group but the first (the open group is the
 * final places), members in final-place order with their overall place;
 * men and women apart where the regulation ranks them so (Tangshan
 * 六.2-4), a women's section under three merged (九.3-4). */
static int w_groups(void *ctx, int format, FILE *f)
{
  fin *F = ctx;
  if (format == XQ_SHEET_TEXT) fprintf(f, "Group standings 分组成绩\n");
  return xq_sheet_groups(F->ev, F->places, F->groups + 1, F->ngroups - 1, format, XQ_LANG_ZH, f);
}

/* The titles and qualifying places of the regulation (xq_regulation_honours:
 * Xinjiang 十(二), Shaanxi 十二(三)) over the final places, as text. */
static int honours_text(FILE *f, const xq_regulation *r, const xq_tournament *ev, const int *places)
{
  xq_prize_table *t = calloc(1, sizeof *t);
  if (!t) return XQ_ENOMEM;
  int rc = xq_regulation_honours(r, t, NULL), na = 0;
  xq_award *aw = NULL;
  if (!rc && t->ncats) {
    int cap = XQ_AWARDS_MAX(t, ev->n);
    aw = calloc((size_t)cap, sizeof *aw);
    rc = aw ? xq_prizes_award(ev, places, t, aw, cap, &na) : XQ_ENOMEM;
  }
  if (!rc && t->ncats) {
    fprintf(f, "Titles and qualification 称号与资格\n");
    for (int c = 0; c < t->ncats; c++) {
      int k = 0;
      const char *cl = t->cats[c].clause;
      /* a clause shared with the list above is said once */
      if (cl && (!c || !t->cats[c - 1].clause || strcmp(cl, t->cats[c - 1].clause))) fprintf(f, "[%s]\n", cl);
      fprintf(f, "%s\n", t->cats[c].name);
      for (int i = 0; i < na; i++) {
        if (aw[i].cat != c) continue;
        const xq_tplayer *p = &ev->players[aw[i].id - 1];
        fprintf(f, "  %d  (overall %d)  %s  %s%squalifies\n", aw[i].cat_place, aw[i].place, p->name,
                aw[i].cat_place == 1 && t->cats[c].title ? t->cats[c].title : "",
                aw[i].cat_place == 1 && t->cats[c].title ? ", " : "");
        k++;
      }
      if (!k) fprintf(f, "  (no player of this list)\n");
    }
    fputc('\n', f);
  }
  free(aw);
  free(t);
  return rc;
}

static void ko_text(FILE *f, const xq_tournament *ev, const xq_ko *ko)
{
  int only = ko->after == XQ_KO_NO_SWISS;
  if (only)
    fprintf(f, "Knockout 淘汰赛 (no Swiss before it): %d entrants drawn by lot into a bracket of %d (%d byes)%s,"
            " games of format %s", xq_ko_entrants(ko), ko->size, ko->size - xq_ko_entrants(ko),
            ko->pools > 1 ? ", a half per township" : "", xq_ko_format_name(ko->format));
  else
    fprintf(f, "Knockout 淘汰赛: top %d after round %d, %s, tie-breaks %s", ko->size, ko->after,
            xq_ko_seeding_name(ko->seeding), xq_ko_format_name(ko->format));
  if (ko->choice) fprintf(f, "; the Swiss winner chose seed %d as its semi-final opponent", ko->choice);
  fputc('\n', f);
  int nm = xq_ko_nmatches(ko);
  for (int m = 1; m <= nm; m++) {
    int a, b, k = xq_ko_match_players(ko, m, &a, &b);
    if (k == 2 && a) fprintf(f, "  match %d (stage %d): %s has a bye\n", m, xq_ko_stage(ko, m), ev->players[a - 1].name);
    if (k != 1) continue;
    int w = xq_ko_winner(ko, m);
    fprintf(f, "  match %d (stage %d%s): %s v %s:", m, xq_ko_stage(ko, m),
            only && m == nm ? ", final 总决赛" : "", ev->players[a - 1].name, ev->players[b - 1].name);
    for (int i = 0; i < ko->ngames; i++) {
      const xq_ko_game *g = &ko->games[i];
      if (g->match != m) continue;
      fprintf(f, " %s", xq_ko_gtype_name(g->type));
      /* a knockout-only event shows each game's clock (the final's own) */
      if (only) fprintf(f, " %s", xq_ko_game_time_control(ko, m, g->type));
      fprintf(f, " %s-%s %s%s;", ev->players[g->red - 1].name, ev->players[g->black - 1].name,
              g->res > 0 ? "1-0" : g->res < 0 ? "0-1" : "=",
              !g->res && g->type == XQ_KG_ARMAGEDDON ? " (Black wins)" : "");
    }
    fprintf(f, " winner %s\n", w ? ev->players[w - 1].name : "-");
  }
  fputc('\n', f);
}

/* ------------------------------------------------------------------ */
/* A knockout-only sub-event (Shaanxi 乡村棋王): township places, prizes */
/* ------------------------------------------------------------------ */

typedef struct vfin {
  xq_tournament *ev;
  const xq_ko *ko;
  const xq_ko_event *e;
  int *places, *place_of;     /* the knockout's places, [id] = place */
  int pool_ids[XQ_KO_POOLS_MAX][XQ_KO_SIZE_MAX];
  int npool[XQ_KO_POOLS_MAX];
  int *overall;               /* scratch: overall places of one pool's list */
  xq_prize_table *pt;
  xq_award *aw;
  int naw;
} vfin;

static int w_vplaces(void *ctx, int format, FILE *f)
{
  vfin *V = ctx;
  return xq_sheet_ko_places(V->ev, V->ko, "Final places 最终名次 (knockout order)", V->places, NULL, V->ev->n,
                            format, XQ_LANG_ZH, f);
}

/* Each township's places: its own knockout's order (its winner first),
 * with the place in the whole knockout beside it. */
static int w_townships(void *ctx, int format, FILE *f)
{
  vfin *V = ctx;
  int rc = XQ_OK;
  for (int p = 0; p < V->ko->pools && !rc; p++) {
    char title[XQ_TOURNEY_FIELD_MAX + 32];
    snprintf(title, sizeof title, "%s places 名次", V->e->pool_names[p]);
    for (int i = 0; i < V->npool[p]; i++) V->overall[i] = V->place_of[V->pool_ids[p][i]];
    rc = xq_sheet_ko_places(V->ev, V->ko, title, V->pool_ids[p], V->overall, V->npool[p], format, XQ_LANG_ZH, f);
    if (!rc && format == XQ_SHEET_TEXT && p + 1 < V->ko->pools) fputc('\n', f);
  }
  return rc;
}

static int w_vprizes(void *ctx, int format, FILE *f)
{
  vfin *V = ctx;
  if (format == XQ_SHEET_TEXT) fprintf(f, "Prizes 奖金 (%s)\n", V->e->name);
  return xq_sheet_prizes(V->ev, V->pt, V->aw, V->naw, format, XQ_LANG_ZH, f);
}

/* The prize list of the sub-event: a category per pool, its places paid
 * the sub-event's amounts (十二(二)5: 300, 200, 100, 50 ×3), and the
 * king's bonus to the winner of the pools' final (另加200元). */
static int village_prizes(vfin *V)
{
  const xq_ko_event *e = V->e;
  xq_prize_table *t = V->pt;
  memset(t, 0, sizeof *t);
  for (int p = 0; p < V->ko->pools; p++) {
    xq_prize_cat *c = &t->cats[t->ncats++];
    snprintf(c->name, sizeof c->name, "%s %s", e->name, e->pool_names[p]);
    c->nplaces = e->nplaces;
    memcpy(c->amount, e->amount, sizeof *e->amount * (size_t)e->nplaces);
    for (int i = 0; i < e->nplaces && i < V->npool[p]; i++)
      V->aw[V->naw++] = (xq_award){V->pool_ids[p][i], V->place_of[V->pool_ids[p][i]], p, i + 1, e->amount[i], 0};
  }
  int king = xq_ko_winner(V->ko, xq_ko_nmatches(V->ko));
  if (e->final_bonus && king) {
    xq_prize_cat *c = &t->cats[t->ncats++];
    snprintf(c->name, sizeof c->name, "棋王 king (总决赛 final)");
    c->nplaces = 1;
    c->amount[0] = e->final_bonus;
    c->repeat = 1;
    V->aw[V->naw++] = (xq_award){king, V->place_of[king], t->ncats - 1, 1, e->final_bonus, 0};
  }
  return XQ_OK;
}

static int village_final(const xq_sim_opts *o, const xq_regulation *r, const xq_ko_event *e, xq_tstore *st,
                         xq_sim_report *rep, xq_error *err)
{
  vfin V;
  memset(&V, 0, sizeof V);
  V.e = e;
  xq_ko *ko = malloc(sizeof *ko);
  int rc = ko ? xq_tstore_load(st, &V.ev, err) : XQ_ENOMEM;
  if (!rc) rc = xq_tstore_ko_load(st, ko, err);
  if (!rc && ko->after != XQ_KO_NO_SWISS) {
    snprintf(err->msg, sizeof err->msg, "the store holds no knockout-only event");
    rc = XQ_EINVAL;
  }
  if (rc) goto out;
  V.ko = ko;
  int n = V.ev->n;
  V.places = malloc(sizeof *V.places * (size_t)n);
  V.place_of = calloc((size_t)n + 1, sizeof *V.place_of);
  V.overall = malloc(sizeof *V.overall * XQ_KO_SIZE_MAX);
  V.pt = calloc(1, sizeof *V.pt);
  V.aw = calloc((size_t)ko->pools * XQ_KO_EVENT_PLACES_MAX + 1, sizeof *V.aw);
  if (!V.places || !V.place_of || !V.overall || !V.pt || !V.aw) {
    rc = XQ_ENOMEM;
    goto out;
  }
  if ((rc = xq_final_places(V.ev, ko, V.places))) goto out;
  for (int i = 0; i < n; i++) V.place_of[V.places[i]] = i + 1;
  for (int p = 0; p < ko->pools; p++)
    if ((V.npool[p] = xq_ko_pool_places(ko, p, V.pool_ids[p])) < 0) {
      rc = XQ_EINVAL;
      goto out;
    }
  if (o->out_dir && mkdir(o->out_dir, 0777) && errno != EEXIST) {
    snprintf(err->msg, sizeof err->msg, "cannot create %.80s: %.50s", o->out_dir, strerror(errno));
    rc = XQ_EIO;
    goto out;
  }
  int king = xq_ko_winner(ko, xq_ko_nmatches(ko));
  if (king) snprintf(rep->king, sizeof rep->king, "%s", V.ev->players[king - 1].name);
  if (o->out) {
    fprintf(o->out, "%s (%s, %s, %d entrants)\n\n", V.ev->name, r->name, e->name, n);
    ko_text(o->out, V.ev, ko);
    if (king) fprintf(o->out, "King 棋王: %s (%s)\n\n", V.ev->players[king - 1].name, V.ev->players[king - 1].club);
  }
  if ((rc = emit(o, "places", w_vplaces, &V, err)) || (rc = emit(o, "townships", w_townships, &V, err))) goto out;
  if ((rc = village_prizes(&V))) goto out;
  rep->prizes = V.naw;
  for (int i = 0; i < V.naw; i++) rep->prize_total += V.aw[i].amount;
  rep->king_bonus = king ? e->final_bonus : 0;
  rc = emit(o, "prizes", w_vprizes, &V, err);
out:
  if (rc && !err->msg[0]) {
    err->code = rc;
    snprintf(err->msg, sizeof err->msg, "final lists: %s", xq_strerror(rc));
  }
  free(V.places);
  free(V.place_of);
  free(V.overall);
  free(V.pt);
  free(V.aw);
  free(ko);
  xq_tournament_free(V.ev);
  return rc;
}

/* The open event: the groups that play their own events are not ranked
 * from it (Tangshan: simulate --group NAME runs each); a line names them. */
static void drop_apart(fin *F)
{
  int k = 1, apart = 0;
  FILE *f = F->o->out;
  for (int gi = 1; gi < F->ngroups; gi++) {
    if (!F->groups[gi].apart) {
      F->groups[k++] = F->groups[gi];
      continue;
    }
    if (f) fprintf(f, "%s%s", apart++ ? ", " : "Groups playing their own events (--group NAME): ", F->groups[gi].name);
  }
  if (apart && f) fprintf(f, "\n\n");
  if (F->ngroups > 1) F->ngroups = k;
}

/* The team rows of `rule`: the competition's teams (Burqin: Altay's) on
 * its basis (Tangshan: the Swiss standings, 预赛成绩). */
static int team_rows(fin *F, const xq_team_rule *rule)
{
  int n = F->ev->n, rc = XQ_OK;
  F->team_rule = *rule;
  F->team_mode = rule->mode;
  int *order = malloc(sizeof *order * (size_t)n);
  if (!order) return XQ_ENOMEM;
  if (rule->basis == XQ_TEAM_BASIS_SWISS) rc = xq_team_order(F->ev, NULL, rule->basis, order);
  else memcpy(order, F->places, sizeof *order * (size_t)n);
  if (!rc) rc = xq_team_standings_rule(F->ev, order, rule, F->teams, XQ_SIM_TEAMS_MAX, &F->nteams);
  free(order);
  return rc;
}

int xq__simulate_final_lists(const xq_sim_opts *o, const xq_regulation *r, xq_tstore *st,
                  xq_sim_report *rep, xq_error *err)
{
  const xq_ko_event *kev;
  if (o->group && o->group[0] && xq_regulation_ko_event(r, o->group, &kev) == XQ_OK)
    return village_final(o, r, kev, st, rep, err);
  fin F;
  memset(&F, 0, sizeof F);
  F.o = o;
  F.r = r;
  xq_ko ko;
  int rc = xq_tstore_load(st, &F.ev, err);
  if (!rc) rc = xq_tstore_ko_load(st, &ko, err);
  if (rc) return rc;
  int n = F.ev->n;
  F.places = malloc(sizeof *F.places * (size_t)n);
  F.place_of = calloc((size_t)n + 1, sizeof *F.place_of);
  F.teams = calloc(XQ_SIM_TEAMS_MAX, sizeof *F.teams);
  F.pt = calloc(1, sizeof *F.pt);
  if (!F.places || !F.place_of || !F.teams || !F.pt) {
    rc = XQ_ENOMEM;
    goto out;
  }
  if ((rc = xq_final_places(F.ev, ko.after ? &ko : NULL, F.places))) goto out;
  for (int i = 0; i < n; i++) F.place_of[F.places[i]] = i + 1;
  xq_tournament_apply_withdrawals(F.ev, F.ev->nrounds);
  for (int i = 0; i < n; i++) rep->withdrawn += F.ev->players[i].withdrawn > 0;

  if (o->out_dir && mkdir(o->out_dir, 0777) && errno != EEXIST) {
    snprintf(err->msg, sizeof err->msg, "cannot create %.80s: %.50s", o->out_dir, strerror(errno));
    rc = XQ_EIO;
    goto out;
  }
  if (o->out) {
    fprintf(o->out, "%s (%s, %d players, %d rounds)\n\n", r->title, r->name, n, F.ev->nrounds);
    if (ko.after) ko_text(o->out, F.ev, &ko);
  }
  if ((rc = emit(o, "places", w_places, &F, err)) || (rc = emit(o, "standings", w_standings, &F, err)))
    goto out;
  if (o->format) { /* a round robin: its cross table; no teams, groups or prizes */
    rc = emit(o, "crosstable", w_cross, &F, err);
    goto out;
  }

  int counted = 0, have_prizes = xq__simulate_final_reg_prizes(r, n, F.pt) == XQ_OK;
  if (xq__simulate_final_reg_groups(r, F.groups, XQ_REG_GROUPS_MAX, &F.ngroups)) F.ngroups = 0;
  if (o->group) {
    /* a group's own event: its prize list (the category kept apart from
     * the open event's), its sections; the open event has the teams */
    int gi = 0;
    for (int i = 1; i < F.ngroups && !gi; i++)
      if (strstr(F.groups[i].name, o->group)) gi = i;
    if (!gi) {
      rc = XQ_EINVAL;
      goto out;
    }
    if (have_prizes) have_prizes = xq_prize_table_only(F.pt, F.groups[gi].name) == XQ_OK;
    F.groups[1] = F.groups[gi];
    F.ngroups = 2;
  }
  if (!o->group) drop_apart(&F);
  xq_team_rule rule;
  if (!o->group && xq_regulation_team_rule(r, &rule) == XQ_OK && (counted = rule.counted) > 0) {
    if ((rc = team_rows(&F, &rule))) goto out;
    /* the regulation's team prizes by team rank, shown in the team list */
    if (have_prizes) rep->team_prize_total = xq_team_prizes(F.pt, F.teams, F.nteams);
    if ((rc = emit(o, "teams", w_teams, &F, err))) goto out;
  }
  for (int gi = 1; gi < F.ngroups; gi++) {
    if (!F.groups[gi].sections) continue;
    int *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n), na, nb, merged = 0;
    if (a && b && xq_group_sections(&F.groups[gi], F.ev->players, n, a, &na, b, &nb, &merged) == XQ_OK && merged &&
        nb == 0) {
      /* count merges that had women to merge */
      for (int i = 0; i < na; i++) rep->women_merged += F.ev->players[a[i] - 1].sex == 'w';
    }
    free(a);
    free(b);
  }
  if (F.ngroups > 1 && (rc = emit(o, "groups", w_groups, &F, err))) goto out;

  if (have_prizes && (F.pt->ncats || F.pt->lucky_amount)) {
    int cap = XQ_AWARDS_MAX(F.pt, n);
    F.aw = calloc((size_t)cap, sizeof *F.aw);
    if (!F.aw) {
      rc = XQ_ENOMEM;
      goto out;
    }
    if ((rc = xq_prizes_award(F.ev, F.places, F.pt, F.aw, cap, &F.naw))) goto out;
    rep->prizes = F.naw;
    for (int i = 0; i < F.naw; i++) rep->prize_total += F.aw[i].amount;
    if ((rc = emit(o, "prizes", w_prizes, &F, err))) goto out;
    if (o->out && !o->group && (rc = honours_text(o->out, r, F.ev, F.places))) goto out;
  } else if (o->out && o->group) {
    fprintf(o->out, "Prizes: %s states no prize list for %s\n\n", r->name, o->group);
  } else if (o->out) {
    fprintf(o->out, "Prizes: %s states no prize table (%s)\n\n", r->name,
            r->rows[XQ_REG_PRIZES].value ? r->rows[XQ_REG_PRIZES].value : "-");
  }
out:
  if (rc && !err->msg[0]) {
    err->code = rc;
    snprintf(err->msg, sizeof err->msg, "final lists: %s", xq_strerror(rc));
  }
  free(F.places);
  free(F.place_of);
  free(F.teams);
  free(F.pt);
  free(F.aw);
  xq_tournament_free(F.ev);
  return rc;
}
