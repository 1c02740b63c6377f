/*
 * pfc.c -- 鹏飞象棋's PFC record (also vschess's own tree): XML of nested
 * <n> elements, the root's m the start position (FEN) and c its comment,
 * each child a move (m in ICCS, c its comment), the children of a node
 * its continuations; the one marked default="true" (else the first) is
 * the main line. Read through the shared pre-order tree.
 */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "records_internal.h"

/* One <n> element: its attributes' text and its place in the tree. */
typedef struct pnode {
  const char *tag; /* its opening tag, up to '>' */
  size_t tlen;
  int parent, first, next; /* first child, next sibling (-1: none) */
} pnode;

/* The value of attribute `name` of n's tag, decoded, into out (cap
 * bytes). Returns its length, -1 when absent. */
static int attr(const pnode *n, const char *name, char *out, size_t cap)
{
  char key[16];
  snprintf(key, sizeof key, " %s=\"", name);
  const char *p = memmem(n->tag, n->tlen, key, strlen(key)), *q;
  if (!p) return -1;
  p += strlen(key);
  if (!(q = memchr(p, '"', (size_t)(n->tag + n->tlen - p)))) return -1;
  static const struct { const char *e; char c; } ents[] = {
    {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
  size_t k = 0;
  while (p < q && k + 1 < cap) {
    size_t j = 0;
    while (*p == '&' && j < 5 && ((size_t)(q - p) < strlen(ents[j].e) ||
                                  memcmp(p, ents[j].e, strlen(ents[j].e))))
      j++;
    if (*p == '&' && j < 5) {
      out[k++] = ents[j].c;
      p += strlen(ents[j].e);
    } else {
      out[k++] = *p++;
    }
  }
  out[k] = '\0';
  return (int)k;
}

/* The <n> elements of s[0..len) into a new array (*out, *count), each
 * linked to its parent and its children in order, the child marked
 * default moved first. Returns XQ_OK, XQ_ENOTATION or XQ_ENOMEM. */
static int parse_nodes(const char *s, size_t len, pnode **out, int *count, xq_error *err)
{
  int n = 0, cap = 0, cur = -1;
  pnode *v = NULL;
  int *last = NULL; /* the last child of each node */
  const char *e = s + len;
  for (const char *p = s; (p = memchr(p, '<', (size_t)(e - p)));) {
    if (e - p >= 4 && !memcmp(p, "</n>", 4)) {
      if (cur >= 0) cur = v[cur].parent;
      p += 4;
      continue;
    }
    const char *te = e - p >= 3 && p[1] == 'n' && (p[2] == ' ' || p[2] == '>' || p[2] == '/')
                         ? memchr(p, '>', (size_t)(e - p))
                         : NULL;
    if (!te) {
      p++;
      continue;
    }
    if (n == cap) {
      int nc = cap ? cap * 2 : 64;
      pnode *nv = realloc(v, sizeof *v * (size_t)nc);
      if (nv) v = nv;
      int *nl = nv ? realloc(last, sizeof *last * (size_t)nc) : NULL;
      if (!nl) {
        free(v);
        free(last);
        return xq_error_set(err, XQ_ENOMEM, -1, 0, "out of memory");
      }
      last = nl;
      cap = nc;
    }
    v[n] = (pnode){p, (size_t)(te - p), cur, -1, -1};
    last[n] = -1;
    char d[8];
    if (cur >= 0 && v[cur].first < 0) {
      v[cur].first = last[cur] = n;
    } else if (cur >= 0 && attr(&v[n], "default", d, sizeof d) > 0 && !strcmp(d, "true")) {
      v[n].next = v[cur].first; /* the main line comes first */
      v[cur].first = n;
    } else if (cur >= 0) {
      v[last[cur]].next = n;
      last[cur] = n;
    }
    if (te[-1] != '/') cur = n;
    n++;
    p = te + 1;
  }
  free(last);
  if (!n) return xq_error_set(err, XQ_ENOTATION, 0, 0, "not a PFC record (no <n> element)");
  *out = v;
  *count = n;
  return XQ_OK;
}

/* The comment (attribute c) of node i onto the tree's last node. */
static int node_comment(xq__tree *t, const pnode *v, int i)
{
  char *c = malloc(v[i].tlen + 1);
  if (!c) return XQ_ENOMEM;
  int n = attr(&v[i], "c", c, v[i].tlen + 1), rc = XQ_OK;
  while (n > 0 && (c[n - 1] == ' ' || c[n - 1] == '\n' || c[n - 1] == '\r')) n--;
  if (n > 0) rc = xq__tree_comment(t, c, (size_t)n);
  free(c);
  return rc;
}

int xq__pfc_read(const char *s, size_t len, xq_record *rec, xq_error *err)
{
  pnode *v = NULL;
  int n, rc;
  xq_record_reset(rec);
  if ((rc = parse_nodes(s, len, &v, &n, err)) != XQ_OK) return rc;
  char m[XQ_FEN_MAX];
  xq_error why;
  if (attr(&v[0], "m", m, sizeof m) > 0 && xq_fen_parse(&rec->start, m, 0, &why) != XQ_OK) {
    free(v);
    return xq_error_set(err, XQ_EFEN, -1, 0, "bad PFC start position: %s", why.msg);
  }
  rec->end = rec->start;
  if (attr(&v[0], "win", m, sizeof m) > 0) rec->result = xq_result_parse(m);
  xq__tree t;
  xq__tree_start(&t, rec, v[0].first >= 0);
  rc = node_comment(&t, v, 0);
  /* pre-order: a node, its continuations' subtree, then its next sibling;
   * `go` walks it without recursion, climbing back through parents */
  int go = v[0].first;
  while (rc == XQ_OK && go >= 0 && xq__tree_next(&t)) {
    xq_move mv;
    if (attr(&v[go], "m", m, sizeof m) != 4 || m[0] < 'a' || m[0] > 'i' || m[2] < 'a' ||
        m[2] > 'i' || m[1] < '0' || m[1] > '9' || m[3] < '0' || m[3] > '9') {
      rc = xq_error_set(err, XQ_ENOTATION, -1, t.plies, "PFC move \"%.8s\" is not ICCS", m);
      break;
    }
    mv = XQ_MOVE(XQ_SQ(m[0] - 'a', m[1] - '0'), XQ_SQ(m[2] - 'a', m[3] - '0'));
    rc = xq__tree_move(&t, mv, v[go].first >= 0, v[go].next >= 0, -1, err);
    if (rc == XQ_OK) rc = node_comment(&t, v, go);
    if (v[go].first >= 0) {
      go = v[go].first;
      continue;
    }
    while (go > 0 && v[go].next < 0) go = v[go].parent;
    go = go > 0 ? v[go].next : -1;
  }
  if (rc == XQ_ENOMEM) xq_error_set(err, rc, -1, 0, "out of memory");
  xq__tree_end(&t);
  free(v);
  xq_record_set_tag(rec, "Result", xq_result_pgn(rec->result));
  if (rc == XQ_OK) xq_record_pack(rec);
  return rc;
}
