/*
 * player.c -- player records (UTF-8 names, birth dates) and groups by
 * birth-date band, sex and the local flag (docs/presets.md "groups").
 */
#include <stdio.h>
#include <string.h>

#include "tourney.h"

static void seterr(xq_error *err, int code, const char *msg)
{
  if (!err) return;
  err->code = code;
  err->pos = -1;
  err->ply = -1;
  snprintf(err->msg, sizeof err->msg, "%s", msg);
}

int xq_utf8_len(const char *s)
{
  const unsigned char *p = (const unsigned char *)s;
  int n = 0;
  while (*p) {
    int extra;
    unsigned cp;
    if (*p < 0x80) { p++; n++; continue; }
    if ((*p & 0xE0) == 0xC0) { extra = 1; cp = *p & 0x1F; }
    else if ((*p & 0xF0) == 0xE0) { extra = 2; cp = *p & 0x0F; }
    else if ((*p & 0xF8) == 0xF0) { extra = 3; cp = *p & 0x07; }
    else return -1;
    p++;
    for (int i = 0; i < extra; i++, p++) {
      if ((*p & 0xC0) != 0x80) return -1;
      cp = (cp << 6) | (*p & 0x3F);
    }
    /* reject overlong forms, surrogates and values above U+10FFFF */
    if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) ||
        (extra == 3 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return -1;
    n++;
  }
  return n;
}

static int leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* Parse YYYY?MM?DD with '/', '-' or '.' separators into YYYY/MM/DD: 1;
 * 0 for a date written so that does not exist (1990-13-45, 2001/02/29);
 * -1 for a text not written so. */
static int norm_date(char *d)
{
  static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int y, m, dd;
  char s1, s2, rest;
  if (sscanf(d, "%4d%c%2d%c%2d%c", &y, &s1, &m, &s2, &dd, &rest) != 5) return -1;
  if (s1 != s2 || (s1 != '/' && s1 != '-' && s1 != '.')) return -1;
  if (y < 1850 || y > 2200 || m < 1 || m > 12 || dd < 1) return 0;
  if (dd > mdays[m - 1] + (m == 2 && leap(y))) return 0;
  char out[32];
  snprintf(out, sizeof out, "%04d/%02d/%02d", y, m, dd);
  memcpy(d, out, 11); /* the ranges checked above make it 10 characters */
  return 1;
}

int xq_player_check(xq_tplayer *p, xq_error *err)
{
  if (!p) { seterr(err, XQ_EINVAL, "no player"); return XQ_EINVAL; }
  size_t len = strnlen(p->name, XQ_TOURNEY_NAME_MAX);
  if (len == 0 || len >= XQ_TOURNEY_NAME_MAX) {
    seterr(err, XQ_EINVAL, "name must be 1 to 255 bytes");
    return XQ_EINVAL;
  }
  if (xq_utf8_len(p->name) < 0) {
    seterr(err, XQ_EINVAL, "name is not valid UTF-8");
    return XQ_EINVAL;
  }
  for (const unsigned char *c = (const unsigned char *)p->name; *c; c++)
    if (*c < 0x20 || *c == 0x7F) {
      seterr(err, XQ_EINVAL, "name contains a control character");
      return XQ_EINVAL;
    }
  if (p->rating < 0 || p->rating > 9999) {
    seterr(err, XQ_EINVAL, "rating must be 0..9999");
    return XQ_EINVAL;
  }
  if (p->sex && p->sex != 'm' && p->sex != 'w') {
    seterr(err, XQ_EINVAL, "sex must be m or w");
    return XQ_EINVAL;
  }
  int date = p->birth[0] ? norm_date(p->birth) : 1;
  if (date < 1) {
    if (date < 0) seterr(err, XQ_EINVAL, "birth date must be written YYYY/MM/DD");
    else {
      char msg[96];
      snprintf(msg, sizeof msg, "birth date %.16s does not exist (no month 13, no 30 February)", p->birth);
      seterr(err, XQ_EINVAL, msg);
    }
    return XQ_EINVAL;
  }
  const char *fields[] = {p->region, p->club, p->team};
  for (int i = 0; i < 3; i++)
    if (strnlen(fields[i], XQ_TOURNEY_FIELD_MAX) >= XQ_TOURNEY_FIELD_MAX || xq_utf8_len(fields[i]) < 0) {
      seterr(err, XQ_EINVAL, "region, club and team must be valid UTF-8 under 64 bytes");
      return XQ_EINVAL;
    }
  return XQ_OK;
}

int xq_group_match(const xq_tgroup *g, const xq_tplayer *p)
{
  if (!g || !p) return 0;
  if (g->sex && p->sex != g->sex) return 0;
  if (g->local_only && !p->local) return 0;
  if (g->born_from[0] || g->born_to[0]) {
    /* YYYY/MM/DD compares as a string; the bounds are inclusive */
    if (!p->birth[0]) return 0;
    if (g->born_from[0] && strcmp(p->birth, g->born_from) < 0) return 0;
    if (g->born_to[0] && strcmp(p->birth, g->born_to) > 0) return 0;
  }
  return 1;
}

int xq_group_named(const xq_tgroup *g, const char *want)
{
  if (!g || !want) return 0;
  size_t n = strlen(want);
  for (const char *s = g->name; n && *s;) {
    if (!strncmp(s, want, n) && (s[n] == 0 || s[n] == ' ') && (s == g->name || s[-1] == ' ')) return 1;
    s = strchr(s, ' ');
    if (!s) break;
    s++;
  }
  return 0;
}

int xq_group_sections(const xq_tgroup *g, const xq_tplayer *players, int n,
                      int *men, int *nmen, int *women, int *nwomen, int *merged)
{
  if (!g || (!players && n) || !men || !nmen || !women || !nwomen || !merged || n < 0)
    return XQ_EINVAL;
  xq_tgroup any = *g;
  any.sex = 0;
  *nmen = *nwomen = *merged = 0;
  for (int i = 0; i < n; i++) {
    if (!xq_group_match(&any, &players[i])) continue;
    if (players[i].sex == 'w') women[(*nwomen)++] = i + 1;
    else men[(*nmen)++] = i + 1;
  }
  if (*nwomen > 0 && *nwomen < XQ_WOMEN_SECTION_MIN) {
    /* Tangshan 2018: 女子组不足三人取消该组，混入男子组计算成绩. The merged
     * section keeps registration order. */
    int all = 0;
    for (int i = 0; i < n; i++)
      if (xq_group_match(&any, &players[i])) men[all++] = i + 1;
    *nmen = all;
    *nwomen = 0;
    *merged = 1;
  }
  return XQ_OK;
}

int xq_player_sex_parse(const char *s)
{
  static const char *const men[] = {"m", "M", "男"}, *const women[] = {"w", "W", "f", "F", "女"};
  if (!s) return -1;
  if (!s[0]) return 0;
  for (size_t i = 0; i < sizeof men / sizeof men[0]; i++)
    if (!strcmp(s, men[i])) return 'm';
  for (size_t i = 0; i < sizeof women / sizeof women[0]; i++)
    if (!strcmp(s, women[i])) return 'w';
  return -1;
}

int xq_player_same(const xq_tplayer *a, const xq_tplayer *b)
{
  if (!a || !b || strcmp(a->name, b->name) || strcmp(a->club, b->club)) return 0;
  /* each date in its one form when it is a date (an event read from a TRF
   * file keeps 1989-03-15 or 1989.03.15 as written); else as written */
  char da[sizeof a->birth], db[sizeof b->birth];
  memcpy(da, a->birth, sizeof da);
  memcpy(db, b->birth, sizeof db);
  da[sizeof da - 1] = db[sizeof db - 1] = '\0';
  norm_date(da); /* changes nothing when it is not a date */
  norm_date(db);
  return !strcmp(da, db);
}

int xq_tournament_same_player(const xq_tournament *ev, const xq_tplayer *p)
{
  if (!ev || !p) return 0;
  for (int id = 1; id <= ev->n; id++)
    if (xq_player_same(&ev->players[id - 1], p)) return id;
  return 0;
}
