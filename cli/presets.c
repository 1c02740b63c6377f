/*
 * presets.c -- `xqref presets`: the regulation presets (tourney/
 * regulation.c) and, for one of them, every value with the clause it
 * comes from (printed by tourney/sheet/presets.c), including the rules of
 * play of its adjudicator preset, printed here from the adjudicator.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adjudicator.h"
#include "cli.h"
#include "knockout.h"
#include "opts.h"
#include "prize.h"
#include "tourney.h"


static const xq__cmd presets_cmd = {
  .name = "presets",
  .synopsis = "             list the regulation presets\n"
              "       xqref presets show NAME    every value of NAME with the clause it comes from;\n"
              "                                  for each prize table who is eligible and why; its options",
  .args_max = 2,
  .about = "A preset is one real regulation (docs/presets.md): the event's own rows\n"
           "(rounds, time controls, knockout, tie-breaks, groups, prizes, ...) and the\n"
           "rules of play of the adjudicator preset of the same name (`judge --rules`).\n",
};

/* Copy the JSON token at *p (a string without escapes, a number, true or
 * false) into buf, advancing *p past it. Returns 0, or -1 when the text
 * is not the flat object xq_rules_to_json writes. */
static int json_token(const char **p, char *buf, size_t len)
{
  const char *s = *p;
  size_t n = 0;
  if (*s == '"') {
    s++;
    while (*s && *s != '"') {
      if (*s == '\\' || n + 1 >= len) return -1;
      buf[n++] = *s++;
    }
    if (*s != '"') return -1;
    s++;
  } else {
    while (*s && *s != ',' && *s != '}') {
      if (n + 1 >= len) return -1;
      buf[n++] = *s++;
    }
  }
  buf[n] = '\0';
  *p = s;
  return n ? 0 : -1;
}

/* The rules of play of adjudicator preset `preset`, one field a line, with
 * the regulation's clause or the rule book it falls back on. */
static int print_rules(const char *preset, const xq_reg_item *book_row)
{
  xq_rules rules;
  if (xq_rules_preset(preset, &rules) != XQ_OK) {
    fprintf(stderr, "xqref presets: no rules preset '%s'\n", preset);
    return 1;
  }
  char *json = xq_rules_to_json(&rules);
  if (!json) {
    fprintf(stderr, "xqref presets: out of memory\n");
    return 1;
  }
  const char *book = rules.ruleset == XQ_RULESET_CXA2020 ? "CXA 2020" : "CXA 2011";
  int rc = 0;
  const char *p = json;
  if (*p++ != '{') rc = 1;
  while (!rc && *p && *p != '}') {
    char key[XQ_CLI_PRESETS_KEY_MAX], value[XQ_CLI_PRESETS_VALUE_MAX];
    if (json_token(&p, key, sizeof key) || *p++ != ':' || json_token(&p, value, sizeof value)) {
      rc = 1;
      break;
    }
    if (*p == ',') p++;
    if (!strcmp(key, "name")) continue;
    const char *clause = xq_rules_preset_clause(preset, key);
    if (!clause && !strcmp(key, "ruleset")) clause = book_row->clause;
    printf("%-28s %s\n", key, value);
    if (clause)
      printf("%-28s   [%s]\n", "", clause);
    else
      printf("%-28s   [not stated: %s default]\n", "", book);
  }
  if (rc) fprintf(stderr, "xqref presets: cannot read the rules of '%s'\n", preset);
  free(json);
  return rc;
}

static int show(const char *name)
{
  const xq_regulation *r;
  xq_error err = {0};
  if (xq_regulation_find(name, &r) != XQ_OK) {
    fprintf(stderr, "xqref presets: unknown preset '%s' (xqref presets lists them)\n", name);
    return 1;
  }
  xq_regulation_print(r, stdout);
  printf("\nrules of play (adjudicator preset %s; `xqref judge --rules %s`):\n\n", r->rules_preset,
         r->rules_preset);
  int rc = print_rules(r->rules_preset, &r->rows[XQ_REG_RULE_BOOK]);
  if (!rc) {
    int t = xq_regulation_print_tables(r, stdout, &err);
    if (t && t != XQ_EIO) {
      fprintf(stderr, "xqref presets: %s\n", err.msg);
      rc = 1;
    } else if (xq_ko_event_print(r, stdout) && !ferror(stdout)) { /* a knockout-only sub-event (knockout.h) */
      rc = 1;
    }
  }
  return rc; /* a write that failed: main says so (cli/main.c) */
}

int xq_presets_main(int argc, char **argv)
{
  const char *args[2];
  int nargs;
  int status = xq__opts_parse(&presets_cmd, argc, argv, NULL, args, &nargs);
  if (status >= 0) return status;
  if (nargs == 0) {
    xq_regulation_list(stdout);
    return 0; /* a write that failed: main says so */
  }
  if (strcmp(args[0], "show")) return xq__opts_error(&presets_cmd, "unexpected argument '%s'", args[0]);
  if (nargs == 1) return xq__opts_error(&presets_cmd, "show needs a preset NAME");
  return show(args[1]);
}
