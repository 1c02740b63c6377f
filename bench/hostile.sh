#!/usr/bin/env bash
# hostile.sh - the hostile-client attacks of docs/security.md against a
# fresh `xqref serve --demo --players PLAYERS`, with an honest board and
# viewer measured throughout (bench/hostile.py prints the figures).
#
# Settings (environment):
#   XQREF     xqref binary             (default build/xqref)
#   PLAYERS   demo players             (default 400: 200 boards)
#   ATTACKS   names, space-separated   (default: every attack of hostile.py,
#             then bench/engine-lanes.sh; "jobs" names that one)
# Needs python3. Prints one block per attack; exit status 0 unless the
# server died.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"
PLAYERS=${PLAYERS:-400}
need_xqref
DIR=$(mktemp -d /tmp/xqref-hostile.XXXXXX)
trap 'kill_tracked; rm -rf "$DIR"' EXIT
ulimit -n "$(ulimit -Hn)"
serve_start "$DIR/h.db" "$DIR/out" --demo --players "$PLAYERS" --http 127.0.0.1:0 || die "the server did not start"
PID=$SERVER_PID
LOG=$DIR/out.err
JPORT=$(awk '$1=="json"{split($2,a,":");print a[2]}' "$DIR/out")
HPORT=$(awk '$1=="http"{split($2,a,":");print a[2]}' "$DIR/out")
echo "xqref serve pid $PID, $PLAYERS players, json $JPORT, http $HPORT ($(git rev-parse --short HEAD 2>/dev/null || echo ?))"
WANT=${ATTACKS:-all}
ATTACKS=${WANT//jobs/}
if [ "$WANT" = all ] || [ -n "${ATTACKS// /}" ]; then
  [ "$WANT" = all ] && ATTACKS=""
  # shellcheck disable=SC2086
  python3 bench/hostile.py "$PID" "$JPORT" "$HPORT" "$DIR/out" $ATTACKS
fi
kill -0 "$PID" || { echo "the server died"; cat "$LOG"; exit 1; }
echo "server log: $(grep -c 'close ' "$LOG" || true) connections closed with a reason:"
grep 'close ' "$LOG" | awk '{$1="";$3="";print}' | sort | uniq -c | sort -rn | head -8 || true
if [ "$WANT" = all ] || [[ " $WANT " == *" jobs "* ]]; then
  echo "jobs: engine jobs against the organiser (bench/engine-lanes.sh)"
  XQREF=$XQREF PLAYERS=$PLAYERS bash bench/engine-lanes.sh
fi
