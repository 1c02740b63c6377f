#!/usr/bin/env bash
# The architecture rules that a compiler does not check (docs/architecture.md),
# checked on the source tree: scripts/check-layout.sh [ROOT]. Prints one line
# per breach and exits 1 when there is any; ctest runs it as `layout`.
#
#  1. Libraries hold no programs: no xq_*_main and no argv outside cli/
#     (and the test and fuzz harnesses).
#  2. No library function over XQ_FN_LINES_MAX lines (signature to closing
#     brace; the house style puts a function's braces alone in column 0).
#  3. Dependencies point one way: engine <- records <- adjudicator <- tourney
#     <- net <- clients, cli on top, perft on the engine only; and only
#     net/ and clients/ include uv.h, only tourney/store/ includes sqlite3.h
#     (and holds SQL), the engine includes no cJSON.
#  4. Every limit of the server is in net/netlimits.h, every limit of the
#     client programs in clients/clientlimits.h, every limit of the command
#     line in cli/cli.h: no other file of those folders defines an XQ_
#     constant.
#  5. A command-line option is a row of an option table (cli/opts.h): no
#     file of cli/ but opts.c compares a word with an option's name (the
#     words before any table, --help, -h and --version, aside).
#  6. In cli/ and clients/, a function that files share (xq__) is named
#     after the file that defines it: xq__<file>_... in <file>.c.
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
XQ_FN_LINES_MAX=${XQ_FN_LINES_MAX:-120}
libs=(engine records adjudicator tourney net clients perft)
bad=0
say() { echo "layout: $*"; bad=1; }

sources() { # DIR...: the C files under these folders
  for d in "$@"; do [ -d "$d" ] && find "$d" -name '*.[ch]'; done | sort
}

# 1. programs
while IFS= read -r f; do
  grep -nE '\bxq_[a-z0-9_]*_main\b|\bargv\b' "$f" | while IFS= read -r l; do
    echo "layout: $f:${l%%:*}: command-line code in a library: ${l#*:}"
  done
done < <(sources "${libs[@]}") | tee /tmp/xq-layout.$$ | sed -n '1,40p'
[ -s /tmp/xq-layout.$$ ] && bad=1
rm -f /tmp/xq-layout.$$

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
  [tourney]="engine records adjudicator tourney"
  [net]="engine records adjudicator tourney net"
  [clients]="engine records adjudicator tourney net clients"
  [perft]="engine perft"
)
declare -A home=() # header file name -> module
for m in "${libs[@]}"; do
  while IFS= read -r h; do home[$(basename "$h")]=$m; done < <(sources "$m" | grep '\.h$')
done
for m in "${libs[@]}"; do
  while IFS= read -r f; do
    while IFS= read -r inc; do
      [ -f "$(dirname "$f")/$inc" ] && continue # a header of its own folder
      h=$(basename "$inc")
      dep=${home[$h]:-}
      [ -z "$dep" ] && continue
      [[ " ${may[$m]} " == *" $dep "* ]] || say "$f: includes $inc of $dep/ ($m/ may use: ${may[$m]})"
    done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
    case $m in net|clients) ;; *) grep -q '^#include <uv.h>' "$f" && say "$f: includes uv.h (only net/ and clients/ run libuv)";; esac
    [ "$m" = engine ] && grep -q '^#include <cjson/cJSON.h>' "$f" && say "$f: the engine includes cJSON"
    case $f in tourney/store/*) ;; *)
      grep -q '^#include <sqlite3.h>' "$f" && say "$f: includes sqlite3.h (only tourney/store/ opens SQLite)"
      grep -nE '"[^"]*\b(SELECT|INSERT INTO|UPDATE [a-z_]+ SET|DELETE FROM|CREATE TABLE)\b' "$f" | head -3 |
        while IFS= read -r l; do echo "layout: $f:${l%%:*}: SQL outside tourney/store/"; done | grep . && bad=1
    esac
  done < <(sources "$m")
done

# 4. the limits of the server, of the client programs and of the command line
for m in net:netlimits.h clients:clientlimits.h cli:cli.h; do
  while IFS= read -r f; do
    [ "$(basename "$f")" = "${m#*:}" ] && continue
    grep -nE '^#define XQ_[A-Z][A-Z0-9_]*[[:space:]]+[-(0-9A-Z]' "$f" | while IFS= read -r l; do
      echo "layout: $f:${l%%:*}: a limit outside ${m#*:}: ${l#*:}"
    done | grep . && bad=1
  done < <(sources "${m%%:*}")
done

# 5. options are table rows
for f in $(sources cli | grep '\.c$' | grep -v '^cli/opts\.c$'); do
  grep -noE 'strcmp\([^,;]*, *"--?[A-Za-z][^"]*"' "$f" | grep -vE '"(--help|-h|--version)"$' |
    while IFS= read -r l; do echo "layout: $f:${l%%:*}: an option read outside its table (cli/opts.h): ${l#*:}"; done |
    grep . && bad=1
done

# 6. cross-file internals named by their file
for f in $(sources cli clients | grep '\.c$'); do
  base=$(basename "$f" .c)
  grep -nE '^[A-Za-z][A-Za-z0-9_ *]*[ *]xq__[a-z0-9_]+\(' "$f" | grep -v '^[0-9]*:static ' | grep -v ';[[:space:]]*$' |
    while IFS= read -r l; do
      name=$(sed -E 's/^[^(]*[ *](xq__[a-z0-9_]+)\(.*/\1/' <<<"${l#*:}")
      case $name in "xq__${base}_"*) ;; *) echo "layout: $f:${l%%:*}: $name is shared between files: name it xq__${base}_...";; esac
    done | grep . && bad=1
done

if [ "$bad" -ne 0 ]; then exit 1; fi
echo "layout: ok (${#libs[@]} modules, functions at most $XQ_FN_LINES_MAX lines)"
