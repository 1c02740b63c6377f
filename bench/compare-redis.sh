#!/usr/bin/env bash
# compare-redis.sh - request rate of `xqref serve` under `xqref loadgen`
# against `redis-benchmark -t set` on the same machine, in the same run.
#
# Redis is only an external yardstick: a small server on one event loop
# answering small requests over loopback TCP, like ours. Each run
# measures, one after the other:
#   redis        redis-server without persistence (the usual headline
#                figure): redis-benchmark -t set -c CLIENTS -n REQUESTS -q
#   redis-fsync  the same with appendonly yes, appendfsync always: every
#                SET is on disk before its reply, as every move of ours is
#   xqref        a fresh store with a demo of PLAYERS players (PLAYERS/2
#                boards), `xqref serve`, then `xqref loadgen --boards
#                BOARDS` at full speed (one move in flight per board)
# RUNS times, alternating, then the medians and the ratios. The xqref
# figure is the rate while all boards were playing (loadgen's "all boards
# playing" line; docs/tools.md says why). Finally a realistic-pace run:
# every board a move a second for PACE_SECONDS, printing the latency
# percentiles.
#
# Client and server share the machine's cores in both cases.
#
# Settings (environment):
#   XQREF      xqref binary           (default build/xqref)
#   GAMES      PGN of games to replay (default: 3000 random games from
#              `xqref bench --gen-pgn`)
#   MIN_PLIES  only games this long   (default 150)
#   RUNS       runs of each           (default 3)
#   BOARDS     boards = redis clients (default 500)
#   REQUESTS   redis-benchmark -n     (default 200000)
#   PACE_SECONDS  realistic-pace run length, 0 = skip (default 60)
#   NO_FSYNC_REDIS=1  skip the appendfsync always line
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
RUNS=${RUNS:-3}
BOARDS=${BOARDS:-500}
PLAYERS=$((BOARDS * 2))
REQUESTS=${REQUESTS:-200000}
MIN_PLIES=${MIN_PLIES:-150}
PACE_SECONDS=${PACE_SECONDS:-60}
NO_FSYNC_REDIS=${NO_FSYNC_REDIS:-0}

need_xqref

# --- redis from Debian, when missing ------------------------------------
if ! command -v redis-server >/dev/null || ! command -v redis-benchmark >/dev/null; then
  [ "$(id -u)" = 0 ] || die "redis-server/redis-benchmark missing; run as root to install them, or: apt-get install redis-server redis-tools"
  echo "installing redis-server and redis-tools from Debian..."
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q redis-server redis-tools >/dev/null ||
    { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q redis-server redis-tools >/dev/null; } ||
    die "cannot install redis-server redis-tools"
fi

TMP=$(mktemp -d /tmp/xq-compare-redis.XXXXXX)
cleanup() {
  kill_tracked
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- games ---------------------------------------------------------------
if [ -z "${GAMES:-}" ]; then
  GAMES=$TMP/games.pgn
  "$XQREF" bench --gen-pgn 3000 "$GAMES" 1
fi

# --- one redis-benchmark run: sets RATE (requests/s) ----------------------
redis_run() { # plain or fsync
  local port dir
  port=$(free_port)
  dir=$TMP/redis-$1-$port
  mkdir -p "$dir"
  local args=(--port "$port" --bind 127.0.0.1 --dir "$dir" --save "" --daemonize no --loglevel warning)
  if [ "$1" = fsync ]; then args+=(--appendonly yes --appendfsync always); else args+=(--appendonly no); fi
  redis-server "${args[@]}" >"$dir/log" 2>&1 &
  local pid=$!
  track "$pid"
  local up=0
  for _ in $(seq 1 100); do
    if redis-cli -p "$port" ping >/dev/null 2>&1; then up=1; break; fi
    sleep 0.05
  done
  [ "$up" = 1 ] || { cat "$dir/log" >&2; die "redis-server did not start on port $port"; }
  local out
  # redis-benchmark waits for ever when its server goes away: bound it.
  out=$(timeout 600 redis-benchmark -p "$port" -t set -c "$BOARDS" -n "$REQUESTS" -q 2>/dev/null |
    tr '\r' '\n' | grep 'requests per second' | tail -1) || true
  [ -n "$out" ] || die "redis-benchmark gave no figure"
  stop_pid "$pid" || true
  RATE=$(echo "$out" | sed -E 's/.*SET: ([0-9.]+) requests per second.*/\1/')
}

# --- one xqref run: prints loadgen's report into FILE ---------------------
xqref_run() { # OUTFILE [loadgen options...]
  local out=$1
  shift
  local db=$TMP/xq-$RANDOM$RANDOM.db
  serve_start "$db" "$db.serve" --demo --players "$PLAYERS" --http none --quiet || die "xqref serve did not start"
  "$XQREF" loadgen --connect "$JSON" --tokens "$db.serve" --boards "$BOARDS" --games "$GAMES" \
    --min-plies "$MIN_PLIES" "$@" >"$out" 2>"$out.err" || true
  serve_stop || true
  rm -f "$db" "$db"-* "$db.admin"
}

field_rate() { awk '/^all boards playing/{print $(NF-1)}' "$1"; }
field_lat() { grep '^latency' "$1" | sed 's/^latency ms //'; }

echo "machine: $(nproc) cores, $(uname -r); $BOARDS clients/boards; redis $(redis-server --version | awk '{print $3}')"
echo "redis-benchmark -t set -c $BOARDS -n $REQUESTS -q   |   xqref loadgen --boards $BOARDS (full speed, games >= $MIN_PLIES plies)"
R=()
F=()
X=()
for i in $(seq 1 "$RUNS"); do
  redis_run plain
  r=$RATE
  R+=("$r")
  f=-
  if [ "$NO_FSYNC_REDIS" != 1 ]; then
    redis_run fsync
    f=$RATE
    F+=("$f")
  fi
  xqref_run "$TMP/lg$i.txt"
  x=$(field_rate "$TMP/lg$i.txt")
  [ -n "$x" ] || { cat "$TMP/lg$i.txt" "$TMP/lg$i.txt.err" >&2; die "loadgen printed no rate"; }
  errs=$(awk '/^errors/{print $2}' "$TMP/lg$i.txt")
  X+=("$x")
  [ "$f" = - ] || f=$(printf '%.0f' "$f")
  printf 'run %d: redis %.0f/s   redis-fsync %s/s   xqref %s moves/s (errors %s; overall %s/s; latency %s)\n' \
    "$i" "$r" "$f" "$x" "$errs" "$(awk '/^moves\/s/{print $2}' "$TMP/lg$i.txt")" "$(field_lat "$TMP/lg$i.txt")"
done
mr=$(printf '%.0f' "$(printf '%s\n' "${R[@]}" | median)")
mx=$(printf '%s\n' "${X[@]}" | median)
echo "median: redis $mr/s, xqref $mx moves/s"
awk -v x="$mx" -v r="$mr" 'BEGIN {printf "ratio xqref/redis %.2f\n", x / r}'
if [ "${#F[@]}" -gt 0 ]; then
  mf=$(printf '%.0f' "$(printf '%s\n' "${F[@]}" | median)")
  echo "median: redis with appendfsync always $mf/s"
  awk -v x="$mx" -v r="$mf" 'BEGIN {printf "ratio xqref/redis-fsync %.2f\n", x / r}'
fi

if [ "$PACE_SECONDS" -gt 0 ]; then
  echo "realistic pace: xqref loadgen --boards $BOARDS --rate 1 --duration $PACE_SECONDS"
  xqref_run "$TMP/pace.txt" --rate 1 --duration "$PACE_SECONDS"
  grep -E '^(acked|errors|moves/s|latency)' "$TMP/pace.txt"
  p99=$(awk '/^latency/{for (i = 1; i < NF; i++) if ($i == "p99") print $(i+1)}' "$TMP/pace.txt")
  echo "realistic pace p99 $p99 ms"
fi
