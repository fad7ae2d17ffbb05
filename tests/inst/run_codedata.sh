#!/usr/bin/env bash
# run_codedata.sh TALLY PICODEFAULT.elf SELFREAD.elf
#
# tally inst on programs linked with picolibc's own default linker script
# (docs/tally-inst.md, "Code and data", "Code that reads itself", the
# summary, exit status 74):
#  1. picodefault: the summary's sites by tactic equal the rows of --report
#     (counted here), its output size is the file's; without
#     --semihost-files rw the instrumented run cannot write bbcount.out and
#     ends with status 74, saying so, not with the program's status;
#  2. selfread: instrumented in `target` only, tally inst warns of the
#     three reads of target's bytes through pointers formed outside the
#     reading block (a loop of main, a callee given the pointer, a pointer
#     in the read-only data), in --report too, and the instrumented
#     program does print other sums (the reads are real); instrumented in
#     main only (no site in target), no warning and the same output.
set -u
tally=$1; pico=$2; sr=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work"

# 1. the summary against the report, the output's size, status 74
"$tally" inst --points bb --tool bbcount --report "$pico" -o pd.elf >report 2>summary || fail "tally inst exit $?"
cat summary
rows=$(grep -cE '^0x[0-9a-f]{8} ' report)
jumps=$(grep -E '^0x[0-9a-f]{8} ' report | grep -cE '  jump  ')
traps=$(grep -E '^0x[0-9a-f]{8} ' report | grep -cE '  trap  ')
grep -q ": $rows sites: $jumps jump (a jal to a trampoline), $traps trap" summary \
  || fail "summary does not say $rows sites, $jumps jump, $traps trap (the report's rows)"
size=$(stat -c %s pd.elf)
python3 -c "import sys; sys.exit('output: {:,} bytes'.format(int(sys.argv[1])) not in open('summary').read())" "$size" \
  || fail "summary's output size is not the file's $size bytes"
"$tally" inst -q --points bb --tool bbcount "$pico" -o q.elf 2>quiet || fail "tally inst -q exit $?"
[ ! -s quiet ] || fail "-q still printed: $(cat quiet)"
"$tally" run --timeout 30 pd.elf >ro.out 2>&1; rc=$?
[ $rc = 74 ] || fail "without --semihost-files rw: exit $rc, not 74"
grep -q "bbcount: cannot create bbcount.out" ro.out && grep -q "exit status 74 instead of the program's" ro.out \
  || fail "without --semihost-files rw: no message: $(cat ro.out)"

# an instrumented program can still be read for its symbols (its jal
# sites cover halves of instructions: no refusal), and is refused as input
mkdir rw && (cd rw && "$tally" run --semihost-files rw --timeout 30 ../pd.elf >/dev/null 2>&1)
"$tally" inst --show rw/bbcount.out "$pico" >show.orig || fail "--show against the original: exit $?"
"$tally" inst --show rw/bbcount.out pd.elf >show.inst || fail "--show against the instrumented program: exit $?"
cmp -s show.orig show.inst || fail "--show differs between the original and the instrumented program"
"$tally" inst --points bb pd.elf -o again.elf 2>again.err && fail "an instrumented program instrumented again"
grep -q "already instrumented" again.err || fail "instrumenting twice: $(cat again.err)"

# 2. reads of its own code through pointers formed elsewhere
"$tally" run --timeout 30 "$sr" >orig.out 2>&1 || fail "selfread fails uninstrumented"
"$tally" inst --points bb --functions target --report "$sr" -o sr.elf >sr.report 2>sr.err || fail "tally inst exit $?"
cat sr.err
n=$(grep -c '^tally inst: warning: ' sr.err)
[ "$n" = 3 ] || fail "$n warnings, want 3 (a loop, a callee, a pointer in the data)"
grep -q 'warning: the instruction at 0x[0-9a-f]* (main+0x[0-9a-f]*) reads code through a pointer to 0x[0-9a-f]* (target) formed at' sr.err \
  || fail "no warning for the loop in main"
grep -q 'warning: the call at 0x[0-9a-f]* (main+0x[0-9a-f]*) passes a pointer to 0x[0-9a-f]* (target) .* to sum_bytes, which reads memory through it' sr.err \
  || fail "no warning for the call to sum_bytes"
[ "$(grep -c '^warning: ' sr.report)" = 3 ] || fail "--report does not list the 3 warnings"
"$tally" run --timeout 30 sr.elf >sr.out 2>&1
cmp -s orig.out sr.out && fail "the instrumented program prints the same sums: the reads warned of are not real"
"$tally" inst --points bb --functions main "$sr" -o main.elf 2>main.err || fail "tally inst (main) exit $?"
grep -q warning main.err && fail "a warning with no site in target: $(cat main.err)"
"$tally" run --timeout 30 main.elf >main.out 2>&1
cmp -s orig.out main.out || fail "instrumented in main only, the output differs"
echo "PASS: summary = report ($rows sites), status 74 without rw, 3 self-reads warned of"
