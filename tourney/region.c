/*
 * region.c -- the region hierarchy of data/regions.txt (region.h): a
 * place's area and whether a place lies within an area. The text is
 * scanned on each call (a few kilobytes, no state kept).
 */
#include <stdio.h>
#include <string.h>

#include "region.h"

/* True when the alias group [g, g+n) ("神木|神木县|神木市") spells `name`. */
static int group_spells(const char *g, size_t n, const char *name)
{
  size_t len = strlen(name);
  const char *end = g + n;
  while (g < end) {
    const char *bar = memchr(g, '|', (size_t)(end - g));
    size_t k = bar ? (size_t)(bar - g) : (size_t)(end - g);
    if (k == len && !memcmp(g, name, len)) return 1;
    g += k + 1;
  }
  return 0;
}

/* Copy the first spelling of group [g, g+n) into out (cap bytes). */
static void first_spelling(const char *g, size_t n, char *out, size_t cap)
{
  const char *bar = memchr(g, '|', n);
  size_t k = bar ? (size_t)(bar - g) : n;
  if (k >= cap) k = cap - 1;
  memcpy(out, g, k);
  out[k] = 0;
}

/* Walk the data line by line; for each word (an alias group) call `fn`
 * with its line's area group and whether the word is the area (left of
 * '>'). Stops when fn returns nonzero and returns that. */
typedef int (*word_fn)(void *ctx, const char *area, size_t na, const char *w, size_t nw, int is_area);

static int each_word(word_fn fn, void *ctx)
{
  const char *s = xq__regions_text, *end = s + xq__regions_len;
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *le = nl ? nl : end, *area = NULL;
    size_t na = 0;
    int right = 0;
    for (const char *p = s; p < le && *s != '#';) {
      while (p < le && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
      const char *w = p;
      while (p < le && *p != ' ' && *p != '\t' && *p != '\r') p++;
      size_t nw = (size_t)(p - w);
      if (!nw) continue;
      if (nw == 1 && *w == '>') { right = 1; continue; }
      if (!right && !area) area = w, na = nw;
      if (!area) continue;
      int r = fn(ctx, area, na, w, nw, !right);
      if (r) return r;
    }
    s = le + 1;
  }
  return 0;
}

/* What the walks of xq_region_parent and xq_region_places look for and
 * where they write. */
typedef struct out_ctx {
  const char *name;   /* the place (parent) or the area (places) */
  char *out;
  size_t cap;
  int n;              /* places listed */
} out_ctx;

static int find_parent(void *ctx, const char *area, size_t na, const char *w, size_t nw, int is_area)
{
  out_ctx *c = ctx;
  if (is_area || !group_spells(w, nw, c->name)) return 0;
  first_spelling(area, na, c->out, c->cap);
  return 1;
}

int xq_region_parent(const char *place, char *out, size_t cap)
{
  if (!out || !cap) return 0;
  out[0] = 0;
  if (!place || !place[0]) return 0;
  out_ctx c = {place, out, cap, 0};
  return each_word(find_parent, &c);
}

typedef struct same_ctx {
  const char *a, *b;
} same_ctx;

static int find_same(void *ctx, const char *area, size_t na, const char *w, size_t nw, int is_area)
{
  same_ctx *c = ctx;
  (void)area; (void)na; (void)is_area;
  return group_spells(w, nw, c->a) && group_spells(w, nw, c->b);
}

/* True when a and b name the same place (equal, or spellings of one group). */
static int same_place(const char *a, const char *b)
{
  if (!strcmp(a, b)) return 1;
  same_ctx c = {a, b};
  return each_word(find_same, &c);
}

/* One part of a path: `place` itself or an area above it is `area`. */
static int part_within(const char *place, const char *area)
{
  char cur[XQ_REGION_NAME_MAX], up[XQ_REGION_NAME_MAX];
  size_t n = strlen(place);
  if (n >= sizeof cur) return 0;
  memcpy(cur, place, n + 1);
  for (int depth = 0; depth < XQ_REGION_DEPTH_MAX; depth++) {
    if (same_place(cur, area)) return 1;
    if (!xq_region_parent(cur, up, sizeof up)) return 0;
    memcpy(cur, up, sizeof cur);
  }
  return 0;
}

static int find_known(void *ctx, const char *area, size_t na, const char *w, size_t nw, int is_area)
{
  (void)area; (void)na; (void)is_area;
  return group_spells(w, nw, ctx);
}

/* True when the data spells `name`. */
static int known(const char *name)
{
  return each_word(find_known, (void *)name);
}

/* A place written in full, its levels run together ("阿勒泰地区北屯市",
 * "陕西省榆林市佳县"): split `s` into names the data knows, the longest
 * first, backing off when the rest does not split. *np names go to
 * at[] (offsets) and len[]. True when the whole of `s` splits. */
static int split_run(const char *s, size_t *at, size_t *len, int *np, size_t off)
{
  size_t n = strlen(s + off);
  if (!n) return 1;
  if (*np >= XQ_REGION_DEPTH_MAX) return 0;
  char head[XQ_REGION_NAME_MAX];
  for (size_t k = n < sizeof head ? n : sizeof head - 1; k > 0; k--) {
    if (k < n && ((unsigned char)s[off + k] & 0xC0) == 0x80) continue; /* inside a character */
    memcpy(head, s + off, k);
    head[k] = 0;
    if (!known(head)) continue;
    at[*np] = off;
    len[(*np)++] = k;
    if (split_run(s, at, len, np, off + k)) return 1;
    (*np)--;
  }
  return 0;
}

/* One part of a path, written in full: one of its names lies within `area`. */
static int run_within(const char *part, const char *area)
{
  size_t at[XQ_REGION_DEPTH_MAX], len[XQ_REGION_DEPTH_MAX];
  int np = 0;
  if (known(part) || !split_run(part, at, len, &np, 0) || np < 2) return 0;
  char name[XQ_REGION_NAME_MAX];
  for (int i = 0; i < np; i++) {
    memcpy(name, part + at[i], len[i]);
    name[len[i]] = 0;
    if (part_within(name, area)) return 1;
  }
  return 0;
}

int xq_region_within(const char *place, const char *area)
{
  if (!place || !area) return 0;
  if (!area[0]) return !place[0];
  char part[XQ_REGION_NAME_MAX];
  for (const char *s = place; *s;) {
    const char *slash = strchr(s, '/');
    size_t k = slash ? (size_t)(slash - s) : strlen(s);
    if (k && k < sizeof part) {
      memcpy(part, s, k);
      part[k] = 0;
      if (part_within(part, area) || run_within(part, area)) return 1;
    }
    if (!slash) break;
    s = slash + 1;
  }
  return 0;
}

static int list_place(void *ctx, const char *area, size_t na, const char *w, size_t nw, int is_area)
{
  out_ctx *c = ctx;
  if (is_area || !group_spells(area, na, c->name)) return 0;
  char name[XQ_REGION_NAME_MAX];
  first_spelling(w, nw, name, sizeof name);
  size_t len = strlen(c->out);
  if (len + strlen(name) + 3 < c->cap) snprintf(c->out + len, c->cap - len, "%s%s", c->n ? ", " : "", name);
  c->n++;
  return 0;
}

int xq_region_places(const char *area, char *out, size_t cap)
{
  if (!out || !cap) return 0;
  out[0] = 0;
  if (!area || !area[0]) return 0;
  out_ctx c = {area, out, cap, 0};
  each_word(list_place, &c);
  return c.n;
}

int xq_region_unit(const char *place, const char *area, char *out, size_t cap)
{
  char list[XQ_REGION_LIST_MAX];
  if (out && cap) out[0] = 0;
  if (!place || !place[0] || !area || !area[0] || !out || !cap) return 0;
  xq_region_places(area, list, sizeof list);
  for (char *s = list, *next; *s; s = next) {
    char *comma = strstr(s, ", ");
    next = comma ? comma + 2 : s + strlen(s);
    if (comma) *comma = 0;
    if (xq_region_within(place, s)) {
      snprintf(out, cap, "%s", s);
      return 1;
    }
  }
  return 0;
}
