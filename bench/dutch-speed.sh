#!/usr/bin/env bash
# dutch-speed.sh - time `xqref pair --system dutch` on one round of a TRF
# event, and bbpPairings on the same input when BBP=/path/to/bbpPairings.exe
# is given (a binary you built yourself; nothing of it is in this tree).
#
#   bench/dutch-speed.sh FILE.trf ROUND [RUNS]
#   BBP=/tmp/bbp/bbpPairings.exe XQREF=build/xqref ROUNDS=11 bench/dutch-speed.sh \
#       /work/shared/data/pairing/generated/rtg_dutch_n1000_r11_seed12345.trf 6 3
#
# ROUND is the round to pair: xqref reads FILE with `--rounds ROUNDS --round
# ROUND` (rounds 1..ROUND-1 kept); bbpPairings reads the same state written
# by bench/dutch-truncate.awk. The two run alternately, RUNS times each
# (default 3), so both see the same machine load; the script prints each
# run's wall and user (CPU) seconds, the medians and the ratios
# bbpPairings / xqref, and checks that both printed the same pairing.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$REPO_ROOT/bench
file=${1:?usage: dutch-speed.sh FILE.trf ROUND [RUNS]}
round=${2:?usage: dutch-speed.sh FILE.trf ROUND [RUNS]}
runs=${3:-3}
rounds=${ROUNDS:-11}
xqref=$XQREF
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v K=$((round - 1)) -v N="$rounds" -f "$here/dutch-truncate.awk" "$file" > "$tmp/in.trf"

for i in $(seq 1 "$runs"); do
  /usr/bin/time -f "%e %U" -o "$tmp/t" "$xqref" pair --system dutch --rounds "$rounds" \
    --round "$round" "$file" > "$tmp/xq.out"
  read -r e u < "$tmp/t"
  echo "xqref run $i: ${e} s wall, ${u} s user"
  echo "$e" >> "$tmp/xq.wall"; echo "$u" >> "$tmp/xq.user"
  if [ -n "${BBP:-}" ]; then
    /usr/bin/time -f "%e %U" -o "$tmp/t" "$BBP" --dutch "$tmp/in.trf" -p "$tmp/bbp.out" > /dev/null
    read -r e u < "$tmp/t"
    echo "bbpPairings run $i: ${e} s wall, ${u} s user"
    echo "$e" >> "$tmp/bbp.wall"; echo "$u" >> "$tmp/bbp.user"
  fi
done
xw=$(median < "$tmp/xq.wall"); xu=$(median < "$tmp/xq.user")
echo "xqref median: ${xw} s wall, ${xu} s user"
if [ -n "${BBP:-}" ]; then
  bw=$(median < "$tmp/bbp.wall"); bu=$(median < "$tmp/bbp.user")
  echo "bbpPairings median: ${bw} s wall, ${bu} s user"
  awk -v a="$bw" -v b="$xw" -v c="$bu" -v d="$xu" 'BEGIN {
    printf "ratio bbpPairings/xqref: %.1f (wall), %.1f (user)\n", a / (b > 0 ? b : 0.005), c / (d > 0 ? d : 0.005) }'
  if cmp -s "$tmp/xq.out" "$tmp/bbp.out"; then echo "same pairing"; else echo "PAIRINGS DIFFER"; exit 1; fi
fi
