/*
 * slips.c -- the board slips of a round (docs/tourney.md, "Board slips"):
 * a page to print and cut, a slip per table with its players, the token
 * of its board and a QR code of the board's connection details, so that
 * whoever sets up a digital board scans it instead of typing 32 letters.
 * The QR code is Debian's libqrencode's, drawn as SVG (a square per dark
 * module, a quiet zone of 4 around).
 */
#include <qrencode.h>
#include <stdio.h>
#include <string.h>

#include "../tourney_internal.h"
#include "knockout.h"
#include "pair/pair.h"
#include "sheet_internal.h"

#define QUIET 4 /* modules of white around a QR code (ISO/IEC 18004) */

/* `text` as a QR code in SVG; XQ_OK, or XQ_ENOMEM / XQ_EINVAL from the encoder. */
static int qr_svg(FILE *f, const char *text)
{
  QRcode *q = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
  if (!q) return XQ_ENOMEM;
  int w = q->width, side = w + 2 * QUIET;
  fprintf(f, "<svg class=\"qr\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" role=\"img\" "
          "aria-label=\"QR\" shape-rendering=\"crispEdges\"><rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>"
          "<path fill=\"#000\" d=\"", side, side, side, side);
  for (int y = 0; y < w; y++)
    for (int x = 0; x < w; x++)
      if (q->data[y * w + x] & 1) fprintf(f, "M%d %dh1v1h-1z", x + QUIET, y + QUIET);
  fputs("\"/></svg>", f);
  QRcode_free(q);
  return XQ_OK;
}

static const char *const words[][2] = {
  {"Board slips", "台次令牌"}, {"Table %d", "第%d台"}, {"Red", "红方"}, {"Black", "黑方"},
  {"token", "令牌"}, {"round %d", "第%d轮"}, {"knockout", "淘汰赛"},
};
enum { W_SLIPS, W_TABLE, W_RED, W_BLACK, W_TOKEN, W_ROUND, W_KNOCKOUT };
#define WORD(k) words[k][lang == XQ_LANG_ZH]

static void player(FILE *f, const xq_tournament *ev, int id, const char *side)
{
  fprintf(f, "<p class=\"who\"><span>%s</span> %d. ", side, xq_tplayer_no(ev, id));
  xq__sheet_html_text(f, ev->players[id - 1].name);
  fputs("</p>", f);
}

/* One slip: board b (0-based) of `pr`. */
static int slip(FILE *f, const xq_tournament *ev, const xq_tpairing *pr, int b, const char *token, const char *connect,
                int lang)
{
  char link[XQ_SLIP_LINK_MAX], head[64];
  snprintf(link, sizeof link, "xqref://%s/?round=%d&table=%d&token=%s", connect, pr->round, b + 1, token);
  snprintf(head, sizeof head, WORD(W_TABLE), b + 1);
  fprintf(f, "<section class=\"slip\" data-table=\"%d\"><h2>", b + 1);
  xq__sheet_html_text(f, head);
  fputs(" · ", f);
  if (pr->round == XQ_KO_ROUND) fputs(WORD(W_KNOCKOUT), f);
  else fprintf(f, WORD(W_ROUND), pr->round);
  fputs("</h2>", f);
  player(f, ev, pr->boards[b].red, WORD(W_RED));
  player(f, ev, pr->boards[b].black, WORD(W_BLACK));
  int rc = qr_svg(f, link);
  fprintf(f, "<p class=\"token\">%s <code>", WORD(W_TOKEN));
  xq__sheet_html_text(f, token);
  fputs("</code></p><p class=\"link\">", f);
  xq__sheet_html_text(f, link);
  fputs("</p></section>\n", f);
  return rc;
}

int xq_slip_connect_ok(const char *a)
{
  return a && *a && strlen(a) <= XQ_SLIP_CONNECT_MAX && !strpbrk(a, " /?#&\"<>") && strrchr(a, ':');
}

int xq_sheet_slips(const xq_tournament *ev, const xq_tpairing *pr, const char *const *tokens, const char *connect,
                   int lang, FILE *f)
{
  if (!ev || !pr || !tokens || !connect || !f || (lang != XQ_LANG_EN && lang != XQ_LANG_ZH) ||
      strlen(connect) > XQ_SLIP_CONNECT_MAX)
    return XQ_EINVAL;
  fprintf(f, "<!DOCTYPE html>\n<html lang=\"%s\"><head><meta charset=\"utf-8\"><title>", lang == XQ_LANG_ZH ? "zh" : "en");
  xq__sheet_html_text(f, ev->name);
  fprintf(f, " · %s</title><style>\n"
          "body{font:14px/1.4 system-ui,\"Noto Sans CJK SC\",\"WenQuanYi Micro Hei\",sans-serif;margin:1cm}\n"
          ".slips{display:grid;grid-template-columns:repeat(auto-fill,minmax(6.5cm,1fr));gap:.4cm}\n"
          ".slip{border:1px dashed #888;padding:.3cm;break-inside:avoid}\n.slip h2{font-size:1.1em;margin:0 0 .2cm}\n"
          ".who{margin:0}.who span{color:#666}.qr{width:4cm;height:4cm;display:block;margin:.2cm auto}\n"
          ".token code{font-size:1.05em;word-break:break-all}.link{font-size:.7em;color:#666;word-break:break-all}\n"
          "@media print{body{margin:.5cm}}\n</style></head><body><h1>", WORD(W_SLIPS));
  xq__sheet_html_text(f, ev->name);
  fprintf(f, " · %s</h1>", WORD(W_SLIPS));
  xq__sheet_html_event_line(f, ev);
  fputs("<div class=\"slips\">\n", f);
  int rc = XQ_OK;
  for (int b = 0; b < pr->nboards && !rc; b++)
    if (pr->boards[b].black && tokens[b]) rc = slip(f, ev, pr, b, tokens[b], connect, lang);
  fputs("</div></body></html>\n", f);
  return rc ? rc : ferror(f) ? XQ_EIO : XQ_OK;
}
