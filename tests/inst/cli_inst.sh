#!/usr/bin/env bash
# cli_inst.sh TALLY PROG.elf [ARGS...]: the command line of `tally inst` (docs/tally-inst.md):
# help, usage errors (64), refusals (65), bad input (66), toolchain
# failures (70, with the compiler's message), never an output file left
# behind on failure; and a user analysis with --analysis/--call whose load
# count equals the load signal of tally's exact profile of the original.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tally=$(realpath "$1"); prog=$(realpath "$2"); shift 2  # the rest: PROG's arguments
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
check() { # check WANT_STATUS PATTERN ARGS...: status and a message matching PATTERN
  local want=$1 pat=$2; shift 2
  "$tally" inst "$@" >"$work/out" 2>&1; local got=$?
  if [ "$got" != "$want" ] || { [ -n "$pat" ] && ! grep -qE -- "$pat" "$work/out"; }; then
    echo "FAIL: tally inst $* -> $got (want $want, /$pat/):"; cat "$work/out"; fails=$((fails + 1))
  fi
  if [ "$want" != 0 ] && [ -e "$work/o.elf" ]; then
    echo "FAIL: tally inst $* left $work/o.elf behind"; fails=$((fails + 1)); rm -f "$work/o.elf"
  fi
}
check 0 "usage: tally inst" --help
check 64 "no output file" --points bb "$prog"
check 64 "nothing to instrument" "$prog" -o "$work/o.elf"
check 64 "unknown kind 'blocks'" --points blocks "$prog" -o "$work/o.elf"
check 64 "no function 'no_such_fn'" --before no_such_fn "$prog" -o "$work/o.elf"
check 64 "no instruction starts there" --before 0x80000001 "$prog" -o "$work/o.elf"
check 64 "--call 'f\(bogus\)'" --points bb --analysis "$here/loadcount.c" --call 'f(bogus)' "$prog" -o "$work/o.elf"
check 64 "no shipped tool 'nope'" --points bb --tool nope "$prog" -o "$work/o.elf"
check 64 "--bbcount: want flow or all, got 'some'" --points bb --tool bbcount --bbcount some "$prog" -o "$work/o.elf"
# --tactic jump needs the trampoline hole of target/tally.ld: refused without it
riscv64-unknown-elf-objcopy --remove-section .tally_inst_hole "$prog" "$work/nohole.elf"
check 65 "no trampoline is within reach of 0x[0-9a-f]{8}.*no trampoline hole" --points bb --tactic jump \
  "$work/nohole.elf" -o "$work/o.elf"
check 0 "" --points bb --tactic jump "$prog" -o "$work/o.elf"
[ -s "$work/o.elf" ] || { echo "FAIL: --tactic jump with a hole wrote no output"; fails=$((fails + 1)); }
rm -f "$work/o.elf"
echo "not an elf" >"$work/text.elf"
check 66 "not an ELF" --points bb "$work/text.elf" -o "$work/o.elf"
check 66 "cannot open" --points bb "$work/missing.elf" -o "$work/o.elf"
TALLY_RISCV_CC=/nonexistent/gcc check 70 "not found" --points bb "$prog" -o "$work/o.elf"
printf 'void f(void) { this is not C; }\n' >"$work/broken.c"
check 70 "broken.c:1:.*error" --points bb --analysis "$work/broken.c" --call 'f' "$prog" -o "$work/o.elf"
check 70 "undefined reference to .missing_fn" --points bb --analysis "$here/loadcount.c" --call 'missing_fn(pc)' \
  "$prog" -o "$work/o.elf"

# a user analysis: loads(pc, ea, sp) at every load
check 0 "" --points load --analysis "$here/loadcount.c" --call 'loads(pc,ea,reg:2)' --report "$prog" -o "$work/o.elf"
grep -q "trap" "$work/out" || { echo "FAIL: --report shows no tactic"; fails=$((fails + 1)); }
(cd "$work" && "$tally" run --semihost-files rw o.elf "$@" >run.out 2>&1) || { echo "FAIL: instrumented run"; cat "$work/run.out"; fails=$((fails + 1)); }
# p.elf and o.elf: argv[0] of the same length (start-up code loads each byte of the command line)
cp "$prog" "$work/p.elf"
(cd "$work" && "$tally" profile --csv prof.csv --signals instret,load p.elf "$@" >/dev/null 2>&1)
want=$(python3 - "$work/prof.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
col = next(k for k in rows[0] if k.startswith("load"))
print(sum(int(r[col]) for r in rows))
PY
)
got=$(cat "$work/loadcount.out" 2>/dev/null)
[ "$got" = "loads $want bad 0" ] || { echo "FAIL: loadcount.out '$got', tally profile says $want loads"; fails=$((fails + 1)); }

# an instrumented program is read (for --show) but not instrumented again
mv "$work/o.elf" "$work/i.elf"
check 65 "already instrumented" --points bb "$work/i.elf" -o "$work/o.elf"

# --show: bbcount at function entries; main runs once
check 0 "" --points func-entry --tool bbcount "$prog" -o "$work/o.elf"
mv "$work/o.elf" "$work/b.elf"
(cd "$work" && "$tally" run --semihost-files rw b.elf "$@" >/dev/null 2>&1 && "$tally" inst --show bbcount.out b.elf >show.out 2>&1)
grep -qE "^0x[0-9a-f]{8}  main +1$" "$work/show.out" || { echo "FAIL: --show:"; cat "$work/show.out"; fails=$((fails + 1)); }

[ $fails = 0 ] && echo "PASS: $fails failures" || exit 1
