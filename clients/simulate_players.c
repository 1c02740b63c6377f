/*
 * simulate_players.c -- the entrants of `xqref simulate` (docs/simulate.md §2):
 * made up deterministically from the seed, shaped by the regulation so
 * that each of its rules has someone to apply to -- birth dates in every
 * group, women (a few, so a small women's section merges), the regions
 * its prize table names, local players where it has local prizes, teams
 * of its team size.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "simulate_internal.h"

/* The name generator's draws and the names the players before hold. */
typedef struct sim_names {
  uint64_t *rng;
  const xq_tplayer *out;
  int i; /* the player being named: out[0..i-1] have theirs */
} sim_names;

static int name_draw(void *ctx, int n) { return xq__simulate_games_below(((sim_names *)ctx)->rng, n); }

static int name_taken(void *ctx, const char *name)
{
  const sim_names *c = ctx;
  for (int k = 0; k < c->i; k++)
    if (!strcmp(c->out[k].name, name)) return 1;
  return 0;
}

/* Where each regulation's players come from; the first is the host (its
 * players are the local ones). */
static const struct {
  const char *preset;
  const char *regions[12];
} homes[] = {
  {"xinjiang2018", {"乌鲁木齐", "克拉玛依", "石河子", "昌吉", "伊犁", "阿勒泰", "哈密", "库尔勒",
                    "喀什", "阿克苏", "吐鲁番", "博乐"}},
  {"burqin2018", {"布尔津", "阿勒泰市", "哈巴河", "福海", "富蕴", "青河", "吉木乃", "乌鲁木齐",
                  "克拉玛依", "奎屯", "塔城", "昌吉"}},
  {"shaanxi2019", {"佳县", "榆林", "西安", "延安", "宝鸡", "咸阳", "渭南", "山西", "神木", "府谷",
                   "米脂", "绥德"}},
  {"wujiaqu2024", {"五家渠", "乌鲁木齐", "昌吉", "石河子", "克拉玛依", "奎屯", "伊犁", "哈密",
                   "库尔勒", "阿克苏", "喀什", "博乐"}},
  {"tangshan2018", {"路北区", "路南区", "开平区", "丰南区", "丰润区", "迁安", "遵化", "滦州",
                    "乐亭", "玉田", "唐钢", "开滦"}},
};


static const char *const numerals[] = {"一", "二", "三", "四", "五", "六", "七", "八", "九", "十"};

static int has_local(const xq_regulation *r, const xq_tgroup *groups, int ng, const xq_prize_table *t)
{
  for (int i = 0; i < ng; i++)
    if (groups[i].local_only) return 1;
  for (int i = 0; t && i < t->ncats; i++)
    if (t->cats[i].filter == XQ_PF_LOCAL || t->cats[i].group.local_only) return 1;
  /* docs/presets.md "groups": Burqin and Wujiaqu have local players */
  return r->rows[XQ_REG_GROUPS].value && strstr(r->rows[XQ_REG_GROUPS].value, "local");
}

/* A date in [from, to] (YYYY/MM/DD, "" = open: 1950 and 2016 stand in). */
static void birth_in(uint64_t *rng, const char *from, const char *to, char *out)
{
  int y0 = 1950, y1 = 2016;
  if (from[0]) sscanf(from, "%d", &y0);
  if (to[0]) sscanf(to, "%d", &y1);
  if (y0 < 1930) y0 = 1930;
  if (y1 < y0) y1 = y0;
  /* Strictly inside the bounding years, so the day never falls outside a
   * bound that starts or ends mid-year; a one-year band uses its own year. */
  int y = y1 - y0 >= 2 ? y0 + 1 + xq__simulate_games_below(rng, y1 - y0 - 1) : y0;
  int m = 1 + xq__simulate_games_below(rng, 12), d = 1 + xq__simulate_games_below(rng, 28);
  if (y == y0 && from[0]) {
    int fy, fm, fd;
    if (sscanf(from, "%d/%d/%d", &fy, &fm, &fd) == 3 && (m < fm || (m == fm && d < fd))) m = fm, d = fd;
  }
  if (y == y1 && to[0]) {
    int ty, tm, td;
    if (sscanf(to, "%d/%d/%d", &ty, &tm, &td) == 3 && (m > tm || (m == tm && d > td))) m = tm, d = td;
  }
  /* the bounds come from the regulation's dates: keep the fields in range */
  y = y < 1000 ? 1000 : y > 9999 ? 9999 : y;
  m = m < 1 ? 1 : m > 12 ? 12 : m;
  d = d < 1 ? 1 : d > 31 ? 31 : d;
  snprintf(out, 11, "%04u/%02u/%02u", (unsigned)y % 10000u, (unsigned)m % 100u, (unsigned)d % 100u);
}

void xq__simulate_players_make(const xq_regulation *r, const xq_tgroup *groups, int ng,
                     const xq_prize_table *prizes, int n, int women, uint64_t seed,
                     xq_tplayer *out)
{
  uint64_t rng = seed ^ 0x706c6179657273ULL;
  const char *const *home = homes[0].regions;
  for (size_t i = 0; i < sizeof homes / sizeof homes[0]; i++)
    if (!strcasecmp(homes[i].preset, r->name)) home = homes[i].regions;
  /* The regions the prize table names come first, so they have players. */
  const char *regions[XQ_SIM_HOME_REGIONS + XQ_PRIZE_CATS_MAX];
  int nreg = 0, nprize = 0;
  for (int i = 0; prizes && i < prizes->ncats; i++)
    if (prizes->cats[i].filter == XQ_PF_REGION && prizes->cats[i].region[0])
      regions[nreg++] = prizes->cats[i].region;
  nprize = nreg;
  for (int i = 0; i < XQ_SIM_HOME_REGIONS; i++) {
    int dup = 0;
    for (int k = 0; k < nreg; k++) dup |= !strcmp(regions[k], home[i]);
    if (!dup) regions[nreg++] = home[i];
  }
  int local = has_local(r, groups, ng, prizes);

  /* who is a woman: exactly `women` of them, else about one in eight */
  if (women < 0) women = n / 8;
  if (women > n) women = n;
  memset(out, 0, sizeof *out * (size_t)n);
  for (int i = 0; i < n; i++) out[i].sex = 'm';
  for (int k = 0; k < women; k++) {
    int i;
    do i = xq__simulate_games_below(&rng, n); while (out[i].sex == 'w');
    out[i].sex = 'w';
  }

  /* a quarter of them local players, where the regulation has any */
  for (int k = 0; local && k < n / 4; k++) {
    int i;
    do i = xq__simulate_games_below(&rng, n); while (out[i].local);
    out[i].local = 1;
  }
  int sect[XQ_REG_GROUPS_MAX], nsect = 0;
  for (int i = 0; i < ng && nsect < XQ_REG_GROUPS_MAX; i++)
    if (groups[i].sections) sect[nsect++] = i;
  for (int i = 0; i < n; i++) {
    xq_tplayer *p = &out[i];
    /* a unique name: surname and one or two given characters */
    sim_names names = {&rng, out, i};
    xq_namegen gen = {name_draw, name_taken, &names};
    xq_chinese_name(&gen, p->sex, i + 1, p->name, sizeof p->name);
    p->rating = 1300 + xq__simulate_games_below(&rng, 1300);
    /* birth date: most in the first (open) group, the rest spread over
     * the others; a group for one sex only takes players of that sex */
    int gi = 0;
    if (ng > 1 && xq__simulate_games_below(&rng, 10) >= 6) gi = 1 + xq__simulate_games_below(&rng, ng - 1);
    if (ng && groups[gi].sex && groups[gi].sex != p->sex) gi = 0;
    /* women go to the groups that rank them apart (where the women's
     * section rules apply), when the regulation has such groups */
    if (p->sex == 'w' && nsect) gi = sect[xq__simulate_games_below(&rng, nsect)];
    if (ng) birth_in(&rng, groups[gi].born_from, groups[gi].born_to, p->birth);
    else birth_in(&rng, "1958/01/01", "2001/12/31", p->birth);
    /* region: a fifth each for the prize table's regions, else anywhere */
    int ri = -1;
    for (int k = 0; k < nprize && ri < 0; k++)
      if (xq__simulate_games_below(&rng, 5) == 0) ri = k;
    if (ri < 0) ri = nprize + xq__simulate_games_below(&rng, nreg - nprize);
    if (p->local) {
      ri = nprize; /* the host's own region */
      for (int k = 0; k < nreg; k++)
        if (!strcmp(regions[k], home[0])) ri = k;
    }
    snprintf(p->region, sizeof p->region, "%s", regions[ri]);
    snprintf(p->club, sizeof p->club, "%s象棋%s队", regions[ri],
             numerals[xq__simulate_games_below(&rng, XQ_SIM_CLUBS_PER_REGION)]);
    snprintf(p->fed, sizeof p->fed, "CHN");
  }

  /* teams: by region, `team_size` players each, several teams a region;
   * three players in four enter a team */
  if (r->team_size > 0) {
    for (int ri = 0; ri < nreg; ri++) {
      int filled = 0, team = 0;
      for (int i = 0; i < n; i++) {
        if (strcmp(out[i].region, regions[ri]) || xq__simulate_games_below(&rng, 4) == 0) continue;
        if (team >= (int)(sizeof numerals / sizeof *numerals)) break;
        snprintf(out[i].team, sizeof out[i].team, "%s%s队", regions[ri], numerals[team]);
        if (++filled == r->team_size) {
          filled = 0;
          team++;
        }
      }
    }
  }
}
