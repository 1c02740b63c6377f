/*
 * main.c -- the xqref binary: the process's start, then the command line
 * (xq_cli_main, commands.c).
 */
#include "cli.h"
#include "engine.h"

int main(int argc, char **argv)
{
  xq_engine_init(); /* the process start: the engine's tables */
  return xq_cli_main(argc, argv);
}
