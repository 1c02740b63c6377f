#!/usr/bin/env bash
# fanout.sh - boards against SSE viewers on the same server
# (docs/scale.md, "Fan-out in the server"): for each number of viewers, a
# fresh store with a demo of 2 x BOARDS players, `xqref serve`, then
# `xqref loadgen --boards BOARDS --rate RATE --duration DURATION --sse V`
# (client and server on this machine's cores), and beside it
# bench/fanout_probe.py: one more board, a move every 0.5 s on average,
# and one more viewer, which times each move from its send to its event on the stream.
# Prints a table row per run: moves acknowledged a second, the boards'
# reply latency p50 and p99, the probe's delivery latency p50 and p99, the
# viewers connected, lost and events received, and the CPU time of the
# server and of loadgen over the run (100% is one core).
#
# Settings (environment):
#   XQREF     xqref binary             (default build/xqref)
#   VIEWERS   numbers of SSE viewers   (default "0 1000 2000 4000")
#   BOARDS    boards                   (default 100)
#   RATE      moves a second per board (default 1)
#   DURATION  seconds of each run      (default 30)
#   GAMES     PGN of games to replay   (default: 600 random games from
#             `xqref bench --gen-pgn`, those of 80 plies or more used)
#   KEEP      keep each run's loadgen report, probe line and server log
#             as KEEP-V.txt, KEEP-V.probe, KEEP-V.log
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
VIEWERS=${VIEWERS:-"0 1000 2000 4000"}
BOARDS=${BOARDS:-100}
RATE=${RATE:-1}
SECONDS_RUN=${DURATION:-30}
PLAYERS=$((BOARDS * 2 + 2)) # the last board is the probe's

need_xqref
# a descriptor a viewer on each side
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

TMP=$(mktemp -d /tmp/xq-fanout.XXXXXX)
cleanup() {
  kill_tracked
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "${GAMES:-}" ]; then
  GAMES=$TMP/games.pgn
  "$XQREF" bench --gen-pgn 600 "$GAMES" 1 >/dev/null
fi

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; } # utime + stime

echo "machine: $(nproc) cores, $(uname -r); $BOARDS boards x $RATE move/s for $SECONDS_RUN s"
printf '| SSE viewers | moves/s acknowledged | board latency p50 | p99 | delivery p50 | p99 | viewers connected / lost | events received | server CPU | loadgen CPU |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
QUIET=--quiet
[ -n "${KEEP:-}" ] && QUIET= # the server's log too
for v in $VIEWERS; do
  db=$TMP/xq-$v.db
  # shellcheck disable=SC2086
  serve_start "$db" "$db.serve" --demo --players "$PLAYERS" --http 127.0.0.1:0 $QUIET || die "xqref serve did not start"
  json=$JSON http=$HTTP
  t0=$(cpu_ticks "$SERVER_PID")
  out=$TMP/lg-$v.txt
  probe=$(awk -v t=$((BOARDS + 1)) '$1 == "board" && $2 == 1 && $3 == t {print $4; exit}' "$db.serve")
  (sleep 3 && python3 "$REPO_ROOT/bench/fanout_probe.py" "$json" "$http" "$probe" 1 $((BOARDS + 1)) "$GAMES" \
    $((SECONDS_RUN - 6)) >"$out.probe" 2>&1) &
  PROBE=$!
  TIMEFORMAT='%U %S'
  { time "$XQREF" loadgen --connect "$json" --tokens "$db.serve" --boards "$BOARDS" --games "$GAMES" \
    --min-plies 80 --rate "$RATE" --duration "$SECONDS_RUN" --sse "$v" --http "$http" >"$out" 2>&1 || true; } 2>"$out.time"
  t1=$(cpu_ticks "$SERVER_PID")
  wait "$PROBE" || true
  serve_stop || true
  rate=$(awk '/^moves\/s/{print $2}' "$out")
  p50=$(awk '/^latency/{for (i = 1; i < NF; i++) if ($i == "p50") print $(i+1)}' "$out")
  p99=$(awk '/^latency/{for (i = 1; i < NF; i++) if ($i == "p99") print $(i+1)}' "$out")
  conn=$(sed -n 's/^viewers .*connected \([0-9]*\), lost \([0-9]*\).*/\1 \/ \2/p' "$out")
  evs=$(sed -n 's/^viewers .* sse \([0-9]*\), .*/\1/p' "$out")
  cpu=$(awk -v a="$t0" -v b="$t1" -v hz="$(getconf CLK_TCK)" -v s="$SECONDS_RUN" 'BEGIN {printf "%.0f%%", 100 * (b - a) / hz / s}')
  lgcpu=$(awk -v s="$SECONDS_RUN" '{printf "%.0f%%", 100 * ($1 + $2) / s}' "$out.time")
  d50=$(awk '/^probe/{print $13}' "$out.probe")
  d99=$(awk '/^probe/{print $15}' "$out.probe")
  [ -n "$rate" ] || { cat "$out" >&2; die "loadgen printed no rate"; }
  [ -n "$d99" ] || { cat "$out.probe" >&2; die "the probe printed nothing"; }
  printf '| %s | %s | %s ms | %s ms | %s ms | %s ms | %s | %s | %s | %s |\n' "$v" "$rate" "$p50" "$p99" "$d50" "$d99" \
    "${conn:--}" "${evs:--}" "$cpu" "$lgcpu"
  [ -n "${KEEP:-}" ] && cp "$out" "$KEEP-$v.txt" && cp "$out.probe" "$KEEP-$v.probe" && cp "$db.serve.err" "$KEEP-$v.log"
  rm -f "$db" "$db"-* "$db.admin"
done
