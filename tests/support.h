/*
 * support.h -- helpers shared by the test suites (tests/support.c).
 */
#ifndef XQ_TEST_SUPPORT_H
#define XQ_TEST_SUPPORT_H

/* Run xqref with `args` (a shell command line tail; stderr is merged
 * into stdout): by xq_test_cli_run where it can, else the built binary
 * (XQ_BINARY) through the shell; and return everything it
 * printed as a malloc'd, NUL-terminated string the caller frees. *status
 * receives the exit status, or -1 when the process did not exit normally.
 * Fails the current test when the command cannot be started. */
char *xq_test_run(const char *args, int *status);

/* Run `xqref ARGS` (`args`: the command line's tail, as for the shell)
 * in a forked child of this process, by xq_cli_main, with its standard
 * output into *out (a malloc'd string the caller frees) and its exit
 * status into *status; returns 1. Returns 0, having run nothing, when
 * the line needs the shell (a pipe, a variable, a glob) or this process
 * has other threads. Defined by cli_run.c, in the suites that link the
 * command line (xq_cli): elsewhere the symbol is NULL and xq_test_run
 * runs the binary. */
int xq_test_cli_run(const char *args, char **out, int *status) __attribute__((weak));

/* Run xqref with the printf-formatted arguments and fail the current test
 * unless it exits with `status`; the output is freed. */
void xq_test_expect(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Run xqref with `fmt` filled in with the store path `db` and `extra`
 * (two %s; a NULL `extra` is empty) and fail the current test unless it
 * exits with `status`; returns what it printed (caller frees). */
char *xq_test_run_db(int status, const char *fmt, const char *db, const char *extra);

/* As xq_test_run_db, and fail the current test unless what xqref
 * printed holds `want`; the output is freed. */
void xq_test_run_db_says(int status, const char *want, const char *fmt, const char *db, const char *extra);

/* The whole file at `path`, NUL-terminated, as a malloc'd string the
 * caller frees; NULL when it cannot be read. */
char *xq_test_slurp(const char *path);

/* A store path for this test process: $TMPDIR (or /tmp)/xq_TAG_PID.db. */
void xq_test_db_path(char *buf, size_t len, const char *tag);

/* Remove a store and its -wal and -shm files (missing ones are fine). */
void xq_test_db_remove(const char *path);

#endif /* XQ_TEST_SUPPORT_H */
