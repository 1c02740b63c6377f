#!/usr/bin/env bash
# records-corpus.sh - read every game record of a collection with xqref and
# count what reads and what does not.
#
#   bash bench/records-corpus.sh DIR [XQREF]
#
# DIR is a directory of game records (a public archive you fetched
# yourself; this script downloads nothing): every file under it whose name
# ends in one of the record extensions below, in any letter case. XQREF is
# the binary (default build/xqref beside this script's repository).
#
# The files of each format (told by the extension) are read by `xqref
# stats --no-judge FILE...`, a few hundred at a time, or, with JUDGE=1, read
# and judged. Printed: per format, the files, the games in them, the games
# read, the bad ones, the files holding a bad one and the files of which no
# game reads (with JUDGE=1 also the rulings that agree and differ with the
# record); then every class of error and warning (the message with
# numbers, move texts and positions blanked), with its count and one file
# as an example. With LIST=1 every message is printed as well
# ("file<TAB>message").
set -u

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
dir=${1:?usage: records-corpus.sh DIR [XQREF]}
XQREF=${2:-$XQREF}
xqref=$XQREF
need_xqref
[ -d "$dir" ] || die "$dir is not a directory"
judge=--no-judge
[ "${JUDGE:-0}" = 1 ] && judge=
batch=${BATCH:-300}

# format name <- extensions (htm, html and dhtml are pages: DhtmlXQ, PGN
# or move lists; txt, wxf and ubb text: move lists, playok.com WXF, UBB, or
# no record at all)
formats='xqf:xqf pgn:pgn html:htm,html,dhtml text:txt,wxf,ubb cbl:cbl cbr:cbr cbf:cbf'
formats="$formats mxq:mxq che:che pfc:pfc"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

: >"$tmp/counts"
: >"$tmp/errs"
for spec in $formats; do
  fmt=${spec%%:*}
  args=()
  exts=${spec#*:}
  for ext in ${exts//,/ }; do args+=(-o -iname "*.$ext"); done
  args=("${args[@]:1}")
  find "$dir" -type f \( "${args[@]}" \) -print0 | sort -z >"$tmp/$fmt.files"
  [ -s "$tmp/$fmt.files" ] || continue
  files=$(tr -cd '\0' <"$tmp/$fmt.files" | wc -c)
  # shellcheck disable=SC2086
  xargs -0 -n "$batch" "$xqref" stats $judge <"$tmp/$fmt.files" >"$tmp/$fmt.out" 2>"$tmp/$fmt.err"
  awk -v fmt="$fmt" -v files="$files" '
    $1 == "games" {g += $2} $1 == "bad" {b += $2}
    /agrees with the record/ {a += $NF} /differs from the record/ {d += $NF}
    /the record has no result/ {u += $NF}
    END {print fmt, files, g + 0, b + 0, a + 0, d + 0, u + 0}' "$tmp/$fmt.out" >>"$tmp/counts"
  # "file<TAB>message" for every message, the file found by its extension
  sed -E 's/^xqref stats: //' "$tmp/$fmt.err" |
    awk -v exts="${spec#*:}" '
      BEGIN {n = split(exts, e, ","); re = ""
             for (i = 1; i <= n; i++) re = re (i > 1 ? "|" : "") "[.]" e[i]
             re = "^.*(" re "): "}
      {low = tolower($0)
       if (match(low, re)) print substr($0, 1, RLENGTH - 2) "\t" substr($0, RLENGTH + 1)
       else print "?\t" $0}' | sed "s/^/$fmt\t/" >>"$tmp/errs"
done

[ -s "$tmp/counts" ] || { echo "records-corpus.sh: no record files under $dir" >&2; exit 1; }
echo "collection: $dir"
# files with a bad game (an error that is no warning) and files of which
# no game reads, per format
awk -F'\t' '$3 !~ /warning:/ && $3 !~ /^no game read$/ {bad[$1 "\t" $2] = 1}
            $3 ~ /^no game read$/ || $3 ~ /^cannot open/ {none[$1]++}
            END {for (k in bad) {split(k, p, "\t"); bf[p[1]]++}
                 for (f in bf) print "bf", f, bf[f]; for (f in none) print "none", f, none[f]}' \
  "$tmp/errs" >"$tmp/files"
awk -v xf="$tmp/files" 'BEGIN {while ((getline l < xf) > 0) {split(l, p, " "); x[p[1] " " p[2]] = p[3]}}
     {f[$1] = $2; g[$1] = $3; b[$1] = $4; a[$1] = $5; d[$1] = $6; u[$1] = $7}
     END {
       printf "%-8s %7s %8s %8s %6s %10s %10s\n", "format", "files", "games", "read", "bad", \
         "bad files", "none read"
       for (k in f) printf "%-8s %7d %8d %8d %6d %10d %10d\n", k, f[k], g[k] + b[k], g[k], b[k], \
         x["bf " k], x["none " k]
       if ("'"$judge"'" == "")
         for (k in f) printf "%-8s ruled: %d agree, %d differ, %d with no recorded result\n", k, \
           a[k], d[k], u[k]
     }' "$tmp/counts"

[ -s "$tmp/errs" ] || { echo "no errors or warnings"; exit 0; }
echo
echo "classes of errors and warnings (count, class, example file):"
# blank what varies from record to record: numbers, quoted texts, positions
awk -F'\t' '{
  m = $3
  sub(/^game [0-9]+(, line [0-9]+)?(, ply [0-9]+)?: /, "", m)
  sub(/ \(and [0-9]+ more\)$/, "", m)
  gsub(/\047[^\047]*\047/, "\047…\047", m)
  gsub(/"[^"]*"/, "\"…\"", m)
  gsub(/ in [^ ]*\/[^ ]*( [wb])?/, " in FEN", m)
  gsub(/[a-i][0-9][a-i][0-9]/, "MOVE", m)
  gsub(/[0-9]+/, "N", m)
  n[m]++
  if (!(m in ex)) ex[m] = $2
} END { for (m in n) printf "%6d  %s\n        e.g. %s\n", n[m], m, ex[m] }' "$tmp/errs" | \
  awk 'NR % 2 == 1 {c = $0; next} {print c "\t" $0}' | sort -t$'\t' -k1,1nr | tr '\t' '\n'
if [ "${LIST:-0}" = 1 ]; then
  echo
  echo "messages:"
  cut -f2- "$tmp/errs"
fi
