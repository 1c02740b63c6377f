#!/usr/bin/env bash
# crash-ops.sh - kill -9 at random moments while a round is paired and
# published, while an arbiter enters results, and while PGN is pushed;
# then check that the store reopens consistent and lost nothing that was
# acknowledged (docs/hardening.md). bench/crash-test.sh does the same for
# board streams.
#
# Kinds of trial (KINDS, default all four):
#   pair      `xqref serve` on a store whose round 1 is complete; POST
#             /api/op {"op":"pair","publish":true}; kill -9 of the server
#             at a random moment 0..PAIR_MS after the request was sent.
#   pair-cli  `xqref tourney pair` on the same kind of store (no server);
#             kill -9 of that process at a random moment 0..PAIR_CLI_MS.
#   result    `xqref serve` on a demo store (round 1 published); an
#             arbiter enters every table's result through POST /api/op,
#             RESULTS_PER_POST a request; kill -9 at 0.2..RESULT_S s.
#   push      the same store; every table's game is pushed as PGN through
#             POST /api/rounds/1/push, GAMES_PER_PUSH games a push, random
#             legal games from `xqref bench --gen-pgn`; kill -9 at
#             0.2..PUSH_S s.
# A request counts as acknowledged when its HTTP reply came back complete
# with every line ok (written to an acknowledgement file before the next
# request is sent).
#
# After the kill, every trial checks:
#   - PRAGMA integrity_check is "ok";
#   - the server restarts on the store, and stops cleanly on SIGTERM;
#   - `xqref tourney standings` and `xqref tourney log` work;
#   - pair, pair-cli: round 2 is published whole or not at all: no
#     pairing event, or exactly one with as many pairing rows as it
#     announces and each player of round 1 on exactly one board (the bye
#     included); when acknowledged (the reply, or the command's exit 0),
#     it is there;
#   - result: every acknowledged result is in the event log with its code,
#     and in the game log; no result for a table never sent;
#   - push: every game of an acknowledged push is stored with exactly the
#     pushed moves; a game not acknowledged is stored whole or not at all
#     (one game-log row a game); no table outside the pushes has a row.
# Prints one line per trial and a summary per kind; exit 1 when a trial
# failed.
#
# Settings (environment):
#   XQREF   xqref binary (default build/xqref; it also writes the random
#           games, `xqref bench --gen-pgn`)
#   TRIALS  trials of each kind (default 3; 20 or more for figures)
#   KINDS   kinds to run (default "pair pair-cli result push")
#   PLAYERS players of the demo event (default 400)
#   PAIR_MS, PAIR_CLI_MS, RESULT_S, PUSH_S: the kill windows (defaults:
#           measured from one untouched run of each kind, see below)
#   SEED    first random seed (default: from the clock); KEEP=1 keeps the
#           directory of a failed trial
# Needs curl, and sqlite3 (or python3) for the integrity check.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
TRIALS=${TRIALS:-3}
KINDS=${KINDS:-pair pair-cli result push}
PLAYERS=${PLAYERS:-400}
RESULTS_PER_POST=${RESULTS_PER_POST:-4}
GAMES_PER_PUSH=${GAMES_PER_PUSH:-4}
SEED=${SEED:-$(date +%s)}
KEEP=${KEEP:-0}
BOARDS=$((PLAYERS / 2))

need_xqref
command -v curl >/dev/null || die "curl is needed"
if command -v sqlite3 >/dev/null; then
  integrity() { sqlite3 "$1" 'PRAGMA integrity_check;'; }
  sql() { sqlite3 "$1" "$2"; }
elif command -v python3 >/dev/null; then
  sql() { python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); [print("|".join(str(x) for x in r)) for r in c.execute(sys.argv[2])]' "$1" "$2"; }
  integrity() { sql "$1" 'PRAGMA integrity_check;'; }
else
  die "sqlite3 (or python3) is needed for PRAGMA integrity_check (apt-get install sqlite3)"
fi

TMP=$(mktemp -d /tmp/xq-crash-ops.XXXXXX)
cleanup() {
  kill_tracked KILL
  if [ "$KEEP" = 1 ] && [ -n "${FAILED_DIR:-}" ]; then
    echo "kept $FAILED_DIR (and the templates in $TMP)" >&2
  else
    rm -rf "$TMP"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_server() { # DB OUT: start on free ports; sets SERVER_PID and HTTP
  serve_start "$1" "$2" --http 127.0.0.1:0 --quiet
}

# POST BODY to PATH with the admin token; prints the body of a 200 reply,
# returns 1 for anything else (no reply, an error status)
post() { # PATH BODYFILE
  curl -s -f --max-time 120 -H "Authorization: Bearer $ADMIN" --data-binary @"$2" "http://$HTTP$1"
}

copy_store() { # FROM_DB TO_DB
  local f
  for f in "$1" "$1-wal" "$1-shm" "$1.admin"; do
    [ -e "$f" ] && cp "$f" "$2${f#"$1"}"
  done
  return 0
}

rand_in() { # SEED LO HI (float) -> a value in [LO, HI)
  awk -v s="$1" -v lo="$2" -v hi="$3" 'BEGIN { srand(s); printf "%.3f", lo + rand() * (hi - lo) }'
}

now_ms() { date +%s%3N; }

# ------------------------------------------------------------------
# Templates (built once)
# ------------------------------------------------------------------

result_code() { # TABLE -> a result code, varied
  case $(($1 % 4)) in 0) echo "1-0" ;; 1) echo "0-1" ;; 2) echo "=" ;; *) echo "1-0" ;; esac
}

# the demo store: round 1 published, no event on any table
make_live_template() {
  LIVE=$TMP/live.db
  "$XQREF" tourney demo --players "$PLAYERS" --db "$LIVE" >/dev/null
  ADMIN=$("$XQREF" tourney token --role admin --label crash-ops --db "$LIVE")
}

# the demo store with every result of round 1 entered, the server stopped
make_pair_template() {
  PAIRDB=$TMP/pair.db
  copy_store "$LIVE" "$PAIRDB"
  start_server "$PAIRDB" "$TMP/pair-template.out" || die "the server did not start on the template"
  local b body=$TMP/results.req n=0
  : >"$body"
  for b in $(seq 1 "$BOARDS"); do
    printf '{"op":"result","round":1,"table":%d,"result":"%s"}\n' "$b" "$(result_code "$b")" >>"$body"
    n=$((n + 1))
    if [ "$n" = 64 ] || [ "$b" = "$BOARDS" ]; then
      post /api/op "$body" >"$TMP/results.reply" || die "results for the pair template failed"
      ! grep -q '"error"' "$TMP/results.reply" || die "results for the pair template: $(grep -m1 error "$TMP/results.reply")"
      : >"$body"
      n=0
    fi
  done
  serve_stop || die "the template server did not stop cleanly"
}

# one PGN file per table (Round "1.T"), random legal games
make_games() {
  "$XQREF" bench --gen-pgn "$BOARDS" "$TMP/games.pgn" "$SEED" >/dev/null
  mkdir -p "$TMP/games"
  awk -v dir="$TMP/games" '
    /^\[Game / { n++; f = dir "/" n ".pgn" }
    /^\[Event / { print "[Round \"1." n "\"]" > f; next }
    { print > f }' "$TMP/games.pgn"
}

# ------------------------------------------------------------------
# Checks common to every kind
# ------------------------------------------------------------------

common_checks() { # DIR DB -> prints problems; returns 1 on any
  local d=$1 db=$2 bad=0 ic rc
  ic=$(integrity "$db" 2>&1 || true)
  [ "$ic" = ok ] || { echo "integrity_check: $ic"; bad=1; }
  if start_server "$db" "$d/restart.out"; then
    rc=0
    serve_stop || rc=$?
    [ "$rc" = 0 ] || { echo "the restarted server exited with status $rc"; bad=1; }
  else
    echo "the server did not restart on the killed store"
    bad=1
  fi
  "$XQREF" tourney standings --db "$db" >"$d/standings.txt" 2>&1 || { echo "tourney standings failed: $(head -1 "$d/standings.txt")"; bad=1; }
  "$XQREF" tourney log --db "$db" >"$d/log.txt" 2>&1 || { echo "tourney log failed: $(head -1 "$d/log.txt")"; bad=1; }
  return "$bad"
}

# round 2 all or nothing; "acked" when it must be there. Prints a word
# for the summary (published / absent) or the problems.
check_round2() { # DB ACKED
  local db=$1 acked=$2 n boards rows players
  n=$(sql "$db" "SELECT count(*) FROM events WHERE kind = 'pairing' AND round = 2")
  if [ "$n" = 0 ]; then
    rows=$(sql "$db" "SELECT count(*) FROM pairing_boards WHERE seq NOT IN (SELECT seq FROM events WHERE kind = 'pairing' AND round = 1)")
    [ "$rows" = 0 ] || { echo "pairing rows without a pairing event: $rows"; return 1; }
    [ "$acked" = 0 ] || { echo "round 2 was acknowledged but is not in the store"; return 1; }
    echo absent
    return 0
  fi
  [ "$n" = 1 ] || { echo "round 2 published $n times"; return 1; }
  boards=$(sql "$db" "SELECT value FROM events WHERE kind = 'pairing' AND round = 2")
  rows=$(sql "$db" "SELECT count(*) FROM pairing_boards p JOIN events e ON e.seq = p.seq WHERE e.kind = 'pairing' AND e.round = 2")
  [ "$rows" = "$boards" ] || { echo "round 2 announces $boards boards but has $rows"; return 1; }
  # every player on exactly one board (black 0 is the bye)
  players=$(sql "$db" "SELECT count(*), count(DISTINCT x) FROM (SELECT red AS x FROM pairing_boards p JOIN events e ON e.seq = p.seq WHERE e.kind = 'pairing' AND e.round = 2 UNION ALL SELECT black FROM pairing_boards p JOIN events e ON e.seq = p.seq WHERE e.kind = 'pairing' AND e.round = 2 AND black > 0)")
  [ "$players" = "$PLAYERS|$PLAYERS" ] || { echo "round 2 seats (all|distinct) $players, expected $PLAYERS|$PLAYERS"; return 1; }
  echo published
}

# ------------------------------------------------------------------
# The kinds
# ------------------------------------------------------------------

trial_pair() { # T DIR -> sets WHAT; returns 1 on failure
  local t=$1 d=$2 db=$2/store.db delay acked=0 r
  copy_store "$PAIRDB" "$db"
  start_server "$db" "$d/serve.out" || { echo "the server did not start"; return 1; }
  echo '{"id":1,"op":"pair","publish":true}' >"$d/pair.req"
  (post /api/op "$d/pair.req" >"$d/pair.reply" 2>/dev/null && grep -q '"published":true' "$d/pair.reply" && echo acked >"$d/ack") &
  local cl=$!
  track "$cl"
  delay=$(rand_in "$((SEED + t))" 0 "$PAIR_MS")
  sleep "$(awk -v m="$delay" 'BEGIN { printf "%.3f", m / 1000 }')"
  serve_kill
  wait "$cl" 2>/dev/null || true
  forget_pid "$cl"
  [ -e "$d/ack" ] && acked=1
  r=$(check_round2 "$db" "$acked") || { echo "$r"; return 1; }
  common_checks "$d" "$db" || return 1
  WHAT="kill after ${delay} ms: round 2 $r$([ "$acked" = 1 ] && echo ' (acknowledged)' || echo ' (not acknowledged)')"
}

trial_pair_cli() {
  local t=$1 d=$2 db=$2/store.db delay acked=0 r
  copy_store "$PAIRDB" "$db"
  "$XQREF" tourney pair --db "$db" >"$d/pair.out" 2>&1 &
  local pid=$! rc=0
  track "$pid"
  delay=$(rand_in "$((SEED + t))" 0 "$PAIR_CLI_MS")
  sleep "$(awk -v m="$delay" 'BEGIN { printf "%.3f", m / 1000 }')"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || rc=$?
  forget_pid "$pid"
  # exit 0: it had finished (its boards printed) before the kill
  [ "$rc" = 0 ] && acked=1
  r=$(check_round2 "$db" "$acked") || { echo "$r"; return 1; }
  common_checks "$d" "$db" || return 1
  WHAT="kill after ${delay} ms: round 2 $r$([ "$acked" = 1 ] && echo ' (the command had finished)' || echo ' (killed while running)')"
}

# Send tables 1..BOARDS in batches of PER through POST URL, each table's
# part of the body printed by ITEM TABLE; after each batch ACKED REPLY N
# says whether all N were acknowledged, and ACKLINE TABLE prints each one's
# line of DIR/ack. Every batch's tables go to DIR/sent first. Stops at the
# first failure (the server was killed).
batch_client() { # DIR PER URL ITEM ACKED ACKLINE
  local d=$1 per=$2 url=$3 item=$4 acked=$5 ackline=$6 b x n=0 req=$1/req tables=""
  : >"$req"
  for b in $(seq 1 "$BOARDS"); do
    "$item" "$b" >>"$req"
    tables="$tables $b"
    n=$((n + 1))
    if [ "$n" = "$per" ] || [ "$b" = "$BOARDS" ]; then
      echo "$tables" >>"$d/sent"
      post "$url" "$req" >"$d/reply" 2>/dev/null || return 0
      "$acked" "$d/reply" "$n" || return 0
      for x in $tables; do "$ackline" "$x" >>"$d/ack"; done
      : >"$req"
      tables=""
      n=0
    fi
  done
}

# the result kind: RESULTS_PER_POST results a request; acknowledged when
# every line of the reply is ok; DIR/ack lines "TABLE CODE"
result_item() { printf '{"id":%d,"op":"result","round":1,"table":%d,"result":"%s"}\n' "$1" "$1" "$(result_code "$1")"; }
result_acked() { [ "$(grep -c '"ok":true' "$1")" = "$2" ]; }
result_ack() { echo "$1 $(result_code "$1")"; }
result_client() { batch_client "$1" "$RESULTS_PER_POST" /api/op result_item result_acked result_ack; }

# the push kind: GAMES_PER_PUSH games a push; acknowledged when the reply
# names every table; DIR/ack lines "TABLE"
push_item() { cat "$TMP/games/$1.pgn"; echo; }
push_acked() { [ "$(grep -o '"table":' "$1" | wc -l)" = "$2" ]; }
push_ack() { echo "$1"; }
push_client() { batch_client "$1" "$GAMES_PER_PUSH" /api/rounds/1/push push_item push_acked push_ack; }

# Start the server on a copy of the live store in DIR, run CLIENT DIR in
# the background, kill -9 the server after a random delay in 0.2..MAX_S
# seconds (trial T), and wait for the client. Sets DELAY.
kill_during() { # T DIR CLIENT MAX_S
  local t=$1 d=$2 cl
  copy_store "$LIVE" "$d/store.db"
  : >"$d/ack"
  : >"$d/sent"
  start_server "$d/store.db" "$d/serve.out" || { echo "the server did not start"; return 1; }
  "$3" "$d" &
  cl=$!
  track "$cl"
  DELAY=$(rand_in "$((SEED + t))" 0.2 "$4")
  sleep "$DELAY"
  serve_kill
  wait "$cl" 2>/dev/null || true
  forget_pid "$cl"
}

trial_result() {
  local t=$1 d=$2 db=$2/store.db delay
  kill_during "$t" "$d" result_client "$RESULT_S" || return 1
  delay=$DELAY
  local bad=0
  # the event log's last result per board, and the game log's rows
  sql "$db" "SELECT board, code FROM events WHERE kind = 'result' AND round = 1 ORDER BY seq" >"$d/results.txt"
  sql "$db" "SELECT board, event FROM game_log WHERE round = 1 AND event LIKE 'result:%'" >"$d/gamelog.txt"
  local sent
  sent=$(tr ' ' '\n' <"$d/sent" | grep -c . || true)
  if ! awk -F'[| ]' '
      FILENAME == ARGV[1] { ack[$1] = $2; nack++; next }
      FILENAME == ARGV[2] { for (i = 1; i <= NF; i++) if ($i != "") sent[$i] = 1; next }
      FILENAME == ARGV[3] { res[$1] = $2; nres++; next }
      { g = $2; sub("result:", "", g); gl[$1] = g }
      END {
        for (b in ack) {
          if (!(b in res)) { printf "acknowledged result of table %s lost from the event log\n", b; bad++ }
          else if (res[b] != ack[b]) { printf "table %s: acknowledged %s, stored %s\n", b, ack[b], res[b]; bad++ }
          if (!(b in gl)) { printf "acknowledged result of table %s lost from the game log\n", b; bad++ }
        }
        for (b in res) if (!(b in sent)) { printf "a result for table %s, never sent\n", b; bad++ }
        for (b in gl) if (!(b in res)) { printf "table %s: a result in the game log but not in the event log\n", b; bad++ }
        exit bad ? 1 : 0
      }' "$d/ack" "$d/sent" "$d/results.txt" "$d/gamelog.txt"; then
    bad=1
  fi
  common_checks "$d" "$db" || bad=1
  [ "$bad" = 0 ] || return 1
  WHAT="kill after ${delay} s: sent $sent, acknowledged $(wc -l <"$d/ack"), stored $(wc -l <"$d/results.txt")"
}

trial_push() {
  local t=$1 d=$2 db=$2/store.db delay
  kill_during "$t" "$d" push_client "$PUSH_S" || return 1
  delay=$DELAY
  local bad=0
  # each table's rows, to compare with those of the run without a kill
  # ($TMP/push-expected.txt, "table|source|event" in log order)
  sql "$db" "SELECT board, source, event FROM game_log WHERE round = 1 ORDER BY id" >"$d/rows.txt"
  if ! awk -F'|' '
      FILENAME == ARGV[1] { ack[$1] = 1; next }
      FILENAME == ARGV[2] { n = split($0, f, " "); for (i = 1; i <= n; i++) sent[f[i]] = 1; next }
      FILENAME == ARGV[3] { want[$1] = want[$1] $0 "\n"; next }
      { got[$1] = got[$1] $0 "\n"; nrows++ }
      END {
        for (b in got) {
          if (!(b in sent)) { printf "table %s: rows, but its game was never pushed\n", b; bad++ }
          else if (got[b] != want[b]) { printf "table %s: the stored game differs from the pushed one (a part of it?)\n", b; bad++ }
        }
        for (b in ack) if (!(b in got)) { printf "acknowledged game of table %s lost\n", b; bad++ }
        exit bad ? 1 : 0
      }' "$d/ack" "$d/sent" "$TMP/push-expected.txt" "$d/rows.txt"; then
    bad=1
  fi
  local stored
  stored=$(cut -d'|' -f1 "$d/rows.txt" | sort -u | wc -l)
  common_checks "$d" "$db" || bad=1
  [ "$bad" = 0 ] || return 1
  local sent
  sent=$(tr ' ' '\n' <"$d/sent" | grep -c . || true)
  WHAT="kill after ${delay} s: games sent $sent, acknowledged $(wc -l <"$d/ack"), stored $stored"
}

# ------------------------------------------------------------------
# Main
# ------------------------------------------------------------------

echo "crash-ops: $TRIALS trials of each of: $KINDS; $PLAYERS players ($BOARDS boards), seed $SEED"
make_live_template
case " $KINDS " in *" pair"*) make_pair_template ;; esac
case " $KINDS " in *" push "*) make_games ;; esac

# kill windows: untouched runs of each kind measure how long it takes
measure() { # KIND -> milliseconds of one run without a kill
  local d=$TMP/measure-$1 t0 t1
  mkdir -p "$d"
  case $1 in
  pair)
    copy_store "$PAIRDB" "$d/store.db"
    start_server "$d/store.db" "$d/serve.out" || die "the server did not start"
    echo '{"id":1,"op":"pair","publish":true}' >"$d/pair.req"
    t0=$(now_ms); post /api/op "$d/pair.req" >/dev/null || die "pair failed"; t1=$(now_ms)
    serve_stop || true ;;
  pair-cli)
    copy_store "$PAIRDB" "$d/store.db"
    t0=$(now_ms); "$XQREF" tourney pair --db "$d/store.db" >/dev/null || die "tourney pair failed"; t1=$(now_ms) ;;
  result)
    copy_store "$LIVE" "$d/store.db"; : >"$d/ack"; : >"$d/sent"
    start_server "$d/store.db" "$d/serve.out" || die "the server did not start"
    t0=$(now_ms); result_client "$d"; t1=$(now_ms)
    [ "$(wc -l <"$d/ack")" = "$BOARDS" ] || die "the result run without a kill did not acknowledge every table"
    serve_stop || true ;;
  push)
    copy_store "$LIVE" "$d/store.db"; : >"$d/ack"; : >"$d/sent"
    start_server "$d/store.db" "$d/serve.out" || die "the server did not start"
    t0=$(now_ms); push_client "$d"; t1=$(now_ms)
    [ "$(wc -l <"$d/ack")" = "$BOARDS" ] || die "the push run without a kill did not acknowledge every game"
    serve_stop || true
    # what a push of every game stores: the reference for the trials
    sql "$d/store.db" "SELECT board, source, event FROM game_log WHERE round = 1 ORDER BY id" >"$TMP/push-expected.txt" ;;
  esac
  rm -rf "$d"
  echo $((t1 - t0))
}

failed=0
for kind in $KINDS; do
  case $kind in
  pair | pair-cli) m=$(for _ in 1 2 3; do measure "$kind"; done | sort -n | sed -n 2p) ;; # the median of 3: short runs vary
  *) m=$(measure "$kind") ;;
  esac
  case $kind in
  pair) PAIR_MS=${PAIR_MS:-$((m * 3 / 2 + 20))}; window="0..$PAIR_MS ms" ;;
  pair-cli) PAIR_CLI_MS=${PAIR_CLI_MS:-$((m * 3 / 2 + 10))}; window="0..$PAIR_CLI_MS ms" ;;
  result) RESULT_S=${RESULT_S:-$(awk -v m="$m" 'BEGIN { printf "%.2f", m / 1000 * 1.2 + 0.3 }')}; window="0.2..$RESULT_S s" ;;
  push) PUSH_S=${PUSH_S:-$(awk -v m="$m" 'BEGIN { printf "%.2f", m / 1000 * 1.2 + 0.3 }')}; window="0.2..$PUSH_S s" ;;
  *) die "unknown kind $kind (pair, pair-cli, result, push)" ;;
  esac
  echo "== $kind: a run without a kill takes $m ms; kill -9 at $window"
  passed=0
  for t in $(seq 1 "$TRIALS"); do
    d=$TMP/$kind-$t
    mkdir -p "$d"
    WHAT=""
    # not in a subshell: the trial sets WHAT; its problems go to a file
    if "trial_${kind//-/_}" "$t" "$d" >"$d/problems" 2>&1 && ! grep -q . "$d/problems"; then
      passed=$((passed + 1))
      echo "trial $t: $WHAT: ok"
      rm -rf "$d"
    else
      echo "trial $t: FAILED${WHAT:+ ($WHAT)}"
      sed 's/^/  /' "$d/problems" | head -20
      FAILED_DIR=$d
      failed=1
    fi
  done
  echo "$kind: $passed/$TRIALS trials consistent"
done
[ "$failed" = 0 ] || exit 1
