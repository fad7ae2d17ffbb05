#!/usr/bin/env bash
# run_diff.sh [--expect RC] [--input FILE] TALLY PROG.elf [ARGS...]
#
# Differential test: runs PROG.elf with ARGS on tally (`TALLY run`) and on
# QEMU (scripts/qemu-run.sh), and passes only if
#   - both exit with the same status, and that status is RC (default 0);
#   - both print exactly the same bytes on stdout.
# Both get the same standard input (FILE, default /dev/null).
#
# Exit status: 0 pass, 1 fail, 77 skip (QEMU not installed; CTest's
# SKIP_RETURN_CODE). A missing tally binary is a failure, not a skip.
#
# Environment: QEMU_SYSTEM_RISCV32 (QEMU binary), DIFF_TIMEOUT (seconds per
# run, default 120).
set -u

here=$(cd "$(dirname "$0")" && pwd)
qemu_run=$here/../../scripts/qemu-run.sh
expect=0
input=/dev/null
while [ $# -gt 0 ]; do
  case $1 in
    --expect) expect=$2; shift 2 ;;
    --input) input=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "run_diff.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  echo "usage: run_diff.sh [--expect RC] [--input FILE] TALLY PROG.elf [ARGS...]" >&2
  exit 2
fi
tally=$1
elf=$2
shift 2
limit=${DIFF_TIMEOUT:-120}
qemu=${QEMU_SYSTEM_RISCV32:-qemu-system-riscv32}

if ! command -v "$qemu" >/dev/null 2>&1; then
  echo "run_diff.sh: SKIP: $qemu not found (Debian package qemu-system-misc)"
  exit 77
fi
if [ ! -x "$tally" ] || [ -d "$tally" ]; then
  echo "run_diff.sh: FAIL: tally binary '$tally' is missing or not executable"
  exit 1
fi
if [ ! -r "$elf" ]; then
  echo "run_diff.sh: FAIL: program '$elf' is missing (not built?)"
  exit 1
fi
if [ ! -r "$input" ]; then
  echo "run_diff.sh: FAIL: input file '$input' is missing"
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tally-diff.XXXXXX")
trap 'rm -rf "$work"' EXIT

timeout --kill-after=5 "$limit" "$tally" run "$elf" "$@" <"$input" >"$work/tally.out" 2>"$work/tally.err"
trc=$?
QEMU_TIMEOUT=$limit "$qemu_run" "$elf" "$@" <"$input" >"$work/qemu.out" 2>"$work/qemu.err"
qrc=$?

what="$(basename "$elf")${*:+ $*}"
fail=0
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
  echo "FAIL: QEMU did not finish $what within ${limit}s"
  fail=1
elif [ "$trc" -eq 124 ] || [ "$trc" -eq 137 ]; then
  echo "FAIL: tally did not finish $what within ${limit}s"
  fail=1
fi
if [ "$trc" -ne "$qrc" ]; then
  echo "FAIL: exit status differs: tally $trc, QEMU $qrc"
  fail=1
fi
if [ "$qrc" -ne "$expect" ]; then
  echo "FAIL: QEMU exit status $qrc, expected $expect"
  fail=1
fi
if ! cmp -s "$work/tally.out" "$work/qemu.out"; then
  echo "FAIL: stdout differs (--- QEMU, +++ tally):"
  diff -u --label qemu --label tally "$work/qemu.out" "$work/tally.out" | head -n 40
  if diff -q <(tr -d '\r' <"$work/qemu.out") <(tr -d '\r' <"$work/tally.out") >/dev/null; then
    echo "(the outputs differ only in carriage returns)"
  fi
  fail=1
fi
if [ "$fail" -ne 0 ]; then
  echo "--- tally stderr (last lines):"
  tail -n 15 "$work/tally.err"
  echo "--- QEMU stderr (last lines):"
  tail -n 15 "$work/qemu.err"
  echo "--- QEMU stdout (last lines):"
  tail -n 5 "$work/qemu.out"
  exit 1
fi
lines=$(wc -l <"$work/qemu.out")
echo "PASS: $what: exit status $qrc and $lines lines of output identical on tally and QEMU"
tail -n 3 "$work/qemu.out"
exit 0
