/*
 * records.c -- fuzz entries for the game records (fuzz.h): the XQ-PGN
 * reader on a memory stream, the XQF reader and the DhtmlXQ reader; every
 * game read is written back out, so the writers see what the readers can
 * produce.
 */
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "fuzz.h"
#include "records.h"

#define GAMES_MAX 64 /* games read from one input */

/* A record lives off the stack (about 90 KiB) and a sink for the
 * writers; both made once. */
static xq_record *record(void)
{
  static xq_record rec;
  static int ready;
  if (!ready) {
    xq_record_init(&rec);
    ready = 1;
  }
  return &rec;
}

static FILE *sink(void)
{
  static FILE *f;
  if (!f && !(f = fopen("/dev/null", "w"))) abort();
  return f;
}

/* A game that was read must be writable, in every notation. */
static void write_back(xq_record *rec)
{
  static const xq_notation notes[] = {XQ_NOTE_ICCS, XQ_NOTE_WXF, XQ_NOTE_CHINESE};
  if (xq_pgn_write(sink(), rec, notes[rec->n_moves % 3], 0, NULL) != XQ_OK) abort();
}

int xq_fuzz_pgn(const uint8_t *data, size_t size)
{
  if (size < 1 || size > XQ_FUZZ_INPUT_MAX) return 0;
  static const int flag_sets[] = {0, XQ_PGN_VARIATIONS, XQ_PGN_NO_COMMENTS, XQ_PGN_VARIATIONS | XQ_PGN_NO_COMMENTS};
  FILE *in = fmemopen((void *)(data + 1), size - 1 ? size - 1 : 1, "r");
  if (!in) return 0;
  if (size == 1) fgetc(in); /* fmemopen refuses size 0: read past its one byte */
  xq_pgn_reader *r;
  if (xq_pgn_open(&r, in, flag_sets[data[0] % 4]) == XQ_OK) {
    xq_record *rec = record();
    for (int g = 0; g < GAMES_MAX; g++) {
      xq_error err;
      int rc = xq_pgn_next(r, rec, &err);
      if (rc == 0 || rc == XQ_EIO) break;
      if (rc == 1) write_back(rec);
    }
    xq_pgn_close(r);
  }
  fclose(in);
  return 0;
}

int xq_fuzz_xqf(const uint8_t *data, size_t size)
{
  if (size > XQ_FUZZ_INPUT_MAX) return 0;
  xq_record *rec = record();
  xq_xqf_header hdr;
  xq_error err;
  if (xq_xqf_read(data, size, rec, &hdr, &err) == XQ_OK) write_back(rec);
  return 0;
}

int xq_fuzz_dhtmlxq(const uint8_t *data, size_t size)
{
  if (size > XQ_FUZZ_INPUT_MAX) return 0;
  xq_record *rec = record();
  const char *text = (const char *)data;
  size_t off = 0;
  for (int g = 0; g < GAMES_MAX && off < size; g++) {
    size_t used = 0;
    xq_error err;
    int rc = xq_dhtmlxq_read(text + off, size - off, rec, &used, &err);
    if (used > size - off) abort(); /* the contract: *consumed stays inside the text */
    if (rc == 0) break;
    if (rc == 1) {
      if (xq_dhtmlxq_write(sink(), rec, NULL) != XQ_OK) abort();
      write_back(rec);
    }
    if (used == 0) break;
    off += used;
  }
  return 0;
}
