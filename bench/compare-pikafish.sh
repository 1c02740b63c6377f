#!/usr/bin/env bash
# compare-pikafish.sh - perft speed comparison of xqref against Pikafish.
#
# Pikafish (the public official-pikafish/Pikafish repository, GPL-3.0) is used
# only as an external speed anchor: this script never builds, downloads or
# contains any Pikafish code; it just runs a binary you built yourself.
#
# Building the anchor (outside this repository, e.g. /work/anchors/pikafish):
#   - clone the public Pikafish repository;
#   - in its src/ directory create an empty placeholder file with the default
#     network name (pikafish.nnue), so the Makefile's network-download step
#     sees the file already exists and skips the download;
#   - build with `make -j2 build ARCH=x86-64-bmi2` (or the fastest ARCH your
#     CPU supports, e.g. x86-64-avx2 or x86-64-sse41-popcnt);
#   - because the placeholder is not a real network, `go perft` refuses to
#     run; locally change the anchor copy so that the perft path skips the
#     network verification (perft uses no evaluation at all).
# The default location of the resulting binary is given below (PIKAFISH).
#
# Timing mode (default):
#   Alternates runs, xqref then Pikafish, RUNS times each, timing each run's
#   wall clock with `date +%s.%N`.  Checks every run of both engines reports
#   the same node count (fails loudly otherwise).  Prints per-run times, the
#   median time and median nodes/s of each engine, and the ratio
#   (xqref nodes/s / Pikafish nodes/s).  Unless STARTUP=0 it also times a
#   depth-1 run of each RUNS times and prints startup-adjusted figures
#   (Pikafish needs roughly half a second to start, which matters at low
#   depth).
#
# Callgrind mode (--callgrind or CALLGRIND=1):
#   Runs both engines under `valgrind --tool=callgrind` at CG_DEPTH (default
#   4) and at depth 1, and prints instructions per leaf node:
#       (Ir(depth CG_DEPTH) - Ir(depth 1)) / (nodes(CG_DEPTH) - nodes(1))
#   Subtracting the depth-1 run removes process startup/teardown cost.
#
# Settings (environment variable, or the equivalent option):
#   PIKAFISH  --pikafish PATH  Pikafish binary (default ../anchors/pikafish/src/pikafish beside the repository)
#   XQREF     --xqref PATH     xqref binary (default build/xqref relative to repo root)
#   DEPTH     --depth N        perft depth for timing mode (default 6)
#   RUNS      --runs N         runs per engine in timing mode (default 5)
#   FEN       --fen FEN        position (default: the standard start position,
#                              spelled "startpos"; xqref then gets no --fen)
#   CALLGRIND --callgrind      1 = callgrind mode instead of timing mode
#   CG_DEPTH  --cg-depth N     perft depth in callgrind mode (default 4)
#   STARTUP   --no-startup     0 = skip the depth-1 startup measurement
#
# xqref is run as:   $XQREF perft --depth D --threads 1 [--fen "$FEN"]
#   and its last output line must begin "nodes N".
# Pikafish is fed:   position startpos|fen FEN / go perft D / quit
#   and must print "Nodes searched: N".

set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PIKAFISH=${PIKAFISH:-$REPO_ROOT/../anchors/pikafish/src/pikafish}
DEPTH=${DEPTH:-6}
RUNS=${RUNS:-5}
FEN=${FEN:-startpos}
CALLGRIND=${CALLGRIND:-0}
CG_DEPTH=${CG_DEPTH:-4}
STARTUP=${STARTUP:-1}

while [[ $# -gt 0 ]]; do
    case $1 in
        --pikafish) need_arg "$@"; PIKAFISH=$2; shift 2 ;;
        --pikafish=*) PIKAFISH=${1#*=}; shift ;;
        --xqref) need_arg "$@"; XQREF=$2; shift 2 ;;
        --xqref=*) XQREF=${1#*=}; shift ;;
        --depth) need_arg "$@"; DEPTH=$2; shift 2 ;;
        --depth=*) DEPTH=${1#*=}; shift ;;
        --runs) need_arg "$@"; RUNS=$2; shift 2 ;;
        --runs=*) RUNS=${1#*=}; shift ;;
        --fen) need_arg "$@"; FEN=$2; shift 2 ;;
        --fen=*) FEN=${1#*=}; shift ;;
        --callgrind) CALLGRIND=1; shift ;;
        --cg-depth) need_arg "$@"; CG_DEPTH=$2; shift 2 ;;
        --cg-depth=*) CG_DEPTH=${1#*=}; shift ;;
        --no-startup) STARTUP=0; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown argument '$1' (try --help)" ;;
    esac
done

is_posint() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }
is_posint "$DEPTH" || die "DEPTH must be a positive integer, got '$DEPTH'"
is_posint "$RUNS" || die "RUNS must be a positive integer, got '$RUNS'"
is_posint "$CG_DEPTH" || die "CG_DEPTH must be a positive integer, got '$CG_DEPTH'"
[[ -n $FEN ]] || FEN=startpos

check_bin() { # name path hint
    [[ -e $2 ]] || die "$1 binary not found at '$2' ($3)"
    [[ -f $2 && -x $2 ]] || die "$1 binary '$2' is not an executable file ($3)"
}
check_bin xqref "$XQREF" "build xqref first, or set XQREF / --xqref"
check_bin Pikafish "$PIKAFISH" "build the anchor as described at the top of $0, or set PIKAFISH / --pikafish"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/compare-pikafish.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# ---------------------------------------------------------------- runners
# Each runner takes: depth [wrapper words...]; it sets NODES and SECS.

xqref_cmd() { # depth -> XQ_CMD array
    XQ_CMD=("$XQREF" perft --depth "$1" --threads 1)
    if [[ $FEN != startpos ]]; then
        XQ_CMD+=(--fen "$FEN")
    fi
}

pika_input() { # depth
    if [[ $FEN == startpos ]]; then
        printf 'position startpos\ngo perft %s\nquit\n' "$1"
    else
        printf 'position fen %s\ngo perft %s\nquit\n' "$FEN" "$1"
    fi
}

show_failure() { # name outfile errfile
    {
        printf -- '--- last lines of %s stdout:\n' "$1"; tail -n 5 "$2" 2>/dev/null || true
        printf -- '--- last lines of %s stderr:\n' "$1"; tail -n 5 "$3" 2>/dev/null || true
    } >&2
}


run_xqref() { # depth [wrapper...]
    local d=$1; shift
    local out=$TMP/xq.out err=$TMP/xq.err t0 t1
    xqref_cmd "$d"
    t0=$(now)
    if ! "$@" "${XQ_CMD[@]}" >"$out" 2>"$err"; then
        show_failure xqref "$out" "$err"
        die "xqref failed: ${XQ_CMD[*]}"
    fi
    t1=$(now)
    SECS=$(elapsed "$t0" "$t1")
    NODES=$(tail -n 1 "$out" | awk '$1 == "nodes" { print $2 }')
    if ! [[ $NODES =~ ^[0-9]+$ ]]; then
        show_failure xqref "$out" "$err"
        die "could not read 'nodes N' from the last line of xqref's output"
    fi
}

run_pikafish() { # depth [wrapper...]
    local d=$1; shift
    local out=$TMP/pf.out err=$TMP/pf.err t0 t1
    t0=$(now)
    if ! pika_input "$d" | "$@" "$PIKAFISH" >"$out" 2>"$err"; then
        show_failure Pikafish "$out" "$err"
        die "Pikafish failed: $PIKAFISH (go perft $d)"
    fi
    t1=$(now)
    SECS=$(elapsed "$t0" "$t1")
    NODES=$(awk '/^Nodes searched:/ { n = $3 } END { print n }' "$out")
    if ! [[ $NODES =~ ^[0-9]+$ ]]; then
        show_failure Pikafish "$out" "$err"
        die "could not read 'Nodes searched: N' from Pikafish's output (is the network check skipped for perft?)"
    fi
}

div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) print "nan"; else printf "%.6f", a / b }'; }
mnps() { awk -v n="$1" -v t="$2" 'BEGIN { if (t <= 0) print "n/a"; else printf "%.2f", n / t / 1e6 }'; }

pos_label() { if [[ $FEN == startpos ]]; then echo "start position"; else echo "$FEN"; fi; }

echo "xqref:    $XQREF"
echo "Pikafish: $PIKAFISH"
echo "position: $(pos_label)"
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
[[ -z $cpu ]] || echo "cpu:      $cpu"

# ---------------------------------------------------------------- callgrind
if [[ $CALLGRIND == 1 ]]; then
    command -v valgrind >/dev/null 2>&1 || die "valgrind not found (needed for --callgrind)"
    echo "mode:     callgrind, perft $CG_DEPTH (minus perft 1 for startup)"
    echo

    cg_total_ir() { # callgrind output file -> total Ir
        local ir
        ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$1")
        [[ $ir =~ ^[0-9]+$ ]] || die "could not read total Ir from callgrind output $1"
        echo "$ir"
    }

    cg_measure() { # engine-name runner -> prints a line, sets IPL
        local name=$1 runner=$2 ir_d ir_1 n_d n_1 f
        f=$TMP/cg.$name.d$CG_DEPTH
        "$runner" "$CG_DEPTH" valgrind --tool=callgrind --callgrind-out-file="$f" -q
        n_d=$NODES; ir_d=$(cg_total_ir "$f")
        f=$TMP/cg.$name.d1
        "$runner" 1 valgrind --tool=callgrind --callgrind-out-file="$f" -q
        n_1=$NODES; ir_1=$(cg_total_ir "$f")
        (( n_d > n_1 )) || die "$name: perft $CG_DEPTH gave no more nodes than perft 1"
        IPL=$(awk -v a="$ir_d" -v b="$ir_1" -v n="$n_d" -v m="$n_1" \
            'BEGIN { printf "%.2f", (a - b) / (n - m) }')
        CG_NODES=$n_d
        printf '%-9s perft %s: nodes %s  Ir %s;  perft 1: nodes %s  Ir %s;  instr/leaf %s\n' \
            "$name" "$CG_DEPTH" "$n_d" "$ir_d" "$n_1" "$ir_1" "$IPL"
    }

    cg_measure xqref run_xqref;       xq_ipl=$IPL; xq_n=$CG_NODES
    cg_measure Pikafish run_pikafish; pf_ipl=$IPL; pf_n=$CG_NODES
    if [[ $xq_n != "$pf_n" ]]; then
        die "NODE COUNT MISMATCH at perft $CG_DEPTH: xqref $xq_n, Pikafish $pf_n"
    fi
    echo
    printf 'instr/leaf ratio (xqref / Pikafish): %s\n' \
        "$(awk -v a="$xq_ipl" -v b="$pf_ipl" 'BEGIN { printf "%.3f", a / b }')"
    exit 0
fi

# ---------------------------------------------------------------- timing
echo "mode:     wall-clock timing, perft $DEPTH, $RUNS runs each, alternating"
echo

xq_times=() pf_times=() xq_nps=() pf_nps=()
ref_nodes=
for ((i = 1; i <= RUNS; i++)); do
    run_xqref "$DEPTH"
    [[ -n $ref_nodes ]] || ref_nodes=$NODES
    [[ $NODES == "$ref_nodes" ]] ||
        die "NODE COUNT MISMATCH: xqref run $i gave $NODES, expected $ref_nodes"
    xq_times+=("$SECS"); xq_nps+=("$(div "$NODES" "$SECS")")
    printf 'run %d  xqref     %10.3f s  %8s Mnodes/s  nodes %s\n' "$i" "$SECS" "$(mnps "$NODES" "$SECS")" "$NODES"

    run_pikafish "$DEPTH"
    [[ $NODES == "$ref_nodes" ]] ||
        die "NODE COUNT MISMATCH: Pikafish run $i gave $NODES, xqref gave $ref_nodes"
    pf_times+=("$SECS"); pf_nps+=("$(div "$NODES" "$SECS")")
    printf 'run %d  Pikafish  %10.3f s  %8s Mnodes/s  nodes %s\n' "$i" "$SECS" "$(mnps "$NODES" "$SECS")" "$NODES"
done

xq_med_t=$(median "${xq_times[@]}"); pf_med_t=$(median "${pf_times[@]}")
xq_med_nps=$(median "${xq_nps[@]}"); pf_med_nps=$(median "${pf_nps[@]}")

echo
echo "nodes (both engines agree): $ref_nodes"
printf 'xqref     median %10.3f s  median %8.2f Mnodes/s\n' "$xq_med_t" "$(div "$xq_med_nps" 1e6)"
printf 'Pikafish  median %10.3f s  median %8.2f Mnodes/s\n' "$pf_med_t" "$(div "$pf_med_nps" 1e6)"
printf 'ratio (xqref nodes/s / Pikafish nodes/s): %.3f\n' "$(div "$xq_med_nps" "$pf_med_nps")"

if [[ $STARTUP != 0 ]]; then
    xq_st=() pf_st=()
    for ((i = 1; i <= RUNS; i++)); do
        run_xqref 1;    xq_st+=("$SECS")
        run_pikafish 1; pf_st+=("$SECS")
    done
    xq_med_st=$(median "${xq_st[@]}"); pf_med_st=$(median "${pf_st[@]}")
    xq_adj=$(awk -v a="$xq_med_t" -v b="$xq_med_st" 'BEGIN { printf "%.6f", a - b }')
    pf_adj=$(awk -v a="$pf_med_t" -v b="$pf_med_st" 'BEGIN { printf "%.6f", a - b }')
    echo
    echo "startup-adjusted (median time minus median perft-1 time):"
    printf 'xqref     startup %7.3f s  adjusted %10.3f s  %8s Mnodes/s\n' "$xq_med_st" "$xq_adj" "$(mnps "$ref_nodes" "$xq_adj")"
    printf 'Pikafish  startup %7.3f s  adjusted %10.3f s  %8s Mnodes/s\n' "$pf_med_st" "$pf_adj" "$(mnps "$ref_nodes" "$pf_adj")"
    if awk -v a="$xq_adj" -v b="$pf_adj" 'BEGIN { exit !(a > 0 && b > 0) }'; then
        printf 'adjusted ratio (xqref / Pikafish): %.3f\n' "$(div "$pf_adj" "$xq_adj")"
    else
        echo "adjusted ratio: n/a (run time not above startup time; use a larger DEPTH)"
    fi
fi
