/*
 * sim_final.c -- the end of a simulated event (docs/simulate.md §5): the
 * final places (knockout places first, tourney.md §6.5), the Swiss
 * standings, team standings, group standings (men's and women's sections
 * where the regulation ranks them apart; a women's section under
 * XQ_WOMEN_SECTION_MIN merges into the men's) and the prize list, each as
 * text on o->out and as an HTML page in o->out_dir.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sim_internal.h"

#define XQ_SIM_TEAMS_MAX 1000   /* teams listed */

int xq__sim_reg_prizes(const xq_regulation *r, int entrants, xq_prize_table *t)
{
  return xq_regulation_prizes(r, entrants, t, NULL);
}

int xq__sim_reg_groups(const xq_regulation *r, xq_tgroup *out, int cap, int *n)
{
  return xq_regulation_groups(r, out, cap, n, NULL);
}

int xq__sim_reg_teams(const xq_regulation *r, int *mode, int *counted)
{
  return xq_regulation_teams(r, mode, counted);
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
    snprintf(err->msg, sizeof err->msg, "the %.20s list: %.80s", name, xq_tourney_strerror(rc));
    err->code = rc;
  }
  return rc;
}

typedef struct fin {
  const xq_sim_opts *o;
  const xq_regulation *r;
  xq_tevent *ev;
  int *places;          /* ids in final-place order */
  int *place_of;        /* [id] = final place */
  xq_team_row *teams;
  int nteams, team_mode;
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
  if (format == XQ_SHEET_TEXT) fprintf(f, "Swiss standings 积分编排成绩\n");
  return xq_sheet_standings(F->ev, 0, format, XQ_LANG_ZH, f);
}

static int w_teams(void *ctx, int format, FILE *f)
{
  fin *F = ctx;
  if (format == XQ_SHEET_TEXT) fprintf(f, "Team standings 团体成绩\n");
  return xq_sheet_teams(F->ev, F->teams, F->nteams, F->team_mode, format, XQ_LANG_ZH, f);
}

static int w_prizes(void *ctx, int format, FILE *f)
{
  fin *F = ctx;
  if (format == XQ_SHEET_TEXT) fprintf(f, "Prizes 奖金\n");
  return xq_sheet_prizes(F->ev, F->pt, F->aw, F->naw, format, XQ_LANG_ZH, f);
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

static void ko_text(FILE *f, const xq_tevent *ev, const xq_ko *ko)
{
  fprintf(f, "Knockout 淘汰赛: top %d after round %d, %s, tie-breaks %s", ko->size, ko->after,
          xq_ko_seeding_name(ko->seeding), xq_ko_format_name(ko->format));
  if (ko->choice) fprintf(f, "; the Swiss winner chose seed %d as its semi-final opponent", ko->choice);
  fputc('\n', f);
  int nm = xq_ko_nmatches(ko);
  for (int m = 1; m <= nm; m++) {
    int a, b;
    if (xq_ko_match_players(ko, m, &a, &b) != 1) continue;
    int w = xq_ko_winner(ko, m);
    fprintf(f, "  match %d (stage %d): %s v %s:", m, xq_ko_stage(ko, m), ev->players[a - 1].name,
            ev->players[b - 1].name);
    for (int i = 0; i < ko->ngames; i++) {
      const xq_ko_game *g = &ko->games[i];
      if (g->match != m) continue;
      fprintf(f, " %s %s-%s %s;", xq_ko_gtype_name(g->type), ev->players[g->red - 1].name,
              ev->players[g->black - 1].name, g->res > 0 ? "1-0" : g->res < 0 ? "0-1" : "=");
    }
    fprintf(f, " winner %s\n", w ? ev->players[w - 1].name : "-");
  }
  fputc('\n', f);
}

int xq__sim_final(const xq_sim_opts *o, const xq_regulation *r, xq_tstore *st,
                  xq_sim_report *rep, xq_error *err)
{
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
  xq_tevent_apply_withdrawals(F.ev, F.ev->nrounds);
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

  int counted = 0, have_prizes = xq__sim_reg_prizes(r, n, F.pt) == XQ_OK;
  if (xq__sim_reg_groups(r, F.groups, XQ_REG_GROUPS_MAX, &F.ngroups)) F.ngroups = 0;
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
  if (!o->group && xq__sim_reg_teams(r, &F.team_mode, &counted) == XQ_OK && counted > 0) {
    if ((rc = xq_team_standings(F.ev, F.places, F.team_mode, counted, F.teams, XQ_SIM_TEAMS_MAX, &F.nteams)))
      goto out;
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
  } else if (o->out && o->group) {
    fprintf(o->out, "Prizes: %s states no prize list for %s\n\n", r->name, o->group);
  } else if (o->out) {
    fprintf(o->out, "Prizes: %s states no prize table (%s)\n\n", r->name,
            r->rows[XQ_REG_PRIZES].value ? r->rows[XQ_REG_PRIZES].value : "-");
  }
out:
  if (rc && !err->msg[0]) {
    err->code = rc;
    snprintf(err->msg, sizeof err->msg, "final lists: %s", xq_tourney_strerror(rc));
  }
  free(F.places);
  free(F.place_of);
  free(F.teams);
  free(F.pt);
  free(F.aw);
  xq_tevent_free(F.ev);
  return rc;
}
