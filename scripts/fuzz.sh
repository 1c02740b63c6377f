#!/usr/bin/env bash
# Build the libFuzzer targets (clang, ASan + UBSan, build-fuzz/) and run
# each one for SECONDS (default 60) on a copy of its seed corpus, printing
# per target the inputs run, the rate and the crashes. New crash inputs are
# left in build-fuzz/crashes/<target>/; copy them to
# tests/data/fuzz-regress/<target>/ once fixed (docs/fuzzing.md).
# Usage: scripts/fuzz.sh [SECONDS [TARGET...]]   Exit status 1 on a crash.
# RUNS=N stops each target after N inputs (or SECONDS, whichever first).
# FORK=N runs each target as one libFuzzer run of N worker processes
# (-fork=N: they share the corpus, RUNS counts the inputs of all of them,
# the first crash stops the run): N cores for one target.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(fen iccs wxf chinese pgn xqf dhtmlxq trf jsonl http url prize rules event)

cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DXQ_FUZZ=ON -DXQ_TESTS=OFF -DXQ_WERROR=ON >/dev/null
cmake --build build-fuzz -j2 --target $(printf 'fuzz_%s ' "${targets[@]}") >/dev/null

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
# findings in a crash directory: crash-, leak-, timeout- and oom- files
# (slow-unit- files are inputs that took over 10 s: kept, not counted)
findings() { find "$1" -maxdepth 1 -type f ! -name 'slow-unit-*' | wc -l; }
printf '%-8s %12s %10s %8s\n' target runs execs/s crashes
for t in "${targets[@]}"; do
  work=build-fuzz/work/$t crashes=build-fuzz/crashes/$t
  rm -rf "$work"; mkdir -p "$work" "$crashes"
  cp fuzz/corpus/"$t"/* "$work"/
  log=build-fuzz/$t.log
  # -max_len: long enough for every seed; the JSON-lines target keeps its
  # inputs short so that one input is one connection's worth of requests
  maxlen=16384; extra=()
  # The JSON-lines target keeps a live server whose state grows on purpose
  # (players, games, log rows): libFuzzer would take most inputs for a
  # possible leak and scan the whole heap after each (most of the time of
  # a run). Leaks are checked once at exit instead (LeakSanitizer, below).
  [ "$t" = jsonl ] && maxlen=4096 && extra=(-detect_leaks=0)
  [ -n "${FORK:-}" ] && extra+=(-fork="$FORK")
  before=$(findings "$crashes")
  ./build-fuzz/fuzz/fuzz_"$t" -max_total_time="$secs" -runs="${RUNS:--1}" -max_len="$maxlen" -timeout=30 \
    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$crashes/" "${extra[@]}" \
    -dict=fuzz/dict/"$t".dict "$work" >"$log" 2>&1 || true
  # a leak found at exit has no input to keep: it counts as a crash
  if grep -q 'ERROR: LeakSanitizer' "$log"; then cp "$log" "$crashes/leak-at-exit-$(date +%s).log"; fi
  after=$(findings "$crashes")
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  if [ -n "${FORK:-}" ]; then
    # fork mode prints no final stats: its last status line has the total
    # inputs ("#N:") and the recent rate of all workers ("exec/s N")
    last=$(grep -E '^#[0-9]+: ' "$log" | tail -n1 || true)
    runs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
    rate=$(grep -oE 'exec/s [0-9]+' <<<"$last" | grep -oE '[0-9]+' || echo 0)
  fi
  new=$((after - before))
  printf '%-8s %12s %10s %8s\n' "$t" "${runs:-0}" "${rate:-0}" "$new"
  if ((new)); then status=1; grep -m3 -E 'ERROR|runtime error|SUMMARY' "$log" | sed 's/^/    /'; fi
done
exit $status
