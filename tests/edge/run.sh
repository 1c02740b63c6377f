#!/usr/bin/env bash
# The edge test (docs/scale.md): `xqref serve --publish` in front of
# nginx + nchan started by scripts/edge.sh on loopback, VIEWERS viewers
# (default 1000, `xqref loadgen --viewer-url`) on the edge while boards
# play:
#   1. one edge (nchan's memory): every viewer gets the same stream, and it
#      is the server's own stream (a direct subscriber's), event for event,
#      in order; xqref posted each event once; a viewer that reconnects with
#      Last-Event-ID (or ?last_event=) gets exactly what it missed; the
#      JSON API is cached by the edge, the page and the 400 of a bad round
#      come through;
#   2. two edges sharing Redis: the server posts to the first; the viewers,
#      half on each, all get the server's stream; an id from one edge
#      resumes on the other.
# Skips (exit 0, and says so) only when nginx, its nchan module or
# redis-server is not installed; scripts/install-deps.sh --test installs
# them.
#
#   bash tests/edge/run.sh [BUILD_DIR]      (default: build)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$(cd "${1:-build}" && pwd)"
xqref=$build/xqref
edge=$root/scripts/edge.sh
VIEWERS=${VIEWERS:-1000}
BOARDS=8

say() { echo "edge test: $*"; }
die() { echo "edge test: FAILED: $*" >&2; exit 1; }
[ -x "$xqref" ] || die "no $xqref (build first)"
for need in "${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}" "${REDIS_SERVER:-$(command -v redis-server || echo /usr/bin/redis-server)}"; do
  [ -x "$need" ] || { say "skipped: $need is not installed (scripts/install-deps.sh --test)"; exit 0; }
done
[ -f "${NCHAN:-/usr/lib/nginx/modules/ngx_nchan_module.so}" ] ||
  { say "skipped: the nchan module is not installed (libnginx-mod-nchan)"; exit 0; }
command -v curl >/dev/null || die "curl is needed (scripts/install-deps.sh --test)"
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ $((VIEWERS + 256)) -gt "$hard" ]; then
  VIEWERS=$((hard - 256))
  say "the open-file limit is $hard: $VIEWERS viewers"
fi

tmp=$(mktemp -d /tmp/xqref-edge-test.XXXXXX)
pids=()
edges=()     # the edges' directories (scripts/edge.sh makes them in /tmp)
cleanup() {
  for p in "${pids[@]+"${pids[@]}"}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]+"${pids[@]}"}"; do wait "$p" 2>/dev/null || true; done
  for d in "${edges[@]+"${edges[@]}"}"; do [ -d "$d" ] && bash "$edge" stop "$d" || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# edge_up ARGS...: scripts/edge.sh up; sets $dir to the edge's directory
edge_up() {
  bash "$edge" up "$@" >"$tmp/edge.out" || die "scripts/edge.sh up $*"
  dir=$(sed -n 's/^dir //p' "$tmp/edge.out")
  edges+=("$dir")
}

# a loopback port nobody listens on (what refuses a connection is free),
# below the range the system takes its clients' ports from
lowest=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
[ "$lowest" -gt 12000 ] || lowest=32768
free_port() {
  local p
  while :; do
    p=$((10000 + RANDOM % (lowest - 10000)))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
}

wait_for() { # FILE PATTERN: within 10 s
  local i
  for i in $(seq 1 200); do
    grep -q -- "$2" "$1" 2>/dev/null && return 0
    sleep 0.05
  done
  die "$1: no '$2' after 10 s"
}

# expand FILE [K]: the event and data lines of a stream, after its K-th
# message (an "id:" line each; K 0: all), each event of an edge's batch
# (docs/scale.md: a data line "TYPE DATA" each) as the server writes it
expand() {
  awk -v skip="${2:-0}" '
    function out() {
      if (!msg) return
      if (++m > skip) for (i = 1; i <= nl; i++) print l[i]
      nl = 0; msg = 0; ev = ""
    }
    /^id: /    { msg = 1; next }
    /^event: / { ev = substr($0, 8); if (ev != "batch") l[++nl] = $0; next }
    /^data: /  { if (ev == "batch") { t = substr($0, 7); j = index(t, " ");
                   l[++nl] = "event: " substr(t, 1, j - 1); l[++nl] = "data: " substr(t, j + 1) }
                 else l[++nl] = $0
                 if (!skip) msg = 1; next }
    /^$/       { out() }
    END        { out() }' "$1"
}
events() { expand "$1" 0; }

"$xqref" bench --gen-pgn 64 "$tmp/games.pgn" 7 >/dev/null

# serve NAME PUBLISH_PORT [OPTIONS]: a fresh demo server posting to the
# port; sets $json and $http to its addresses
serve() {
  local name=$1 port=$2
  shift 2
  "$xqref" serve --db "$tmp/$name.db" --demo --listen 127.0.0.1:0 --http 127.0.0.1:0 \
    --publish "http://127.0.0.1:$port/pub/" "$@" >"$tmp/$name.out" 2>"$tmp/$name.log" &
  pids+=($!)
  wait_for "$tmp/$name.out" '^http '
  json=$(sed -n 's/^json //p' "$tmp/$name.out")
  http=$(sed -n 's/^http //p' "$tmp/$name.out")
}

# stream NAME URL [CURL OPTIONS]: follow an event stream into NAME.txt
stream() {
  local name=$1 url=$2
  shift 2
  curl -sN -H 'Accept: text/event-stream' "$@" "$url" >"$tmp/$name.txt" &
  pids+=($!)
}

# play NAME URL...: the boards of NAME's server, VIEWERS viewers on the
# URLs in turn; the report in NAME.loadgen, the first viewer's stream in
# NAME.viewer
play() {
  local name=$1 args=()
  shift
  for u in "$@"; do args+=(--viewer-url "$u"); done
  if ! "$xqref" loadgen --connect "$json" --tokens "$tmp/$name.out" --boards "$BOARDS" --games "$tmp/games.pgn" \
       --min-plies 30 --rate 5 --duration 2 --sse "$VIEWERS" "${args[@]}" --viewer-log "$tmp/$name.viewer" \
       >"$tmp/$name.loadgen" 2>"$tmp/$name.loadgen.err"; then
    cat "$tmp/$name.loadgen" "$tmp/$name.loadgen.err" >&2
    die "loadgen through the edge ($name)"
  fi
  grep -q "sse streams: $VIEWERS viewers, .* exactly: $VIEWERS of $VIEWERS" "$tmp/$name.loadgen" ||
    { cat "$tmp/$name.loadgen" >&2; die "not every viewer got the same stream ($name)"; }
}

# same A B WHAT: the event lines of streams A and B are the same
same() {
  diff <(events "$1") <(events "$2") >"$tmp/diff" || { head -20 "$tmp/diff" >&2; die "$3"; }
}

# the id of the K-th message (1-based) of FILE
id_of() { awk -v k="$2" '/^id: /{if (++n == k) {print $2; exit}}' "$1"; }
# the event lines after the K-th message of FILE
events_after() { expand "$1" "$2"; }
# the messages of FILE (an event, or a batch of them)
messages() { grep -c '^id: ' "$1" || true; }

# ---- one edge --------------------------------------------------------------
pub1=$(free_port)
serve one "$pub1"
l1=$(free_port)
edge_up --xqref "$http" --listen "127.0.0.1:$l1" --publish "127.0.0.1:$pub1"
edge1=$dir
stream direct "http://$http/api/events?last_event=0"
stream edge1 "http://127.0.0.1:$l1/api/events"
stream edge1r1 "http://127.0.0.1:$l1/api/events?round=1"
wait_for "$tmp/direct.txt" '^retry:'
wait_for "$tmp/edge1.txt" '^: hi'
wait_for "$tmp/edge1r1.txt" '^: hi'
play one "http://127.0.0.1:$l1/api/events"
n=$(events "$tmp/direct.txt" | grep -c '^data:')
[ "$n" -ge $((BOARDS * 5)) ] || die "only $n events on the direct stream"
same "$tmp/direct.txt" "$tmp/one.viewer" "the edge's viewers did not get the server's stream"
same "$tmp/direct.txt" "$tmp/edge1.txt" "the edge's stream is not the server's"
same "$tmp/direct.txt" "$tmp/edge1r1.txt" "the edge's round 1 stream is not the server's"
say "one edge: $VIEWERS viewers, each of them the server's $n events in order, once ($(grep -o 'fewest [0-9]* most [0-9]*' "$tmp/one.loadgen"))"
grep 'delivery latency' "$tmp/one.loadgen" | sed 's/^/edge test:   /'

# a viewer that saw the first k messages and comes back gets the rest
m=$(messages "$tmp/edge1.txt")
k=$((m / 2))
id=$(id_of "$tmp/edge1.txt" "$k")
[ -n "$id" ] || die "no id for message $k"
curl -sN --max-time 1 -H 'Accept: text/event-stream' -H "Last-Event-ID: $id" \
  "http://127.0.0.1:$l1/api/events" >"$tmp/resumed.txt" || true
diff <(events_after "$tmp/edge1.txt" "$k") <(events "$tmp/resumed.txt") >"$tmp/diff" ||
  { head -20 "$tmp/diff" >&2; die "Last-Event-ID $id did not give what followed it"; }
curl -sN --max-time 1 -H 'Accept: text/event-stream' "http://127.0.0.1:$l1/api/events?last_event=$id" \
  >"$tmp/resumed2.txt" || true
same "$tmp/resumed.txt" "$tmp/resumed2.txt" "?last_event= did not resume as Last-Event-ID"
say "Last-Event-ID $id (message $k of $m, $n events): the $(events "$tmp/resumed.txt" | grep -c '^data:') events after it, in order"

# the API through the edge: cached, the page, a bad round
for i in 1 2; do curl -s -o /dev/null -D "$tmp/h$i" "http://127.0.0.1:$l1/api/rounds/1/games.json"; done
grep -qi '^X-Cache: HIT' "$tmp/h2" || { cat "$tmp/h1" "$tmp/h2" >&2; die "games.json was not cached by the edge"; }
curl -sf -o "$tmp/page.html" "http://127.0.0.1:$l1/" && grep -q '<html' "$tmp/page.html" ||
  die "the page does not come through the edge"
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$l1/api/events?round=x")" = 400 ] ||
  die "a round that is not a number is not refused"

# xqref posted each event once, whatever the number of viewers
kill "${pids[0]}"
wait "${pids[0]}" 2>/dev/null || true
grep -q "publish: $n events posted, 0 refused by the edge, 0 dropped (queue full), 0 written again" "$tmp/one.log" ||
  { grep publish "$tmp/one.log" >&2; die "xqref did not post each of the $n events once"; }
say "xqref posted $n events, each once, for $VIEWERS viewers"
bash "$edge" stop "$edge1"

# ---- two edges over Redis ----------------------------------------------------
redis=$(free_port)
pub2=$(free_port)
pub3=$(free_port)
serve two "$pub2"
l2=$(free_port)
l3=$(free_port)
edge_up --xqref "$http" --listen "127.0.0.1:$l2" --publish "127.0.0.1:$pub2" --redis "$redis"
edge_up --xqref "$http" --listen "127.0.0.1:$l3" --publish "127.0.0.1:$pub3" --join-redis "127.0.0.1:$redis"
stream direct2 "http://$http/api/events?last_event=0"
stream edge2 "http://127.0.0.1:$l2/api/events"
stream edge3 "http://127.0.0.1:$l3/api/events"
wait_for "$tmp/direct2.txt" '^retry:'
wait_for "$tmp/edge2.txt" '^: hi'
wait_for "$tmp/edge3.txt" '^: hi'
play two "http://127.0.0.1:$l2/api/events" "http://127.0.0.1:$l3/api/events"
n2=$(events "$tmp/direct2.txt" | grep -c '^data:')
[ "$n2" -ge $((BOARDS * 5)) ] || die "only $n2 events on the second server's stream"
same "$tmp/direct2.txt" "$tmp/two.viewer" "the viewers of the Redis edges did not get the server's stream"
same "$tmp/direct2.txt" "$tmp/edge2.txt" "the first Redis edge's stream is not the server's"
same "$tmp/direct2.txt" "$tmp/edge3.txt" "the second Redis edge's stream is not the server's"
say "two edges over Redis: $VIEWERS viewers, half on each, each of them the server's $n2 events in order, once"
grep -E '^  at ' "$tmp/two.loadgen" | sed 's/^/edge test: /'
m=$(messages "$tmp/edge2.txt")
k=$((m / 2))
id=$(id_of "$tmp/edge2.txt" "$k")
curl -sN --max-time 1 -H 'Accept: text/event-stream' -H "Last-Event-ID: $id" \
  "http://127.0.0.1:$l3/api/events" >"$tmp/resumed3.txt" || true
diff <(events_after "$tmp/edge2.txt" "$k") <(events "$tmp/resumed3.txt") >"$tmp/diff" ||
  { head -20 "$tmp/diff" >&2; die "an id of the first edge did not resume on the second"; }
say "an id of the first edge resumes on the second: the $(events "$tmp/resumed3.txt" | grep -c '^data:') events after message $k of $m"

# ---- a delayed broadcast through the edge ------------------------------------
# serve --delay 2: the edge's stream and its cached games.json show a move
# no earlier than 2 s after the board sent it, and then show it
pub4=$(free_port)
serve three "$pub4" --delay 2
l4=$(free_port)
edge_up --xqref "$http" --listen "127.0.0.1:$l4" --publish "127.0.0.1:$pub4"
stream edge4 "http://127.0.0.1:$l4/api/events"
wait_for "$tmp/edge4.txt" '^: hi'
token=$(awk '$1 == "board" && $2 == 1 && $3 == 1 { print $4 }' "$tmp/three.out")
exec 5<>"/dev/tcp/127.0.0.1/${json##*:}"
echo "{\"id\":0,\"op\":\"hello\",\"token\":\"$token\"}" >&5
read -r -t 10 reply <&5 && [[ $reply == *'"ok":true'* ]] || die "the board's hello: $reply"
sent=$(date +%s%N)
echo '{"id":1,"op":"move","seq":1,"move":"h2e2"}' >&5
read -r -t 10 reply <&5 && [[ $reply == *'"ok":true'* ]] || die "the board's move: $reply"
ply1() { # is ply 1 of table 1 in the edge's stream, or its games.json (through its cache)?
  events "$tmp/edge4.txt" | grep -q '"ply":1,' && return 0
  curl -s "http://127.0.0.1:$l4/api/rounds/1/games.json" | grep -q '"moves":\["h2e2"'
}
shown=
for i in $(seq 1 300); do
  now=$(date +%s%N)
  if ply1; then shown=$now; break; fi
  sleep 0.05
done
exec 5>&-
[ -n "$shown" ] || die "the delayed move never reached the edge's viewers"
# (what was seen at $shown arrived before it: earlier than 2 s is a breach)
[ $(( (shown - sent) / 1000000 )) -ge 1995 ] || die "the edge showed the move $(( (shown - sent) / 1000000 )) ms after it was sent"
sleep 0.2
events "$tmp/edge4.txt" | grep -q '"ply":1,' || die "the delayed move is not in the edge's stream"
say "a 2 s delay: the edge's viewers got the move $(( (shown - sent) / 1000000 )) ms after the board sent it"
say "passed in ${SECONDS} s"
