#!/usr/bin/env bash
# edge-broadcast.sh - a broadcast through the nginx + nchan edge, measured
# (docs/scale.md): a fresh demo server with BOARDS boards (`serve --demo
# --players 2*BOARDS --publish`), EDGES edges started by scripts/edge.sh
# on loopback (2: over a Redis server, the viewers half on each), then
# `xqref loadgen`: the boards play RATE moves a second each for DURATION
# seconds while VIEWERS SSE viewers follow the edge. Prints loadgen's
# report (moves/s, board latency, the viewers' streams and their
# delivery latency), what xqref posted to the edge and the CPU time it
# used, and nchan's counts. With DIRECT=1 the viewers follow the server
# itself instead (at most 3840: its anonymous connections), for
# comparison. With PIN=2 the boards' side (the server and loadgen's
# boards) runs on core 0 and the viewers' side (the edge and loadgen's
# viewers' thread, --viewer-cpu) on core 1: as if the edge and its
# viewers had a machine of their own. With PIN=1 the server alone runs
# on core 0, the edge and all of loadgen on the other cores (taskset).
#
# Settings (environment): XQREF (build/xqref), BOARDS (100), RATE (0.1),
# DURATION (60), VIEWERS (10000), EDGES (1 or 2), WORKERS (nginx worker
# processes, 1), DIRECT (0), PIN (0, 1 or 2), BATCH (serve --publish-batch MS;
# empty: the server's default, 500).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
root=$REPO_ROOT
BOARDS=${BOARDS:-100}
RATE=${RATE:-0.1}
DURATION=${DURATION:-60}
VIEWERS=${VIEWERS:-10000}
EDGES=${EDGES:-1}
WORKERS=${WORKERS:-1}
DIRECT=${DIRECT:-0}
PIN=${PIN:-0}
BATCH=${BATCH:-}
server_cpu=() others_cpu=() boards_cpu=() viewer_cpu=()
if [ "$PIN" = 1 ]; then
  server_cpu=(taskset -c 0)
  others_cpu=(taskset -c "1-$(($(nproc) - 1))")
  boards_cpu=("${others_cpu[@]}")
elif [ "$PIN" = 2 ]; then
  # the boards' side (the server, loadgen's boards) on core 0, the
  # viewers' side (the edge, loadgen's viewers' thread) on core 1
  server_cpu=(taskset -c 0)
  others_cpu=(taskset -c 1)
  boards_cpu=(taskset -c 0)
  viewer_cpu=(--viewer-cpu 1)
fi
need_xqref

tmp=$(mktemp -d /tmp/xq-edge-bench.XXXXXX)
dirs=()
cleanup() {
  kill_tracked
  for d in "${dirs[@]+"${dirs[@]}"}"; do bash "$root/scripts/edge.sh" stop "$d" || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

"$XQREF" bench --gen-pgn "$((BOARDS * 2))" "$tmp/games.pgn" 11 >/dev/null
# fixed loopback ports for the edges: edge e listens on 28080 + 10e, its
# publisher on 28081 + 10e; xqref posts to the first
pub=(--publish http://127.0.0.1:28091/pub/)
[ -z "$BATCH" ] || pub+=(--publish-batch "$BATCH")
[ "$DIRECT" != 1 ] || pub=()
SERVE_WRAP=("${server_cpu[@]+"${server_cpu[@]}"}")
serve_start "$tmp/b.db" "$tmp/serve.out" --demo --players "$((BOARDS * 2))" --http 127.0.0.1:0 \
  "${pub[@]+"${pub[@]}"}" || die "the server did not start ($tmp/serve.out.err)"
json=$JSON http=$HTTP

urls=()
if [ "$DIRECT" = 1 ]; then
  sse=(--sse "$VIEWERS" --http "$http")
else
  for e in $(seq 1 "$EDGES"); do
    redis=()
    [ "$EDGES" = 1 ] || { [ "$e" = 1 ] && redis=(--redis 26379) || redis=(--join-redis 127.0.0.1:26379); }
    "${others_cpu[@]}" bash "$root/scripts/edge.sh" up --xqref "$http" --listen "127.0.0.1:$((28080 + 10 * e))" \
      --publish "127.0.0.1:$((28081 + 10 * e))" --workers "$WORKERS" "${redis[@]}" >"$tmp/edge$e.out"
    dirs+=("$(sed -n 's/^dir //p' "$tmp/edge$e.out")")
    urls+=(--viewer-url "http://127.0.0.1:$((28080 + 10 * e))/api/events")
  done
  sse=(--sse "$VIEWERS" "${urls[@]}")
fi

echo "== $BOARDS boards, $RATE moves/s each, ${DURATION} s; $VIEWERS SSE viewers on $([ "$DIRECT" = 1 ] && echo "the server" || echo "$EDGES edge(s), $WORKERS nginx worker(s) each")"
"${boards_cpu[@]}" "$XQREF" loadgen "${viewer_cpu[@]}" --connect "$json" --tokens "$tmp/serve.out" --boards "$BOARDS" --games "$tmp/games.pgn" \
  --min-plies 40 --rate "$RATE" --duration "$DURATION" "${sse[@]}" || echo "(loadgen: exit status $?)"
if [ "$DIRECT" != 1 ]; then
  for e in $(seq 1 "$EDGES"); do
    exec 3<>"/dev/tcp/127.0.0.1/$((28081 + 10 * e))"
    printf 'GET /nchan_status HTTP/1.0\r\n\r\n' >&3
    echo "edge $e: $(grep -E '^(total published messages|subscribers):' <&3 | tr '\n' ' ')"
    exec 3>&-
  done
fi
# the server's CPU time (user + system) over the whole run
awk -v hz="$(getconf CLK_TCK)" '{printf "xqref: %.2f s of CPU\n", ($14 + $15) / hz}' "/proc/$SERVER_PID/stat"
serve_stop || true
grep -E 'publish: [0-9]+ events posted|committed' "$tmp/serve.out.err" | sed 's/^[0-9:.]* /xqref: /'
