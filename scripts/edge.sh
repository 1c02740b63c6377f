#!/usr/bin/env bash
# edge.sh -- start or stop an xqref edge on this machine (docs/scale.md):
# Debian's nginx with the nchan module, configured from deploy/nginx/ into
# a directory of its own (pid, logs, cache and temporary files: no root
# needed), and, when asked, a redis-server on loopback for the channels.
# Nothing is downloaded.
#
#   scripts/edge.sh up [--xqref HOST:PORT] [--listen HOST:PORT] [--publish HOST:PORT]
#                      [--redis PORT | --join-redis HOST:PORT] [--workers N]
#                      [--conns N] [--dir DIR]
#   scripts/edge.sh stop DIR
#
# up: --xqref is the server's --http (default 127.0.0.1:8080); viewers
# connect to --listen (default 127.0.0.1:8090); `xqref serve --publish`
# posts to --publish (default 127.0.0.1:8091). --redis PORT starts a
# redis-server on 127.0.0.1:PORT in DIR and keeps the channels there;
# --join-redis uses one already running (a second edge). --workers (1)
# and --conns (connections a worker holds, 16384) size nginx. DIR
# defaults to a new /tmp/xqref-edge.XXXXXX (started by root, nginx's
# workers run as nobody: DIR must be reachable by nobody). Prints, one a
# line:
#   dir DIR
#   edge http://LISTEN/
#   publish http://PUBLISH/pub/
#   redis HOST:PORT              (with --redis or --join-redis)
# stop: ends the nginx (and the redis-server) started in DIR, by the pids
# they wrote there, and removes DIR. An `up` that fails ends what it
# started and keeps DIR (its logs say why).
#
# Exit status: 0; 2 for bad usage; 3 when nginx, the nchan module or
# redis-server is not installed (scripts/install-deps.sh --test installs
# them); 1 when something did not start (DIR/error.log says why).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
NCHAN=${NCHAN:-/usr/lib/nginx/modules/ngx_nchan_module.so}
REDIS_SERVER=${REDIS_SERVER:-$(command -v redis-server || echo /usr/bin/redis-server)}

die() { echo "edge.sh: $*" >&2; exit "${2:-1}"; }
usage() { sed -n '7,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

# alive PID: the process runs (a zombie waiting for init to reap it does not)
alive() {
  [ -r "/proc/$1/stat" ] || return 1
  [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" != Z ]
}

# wait_gone PID SECONDS: until the process has ended
wait_gone() {
  local i
  for i in $(seq 1 $(($2 * 20))); do
    alive "$1" || return 0
    sleep 0.05
  done
  return 1
}

# fill TEMPLATE OUT NAME=VALUE...: the template with each @NAME@ replaced
# (outside comments, which keep naming them)
fill() {
  local in=$1 out=$2 expr=() kv
  shift 2
  for kv in "$@"; do expr+=(-e "/^[[:space:]]*#/!s|@${kv%%=*}@|${kv#*=}|g"); done
  sed "${expr[@]}" "$in" >"$out"
  ! grep -n '@[A-Z]*@' "$out" | grep -v '^[0-9]*:#' >&2 || die "$out: a name left unfilled"
}

# probe HOST:PORT: 0 when a subscriber of the publisher's probe channel
# gets a post within half a second. nchan with Redis can lose the first
# subscribers it takes in the first moments after it starts; once a probe
# went through, it does not.
probe() {
  local host=${1%:*} port=${1##*:} line got=1
  exec 3<>"/dev/tcp/$host/$port" || return 1
  printf 'GET /nchan_probe HTTP/1.1\r\nHost: edge\r\nAccept: text/event-stream\r\n\r\n' >&3
  # the stream has begun at nchan's first comment line
  while IFS= read -r -t 1 line <&3; do [[ $line == :* ]] && break; done
  if exec 4<>"/dev/tcp/$host/$port"; then
    printf 'POST /pub/probe HTTP/1.1\r\nHost: edge\r\nContent-Length: 5\r\nConnection: close\r\n\r\nprobe' >&4
    cat <&4 >/dev/null
    exec 4>&-
    while IFS= read -r -t 0.5 line <&3; do [[ $line == data:* ]] && { got=0; break; }; done
  fi
  exec 3>&-
  return $got
}

# end DIR: end the nginx and the redis-server started in DIR, by their pids
end() {
  local pid f
  for f in nginx.pid redis.pid; do
    [ -s "$1/$f" ] || continue
    pid=$(cat "$1/$f")
    kill -TERM "$pid" 2>/dev/null || true
    wait_gone "$pid" 10 || { kill -KILL "$pid" 2>/dev/null || true; }
    rm -f "$1/$f"
  done
}

stop() {
  [ -d "$1" ] || die "no edge directory $1"
  [ -f "$1/edge.dir" ] || die "$1 is not an edge directory (no edge.dir)"
  end "$1"
  rm -rf "$1"
}

up() {
  local xqref=127.0.0.1:8080 listen=127.0.0.1:8090 publish=127.0.0.1:8091 redis="" redis_port=""
  local workers=1 conns=16384 dir=""
  while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || usage
    case $1 in
      --xqref) xqref=$2 ;;
      --listen) listen=$2 ;;
      --publish) publish=$2 ;;
      --redis) redis_port=$2; redis=127.0.0.1:$2 ;;
      --join-redis) redis=$2 ;;
      --workers) workers=$2 ;;
      --conns) conns=$2 ;;
      --dir) dir=$2 ;;
      *) usage ;;
    esac
    shift 2
  done
  [ -x "$NGINX" ] || die "nginx is not installed (apt-get install nginx libnginx-mod-nchan)" 3
  [ -f "$NCHAN" ] || die "the nchan module is not installed (apt-get install libnginx-mod-nchan)" 3
  if [ -n "$redis_port" ]; then
    [ -x "$REDIS_SERVER" ] || die "redis-server is not installed (apt-get install redis-server)" 3
  fi
  if [ -z "$dir" ]; then dir=$(mktemp -d /tmp/xqref-edge.XXXXXX); else mkdir -p "$dir"; fi
  if [ -s "$dir/nginx.pid" ] && alive "$(cat "$dir/nginx.pid")"; then
    die "an edge runs in $dir already (scripts/edge.sh stop $dir)"
  fi
  dir=$(cd "$dir" && pwd)
  touch "$dir/edge.dir"
  # nginx's workers run as nobody when started by root: they write the
  # cache and temporary files in DIR, which they must reach
  chmod 755 "$dir"
  if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null && ! runuser -u nobody -- test -x "$dir"; then
    die "$dir: nginx's workers (nobody) cannot reach it: give a --dir they can reach, or none" 2
  fi
  mkdir -p "$dir/conf.d" "$dir/tmp" "$dir/cache"
  # a descriptor a connection, within this process's hard limit
  local nofile=$((conns + 256)) hard
  hard=$(ulimit -Hn)
  if [ "$hard" != unlimited ] && [ "$nofile" -gt "$hard" ]; then
    nofile=$hard
    conns=$((hard - 256))
  fi
  fill "$root/deploy/nginx/nginx.conf.in" "$dir/nginx.conf" DIR="$dir" NCHAN="$NCHAN" \
    WORKERS="$workers" CONNS="$conns" NOFILE="$nofile"
  local store=""
  [ -z "$redis" ] || store="nchan_redis_pass xqref_redis;"
  fill "$root/deploy/nginx/xqref-edge.conf.in" "$dir/conf.d/xqref-edge.conf" XQREF="$xqref" \
    LISTEN="$listen" PUBLISH="$publish" CACHE="$dir/cache" STORE="$store"
  if [ -n "$redis" ]; then
    fill "$root/deploy/nginx/xqref-redis.conf.in" "$dir/conf.d/xqref-redis.conf" REDIS="$redis"
  fi
  if [ -n "$redis_port" ]; then
    "$REDIS_SERVER" --bind 127.0.0.1 --port "$redis_port" --dir "$dir" --daemonize yes \
      --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --save "" --appendonly no \
      >/dev/null || { cat "$dir/redis.log" >&2 2>/dev/null; end "$dir"; die "redis-server did not start"; }
    local i
    for i in $(seq 1 100); do [ -s "$dir/redis.pid" ] && break; sleep 0.05; done
    [ -s "$dir/redis.pid" ] || { end "$dir"; die "redis-server did not start ($dir/redis.log)"; }
  fi
  # nginx checks the configuration, binds and goes to the background: its
  # sockets listen when it returns
  if ! "$NGINX" -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" 2>"$dir/start.err"; then
    cat "$dir/start.err" >&2
    tail -5 "$dir/error.log" >&2
    end "$dir"
    die "nginx did not start ($dir/error.log)"
  fi
  for i in $(seq 1 100); do [ -s "$dir/nginx.pid" ] && break; sleep 0.05; done
  [ -s "$dir/nginx.pid" ] || { end "$dir"; die "nginx did not start ($dir/error.log)"; }
  local passed=""
  for i in $(seq 1 10); do probe "$publish" && { passed=1; break; }; done
  [ -n "$passed" ] || { end "$dir"; die "the edge does not pass messages on ($dir/error.log)"; }
  echo "dir $dir"
  echo "edge http://$listen/"
  echo "publish http://$publish/pub/"
  [ -z "$redis" ] || echo "redis $redis"
}

case ${1:-} in
  up) shift; up "$@" ;;
  stop) [ $# -eq 2 ] || usage; stop "$2" ;;
  *) usage ;;
esac
