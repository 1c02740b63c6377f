/*
 * config.c -- event parameters (docs/tourney.md, "Standings and tie-breaks"), tie-break codes and the
 * presets of the five regulations (docs/presets.md), status texts and
 * the error record.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tourney_internal.h"

void xq_tconfig_scoring(xq_tconfig *cfg, int halves)
{
  /* half-units: 2/1/0 is 4/2/0, 1/½/0 is 2/1/0 */
  int w = halves ? 2 : 4;
  cfg->win = cfg->pab = cfg->fwin = w;
  cfg->draw = w / 2;
  cfg->loss = cfg->floss = 0;
}

static const char *const tb_names[XQ_TB_COUNT] = {
  "PTS", "OS", "OS_C1", "PS", "WINS", "BWINS", "RWINS", "BLACK", "FOULS", "DE", "SB",
  "ROUNDBACK", "ROUNDBACK_FIRST", "LOT", "MATCHPTS"
};

const char *xq_tb_name(int tb)
{
  return tb >= 0 && tb < XQ_TB_COUNT ? tb_names[tb] : "?";
}

/* Presets (docs/tourney.md, "Standings and tie-breaks"; docs/presets.md "tie-break order"). */
static const struct { const char *name, *list; } presets[] = {
  {"os", "PTS,OS,WINS,FOULS,BWINS,BLACK,ROUNDBACK,LOT"},       /* 对手分方案 */
  {"ps", "PTS,PS,WINS,FOULS,BWINS,BLACK,ROUNDBACK_FIRST,LOT"}, /* 累进分方案 */
  /* Xinjiang 2018: 积分、累进分、胜局、犯规、后走局数, then drop round 1, 2, ... */
  {"xinjiang", "PTS,PS,WINS,FOULS,BLACK,ROUNDBACK_FIRST,LOT"},
  /* Burqin 2018: the supplement (补充规定) is the later word: PTS, OS, PS,
   * wins, Black wins, fouls, then the previous round's result. */
  {"burqin", "PTS,OS,PS,WINS,BWINS,FOULS,ROUNDBACK,LOT"},
  /* Shaanxi 2019: PTS, OS, wins, fouls, 直胜, games as Black, then the
   * progressive-score method (累进分, then dropping rounds from the first) */
  {"shaanxi", "PTS,OS,WINS,FOULS,DE,BLACK,PS,ROUNDBACK_FIRST,LOT"},
  /* Wujiaqu 2024 (CXA 2020 14.3.1): ..., then the previous round's result */
  {"wujiaqu", "PTS,OS,WINS,FOULS,DE,BLACK,ROUNDBACK,LOT"},
  /* Tangshan 2018: 积分、累进分、对手分、胜局、犯规、后局、前轮成绩 */
  {"tangshan", "PTS,PS,OS,WINS,FOULS,BLACK,ROUNDBACK,LOT"},
  /* round robins (docs/tourney.md, "Round robins"): CXA 2011 14.1, one
   * game per pairing: 小分, 胜局, 直胜, 犯规 (fewer first), 后走局数 */
  {"cxa_rr1", "PTS,SB,WINS,DE,FOULS,BLACK,LOT"},
  /* 无为 2021 (a group played as a single round robin): 累进分, 直胜,
   * 胜局, 后手局, 犯规, then the previous rounds compared */
  {"wuwei2021", "PTS,PS,DE,WINS,BLACK,FOULS,ROUNDBACK,LOT"},
  /* CXA 2011 14.2, two or more games a pairing: 场分, 局分总和, 胜局,
   * 直胜, 犯规, 后走胜局 */
  {"cxa_rr2", "MATCHPTS,PTS,WINS,DE,FOULS,BWINS,LOT"},
};

int xq_tconfig_tiebreaks(xq_tconfig *cfg, const char *spec, xq_error *err)
{
  char buf[512];
  int tb[XQ_TOURNEY_TB_MAX], n = 0;
  if (!cfg || !spec) return XQ_EINVAL;
  for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
    if (!strcasecmp(spec, presets[i].name)) spec = presets[i].list;
  if (strlen(spec) >= sizeof buf) goto bad;
  strcpy(buf, spec);
  char *save = NULL;
  for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
    int code = -1;
    for (int c = 0; c < XQ_TB_COUNT; c++)
      if (!strcasecmp(t, tb_names[c])) code = c;
    if (!strcasecmp(t, "ROUNDBACK_LAST")) code = XQ_TB_ROUNDBACK_LAST;
    if (code < 0) {
      if (err) {
        err->code = XQ_EINVAL; err->pos = -1; err->ply = -1;
        snprintf(err->msg, sizeof err->msg, "unknown tie-break code '%.20s' (codes: PTS OS OS_C1 PS "
                 "WINS BWINS RWINS BLACK FOULS DE SB ROUNDBACK ROUNDBACK_FIRST LOT MATCHPTS)", t);
      }
      return XQ_EINVAL;
    }
    for (int k = 0; k < n; k++)
      if (tb[k] == code) {
        if (err) {
          err->code = XQ_EINVAL; err->pos = -1; err->ply = -1;
          snprintf(err->msg, sizeof err->msg, "tie-break code %s given twice", tb_names[code]);
        }
        return XQ_EINVAL;
      }
    if (n == XQ_TOURNEY_TB_MAX) goto bad;
    tb[n++] = code;
  }
  if (n == 0) goto bad;
  memcpy(cfg->tb, tb, sizeof tb[0] * (size_t)n);
  cfg->ntb = n;
  return XQ_OK;
bad:
  if (err) {
    err->code = XQ_EINVAL; err->pos = -1; err->ply = -1;
    snprintf(err->msg, sizeof err->msg, "tie-break order must list 1 to %d codes", XQ_TOURNEY_TB_MAX);
  }
  return XQ_EINVAL;
}

int xq_tconfig_tb_format(const xq_tconfig *cfg, char *buf, size_t len)
{
  size_t at = 0;
  if (!cfg || !buf || len == 0) return XQ_EINVAL;
  buf[0] = 0;
  for (int i = 0; i < cfg->ntb; i++) {
    int w = snprintf(buf + at, len - at, "%s%s", i ? "," : "", xq_tb_name(cfg->tb[i]));
    if (w < 0 || (size_t)w >= len - at) return XQ_ELIMIT;
    at += (size_t)w;
  }
  return XQ_OK;
}

void xq_tconfig_default(xq_tconfig *cfg)
{
  memset(cfg, 0, sizeof *cfg);
  xq_tconfig_scoring(cfg, 0);
  cfg->format = XQ_FORMAT_SWISS;
  cfg->cycles = 1;
  cfg->rr_swap = 1;
  cfg->rr_games = 1;
  cfg->first_round = XQ_FIRST_BY_RATING;
  cfg->max_colour_diff = 2;
  cfg->forbid_three = 1;
  cfg->last_round_relax = 1;
  cfg->forfeit_counts_as_met = 1;
  cfg->missed_rounds_withdraw = 2;
  cfg->wins_count_forfeits = 1;
  cfg->bye_os = XQ_BYE_OS_ZERO;
  cfg->de_mode = XQ_DE_FIDE;
  cfg->lot_seed = 20260101;
  xq_tconfig_tiebreaks(cfg, "os", NULL);
}

void xq_tconfig_round_robin(xq_tconfig *cfg, int cycles)
{
  cfg->format = XQ_FORMAT_RR;
  cfg->cycles = cycles == 2 ? 2 : 1;
  cfg->rr_swap = 1;
  cfg->rounds = 0;                    /* (N − 1)·cycles, known with the entrants */
  cfg->pab = 0;                       /* every entrant sits out once: no points */
  cfg->first_round = XQ_FIRST_BY_LOT; /* the numbers are drawn (抽签) */
  cfg->missed_rounds_withdraw = 0;    /* the table pairs everyone; withdrawal is by hand */
  cfg->rr_games = 1;
  xq_tconfig_tiebreaks(cfg, "cxa_rr1", NULL);
}

int xq_tconfig_two_games(xq_tconfig *cfg)
{
  if (!cfg || cfg->format != XQ_FORMAT_RR || cfg->cycles != 1) return XQ_EINVAL;
  cfg->rr_games = 2;
  xq_tconfig_tiebreaks(cfg, "cxa_rr2", NULL);
  return XQ_OK;
}

int xq_rr_event_rounds(const xq_tconfig *cfg, int n)
{
  if (!cfg || cfg->format != XQ_FORMAT_RR || n < 2) return 0;
  if (cfg->rr_groups > 1) n = (n + cfg->rr_groups - 1) / cfg->rr_groups; /* the largest group */
  if (n < 2) return 0;
  int N = n + (n & 1);
  return (N - 1) * (cfg->cycles == 2 ? 2 : 1) * (cfg->rr_games == 2 ? 2 : 1);
}

int xq_regulation_tconfig(const xq_regulation *r, xq_tconfig *cfg, xq_error *err)
{
  if (!r || !cfg) return XQ_EINVAL;
  xq_tconfig c = *cfg;
  if (r->rounds > 0) c.rounds = r->rounds;
  if (r->win_points > 0) xq_tconfig_scoring(&c, r->win_points == 1);
  /* round 1: Shaanxi draws the numbers (补充规定 三.1), the others number
   * by rating */
  const char *r1 = r->rows[XQ_REG_ROUND1].value;
  if (r1 && !strncmp(r1, "drawn", 5)) c.first_round = XQ_FIRST_BY_LOT;
  /* the forfeits that withdraw a player: the regulation's, else the rule
   * book's two (docs/tourney.md, "Who is paired"); only those in a row where it says so
   * (Shaanxi 补充规定 四.1: 连续弃权两轮者不再编排) */
  if (r->withdraw_after > 0) c.missed_rounds_withdraw = r->withdraw_after;
  c.withdraw_consecutive = r->withdraw_consecutive;
  if (r->tb_order && xq_tconfig_tiebreaks(&c, r->tb_order, err)) return XQ_EINVAL;
  *cfg = c;
  return XQ_OK;
}
