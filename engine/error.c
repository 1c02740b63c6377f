/*
 * error.c -- texts of the engine's status codes.
 */
#include "engine.h"

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
  }
  return "unknown error";
}
