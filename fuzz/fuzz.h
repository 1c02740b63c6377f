/*
 * fuzz.h -- the fuzz entry points (docs/fuzzing.md): one function per
 * parser, fed any bytes. Each is called by its libFuzzer target
 * (fuzz/main.c, built with -DXQ_FUZZ=ON and clang) and by the regression
 * suite tests/test_fuzz_regress.c, which replays every kept input of
 * tests/data/fuzz-regress/<target>/ through the same function in the
 * normal build. An entry never exits and never fails: bad input must only
 * be refused by the code under test; a crash, a sanitizer report or an
 * abort() from a broken round trip is the finding.
 */
#ifndef XQ_FUZZ_H
#define XQ_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#define XQ_FUZZ_INPUT_MAX (256 * 1024) /* longer inputs are ignored (libFuzzer -max_len is lower) */

/* FEN: xq_fen_parse (strict, lax, G/S letters), xq_pos_validate, and
 * xq_fen_format -> parse -> format giving the same text. */
int xq_fuzz_fen(const uint8_t *data, size_t size);
/* Notations: xq_move_parse on a few fixed positions (the first byte picks
 * one), and format -> parse giving the same move on success. */
int xq_fuzz_iccs(const uint8_t *data, size_t size);
int xq_fuzz_wxf(const uint8_t *data, size_t size);
int xq_fuzz_chinese(const uint8_t *data, size_t size);
/* XQ-PGN reader on a memory stream (every game; the first byte picks the
 * flags), each game read written back as PGN. */
int xq_fuzz_pgn(const uint8_t *data, size_t size);
/* XQF reader, and the game written back as PGN. */
int xq_fuzz_xqf(const uint8_t *data, size_t size);
/* DhtmlXQ reader over every block, each game written back as DhtmlXQ. */
int xq_fuzz_dhtmlxq(const uint8_t *data, size_t size);
/* TRF: xq_trf_parse, and xq_trf_write of what it read. */
int xq_fuzz_trf(const uint8_t *data, size_t size);
/* JSON lines: the bytes go to a live server (in-process, loopback, a demo
 * store in a temporary directory, started on the first call) over one
 * connection; the first byte picks the token said hello with first (none,
 * admin, arbiter, a board, a viewer). Needs xq_net_process_init (net.h)
 * to have run. */
int xq_fuzz_jsonl(const uint8_t *data, size_t size);
/* HTTP: xq__http_parse fed in pieces (the first byte sets the piece size),
 * the requests it completes probed with xq__http_parse_header/xq__http_parse_query;
 * and the response-side helpers xq__http_parse_response/xq__http_parse_dechunk. */
int xq_fuzz_http(const uint8_t *data, size_t size);
/* http:// URLs: xq_http_url_parse and xq_publish_url_parse; an accepted
 * URL keeps the authority it was given and parses back to itself. */
int xq_fuzz_url(const uint8_t *data, size_t size);
/* Prize tables: xq_prize_parse on the bytes (no terminator); a table it
 * accepts is awarded over a fixed 40-player field (xq_prizes_award, the
 * team prizes, the eligibility texts, the prize list) and cut to one
 * category (xq_prize_table_only). */
int xq_fuzz_prize(const uint8_t *data, size_t size);
/* Rules files: xq_rules_load_json (text that does not open with '{' is
 * tried as a preset name, never opened as a file); what loads is printed,
 * loaded again and printed the same. */
int xq_fuzz_rules(const uint8_t *data, size_t size);
/* The game log's event language: after the first byte (the rule set:
 * the presets in order), each line read as a list (xq_events_parse) and
 * as one word (xq_event_parse), every event written back and read to the
 * same word, and the lists applied to a game (xq_game_apply). */
int xq_fuzz_event(const uint8_t *data, size_t size);

/* The entries by name ("fen", "iccs", ...), ended by {NULL, NULL}. */
typedef struct xq_fuzz_target {
  const char *name;
  int (*fn)(const uint8_t *data, size_t size);
} xq_fuzz_target;
extern const xq_fuzz_target xq_fuzz_targets[];

#endif /* XQ_FUZZ_H */
