#!/usr/bin/env bash
# The architecture rules that a compiler does not check (docs/architecture.md),
# checked on the source tree: scripts/check-layout.sh [ROOT]. Prints one line
# per breach and exits 1 when there is any; ctest runs it as `layout`.
#
#  1. Libraries hold no programs: no xq_*_main and no argv outside cli/
#     (and the test and fuzz harnesses).
#  2. No library function over XQ_FN_LINES_MAX lines (signature to closing
#     brace; the house style puts a function's braces alone in column 0).
#  3. Dependencies point one way: engine <- {records <- adjudicator,
#     tourney, perft} <- net <- clients, cli on top (tourney and perft use
#     the engine only, the adjudicator the engine and records); and only
#     net/ and clients/ include uv.h, only tourney/store/ includes sqlite3.h
#     (and holds SQL), only tourney/sheet/ libqrencode and libxlsxwriter,
#     only tourney/store/ and net/ libsodium, the engine includes no cJSON.
#  4. Every limit of the server is in net/netlimits.h, every limit of the
#     client programs in clients/clientlimits.h, every limit of the command
#     line in cli/cli.h: no other file of those folders defines an XQ_
#     constant.
#  5. A command-line option is a row of an option table (cli/opts.h): no
#     file of cli/ but opts.c compares a word with an option's name (the
#     words before any table, --help, -h and --version, aside).
#  6. In cli/ and clients/, a function that files share (xq__) is named
#     after the file that defines it: xq__<file>_... in <file>.c.
#  7. The rooms of net/: each header declares only what its room's files
#     define, is included only by the files that use it, and the rooms
#     below (conn.c, commit.c, fanout.c, jobs.c, the parsers) include no
#     header of a room above them.
#  8. A function of net/x.c that other files call is named xq__x_...
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
XQ_FN_LINES_MAX=${XQ_FN_LINES_MAX:-120}
libs=(engine records adjudicator tourney net clients perft)
bad=0
say() { echo "layout: $*"; bad=1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

sources() { # DIR...: the C files under these folders
  for d in "$@"; do [ -d "$d" ] && find "$d" -name '*.[ch]'; done | sort
}

# 1. programs
out=$(sources "${libs[@]}" | xargs grep -nHE '\bxq_[a-z0-9_]*_main\b|\bargv\b' |
  sed -n '1,40s/^\([^:]*:[0-9]*\):/layout: \1: command-line code in a library: /p')
[ -n "$out" ] && { echo "$out"; bad=1; }

# 2. function length
out=$(sources "${libs[@]}" | grep '\.c$' | xargs awk -v max="$XQ_FN_LINES_MAX" '
  FNR == 1 { sig = ""; start = 0; inbody = 0 }
  !inbody && /^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ { sig = $0; start = FNR }
  !inbody && /^\{[[:space:]]*$/ && start { inbody = 1; next }
  inbody && /^\}/ {
    n = FNR - start + 1
    if (n > max) {
      name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
      printf "layout: %s:%d: %s is %d lines (at most %d)\n", FILENAME, start, name, n, max
    }
    inbody = 0; start = 0
  }')
[ -n "$out" ] && { echo "$out"; bad=1; }

# 3. dependencies: the modules each module may include
declare -A may=(
  [engine]="engine"
  [records]="engine records"
  [adjudicator]="engine records adjudicator"
  [tourney]="engine tourney"
  [net]="engine records adjudicator tourney net"
  [clients]="engine records adjudicator tourney net clients"
  [perft]="engine perft"
)
declare -A home=() # header file name -> module
for m in "${libs[@]}"; do
  while IFS= read -r h; do home[$(basename "$h")]=$m; done < <(sources "$m" | grep '\.h$')
done
# the project's headers each library file includes: "FILE<tab>HEADER"
while IFS=$'\t' read -r f inc; do
  m=${f%%/*}
  [ -f "${f%/*}/$inc" ] && continue # a header of its own folder
  dep=${home[${inc##*/}]:-}
  [ -z "$dep" ] && continue
  [[ " ${may[$m]} " == *" $dep "* ]] || say "$f: includes $inc of $dep/ ($m/ may use: ${may[$m]})"
done < <(sources "${libs[@]}" | xargs awk 'match($0, /^#include "[^"]*"/) { print FILENAME "\t" substr($0, 11, RLENGTH - 11) }')
# the libraries only some rooms use: "PATTERN;FOLDERS ALLOWED (globs);WHY"
while IFS=';' read -r pat allowed why; do
  while IFS= read -r f; do
    ok=0
    for g in $allowed; do [[ $f == $g ]] && ok=1; done
    [ $ok = 1 ] || say "$f: $why"
  done < <(sources "${libs[@]}" | xargs grep -lE "^#include <($pat)>" || true)
done <<'RULES'
uv\.h;net/* clients/*;includes uv.h (only net/ and clients/ run libuv)
cjson/cJSON\.h;records/* adjudicator/* tourney/* net/* clients/* perft/*;the engine includes cJSON
(qrencode|xlsxwriter)\.h;tourney/sheet/*;includes libqrencode or libxlsxwriter (only tourney/sheet/ prints)
sodium\.h;tourney/store/* net/*;includes sodium.h (only tourney/store/ and net/ use libsodium)
sqlite3\.h;tourney/store/*;includes sqlite3.h (only tourney/store/ opens SQLite)
RULES
out=$(sources "${libs[@]}" | grep -v '^tourney/store/' |
  xargs grep -nHE '"[^"]*\b(SELECT|INSERT INTO|UPDATE [a-z_]+ SET|DELETE FROM|CREATE TABLE)\b' |
  sed 's/^\([^:]*:[0-9]*\):.*/layout: \1: SQL outside tourney\/store\//')
[ -n "$out" ] && { echo "$out"; bad=1; }

# 4. the limits of the server, of the client programs and of the command line
for m in net:netlimits.h clients:clientlimits.h cli:cli.h; do
  sources "${m%%:*}" | grep -v "/${m#*:}\$" | xargs awk -v hdr="${m#*:}" '
    /^#define XQ_[A-Z][A-Z0-9_]*[[:space:]]+[-(0-9A-Z]/ {
      printf "layout: %s:%d: a limit outside %s: %s\n", FILENAME, FNR, hdr, $0
    }'
done >"$tmp"
[ -s "$tmp" ] && { cat "$tmp"; bad=1; }

# 5. options are table rows
out=$(sources cli | grep '\.c$' | grep -v '^cli/opts\.c$' |
  xargs grep -HnoE 'strcmp\([^,;]*, *"--?[A-Za-z][^"]*"' | grep -vE '"(--help|-h|--version)"$' |
  sed -E 's/^([^:]*):([0-9]*):(.*)/layout: \1:\2: an option read outside its table (cli\/opts.h): \3/')
[ -n "$out" ] && { echo "$out"; bad=1; }

# 6. cross-file internals named by their file
out=$(sources cli clients | grep '\.c$' | xargs awk '
  FNR == 1 { base = FILENAME; sub(/.*\//, "", base); sub(/\.c$/, "", base) }
  /^[A-Za-z][A-Za-z0-9_ *]*[ *]xq__[a-z0-9_]+\(/ && !/^static / && !/;[[:space:]]*$/ {
    name = $0; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
    if (index(name, "xq__" base "_") != 1)
      printf "layout: %s:%d: %s is shared between files: name it xq__%s_...\n", FILENAME, FNR, name, base
  }')
[ -n "$out" ] && { echo "$out"; bad=1; }

# 4b. no library keeps a named limit in a .c file: each is in its
#     module's header, in the limits block
out=$(sources "${libs[@]}" cli | grep '\.c$' | xargs grep -nE '^#define XQ_[A-Z][A-Z0-9_]*[[:space:]]+[-(0-9A-Z]' |
  sed 's/^\([^:]*:[0-9]*\):/layout: \1: a limit in a .c file (put it in its module'"'"'s header): /')
[ -n "$out" ] && { echo "$out"; bad=1; }

# 7. the rooms of net/: each header declares what the files of its room
#    define (one header per room, not one for all); each is included only
#    by the files that use that room; and the rooms below -- the
#    transport, the durability queue, the fan-out thread, the job pool,
#    the parsers -- call the rooms above them only through the callbacks
#    they are given: they include no header of those rooms.
declare -A room=(
  [internal.h]="server.c log.c" [conn.h]="conn.c buf.c turns.c" [proto.h]="proto.c reply.c field.c batch.c"
  [ops.h]="ops_engine.c ops_game.c ops_tourney.c ops_players.c ops_settings.c ops_ko.c ops_team.c ops_export.c ops_slips.c ops_desk.c poller.c"
  [task.h]="task.c" [jobs.h]="jobs.c" [live.h]="live.c live_json.c live_pgn.c" [commit.h]="commit.c"
  [hub.h]="hub.c" [fanout.h]="fanout.c" [publish.h]="publish.c" [http.h]="http.c http_api.c embed_web.cmake"
  [http_parse.h]="http_parse.c" [answers.h]="answers.c" [ingest.h]="ingest.c" [poller.h]="poller.c" [url.h]="url.c"
  [apply.h]="apply.c" [delay.h]="delay.c"
)
declare -A users=( # who may include a room's header besides its own files (any net file: "*")
  [internal.h]="*" [net.h]="*" [netlimits.h]="*" [conn.h]="*" [proto.h]="*" [ops.h]="proto.c http_api.c"
  [task.h]="ops_game.c ops_tourney.c ops_ko.c ops_team.c ops_players.c ops_settings.c ops_export.c ops_slips.c ops_desk.c"
  [jobs.h]="task.h ops_engine.c ops_tourney.c" [apply.h]="ops_tourney.c ops_players.c"
  [live.h]="*" [answers.h]="live.c server.c http.c ops_tourney.c ops_team.c" [commit.h]="*" [hub.h]="*" [delay.h]="*" [fanout.h]="hub.c" [publish.h]="hub.c server.c"
  [http.h]="server.c" [http_parse.h]="http.h http.c http_api.c poller.c publish.c" [ingest.h]="http_api.c poller.c server.c"
  [poller.h]="server.c" [url.h]="poller.c publish.c"
)
declare -A below=( # the headers a room below may include
  [conn.c]="internal.h conn.h netlimits.h net.h" [commit.c]="internal.h commit.h" [buf.c]="conn.h" [turns.c]="internal.h conn.h" [answers.c]="answers.h internal.h netlimits.h"
  [fanout.c]="internal.h conn.h fanout.h" [jobs.c]="internal.h conn.h jobs.h"
  [http_parse.c]="http_parse.h netlimits.h" [url.c]="url.h net.h netlimits.h"
)
# what each file of net/ defines: "NAME FILE" (functions, tables, protos)
netdefs=$(awk '
  /^[A-Za-z_][A-Za-z0-9_ *]*[ *]xq__?[a-z0-9_]+(\(| =|\[)/ && !/\);[ \t]*$/ {
    s = $0; sub(/(\(| =|\[).*/, "", s); sub(/.*[ *]/, "", s)
    f = FILENAME; sub(/.*\//, "", f); print s, f
  }
  /xq__web_assets\[\] =/ { print "xq__web_assets embed_web.cmake" }' net/*.c net/embed_web.cmake)
declare -A defined=() # name -> the files that define it
while read -r n f; do [ -n "$n" ] && defined[$n]+="$f "; done <<<"$netdefs"
for h in "${!room[@]}"; do
  [ -f "net/$h" ] || { say "net/$h: no such header (the rooms of check-layout.sh)"; continue; }
  # every function and table the header declares is defined in its room
  sed -n 's/^[A-Za-z_][^(;=]*[ *]\(xq_[a-z0-9_]*\)(.*/\1/p; s/^extern [^;]*[ *]\(xq_[a-z0-9_]*\)\(\[\]\)*;.*/\1/p' "net/$h" | sort -u |
    while IFS= read -r fn; do
      where=${defined[$fn]:-}
      ok=0
      for w in $where; do [[ " ${room[$h]} " == *" $w "* ]] && ok=1; done
      [ $ok = 1 ] || echo "layout: net/$h: declares $fn, which its room (${room[$h]}) does not define"
    done
done | grep . && bad=1
for f in net/*.c net/*.h; do
  b=$(basename "$f")
  while IFS= read -r inc; do
    [ -f "net/$inc" ] || continue
    [ -n "${below[$b]:-}" ] && [[ " ${below[$b]} " != *" $inc "* ]] &&
      say "$f: includes $inc, a room above it (it calls up only through the callbacks it is given)"
    [[ " ${room[$inc]:-} " == *" $b "* || "$inc" == "$b" ]] && continue
    u=${users[$inc]:-}
    [ "$u" = "*" ] || [[ " $u " == *" $b "* ]] || say "$f: includes $inc (only ${room[$inc]:-its room} ${u:+and $u })"
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done

# 8. cross-file internals of net/ are named after their file: a function
#    of net/x.c that other files call is xq__x_... (or xq__x)
for h in net/*.h; do
  sed -n 's/^[A-Za-z_][^(;=]*[ *]\(xq__[a-z0-9_]*\)(.*/\1/p' "$h"
done | sort -u | while IFS= read -r fn; do
  f=
  for w in ${defined[$fn]:-}; do [[ $w == *.c ]] && { f=$w; break; }; done
  [ -z "$f" ] && continue
  stem=${f%.c}
  case $fn in "xq__${stem}_"*|"xq__${stem}") ;; *) echo "layout: net/$f: $fn is shared with other files: name it xq__${stem}_...";; esac
done | grep . && bad=1

if [ "$bad" -ne 0 ]; then exit 1; fi
echo "layout: ok (${#libs[@]} modules, functions at most $XQ_FN_LINES_MAX lines)"
