/*
 * engine_no_init.c -- a program that forgets xq_engine_init: in a tree
 * built with XQ_CHECKS the first position it sets up must abort with the
 * engine's message (ctest: engine_init_required), never run on empty
 * tables. Deliberately without tests/support.c, whose constructor would
 * build the tables.
 */
#include <stdio.h>

#include "engine.h"

int main(void)
{
  xq_pos p;
  xq_pos_startpos(&p);
  /* only reached when the check is missing: say what the tables gave */
  printf("no abort: %d legal moves from the start\n", xq_count_legal(&p));
  return 0;
}
