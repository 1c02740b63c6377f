#!/usr/bin/env bash
# deep-perft.sh - deep perft with the transposition table against Pikafish's
# plain perft one ply shallower: xqref `perft --depth D+1 --hash MB
# --threads T` against Pikafish `go perft D` (one thread), runs alternated.
#
# Pikafish is only the external anchor: build it yourself outside this
# repository as bench/compare-pikafish.sh describes (that header says how
# to run it without a network file). This script builds and downloads
# nothing.
#
# Prints, per run, both wall times (`date +%s.%N` around each process) and
# node counts, then the median of each and the ratio (Pikafish / xqref:
# above 1 means xqref's deeper count took less time), and the load
# (`uptime`) before and after. Fails when a count differs between runs.
#
# Settings (environment):
#   PIKAFISH  Pikafish binary (default ../anchors/pikafish/src/pikafish beside the repository)
#   XQREF     xqref binary (default build/xqref)
#   DEPTH     Pikafish's depth (default 6); xqref counts DEPTH+1
#   HASH      xqref's table in MiB (default 2048)
#   THREADS   xqref's threads (default 2)
#   RUNS      runs of each (default 3)
#   FEN       position (default: the start position)
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PIKAFISH=${PIKAFISH:-$REPO_ROOT/../anchors/pikafish/src/pikafish}
DEPTH=${DEPTH:-6}
HASH=${HASH:-2048}
THREADS=${THREADS:-2}
RUNS=${RUNS:-3}
FEN=${FEN:-startpos}

[[ -x $XQREF ]] || die "no xqref binary at $XQREF (set XQREF)"
[[ -x $PIKAFISH ]] || die "no Pikafish binary at $PIKAFISH (set PIKAFISH; see bench/compare-pikafish.sh)"
[[ $DEPTH =~ ^[1-9][0-9]*$ && $RUNS =~ ^[1-9][0-9]*$ ]] || die "DEPTH and RUNS must be positive integers"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/deep-perft.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

xq_args=(perft --depth $((DEPTH + 1)) --hash "$HASH" --threads "$THREADS")
[[ $FEN == startpos ]] || xq_args+=(--fen "$FEN")
pf_input() {
  if [[ $FEN == startpos ]]; then printf 'position startpos\ngo perft %s\nquit\n' "$DEPTH"
  else printf 'position fen %s\ngo perft %s\nquit\n' "$FEN" "$DEPTH"; fi
}

echo "xqref:    $XQREF ${xq_args[*]}"
echo "Pikafish: $PIKAFISH (go perft $DEPTH, one thread)"
echo "load before: $(uptime)"
xq_t=() pf_t=() xq_ref= pf_ref=
for ((i = 1; i <= RUNS; i++)); do
  t0=$(now)
  "$XQREF" "${xq_args[@]}" >"$TMP/xq.out" 2>"$TMP/xq.err" || die "xqref failed: $(tail -n 3 "$TMP/xq.err")"
  t1=$(now)
  n=$(awk '$1 == "nodes" { print $2 }' "$TMP/xq.out")
  [[ -n $xq_ref ]] || xq_ref=$n
  [[ $n == "$xq_ref" ]] || die "xqref run $i counted $n, run 1 $xq_ref"
  xq_t+=("$(elapsed "$t0" "$t1" 3)")
  printf 'run %d  xqref perft(%d)     %9.3f s  nodes %s\n' "$i" $((DEPTH + 1)) "${xq_t[-1]}" "$n"

  t0=$(now)
  pf_input | "$PIKAFISH" >"$TMP/pf.out" 2>&1 || die "Pikafish failed: $(tail -n 3 "$TMP/pf.out")"
  t1=$(now)
  n=$(awk '/^Nodes searched:/ { print $3 }' "$TMP/pf.out")
  [[ -n $n ]] || die "no 'Nodes searched' from Pikafish (is the network check skipped for perft?)"
  [[ -n $pf_ref ]] || pf_ref=$n
  [[ $n == "$pf_ref" ]] || die "Pikafish run $i counted $n, run 1 $pf_ref"
  pf_t+=("$(elapsed "$t0" "$t1" 3)")
  printf 'run %d  Pikafish perft(%d)  %9.3f s  nodes %s\n' "$i" "$DEPTH" "${pf_t[-1]}" "$n"
done
echo "load after:  $(uptime)"
xm=$(median "${xq_t[@]}") pm=$(median "${pf_t[@]}")
printf 'median  xqref perft(%d) %.3f s, Pikafish perft(%d) %.3f s\n' $((DEPTH + 1)) "$xm" "$DEPTH" "$pm"
awk -v a="$pm" -v b="$xm" 'BEGIN { printf "ratio (Pikafish time / xqref time): %.2f\n", a / b }'
