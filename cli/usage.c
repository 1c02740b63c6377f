/*
 * usage.c -- the usage error every subcommand prints the same way.
 */
#include <stdio.h>

#include "cli.h"

int xq_cli_usage_error(const char *command, const char *usage, const char *msg, const char *arg)
{
  fprintf(stderr, "xqref %s: %s%s%s\n", command, msg, arg ? " " : "", arg ? arg : "");
  fprintf(stderr, "%s\n", usage);
  return 2;
}
