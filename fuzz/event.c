/*
 * event.c -- fuzz entry for the event language of the game log (fuzz.h):
 * each line a list of events (xq_events_parse), each event written,
 * read and written again to the same word; the line as one word
 * (xq_event_parse on the bytes, no terminator); and the lists applied
 * to a game, as the server replays a game log. The first byte picks the
 * rule set (the presets in order: clocks, increments, penalties differ).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adjudicator.h"
#include "fuzz.h"

#define APPLIED_MAX 256 /* events applied per input: claims may search for a while */

/* ev written, read back and written again: the same word, kind, side. */
static void round_trip(const xq_event *ev)
{
  char a[XQ_EVENT_FORMAT_MAX], b[XQ_EVENT_FORMAT_MAX];
  int n = xq_event_format(ev, a, sizeof a);
  if (n < 0 || (size_t)n != strlen(a)) abort(); /* XQ_EVENT_FORMAT_MAX always fits */
  xq_event back;
  xq_error err;
  if (xq_event_parse(a, (size_t)n, &back, &err) != XQ_OK) abort();
  if (back.kind != ev->kind || back.side != ev->side || xq_event_format(&back, b, sizeof b) != n || strcmp(a, b))
    abort();
}

int xq_fuzz_event(const uint8_t *data, size_t size)
{
  if (size < 1 || size > XQ_FUZZ_INPUT_MAX) return 0;
  static xq_game *g;
  if (!g && !(g = malloc(sizeof *g))) abort();
  int npresets = 0;
  while (xq_rules_preset_name(npresets)) npresets++;
  xq_rules rules;
  if (xq_rules_preset(xq_rules_preset_name(data[0] % npresets), &rules) != XQ_OK) abort();
  xq_error err;
  if (xq_game_init(g, &rules, NULL, &err) != XQ_OK) abort();
  char *text = malloc(size);
  if (!text) return 0;
  memcpy(text, data + 1, size - 1);
  text[size - 1] = 0;
  xq_events list = {0};
  int applied = 0;
  for (char *line = text, *next; line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    /* the line as one word, its bytes only */
    size_t len = strlen(line);
    char *word = malloc(len ? len : 1);
    if (!word) break;
    memcpy(word, line, len);
    xq_event one;
    if (xq_event_parse(word, len, &one, &err) == XQ_OK) round_trip(&one);
    free(word);
    if (xq_events_parse(line, &list, &err) != XQ_OK) continue;
    for (int i = 0; i < list.n; i++) round_trip(&list.v[i]);
    if (applied + list.n > APPLIED_MAX) continue;
    applied += list.n;
    xq_verdict v;
    xq_game_apply(g, list.v, list.n, &v, &err);
  }
  xq_events_clear(&list);
  free(text);
  return 0;
}
