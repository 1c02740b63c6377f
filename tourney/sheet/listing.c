/*
 * listing.c -- the plain listings of an event as `xqref tourney` prints
 * them on a terminal, in English: the players, the boards of a round
 * just paired, the standings and the server's access tokens (the
 * knockout and the results: listing_final.c). Names are padded by their
 * display width, a CJK character taking two columns.
 */
#include <stdlib.h>

#include "../tourney_internal.h"
#include "pair/pair.h"
#include "sheet_internal.h"
#include "store/store.h"

/* Display width of UTF-8 text: CJK and full-width characters count 2. */
static int display_width(const char *s)
{
  int w = 0;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    unsigned cp;
    int n = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : 4;
    cp = n == 1 ? *p : (unsigned)(*p & (0x7F >> n));
    for (int i = 1; i < n && p[i]; i++) cp = (cp << 6) | (p[i] & 0x3F);
    p += n;
    w += (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
         (cp >= 0xFFE0 && cp <= 0xFFE6) || cp >= 0x20000 ? 2 : 1;
  }
  return w;
}

static void put_padded(FILE *f, const char *s, int width)
{
  fputs(s, f);
  for (int w = display_width(s); w < width; w++) fputc(' ', f);
}

static int done(FILE *f) { return ferror(f) ? XQ_EIO : XQ_OK; }

/* "  退赛 (withdrawn from round R)" after a player who has withdrawn, by
 * a withdrawal or by the missed-rounds rule; nothing for one who has not. */
static void withdrawn_mark(const xq_tournament *ev, int id, FILE *f)
{
  int from = ev->players[id - 1].withdrawn;
  if (from > 0) fprintf(f, "  退赛 (withdrawn from round %d)", from);
  else if (xq__event_withdrawn(ev, id, ev->nrounds + 1)) fprintf(f, "  退赛 (withdrawn: missed rounds)");
}

int xq_list_players(const xq_tournament *ev, FILE *f)
{
  if (!ev || !f) return XQ_EINVAL;
  fprintf(f, "  id  no  ");
  put_padded(f, "name", 24);
  fprintf(f, " rating  born        sex  team\n");
  for (int id = 1; id <= ev->n; id++) {
    const xq_tplayer *p = &ev->players[id - 1];
    fprintf(f, "%4d %3d  ", id, xq_tplayer_no(ev, id));
    put_padded(f, p->name, 24);
    fprintf(f, " %6d  %-10s  %c    %s%s", p->rating, p->birth[0] ? p->birth : "-", p->sex ? p->sex : '-',
            p->team, p->local ? " (local)" : "");
    withdrawn_mark(ev, id, f);
    fputc('\n', f);
  }
  return done(f);
}

/* Board b: Red's number (xq_tplayer_no), name and points before the
 * round, then Black's or "bye". */
static void board_line(FILE *f, const xq_tournament *ev, int b, const xq_tboard *bd, int round)
{
  char pts[16];
  const xq_tplayer *r = &ev->players[bd->red - 1];
  xq__sheet_half_text(pts, sizeof pts, xq_tournament_points(ev, bd->red, round - 1));
  fprintf(f, "%4d  %4d ", b, xq_tplayer_no(ev, bd->red));
  put_padded(f, r->name, 20);
  fprintf(f, " %4s", pts);
  if (!bd->black) { fprintf(f, "   bye\n"); return; }
  const xq_tplayer *k = &ev->players[bd->black - 1];
  xq__sheet_half_text(pts, sizeof pts, xq_tournament_points(ev, bd->black, round - 1));
  fprintf(f, "  -  %4d ", xq_tplayer_no(ev, bd->black));
  put_padded(f, k->name, 20);
  fprintf(f, " %4s\n", pts);
}

int xq_list_boards(const xq_tournament *ev, const xq_tpairing *pr, FILE *f)
{
  if (!ev || !pr || !f) return XQ_EINVAL;
  for (int b = 0; b < pr->nboards; b++)
    if (pr->boards[b].red < 1 || pr->boards[b].red > ev->n || pr->boards[b].black < 0 ||
        pr->boards[b].black > ev->n)
      return XQ_EINVAL;
  fprintf(f, "round %d: %d boards (players by their number, as `tourney players` shows it)\n", pr->round, pr->nboards);
  for (int b = 0; b < pr->nboards; b++) board_line(f, ev, b + 1, &pr->boards[b], pr->round);
  uint8_t *on = calloc((size_t)ev->n + 1, 1);
  if (!on) return XQ_ENOMEM;
  for (int b = 0; b < pr->nboards; b++) on[pr->boards[b].red] = on[pr->boards[b].black] = 1;
  for (int id = 1, first = 1; id <= ev->n; id++) {
    if (on[id]) continue;
    if (first) fprintf(f, "not on a board:\n");
    first = 0;
    char pts[16];
    xq__sheet_half_text(pts, sizeof pts, xq_tournament_points(ev, id, pr->round - 1));
    fprintf(f, "      %4d ", xq_tplayer_no(ev, id));
    put_padded(f, ev->players[id - 1].name, 20);
    fprintf(f, " %4s   %s\n", pts, xq__sheet_off_board(ev, id, pr->round, XQ_LANG_EN));
  }
  free(on);
  return done(f);
}

/* Width of a tie-break column: the two ROUNDBACK headings are longer. */
static int tb_width(int tb)
{
  return tb == XQ_TB_ROUNDBACK_FIRST ? 15 : tb == XQ_TB_ROUNDBACK_LAST ? 9 : 6;
}

/* Where the drawing of lots placed players (不并列: their tie reached
 * LOT): the ranks, and the lot's seed and method, so anyone can draw it
 * again. */
static void lot_note(const xq_tournament *ev, const xq_tstanding *s, FILE *f)
{
  int any = 0;
  for (int i = 0; i < ev->n; i++) {
    if (!s[i].by_lot) continue;
    fprintf(f, "%s%d", any++ ? ", " : "decided by lot (抽签), ranks: ", s[i].rank);
  }
  if (any)
    fprintf(f, "\nthe lot: seed %llu; each player draws mix64(seed ^ mix64(number + 1)) (SplitMix64), "
            "the lowest draw ranks first\n", (unsigned long long)ev->cfg.lot_seed);
}

static int list_one(const xq_tournament *ev, int upto, FILE *f);

int xq_list_standings(const xq_tournament *ev, int upto, FILE *f)
{
  if (!ev || !f) return XQ_EINVAL;
  int G = ev->cfg.format == XQ_FORMAT_RR && ev->cfg.rr_groups > 1 ? ev->cfg.rr_groups : 0, rc = XQ_OK;
  if (!G) return list_one(ev, upto, f);
  /* a round robin in groups: each group ranked on its own */
  for (int g = 0; g < G && !rc; g++) {
    xq_tournament *sub = xq_rr_group_event(ev, g, NULL);
    if (!sub) return XQ_ENOMEM;
    fprintf(f, "%s%c组 (group %c; no: the number inside the group)\n", g ? "\n" : "", 'A' + g, 'A' + g);
    rc = list_one(sub, upto, f);
    xq_tournament_free(sub);
  }
  return rc;
}

static int list_one(const xq_tournament *ev, int upto, FILE *f)
{
  int complete = xq_tournament_rounds_complete(ev);
  if (upto <= 0 || upto > ev->nrounds) upto = xq_tournament_standings_round(ev);
  xq_tstanding *s = malloc(sizeof *s * (size_t)(ev->n ? ev->n : 1));
  int rc = s ? xq_standings(ev, upto, s) : XQ_ENOMEM;
  if (rc) {
    free(s);
    return rc;
  }
  if (upto > complete) fprintf(f, "%s: standings, round %d in progress\n", ev->name[0] ? ev->name : "event", upto);
  else fprintf(f, "%s: standings after round %d\n", ev->name[0] ? ev->name : "event", upto);
  fprintf(f, "rank   no  ");
  put_padded(f, "name", 20);
  for (int t = 0; t < ev->cfg.ntb; t++) fprintf(f, " %*s", tb_width(ev->cfg.tb[t]), xq_tb_name(ev->cfg.tb[t]));
  fprintf(f, "   W-D-L\n");
  for (int i = 0; i < ev->n; i++) {
    const xq_tplayer *p = &ev->players[s[i].id - 1];
    if (s[i].annulled) fprintf(f, "%4s %4d  ", "-", xq_tplayer_no(ev, s[i].id)); /* unranked */
    else fprintf(f, "%4d %4d  ", s[i].rank, xq_tplayer_no(ev, s[i].id));
    put_padded(f, p->name, 20);
    for (int t = 0; t < ev->cfg.ntb; t++) {
      char v[32];
      xq__sheet_tb_text(v, sizeof v, ev->cfg.tb[t], s[i].val[t]);
      if (!v[0]) snprintf(v, sizeof v, "-");
      fprintf(f, " %*s", tb_width(ev->cfg.tb[t]), v);
    }
    fprintf(f, "   %d-%d-%d", s[i].wins, s[i].draws, s[i].losses);
    withdrawn_mark(ev, s[i].id, f);
    if (s[i].annulled) fprintf(f, ", results annulled (成绩注销): fewer than half his games played");
    fputc('\n', f);
  }
  lot_note(ev, s, f);
  free(s);
  return done(f);
}

int xq_list_token(const xq_ttoken *t, int with_label, FILE *f)
{
  if (!t || !f) return XQ_EINVAL;
  char r[16] = "-", b[16] = "-";
  if (t->round) snprintf(r, sizeof r, "%d", t->round);
  if (t->board) snprintf(b, sizeof b, "%d", t->board);
  if (t->token[0]) fprintf(f, "%s %s %s %s", xq_role_name(t->role), r, b, t->token);
  else fprintf(f, "%s %s %s %.*s", xq_role_name(t->role), r, b, XQ_TOKEN_PREFIX_CHARS, t->hash);
  if (with_label && t->label[0]) fprintf(f, " %s", t->label);
  fputc('\n', f);
  return done(f);
}
