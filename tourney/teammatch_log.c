/*
 * teammatch_log.c -- the team log's rows applied to a team competition
 * (teammatch.h): the settings as a line of text and back, and the replay
 * of each kind of row, so that the store only keeps rows and a reload
 * rebuilds the event as it was (docs/store.md, "team_log").
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "teammatch.h"
#include "tourney_internal.h"

static const char *const kind_names[XQ_TML_KINDS] = {
  [XQ_TML_CONFIG] = "config", [XQ_TML_TEAM] = "team", [XQ_TML_NUMBERS] = "numbers", [XQ_TML_MATCH] = "match",
  [XQ_TML_LINEUP] = "lineup", [XQ_TML_RESULT] = "result", [XQ_TML_FORFEIT] = "forfeit",
  [XQ_TML_WITHDRAW] = "withdraw", [XQ_TML_ROSTER] = "roster"};

const char *xq_tm_log_kind_name(int kind)
{
  return kind > 0 && kind < XQ_TML_KINDS ? kind_names[kind] : "?";
}

int xq_tm_log_kind_parse(const char *name)
{
  for (int k = 1; name && k < XQ_TML_KINDS; k++)
    if (!strcmp(name, kind_names[k])) return k;
  return 0;
}

/* The integer settings, by name. */
#define K(f) {#f, offsetof(xq_tm_config, f)}
static const struct { const char *key; size_t off; } keys[] = {
  K(format), K(boards), K(rounds), K(cycles), K(rr_swap), K(system), K(board_order), K(board_colours),
  K(min_players), K(gp_win), K(gp_draw), K(gp_loss), K(mp_win), K(mp_draw), K(mp_loss), K(home_away),
  K(mp_draw_home), K(mp_draw_away), K(forfeit_match_gp), K(bye_gp), K(bye_mp), K(prize_min_games),
};
#undef K
#define NKEYS ((int)(sizeof keys / sizeof keys[0]))

int xq_tm_config_write(const xq_tm_config *cfg, char *buf, size_t cap)
{
  size_t len = 0;
  for (int i = 0; i < NKEYS; i++)
    len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "%s=%d;", keys[i].key,
                            *(const int *)((const char *)cfg + keys[i].off));
  len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "seed=%llu;tb=", (unsigned long long)cfg->lot_seed);
  for (int i = 0; i < cfg->ntb; i++)
    len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "%s%s", i ? "," : "", xq_ttb_name(cfg->tb[i]));
  return len < cap ? XQ_OK : XQ_ELIMIT;
}

/* One "key=value" of the settings into c. */
static int read_pair(xq_tm_config *c, const char *key, size_t klen, const char *val, xq_error *err)
{
  if (klen == 2 && !strncmp(key, "tb", 2)) return xq_tm_config_tiebreaks(c, val, err);
  char *end;
  if (klen == 4 && !strncmp(key, "seed", 4)) {
    c->lot_seed = strtoull(val, &end, 10);
    return *end ? xq__error(err, XQ_EINVAL, "team settings: bad seed") : XQ_OK;
  }
  for (int i = 0; i < NKEYS; i++) {
    if (strlen(keys[i].key) != klen || strncmp(key, keys[i].key, klen)) continue;
    long v = strtol(val, &end, 10);
    if (*end || v < -1 || v > 1000000) return xq__error(err, XQ_EINVAL, "team settings: bad %s", keys[i].key);
    *(int *)((char *)c + keys[i].off) = (int)v;
    return XQ_OK;
  }
  return xq__error(err, XQ_EINVAL, "team settings: unknown key %.*s", (int)klen, key);
}

int xq_tm_config_read(xq_tm_config *cfg, const char *text, xq_error *err)
{
  xq_tm_config c = *cfg;
  char val[XQ_TM_LOG_TEXT_MAX];
  for (const char *p = text; p && *p;) {
    size_t len = strcspn(p, ";"), klen = strcspn(p, "=");
    if (klen >= len || len - klen - 1 >= sizeof val) return xq__error(err, XQ_EINVAL, "team settings: bad \"%.*s\"", (int)len, p);
    memcpy(val, p + klen + 1, len - klen - 1);
    val[len - klen - 1] = 0;
    int rc = read_pair(&c, p, klen, val, err);
    if (rc) return rc;
    p += len + (p[len] == ';');
  }
  if ((c.format != XQ_TM_RR && c.format != XQ_TM_SWISS) || c.boards < 2 || c.boards > XQ_TM_BOARDS_MAX)
    return xq__error(err, XQ_EINVAL, "team settings: bad format or boards");
  *cfg = c;
  return XQ_OK;
}

/* A TEAM row (a new team) or a ROSTER row (a team's roster replaced):
 * the roster's names from `people`. */
static int apply_team(xq_tm_event *ev, const xq_tournament *people, const xq_tm_logrow *row, xq_error *err)
{
  xq_tm_member r[XQ_TM_ROSTER_MAX];
  for (int i = 0; i < row->nlist; i++) {
    int id = row->list[i];
    if (!people || id < 1 || id > people->n) return xq__error(err, XQ_EINVAL, "team roster: no player %d", id);
    r[i].id = id;
    snprintf(r[i].name, sizeof r[i].name, "%s", people->players[id - 1].name);
  }
  if (row->kind == XQ_TML_ROSTER) return xq_tm_team_roster(ev, row->a, r, row->nlist, row->b, err);
  return xq_tm_team_add(ev, row->text, r, row->nlist, row->a, NULL, err);
}

int xq_tm_log_apply(xq_tm_event **evp, const xq_tournament *people, const xq_tm_logrow *row, xq_error *err)
{
  if (!evp || !row) return xq__error(err, XQ_EINVAL, "no team log row");
  xq_tm_event *ev = *evp;
  if (row->kind == XQ_TML_CONFIG) {
    xq_tm_config cfg;
    xq_tm_config_default(&cfg, XQ_TM_RR, 4);
    if (ev) cfg = ev->cfg;
    int rc = xq_tm_config_read(&cfg, row->text, err);
    if (rc) return rc;
    if (ev) ev->cfg = cfg;
    else if (!(*evp = xq_tm_event_new(&cfg))) return xq__error(err, XQ_ENOMEM, "out of memory");
    return XQ_OK;
  }
  if (!ev) return xq__error(err, XQ_EINVAL, "team log: %s before the settings", xq_tm_log_kind_name(row->kind));
  int m = xq_tm_match_at(ev, row->round, row->a), rc;
  switch (row->kind) {
  case XQ_TML_TEAM:
  case XQ_TML_ROSTER: return apply_team(ev, people, row, err);
  case XQ_TML_NUMBERS: return xq_tm_number_teams(ev, strtoull(row->text, NULL, 10));
  case XQ_TML_MATCH:
    rc = xq_tm_match_add(ev, row->round, row->a, row->b);
    return rc ? xq__error(err, rc, "team log: match %d v %d of round %d", row->a, row->b, row->round) : XQ_OK;
  case XQ_TML_LINEUP:
    return xq_tm_set_lineup(ev, xq_tm_match_of(ev, row->round, row->a), row->a, row->list, row->nlist, err);
  case XQ_TML_RESULT: return xq_tm_set_result(ev, m, row->b, row->c, err);
  case XQ_TML_FORFEIT: return xq_tm_set_forfeit(ev, m, row->b, err);
  case XQ_TML_WITHDRAW: return xq_tm_withdraw(ev, row->a, row->round);
  default: return xq__error(err, XQ_EINVAL, "team log: unknown row kind %d", row->kind);
  }
}

int xq_tm_match_at(const xq_tm_event *ev, int round, int k)
{
  for (int m = 0; ev && m < ev->nmatches; m++)
    if (ev->matches[m].round == round && --k == 0) return m;
  return -1;
}
