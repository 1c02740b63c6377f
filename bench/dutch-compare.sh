#!/usr/bin/env bash
# dutch-compare.sh - replay every round of a TRF event and compare the
# pairing of `xqref pair --system dutch` with bbpPairings' (a binary you
# built yourself, BBP=/path/to/bbpPairings.exe; nothing of it is in this
# tree) on the same state (bench/dutch-truncate.awk).
#
#   BBP=/tmp/bbp/bbpPairings.exe bench/dutch-compare.sh FILE.trf [FIRST [LAST]]
#
# Rounds FIRST..LAST (default 2..ROUNDS, ROUNDS=11 unless set) are paired
# from the rounds before them; each round prints `round K: same (B boards)`
# or the two pairings' difference. Exit status 1 when any round differs.
# With KEEP=DIR the inputs and both outputs are kept there.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$REPO_ROOT/bench
file=${1:?usage: dutch-compare.sh FILE.trf [FIRST [LAST]]}
rounds=${ROUNDS:-11}
first=${2:-2}
last=${3:-$rounds}
xqref=$XQREF
bbp=${BBP:?set BBP=/path/to/bbpPairings.exe}
if [ -n "${KEEP:-}" ]; then tmp=$KEEP; mkdir -p "$tmp"; else tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; fi
bad=0
for k in $(seq "$first" "$last"); do
  awk -v K=$((k - 1)) -v N="$rounds" -f "$here/dutch-truncate.awk" "$file" > "$tmp/r$k.trf"
  "$bbp" --dutch "$tmp/r$k.trf" -p "$tmp/r$k.bbp" > /dev/null
  "$xqref" pair --system dutch "$tmp/r$k.trf" > "$tmp/r$k.xq"
  if cmp -s "$tmp/r$k.xq" "$tmp/r$k.bbp"; then
    echo "round $k: same ($(head -1 "$tmp/r$k.bbp") boards)"
  else
    echo "round $k: DIFFERENT"
    diff "$tmp/r$k.bbp" "$tmp/r$k.xq" | head -20 || true
    bad=1
  fi
done
exit $bad
