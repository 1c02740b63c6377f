#!/usr/bin/env bash
# simulate-sweep.sh - whole events under every regulation preset, many
# sizes and seeds, each read back from its store by the command line:
#
#   bash bench/simulate-sweep.sh
#   PRESETS="xinjiang2018 tangshan2018" PLAYERS="40 60 150" SEEDS="1 2 3" \
#     XQREF=build/xqref bash bench/simulate-sweep.sh
#
# For each preset, player count and seed, `xqref simulate --db` runs the
# event on the real server (every Swiss round paired and published, every
# game played over the protocol with incidents, the knockout with its
# tie-break games); then, on the store it kept:
#   * `tourney places` lists the same players in the same order as the
#     simulation's final places (the server's event and the command line's
#     reading of the same store agree);
#   * `tourney standings`, `tourney prizes --preset P` and `tourney export
#     --format trf` succeed.
# Prints a line per run and the count of failures; exit status 1 when any
# run failed (its output is kept under the printed directory).
# Defaults: the five presets, 40 60 150 players, seeds 1..10 (150 runs,
# about 20 minutes on 2 cores).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_xqref
presets=${PRESETS:-"xinjiang2018 burqin2018 shaanxi2019 wujiaqu2024 tangshan2018"}
players=${PLAYERS:-"40 60 150"}
seeds=${SEEDS:-"1 2 3 4 5 6 7 8 9 10"}
out=$(mktemp -d /tmp/xqref-sweep.XXXXXX)
runs=0 failed=0

# The names of a final-places table as simulate prints it (the rows under
# the rule after "Final places") and as `tourney places` lists them.
sim_names() { awk '/^Final places/ { f = 1; next } f && /^---/ { r = 1; next } r && NF == 0 { exit } r { print $2 }' "$1"; }
cli_names() { awk '$1 ~ /^[0-9]+$/ && NF >= 3 { print $3 }' "$1"; }

for preset in $presets; do
  for n in $players; do
    for seed in $seeds; do
      runs=$((runs + 1))
      run="$out/$preset-$n-$seed"
      why=""
      if ! "$XQREF" simulate --preset "$preset" --players "$n" --seed "$seed" --db "$run.db" >"$run.sim" 2>&1; then
        limit=$(sed -n 's/.*admits at most \([0-9]*\) players.*/\1/p' "$run.sim")
        if [ -n "$limit" ]; then # the preset's entry limit (shaanxi2019: 100): that many instead
          echo "$preset $n players seed $seed: above the entry limit, run with $limit"
          n=$limit
          "$XQREF" simulate --preset "$preset" --players "$n" --seed "$seed" --db "$run.db" >"$run.sim" 2>&1 ||
            why="simulate failed"
        else
          why="simulate failed"
        fi
      fi
      if [ -n "$why" ]; then
        :
      elif ! "$XQREF" tourney places --db "$run.db" >"$run.places" 2>&1; then
        why="tourney places failed"
      elif ! diff <(sim_names "$run.sim") <(cli_names "$run.places") >"$run.diff"; then
        why="the places differ ($run.diff)"
      elif ! "$XQREF" tourney standings --db "$run.db" >/dev/null 2>"$run.err" ||
        ! "$XQREF" tourney prizes --db "$run.db" --preset "$preset" >/dev/null 2>>"$run.err" ||
        ! "$XQREF" tourney export --db "$run.db" --format trf --out "$run.trf" 2>>"$run.err"; then
        why="a listing failed ($run.err)"
      fi
      if [ -n "$why" ]; then
        failed=$((failed + 1))
        echo "$preset $n players seed $seed: FAILED: $why"
      else
        echo "$preset $n players seed $seed: ok ($(sim_names "$run.sim" | wc -l) places)"
        rm -f "$run".*
      fi
    done
  done
done
echo "simulate sweep: $runs runs, $failed failed$([ "$failed" = 0 ] || echo " (kept in $out)")"
[ "$failed" = 0 ] && rm -rf "$out"
[ "$failed" = 0 ]
