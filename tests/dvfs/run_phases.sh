#!/bin/sh
# run_phases.sh TALLY PHASETEST.elf
# The phase profiler (tally inst --tool phases) against tally's exact
# counts. phasetest.elf runs three loops in a row (phasekern.S); the phases
# A->B and B->C are exactly the address ranges [phase_a, phase_b) and
# [phase_b, phase_c). Checked, on the dsp500 model:
# - each phase was entered once;
# - its D-cache misses equal the statistics module's count over its range
#   in the original program, and the hand count (100 read misses in A,
#   50 write misses in B: one per 64-byte stride into lines the start-up
#   code's clearing of 128 KiB of .bss evicted);
# - its instructions equal the exact count over the range plus a fixed
#   number per iteration that the instrumentation leaves counted, the same
#   at every site. Twice, once per tactic:
#   trap: the header instruction is re-created with the counters paused
#     (one less per iteration), and the runtime's trap entry and exit add K
#     (taken from phase A, it must predict phase B exactly);
#   jump: the header runs in the trampoline with the counters running, and
#     exactly 8 more per iteration are counted (hand count, tramps.S: the
#     jal to the trampoline, csrrw t0/mscratch, sw t1, addi t1 = -1 before
#     the write that pauses the counters; the write that resumes them,
#     lw t1, csrrw t0/mscratch, and the jal back);
# - its cycles are at least the exact count (the runtime only adds).
set -eu
tally=$1 elf=$2
nm=riscv64-unknown-elf-nm
command -v $nm >/dev/null 2>&1 || { echo "no $nm: skipped"; exit 77; }
command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 || { echo "no cross compiler for tally inst: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sym() { $nm "$elf" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
a=$(sym phase_a) b=$(sym phase_b) c=$(sym phase_c)

"$tally" run --core dsp500 --interval 4000000000 --intervals-csv "$dir/exact.csv" \
  --count "instret@$a-$b" --count "dcache.read_miss@$a-$b" --count "cycle@$a-$b" \
  --count "instret@$b-$c" --count "dcache.write_miss@$b-$c" --count "cycle@$b-$c" \
  "$elf" >"$dir/exact.out" 2>"$dir/exact.err" || { cat "$dir/exact.err"; exit 1; }
for tactic in trap jump; do
"$tally" inst --tool phases --tactic $tactic "$elf" -o "$dir/p.elf"
(cd "$dir" && rm -f phases.out && "$tally" run --core dsp500 --semihost-files rw p.elf >run.out)
grep -q "phasetest: OK" "$dir/run.out"

python3 - "$dir" "$a" "$b" "$c" "$tactic" <<'PY'
import csv, sys
d, a, b, c = sys.argv[1], *(int(x, 16) for x in sys.argv[2:5])
tactic = sys.argv[5]
rows = list(csv.reader(open(d + "/exact.csv")))
total = [r for r in rows if r and r[0] == "total"]
assert total, "no totals row in the intervals CSV: %r" % rows[:3]
v = [int(x) for x in total[0][3:9]]   # then a saturation flag per counter
exact = {"A": dict(instret=v[0], miss=v[1], cycles=v[2]), "B": dict(instret=v[3], miss=v[4], cycles=v[5])}
ph = {}
for line in open(d + "/phases.out"):
    if line.startswith("#"):
        continue
    f = line.split()
    ph[(int(f[0], 16), int(f[1], 16))] = [int(x) for x in f[2:]]
A, B = ph.get((a, b)), ph.get((b, c))
assert A and B, "phases A->B or B->C missing: %r" % ph
hits = {"A": 100, "B": 50}       # iterations, from phasekern.S
fail = []
def check(what, got, want):
    if got != want:
        fail.append("%s: %d, expected %d" % (what, got, want))
check("A entries", A[0], 1); check("B entries", B[0], 1)
check("A read misses (hand)", A[3], 100); check("A read misses (module)", A[3], exact["A"]["miss"])
check("B write misses (hand)", B[4], 50); check("B write misses (module)", B[4], exact["B"]["miss"])
if tactic == "trap":
    k, rem = divmod(A[2] - exact["A"]["instret"] + hits["A"], hits["A"])
    check("A instret leaves a whole K per iteration (remainder)", rem, 0)
    check("B instret with K=%d from A" % k, B[2], exact["B"]["instret"] - hits["B"] + k * hits["B"])
else:
    k = 8
    check("A instret, 8 per iteration added", A[2], exact["A"]["instret"] + k * hits["A"])
    check("B instret, 8 per iteration added", B[2], exact["B"]["instret"] + k * hits["B"])
for n, P in (("A", A), ("B", B)):
    if P[1] < exact[n]["cycles"]:
        fail.append("%s cycles %d below the exact %d" % (n, P[1], exact[n]["cycles"]))
if fail:
    print("\n".join(fail)); sys.exit(1)
print("phases ok (%s): A %s B %s, exact %s, K=%d" % (tactic, A, B, exact, k))
PY
done
