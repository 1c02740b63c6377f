#!/usr/bin/env bash
# crash-test.sh - kill -9 the server while boards stream moves, restart it,
# and check that no acknowledged event was lost and nothing else changed.
#
# Each trial (games of at least MIN_PLIES plies, so that the stream lasts):
#   1. a fresh store with a demo of 2*BOARDS players (BOARDS boards);
#      `xqref serve` on a free port;
#   2. the store's rows before any board event (`xqref tourney games`);
#   3. `xqref loadgen --boards BOARDS` at full speed with --ack-log: one
#      line "ROUND TABLE SEQ MOVE" per acknowledged move, written and
#      flushed as the reply arrives, before it is counted; with RESEND=1
#      (the default) --resend too: every board sends each move again,
#      same seq, on a second connection with its token as soon as it is
#      sent (a board after a WiFi drop), and the `ok`s of that connection
#      are logged as "ROUND TABLE SEQ MOVE resend";
#   4. kill -9 of the server at a random moment 0.2-2 s after loadgen
#      started; loadgen then sees its connections end;
#   5. `xqref serve` restarted on the same store, then stopped with
#      SIGTERM (it must come up and go down cleanly);
#   6. the checks, against `xqref tourney games` ("id round board source
#      seq event" per row):
#        - every acknowledged move is stored: same round, table, seq and
#          move, whichever connection had the `ok` (a resend's `ok` for
#          an event that is not in the store is a lost acknowledgement);
#        - each table's board seqs are exactly 1..max: no gap, no
#          duplicate;
#        - rows beyond the acknowledged ones are only the unacknowledged
#          tail of a table: seq max_acked+1 .. max, at most WINDOW of them
#          (the requests that were in flight);
#        - every row that existed before the trial is still there,
#          unchanged; the new rows are board events or rows the server
#          derives from them (a result ruled by the adjudicator) on a
#          table that has board events.
# Prints one line per trial and "N/N trials: no acknowledged event lost",
# and exits 1 when a trial failed.
#
# Settings (environment):
#   XQREF   xqref binary (default build/xqref)
#   GAMES   a PGN of games to replay (default: random legal games from
#           `xqref bench --gen-pgn`)
#   TRIALS  number of trials (default 20)
#   BOARDS  boards streaming (default 500)
#   MIN_PLIES  replay only games this long (default 150)
#   SEED    first random seed (default: from the clock)
#   RESEND  1 (default): boards resend every move on a second connection; 0: not
#   KEEP=1  keep the work directory of a failed trial
#   CHECK   a kept trial directory: run only the checks on it
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
TRIALS=${TRIALS:-20}
BOARDS=${BOARDS:-500}
MIN_PLIES=${MIN_PLIES:-150}
SEED=${SEED:-$(date +%s)}
KEEP=${KEEP:-0}
RESEND=${RESEND:-1}
WINDOW=1

need_xqref

TMP=$(mktemp -d /tmp/xq-crash-test.XXXXXX)
cleanup() {
  kill_tracked KILL
  if [ "$KEEP" = 1 ] && [ -n "${FAILED_DIR:-}" ]; then
    echo "kept $FAILED_DIR" >&2
  else
    rm -rf "$TMP"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "${GAMES:-}" ] && [ -z "${CHECK:-}" ]; then
  GAMES=$TMP/games.pgn
  "$XQREF" bench --gen-pgn "$((BOARDS * 4))" "$GAMES" "$SEED" >/dev/null
fi

# verify DIR: the checks of step 6; prints a summary, returns 1 on failure
verify() {
  local d=$1
  awk -v window="$WINDOW" '
    FILENAME == ARGV[1] { before[$0] = 1; nbefore++; next }                # rows before the trial
    FILENAME == ARGV[2] {                                                   # acknowledged moves
      key = $1 " " $2 " " $3
      src = $5 == "resend" ? "resend" : "first"                              # which connection had the ok
      if ((key, src) in ackedby) { printf "duplicate acknowledgement %s\n", $0; bad++ }
      if ((key in acked) && acked[key] != $4) { printf "acknowledged as two moves: %s and %s\n", acked[key], $0; bad++ }
      ackedby[key, src] = 1
      if (src == "resend") nresend++
      if (key in acked) next
      acked[key] = $4; nacked++
      t = $1 " " $2
      if (!(t in maxack) || $3 > maxack[t]) maxack[t] = $3
      next
    }
    {                                                                       # rows after the restart
      after[$0] = 1
      if ($4 == "board" && $5 > 0) {
        t = $2 " " $3; key = t " " $5
        if (key in seen) { printf "duplicate seq: %s\n", $0; bad++ }
        seen[key] = $6; n[t]++
        if (!(t in maxseq) || $5 > maxseq[t]) maxseq[t] = $5
        boardrows++
      } else if (!($0 in before)) {
        other[$0] = $2 " " $3
      }
    }
    END {
      for (r in before) if (!(r in after)) { printf "row changed or lost: %s\n", r; bad++ }
      for (k in acked) {
        if (!(k in seen)) { printf "acknowledged move lost: %s %s\n", k, acked[k]; bad++; lost++ }
        else if (seen[k] != acked[k] && index(seen[k], acked[k]) != 1) {
          printf "acknowledged %s %s stored as %s\n", k, acked[k], seen[k]; bad++
        }
      }
      for (t in n) {
        if (n[t] != maxseq[t]) { printf "table %s: %d board rows for seqs up to %d (gap)\n", t, n[t], maxseq[t]; bad++ }
        m = (t in maxack) ? maxack[t] : 0
        if (maxseq[t] - m > window) { printf "table %s: %d rows beyond the last acknowledged seq %d\n", t, maxseq[t] - m, m; bad++ }
        if (maxseq[t] > m) tail += maxseq[t] - m
      }
      for (r in other) {
        split(other[r], f, " ")
        if (!((f[1] " " f[2]) in n)) { printf "new row on a table without board events: %s\n", r; bad++ }
        else derived++
      }
      printf "acked %d (resend oks %d), stored %d board rows (unacknowledged tail %d, derived rows %d)\n", nacked, nresend, boardrows, tail, derived
      exit bad ? 1 : 0
    }' "$d/before.txt" "$d/ack.txt" "$d/after.txt"
}

# CHECK=DIR: only run the checks on a kept trial directory (before.txt,
# ack.txt, after.txt) and exit.
if [ -n "${CHECK:-}" ]; then
  verify "$CHECK"
  exit
fi

resend_opt=
[ "$RESEND" = 0 ] || resend_opt=--resend
echo "crash test: $TRIALS trials, $BOARDS boards at full speed${resend_opt:+, each resending every move on a second connection}, kill -9 at 0.2-2 s, seed $SEED"
passed=0
midstream=0
for t in $(seq 1 "$TRIALS"); do
  d=$TMP/trial$t
  mkdir -p "$d"
  db=$d/store.db
  serve_start "$db" "$d/serve1.out" --http none --quiet --demo --players "$((BOARDS * 2))" ||
    die "trial $t: the server did not start"
  "$XQREF" tourney games --db "$db" >"$d/before.txt" 2>"$d/before.err" || die "trial $t: tourney games failed: $(cat "$d/before.err")"
  "$XQREF" loadgen --connect "$JSON" --tokens "$d/serve1.out" --boards "$BOARDS" --games "$GAMES" \
    --min-plies "$MIN_PLIES" --seed "$((SEED + t))" --ack-log "$d/ack.txt" $resend_opt >"$d/loadgen.out" 2>&1 &
  lg=$!
  track "$lg"
  delay=$(awk -v s="$((SEED + t))" 'BEGIN { srand(s); printf "%.2f", 0.2 + rand() * 1.8 }')
  sleep "$delay"
  when="mid-stream"
  if ! kill -0 "$lg" 2>/dev/null; then when="after loadgen had finished"; fi
  [ "$when" != mid-stream ] || midstream=$((midstream + 1))
  serve_kill
  wait "$lg" 2>/dev/null || true
  forget_pid "$lg"
  serve_start "$db" "$d/serve2.out" --http none --quiet || die "trial $t: the server did not restart on the killed store"
  src=0
  serve_stop || src=$?
  "$XQREF" tourney games --db "$db" >"$d/after.txt" 2>"$d/after.err" || die "trial $t: tourney games failed: $(cat "$d/after.err")"
  if summary=$(verify "$d") && [ "$src" = 0 ]; then
    passed=$((passed + 1))
    echo "trial $t: kill after ${delay}s ($when): $(tail -1 <<<"$summary"): ok"
    rm -rf "$d"
  else
    echo "trial $t: kill after ${delay}s ($when): FAILED"
    [ "$src" = 0 ] || echo "  the restarted server exited with status $src"
    sed 's/^/  /' <<<"$summary" | head -20
    FAILED_DIR=$d
  fi
done
if [ "$passed" = "$TRIALS" ]; then
  echo "$passed/$TRIALS trials: no acknowledged event lost ($midstream killed mid-stream)"
else
  echo "$passed/$TRIALS trials passed"
  exit 1
fi
