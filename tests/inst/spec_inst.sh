#!/usr/bin/env bash
# spec_inst.sh TALLY PROG.elf
#
# tally inst --spec FILE: a spec file and the same options on the command
# line make byte-identical output ELFs (points, functions, range,
# before/after, tool; a user analysis whose relative path is the spec
# file's directory, with its call; a spec mixed with command-line options);
# a bad spec is exit 64/66 naming FILE:LINE, and leaves no output file.
set -u
tally=$(realpath "$1"); prog=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1
cp "$prog" prog.elf

# same(SPEC_TEXT, CMDLINE...): the spec's output and the command line's are one file
n=0
same() {
  n=$((n + 1))
  printf '%s\n' "$1" > "spec$n.txt"; shift
  "$tally" inst --spec "spec$n.txt" prog.elf -o "s$n.elf" || fail "spec $n: exit $?"
  "$tally" inst "$@" prog.elf -o "c$n.elf" || fail "command line $n: exit $?"
  cmp "s$n.elf" "c$n.elf" || fail "spec $n and its command line differ: $(cat "spec$n.txt")"
}

same '# blocks of two functions, a range, two explicit points
points    = bb, loop
functions = move*
functions = main
range     = 0x80000000-0x80000400
after     = main+0x4
before    = main
tool      = bbcount' \
  --points bb,loop --functions 'move*' --functions main --range 0x80000000-0x80000400 --after main+0x4 \
  --before main --tool bbcount

same 'tool = memtrace
tactic = trap' --tool memtrace --tactic trap

# an analysis file named relative to the spec: found in the spec's directory
mkdir sub && cp "$here/loadcount.c" sub/
printf 'points = load\nanalysis = loadcount.c\ncall = loads(pc, ea, reg:2)\n' > sub/spec.txt
"$tally" inst --spec sub/spec.txt prog.elf -o s3.elf || fail "a spec in another directory: exit $?"
"$tally" inst --points load --analysis sub/loadcount.c --call 'loads(pc, ea, reg:2)' prog.elf -o c3.elf \
  || fail "command line 3: exit $?"
cmp s3.elf c3.elf || fail "spec 3 and its command line differ (the analysis path is the spec's directory's)"

# a spec and options mixed: the lists add up, the options after it win
printf 'points = func-entry\ntool = bbcount\n' > mix.txt
"$tally" inst --points func-exit --spec mix.txt --tool none prog.elf -o mix.elf || fail "mixed: exit $?"
"$tally" inst --points func-entry,func-exit prog.elf -o mixc.elf || fail "mixed command line: exit $?"
cmp mix.elf mixc.elf || fail "a spec mixed with options differs from the same options"

# bbcount's mode: a counter per block (all) is another output than the default (flow)
n=3
same 'points = bb
tool = bbcount
bbcount = all' --points bb --tool bbcount --bbcount all
"$tally" inst --points bb --tool bbcount prog.elf -o flow.elf || fail "bbcount flow: exit $?"
! cmp -s flow.elf "s$n.elf" || fail "--bbcount all made the same output as the default (flow)"

# bad(STATUS, PATTERN, SPEC_TEXT): exit STATUS, PATTERN on stderr, no output
bad() {
  printf '%b' "$3" > bad.txt
  rm -f out.elf
  "$tally" inst --spec bad.txt prog.elf -o out.elf 2> err.txt; rc=$?
  [ "$rc" = "$1" ] || fail "bad spec '$3': exit $rc, wanted $1: $(cat err.txt)"
  grep -q -- "$2" err.txt || fail "bad spec '$3': no '$2' in: $(cat err.txt)"
  [ ! -e out.elf ] || fail "bad spec '$3' left an output file"
}
bad 64 "bad.txt:2: 'bbcount': want flow or all" 'points = bb\nbbcount = most\n'
bad 64 "bad.txt:3: 'bogus': unknown key" 'points = bb\n\n  bogus = 1\n'
bad 64 "bad.txt:1: 'points': unknown kind 'lop'" 'points = bb, lop\n'
bad 64 "bad.txt:2: want KEY = VALUE" '# comment\npoints bb\n'
bad 64 "bad.txt:1: 'tactic': want auto, jump or trap" 'tactic = fast\npoints = bb\n'
bad 64 "bad.txt:2: 'range': want 0xLO-0xHI" 'points = bb\nrange = 0x100-0x10\n'
bad 64 "bad.txt:1: points: no value" 'points =\n'
bad 64 "bad.txt:2: 'nosuchfn': no function" 'points = bb\nafter = nosuchfn\n'
bad 64 "bad.txt:2: zz.c: cannot read the analysis source" 'points = bb\nanalysis = zz.c\ncall = f(site)\n'
bad 64 "bad.txt:3: --call 'f(sote)'" "points = bb\nanalysis = $here/loadcount.c\ncall = f(sote)\n"
bad 64 "memtrace records an access before it is made" 'tool = memtrace\nafter = main\n'
rm -f out.elf
"$tally" inst --spec missing.txt prog.elf -o out.elf 2> err.txt; rc=$?
[ "$rc" = 66 ] && grep -q "missing.txt: cannot open" err.txt && [ ! -e out.elf ] || fail "a missing spec: exit $rc"
echo "PASS: $((n + 2)) specs equal their command lines; bad specs name their lines"
