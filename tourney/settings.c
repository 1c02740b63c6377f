/*
 * settings.c -- the event's settings (docs/tourney.md, "Settings"): what
 * an event says of itself (name, dates, venue, organiser, chief arbiter)
 * and the configuration an organiser may change after `tourney new`
 * (rounds, format, pairing system, tie-break order, scoring), checked at
 * the edge, what may no longer change once round 1 is paired, and the
 * changes applied to a configuration. The store keeps them
 * (store/store_settings.c).
 */
#include <stdio.h>
#include <string.h>

#include "pair/pair.h"
#include "prize.h"
#include "tourney.h"

static int fail(xq_error *err, const char *msg)
{
  if (err) {
    err->code = XQ_EINVAL;
    err->pos = -1;
    err->ply = -1;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
  }
  return XQ_EINVAL;
}

void xq_tsettings_of(const xq_tournament *ev, xq_tsettings *out)
{
  memset(out, 0, sizeof *out);
  snprintf(out->name, sizeof out->name, "%s", ev->name);
  out->info = ev->info;
  out->rounds = ev->cfg.rounds;
  out->format = ev->cfg.format != XQ_FORMAT_RR ? XQ_TSF_SWISS : ev->cfg.cycles == 2 ? XQ_TSF_RR2 : XQ_TSF_RR;
  out->system = ev->cfg.system == XQ_PAIR_DUTCH ? XQ_PAIR_DUTCH : XQ_PAIR_CN;
  out->halves = ev->cfg.win == 2;
  out->delay = ev->cfg.delay == 0 ? -1 : ev->cfg.delay < 0 ? 0 : ev->cfg.delay;
  if (xq_tconfig_tb_format(&ev->cfg, out->tiebreaks, sizeof out->tiebreaks)) out->tiebreaks[0] = 0;
}

/* A text setting: valid UTF-8 without control characters, under `cap`
 * bytes (NUL-terminated within them), not empty when `required`. */
static int text_ok(const char *t, size_t cap, int required)
{
  size_t len = strnlen(t, cap);
  if (len >= cap || (required && !len) || xq_utf8_len(t) < 0) return 0;
  for (const unsigned char *c = (const unsigned char *)t; *c; c++)
    if (*c < 0x20 || *c == 0x7F) return 0;
  return 1;
}

int xq_tsettings_check(xq_tsettings *s, unsigned fields, xq_error *err)
{
  if (!s) return fail(err, "no settings");
  const struct { unsigned bit; const char *t; size_t cap; const char *what; } texts[] = {
    {XQ_TS_NAME, s->name, sizeof s->name, "the name must be 1 to 255 bytes of UTF-8 without control characters"},
    {XQ_TS_DATES, s->info.dates, sizeof s->info.dates,
     "the dates must be under 64 bytes of UTF-8 without control characters"},
    {XQ_TS_VENUE, s->info.venue, sizeof s->info.venue,
     "the venue must be under 128 bytes of UTF-8 without control characters"},
    {XQ_TS_ORGANISER, s->info.organiser, sizeof s->info.organiser,
     "the organiser must be under 128 bytes of UTF-8 without control characters"},
    {XQ_TS_ARBITER, s->info.arbiter, sizeof s->info.arbiter,
     "the chief arbiter must be under 128 bytes of UTF-8 without control characters"},
  };
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
    if ((fields & texts[i].bit) && !text_ok(texts[i].t, texts[i].cap, texts[i].bit == XQ_TS_NAME))
      return fail(err, texts[i].what);
  if ((fields & XQ_TS_ROUNDS) && (s->rounds < 1 || s->rounds > XQ_TOURNEY_ROUNDS_MAX)) {
    char m[64];
    snprintf(m, sizeof m, "the rounds must be 1..%d", XQ_TOURNEY_ROUNDS_MAX);
    return fail(err, m);
  }
  if ((fields & XQ_TS_FORMAT) && (s->format < XQ_TSF_SWISS || s->format > XQ_TSF_RR2))
    return fail(err, "the format is swiss, rr or rr2");
  if ((fields & XQ_TS_SYSTEM) && s->system != XQ_PAIR_CN && s->system != XQ_PAIR_DUTCH)
    return fail(err, "the pairing system is cn or dutch");
  if ((fields & XQ_TS_DELAY) && (s->delay < -1 || s->delay > XQ_TOURNEY_DELAY_MAX)) {
    char m[80];
    snprintf(m, sizeof m, "the delay is 0..%d seconds (or not set: the server's)", XQ_TOURNEY_DELAY_MAX);
    return fail(err, m);
  }
  if ((fields & XQ_TS_SCORING) && s->halves != 0 && s->halves != 1)
    return fail(err, "the scoring is 2-1-0 or 1-0.5-0");
  if (fields & XQ_TS_TIEBREAKS) {
    xq_tconfig c;
    xq_tconfig_default(&c);
    if (!text_ok(s->tiebreaks, sizeof s->tiebreaks, 1)) return fail(err, "the tie-breaks must be codes or a preset");
    if (xq_tconfig_tiebreaks(&c, s->tiebreaks, err)) return XQ_EINVAL;
    if (xq_tconfig_tb_format(&c, s->tiebreaks, sizeof s->tiebreaks)) return fail(err, "the tie-breaks are too long");
  }
  return XQ_OK;
}

const char *xq_tsettings_locked(const char *name, const xq_tconfig *cfg, int paired, unsigned field)
{
  const xq_regulation *r;
  if (field == XQ_TS_NAME && name && !xq_regulation_event_group(name, &r, NULL))
    return "the name is a regulation's title (tourney new --preset): its groups, entries and prizes are found by it";
  if (field == XQ_TS_FORMAT && paired > 0) return "round 1 is paired: the format can no longer change";
  if (field == XQ_TS_SCORING && paired > 0) return "round 1 is paired: the scoring can no longer change";
  if (field == XQ_TS_ROUNDS && cfg->format == XQ_FORMAT_RR)
    return "a round robin's rounds follow from its entrants";
  return NULL;
}

/* `cfg` made format `format` (XQ_TSF_*): a round robin's defaults, or a
 * Swiss event's, keeping the scoring, the lot's seed and the system. */
static void set_format(xq_tconfig *cfg, int format)
{
  int was = cfg->format != XQ_FORMAT_RR ? XQ_TSF_SWISS : cfg->cycles == 2 ? XQ_TSF_RR2 : XQ_TSF_RR;
  if (format == was) return;
  if (format != XQ_TSF_SWISS) {
    xq_tconfig_round_robin(cfg, format == XQ_TSF_RR2 ? 2 : 1);
    return;
  }
  xq_tconfig d;
  xq_tconfig_default(&d);
  xq_tconfig_scoring(&d, cfg->win == 2);
  d.lot_seed = cfg->lot_seed;
  d.system = cfg->system;
  d.rounds = 0; /* a round robin's are not a Swiss event's: given again */
  *cfg = d;
}

int xq_tsettings_apply(xq_tconfig *cfg, const xq_tsettings *s, unsigned fields, int paired, xq_error *err)
{
  if (!cfg || !s) return fail(err, "no settings");
  xq_tconfig c = *cfg;
  const char *why;
  if ((fields & XQ_TS_FORMAT) && (why = xq_tsettings_locked(NULL, &c, paired, XQ_TS_FORMAT))) {
    xq_tsettings now;
    xq_tournament tmp = {.cfg = c};
    xq_tsettings_of(&tmp, &now);
    if (now.format != s->format) return fail(err, why);
  }
  if (fields & XQ_TS_FORMAT) set_format(&c, s->format);
  if ((fields & XQ_TS_SCORING) && (c.win == 2) != s->halves) {
    if ((why = xq_tsettings_locked(NULL, &c, paired, XQ_TS_SCORING))) return fail(err, why);
    int bye = c.pab;
    xq_tconfig_scoring(&c, s->halves);
    if (!bye) c.pab = 0; /* a round robin's bye stays worth nothing */
  }
  if ((fields & XQ_TS_ROUNDS) && s->rounds != c.rounds) {
    if ((why = xq_tsettings_locked(NULL, &c, paired, XQ_TS_ROUNDS))) return fail(err, why);
    if (s->rounds < paired) {
      char m[96];
      snprintf(m, sizeof m, "rounds 1..%d are paired: the event cannot have fewer rounds", paired);
      return fail(err, m);
    }
    c.rounds = s->rounds;
  }
  if ((fields & XQ_TS_FORMAT) && c.format != XQ_FORMAT_RR && c.rounds < 1)
    return fail(err, "a Swiss event needs its rounds: give them with the format");
  if ((fields & XQ_TS_TIEBREAKS) && xq_tconfig_tiebreaks(&c, s->tiebreaks, err)) return XQ_EINVAL;
  if (fields & XQ_TS_SYSTEM) c.system = s->system;
  if (fields & XQ_TS_DELAY) c.delay = s->delay < 0 ? 0 : s->delay == 0 ? -1 : s->delay;
  *cfg = c;
  return XQ_OK;
}
