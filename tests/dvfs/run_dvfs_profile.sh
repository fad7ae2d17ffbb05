#!/bin/sh
# run_dvfs_profile.sh TALLY PHASETEST.elf
# tally dvfs's phase profile is counted non-intrusively (src/dvfs/
# dvfs_profile.c): the original program stepped on dsp500, nothing of the
# profiler's own running. So, by law, on phasetest (three loops in a row,
# phasekern.S; the phases A->B and B->C are exactly the address ranges
# [phase_a, phase_b) and [phase_b, phase_c)):
# - each phase's cycles, instructions, D-cache read and write misses equal
#   the statistics module's counts over its range in the original program,
#   exactly (the instrumented profiler added its trap entry's or its
#   trampoline's instructions and cycles per iteration);
# - the hand counts: 100 read misses in A, 50 write misses in B;
# - the rows add up to the whole run: cycles and instructions equal
#   `tally run --core dsp500`'s totals (the phases partition the run);
# - the report: start-up code (crt0's loop clearing .bss, before main) is
#   in no region unless --startup, and says so; --no-oracle prints no
#   oracle row; every loop's name is whole (its "(symbol+off)" closed).
set -eu
tally=$1 elf=$2
nm=riscv64-unknown-elf-nm
command -v $nm >/dev/null 2>&1 || { echo "no $nm: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sym() { $nm "$elf" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
a=$(sym phase_a) b=$(sym phase_b) c=$(sym phase_c)
sigs=""
for r in "$a-$b" "$b-$c"; do
  for s in cycle instret dcache.read_miss dcache.write_miss; do sigs="$sigs --count $s@$r"; done
done
# the same argv[0] for both runs (start-up code walks it)
cp "$elf" "$dir/prog.elf"
# shellcheck disable=SC2086
(cd "$dir" && "$tally" run --core dsp500 --stats --interval 4000000000 --intervals-csv exact.csv $sigs \
  prog.elf >exact.out 2>exact.err) || { cat "$dir/exact.err"; exit 1; }
(cd "$dir" && "$tally" dvfs --keep --no-oracle --descent-only prog.elf -o out.elf >report 2>err) \
  || { cat "$dir/err"; exit 1; }
scratch=$(sed -n 's/^tally dvfs: scratch files kept in //p' "$dir/err")
[ -f "$scratch/phases.out" ] || { echo "FAIL: no phases.out in the scratch directory"; cat "$dir/err"; exit 1; }
cp "$scratch/phases.out" "$dir/" && rm -rf "$scratch"
rep=$dir/report
grep -q "oracle: not run (--no-oracle)" "$rep" || { cat "$rep"; echo "FAIL: --no-oracle does not say it"; exit 1; }
if grep -qE "oracle \(|of the oracle's saving" "$rep"; then cat "$rep"; echo "FAIL: --no-oracle prints an oracle row"; exit 1; fi
grep -q "start-up code, before main is first entered: .* in no region; --startup counts it" "$rep" \
  || { cat "$rep"; echo "FAIL: no line for the start-up code"; exit 1; }
if grep -E "^  loop " "$rep" | grep -q "_start"; then cat "$rep"; echo "FAIL: a loop of _start is a candidate"; exit 1; fi
if grep -E "^  loop " "$rep" | grep -vqE "^  loop 0x[0-9a-f]{8} \([^ ]+\) "; then
  cat "$rep"; echo "FAIL: a region name is cut"; exit 1
fi
(cd "$dir" && "$tally" dvfs --startup --no-oracle --descent-only prog.elf -o out2.elf >report2 2>err2) \
  || { cat "$dir/err2"; exit 1; }
grep -qE "^  loop 0x[0-9a-f]{8} \(_start\+0x[0-9a-f]+\) " "$dir/report2" \
  || { cat "$dir/report2"; echo "FAIL: --startup does not make _start's loop a candidate"; exit 1; }
python3 - "$dir" "$a" "$b" "$c" <<'PY'
import csv, re, sys
d, a, b, c = sys.argv[1], *(int(x, 16) for x in sys.argv[2:5])
rows = list(csv.reader(open(d + "/exact.csv")))
total = [r for r in rows if r and r[0] == "total"]
assert total, "no totals row in the intervals CSV"
v = [int(x) for x in total[0][3:11]]
names = ("cycles", "instret", "rmiss", "wmiss")
exact = {"A": dict(zip(names, v[0:4])), "B": dict(zip(names, v[4:8]))}
ph = {}
for line in open(d + "/phases.out"):
    if line.startswith("#"):
        continue
    f = line.split()
    ph[(int(f[0], 16), int(f[1], 16), f[7:] == ["startup"])] = [int(x) for x in f[2:7]]
fail = []
def check(what, got, want):
    if got != want:
        fail.append("%s: %d, expected %d" % (what, got, want))
for n, key in (("A", (a, b, False)), ("B", (b, c, False))):
    P = ph.get(key)
    if not P:
        fail.append("phase %s (0x%08x -> 0x%08x) missing" % (n, key[0], key[1]))
        continue
    check(n + " entries", P[0], 1)
    for i, k in enumerate(names):
        check("%s %s (profile against the module)" % (n, k), P[1 + i], exact[n][k])
check("A read misses (hand)", ph.get((a, b, False), [0] * 5)[3], 100)
check("B write misses (hand)", ph.get((b, c, False), [0] * 5)[4], 50)
check("rows of the start-up code (crt0's loop clearing .bss)", sum(1 for k in ph if k[2]) > 0, True)
stats = open(d + "/exact.err").read() + open(d + "/exact.out").read()
def stat(name):
    m = re.search(r"^\s*" + name + r"\s+([\d,]+)", stats, re.M)
    return int(m.group(1).replace(",", "")) if m else None
cyc, ins = stat("cycles"), stat("instructions")
if cyc is None or ins is None:
    fail.append("no cycles/instructions in tally run --stats:\n" + stats[:2000])
else:
    check("the rows' cycles add up to the run's", sum(p[1] for p in ph.values()), cyc)
    check("the rows' instructions add up to the run's", sum(p[2] for p in ph.values()), ins)
if fail:
    print("FAIL:\n" + "\n".join(fail)); sys.exit(1)
print("profile ok: A %s B %s, exact %s" % (ph[(a, b, False)], ph[(b, c, False)], exact))
PY
