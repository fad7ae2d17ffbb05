#!/usr/bin/env bash
# run_inst.sh [--qemu] [--tactic T] [--trace-ref] TALLY PROG.elf POINTS TOOL [ARGS...]
#
# --trace-ref: the law's reference is a text trace of the original (every
# retired instruction's pc) instead of its Callgrind profile, for programs
# with code that has no symbol.
#
# TOOL bbcount-all is bbcount with --bbcount all (a counter in every block);
# bbcount alone derives most counts by flow conservation (the default).
#
# (tally run sizes its RAM from the instrumented ELF by itself.)
# Transparency of `tally inst`: PROG instrumented at POINTS with TOOL must
# print the same output and exit with the same status as PROG itself, on
# tally and (with --qemu, when qemu-system-riscv32 is installed) on QEMU.
# With TOOL bbcount, the counts it writes must equal tally's exact
# per-instruction counts of the original (check_bbcount.py), and QEMU's
# bbcount.out must be byte for byte tally's.
# Exit 0 pass, 1 fail, 77 skipped (QEMU asked for but missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
qemu=0
tactic=auto
traceref=0
while [ $# -gt 0 ]; do
  case $1 in
    --qemu) qemu=1; shift ;;
    --tactic) tactic=$2; shift 2 ;;
    --trace-ref) traceref=1; shift ;;
    *) break ;;
  esac
done
tally=$(realpath "$1"); prog=$(realpath "$2"); points=$3; tool=$4; shift 4
mode=flow # bbcount-all: bbcount with a counter in every block (--bbcount all)
if [ "$tool" = bbcount-all ]; then tool=bbcount; mode=all; fi

if [ $qemu = 1 ] && ! command -v "${QEMU_SYSTEM_RISCV32:-qemu-system-riscv32}" >/dev/null 2>&1; then
  echo "SKIP: qemu-system-riscv32 not installed"; exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# orig.elf and inst.elf: the same path length, since argv[0] is the path and
# start-up code scans the command line (its counts depend on its length)
cp "$prog" "$work/orig.elf"
"$tally" inst --points "$points" --tool "$tool" --bbcount $mode --tactic "$tactic" "$work/orig.elf" -o "$work/inst.elf" \
  || fail "tally inst exit $?"
prog=$work/orig.elf

# the original on tally, with its exact profile for the law
mkdir "$work/orig" "$work/tally" "$work/qemu"
if [ $traceref = 1 ]; then
  (cd "$work/orig" && "$tally" run --trace cg.out --trace-count 100000000 "$prog" "$@" >/dev/null 2>&1)
else
  (cd "$work/orig" && "$tally" profile --callgrind cg.out "$prog" "$@" >/dev/null 2>&1)
fi
(cd "$work/orig" && "$tally" run "$prog" "$@" >out 2>&1); want_rc=$?
(cd "$work/tally" && "$tally" run --semihost-files rw "$work/inst.elf" "$@" >out 2>&1); got_rc=$?
diff -u "$work/orig/out" "$work/tally/out" || fail "instrumented output differs on tally"
[ "$want_rc" = "$got_rc" ] || fail "exit status $got_rc on tally, the original's is $want_rc"

if [ "$tool" = bbcount ]; then
  [ -f "$work/tally/bbcount.out" ] || fail "no bbcount.out written on tally"
  python3 "$here/check_bbcount.py" "$work/tally/bbcount.out" "$work/orig/cg.out" || fail "bbcount law"
fi

if [ $qemu = 1 ]; then
  (cd "$work/qemu" && QEMU_EXTRA_ARGS="-m 256M -device loader,addr=0x88001000,cpu-num=0" \
     "$root/scripts/qemu-run.sh" "$work/inst.elf" "$@" >out 2>&1); q_rc=$?
  diff -u "$work/orig/out" "$work/qemu/out" || fail "instrumented output differs on QEMU"
  [ "$want_rc" = "$q_rc" ] || fail "exit status $q_rc on QEMU, the original's is $want_rc"
  if [ "$tool" = bbcount ]; then
    cmp "$work/tally/bbcount.out" "$work/qemu/bbcount.out" || fail "QEMU's bbcount.out differs from tally's"
  fi
fi
echo "PASS: $(basename "$prog") $* at $points with $tool, exit $want_rc"
