# bench/lib.sh - the shell helpers of the bench scripts (and scripts/soak.sh),
# sourced, never run:
#
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#
# Sets REPO_ROOT (this tree), XQREF (default build/xqref of this tree) and
# BENCH_NAME (the script's name, for messages) unless they are set, and
# defines:
#   die MSG...            "NAME: MSG" on stderr, exit 1
#   need_xqref            die unless $XQREF is an executable
#   usage                 print the script's first comment block (its help)
#   need_arg OPT ARGS...  die unless OPT has a value after it
#   wait_for FILE PATTERN SECONDS   wait until a line of FILE matches
#   free_port             a TCP port below the ephemeral range nothing listens on
#   track PID / forget_pid PID / kill_tracked [SIGNAL]   the processes to end at exit
#   stop_pid PID [SIGNAL] signal it (TERM), wait, forget it: its exit status
#   serve_start DB OUT [OPTIONS...] `xqref serve --db DB --listen 127.0.0.1:0
#                         OPTIONS` in the background (prefixed by the
#                         command in the array SERVE_WRAP, if any), its
#                         output in OUT, its stderr in OUT.err; waits for
#                         its addresses: sets SERVER_PID, JSON and HTTP
#                         (empty with --http none); returns 1 when it did
#                         not start within 60 s
#   serve_stop            SIGTERM to SERVER_PID and wait: its exit status
#   serve_kill            SIGKILL to SERVER_PID and wait
#   median [N...]         the median of the numbers given, or else of those on stdin (one a line)
#   now / elapsed A B [DIGITS]   seconds since the epoch; B - A
# shellcheck shell=bash disable=SC2034  # the variables it sets are the scripts'

REPO_ROOT=${REPO_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
XQREF=${XQREF:-$REPO_ROOT/build/xqref}
BENCH_NAME=${BENCH_NAME:-$(basename "$0" .sh)}
PIDS=()
SERVE_WRAP=()

die() { echo "$BENCH_NAME: $*" >&2; exit 1; }

need_xqref() { [ -x "$XQREF" ] || die "no xqref binary at $XQREF (build first, or set XQREF)"; }

usage() { sed -n '2,/^$/{s/^# \{0,1\}//;p}' "$0"; }

need_arg() { [ $# -ge 2 ] || die "option $1 needs a value"; }

wait_for() { # FILE PATTERN SECONDS
  local _
  for _ in $(seq 1 $(($3 * 20))); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    sleep 0.05
  done
  return 1
}

# Below the ephemeral range: many client sockets take ephemeral ports, and
# one of those in TIME_WAIT would make a server's bind fail.
free_port() {
  local p low
  low=$(awk '{print $1}' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  for _ in $(seq 1 200); do
    p=$((10000 + RANDOM % (low - 10000)))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
  die "no free port found"
}

track() { PIDS+=("$1"); }

forget_pid() {
  local keep=() p
  for p in "${PIDS[@]+"${PIDS[@]}"}"; do [ "$p" = "$1" ] || keep+=("$p"); done
  PIDS=("${keep[@]+"${keep[@]}"}")
}

kill_tracked() { # [SIGNAL]: end every tracked process and wait for it
  local p
  for p in "${PIDS[@]+"${PIDS[@]}"}"; do kill "-${1:-TERM}" "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]+"${PIDS[@]}"}"; do wait "$p" 2>/dev/null || true; done
  PIDS=()
}

serve_start() { # DB OUT [OPTIONS...]
  local db=$1 out=$2 last='^http ' a
  shift 2
  for a in "$@"; do [ "$a" = none ] && last='^json '; done # --http none: no http line
  "${SERVE_WRAP[@]+"${SERVE_WRAP[@]}"}" "$XQREF" serve --db "$db" --listen 127.0.0.1:0 "$@" >"$out" 2>"$out.err" &
  SERVER_PID=$!
  track "$SERVER_PID"
  wait_for "$out" "$last" 60 || { cat "$out.err" >&2; return 1; }
  JSON=$(awk '/^json /{print $2; exit}' "$out")
  HTTP=$(awk '/^http /{print $2; exit}' "$out")
}

stop_pid() { # PID [SIGNAL]
  local rc=0
  kill "-${2:-TERM}" "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || rc=$?
  forget_pid "$1"
  return "$rc"
}

serve_stop() { stop_pid "$SERVER_PID"; }

serve_kill() { stop_pid "$SERVER_PID" KILL || true; }

median() { # [N...]
  { if [ $# -gt 0 ]; then printf '%s\n' "$@"; else cat; fi; } |
    sort -g | awk '{v[NR] = $1} END {printf "%.10g\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

now() { date +%s.%N; }

elapsed() { awk -v a="$1" -v b="$2" -v d="${3:-6}" 'BEGIN { printf "%." d "f", b - a }'; }
