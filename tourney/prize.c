/*
 * prize.c -- prize tables (docs/tourney.md, "Prizes and age groups"): parsing, category membership,
 * the percentage cap, one prize per player, lucky prizes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prize.h"
#include "region.h"
#include "tourney.h"

static int perr(xq_error *err, int code, int line, const char *msg)
{
  if (err) {
    err->code = code; err->pos = line > 0 ? line : -1; err->ply = -1;
    if (line > 0) snprintf(err->msg, sizeof err->msg, "line %d: %.140s", line, msg);
    else snprintf(err->msg, sizeof err->msg, "%.140s", msg); /* the file as a whole */
  }
  return code;
}

/* Next whitespace-separated word of *p into w (cap bytes); 0 at the end. */
static int word(const char **p, char *w, size_t cap)
{
  const char *s = *p;
  while (*s == ' ' || *s == '\t') s++;
  size_t n = 0;
  while (*s && *s != ' ' && *s != '\t') {
    if (n + 1 < cap) w[n++] = *s;
    s++;
  }
  w[n] = 0;
  *p = s;
  return n > 0;
}

static int num(const char *s, long lo, long hi, int *out)
{
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end || errno || v < lo || v > hi) return 0;
  *out = (int)v;
  return 1;
}

/* A date bound "YYYY/MM/DD" (or "" for an open side), checked through
 * xq_player_check's normalisation. */
static int date_bound(const char *s, char out[11])
{
  if (!*s) { out[0] = 0; return 1; }
  xq_tplayer p;
  memset(&p, 0, sizeof p);
  snprintf(p.name, sizeof p.name, "x");
  snprintf(p.birth, sizeof p.birth, "%.10s", s);
  if (strlen(s) > 10 || xq_player_check(&p, NULL)) return 0;
  memcpy(out, p.birth, 11);
  return 1;
}

/* "FROM..TO" into the band of c->group (inclusive bounds). */
static int parse_band(const char **rest, xq_prize_cat *c, int line, xq_error *err)
{
  char w[XQ_TOURNEY_FIELD_MAX];
  if (!word(rest, w, sizeof w)) return perr(err, XQ_EINVAL, line, "born needs FROM..TO");
  char *dots = strstr(w, "..");
  if (!dots) return perr(err, XQ_EINVAL, line, "born needs FROM..TO (either side may be empty)");
  *dots = 0;
  if (!date_bound(w, c->group.born_from) || !date_bound(dots + 2, c->group.born_to))
    return perr(err, XQ_EINVAL, line, "bad birth date bound (YYYY/MM/DD)");
  memcpy(c->group.name, c->name, sizeof c->group.name); /* same size, NUL-terminated */
  return XQ_OK;
}

/* One condition or flag word `w` of a category line (the filter word
 * first, then options: each narrows who is eligible). */
static int category_word(const char *w, const char **rest, xq_prize_cat *c, int first, int line, xq_error *err)
{
  char v[XQ_TOURNEY_FIELD_MAX];
  if (!strcmp(w, "all") && first) c->filter = XQ_PF_ALL;
  else if (!strcmp(w, "local")) {
    if (first) c->filter = XQ_PF_LOCAL;
    else c->group.local_only = 1;
  } else if (!strcmp(w, "region")) {
    if (first) c->filter = XQ_PF_REGION;
    if (!word(rest, c->region, sizeof c->region)) return perr(err, XQ_EINVAL, line, "region needs a name");
  } else if (!strcmp(w, "born")) {
    if (first) c->filter = XQ_PF_GROUP;
    return parse_band(rest, c, line, err);
  } else if (first) {
    return perr(err, XQ_EINVAL, line, "category filter must be all, local, region or born");
  } else if (!strcmp(w, "repeat")) c->repeat = 1;
  else if (!strcmp(w, "apart")) c->apart = 1;
  else if (!strcmp(w, "sex")) {
    if (!word(rest, v, sizeof v) || (strcmp(v, "m") && strcmp(v, "w")))
      return perr(err, XQ_EINVAL, line, "sex must be m or w");
    c->group.sex = v[0];
  } else {
    return perr(err, XQ_EINVAL, line, "unknown category option (region, born, sex, local, repeat, apart)");
  }
  return XQ_OK;
}

static int parse_category(const char *rest, xq_prize_cat *c, int line, xq_error *err)
{
  char w[XQ_TOURNEY_FIELD_MAX];
  memset(c, 0, sizeof *c);
  if (!word(&rest, c->name, sizeof c->name)) return perr(err, XQ_EINVAL, line, "category needs a name");
  if (!word(&rest, w, sizeof w)) return perr(err, XQ_EINVAL, line, "category needs all, local, region or born");
  for (int first = 1;; first = 0) {
    int rc = category_word(w, &rest, c, first, line, err);
    if (rc) return rc;
    if (!word(&rest, w, sizeof w)) return XQ_OK;
  }
}

static int parse_line(const char *s, xq_prize_table *t, int line, xq_error *err)
{
  char w[XQ_TOURNEY_FIELD_MAX], v[XQ_TOURNEY_FIELD_MAX];
  if (!word(&s, w, sizeof w)) return XQ_OK;
  if (!strcmp(w, "cap")) {
    if (!word(&s, v, sizeof v) || !num(v, 1, 100, &t->cap_pct) || word(&s, v, sizeof v))
      return perr(err, XQ_EINVAL, line, "cap needs a percentage 1..100");
    return XQ_OK;
  }
  if (!strcmp(w, "category")) {
    if (t->ncats == XQ_PRIZE_CATS_MAX) return perr(err, XQ_ELIMIT, line, "too many categories");
    int rc = parse_category(s, &t->cats[t->ncats], line, err);
    if (!rc) t->ncats++;
    return rc;
  }
  if (!strcmp(w, "lucky")) {
    char a[16], b[16], c[16];
    if (!word(&s, a, sizeof a) || !word(&s, b, sizeof b) || !word(&s, c, sizeof c) ||
        !num(a, 1, XQ_TOURNEY_PLAYERS_MAX, &t->lucky_start) ||
        !num(b, 1, XQ_TOURNEY_PLAYERS_MAX, &t->lucky_step) || !num(c, 1, 1000000000, &t->lucky_amount))
      return perr(err, XQ_EINVAL, line, "lucky needs START STEP AMOUNT");
    while (word(&s, v, sizeof v)) {
      if (!strcmp(v, "active")) t->lucky_active = 1;
      else if (!strcmp(v, "last") && word(&s, v, sizeof v) && num(v, 1, XQ_TOURNEY_PLAYERS_MAX, &t->lucky_last)) {}
      else return perr(err, XQ_EINVAL, line, "lucky options: last N, active");
    }
    return XQ_OK;
  }
  /* PLACE AMOUNT or FIRST-LAST AMOUNT, of the category above or, after
   * "team", of the team places */
  int team = !strcmp(w, "team"), max = team ? XQ_TEAM_PRIZES_MAX : XQ_PRIZE_PLACES_MAX;
  if (team && !word(&s, w, sizeof w)) return perr(err, XQ_EINVAL, line, "team needs PLACE[-LAST] AMOUNT");
  if (!team && !t->ncats) return perr(err, XQ_EINVAL, line, "a place line before any category");
  int *have = team ? &t->nteam : &t->cats[t->ncats - 1].nplaces;
  int *amounts = team ? t->team_amount : t->cats[t->ncats - 1].amount;
  int first, last, amount;
  char *dash = strchr(w, '-');
  if (dash) *dash = 0;
  if (!num(w, 1, max, &first) || !num(dash ? dash + 1 : w, 1, max, &last) || last < first)
    return perr(err, XQ_EINVAL, line, team ? "expected team PLACE or FIRST-LAST (1..16), then an amount"
                                           : "expected PLACE or FIRST-LAST (1..200), then an amount");
  if (!word(&s, v, sizeof v) || !num(v, 0, 1000000000, &amount) || word(&s, v, sizeof v))
    return perr(err, XQ_EINVAL, line, "expected one amount after the places");
  if (first != *have + 1) return perr(err, XQ_EINVAL, line, "places must follow on without a gap");
  for (int p = first; p <= last; p++) amounts[p - 1] = amount;
  *have = last;
  return XQ_OK;
}

int xq_prize_parse(const char *text, size_t len, xq_prize_table *t, xq_error *err)
{
  if (!text || !t) return XQ_EINVAL;
  memset(t, 0, sizeof *t);
  char buf[512];
  size_t i = 0;
  int line = 0;
  while (i < len) {
    size_t n = 0;
    line++;
    while (i < len && text[i] != '\n') {
      if (n + 1 >= sizeof buf) return perr(err, XQ_ELIMIT, line, "line too long");
      buf[n++] = text[i] == '\r' || text[i] == '\t' ? ' ' : text[i];
      i++;
    }
    i++;
    buf[n] = 0;
    if (strlen(buf) != n) return perr(err, XQ_EINVAL, line, "NUL byte in the table");
    char *hash = strchr(buf, '#');
    if (hash) *hash = 0;
    if (xq_utf8_len(buf) < 0) return perr(err, XQ_EINVAL, line, "not UTF-8");
    int rc = parse_line(buf, t, line, err);
    if (rc) return rc;
  }
  return XQ_OK;
}

int xq_prize_read(const char *path, xq_prize_table *t, xq_error *err)
{
  FILE *f = path ? fopen(path, "rb") : NULL;
  if (!f) {
    if (err) { err->code = XQ_EIO; err->pos = -1; err->ply = -1; snprintf(err->msg, sizeof err->msg, "cannot open the prize table: %s", path ? strerror(errno) : "no file named"); }
    return XQ_EIO;
  }
  char *buf = malloc((size_t)XQ_PRIZE_TABLE_MAX + 1);
  if (!buf) { fclose(f); return XQ_ENOMEM; }
  size_t n = fread(buf, 1, (size_t)XQ_PRIZE_TABLE_MAX + 1, f);
  int bad = ferror(f);
  fclose(f);
  int rc;
  if (bad) rc = perr(err, XQ_EIO, 0, "cannot read the prize table");
  else if (n > (size_t)XQ_PRIZE_TABLE_MAX) rc = perr(err, XQ_ELIMIT, 0, "prize table larger than 64 KiB");
  else rc = xq_prize_parse(buf, n, t, err);
  free(buf);
  return rc;
}

int xq_prize_table_only(xq_prize_table *t, const char *name)
{
  if (!t || !name) return XQ_EINVAL;
  for (int c = 0; c < t->ncats; c++) {
    if (strcmp(t->cats[c].name, name)) continue;
    if (c) t->cats[0] = t->cats[c];
    t->cats[0].apart = 0;
    t->ncats = 1;
    t->lucky_amount = 0;
    t->nteam = 0;
    return XQ_OK;
  }
  return XQ_EINVAL;
}

int xq_prize_member(const xq_prize_cat *c, const xq_tplayer *p)
{
  if (!c || !p) return 0;
  switch (c->filter) {
  case XQ_PF_LOCAL: if (!p->local) return 0; break;
  case XQ_PF_ALL: case XQ_PF_REGION: case XQ_PF_GROUP: break;
  default: return 0;
  }
  if (c->region[0] && !xq_region_within(p->region, c->region)) return 0;
  return xq_group_match(&c->group, p); /* birth-date band, sex, local */
}

void xq_prize_eligibility(const xq_prize_cat *c, char *out, size_t cap)
{
  if (!out || !cap) return;
  out[0] = 0;
  if (!c) return;
  size_t n = 0;
#define SAY(...) (n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, __VA_ARGS__), n = n < cap ? n : cap - 1)
  if (c->filter == XQ_PF_LOCAL || c->group.local_only) SAY("local players");
  if (c->group.born_from[0] || c->group.born_to[0])
    SAY("%sborn %s..%s", n ? ", " : "", c->group.born_from[0] ? c->group.born_from : "",
        c->group.born_to[0] ? c->group.born_to : "");
  if (c->group.sex) SAY("%s%s", n ? ", " : "", c->group.sex == 'w' ? "women" : "men");
  if (c->region[0]) {
    char places[400];
    int k = xq_region_places(c->region, places, sizeof places);
    SAY("%sregion within %s%s%s%s", n ? ", " : "", c->region, k ? " (" : "", places, k ? ")" : "");
  }
  if (!n) SAY("everyone");
  if (c->repeat) SAY(", won on top of another prize");
#undef SAY
}

/* Players who may win lucky prizes under `active`: Shaanxi 退赛和弃权两轮
 * 或以上的没有奖励 (withdrawn, or two or more rounds missed). */
static int lucky_ok(const xq_tournament *ev, int id)
{
  if (ev->players[id - 1].withdrawn) return 0;
  int missed = 0;
  for (int r = 1; r <= ev->nrounds; r++) {
    int res = xq_tournament_slot(ev, id, r)->res;
    if (res == XQ_TR_FLOSS || res == XQ_TR_ZPB) missed++;
  }
  return missed < 2;
}

/* Pool and split the awards of a category whose final places share a
 * run (Xinjiang ko_places=shared: 3-4, 5-8). */
static void share_places(const xq_prize_table *t, xq_award *aw, int na)
{
  for (int r = 0; r < t->nshare && r < XQ_PRIZE_SHARES_MAX; r++)
    for (int c = 0; c < t->ncats; c++) {
      long sum = 0;
      int k = 0;
      for (int i = 0; i < na; i++)
        if (aw[i].cat == c && aw[i].place >= t->share_first[r] && aw[i].place <= t->share_last[r])
          sum += aw[i].amount, k++;
      /* the remainder of the division to the best placed (first in order) */
      for (int i = 0, j = 0; k > 1 && i < na; i++)
        if (aw[i].cat == c && aw[i].place >= t->share_first[r] && aw[i].place <= t->share_last[r])
          aw[i].amount = (int)(sum / k + (j++ < sum % k));
    }
}

typedef struct prize_slot {
  int cat, place, amount, section;
} prize_slot;

static int slot_cmp(const void *x, const void *y)
{
  const prize_slot *a = x, *b = y;
  if (a->amount != b->amount) return a->amount > b->amount ? -1 : 1;
  if (a->cat != b->cat) return a->cat - b->cat;
  if (a->section != b->section) return a->section - b->section;
  return a->place - b->place;
}

static int award_cmp(const void *x, const void *y)
{
  const xq_award *a = x, *b = y;
  int ca = a->cat < 0 ? XQ_PRIZE_CATS_MAX : a->cat, cb = b->cat < 0 ? XQ_PRIZE_CATS_MAX : b->cat;
  if (ca != cb) return ca - cb;
  if (a->section != b->section) return a->section - b->section;
  return a->cat_place - b->cat_place;
}

/* A member of category `pc` in list `section` ('m': men and players of no
 * sex recorded, 'w': women, 0: everyone). */
static int in_list(const xq_prize_cat *pc, int section, const xq_tplayer *p)
{
  if (!xq_prize_member(pc, p)) return 0;
  return !section || (section == 'w') == (p->sex == 'w');
}

/* The lists of category `pc` over `ev`: a men's and a women's where its
 * group ranks them apart and the women are XQ_WOMEN_SECTION_MIN or more
 * (Tangshan 九.3-4 女子组不足三人…混入男子组), else one. Fills lists[]
 * ("mw" or a single 0) and returns how many. */
static int cat_lists(const xq_tournament *ev, const xq_prize_cat *pc, int *lists)
{
  int women = 0;
  for (int id = 1; pc->group.sections && !pc->group.sex && id <= ev->n; id++)
    women += in_list(pc, 'w', &ev->players[id - 1]);
  if (women < XQ_WOMEN_SECTION_MIN) {
    lists[0] = 0;
    return 1;
  }
  lists[0] = 'm';
  lists[1] = 'w';
  return 2;
}

int xq_prizes_award(const xq_tournament *ev, const int *places, const xq_prize_table *t,
                    xq_award *out, int cap, int *nout)
{
  if (!ev || !places || !t || !out || !nout || cap < 0 || t->ncats > XQ_PRIZE_CATS_MAX) return XQ_EINVAL;
  int n = ev->n, na = 0, rc = XQ_OK;
  int *place_of = calloc((size_t)n + 1, sizeof *place_of);
  int *holds = calloc((size_t)n + 1, sizeof *holds);
  prize_slot *slots = malloc(sizeof *slots * (size_t)(2 * t->ncats * XQ_PRIZE_PLACES_MAX + 1));
  if (!place_of || !holds || !slots) { rc = XQ_ENOMEM; goto out; }
  for (int i = 0; i < n; i++) {
    if (places[i] < 1 || places[i] > n || place_of[places[i]]) { rc = XQ_EINVAL; goto out; }
    place_of[places[i]] = i + 1;
  }
  int ns = 0;
  for (int c = 0; c < t->ncats; c++) {
    const xq_prize_cat *pc = &t->cats[c];
    if (pc->apart) continue; /* another group's own event (Tangshan 七) */
    int lists[2], nl = pc->repeat ? 1 : cat_lists(ev, pc, lists);
    if (pc->repeat) lists[0] = 0;
    for (int l = 0; l < nl; l++) {
      int members = 0, k = pc->nplaces;
      for (int id = 1; id <= n; id++) members += in_list(pc, lists[l], &ev->players[id - 1]);
      /* at most ⌊cap% × entrants⌋ places in a category (floor) */
      if (t->cap_pct && k > members * t->cap_pct / 100) k = members * t->cap_pct / 100;
      for (int p = 1; p <= k; p++) {
        if (pc->repeat) {
          /* a repeat category is awarded by its own order, on top of any
           * other prize (Burqin 奖金可重复领取, Shaanxi 可重复拿奖) */
          int seen = 0;
          for (int i = 0; i < n; i++) {
            int id = places[i];
            if (!xq_prize_member(pc, &ev->players[id - 1]) || ++seen != p) continue;
            if (na == cap) { rc = XQ_ELIMIT; goto out; }
            out[na++] = (xq_award){id, i + 1, c, p, pc->amount[p - 1], 0};
            break;
          }
        } else {
          slots[ns++] = (prize_slot){c, p, pc->amount[p - 1], lists[l]};
        }
      }
    }
  }
  /* one prize per player — the highest first; the prize passes to
   * the next member of its category */
  qsort(slots, (size_t)ns, sizeof slots[0], slot_cmp);
  for (int s = 0; s < ns; s++) {
    const xq_prize_cat *pc = &t->cats[slots[s].cat];
    for (int i = 0; i < n; i++) {
      int id = places[i];
      if (holds[id] || !in_list(pc, slots[s].section, &ev->players[id - 1])) continue;
      if (na == cap) { rc = XQ_ELIMIT; goto out; }
      holds[id] = 1;
      out[na++] = (xq_award){id, i + 1, slots[s].cat, slots[s].place, slots[s].amount, slots[s].section};
      break;
    }
  }
  /* lucky prizes at start, start+step, ... up to the last place */
  if (t->lucky_amount && t->lucky_start > 0 && t->lucky_step > 0) {
    int last = t->lucky_last && t->lucky_last < n ? t->lucky_last : n;
    for (int p = t->lucky_start; p <= last; p += t->lucky_step) {
      int id = places[p - 1];
      if (t->lucky_active && !lucky_ok(ev, id)) continue;
      if (na == cap) { rc = XQ_ELIMIT; goto out; }
      out[na++] = (xq_award){id, p, -1, p, t->lucky_amount, 0};
    }
  }
  qsort(out, (size_t)na, sizeof out[0], award_cmp);
  share_places(t, out, na); /* after the sort: a category's awards in place order */
  *nout = na;
out:
  free(place_of);
  free(holds);
  free(slots);
  return rc;
}
