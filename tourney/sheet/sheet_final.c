/*
 * sheet_final.c -- the printed results of a finished event: a list of
 * places (the final places, or one group's), the team standings and the
 * prize list, as text, HTML or CSV in English or Chinese (the table
 * writer is sheet_table.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tourney_internal.h"
#include "knockout.h"
#include "prize.h"
#include "sheet_internal.h"

enum {
  F_PLACE, F_OVERALL, F_NAME, F_FROM, F_POINTS, F_WDL, F_PLACES, F_RANK, F_TEAM, F_SUM_PLACES,
  F_SUM_POINTS, F_BEST, F_MEMBERS, F_PRIZE, F_TEAMS, F_PRIZES, F_CATEGORY, F_CAT_PLACE, F_LUCKY,
  F_SUBTOTAL, F_TOTAL, F_STATED, F_REACHED, F_POSITION, F_COUNT
};

static const char *const fwords[F_COUNT][2] = {
  [F_PLACE] = {"Place", "名次"},
  [F_OVERALL] = {"Overall", "总名次"},
  [F_NAME] = {"Name", "姓名"},
  [F_FROM] = {"Region / club", "地区/单位"},
  [F_POINTS] = {"Points", "积分"},
  [F_WDL] = {"W-D-L", "胜-和-负"},
  [F_PLACES] = {"Final places", "最终名次"},
  [F_RANK] = {"Rank", "名次"},
  [F_TEAM] = {"Team", "队名"},
  [F_SUM_PLACES] = {"Sum of places", "名次分"},
  [F_SUM_POINTS] = {"Sum of points", "积分和"},
  [F_BEST] = {"Best place", "最好名次"},
  [F_MEMBERS] = {"Players", "队员"},
  [F_PRIZE] = {"Prize", "奖金"},
  [F_TEAMS] = {"Team standings", "团体成绩"},
  [F_PRIZES] = {"Prize list", "获奖名单"},
  [F_CATEGORY] = {"Category", "奖项"},
  [F_CAT_PLACE] = {"Place", "名次"},
  [F_LUCKY] = {"Lucky prize", "幸运奖"},
  [F_SUBTOTAL] = {"total", "小计"},
  [F_TOTAL] = {"Total", "合计"},
  [F_STATED] = {"total %ld stated, no table given", "奖金总计%ld元，未列奖金表"},
  [F_REACHED] = {"Stage reached", "淘汰赛成绩"},
  [F_POSITION] = {"Bracket position", "签位"},
};

static const char *fw(int w, int lang) { return fwords[w][lang == XQ_LANG_ZH]; }

static int args_ok(const xq_tournament *ev, int format, int lang, FILE *f)
{
  return ev && f && xq__sheet_format_ok(format) && (lang == XQ_LANG_EN || lang == XQ_LANG_ZH);
}

static const char *name_of(const xq_tournament *ev, int id) { return ev->players[id - 1].name; }

/* Region and club as one cell: "新疆 / 米东棋协", either alone, or "". */
static void from_text(char *buf, size_t cap, const xq_tplayer *p)
{
  const char *sep = p->region[0] && p->club[0] ? " / " : "";
  snprintf(buf, cap, "%s%s%s", p->region, sep, p->club);
}

/* Wins, draws and losses over the recorded rounds, forfeits as W/L (the
 * standings' count). */
static void wdl_text(char *buf, size_t cap, const xq_tournament *ev, int id)
{
  int w = 0, d = 0, l = 0;
  for (int r = 1; r <= ev->nrounds; r++) {
    int res = xq_tournament_slot(ev, id, r)->res;
    w += res == XQ_TR_WIN || res == XQ_TR_FWIN;
    d += res == XQ_TR_DRAW;
    l += res == XQ_TR_LOSS || res == XQ_TR_FLOSS;
  }
  snprintf(buf, cap, "%d-%d-%d", w, d, l);
}

const char *xq__sheet_ko_stage_word(int left, int lang)
{
  static const char *const en[] = {"final", "semi-final", "quarter-final", "round of 16", "round of 32",
                                   "round of 64", "round of 128"};
  static const char *const zh[] = {"决赛", "半决赛", "四分之一决赛", "16强赛", "32强赛", "64强赛", "128强赛"};
  if (left < 0 || left >= (int)(sizeof en / sizeof *en)) return lang == XQ_LANG_ZH ? "早轮" : "early round";
  return lang == XQ_LANG_ZH ? zh[left] : en[left];
}

const char *xq__sheet_ko_match_stage(const xq_ko *ko, int m, int lang)
{
  int stages = 0;
  for (int k = ko->size; k > 1; k /= 2) stages++;
  int left = stages - xq_ko_stage(ko, m);
  if (ko->seeding == XQ_KO_TOP_CHOOSES && m == ko->size) return lang == XQ_LANG_ZH ? "三四名决赛" : "third place";
  /* a drawn bracket of two pools: the halves' finals are the pools' own,
   * the bracket's final the one between their winners (village-king.md) */
  if (ko->pools > 1 && left == 0) return lang == XQ_LANG_ZH ? "总决赛" : "final";
  if (ko->pools > 1 && left == 1) return lang == XQ_LANG_ZH ? "分组决赛" : "pool final";
  return xq__sheet_ko_stage_word(left, lang);
}

/* How a knockout-only event placed `id`: the last match it played (byes
 * skipped) and its outcome, "won the final", "lost in the semi-final" or
 * still "in the quarter-final" (docs/tourney.md, "Knockout stage": the stage lost in
 * decides the place). */
void xq__sheet_ko_reached(char *buf, size_t cap, const xq_ko *ko, int id, int lang)
{
  int last = 0, zh = lang == XQ_LANG_ZH;
  for (int m = 1; m <= xq_ko_nmatches(ko); m++) {
    int a, b;
    if (xq_ko_match_players(ko, m, &a, &b) == 1 && (a == id || b == id)) last = m;
  }
  if (!last) {
    snprintf(buf, cap, "%s", zh ? "未赛" : "no game yet");
    return;
  }
  const char *st = xq__sheet_ko_match_stage(ko, last, lang);
  int w = xq_ko_winner(ko, last);
  if (!w) snprintf(buf, cap, zh ? "%s进行中" : "in the %s", st);
  else if (w == id) snprintf(buf, cap, zh ? "%s胜" : "won the %s", st);
  else snprintf(buf, cap, zh ? "%s负" : "lost in the %s", st);
}

/* xq_sheet_places as one table of a sheet (`flags`: xq__sheet_begin);
 * with `ko` (a knockout-only event) the stage reached and the bracket
 * position stand where a Swiss event has points and W-D-L. */
static int places_table(const xq_tournament *ev, const xq_ko *ko, const char *title, const int *ids,
                        const int *overall, int n, int format, int lang, FILE *f, int flags)
{
  const char *head[6], *cls[6], *row[6];
  int nc = 0;
  head[nc] = fw(F_PLACE, lang); cls[nc++] = "n";
  if (overall) { head[nc] = fw(F_OVERALL, lang); cls[nc++] = "n"; }
  head[nc] = fw(F_NAME, lang); cls[nc++] = NULL;
  head[nc] = fw(F_FROM, lang); cls[nc++] = NULL;
  if (ko) {
    head[nc] = fw(F_REACHED, lang); cls[nc++] = NULL;
    head[nc] = fw(F_POSITION, lang); cls[nc++] = "n";
  } else {
    head[nc] = fw(F_POINTS, lang); cls[nc++] = "n";
    head[nc] = fw(F_WDL, lang); cls[nc++] = "c";
  }
  xq__sheet sh;
  int rc = xq__sheet_begin(&sh, f, format, lang, ev, title ? title : fw(F_PLACES, lang), NULL, nc, head, cls,
                           flags);
  if (rc) return rc;
  for (int i = 0; !rc && i < n; i++) {
    char place[16], over[16], from[2 * XQ_TOURNEY_FIELD_MAX + 4], pts[32], wdl[48];
    int k = 0;
    snprintf(place, sizeof place, "%d", i + 1);
    row[k++] = place;
    if (overall) {
      snprintf(over, sizeof over, "%d", overall[i]);
      row[k++] = over;
    }
    row[k++] = name_of(ev, ids[i]);
    from_text(from, sizeof from, &ev->players[ids[i] - 1]);
    row[k++] = from;
    if (ko) {
      xq__sheet_ko_reached(wdl, sizeof wdl, ko, ids[i], lang);
      row[k++] = wdl;
      int pos = xq__knockout_seed(ko, ids[i]);
      snprintf(pts, sizeof pts, "%d", pos);
      row[k++] = pos ? pts : "";
    } else {
      xq__sheet_half_text(pts, sizeof pts, xq_tournament_points(ev, ids[i], XQ_TOURNEY_ROUNDS_MAX));
      row[k++] = pts;
      wdl_text(wdl, sizeof wdl, ev, ids[i]);
      row[k++] = wdl;
    }
    rc = xq__sheet_row(&sh, row);
  }
  int end = xq__sheet_end(&sh);
  return rc ? rc : end;
}

/* The final standings' rows of the listed players ids[0..n) whose places
 * the lot decided (不并列), in the list's order, into lot[] (room for n);
 * their count, or -1 without memory. */
static int lot_rows(const xq_tournament *ev, const int *ids, int n, xq_tstanding *lot)
{
  xq_tstanding *s = malloc(sizeof *s * (size_t)(ev->n ? ev->n : 1));
  int *row = calloc((size_t)ev->n + 1, sizeof *row); /* by id: its row of s, plus one */
  int k = s && row ? 0 : -1;
  if (k == 0 && xq_standings(ev, xq_tournament_standings_round(ev), s) == XQ_OK) {
    for (int j = 0; j < ev->n; j++) row[s[j].id] = j + 1;
    for (int i = 0; i < n; i++)
      if (row[ids[i]] && s[row[ids[i]] - 1].by_lot) lot[k++] = s[row[ids[i]] - 1];
  }
  free(row);
  free(s);
  return k;
}

/* The checks of both places sheets, then the table; on the sheets people
 * read (HTML, text) of a Swiss event, the lot's table under it when the
 * lot decided a listed player's place, as under the standings. */
static int places_sheet(const xq_tournament *ev, const xq_ko *ko, const char *title, const int *ids,
                        const int *overall, int n, int format, int lang, FILE *f)
{
  if (!args_ok(ev, format, lang, f) || n < 0 || (n && !ids)) return XQ_EINVAL;
  for (int i = 0; i < n; i++)
    if (ids[i] < 1 || ids[i] > ev->n) return XQ_EINVAL;
  if (ko || n == 0 || (format != XQ_SHEET_HTML && format != XQ_SHEET_TEXT))
    return places_table(ev, ko, title, ids, overall, n, format, lang, f, XQ__SHEET_SIGN);
  xq_tstanding *lot = malloc(sizeof *lot * (size_t)n);
  int k = lot ? lot_rows(ev, ids, n, lot) : -1;
  int rc = k < 0 ? XQ_ENOMEM : places_table(ev, ko, title, ids, overall, n, format, lang, f,
                                                        k ? XQ__SHEET_BEFORE : XQ__SHEET_SIGN);
  if (!rc && k > 0) rc = xq__sheet_lot_table(f, format, lang, ev, lot, k);
  free(lot);
  return rc;
}

int xq_sheet_places(const xq_tournament *ev, const char *title, const int *ids, const int *overall,
                    int n, int format, int lang, FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_places(ev, title, ids, overall, n, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, f);
  }
  return places_sheet(ev, NULL, title, ids, overall, n, format, lang, f);
}

int xq_sheet_ko_places(const xq_tournament *ev, const xq_ko *ko, const char *title, const int *ids,
                       const int *overall, int n, int format, int lang, FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_ko_places(ev, ko, title, ids, overall, n, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, f);
  }
  if (!ko || ko->after != XQ_KO_NO_SWISS) return XQ_EINVAL;
  return places_sheet(ev, ko, title, ids, overall, n, format, lang, f);
}

/* One list of the group sheet: group g, all members (sex 0), the men's
 * section ('m', with the women when `merged`) or the women's ('w'). */
typedef struct part {
  int g;
  char sex;
  int merged;
} part;

static void part_title(char *buf, size_t cap, const xq_tgroup *g, const part *p, int k, int lang)
{
  int zh = lang == XQ_LANG_ZH;
  const char *what = !p->sex ? "" : p->merged ? (zh ? " 男女合并（女子不足三人）" : ", men and women (fewer than 3 women: merged)")
                   : p->sex == 'm' ? (zh ? " 男子" : ", men") : (zh ? " 女子" : ", women");
  snprintf(buf, cap, zh ? "%s%s（%d人）" : "%s%s (%d)", g->name, what, k);
}

int xq_sheet_groups(const xq_tournament *ev, const int *places, const xq_tgroup *groups, int ng,
                    int format, int lang, FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_groups(ev, places, groups, ng, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, f);
  }
  if (!args_ok(ev, format, lang, f) || !places || ng < 0 || (ng && !groups) || ng > XQ_REG_GROUPS_MAX)
    return XQ_EINVAL;
  int n = ev->n, rc = XQ_OK, np = 0;
  for (int i = 0; i < n; i++)
    if (places[i] < 1 || places[i] > n) return XQ_EINVAL;
  part parts[2 * XQ_REG_GROUPS_MAX];
  int *men = malloc(sizeof *men * (size_t)(n + 1)), *women = malloc(sizeof *women * (size_t)(n + 1));
  int *ids = malloc(sizeof *ids * (size_t)(n + 1)), *over = malloc(sizeof *over * (size_t)(n + 1));
  char *in = malloc((size_t)n + 1);
  if (!men || !women || !ids || !over || !in) { rc = XQ_ENOMEM; goto out; }
  for (int g = 0; g < ng; g++) {
    int nm, nw, merged;
    if (!groups[g].sections) { parts[np++] = (part){g, 0, 0}; continue; }
    /* Tangshan 六.2-4: 男、女分开录取成绩; 九.3-4: 女子组不足三人…混入男子组 */
    if ((rc = xq_group_sections(&groups[g], ev->players, n, men, &nm, women, &nw, &merged))) goto out;
    if (!nw && !merged) { parts[np++] = (part){g, 0, 0}; continue; } /* no women: one list */
    parts[np++] = (part){g, 'm', merged};
    if (!merged) parts[np++] = (part){g, 'w', 0};
  }
  for (int p = 0; p < np && !rc; p++) {
    const xq_tgroup *g = &groups[parts[p].g];
    int nm, nw, merged, k = 0;
    memset(in, 0, (size_t)n + 1);
    if (!parts[p].sex) {
      for (int id = 1; id <= n; id++) in[id] = (char)xq_group_match(g, &ev->players[id - 1]);
    } else {
      if ((rc = xq_group_sections(g, ev->players, n, men, &nm, women, &nw, &merged))) break;
      const int *sec = parts[p].sex == 'm' ? men : women;
      for (int i = 0; i < (parts[p].sex == 'm' ? nm : nw); i++) in[sec[i]] = 1;
    }
    /* members in final-place order, with their place in the whole event */
    for (int i = 0; i < n; i++)
      if (in[places[i]]) { ids[k] = places[i]; over[k++] = i + 1; }
    char title[XQ_TOURNEY_FIELD_MAX + 96];
    part_title(title, sizeof title, g, &parts[p], k, lang);
    int flags = (p ? XQ__SHEET_AFTER : 0) | (p + 1 < np ? XQ__SHEET_BEFORE : XQ__SHEET_SIGN);
    rc = places_table(ev, NULL, title, ids, over, k, format, lang, f, flags);
  }
out:
  free(men);
  free(women);
  free(ids);
  free(over);
  free(in);
  return rc;
}

/* After a team's members (Xinjiang 十(一) 以地州市为单位): its prefecture,
 * and each player of it not counted, with his region. */
static void team_unit_text(const xq_tournament *ev, const xq_team_row *r, int lang, char *buf, size_t cap,
                           size_t *used)
{
  int zh = lang == XQ_LANG_ZH;
  if (r->unit[0] && *used < cap) *used += (size_t)snprintf(buf + *used, cap - *used, " [%s]", r->unit);
  for (int k = 0; k < r->nleft && k < XQ_TEAM_LEFT_MAX && *used < cap; k++) {
    int id = r->left[k];
    if (id < 1 || id > ev->n) continue;
    const char *region = ev->players[id - 1].region;
    *used += (size_t)snprintf(buf + *used, cap - *used, zh ? "%s%s（%s）" : "%s%s (%s)",
                              k ? (zh ? "、" : ", ") : (zh ? "；不计：" : "; not counted: "), name_of(ev, id),
                              region[0] ? region : (zh ? "无地区" : "no region"));
  }
}

int xq_sheet_teams(const xq_tournament *ev, const xq_team_row *rows, int n, int mode, int format,
                   int lang, FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_teams(ev, rows, n, mode, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, f);
  }
  if (!args_ok(ev, format, lang, f) || n < 0 || (n && !rows) ||
      (mode != XQ_TEAM_RANK_SUM && mode != XQ_TEAM_POINTS_SUM))
    return XQ_EINVAL;
  int paid = 0;
  for (int t = 0; t < n; t++) {
    if (rows[t].nmembers < 0 || rows[t].nmembers > XQ_TEAM_COUNTED_MAX) return XQ_EINVAL;
    for (int k = 0; k < rows[t].nmembers; k++)
      if (rows[t].members[k] < 1 || rows[t].members[k] > ev->n) return XQ_EINVAL;
    paid |= rows[t].amount != 0;
  }
  /* rank, team, value, best place, players[, prize] */
  const char *head[6] = {fw(F_RANK, lang), fw(F_TEAM, lang),
                         fw(mode == XQ_TEAM_RANK_SUM ? F_SUM_PLACES : F_SUM_POINTS, lang),
                         fw(F_BEST, lang), fw(F_MEMBERS, lang), fw(F_PRIZE, lang)};
  static const char *const cls[6] = {"n", NULL, "n", "n", NULL, "n"};
  xq__sheet sh;
  int rc = xq__sheet_begin(&sh, f, format, lang, ev, fw(F_TEAMS, lang), NULL, paid ? 6 : 5, head, cls, 0);
  if (rc) return rc;
  for (int t = 0; !rc && t < n; t++) {
    const xq_team_row *r = &rows[t];
    char rank[16], value[32], best[16], amount[24];
    char members[(XQ_TEAM_COUNTED_MAX + XQ_TEAM_LEFT_MAX) * (XQ_TOURNEY_NAME_MAX + XQ_TOURNEY_FIELD_MAX + 8)];
    /* a team short of players has no rank (Tangshan 不够4人不计团体成绩) */
    snprintf(rank, sizeof rank, r->rank ? "%d" : "-", r->rank);
    if (mode == XQ_TEAM_RANK_SUM) snprintf(value, sizeof value, "%lld", (long long)r->value);
    else xq__sheet_half_text(value, sizeof value, r->value);
    snprintf(best, sizeof best, "%d", r->best);
    size_t used = 0;
    members[0] = 0;
    for (int k = 0; k < r->nmembers && used < sizeof members; k++)
      used += (size_t)snprintf(members + used, sizeof members - used, "%s%s",
                               k ? (lang == XQ_LANG_ZH ? "、" : ", ") : "", name_of(ev, r->members[k]));
    team_unit_text(ev, r, lang, members, sizeof members, &used);
    amount[0] = 0;
    if (r->amount) snprintf(amount, sizeof amount, "%d", r->amount);
    const char *row[6] = {rank, r->team, value, best, members, amount};
    rc = xq__sheet_row(&sh, row);
  }
  int end = xq__sheet_end(&sh);
  return rc ? rc : end;
}

/* The list of award `a`: its category, and the men's or women's list
 * where the category has both (Tangshan 六.2). */
static const char *cat_name(const xq_prize_table *t, const xq_award *a, int lang, char *buf, size_t cap)
{
  if (a->cat < 0) return fw(F_LUCKY, lang);
  if (!a->section) return t->cats[a->cat].name;
  snprintf(buf, cap, "%s%s", t->cats[a->cat].name,
           a->section == 'w' ? (lang == XQ_LANG_ZH ? " 女子" : ", women") : (lang == XQ_LANG_ZH ? " 男子" : ", men"));
  return buf;
}

int xq_sheet_prizes(const xq_tournament *ev, const xq_prize_table *t, const xq_award *aw, int n,
                    int format, int lang, FILE *f)
{
  if (format == XQ_SHEET_XLSX) {
    xq__sheet_xlsx x;
    FILE *m = xq__sheet_xlsx_open(&x);
    return xq__sheet_xlsx_close(&x, m ? xq_sheet_prizes(ev, t, aw, n, XQ__SHEET_SPOOL, lang, m) : XQ_ENOMEM, f);
  }
  if (!args_ok(ev, format, lang, f) || !t || n < 0 || (n && !aw) || t->ncats < 0 ||
      t->ncats > XQ_PRIZE_CATS_MAX)
    return XQ_EINVAL;
  for (int i = 0; i < n; i++)
    if (aw[i].id < 1 || aw[i].id > ev->n || aw[i].cat < -1 || aw[i].cat >= t->ncats) return XQ_EINVAL;
  /* category, place in it, place overall, name, amount */
  const char *head[5] = {fw(F_CATEGORY, lang), fw(F_CAT_PLACE, lang), fw(F_OVERALL, lang),
                         fw(F_NAME, lang), fw(F_PRIZE, lang)};
  static const char *const cls[5] = {NULL, "n", "n", NULL, "n"};
  char sub[96] = "";
  /* Wujiaqu 十: only the total is printed, no table */
  if (!t->ncats && t->stated_total) snprintf(sub, sizeof sub, fw(F_STATED, lang), t->stated_total);
  xq__sheet sh;
  int rc = xq__sheet_begin(&sh, f, format, lang, ev, fw(F_PRIZES, lang), sub, 5, head, cls, 0);
  if (rc) return rc;
  long sum = 0, grand = 0;
  char a[24], b[24], c[24], label[XQ_TOURNEY_FIELD_MAX + 48];
  for (int i = 0; !rc && i < n; i++) {
    snprintf(a, sizeof a, "%d", aw[i].cat_place);
    snprintf(b, sizeof b, "%d", aw[i].place);
    /* 0: a place without a stated amount (Xinjiang's juniors: 另发细则) */
    snprintf(c, sizeof c, aw[i].amount ? "%d" : "-", aw[i].amount);
    char cn[XQ_TOURNEY_FIELD_MAX + 16];
    const char *row[5] = {cat_name(t, &aw[i], lang, cn, sizeof cn), a, b, name_of(ev, aw[i].id), c};
    rc = xq__sheet_row(&sh, row);
    sum += aw[i].amount;
    grand += aw[i].amount;
    if (rc || (i + 1 < n && aw[i + 1].cat == aw[i].cat && aw[i + 1].section == aw[i].section)) continue;
    /* the end of a category (or of its men's or women's list): its total */
    snprintf(label, sizeof label, "%s %s", cat_name(t, &aw[i], lang, cn, sizeof cn), fw(F_SUBTOTAL, lang));
    snprintf(c, sizeof c, "%ld", sum);
    const char *tot[5] = {label, "", "", "", c};
    rc = xq__sheet_row(&sh, tot);
    sum = 0;
  }
  if (!rc) {
    snprintf(c, sizeof c, "%ld", grand);
    const char *tot[5] = {fw(F_TOTAL, lang), "", "", "", c};
    rc = xq__sheet_row(&sh, tot);
  }
  int end = xq__sheet_end(&sh);
  return rc ? rc : end;
}
