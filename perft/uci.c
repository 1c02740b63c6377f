/*
 * uci.c -- the UCI/UCCI text mode behind `xqref uci`, so GUIs and scripts
 * can set positions and run perft (README.md, "uci"). xqref does not search:
 * `go` without `perft` answers with no best move.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perft.h"

typedef struct uci_state {
  FILE *out;
  xq_pos pos;
  int ucci;     /* the GUI said `ucci`: answer in UCCI words */
  int threads;  /* option Threads */
  int hash_mb;  /* option Hash; the table is made at the next `go perft` */
  xq_perft_table *table; /* kept between perfts; NULL until needed */
} uci_state;

/* Next space-separated word of *s, NUL-terminated in place; NULL at end. */
static char *next_word(char **s)
{
  char *p = *s, *w;
  while (*p == ' ' || *p == '\t' || *p == '\r') p++;
  if (!*p) return NULL;
  w = p;
  while (*p && *p != ' ' && *p != '\t' && *p != '\r') p++;
  if (*p) *p++ = 0;
  *s = p;
  return w;
}

/* position {startpos | fen F...} [moves m...]: all or nothing. */
static void cmd_position(uci_state *st, char *args)
{
  xq_pos pos;
  xq_error err;
  char fen[XQ_FEN_INPUT_MAX + 1];
  char *w = next_word(&args);

  if (w && !strcmp(w, "startpos")) {
    xq_pos_startpos(&pos);
    w = next_word(&args);
  } else if (w && !strcmp(w, "fen")) {
    size_t n = 0;
    fen[0] = 0;
    while ((w = next_word(&args)) && strcmp(w, "moves")) {
      size_t len = strlen(w);
      if (n + len + 2 > sizeof fen) {
        fprintf(st->out, "info string FEN too long; position unchanged\n");
        return;
      }
      if (n) fen[n++] = ' ';
      memcpy(fen + n, w, len + 1);
      n += len;
    }
    if (xq_fen_parse(&pos, fen, 0, &err) != XQ_OK) {
      if (err.pos >= 0)
        fprintf(st->out, "info string bad FEN at byte %d: %s; position unchanged\n", err.pos, err.msg);
      else
        fprintf(st->out, "info string bad FEN: %s; position unchanged\n", err.msg);
      return;
    }
  } else {
    fprintf(st->out, "info string position needs 'startpos' or 'fen'\n");
    return;
  }
  if (w && !strcmp(w, "moves")) {
    int plies = 0;
    while ((w = next_word(&args))) {
      xq_move m;
      xq_undo u;
      if (++plies > XQ_UCI_PLIES_MAX) {
        fprintf(st->out, "info string more than %d moves; position unchanged\n",
                XQ_UCI_PLIES_MAX);
        return;
      }
      if (xq_move_parse(&pos, w, XQ_NOTE_ICCS, &m, &err) != XQ_OK) {
        fprintf(st->out, "info string move %d '%s': %s; position unchanged\n", plies, w,
                err.msg);
        return;
      }
      xq_make(&pos, m, &u);
    }
  } else if (w) {
    fprintf(st->out, "info string unexpected '%s' in position; position unchanged\n", w);
    return;
  }
  st->pos = pos;
}

static void cmd_perft(uci_state *st, char *args)
{
  char *w = next_word(&args);
  char *end;
  long depth = w ? strtol(w, &end, 10) : -1;
  xq_divide_entry e[XQ_MAX_MOVES];
  int n;

  if (!w || *end || depth < 0 || depth > XQ_PERFT_MAX_DEPTH) {
    fprintf(st->out, "info string perft needs a depth 0..%d\n", XQ_PERFT_MAX_DEPTH);
    return;
  }
  if (st->hash_mb && !st->table &&
      xq_perft_table_new((size_t)st->hash_mb << 20, &st->table) != XQ_OK)
    fprintf(st->out, "info string no memory for a %d MB table; counting without\n",
            st->hash_mb);
  xq_perft_ctl ctl = {st->threads, st->table, NULL, NULL, 0, NULL};
  uint64_t total = xq_perft_split(&st->pos, (int)depth, &ctl, e, &n);
  xq_perft_print_divide(st->out, &st->pos, e, n);
  fprintf(st->out, "\nNodes searched: %llu\n", (unsigned long long)total);
}

/* setoption name Hash|Threads value N (names in any case). */
static void cmd_setoption(uci_state *st, char *args)
{
  char *w = next_word(&args), *name = next_word(&args), *v = next_word(&args);
  char *value = next_word(&args), *end;
  long n = value ? strtol(value, &end, 10) : -1;
  int hash = name && !strcasecmp(name, "Hash"), threads = name && !strcasecmp(name, "Threads");

  if (!w || strcmp(w, "name") || !(hash || threads) || !v || strcmp(v, "value") || !value ||
      *end || n < (hash ? 0 : 1) || n > (hash ? XQ_PERFT_HASH_MAX_MB : XQ_PERFT_MAX_THREADS)) {
    fprintf(st->out, "info string options: Hash 0..%d (MB), Threads 1..%d\n",
            XQ_PERFT_HASH_MAX_MB, XQ_PERFT_MAX_THREADS);
    return;
  }
  if (threads) {
    st->threads = (int)n;
  } else if (n != st->hash_mb) {
    xq_perft_table_free(st->table);
    st->table = NULL;
    st->hash_mb = (int)n;
  }
}

/* `d`: the board as Red sees it, then FEN, key and checking pieces. */
static void cmd_display(uci_state *st)
{
  static const char letters[8] = {'.', 'k', 'a', 'b', 'n', 'r', 'c', 'p'};
  char fen[XQ_FEN_MAX];
  const xq_pos *p = &st->pos;

  for (int r = 9; r >= 0; r--) {
    fprintf(st->out, " %d ", r);
    for (int f = 0; f < 9; f++) {
      xq_color c;
      xq_kind k = xq_piece_at(p, XQ_SQ(f, r), &c);
      int ch = letters[k];
      fprintf(st->out, " %c", k != XQ_NONE && c == XQ_RED ? ch - 32 : ch);
    }
    fputc('\n', st->out);
  }
  fprintf(st->out, "    a b c d e f g h i\n\n");
  xq_fen_format(p, fen, sizeof fen);
  fprintf(st->out, "Fen: %s\nKey: %016llX\nCheckers:", fen, (unsigned long long)p->key);
  int k = p->sq[p->side << 4];
  for (int sq = 0; k != XQ_NO_SQ && sq < XQ_SQUARES; sq++) {
    xq_color c;
    if (xq_piece_at(p, sq, &c) == XQ_NONE || (int)c == p->side) continue;
    if (xq_attacks_from(p, sq) & ((xq_bb)1 << k)) fprintf(st->out, " %c%d", 'a' + sq % 9, sq / 9);
  }
  fputc('\n', st->out);
}

/* Run one command line; returns 1 after `quit`. */
static int uci_command(uci_state *st, char *line)
{
  char *w = next_word(&line);
  if (!w) return 0;
  if (!strcmp(w, "uci") || !strcmp(w, "ucci")) {
    st->ucci = w[1] == 'c' && w[2] == 'c';
    fprintf(st->out, "id name xqref " XQ_VERSION "\nid author the xqref developers\n"
            "option name Hash type spin default 0 min 0 max %d\n"
            "option name Threads type spin default 1 min 1 max %d\n%s\n",
            XQ_PERFT_HASH_MAX_MB, XQ_PERFT_MAX_THREADS, st->ucci ? "ucciok" : "uciok");
  } else if (!strcmp(w, "isready")) {
    fprintf(st->out, "readyok\n");
  } else if (!strcmp(w, "setoption")) {
    cmd_setoption(st, line);
  } else if (!strcmp(w, "ucinewgame") || !strcmp(w, "stop")) {
    /* Nothing to reset (the table's counts stay true), nothing running. */
  } else if (!strcmp(w, "position")) {
    cmd_position(st, line);
  } else if (!strcmp(w, "go")) {
    char *sub = next_word(&line);
    if (sub && !strcmp(sub, "perft")) cmd_perft(st, line);
    else fprintf(st->out, "info string xqref does not search; use 'go perft N'\n%s\n",
                 st->ucci ? "nobestmove" : "bestmove (none)");
  } else if (!strcmp(w, "perft")) {
    cmd_perft(st, line);
  } else if (!strcmp(w, "d")) {
    cmd_display(st);
  } else if (!strcmp(w, "quit")) {
    if (st->ucci) fprintf(st->out, "bye\n");
    return 1;
  } else {
    fprintf(st->out, "Unknown command: '%s'. Commands: uci ucci isready position go perft d quit\n", w);
  }
  return 0;
}

int xq_uci_run(FILE *in, FILE *out)
{
  static char line[XQ_UCI_LINE_MAX + 2];
  uci_state st;

  st.out = out;
  st.ucci = 0;
  st.threads = 1;
  st.hash_mb = 0;
  st.table = NULL;
  xq_pos_startpos(&st.pos);
  while (fgets(line, sizeof line, in)) {
    size_t len = strlen(line);
    if (len && line[len - 1] != '\n' && !feof(in)) {
      /* Over the limit: drop the rest of the line, run nothing. */
      int ch;
      while ((ch = fgetc(in)) != EOF && ch != '\n') {}
      fprintf(out, "info string line longer than %d bytes ignored\n", XQ_UCI_LINE_MAX);
      fflush(out);
      continue;
    }
    if (len && line[len - 1] == '\n') line[--len] = 0;
    int quit = uci_command(&st, line);
    fflush(out);
    if (quit) break;
  }
  xq_perft_table_free(st.table);
  return 0;
}
