#!/usr/bin/env bash
# records-corpus.sh - read every game record of a collection with xqref and
# count what reads and what does not.
#
#   bash bench/records-corpus.sh DIR [XQREF]
#
# DIR is a directory of game records (a public archive you fetched
# yourself; this script downloads nothing): every *.xqf, *.pgn, *.htm,
# *.html and *.dhtml file under it, in any letter case. XQREF is the binary
# (default build/xqref beside this script's repository).
#
# Each file is read by `xqref stats FILE --no-judge` or, with JUDGE=1, read
# and judged (`xqref stats FILE`). Printed: per format, the files, the games
# in them, the games read, the bad ones and the files holding a bad one
# (with JUDGE=1 also the rulings that agree and differ with the record);
# then every class of error and warning (the message with numbers, move
# texts and positions blanked), with its count and one file as an example.
# With LIST=1 every message is printed as well ("file<TAB>message").
set -u

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
dir=${1:?usage: records-corpus.sh DIR [XQREF]}
XQREF=${2:-$XQREF}
xqref=$XQREF
need_xqref
[ -d "$dir" ] || die "$dir is not a directory"
judge=--no-judge
[ "${JUDGE:-0}" = 1 ] && judge=

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

find "$dir" -type f \( -iname '*.xqf' -o -iname '*.pgn' -o -iname '*.htm' -o -iname '*.html' \
  -o -iname '*.dhtml' \) -print0 | sort -z >"$tmp/files"

# One line per file: format, games read, bad ones, ruled-agree,
# ruled-differ, exit status, ruled-without-a-recorded-result; the messages (errors and warnings) go to errs
# as "file<TAB>message".
while IFS= read -r -d '' f; do
  case "${f,,}" in
  *.xqf) fmt=xqf ;;
  *.pgn) fmt=pgn ;;
  *) fmt=dhtmlxq ;;
  esac
  out=$("$xqref" stats "$f" $judge 2>"$tmp/err")
  rc=$?
  games=$(awk '$1 == "games" {print $2}' <<<"$out")
  bad=$(awk '$1 == "bad" {print $2}' <<<"$out")
  agree=$(awk '/agrees with the record/ {print $NF}' <<<"$out")
  differ=$(awk '/differs from the record/ {print $NF}' <<<"$out")
  unrec=$(awk '/the record has no result/ {print $NF}' <<<"$out")
  if [ -z "$games" ]; then # the file could not be opened at all
    games=0
    bad=1
  fi
  printf '%s %s %s %s %s %s %s\n' "$fmt" "$games" "$bad" "${agree:-0}" "${differ:-0}" "$rc" \
    "${unrec:-0}" >>"$tmp/counts"
  prefix="xqref stats: $f: "
  while IFS= read -r line; do
    printf '%s\t%s\n' "$f" "${line#"$prefix"}" >>"$tmp/errs"
  done <"$tmp/err"
done <"$tmp/files"

[ -s "$tmp/counts" ] || { echo "records-corpus.sh: no record files under $dir" >&2; exit 1; }
echo "collection: $dir"
awk '{f[$1]++; g[$1] += $2; b[$1] += $3; a[$1] += $4; d[$1] += $5; u[$1] += $7; if ($3 > 0) bf[$1]++}
     END {
       printf "%-8s %7s %8s %8s %6s %10s\n", "format", "files", "games", "read", "bad", "bad files"
       for (k in f) printf "%-8s %7d %8d %8d %6d %10d\n", k, f[k], g[k] + b[k], g[k], b[k], bf[k]
       if ("'"$judge"'" == "")
         for (k in f) printf "%-8s ruled: %d agree, %d differ, %d with no recorded result\n", k, a[k], d[k], u[k]
     }' "$tmp/counts"

[ -s "$tmp/errs" ] || { echo "no errors or warnings"; exit 0; }
echo
echo "classes of errors and warnings (count, class, example file):"
# blank what varies from record to record: numbers, quoted texts, positions
awk -F'\t' '{
  m = $2
  sub(/^game [0-9]+, line [0-9]+(, ply [0-9]+)?: /, "", m)
  gsub(/\047[^\047]*\047/, "\047…\047", m)
  gsub(/"[^"]*"/, "\"…\"", m)
  gsub(/ in [^ ]*\/[^ ]*( [wb])?/, " in FEN", m)
  gsub(/[a-i][0-9][a-i][0-9]/, "MOVE", m)
  gsub(/[0-9]+/, "N", m)
  n[m]++
  if (!(m in ex)) ex[m] = $1
} END { for (m in n) printf "%6d  %s\n        e.g. %s\n", n[m], m, ex[m] }' "$tmp/errs" | \
  awk 'NR % 2 == 1 {c = $0; next} {print c "\t" $0}' | sort -t$'\t' -k1,1nr | tr '\t' '\n'
if [ "${LIST:-0}" = 1 ]; then
  echo
  echo "messages:"
  cat "$tmp/errs"
fi
