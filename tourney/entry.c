/*
 * entry.c -- who may enter an event made from a regulation: the event's
 * title names the regulation and, for a group that plays an event of its
 * own (xq_tgroup.apart: Xinjiang's junior groups, Tangshan's seniors,
 * juniors and children), the group. A player of such a group is refused
 * in the open event and a player of another group in the group's event;
 * a player without a birth date where the groups go by birth date is
 * entered with a warning (he belongs to no dated group and wins none of
 * their prizes).
 */
#include <stdio.h>
#include <string.h>

#include "tourney_internal.h"
#include "prize.h"

int xq_regulation_event_group(const char *title, const xq_regulation **r, xq_tgroup *group)
{
  if (!title || !r) return XQ_EINVAL;
  *r = NULL;
  if (group) memset(group, 0, sizeof *group);
  const xq_regulation *found = xq_regulation_titled(title);
  if (found) {
    *r = found;
    return XQ_OK;
  }
  const xq_regulation *ri;
  for (int i = 0; (ri = xq_regulation_at(i)); i++) {
    size_t n = strlen(ri->title);
    if (strncmp(title, ri->title, n) || title[n] != ' ') continue;
    xq_tgroup g[XQ_REG_GROUPS_MAX];
    int ng = 0;
    if (xq_regulation_groups(ri, g, XQ_REG_GROUPS_MAX, &ng, NULL)) continue;
    for (int k = 1; k < ng; k++)
      if (g[k].apart && !strcmp(title + n + 1, g[k].name)) {
        *r = ri;
        if (group) *group = g[k];
        return XQ_OK;
      }
  }
  return XQ_EINVAL;
}

/* True when some group of g[0..ng) goes by birth date. */
static int dated(const xq_tgroup *g, int ng)
{
  for (int i = 0; i < ng; i++)
    if (g[i].born_from[0] || g[i].born_to[0]) return 1;
  return 0;
}

/* The group rules of entry (xq_regulation_entry without the age limit). */
static int entry_groups(const char *title, const xq_tplayer *p, char *warn, size_t wlen, xq_error *err)
{
  const xq_regulation *r;
  xq_tgroup own;
  if (!title || xq_regulation_event_group(title, &r, &own)) return XQ_OK; /* no regulation's event */
  xq_tgroup g[XQ_REG_GROUPS_MAX];
  int ng = 0;
  if (xq_regulation_groups(r, g, XQ_REG_GROUPS_MAX, &ng, NULL) || !ng) return XQ_OK;
  if (!p->birth[0]) {
    if (dated(g, ng) && warn && wlen)
      snprintf(warn, wlen, "%s has no birth date: %s's groups go by birth date, so %s is in none of them and "
               "can win no prize of a group or an age band (add --birth YYYY/MM/DD)", p->name, r->name, p->name);
    return XQ_OK;
  }
  if (own.name[0]) {
    if (!xq_group_match(&own, p))
      return xq__error(err, XQ_EINVAL, "%s (born %s) is not of %s, whose event this is", p->name, p->birth, own.name);
    return XQ_OK;
  }
  int any = 0;
  for (int k = 0; k < ng; k++) {
    if (g[k].apart && xq_group_match(&g[k], p) && !xq_group_match(&g[0], p))
      return xq__error(err, XQ_EINVAL, "%s (born %s) is of %s, which plays an event of its own "
                       "(xqref tourney new --preset %s --group \"%s\")", p->name, p->birth, g[k].name, r->name,
                       g[k].name);
    any |= xq_group_match(&g[k], p);
  }
  if (!any && warn && wlen)
    snprintf(warn, wlen, "%s (born %s) is in none of %s's groups and wins no prize of a group", p->name, p->birth,
             r->name);
  return XQ_OK;
}

int xq_regulation_entry(const char *title, const xq_tplayer *p, char *warn, size_t wlen, xq_error *err)
{
  if (!p) return XQ_EINVAL;
  if (warn && wlen) warn[0] = 0;
  int rc = entry_groups(title, p, warn, wlen, err);
  const xq_regulation *r;
  const char *from, *clause;
  if (rc || !title || !p->birth[0] || xq_regulation_event_group(title, &r, NULL) ||
      !xq_regulation_age_limit(r, &from, &clause) || strcmp(p->birth, from) >= 0 || !warn || !wlen)
    return rc;
  /* Burqin 四(一) 年龄要求70周岁以下: entered, with a warning for the arbiter */
  size_t k = strlen(warn);
  snprintf(warn + k, wlen - k, "%s%s (born %s) is over %s's age limit: born on or after %s (%s)", k ? "; " : "",
           p->name, p->birth, r->name, from, clause);
  return rc;
}

int xq_regulation_entry_count(const char *title, int registered, char *warn, size_t wlen)
{
  const xq_regulation *r = title ? xq_regulation_titled(title) : NULL;
  if (!r || r->entry_limit <= 0 || registered < r->entry_limit) return 0;
  /* Xinjiang 十一(一) 限报150人…报满截止, Shaanxi 十三(一)1 限报100人, Tangshan
   * 十.1 限报180人，先报先得: registration is full */
  if (warn && wlen)
    snprintf(warn, wlen, "%d players registered, more than %s's entry limit of %d (%s)", registered + 1, r->name,
             r->entry_limit, r->rows[XQ_REG_ENTRY_LIMIT].clause);
  return 1;
}
