#!/usr/bin/env bash
# soak.sh - hold CONNS connections against `xqref serve --demo` for
# DURATION seconds and watch the server's memory and descriptors
# (docs/hardening.md).
#
# The connections, all from one `xqref loadgen`:
#   - CONNS/2 digital boards, each sending a move every 1/RATE s (timer-
#     paced) from a random legal game long enough to last the run;
#   - CONNS/4 JSON-lines viewers (`watch`, every round);
#   - CONNS/4 Server-Sent-Events viewers (GET /api/events).
# Every INTERVAL seconds the server's VmRSS and open descriptors are read
# from /proc/PID. After WARMUP seconds the samples are cut into quarters;
# memory is flat when the mean of the last quarter is at most MARGIN % above
# the mean of the first (and the descriptors likewise, within 1 % + 2).
# Prints the samples as a table, the figures and a verdict; exit 1 when not
# flat, when the server died, or when loadgen saw an error or lost a
# connection.
#
# Usage: scripts/soak.sh            # 1000 connections, 600 s
#        CONNS=200 DURATION=20 INTERVAL=2 WARMUP=4 scripts/soak.sh   # short
# Settings (environment): XQREF (default build/xqref; it also writes the
# random games, `xqref bench --gen-pgn`), CONNS, DURATION, RATE (default 0.1 moves/s a board: a
# move every 10 s, a brisk real game), INTERVAL (10), WARMUP (until the
# reply caches and the broadcast ring are full, + 30 s; at most half of
# DURATION),
# MARGIN (10), SEED, KEEP=1 (keep the work directory).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../bench/lib.sh"
CONNS=${CONNS:-1000}
DURATION=${DURATION:-600}
RATE=${RATE:-0.1}
INTERVAL=${INTERVAL:-10}
MARGIN=${MARGIN:-10}
SEED=${SEED:-1}
KEEP=${KEEP:-0}
# warm-up: until the server's bounded caches are full, plus 30 s -- each
# board's last XQ_REPLY_CACHE (32) replies: 32/RATE s; the broadcast ring of
# XQ_HUB_RING (8192) events, one a move: 8192/(BOARDS*RATE) s -- but at most
# half the run
WARMUP=${WARMUP:-$(awk -v d="$DURATION" -v r="$RATE" -v b="$((CONNS / 2))" 'BEGIN {
  w = 32 / r; h = 8192 / (b * r); if (h > w) w = h; w += 30; if (w > d / 2) w = d / 2; print int(w) }')}

need_xqref
BOARDS=$((CONNS / 2))
WATCH=$((CONNS / 4))
SSE=$((CONNS - BOARDS - WATCH))
[ "$BOARDS" -ge 1 ] || die "CONNS must be at least 2"
# each board's game must outlast the run: RATE * DURATION plies and some
MIN_PLIES=$(awk -v r="$RATE" -v d="$DURATION" 'BEGIN { p = int(r * d) + 10; print (p > 190 ? 190 : p) }')

TMP=$(mktemp -d /tmp/xq-soak.XXXXXX)
cleanup() {
  kill_tracked KILL
  if [ "$KEEP" = 1 ]; then echo "kept $TMP" >&2; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# random legal games; only those of MIN_PLIES or more are replayed
"$XQREF" bench --gen-pgn $((BOARDS * 12 + 200)) "$TMP/games.pgn" "$SEED" >/dev/null
serve_start "$TMP/soak.db" "$TMP/serve.out" --demo --players $((BOARDS * 2)) --http 127.0.0.1:0 --quiet ||
  die "the server did not start"

echo "soak: $CONNS connections ($BOARDS boards at $RATE moves/s each, $WATCH watch viewers, $SSE SSE viewers)"
echo "      for $DURATION s against xqref serve (pid $SERVER_PID); a sample every $INTERVAL s, warm-up $WARMUP s"
"$XQREF" loadgen --connect "$JSON" --tokens "$TMP/serve.out" --boards "$BOARDS" --games "$TMP/games.pgn" \
  --min-plies "$MIN_PLIES" --rate "$RATE" --duration "$DURATION" --seed "$SEED" \
  --viewers "$WATCH" --sse "$SSE" --http "$HTTP" >"$TMP/loadgen.out" 2>"$TMP/loadgen.err" &
LG_PID=$!
track "$LG_PID"

sample() { # prints "rss_kb fds conns" of the server, or nothing when it is gone
  local rss fds
  rss=$(awk '/^VmRSS:/{print $2}' "/proc/$SERVER_PID/status" 2>/dev/null) || return 1
  fds=$(ls "/proc/$SERVER_PID/fd" 2>/dev/null | wc -l) || return 1
  [ -n "$rss" ] || return 1
  echo "$rss $fds"
}

printf '%8s %10s %6s\n' t_s rss_kb fds | tee "$TMP/samples.txt"
start=$(date +%s)
died=0
next=0
while :; do
  now=$(($(date +%s) - start))
  # samples while loadgen holds its connections
  kill -0 "$LG_PID" 2>/dev/null || break
  if [ "$now" -ge "$next" ]; then
    if s=$(sample); then
      printf '%8d %10s %6s\n' "$now" ${s} | tee -a "$TMP/samples.txt"
    else
      died=1
      echo "the server is gone at $now s"
      break
    fi
    next=$((next + INTERVAL))
  fi
  sleep 0.5
done
lg_rc=0
wait "$LG_PID" || lg_rc=$?
forget_pid "$LG_PID"
# the server must still be there, and stop cleanly
stop_rc=0
kill -0 "$SERVER_PID" 2>/dev/null || died=1
serve_stop || stop_rc=$?

echo "loadgen:"
sed 's/^/  /' "$TMP/loadgen.out"
grep -v 'games skipped' "$TMP/loadgen.err" | sed 's/^/  /' || true

verdict=$(awk -v warm="$WARMUP" -v margin="$MARGIN" '
  BEGIN { n = 0 }
  NR > 1 && $1 >= warm { t[n] = $1; r[n] = $2; f[n] = $3; n++ }
  NR > 1 { if (!first) { first = 1; r0 = $2 } ; rl = $2 }
  END {
    if (n < 4) { print "TOO-FEW-SAMPLES"; exit }
    q = int(n / 4)
    for (i = 0; i < q; i++) { a += r[i]; fa += f[i] }
    for (i = n - q; i < n; i++) { b += r[i]; fb += f[i] }
    a /= q; b /= q; fa /= q; fb /= q
    mid = r[int(n / 2)]
    growth = (b - a) / a * 100
    flat = growth <= margin
    fdflat = fb <= fa * 1.01 + 2
    printf "rss_start_kb %d rss_mid_kb %d rss_end_kb %d first_quarter_mean_kb %.0f last_quarter_mean_kb %.0f growth_pct %.2f fds_first %.0f fds_last %.0f %s\n",
      r0, mid, rl, a, b, growth, fa, fb, (flat && fdflat) ? "FLAT" : "NOT-FLAT"
  }' "$TMP/samples.txt")
echo "figures: $verdict"
status=0
case $verdict in *" FLAT") ;; *) status=1; echo "verdict: memory or descriptors not flat (margin $MARGIN %)";; esac
[ "$died" = 0 ] || { status=1; echo "verdict: the server died"; }
[ "$stop_rc" = 0 ] || { status=1; echo "verdict: the server exited with status $stop_rc on SIGTERM"; }
[ "$lg_rc" = 0 ] || { status=1; echo "verdict: loadgen reported errors or lost connections (status $lg_rc)"; }
[ "$status" = 0 ] && echo "verdict: flat, $CONNS connections held for $DURATION s"
exit "$status"
