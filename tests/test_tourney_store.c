/*
 * test_tourney_store.c -- the SQLite event store: migrations from an empty
 * file (asked for: an empty file is refused otherwise), open failures told
 * in SQLite's words with the path, reopening keeps every committed event,
 * a process killed after its commits loses none of them, bad writes leave
 * nothing behind, the derived state equals the state built in memory, TRF
 * files import; and a whole small event run through `xqref tourney`.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pair/pair.h"
#include "store/store.h"
#include "store_fixture.h"
#include "support.h"
#include "tourney.h"

static xq_tstore *new_store(const char *path, int rounds) { return xq_test_store_new(path, "第一届测试杯", rounds); }

Test(store, migrations_from_an_empty_file)
{
  char path[512];
  xq_test_db_fresh(path, sizeof path, "empty");
  FILE *f = fopen(path, "w"); /* a zero-length file: a new store only when asked (--init) */
  cr_assert_not_null(f);
  fclose(f);
  xq_tstore *st;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(path, XQ_TSTORE_INIT, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_schema_version(st), XQ_STORE_SCHEMA_VERSION);
  cr_assert_eq(xq_tstore_event_count(st), 0);
  xq_tournament *ev;
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_ESTORE, "no event yet");
  xq_tstore_close(st);
  /* opening again finds the schema current and migrates nothing */
  cr_assert_eq(xq_tstore_open(path, XQ_TSTORE_OPEN, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_schema_version(st), XQ_STORE_SCHEMA_VERSION);
  xq_tstore_close(st);
  xq_test_db_remove(path);

  /* a missing file without create, and a file that is not SQLite */
  cr_assert_eq(xq_tstore_open(path, XQ_TSTORE_OPEN, &st, &err), XQ_EIO);
  cr_assert_null(st);
  f = fopen(path, "w");
  fputs("012 this is a TRF file, not a database\n", f);
  for (int i = 0; i < 200; i++) fputs("001 .........................................\n", f);
  fclose(f);
  cr_assert_eq(xq_tstore_open(path, XQ_TSTORE_OPEN, &st, &err), XQ_ESTORE);
  xq_test_db_remove(path);
}

static long file_size(const char *path)
{
  struct stat sb;
  return stat(path, &sb) ? -1 : (long)sb.st_size;
}

/* Open `path` as `mode` says, expecting `code` and a message that names
 * the path ("cannot open PATH: ") and says `why`. */
static void open_fails(const char *path, int mode, int code, const char *why)
{
  xq_tstore *st = (xq_tstore *)1;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(path, mode, &st, &err), code, "%s: %s", path, err.msg);
  cr_assert_null(st);
  char want[600];
  snprintf(want, sizeof want, "cannot open %s: ", path);
  cr_assert(!strncmp(err.msg, want, strlen(want)), "the message names the store: %s", err.msg);
  cr_assert(strstr(err.msg, why), "'%s' says '%s'", err.msg, why);
}

/* A store truncated to nothing is not a new store: an empty file is
 * refused, and left as it was, unless the caller asks for a new store in
 * it (XQ_TSTORE_INIT, the command line's --init). */
Test(store, an_empty_file_is_refused_untouched_unless_init)
{
  char path[512], wal[600];
  xq_test_db_fresh(path, sizeof path, "zero");
  snprintf(wal, sizeof wal, "%s-wal", path);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  fclose(f);
  open_fails(path, XQ_TSTORE_OPEN, XQ_ESTORE, "the file is empty (0 bytes), not an event store");
  open_fails(path, XQ_TSTORE_CREATE, XQ_ESTORE, "the file is empty (0 bytes); --init makes a new store in it");
  cr_assert_eq(file_size(path), 0, "a refused file is not written to");
  cr_assert_neq(access(wal, F_OK), 0, "nor given a WAL");
  xq_tstore *st;
  xq_error err = {0};
  cr_assert_eq(xq_tstore_open(path, XQ_TSTORE_INIT, &st, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  cr_assert_gt(file_size(path), 0);
  /* the store it now is opens in every mode */
  for (int mode = XQ_TSTORE_OPEN; mode <= XQ_TSTORE_INIT; mode++) {
    cr_assert_eq(xq_tstore_open(path, mode, &st, &err), XQ_OK, "%s", err.msg);
    xq_tstore_close(st);
  }
  xq_test_db_remove(path);
}

/* Whatever stops a store from opening is told in SQLite's own words (with
 * the system's reason for a file it cannot open), after the store's path:
 * a directory, a path under a regular file, a missing directory, a file
 * of garbage, a store cut short. */
Test(store, open_failures_say_why_in_sqlites_words_with_the_path)
{
  char base[512], path[700];
  xq_test_db_fresh(base, sizeof base, "why");
  /* a directory given as the store */
  cr_assert_eq(mkdir(base, 0700), 0);
  open_fails(base, XQ_TSTORE_CREATE, XQ_EIO, "unable to open database file (Is a directory)");
  open_fails(base, XQ_TSTORE_INIT, XQ_EIO, "unable to open database file (Is a directory)");
  cr_assert_eq(rmdir(base), 0);
  /* a store whose directory is a regular file */
  FILE *f = fopen(base, "w");
  cr_assert_not_null(f);
  fclose(f);
  snprintf(path, sizeof path, "%s/event.db", base);
  open_fails(path, XQ_TSTORE_CREATE, XQ_EIO, "unable to open database file (Not a directory)");
  unlink(base);
  /* a directory that does not exist */
  snprintf(path, sizeof path, "%s/no-such-dir/event.db", base);
  open_fails(path, XQ_TSTORE_CREATE, XQ_EIO, "unable to open database file (No such file or directory)");
  open_fails(base, XQ_TSTORE_OPEN, XQ_EIO, "unable to open database file (No such file or directory)");
  /* 8 KiB of garbage */
  f = fopen(base, "wb");
  cr_assert_not_null(f);
  uint64_t x = 0x9e3779b97f4a7c15u;
  for (int i = 0; i < 8192; i++) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    fputc((int)(x >> 56), f);
  }
  fclose(f);
  open_fails(base, XQ_TSTORE_CREATE, XQ_ESTORE, "file is not a database");
  xq_test_db_remove(base);
  /* a store cut short: its header is there, its tables are not */
  xq_tstore *st = new_store(base, 5);
  for (int i = 0; i < 30; i++) xq_test_store_add(st, "棋手", 2000 + i);
  xq_tstore_close(st);
  cr_assert_gt(file_size(base), 5000);
  cr_assert_eq(truncate(base, 5000), 0);
  open_fails(base, XQ_TSTORE_OPEN, XQ_ESTORE, "database disk image is malformed");
  xq_test_db_remove(base);
}

/* The uid the read-only case runs under when the tests run as root (who
 * writes into any directory): "nobody". */
#define UNPRIVILEGED 65534

/* A new store in a directory the process may not write to: the
 * directory's refusal is told, not the "No such file" of SQLite's
 * read-only retry; an existing store there cannot take its WAL. Run in a
 * child under UNPRIVILEGED when the tests run as root. */
Test(store, a_read_only_directory_is_told_as_such)
{
  char dir[512], path[700], copy[700];
  xq_test_db_fresh(dir, sizeof dir, "rodir");
  cr_assert_eq(mkdir(dir, 0700), 0);
  snprintf(copy, sizeof copy, "%s/event.db", dir);
  xq_tstore_close(new_store(copy, 3));
  snprintf(path, sizeof path, "%s/new.db", dir);
  int root = geteuid() == 0;
  if (root) cr_assert_eq(chown(copy, UNPRIVILEGED, UNPRIVILEGED), 0);
  cr_assert_eq(chmod(dir, 0555), 0);
  pid_t pid = fork();
  cr_assert_geq(pid, 0);
  if (pid == 0) {
    if (root && (setgid(UNPRIVILEGED) || setuid(UNPRIVILEGED))) _exit(77);
    xq_tstore *st;
    xq_error err = {0};
    int bad = 0;
    if (xq_tstore_open(path, XQ_TSTORE_CREATE, &st, &err) != XQ_EIO ||
        !strstr(err.msg, "unable to open database file (directory: Permission denied)"))
      bad |= 1, fprintf(stderr, "new store: %s\n", err.msg);
    if (xq_tstore_open(copy, XQ_TSTORE_OPEN, &st, &err) != XQ_EIO || !strstr(err.msg, copy) ||
        !strstr(err.msg, "its directory is read-only (Permission denied)"))
      bad |= 2, fprintf(stderr, "existing store: %s\n", err.msg);
    _exit(bad);
  }
  int status = 0;
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  chmod(dir, 0700);
  xq_test_db_remove(copy);
  rmdir(dir);
  cr_assert(WIFEXITED(status));
  if (WEXITSTATUS(status) == 77) cr_skip_test("cannot drop to uid %d here", UNPRIVILEGED);
  cr_assert_eq(WEXITSTATUS(status), 0, "the messages are on stderr");
}

/* A store file this process may not write is refused at once, in words
 * that say so: SQLite would open it read-only and fail every commit
 * (or, on a read-only file system, say "No such file or directory"). */
Test(store, a_read_only_store_file_is_refused_as_such)
{
  char dir[512], path[700];
  xq_test_db_fresh(dir, sizeof dir, "rofile");
  cr_assert_eq(mkdir(dir, 0700), 0);
  snprintf(path, sizeof path, "%s/event.db", dir);
  xq_tstore_close(new_store(path, 3));
  int root = geteuid() == 0;
  if (root) cr_assert_eq(chown(dir, UNPRIVILEGED, UNPRIVILEGED), 0);
  if (root) cr_assert_eq(chown(path, UNPRIVILEGED, UNPRIVILEGED), 0);
  cr_assert_eq(chmod(path, 0444), 0);
  pid_t pid = fork();
  cr_assert_geq(pid, 0);
  if (pid == 0) {
    if (root && (setgid(UNPRIVILEGED) || setuid(UNPRIVILEGED))) _exit(77);
    xq_tstore *st = NULL;
    xq_error err = {0};
    int rc = xq_tstore_open(path, XQ_TSTORE_OPEN, &st, &err);
    if (rc != XQ_EIO || st || !strstr(err.msg, path) || !strstr(err.msg, "the file is read-only (Permission denied)"))
      fprintf(stderr, "read-only store: status %d: %s\n", rc, err.msg), _exit(1);
    _exit(0);
  }
  int status = 0;
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  chmod(path, 0600);
  xq_test_db_remove(path);
  rmdir(dir);
  cr_assert(WIFEXITED(status));
  if (WEXITSTATUS(status) == 77) cr_skip_test("cannot drop to uid %d here", UNPRIVILEGED);
  cr_assert_eq(WEXITSTATUS(status), 0, "the message is on stderr");
}

Test(store, reopen_keeps_every_committed_event)
{
  char path[512];
  xq_error err = {0};
  xq_test_db_fresh(path, sizeof path, "reopen");
  xq_tstore *st = new_store(path, 5);
  const char *names[5] = {"张强", "李来群", "胡荣华", "吕钦", "许银川"};
  for (int i = 0; i < 5; i++) xq_test_store_add(st, names[i], 2600 - 20 * i);
  xq_tournament *ev;
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK, "%s", err.msg);
  xq_assign_pnos(ev);
  xq_tpairing pr = {0};
  cr_assert_eq(xq_pair_cn(ev, 1, &pr, NULL), XQ_OK);
  cr_assert_eq(xq_tstore_publish(st, ev, &pr, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_publish(st, ev, &pr, &err), XQ_EINVAL, "a round is published once");
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  cr_assert_eq(xq_tstore_result(st, 1, 1, "1-0", &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_result(st, 1, 2, "=", &err), XQ_OK);
  cr_assert_eq(xq_tstore_result(st, 1, 2, "0-1", &err), XQ_OK, "a correction");
  cr_assert_eq(xq_tstore_foul(st, 1, 4, 2, &err), XQ_OK);
  cr_assert_eq(xq_tstore_absence(st, 2, 5, XQ_TR_ZPB, &err), XQ_OK);
  cr_assert_eq(xq_tstore_absence(st, 2, 3, XQ_TR_HPB, &err), XQ_OK);
  cr_assert_eq(xq_tstore_absence(st, 2, 3, XQ_TR_WIN, &err), XQ_EINVAL);
  /* bad writes: rejected, nothing recorded */
  long before = xq_tstore_event_count(st);
  cr_assert_eq(xq_tstore_result(st, 1, 9, "1-0", &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_result(st, 1, 3, "1-0", &err), XQ_EINVAL, "board 3 is the bye");
  cr_assert_eq(xq_tstore_result(st, 1, 1, "2:0", &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_foul(st, 1, 42, 1, &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_absence(st, 1, 2, XQ_TR_ZPB, &err), XQ_EINVAL, "round 1 is already paired");
  xq_tplayer bad;
  memset(&bad, 0, sizeof bad);
  strcpy(bad.name, "\xff");
  cr_assert_eq(xq_tstore_register(st, &bad, NULL, &err), XQ_EINVAL);
  cr_assert_eq(xq_tstore_event_count(st), before);
  xq_tstore_close(st);

  /* 5 registrations, numbering, pairing, 3 results, foul, 2 absences */
  cr_assert_eq(xq_tstore_open(path, 0, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_event_count(st), 13);
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK, "%s", err.msg);
  cr_assert_str_eq(ev->name, "第一届测试杯");
  cr_assert_eq(ev->cfg.rounds, 5);
  cr_assert_eq(ev->n, 5);
  cr_assert_str_eq(ev->players[2].name, "胡荣华");
  /* round 1 by rating: 1–2, 4–3, 5 bye; 1 won, 3 beat 4 (the correction) */
  cr_assert_eq(xq_tournament_slot(ev, 1, 1)->res, XQ_TR_WIN);
  cr_assert_eq(xq_tournament_slot(ev, 2, 1)->res, XQ_TR_LOSS);
  cr_assert_eq(xq_tournament_slot(ev, 4, 1)->colour, XQ_TC_RED);
  cr_assert_eq(xq_tournament_slot(ev, 3, 1)->res, XQ_TR_WIN);
  cr_assert_eq(xq_tournament_slot(ev, 5, 1)->res, XQ_TR_PAB);
  cr_assert_eq(xq_tournament_slot(ev, 4, 1)->fouls, 2);
  cr_assert_eq(xq_tournament_slot(ev, 5, 2)->absent, XQ_TR_ZPB);
  cr_assert_eq(xq_tournament_slot(ev, 3, 2)->absent, XQ_TR_HPB);
  cr_assert_eq(xq_tournament_points(ev, 5, 1), 4);
  xq_tournament_free(ev);
  char *log = NULL;
  size_t loglen = 0;
  FILE *m = open_memstream(&log, &loglen);
  cr_assert_eq(xq_tstore_dump(st, m), XQ_OK);
  fclose(m);
  cr_assert(strstr(log, "result     round=1 board=2 code=="), "%s", log);
  cr_assert(strstr(log, "result     round=1 board=2 code=0-1"), "%s", log);
  free(log);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(store, a_killed_writer_loses_no_committed_event)
{
  char path[512];
  xq_error err = {0};
  xq_test_db_fresh(path, sizeof path, "crash");
  xq_tstore *st = new_store(path, 7);
  xq_tstore_close(st);
  int fd[2];
  cr_assert_eq(pipe(fd), 0);
  pid_t pid = fork();
  cr_assert_geq(pid, 0);
  if (pid == 0) {
    /* the child registers players, reporting each commit, then dies
     * without closing the store */
    xq_tstore *cs;
    close(fd[0]);
    if (xq_tstore_open(path, 0, &cs, NULL)) _exit(3);
    for (int i = 0; i < 30; i++) {
      xq_tplayer p;
      memset(&p, 0, sizeof p);
      snprintf(p.name, sizeof p.name, "选手%02d", i + 1);
      if (xq_tstore_register(cs, &p, NULL, NULL)) _exit(4);
      if (write(fd[1], "x", 1) != 1) _exit(5);
    }
    raise(SIGKILL);
    _exit(6);
  }
  close(fd[1]);
  int acked = 0;
  char c;
  while (read(fd[0], &c, 1) == 1) acked++;
  close(fd[0]);
  int status;
  waitpid(pid, &status, 0);
  cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child status %d", status);
  cr_assert_eq(acked, 30);
  cr_assert_eq(xq_tstore_open(path, 0, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_event_count(st), 30);
  xq_tournament *ev;
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(ev->n, 30);
  cr_assert_str_eq(ev->players[29].name, "选手30");
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(store, derived_state_matches_the_rounds_played_in_memory)
{
  /* a 13-player, 5-round event through the store, with forfeits and an
   * announced absence, compared with the same event kept in memory */
  char path[512];
  xq_error err = {0};
  xq_test_db_fresh(path, sizeof path, "derive");
  xq_tstore *st = new_store(path, 5);
  for (int i = 0; i < 13; i++) {
    char name[32];
    snprintf(name, sizeof name, "P%02d", i + 1);
    xq_test_store_add(st, name, 2000 + 37 * ((i * 7) % 13));
  }
  const char *codes[] = {"1-0", "=", "0-1", "1-0", "+-", "0-1", "=", "-+"};
  int k = 0;
  for (int round = 1; round <= 5; round++) {
    if (round == 3) cr_assert_eq(xq_tstore_absence(st, 3, 7, XQ_TR_ZPB, &err), XQ_OK);
    if (round == 4) cr_assert_eq(xq_tstore_absence(st, 4, 2, XQ_TR_HPB, &err), XQ_OK);
    xq_tournament *ev;
    cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK, "%s", err.msg);
    xq_assign_pnos(ev);
    xq_tpairing pr = {0};
    cr_assert_eq(xq_pair_cn(ev, round, &pr, NULL), XQ_OK, "round %d", round);
    cr_assert_eq(xq_tstore_publish(st, ev, &pr, &err), XQ_OK, "%s", err.msg);
    for (int b = 0; b < pr.nboards; b++)
      if (pr.boards[b].black) cr_assert_eq(xq_tstore_result(st, round, b + 1, codes[k++ % 8], &err), XQ_OK);
    xq_tournament_free(ev);
    cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK);
    cr_assert(xq_tournament_round_complete(ev, round));
    cr_assert_eq(ev->nrounds, round);
    /* every board of the round is in the derived state, both sides agree */
    for (int b = 0; b < pr.nboards; b++) {
      int r = pr.boards[b].red, bl = pr.boards[b].black;
      const xq_tslot *s = xq_tournament_slot(ev, r, round);
      if (!bl) { cr_assert_eq(s->res, XQ_TR_PAB); continue; }
      const xq_tslot *t = xq_tournament_slot(ev, bl, round);
      cr_assert_eq(s->opp, bl); cr_assert_eq(t->opp, r);
      cr_assert_eq(s->colour, XQ_TC_RED); cr_assert_eq(t->colour, XQ_TC_BLACK);
      cr_assert_neq(s->res, XQ_TR_NONE);
      cr_assert_eq(xq_tslot_points(ev, s) + xq_tslot_points(ev, t) <= 4, 1);
    }
    if (round == 3) cr_assert_eq(xq_tournament_slot(ev, 7, 3)->res, XQ_TR_ZPB);
    if (round == 4) cr_assert_eq(xq_tournament_slot(ev, 2, 4)->res, XQ_TR_HPB);
    xq_tpairing_clear(&pr);
    xq_tournament_free(ev);
  }
  /* the points are the same as computed from the log by hand: sum of the
   * slots equals the sum over results in the exported TRF */
  xq_tournament *ev;
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK);
  char *buf = NULL;
  size_t n = 0;
  FILE *m = open_memstream(&buf, &n);
  cr_assert_eq(xq_trf_write(ev, m), XQ_OK);
  fclose(m);
  xq_tournament *back;
  cr_assert_eq(xq_trf_parse(buf, n, &back, &err), XQ_OK, "%s\n%s", err.msg, buf);
  for (int id = 1; id <= 13; id++) {
    int pno = ev->players[id - 1].pno;
    cr_assert_eq(xq_tournament_points(back, pno, 5), xq_tournament_points(ev, id, 5), "player %d", id);
  }
  free(buf);
  xq_tournament_free(back);
  xq_tournament_free(ev);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

Test(store, import_of_trf_files)
{
  char path[512];
  xq_error err = {0};
  xq_tstore *st;
  xq_tournament *trf, *ev;
  xq_test_db_fresh(path, sizeof path, "import");

  /* a complete 8-player event: the store replays to the same table */
  cr_assert_eq(xq_trf_read(XQ_TEST_DATA "/pairing/bbp-8p5r-output.trf", &trf, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_open(path, 1, &st, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_import(st, trf, &trf->cfg, &err), XQ_OK, "%s", err.msg);
  xq_tstore_close(st);
  cr_assert_eq(xq_tstore_open(path, 0, &st, &err), XQ_OK);
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(ev->n, 8);
  cr_assert_eq(ev->nrounds, 5);
  cr_assert_eq(ev->cfg.win, trf->cfg.win);
  for (int id = 1; id <= 8; id++) {
    cr_assert_str_eq(ev->players[id - 1].name, trf->players[id - 1].name);
    cr_assert_str_eq(ev->players[id - 1].fide_id, trf->players[id - 1].fide_id);
    cr_assert_str_eq(ev->players[id - 1].title, trf->players[id - 1].title);
    cr_assert_eq(ev->players[id - 1].pno, id);
    for (int r = 1; r <= 5; r++) {
      const xq_tslot *a = xq_tournament_slot(ev, id, r), *b = xq_tournament_slot(trf, id, r);
      cr_assert_eq(a->opp, b->opp, "player %d round %d", id, r);
      cr_assert_eq(a->colour, b->colour, "player %d round %d", id, r);
      cr_assert_eq(a->res, b->res, "player %d round %d", id, r);
    }
  }
  xq_tournament_free(ev);
  xq_tournament_free(trf);
  xq_tstore_close(st);
  xq_test_db_remove(path);

  /* 2/1/0 with an absence written for round 3: the store pairs round 3 as
   * `xqref pair` does on the file (test_tourney_trf: 1–3, 2–6, 5 bye) */
  cr_assert_eq(xq_trf_read(XQ_TEST_DATA "/pairing/c5_xiangqi_210_scoring_162.trf", &trf, &err), XQ_OK);
  cr_assert_eq(xq_tstore_open(path, 1, &st, &err), XQ_OK);
  cr_assert_eq(xq_tstore_import(st, trf, &trf->cfg, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK);
  cr_assert_eq(ev->nrounds, 2);
  cr_assert(xq_tournament_slot(ev, 4, 3)->absent);
  xq_tpairing pr = {0};
  cr_assert_eq(xq_pair_cn(ev, 3, &pr, NULL), XQ_OK);
  const xq_tboard want[3] = {{1, 3}, {2, 6}, {5, 0}};
  cr_assert_eq(pr.nboards, 3);
  cr_assert_arr_eq(pr.boards, want, sizeof want);
  xq_tpairing_clear(&pr);
  xq_tournament_free(ev);
  xq_tournament_free(trf);
  xq_tstore_close(st);
  xq_test_db_remove(path);

  /* half- and full-point byes (basic.trf: H in round 2, F in round 1) are
   * stored as absences with their points; the points agree with the file */
  cr_assert_eq(xq_trf_read(XQ_TEST_DATA "/pairing/basic.trf", &trf, &err), XQ_OK);
  cr_assert_eq(xq_tstore_open(path, 1, &st, &err), XQ_OK);
  cr_assert_eq(xq_tstore_import(st, trf, &trf->cfg, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_OK);
  cr_assert_eq(xq_tournament_slot(ev, 2, 2)->res, XQ_TR_HPB);
  cr_assert_eq(xq_tournament_slot(ev, 5, 1)->res, XQ_TR_FPB);
  for (int id = 1; id <= 5; id++)
    cr_assert_eq(xq_tournament_points(ev, id, 2), xq_tournament_points(trf, id, 2), "player %d", id);
  xq_tournament_free(ev);
  xq_tournament_free(trf);
  xq_tstore_close(st);
  xq_test_db_remove(path);

  /* a file the store cannot hold leaves it without an event: a forfeit
   * win with no opponent */
  const char *odd =
    "012 x\n"
    "001    1      A                                 2000                             1.0    1  0000 - +\n"
    "001    2      B                                 2000                             0.0    2  0000 - Z\n";
  cr_assert_eq(xq_trf_parse(odd, strlen(odd), &trf, &err), XQ_OK, "%s", err.msg);
  cr_assert_eq(xq_tstore_open(path, 1, &st, &err), XQ_OK);
  cr_assert_eq(xq_tstore_import(st, trf, &trf->cfg, &err), XQ_EINVAL);
  cr_assert(strstr(err.msg, "forfeit without an opponent"), "%s", err.msg);
  cr_assert_eq(xq_tstore_event_count(st), 0);
  cr_assert_eq(xq_tstore_load(st, &ev, &err), XQ_ESTORE);
  xq_tournament_free(trf);
  xq_tstore_close(st);
  xq_test_db_remove(path);
}

/* ------------------------------------------------------------------ */
/* xqref tourney                                                       */
/* ------------------------------------------------------------------ */

static char *run(const char *args, int *status)
{
  return xq_test_run(args, status);
}

Test(cli, a_small_event_from_start_to_standings)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "cli");
  free(xq_test_run_db(0, "tourney new --db %s --name 测试赛 --rounds 3 --tiebreaks os%s", db, NULL));
  const char *players[] = {
    "--name 张三 --rating 2300 --birth 1990-01-02 --sex m --team 乌鲁木齐",
    "--name 李四 --rating 2250 --team 克拉玛依", "--name 王五 --rating 2200 --local",
    "--name 赵六 --rating 2150 --sex w"};
  for (int i = 0; i < 4; i++) {
    char *out = xq_test_run_db(0, "tourney add --db %s %s", db, players[i]);
    char want[32];
    snprintf(want, sizeof want, "player %d:", i + 1);
    cr_assert(strstr(out, want), "%s", out);
    free(out);
  }
  /* round 1: 1–2, 4–3 */
  char *out = xq_test_run_db(0, "tourney pair --db %s%s", db, NULL);
  cr_assert(strstr(out, "round 1: 2 boards"), "%s", out);
  cr_assert(strstr(out, "   1     1 张三"), "%s", out);
  cr_assert(strstr(out, "   2     4 赵六"), "%s", out);
  free(out);
  /* results still missing: no round 2 yet */
  int st;
  char args[1024];
  snprintf(args, sizeof args, "tourney pair --db %s", db);
  out = run(args, &st);
  cr_assert_eq(st, 1);
  cr_assert(strstr(out, "without a result"), "%s", out);
  free(out);
  free(xq_test_run_db(0, "tourney result --db %s --round 1 --board 1 %s", db, "1-0"));
  free(xq_test_run_db(0, "tourney result --db %s --round 1 --board 2 %s", db, "="));
  free(xq_test_run_db(0, "tourney foul --db %s --round 1 --player 4%s", db, NULL));
  /* round 2: 1 (2 points) floats to the 1-point group: 1 meets 3 or 4;
   * 1 had Red, so is due Black; 3 had Black: 3–1. Then 4–2 (4 had Red, 2
   * had Black: 2 is due Red): 2–4. */
  out = xq_test_run_db(0, "tourney pair --db %s%s", db, NULL);
  cr_assert(strstr(out, "round 2: 2 boards"), "%s", out);
  cr_assert(strstr(out, "   1     3 王五"), "%s", out);
  cr_assert(strstr(out, "   2     2 李四"), "%s", out);
  free(out);
  free(xq_test_run_db(0, "tourney result --db %s --round 2 --board 1 %s", db, "0-1"));
  free(xq_test_run_db(0, "tourney result --db %s --round 2 --board 2 %s", db, "-+"));
  /* points: 张三 2+2 = 4; 李四 0+0 (forfeit) = 0; 王五 1+0 = 1; 赵六 1+2 = 3 */
  out = xq_test_run_db(0, "tourney standings --db %s%s", db, NULL);
  cr_assert(strstr(out, "standings after round 2"), "%s", out);
  const char *order[] = {"张三", "赵六", "王五", "李四"};
  const char *at = out;
  for (int i = 0; i < 4; i++) {
    const char *hit = strstr(at, order[i]);
    cr_assert_not_null(hit, "%s missing or out of order:\n%s", order[i], out);
    at = hit;
  }
  cr_assert(strstr(out, "   1    1  张三"), "%s", out);
  free(out);
  /* TRF export with the 2/1/0 line; it pairs with `xqref pair` */
  char trf[600];
  snprintf(trf, sizeof trf, "%s.trf", db);
  char extra[700];
  snprintf(extra, sizeof extra, "--out %s", trf);
  free(xq_test_run_db(0, "tourney export --db %s %s", db, extra));
  snprintf(args, sizeof args, "pair --system cn %s", trf);
  out = run(args, &st);
  cr_assert_eq(st, 0, "%s", out);
  cr_assert_eq(atoi(out), 2);
  free(out);
  xq_test_run_db_says(0, "forfeit    round=2 board=2 code=-+", "tourney log --db %s%s", db, NULL);
  /* usage errors */
  out = run("tourney", &st);
  cr_assert_eq(st, 2);
  free(out);
  out = run("tourney --help", &st);
  cr_assert_eq(st, 0);
  cr_assert(strstr(out, "usage: xqref tourney"));
  free(out);
  snprintf(args, sizeof args, "tourney result --db %s --round 1 --board 1 2:0", db);
  out = run(args, &st);
  cr_assert_eq(st, 1);
  cr_assert(strstr(out, "result must be"), "%s", out);
  free(out);
  snprintf(args, sizeof args, "tourney new --db %s --rounds 3", db);
  out = run(args, &st);
  cr_assert_eq(st, 1, "a second event in the same store");
  free(out);
  unlink(trf);
  xq_test_db_remove(db);

  /* import a TRF file into a new store and pair its next round */
  xq_test_db_fresh(db, sizeof db, "cli_import");
  xq_test_run_db_says(0, "6 players, 3 rounds",
                      "tourney import --db %s %s", db, XQ_TEST_DATA "/pairing/c5_xiangqi_210_scoring_162.trf");
  out = xq_test_run_db(0, "tourney pair --db %s%s", db, NULL);
  cr_assert(strstr(out, "round 3: 3 boards"), "%s", out);
  cr_assert(strstr(out, "   3     5 Test0005 Player0005     2   bye"), "%s", out);
  free(out);
  xq_test_db_remove(db);
}

Test(cli, dutch_pairs_through_the_store_and_leaves_out_the_withdrawn)
{
  char db[512];
  xq_test_db_fresh(db, sizeof db, "dutch");
  free(xq_test_run_db(0, "tourney new --db %s --name Dutch --rounds 3%s", db, NULL));
  for (int i = 0; i < 6; i++) {
    char extra[64];
    snprintf(extra, sizeof extra, "--name P%d --rating %d", i + 1, 2400 - 50 * i);
    free(xq_test_run_db(0, "tourney add --db %s %s", db, extra));
  }
  int st;
  char args[1024];
  snprintf(args, sizeof args, "tourney pair --db %s --system swiss", db);
  char *out = run(args, &st);
  cr_assert_eq(st, 2, "an unknown system is a usage error");
  free(out);
  /* FIDE Dutch round 1: the top half meets the bottom half, 1-4, 5-2, 3-6 */
  xq_test_run_db_says(0, "round 1: 3 boards", "tourney pair --db %s --system dutch%s", db, NULL);
  for (int b = 1; b <= 3; b++) {
    char extra[64];
    snprintf(extra, sizeof extra, "--round 1 --board %d 1-0", b);
    free(xq_test_run_db(0, "tourney result --db %s %s", db, extra));
  }
  free(xq_test_run_db(0, "tourney withdraw --db %s --round 2 --player 6%s", db, NULL));
  out = xq_test_run_db(0, "tourney pair --db %s --system dutch%s", db, NULL);
  /* five players left: two boards and the bye, and P6 on none of them */
  cr_assert(strstr(out, "round 2: 3 boards"), "%s", out);
  char *off = strstr(out, "not on a board:");
  cr_assert(off && strstr(off, "P6") && strstr(off, "withdrawn"), "listed under the boards:\n%s", out);
  *off = 0;
  cr_assert_null(strstr(out, "P6"), "a withdrawn player is not paired:\n%s", out);
  free(out);
  xq_test_db_remove(db);
}

static void make_empty(const char *path)
{
  xq_test_db_remove(path);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  fclose(f);
}

/* The actions that create a store (new, import, demo) refuse an empty
 * file unless --init is given, and leave it as it was; the others refuse
 * it always; --init is a usage error where it does not apply. */
Test(cli, an_empty_store_file_needs_init_to_become_a_store)
{
  char db[512], want[700];
  xq_test_db_fresh(db, sizeof db, "cli_zero");
  make_empty(db);
  snprintf(want, sizeof want, "cannot open %s: the file is empty (0 bytes); --init makes a new store in it", db);
  xq_test_run_db_says(1, want, "tourney new --db %s --rounds 5 --name 空%s", db, NULL);
  xq_test_run_db_says(1, want, "tourney import --db %s %s", db, XQ_TEST_DATA "/pairing/c5_xiangqi_210_scoring_162.trf");
  xq_test_run_db_says(1, want, "tourney demo --db %s --players 4%s", db, NULL);
  snprintf(want, sizeof want, "xqref tourney: cannot open %s: the file is empty (0 bytes), not an event store", db);
  xq_test_run_db_says(1, want, "tourney players --db %s%s", db, NULL);
  snprintf(want, sizeof want, "xqref tourney tokens: cannot open %s: the file is empty (0 bytes)", db);
  xq_test_run_db_says(1, want, "tourney tokens --db %s%s", db, NULL);
  xq_test_run_db_says(1, "the file is empty (0 bytes), not an event store", "tourney bracket --db %s%s", db, NULL);
  cr_assert_eq(file_size(db), 0, "every refusal leaves the file as it was");
  xq_test_run_db_says(2, "--init applies only to new, import and demo", "tourney players --db %s --init%s", db, NULL);
  xq_test_run_db_says(2, "--init applies only to new, import and demo", "tourney tokens --db %s --init%s", db, NULL);
  /* with --init */
  free(xq_test_run_db(0, "tourney new --db %s --init --rounds 5 --name 空%s", db, NULL));
  free(xq_test_run_db(0, "tourney players --db %s%s", db, NULL));
  make_empty(db);
  char *out =
      xq_test_run_db(0, "tourney import --init --db %s %s", db, XQ_TEST_DATA "/pairing/c5_xiangqi_210_scoring_162.trf");
  cr_assert(strstr(out, "6 players, 3 rounds"), "%s", out);
  free(out);
  make_empty(db);
  out = xq_test_run_db(0, "tourney demo --db %s --init --players 4%s", db, NULL);
  cr_assert(strstr(out, "round 1 paired on 2 boards") && strstr(out, "\nadmin - - "), "%s", out);
  free(out);
  xq_test_db_remove(db);
}

/* Every action says why a store does not open, once with its path, in
 * SQLite's words: the event's actions, the live ones, the knockout's. */
Test(cli, tourney_actions_say_why_a_store_does_not_open)
{
  char db[512], want[700];
  xq_test_db_fresh(db, sizeof db, "cli_garbage");
  FILE *f = fopen(db, "w");
  cr_assert_not_null(f);
  for (int i = 0; i < 400; i++) fputs("this is not a database\n", f);
  fclose(f);
  snprintf(want, sizeof want, ": cannot open %s: file is not a database\n", db);
  const char *actions[] = {"players", "tokens", "bracket", "new --rounds 5", "demo"};
  for (int i = 0; i < 5; i++) {
    char fmt[64];
    snprintf(fmt, sizeof fmt, "tourney %s --db %%s%%s", actions[i]);
    xq_test_run_db_says(1, want, fmt, db, NULL);
  }
  xq_test_db_remove(db);
  mkdir(db, 0700);
  snprintf(want, sizeof want, "xqref tourney: cannot open %s: unable to open database file (Is a directory)\n", db);
  xq_test_run_db_says(1, want, "tourney players --db %s%s", db, NULL);
  rmdir(db);
}

/* `xqref bench --store`: the game log's group commit at three batch
 * sizes, a scan and the look-ups of retried replies (figures, not
 * asserted); every row written is found again. Bad arguments fail
 * clearly. */
Test(cli, bench_store_writes_scans_and_finds_every_row)
{
  int st;
  char *out = run("bench --store 300 /tmp", &st);
  cr_assert_eq(st, 0, "%s", out);
  cr_assert(strstr(out, "batch   1: 300 rows in") && strstr(out, "batch 500: 300 rows in"), "%s", out);
  cr_assert(strstr(out, "scan of every game: 300 rows"), "%s", out);
  cr_assert(strstr(out, "reply look-ups: 300 of 300 found"), "%s", out);
  free(out);
  out = run("bench --store abc", &st);
  cr_assert_eq(st, 2);
  cr_assert(strstr(out, "ROWS must be 1..100000000"), "%s", out);
  free(out);
  out = run("bench --store 10 /nonexistent-dir", &st);
  cr_assert_eq(st, 1);
  cr_assert(strstr(out, "cannot open /nonexistent-dir/"), "%s", out);
  free(out);
}
