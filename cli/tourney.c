/*
 * tourney.c -- the command line of `xqref tourney ACTION`: the actions,
 * the one table of their options (each row names the actions that take
 * it), the help of each and of all, and the dispatch to the file of the
 * action's family (tourney_event.c, tourney_players.c, tourney_ko.c,
 * tourney_final.c, tourney_live.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "opts.h"
#include "pair/pair.h"
#include "paths.h"
#include "prize.h"
#include "sheet/sheet.h"
#include "store/store.h"
#include "teammatch.h"
#include "tourney.h"
#include "tourney_cli.h"

/* The actions, in the order of the help; bit k of a row's `only` is the
 * k-th. */
enum {
  A_NEW, A_SETTINGS, A_ADD, A_IMPORT, A_IMPORT_PLAYERS, A_PLAYERS, A_EDIT, A_NUMBERS, A_PAIR, A_UNPAIR, A_RESULT, A_FOUL, A_ABSENT, A_WITHDRAW,
  A_REINSTATE, A_REMOVE, A_MERGE, A_STANDINGS, A_EXPORT, A_LOG, A_KNOCKOUT, A_BRACKET, A_KO_RESULT, A_PLACES, A_TEAMS, A_PRIZES,
  A_GROUPS, A_DEMO, A_TOKEN, A_TOKENS, A_REVOKE, A_GAMES, A_TEAM, A_LINEUP, A_MATCH_RESULT, A_TEAM_WITHDRAW,
  A_BOARD_PRIZES, A_MATCH_SHEET, A_COUNT
};

#define ACT(a) ((uint64_t)1 << (a)) /* the bit of action a */
#define RECORD (ACT(A_RESULT) | ACT(A_FOUL) | ACT(A_ABSENT) | ACT(A_WITHDRAW))
#define WHO (ACT(A_FOUL) | ACT(A_ABSENT) | ACT(A_WITHDRAW) | ACT(A_REINSTATE) | ACT(A_REMOVE) | ACT(A_EDIT))
#define PLAYER (ACT(A_ADD) | ACT(A_EDIT))
#define RESULTS (ACT(A_PLACES) | ACT(A_TEAMS) | ACT(A_PRIZES) | ACT(A_GROUPS))
#define SHEETS (ACT(A_EXPORT) | RESULTS)
#define PRESET (ACT(A_TEAMS) | ACT(A_PRIZES) | ACT(A_GROUPS))

static const char *const action_names[A_COUNT] = {
  "new", "settings", "add", "import", "import-players", "players", "edit", "numbers", "pair", "unpair", "result", "foul", "absent", "withdraw",
  "reinstate", "remove", "merge", "standings", "export", "log", "knockout", "bracket", "ko-result", "places", "teams", "prizes",
  "groups", "demo", "token", "tokens", "revoke", "games", "team", "lineup", "match-result", "team-withdraw",
  "board-prizes", "match-sheet",
};

/* What each action is, its argument and the family that runs it. */
static const struct action {
  const char *summary; /* one line: the overview's */
  const char *more;    /* the rest of its help, NULL: none */
  const char *arg;     /* its argument's name, NULL: it takes none */
  int (*run)(const xq__topts *o, const char *action);
} actions[A_COUNT] = {
  [A_NEW] = {"create the event",
             "Without --preset, --rounds is required; the other options default to\n"
             "scoring 2/1/0, tie-breaks os\n"
             "(PTS,OS,WINS,FOULS,BWINS,BLACK,ROUNDBACK,LOT), round 1 by rating, lot seed\n"
             "20260101, a bye adds zero to the opponents' scores, FIDE's direct\n"
             "encounter, and a player who misses two rounds is not paired again. It\n"
             "prints what it made (rounds, scoring, tie-breaks, withdrawal rule).\n",
             NULL, xq__tourney_event_main},
  [A_SETTINGS] = {"show the event's settings, or change them",
                  "Without options it prints them: name, dates, venue, organiser, chief\n"
                  "arbiter, format, rounds, pairing system, tie-breaks, scoring, the broadcast's\n"
                  "delay, and what may\n"
                  "no longer change and why. Once round 1 is paired the format and the scoring\n"
                  "are fixed and the rounds not fewer than those paired; a round robin's rounds\n"
                  "follow from its entrants; a preset's title stays the event's name. --format\n"
                  "swiss after a round robin needs --rounds. The log keeps every change.\n",
                  NULL, xq__tourney_event_main},
  [A_ADD] = {"register a player", NULL, NULL, xq__tourney_event_main},
  [A_IMPORT] = {"a whole event from a TRF file into a new store", NULL, "FILE.trf", xq__tourney_event_main},
  [A_IMPORT_PLAYERS] = {"register the players of a CSV file, as the page's import does",
                        "FILE.csv: UTF-8 or GBK; a first line of headings (姓名 or name, 性别, 出生日期,\n"
                        "地区, 单位, 队, 等级分); each line previewed, its player or its error. The\n"
                        "lines without an error are registered together (all or none); a line with\n"
                        "one is skipped (exit status 1).\n",
                        "FILE.csv", xq__tourney_players_main},
  [A_PLAYERS] = {"list the players", NULL, NULL, xq__tourney_event_main},
  [A_EDIT] = {"correct a player's details (not the id or number; the team not after round 1)", NULL, NULL,
              xq__tourney_players_main},
  [A_NUMBERS] = {"the pairing numbers before round 1",
                 "lot: seeded by S, else a random seed, printed; manual: F has a line \"ID NO\"\n"
                 "per player. Again until round 1: the last counts.\n",
                 NULL, xq__tourney_players_main},
  [A_PAIR] = {"pair and publish the next round, print its boards", NULL, NULL, xq__tourney_event_main},
  [A_UNPAIR] = {"withdraw the published pairing of round R, the last paired, to pair it again",
                "Refused, with the reason, once anything happened in the round: a result, a\n"
                "forfeit, a foul, an absence recorded since it was published, or a move or\n"
                "clock of one of its games in the game log. Its board tokens are revoked; the\n"
                "log keeps the pairing and its withdrawal.\n",
                NULL, xq__tourney_event_main},
  [A_RESULT] = {"the result of a board",
                "CODE: 1-0 0-1 = (also 1/2, 0.5-0.5) +- -+ -- (both forfeit), * (taken back: pending)\n"
                "(one game: not 2-0, 0-2, 1-1)\n", "CODE",
                xq__tourney_event_main},
  [A_FOUL] = {"a foul of a player in a paired round",
              "--count 0 corrects the player's fouls of round R to none (the log keeps both).\n", NULL,
              xq__tourney_event_main},
  [A_ABSENT] = {"an announced absence before pairing: a 0, 1/2 or full point bye", NULL, NULL,
                xq__tourney_event_main},
  [A_WITHDRAW] = {"a player not paired from round R on", NULL, NULL, xq__tourney_event_main},
  [A_REINSTATE] = {"a withdrawn player paired again from R (default the next round to pair)", NULL, NULL,
                   xq__tourney_players_main},
  [A_REMOVE] = {"delete a player registered by mistake, before round 1 is paired",
                "The players after him move down one id, the pairing numbers close up; the\n"
                "log keeps the registration and the deletion. Once round 1 is paired it is\n"
                "refused: withdraw him instead.\n",
                NULL, xq__tourney_players_main},
  [A_MERGE] = {"merge two entries of one player: --drop goes, --keep takes what it lacks",
               "The entry kept keeps its number and takes from the other the sex, birth\n"
               "date, region, club, rating and (before round 1 is paired) team it lacks.\n"
               "The other leaves as a deleted player does (the ids after it close up); the\n"
               "log keeps it as merged. After round 1 is paired only an entry never paired\n"
               "(no game, no bye), the last registered, can be merged away.\n",
               NULL, xq__tourney_players_main},
  [A_STANDINGS] = {"the standings", NULL, NULL, xq__tourney_event_main},
  [A_EXPORT] = {"the event as FIDE TRF-16, CSV, printable HTML, text or an XLSX workbook",
                "An XLSX workbook needs --out FILE or a redirected stdout; scoresheets: 记分表;\n"
                "crosstable: a round robin's 交叉表, a Swiss event's 轮次成绩表; cards: 成绩卡;\n"
                "where: 棋手座位表. The printed pairings, standings, crosstable and cards end\n"
                "with the organiser, the chief arbiter and the lines they sign and date.\n", NULL,
                xq__tourney_event_main},
  [A_LOG] = {"print the event log", NULL, NULL, xq__tourney_event_main},
  [A_KNOCKOUT] = {"start the knockout after the Swiss rounds",
                  "With --seeding lot: a knockout-only event, every player drawn into the\n"
                  "bracket by lot (--pools FIELD: each value of it in a half; --lot N: the seed).\n",
                  NULL, xq__tourney_ko_main},
  [A_BRACKET] = {"show the knockout matches, games and the next game", NULL, NULL, xq__tourney_ko_main},
  [A_KO_RESULT] = {"the result of the next game of match M", "CODE: 1-0 0-1 = +- -+\n", "CODE", xq__tourney_ko_main},
  [A_PLACES] = {"final places (knockout, then Swiss)", NULL, NULL, xq__tourney_final_main},
  [A_TEAMS] = {"the team standings", NULL, NULL, xq__tourney_final_main},
  [A_PRIZES] = {"the prize list of a prize table file or of a preset", NULL, NULL, xq__tourney_final_main},
  [A_GROUPS] = {"each group's standings", NULL, NULL, xq__tourney_final_main},
  [A_DEMO] = {"a demo event in a new store (round 1 paired); prints the admin, board and arbiter tokens",
              NULL, NULL, xq__tourney_live_main},
  [A_TOKEN] = {"a new server access token", NULL, NULL, xq__tourney_live_main},
  [A_TOKENS] = {"list the live tokens: role round table token label", NULL, NULL, xq__tourney_live_main},
  [A_REVOKE] = {"the token no longer opens the server", NULL, "TOKEN", xq__tourney_live_main},
  [A_GAMES] = {"the game log, one row a line: id round table source seq event", NULL, NULL,
               xq__tourney_live_main},
  [A_TEAM] = {"a team event: register a team, its roster in board order",
              "The roster is --players in board order, else the players whose team is\n"
              "--name, in registration order; the first --regulars (default the boards)\n"
              "are regulars, the rest reserves.\n", NULL, xq__tourney_team_main},
  [A_LINEUP] = {"a team event: a team's lineup (出场名单) for round R",
                "--players in board order; 0 marks an absent player (the next move up).\n"
                "With the fixed board order a player may not play above one who comes\n"
                "before him on the roster (a reserve above a regular).\n", NULL, xq__tourney_team_main},
  [A_MATCH_RESULT] = {"a team event: a board's result, or a whole match forfeited",
                      "CODE from the first-named team's side: 1-0 0-1 = +- -+ (forfeits), * (none).\n",
                      "CODE", xq__tourney_team_main},
  [A_TEAM_WITHDRAW] = {"a team event: a team withdraws from round R on", NULL, NULL, xq__tourney_team_main},
  [A_BOARD_PRIZES] = {"a team event: each board's players, best first (台次奖)", NULL, NULL,
                      xq__tourney_team_main},
  [A_MATCH_SHEET] = {"a team event: the match sheet (团体对阵表) of round R, or of every round", NULL, NULL,
                     xq__tourney_team_main},
};

static const int scorings[] = {0, 0, 1, 1};
static const int firsts[] = {XQ_FIRST_BY_RATING, XQ_FIRST_BY_LOT};
static const int byeoss[] = {XQ_BYE_OS_ZERO, XQ_BYE_OS_LOWEST};
static const int evformats[] = {0, 1, 2, 3, 4, 5}; /* swiss, a round robin once, twice; team-rr, team-rr2, team-swiss */
static const int des[] = {XQ_DE_FIDE, XQ_DE_TWO_ONLY};
static const int byes[] = {XQ_TR_ZPB, XQ_TR_HPB, XQ_TR_FPB, XQ_TR_NONE};
static const int modes[] = {XQ_TEAM_RANK_SUM, XQ_TEAM_POINTS_SUM};

/* --option KEY=VALUE, once more. */
static int reg_option(void *opts, const char *v, xq_error *err)
{
  xq__topts *o = opts;
  if (o->noptions == XQ_REG_OPTIONS_MAX) {
    snprintf(err->msg, sizeof err->msg, "given at most %d times", XQ_REG_OPTIONS_MAX);
    return XQ_EINVAL;
  }
  o->options[o->noptions++] = v;
  return XQ_OK;
}

#define T xq__topts
static const xq__opt rows[] = {
  XQ__STR("--db", T, db, "FILE", "the event's store", .flags = XQ__OPT_REQUIRED),
  XQ__FLAG("--init", T, init, 1, "make the new store in an existing empty (0-byte) FILE",
           .only = ACT(A_NEW) | ACT(A_IMPORT) | ACT(A_DEMO)),
  XQ__STR("--name", T, name, "TEXT", "the event's name (with --preset: default its title)", .only = ACT(A_NEW)),
  XQ__STR("--preset", T, preset, "NAME", "a regulation preset: its rounds, scoring, round 1, tie-breaks and\n"
          "withdrawal rule (the options below override them)", .only = ACT(A_NEW)),
  XQ__STR("--name", T, name, "TEXT", "the event's name", .only = ACT(A_SETTINGS)),
  XQ__STR("--dates", T, dates, "TEXT", "the event's dates, as the sheets print them (\"\": none)",
          .only = ACT(A_SETTINGS) | ACT(A_NEW)),
  XQ__STR("--venue", T, venue, "TEXT", "where it is played", .only = ACT(A_SETTINGS) | ACT(A_NEW)),
  XQ__STR("--organiser", T, organiser, "TEXT", "who organises it (主办)", .only = ACT(A_SETTINGS) | ACT(A_NEW)),
  XQ__STR("--arbiter", T, arbiter, "TEXT", "its chief arbiter (裁判长)", .only = ACT(A_SETTINGS) | ACT(A_NEW)),
  XQ__STR("--name", T, name, "NAME", "the player's name", .only = ACT(A_ADD), .flags = XQ__OPT_REQUIRED),
  XQ__STR("--name", T, name, "NAME", "the player's name", .only = ACT(A_EDIT)),
  XQ__ENUM("--format", T, evformat, "swiss|rr|rr2|team-rr|team-rr2|team-swiss", evformats,
           "swiss (the default); rr: a round robin (单循环), rr2: a double one\n"
           "(双循环): paired from the round-robin table, the numbers drawn by\n"
           "lot, rounds from the entrants, tie-breaks cxa_rr1; team-rr, team-rr2,\n"
           "team-swiss: a team competition (团体赛) on --boards B", .only = ACT(A_NEW)),
  XQ__LONG("--boards", T, boards, 2, XQ_TM_BOARDS_MAX, "B", "a team event's boards a match", .only = ACT(A_NEW)),
  XQ__STR("--match-points", T, match_points, "W/D/L[/H/A]", "a team event's match points (场分): 2/1/0 (the\n"
          "default), 3/1/0; 3/1/0/1/2: a drawn match 1 to the home (first-named)\n"
          "team, 2 to the other", .only = ACT(A_NEW)),
  XQ__STR("--board-order", T, board_order, "fixed|free", "a team event's lineups: in roster order (the\n"
          "default) or any order (自由排阵)", .only = ACT(A_NEW)),
  XQ__LONG("--min-players", T, min_players, 1, XQ_TM_BOARDS_MAX, "N", "a team event: fewer fielded forfeit the\n"
           "match (default B - 1)", .only = ACT(A_NEW)),
  XQ__STR("--system", T, system, "cn|dutch", "a team Swiss's pairing system (default cn)", .only = ACT(A_NEW)),
  XQ__STR("--name", T, name, "NAME", "the team's name", .only = ACT(A_TEAM), .flags = XQ__OPT_REQUIRED),
  XQ__STR("--players", T, list, "NO,NO,...", "the roster in board order, by the players' numbers",
          .only = ACT(A_TEAM)),
  XQ__LONG("--regulars", T, regulars, 1, XQ_TM_ROSTER_MAX, "N", "the regulars (default the boards)",
           .only = ACT(A_TEAM)),
  XQ__STR("--team", T, team, "NAME", "the team", .only = ACT(A_LINEUP) | ACT(A_TEAM_WITHDRAW),
          .flags = XQ__OPT_REQUIRED),
  XQ__STR("--players", T, list, "NO,NO,...", "the lineup in board order, by the players' numbers (0: absent)",
          .only = ACT(A_LINEUP), .flags = XQ__OPT_REQUIRED),
  XQ__LONG("--round", T, round, 1, XQ_TOURNEY_ROUNDS_MAX, "R", "the round",
           .only = ACT(A_LINEUP) | ACT(A_MATCH_RESULT) | ACT(A_TEAM_WITHDRAW), .flags = XQ__OPT_REQUIRED),
  XQ__LONG("--round", T, round, 1, XQ_TOURNEY_ROUNDS_MAX, "R", "the round (default every round)",
           .only = ACT(A_MATCH_SHEET)),
  XQ__LONG("--match", T, match, 1, XQ_TM_TEAMS_MAX, "M", "the match of the round, as pair prints it",
           .only = ACT(A_MATCH_RESULT), .flags = XQ__OPT_REQUIRED),
  XQ__LONG("--board", T, board, 1, XQ_TM_BOARDS_MAX, "B", "the board", .only = ACT(A_MATCH_RESULT) | ACT(A_BOARD_PRIZES)),
  XQ__STR("--format", T, format, "text|html|csv|xlsx", "a team event's sheet instead of the plain listing",
          .only = ACT(A_MATCH_SHEET) | ACT(A_BOARD_PRIZES) | ACT(A_STANDINGS)),
  XQ__STR("--lang", T, lang, "en|zh", "the sheet's language (default en)",
          .only = ACT(A_MATCH_SHEET) | ACT(A_BOARD_PRIZES) | ACT(A_STANDINGS)),
  XQ__STR("--out", T, out, "FILE", "the sheet's file (default stdout)",
          .only = ACT(A_MATCH_SHEET) | ACT(A_BOARD_PRIZES) | ACT(A_STANDINGS)),
  XQ__STR("--forfeit", T, forfeit, "none|first|second|both", "the whole match forfeited by the first-named\n"
          "team, the second, both; none takes it back", .only = ACT(A_MATCH_RESULT)),
  XQ__LONG("--games", T, games, 1, 2, "1|2", "rr: games a pairing; 2: 两局制, each pairing twice in a\n"
           "row, colours swapped, tie-breaks cxa_rr2 (场分 first)", .only = ACT(A_NEW)),
  XQ__LONG("--groups", T, rr_groups, 2, XQ_RR_GROUPS_MAX, "G", "rr|rr2: in G groups (分组循环), each its own round robin:\n"
           "dealt serpentine by number (by rating: seeded; by lot: drawn)", .only = ACT(A_NEW)),
  XQ__LONG("--rounds", T, rounds, 1, XQ_TOURNEY_ROUNDS_MAX, "N", "the event's rounds (new: required unless\n"
           "a preset gives them or the event is a round robin)", .only = ACT(A_NEW) | ACT(A_IMPORT)),
  XQ__ENUM("--scoring", T, scoring, "210|2-1-0|1-0.5-0|10.50", scorings, "points for a win, a draw, a loss (default 210)",
           .only = ACT(A_NEW)),
  XQ__STR("--tiebreaks", T, tiebreaks, "LIST|PRESET",
          "tie-break codes, PTS OS OS_C1 PS WINS BWINS RWINS BLACK FOULS DE\n"
          "SB ROUNDBACK ROUNDBACK_FIRST LOT MATCHPTS, comma-separated; presets: os ps\n"
          "xinjiang burqin shaanxi wujiaqu tangshan cxa_rr1 cxa_rr2 wuwei2021\n"
          "(default os; a round robin's cxa_rr1, of two-game pairings cxa_rr2);\n"
          "a team event's: MP GP MW TDE TDE2W TBR TBRW BC BBE TBH EMMSB EMGSB EGMSB\n"
          "EGGSB WINS BWINS LOT; presets cxa_team_rr cxa_team_swiss league_2leg fide_team",
          .only = ACT(A_NEW) | ACT(A_IMPORT)),
  XQ__ENUM("--format", T, evformat, "swiss|rr|rr2", evformats, "swiss, or a round robin once (rr) or twice\n"
           "(rr2) with a round robin's defaults (before round 1 is paired)",
           .only = ACT(A_SETTINGS)),
  XQ__LONG("--rounds", T, rounds, 1, XQ_TOURNEY_ROUNDS_MAX, "N", "a Swiss event's rounds (not fewer than those paired)",
           .only = ACT(A_SETTINGS)),
  XQ__ENUM("--scoring", T, scoring, "210|2-1-0|1-0.5-0|10.50", scorings, "points for a win, a draw, a loss (before\n"
           "round 1 is paired)", .only = ACT(A_SETTINGS)),
  XQ__STR("--tiebreaks", T, tiebreaks, "LIST|PRESET", "the tie-break order: codes or a preset, as new takes them",
          .only = ACT(A_SETTINGS)),
  XQ__STR("--delay", T, delay, "SECONDS|server", "viewers see the games SECONDS late (0..3600; 900: 15\n"
          "minutes); server: as serve --delay says (the default)", .only = ACT(A_SETTINGS)),
  XQ__ENUM("--first-round", T, first, "rating|lot", firsts, "round 1 paired by rating (the default) or by lot",
           .only = ACT(A_NEW)),
  XQ__LONG("--seed", T, seed, 0, XQ_CLI_LOT_SEED_MAX, "N", "the seed of the lots drawn (default 20260101; a team\n"
           "round robin: 0 numbers the teams in registration order)",
           .only = ACT(A_NEW)),
  XQ__ENUM("--bye-os", T, byeos, "zero|lowest", byeoss, "what a bye adds to the opponents' score (default\n"
           "zero)",
           .only = ACT(A_NEW)),
  XQ__ENUM("--de", T, de, "fide|two", des, "the direct encounter tie-break: FIDE's (the default),\n"
           "or between two only",
           .only = ACT(A_NEW)),
  XQ__LONG("--rating", T, rating, 0, XQ_CLI_RATING_MAX, "N", "the player's rating", .only = PLAYER),
  XQ__STR("--birth", T, birth, "YYYY/MM/DD", "the player's birth date", .only = PLAYER),
  XQ__STR("--sex", T, sex, "m|w|男|女", "the player's sex (edit: \"\", not known)", .only = PLAYER),
  XQ__STR("--region", T, region, "X", "the player's region", .only = PLAYER),
  XQ__STR("--club", T, club, "X", "the player's club", .only = PLAYER),
  XQ__STR("--team", T, team, "X", "the player's team", .only = PLAYER),
  XQ__FLAG("--local", T, local, 1, "a local player", .only = PLAYER),
  XQ__FLAG("--not-local", T, local, 0, "not a local player", .only = ACT(A_EDIT)),
  XQ__FLAG("--dry-run", T, dry_run, 1, "the preview only: register nothing", .only = ACT(A_IMPORT_PLAYERS)),
  XQ__FLAG("--force", T, force, 1, "a namesake: register a player with the name, birth date and club\n"
           "of one registered already", .only = ACT(A_ADD)),
  XQ__FLAG("--force", T, force, 1, "change a result of a round the knockout was seeded on (prints\n"
           "how the seeding and the standings then differ)", .only = ACT(A_RESULT)),
  XQ__STR("--by", T, by, "rating|lot|manual", "how the numbers are given", .only = ACT(A_NUMBERS),
          .flags = XQ__OPT_REQUIRED),
  XQ__LONG("--seed", T, seed, 0, (long long)XQ_NUM_SEED_MAX, "S", "the lot's seed", .only = ACT(A_NUMBERS)),
  XQ__STR("--file", T, file, "F", "the numbers by hand: a line \"ID NO\" per player", .only = ACT(A_NUMBERS)),
  XQ__STR("--system", T, system, "cn|dutch", "cn: Chinese adjacent pairing; dutch: FIDE (default the\n"
          "event's, set by settings; else cn)",
          .only = ACT(A_PAIR)),
  XQ__STR("--system", T, system, "cn|dutch", "the pairing system pair uses by default", .only = ACT(A_SETTINGS)),
  XQ__LONG("--round", T, round, 1, XQ_TOURNEY_ROUNDS_MAX, "R", "the round", .only = RECORD | ACT(A_UNPAIR),
           .flags = XQ__OPT_REQUIRED),
  XQ__LONG("--round", T, round, 1, XQ_TOURNEY_ROUNDS_MAX, "R", "the round", .only = ACT(A_REINSTATE) | ACT(A_EXPORT)),
  XQ__LONG("--round", T, round, 1, XQ_TOURNEY_ROUNDS_MAX, "R", "a board token's round; games: that round's only",
           .only = ACT(A_TOKEN) | ACT(A_GAMES)),
  XQ__LONG("--board", T, board, 1, XQ_TOURNEY_PLAYERS_MAX, "B", "the board", .only = ACT(A_RESULT),
           .flags = XQ__OPT_REQUIRED),
  XQ__LONG("--player", T, player, 1, XQ_TOURNEY_PLAYERS_MAX, "NO",
           "the player's number (序号), as every listing and sheet prints it", .only = WHO),
  XQ__LONG("--player", T, player, 1, XQ_TOURNEY_PLAYERS_MAX, "NO",
           "--what cards: the card of the player of this number\n"
           "(序号) only (default every player's)", .only = ACT(A_EXPORT)),
  XQ__LONG("--id", T, id, 1, XQ_TOURNEY_PLAYERS_MAX, "ID", "the player's registration id instead", .only = WHO),
  XQ__LONG("--keep", T, keep, 1, XQ_TOURNEY_PLAYERS_MAX, "NO", "the entry kept, by its number (序号)",
           .only = ACT(A_MERGE), .flags = XQ__OPT_REQUIRED),
  XQ__LONG("--drop", T, drop, 1, XQ_TOURNEY_PLAYERS_MAX, "NO", "the duplicate merged into it, by its number",
           .only = ACT(A_MERGE), .flags = XQ__OPT_REQUIRED),
  XQ__LONG("--count", T, fouls, 0, XQ_CLI_FOULS_MAX, "N", "fouls added (default 1); 0: the round's fouls of the\n"
           "player corrected to none", .only = ACT(A_FOUL)),
  XQ__ENUM("--bye", T, bye, "zero|half|full|none", byes, "the bye's points (default zero); none: the round's\n"
           "absence taken back", .only = ACT(A_ABSENT)),
  XQ__LONG("--after", T, after, 1, XQ_TOURNEY_ROUNDS_MAX, "R", "after round R (default: the last whose games are all in)",
           .only = ACT(A_STANDINGS) | ACT(A_EXPORT)),
  XQ__STR("--format", T, format, "trf|csv|html|text|xlsx", "the file's format (default trf)", .only = ACT(A_EXPORT)),
  XQ__STR("--what", T, what, "standings|pairings|scoresheets|crosstable|cards|where",
          "the sheet (not with trf; default standings); crosstable: a\n"
          "round robin's 交叉表, a Swiss event's rounds table (轮次成绩表);\n"
          "cards: the players' score cards (成绩卡); where: who plays\n"
          "where in round R, by name (棋手座位表)",
          .only = ACT(A_EXPORT)),
  XQ__LONG("--after", T, after, 1, XQ_TOURNEY_ROUNDS_MAX, "K", "the knockout after Swiss round K (required\n"
           "unless --seeding lot or the event's regulation states it)", .only = ACT(A_KNOCKOUT)),
  XQ__LONG("--size", T, size, 2, XQ_KO_SIZE_MAX, "2|4|8|16", "the bracket's players (default the\n"
           "regulation's, else 8)", .only = ACT(A_KNOCKOUT)),
  XQ__STR("--seeding", T, seeding, "fixed|choose|lot", "how the bracket is seeded (default the\n"
          "regulation's, else fixed)",
          .only = ACT(A_KNOCKOUT)),
  XQ__LONG("--choice", T, choice, 3, 4, "3|4", "with --seeding choose: the top seed's pick", .only = ACT(A_KNOCKOUT)),
  XQ__STR("--format", T, format, "xinjiang|shaanxi|tangshan|wujiaqu|village", "the tie-break games' format\n"
          "(default the regulation's)",
          .only = ACT(A_KNOCKOUT)),
  XQ__STR("--pools", T, pools, "region|club|team", "with --seeding lot: each value of the field in a half",
          .only = ACT(A_KNOCKOUT)),
  XQ__STR("--lot", T, lot, "N", "with --seeding lot: the drawing's seed (default the event's)",
          .only = ACT(A_KNOCKOUT)),
  XQ__LONG("--match", T, match, 1, XQ_KO_MATCHES_MAX, "M", "the match", .only = ACT(A_KO_RESULT),
           .flags = XQ__OPT_REQUIRED),
  XQ__LONG("--red", T, red, 1, XQ_TOURNEY_PLAYERS_MAX, "NO", "the player with red, by his number (序号): the standard game's\n"
           "lot or choice (default the higher seed), the armageddon's lot\n"
           "(required); the rapid games follow the colour swap",
           .only = ACT(A_KO_RESULT)),
  XQ__FLAG("--swiss", T, swiss, 1, "the Swiss order only, without the knockout", .only = RESULTS),
  XQ__STR("--preset", T, preset, "NAME", "a regulation preset: its tables and rules", .only = PRESET),
  XQ__STR("--table", T, prize_table, "FILE", "a prize table file", .only = ACT(A_TEAMS) | ACT(A_PRIZES)),
  XQ__ENUM("--mode", T, mode, "places|points", modes, "teams ranked by the sum of places or of points",
           .only = ACT(A_TEAMS)),
  XQ__LONG("--count", T, count, 1, XQ_TEAM_COUNTED_MAX, "N", "players counted for a team", .only = ACT(A_TEAMS)),
  XQ__STR("--group", T, group, "NAME", "one group (prizes: one prize list) only; new: the event of a group "
          "that plays its own", .only = ACT(A_PRIZES) | ACT(A_GROUPS) | ACT(A_NEW)),
  XQ__CALL("--option", reg_option, "KEY=VALUE", "a reading of the preset (xqref presets show NAME lists them)",
           .only = PRESET, .flags = XQ__OPT_REPEAT),
  XQ__STR("--format", T, format, "text|html|csv|xlsx", "a sheet instead of the plain listing", .only = RESULTS),
  XQ__STR("--lang", T, lang, "en|zh", "the sheet's language (default en)", .only = SHEETS),
  XQ__STR("--out", T, out, "FILE", "the sheet's file (default stdout)", .only = SHEETS),
  XQ__LONG("--players", T, players, 2, XQ_TOURNEY_PLAYERS_MAX, "N",
           "the demo's players (default " XQ__OPT_TEXT(XQ_CLI_DEMO_PLAYERS) ")", .only = ACT(A_DEMO)),
  XQ__STR("--role", T, role, "admin|arbiter|board|viewer", "the token's role", .only = ACT(A_TOKEN)),
  XQ__LONG("--table", T, table, 1, XQ_TOURNEY_PLAYERS_MAX, "T", "a board token's table; games: that table's only",
           .only = ACT(A_TOKEN) | ACT(A_GAMES)),
  XQ__STR("--label", T, label, "TEXT", "a label kept with the token", .only = ACT(A_TOKEN)),
};
#undef T

static const char overview_after[] =
  "new, import and demo create FILE when it is missing; an existing empty (0-byte)\n"
  "FILE is refused unless --init is given (a store cut to nothing is not a new one).\n";

/* The command line of action k. */
static xq__cmd action_cmd(int k, char *name, size_t len)
{
  snprintf(name, len, "tourney %s", action_names[k]);
  return (xq__cmd){.name = name, .args = actions[k].arg, .args_max = actions[k].arg != NULL, .dash_words = 1,
                   .about = actions[k].summary, .after = actions[k].more, .opts = rows, .nopts = XQ__NROWS(rows), .mask = ACT(k),
                   .actions = action_names};
}

/* `xqref tourney --help`: every action, its summary and its usage. */
static void overview(FILE *out)
{
  fprintf(out, "usage: xqref tourney ACTION --db FILE [OPTIONS]   (xqref tourney ACTION --help: its help)\n"
               "\nactions:\n");
  for (int k = 0; k < A_COUNT; k++) {
    char name[32];
    xq__cmd c = action_cmd(k, name, sizeof name);
    fprintf(out, "  %-10s %s\n             ", action_names[k], actions[k].summary);
    xq__opts_synopsis(&c, 13, 13, out);
  }
  fprintf(out, "\n%s", overview_after);
}

int xq_tourney_main(int argc, char **argv)
{
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    overview(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  int k = 0;
  while (k < A_COUNT && strcmp(argv[1], action_names[k])) k++;
  if (k == A_COUNT) {
    fprintf(stderr, "xqref tourney: unknown action '%s'\n\n", argv[1]);
    overview(stderr);
    return 2;
  }
  char name[32];
  xq__cmd c = action_cmd(k, name, sizeof name);
  xq__topts o = {.scoring = -1, .evformat = -1, .games = -1, .rr_groups = -1, .first = -1, .byeos = -1, .de = -1, .bye = -1, .local = -1, .rounds = -1,
                 .rating = -1, .board = -1, .player = -1, .id = -1, .keep = -1, .drop = -1, .after = -1, .seed = -1, .fouls = 1,
                 .mode = -1, .regulars = -1, .boards = -1, .min_players = -1, .size = -1, .choice = -1, .match = -1, .red = -1, .players = XQ_CLI_DEMO_PLAYERS};
  int nargs;
  int status = xq__opts_parse(&c, argc - 1, argv + 1, &o, &o.arg, &nargs);
  if (status >= 0) return status;
  /* the sheet and the store are never a file the action reads, nor one
   * another */
  const xq__path outs[] = {{o.out, "--out", 0}, {o.db, "the store", 1}};
  const xq__path ins[] = {{k == A_IMPORT || k == A_IMPORT_PLAYERS ? o.arg : NULL, k == A_IMPORT ? "FILE.trf" : "FILE.csv", 0}, {o.file, "--file", 0}, {o.prize_table, "--table", 0}};
  if (xq__paths_check(name, outs, 2, ins, 3)) return 1;
  return actions[k].run(&o, action_names[k]);
}
