/*
 * error.c -- errors: the texts of the status codes, and the one way to
 * fill a caller's xq_error.
 */
#include <stdarg.h>
#include <stdio.h>

#include "engine.h"

int xq_error_set(xq_error *err, int code, int pos, int ply, const char *fmt, ...)
{
  if (err) {
    va_list ap;
    err->code = code;
    err->pos = pos;
    err->ply = ply;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return code;
}

const char *xq_strerror(int code)
{
  switch (code) {
  case XQ_OK: return "ok";
  case XQ_EINVAL: return "invalid argument";
  case XQ_EFEN: return "invalid FEN";
  case XQ_EILLEGAL: return "illegal move";
  case XQ_EAMBIGUOUS: return "ambiguous move";
  case XQ_ENOTATION: return "not a move in this notation";
  case XQ_ENOMEM: return "out of memory";
  case XQ_EIO: return "input/output error";
  case XQ_ELIMIT: return "limit exceeded";
  case XQ_ENOPAIRING: return "no pairing satisfies the constraints";
  case XQ_ESTORE: return "event store error";
  }
  return "unknown error";
}
