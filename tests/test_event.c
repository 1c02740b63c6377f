/*
 * test_event.c -- the typed events of a game (adjudicator/event.c,
 * apply.c): every kind's text form reads back as the same event and is
 * written back as the same word (the game log replays what it stored);
 * a move event holds a move and nothing else; the constructors' limits;
 * a list's verdict; the arbiter's pause and restart of play; which events
 * may search, and the move they read once.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "adjudicator.h"
#include "support.h"

static xq_game G; /* ~70 KB: not on the stack */

static void start(const char *preset, const char *fen)
{
  xq_rules r;
  xq_error err = {0};
  cr_assert_eq(xq_rules_preset(preset, &r), XQ_OK);
  cr_assert_eq(xq_game_init(&G, &r, fen, &err), XQ_OK, "%s", err.msg);
}

static xq_event parsed(const char *word)
{
  xq_event ev;
  xq_error err = {0};
  cr_assert_eq(xq_event_parse(word, strlen(word), &ev, &err), XQ_OK, "%s: %s", word, err.msg);
  return ev;
}

/* Every word the server has ever written to a game log. */
static const char *const words[] = {
  "h2e2", "H2-E2", "C2.5", "炮二平五", "held:h2e2", "flag:h2e2", "snap:rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR",
  "lift:h2", "release", "clock:5400000/5399000", "clock:-5/0", "tick:1500", "claim", "claim-red",
  "claim-black", "repetition", "repetition-black", "offer", "offer-red", "accept", "accept-black",
  "decline", "decline-red", "resign", "resign-black", "foul-red", "foul-black", "result:1-0",
  "result:0-1", "result:=", "result:none", "pause", "resume", "truncate:0", "truncate:12",
};

Test(event, every_word_reads_back_and_is_written_back_the_same)
{
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
    xq_event ev = parsed(words[i]);
    char buf[XQ_EVENT_FORMAT_MAX];
    int n = xq_event_format(&ev, buf, sizeof buf);
    cr_assert_eq(n, (int)strlen(words[i]), "%s", words[i]);
    cr_assert_str_eq(buf, words[i]);
  }
}

Test(event, kinds_and_arguments)
{
  xq_event ev = parsed("held:C2.5");
  cr_assert_eq(ev.kind, XQ_EVENT_MOVE);
  cr_assert_eq(ev.flags, XQ_MV_HELD);
  cr_assert_str_eq(ev.text, "C2.5");
  ev = parsed("clock:5400000/5399000");
  cr_assert_eq(ev.kind, XQ_EVENT_CLOCK);
  cr_assert_eq(ev.ms[0], 5400000);
  cr_assert_eq(ev.ms[1], 5399000);
  ev = parsed("lift:h2");
  cr_assert_eq(ev.square, XQ_SQ(7, 2));
  ev = parsed("claim");
  cr_assert_eq(ev.kind, XQ_EVENT_CLAIM_NATURAL);
  cr_assert_eq(ev.side, XQ_SIDE_IMPLIED);
  ev = parsed("decline-red");
  cr_assert_eq(ev.kind, XQ_EVENT_DECLINE);
  cr_assert_eq(ev.side, XQ_RED);
  ev = parsed("result:1/2-1/2");
  cr_assert_eq(ev.kind, XQ_EVENT_RESULT);
  cr_assert_eq(ev.result, XQ_OUT_DRAW);
  ev = parsed("truncate:7");
  cr_assert_eq(ev.plies, 7);
  /* a word of no other kind is a move, judged when applied */
  ev = parsed("claimed");
  cr_assert_eq(ev.kind, XQ_EVENT_MOVE);
  ev = parsed("foul");
  cr_assert_eq(ev.kind, XQ_EVENT_MOVE, "a foul names its side");
}

Test(event, malformed_words_of_a_known_kind)
{
  static const char *const bad[] = {"lift:z9", "lift:h", "clock:1", "clock:a/2", "clock:1/", "tick:",
                                    "result:2-0", "truncate:-1", "truncate:x", "truncate:4097",
                                    "clock:2147483648/0", "clock:0/-2147483648",
                                    "clock:9223372036854775807/0", "tick:99999999999999999999"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    xq_event ev;
    xq_error err = {0};
    cr_assert_eq(xq_event_parse(bad[i], strlen(bad[i]), &ev, &err), XQ_EINVAL, "%s", bad[i]);
    cr_assert(strstr(err.msg, bad[i]), "the message names the word: %s", err.msg);
  }
  char longer[XQ_EVENT_TEXT_MAX + 8];
  memset(longer, 'a', sizeof longer - 1);
  longer[sizeof longer - 1] = 0;
  xq_event ev;
  cr_assert_eq(xq_event_parse(longer, strlen(longer), &ev, NULL), XQ_ENOTATION);
}

/* A clock reading is at most XQ_CLOCK_MS_MAX either way, in its text and
 * in the game: one past it would overflow the clock with the next
 * increment (signed overflow: a game log's "clock:9223372036854775807/1"
 * and a move under an increment aborted a UBSan build). */
Test(event, clock_readings_stay_in_their_range)
{
  xq_event ev = parsed("clock:2147483647/-2147483647");
  cr_assert(ev.ms[0] == XQ_CLOCK_MS_MAX && ev.ms[1] == -XQ_CLOCK_MS_MAX);
  start("shaanxi2019", NULL); /* 25 min + 10 s a move */
  xq_verdict v;
  xq_error err = {0};
  cr_assert_eq(xq_game_clock(&G, 9223372036854775807L, 9223372036854775807L, &v), XQ_EINVAL);
  cr_assert_eq(xq_game_clock(&G, 1000, -XQ_CLOCK_MS_MAX - 1, &v), XQ_EINVAL);
  cr_assert_eq(xq_game_tick(&G, XQ_CLOCK_MS_MAX + 1, &v), XQ_EINVAL);
  cr_assert_eq(xq_game_clock(&G, XQ_CLOCK_MS_MAX, XQ_CLOCK_MS_MAX, &v), XQ_OK);
  cr_assert_eq(xq_game_event(&G, "h2e2", &v, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(G.clock_ms[XQ_RED], XQ_CLOCK_MS_MAX + 10000, "the increment on top, no overflow");
}

Test(event, a_move_event_holds_a_move_and_nothing_else)
{
  xq_event ev;
  xq_error err = {0};
  cr_assert_eq(xq_event_move(&ev, "h2e2", XQ_MV_FLAG_FELL, &err), XQ_OK);
  cr_assert_eq(ev.kind, XQ_EVENT_MOVE);
  char buf[XQ_EVENT_FORMAT_MAX];
  xq_event_format(&ev, buf, sizeof buf);
  cr_assert_str_eq(buf, "flag:h2e2");
  /* another event's word would be replayed as that event */
  static const char *const not_moves[] = {"resign", "result:0-1", "foul-red", "claim", "pause",
                                          "truncate:0", "held:h2e2", "", "h2e2 h9g7", "h2e2\n"};
  for (size_t i = 0; i < sizeof not_moves / sizeof not_moves[0]; i++)
    cr_assert_eq(xq_event_move(&ev, not_moves[i], 0, &err), XQ_ENOTATION, "'%s'", not_moves[i]);
  cr_assert_eq(xq_event_move(&ev, "h2e2", 4u, &err), XQ_EINVAL, "no such flag");
}

Test(event, snapshot_and_simple_constructors)
{
  xq_event ev;
  xq_error err = {0};
  cr_assert_eq(xq_event_snapshot(&ev, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", &err), XQ_OK);
  cr_assert_str_eq(ev.text, "4k4/9/9/9/9/9/9/9/9/4K4", "the placement field alone");
  cr_assert_eq(xq_event_snapshot(&ev, " w", &err), XQ_ENOTATION);
  char longer[XQ_EVENT_TEXT_MAX + 2];
  memset(longer, '9', sizeof longer - 1);
  longer[sizeof longer - 1] = 0;
  cr_assert_eq(xq_event_snapshot(&ev, longer, &err), XQ_ENOTATION);
  cr_assert_eq(xq_event_simple(&ev, XQ_EVENT_RESIGN, XQ_BLACK), XQ_OK);
  cr_assert_eq(xq_event_simple(&ev, XQ_EVENT_FOUL, XQ_SIDE_IMPLIED), XQ_EINVAL, "a foul names its side");
  cr_assert_eq(xq_event_simple(&ev, XQ_EVENT_PAUSE, XQ_RED), XQ_EINVAL, "a pause has no side");
  cr_assert_eq(xq_event_simple(&ev, XQ_EVENT_MOVE, XQ_SIDE_IMPLIED), XQ_EINVAL);
}

Test(event, lists_read_and_write_as_one_text)
{
  xq_events l = {0};
  xq_error err = {0};
  cr_assert_eq(xq_events_parse("h2e2 clock:1/2  resign-black", &l, &err), XQ_OK);
  cr_assert_eq(l.n, 3);
  char *t = xq_events_format(l.v, l.n);
  cr_assert_str_eq(t, "h2e2 clock:1/2 resign-black");
  free(t);
  cr_assert_eq(xq_events_parse("   ", &l, &err), XQ_EINVAL);
  cr_assert_eq(xq_events_parse("h2e2 lift:q0", &l, &err), XQ_EINVAL);
  xq_events_clear(&l);
  cr_assert_null(l.v);
}

Test(event, a_list_answers_with_the_verdict_that_matters)
{
  start("cxa2011", NULL);
  xq_event ev[2] = {parsed("h2e2"), parsed("clock:0/1000")};
  xq_verdict v;
  xq_error err = {0};
  cr_assert_eq(xq_game_apply(&G, ev, 2, &v, &err), XQ_OK);
  cr_assert_eq(G.nply, 1);
  cr_assert_eq(v.kind, XQ_VERDICT_LOSS, "the flag fall, not the accepted move");
  cr_assert_str_eq(v.event, "clock");
  cr_assert_eq(xq_game_apply(&G, ev, 0, &v, &err), XQ_EINVAL);
}

Test(event, pause_and_truncate)
{
  start("cxa2011", NULL);
  cr_assert_eq(xq_game_event(&G, "h2e2", &(xq_verdict){0}, NULL), XQ_OK);
  cr_assert_eq(xq_game_event(&G, "h9g7", &(xq_verdict){0}, NULL), XQ_OK);
  xq_verdict v;
  cr_assert_eq(xq_game_event(&G, "pause", &v, NULL), XQ_OK);
  cr_assert(G.paused);
  cr_assert_str_eq(v.event, "pause");
  cr_assert(v.changed);
  cr_assert_eq(v.ply, 2);
  cr_assert_eq(xq_game_event(&G, "truncate:1", &v, NULL), XQ_OK);
  cr_assert_eq(G.nply, 1);
  cr_assert(G.paused, "a restart keeps the arbiter's pause");
  cr_assert_str_eq(v.event, "move");
  cr_assert_eq(xq_game_event(&G, "truncate:2", &v, NULL), XQ_EINVAL, "more plies than were played");
  cr_assert_eq(xq_game_event(&G, "truncate:0", &v, NULL), XQ_OK);
  cr_assert_eq(G.nply, 0);
  cr_assert_str_eq(v.event, "truncate");
  cr_assert_eq(xq_game_event(&G, "resume", &v, NULL), XQ_OK);
  cr_assert(!G.paused);
}

Test(event, which_events_may_search)
{
  start("cxa2011", NULL);
  xq_event claim = parsed("repetition"), move = parsed("h2e2"), clock = parsed("clock:1/1");
  cr_assert(xq_game_may_search(&G, &claim, 1), "a claim");
  cr_assert(!xq_game_may_search(&G, &move, 1), "a move to a new position");
  cr_assert(!xq_game_may_search(&G, &clock, 1));
  /* a rook out and back: the start position comes round again */
  const char *line[] = {"a0a1", "a9a8", "a1a0"};
  for (int i = 0; i < 3; i++) cr_assert_eq(xq_game_event(&G, line[i], &(xq_verdict){0}, NULL), XQ_OK);
  xq_event back = parsed("a8a9");
  xq_event two[2] = {clock, back};
  cr_assert(xq_game_may_search(&G, two, 2), "the move back may repeat");
}

/* The server tests a request's move (xq_game_may_search), then applies it:
 * the text is read once, on the first call, and the second plays the
 * move kept in read_ahead -- on the same position only. */
Test(event, a_move_tested_for_a_search_is_read_once)
{
  start("cxa2011", NULL);
  xq_event ev = parsed("炮二平五");
  cr_assert(!xq_game_may_search(&G, &ev, 1));
  cr_assert_eq(G.read_ahead.m, XQ_MOVE(XQ_SQ(7, 2), XQ_SQ(4, 2)), "h2e2 read ahead");
  cr_assert_eq(G.read_ahead.key, G.pos.key);
  /* Were the text read again, 炮二平五 would be played; the move kept is */
  G.read_ahead.m = XQ_MOVE(XQ_SQ(1, 0), XQ_SQ(2, 2)); /* b0c2, 马八进七 */
  xq_verdict v;
  xq_error err = {0};
  cr_assert_eq(xq_game_apply(&G, &ev, 1, &v, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(G.hist[0].move, XQ_MOVE(XQ_SQ(1, 0), XQ_SQ(2, 2)));
  /* On another position the kept move is not used: the text is read. */
  cr_assert_eq(xq_game_event(&G, "h9g7", &v, NULL), XQ_OK);
  cr_assert_eq(xq_game_apply(&G, &ev, 1, &v, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(G.hist[2].move, XQ_MOVE(XQ_SQ(7, 2), XQ_SQ(4, 2)));
  /* A copy of the game (the server judges one on its worker pool) plays
   * what was read ahead on the original. */
  static xq_game copy;
  ev = parsed("b7e7");
  cr_assert(!xq_game_may_search(&G, &ev, 1));
  G.read_ahead.m = XQ_MOVE(XQ_SQ(1, 9), XQ_SQ(2, 7)); /* b9c7 in its place */
  copy = G;
  cr_assert_eq(xq_game_apply(&copy, &ev, 1, &v, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(copy.hist[3].move, XQ_MOVE(XQ_SQ(1, 9), XQ_SQ(2, 7)), "%s", v.en);
}
