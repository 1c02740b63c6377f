#!/usr/bin/env bash
# compare-fsf.sh - differential test of xqref's AXF repetition rulings
# against Fairy-Stockfish (variant xiangqi, its chasing and perpetual-check
# rules).
#
# Fairy-Stockfish (fairy-stockfish/Fairy-Stockfish, GPL-3.0) is only run:
# this script builds nothing, downloads nothing and contains none of its
# code. Build it yourself, outside this repository, e.g. in /work/ext/fsf:
#   - the Python binding: `python3 setup.py build_ext --inplace` in the
#     clone (needs python3-dev); pass the clone's directory as --pyffish;
#   - or the engine: `make -j2 build ARCH=x86-64-modern largeboards=yes` in
#     src/; pass the binary as --engine (it is asked in the xboard
#     protocol, where it claims a repetition result on `go`).
#
# The cases (bench/compare_fsf.py, its board and move generator in
# bench/fsf_board.py) end on the third occurrence of a position:
#   random    a random legal position and a random cycle of 4, 6 or 8 plies
#             played twice, each side's moves biased towards checks and
#             towards moves that make a capture possible (chases);
#   mutation  a case of tests/data/rules/*.jsonl (AXF) with one piece added,
#             removed or moved off the points its moves use, the moves still
#             legal and the third occurrence still on the last move.
# Every tenth random position's legal moves are checked against
# Fairy-Stockfish's first. Fairy-Stockfish's ruling becomes each case's
# "expect", `xqref judge --cases FILE --verbose` rules the file, and the
# script prints the agreement (by origin and by pair of rulings) and every
# disagreement with xqref's class of each move of the cycle.
#
# --self-test runs the generator without Fairy-Stockfish: xqref must accept
# every case move by move and rule it on its last move (scripts/test.sh runs
# `bash bench/compare-fsf.sh --self-test --cases 300`).
#
# Settings (environment variable, or the equivalent option):
#   PYFFISH   --pyffish DIR    directory holding the pyffish module you built
#   FSF       --engine PATH    or the engine binary (largeboards build)
#   XQREF     --xqref PATH     xqref binary (default build/xqref)
#   CASES     --cases N        number of cases (default 10000)
#   MUTATIONS --mutations F    share of mutated case-file cases (default 0.3)
#   SEED      --seed N         random seed (default 1)
#   KEEP      --keep FILE      keep the case file (Fairy-Stockfish's rulings)
#
# Example: bash bench/compare-fsf.sh --pyffish /work/ext/fsf --cases 10000

set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PYFFISH=${PYFFISH:-}
FSF=${FSF:-}
CASES=${CASES:-10000}
MUTATIONS=${MUTATIONS:-0.3}
SEED=${SEED:-1}
KEEP=${KEEP:-}
SELFTEST=0


while [[ $# -gt 0 ]]; do
    case $1 in
        --pyffish) need_arg "$@"; PYFFISH=$2; shift 2 ;;
        --engine) need_arg "$@"; FSF=$2; shift 2 ;;
        --xqref) need_arg "$@"; XQREF=$2; shift 2 ;;
        --cases) need_arg "$@"; CASES=$2; shift 2 ;;
        --mutations) need_arg "$@"; MUTATIONS=$2; shift 2 ;;
        --seed) need_arg "$@"; SEED=$2; shift 2 ;;
        --keep) need_arg "$@"; KEEP=$2; shift 2 ;;
        --self-test) SELFTEST=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done

[[ -x $XQREF ]] || die "no xqref binary at $XQREF (build it, or pass --xqref)"
args=(--xqref "$XQREF" --root "$REPO_ROOT" --cases "$CASES" --mutations "$MUTATIONS"
      --seed "$SEED")
if [[ $SELFTEST == 1 ]]; then
    args+=(--self-test)
elif [[ -n $FSF ]]; then
    [[ -x $FSF ]] || die "no Fairy-Stockfish engine at $FSF"
    args+=(--engine "$FSF")
elif [[ -n $PYFFISH ]]; then
    compgen -G "$PYFFISH/pyffish*.so" >/dev/null || die "no pyffish module in $PYFFISH"
    args+=(--pyffish "$PYFFISH")
else
    die "give the Fairy-Stockfish build: --pyffish DIR or --engine PATH"
fi
[[ -n $KEEP ]] && args+=(--keep "$KEEP")
exec python3 "$REPO_ROOT/bench/compare_fsf.py" "${args[@]}"
