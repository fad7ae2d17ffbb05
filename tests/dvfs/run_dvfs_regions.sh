#!/bin/sh
# run_dvfs_regions.sh TALLY PHASETEST.elf
# tally dvfs with loop regions (the default) on phasetest.elf
# (phasekern.S: loop A, 100 loads that all miss; loop B, 50 stores that
# all miss; loop C, no memory), thresholds set so that A and B are chosen.
# Checked against tally's own counters, never against the tool's numbers:
# - the chosen regions are exactly loops A and B (their ranges are the
#   symbols phase_a.. and phase_b..: from nm);
# - switches: each loop entered once, so dvfs.switch = 4 and the PLL
#   stands still 4 x 1000 cycles; output and exit status identical;
# - per-region accounting: in each program the region rows plus the
#   "outside" row add up to the whole run (cycles exactly, time and energy
#   to the printed rounding), the whole-run rows equal tally run's totals
#   (--stats-json), and every region's cycles equal the statistics
#   module's count of cycle@LO-HI in that program;
# - the time law with a third operating point (--points with 125 MHz):
#   T = C/500 MHz + C_low (1/125 - 1/500) us, so (T - 2C ns)/6 ns is a whole
#   number C_low, holding the loops' own cycles;
# - --max-slowdown holds by tally run's clock (three points, limit 1%);
# - references: the static row equals tally run with the model's clock and
#   voltage overridden; the oracle (exhaustive here) never uses more energy
#   than the tool's own choice, which it tried.
set -eu
tally=$1
command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 || { echo "no cross compiler for tally inst: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# tally dvfs runs every program with IN's name as argv[0] (the start-up
# code's time depends on its length): names of one length make tally run's
# runs of OUT the same.
elf=$dir/orig.elf
cp "$2" "$elf"
fail() { echo "FAIL: $*"; exit 1; }

# --min-mpc 0.004: the phase loops have ~0.0045 misses per cycle in the profile,
# _start's .bss clearing ~0.003 (the jump tactic's trampolines leave few
# cycles counted per loop-header visit)
# --descent-only: loops this short cost more in relocks than they save, so
# the knapsack would rightly switch neither; the switches, the accounting
# and the time law are checked on the descent's choice (both loops)
opts="--core dsp500 --min-misses 40 --min-mpc 0.004 --min-relocks 0 --max-slowdown 100"
"$tally" dvfs $opts --descent-only "$elf" -o "$dir/dvfs.elf" >"$dir/report.txt" || { cat "$dir/report.txt"; fail "tally dvfs"; }
"$tally" dvfs $opts --descent-only --no-oracle --points 500:1.2,125:0.9 "$elf" -o "$dir/three.elf" >"$dir/three.txt" ||
  { cat "$dir/three.txt"; fail "tally dvfs --points"; }
"$tally" dvfs $opts --no-oracle --max-slowdown 1 --points 500:1.2,250:1.0,125:0.9 "$elf" -o "$dir/limit.elf" \
  >"$dir/limit.txt" || { cat "$dir/limit.txt"; fail "tally dvfs --max-slowdown 1"; }
cat "$dir/report.txt"

set +e
"$tally" run "$elf" >"$dir/a.out" 2>&1; sa=$?
"$tally" run "$dir/dvfs.elf" >"$dir/b.out" 2>&1; sb=$?
set -e
[ $sa = $sb ] && cmp -s "$dir/a.out" "$dir/b.out" || fail "output or exit status differs ($sa, $sb)"

riscv64-unknown-elf-nm "$elf" >"$dir/symbols.txt"
for f in orig:"$elf" dvfs:"$dir/dvfs.elf" three:"$dir/three.elf" limit:"$dir/limit.elf"; do
  "$tally" run --core dsp500 --stats-json "$dir/${f%%:*}.json" "${f#*:}" >/dev/null
done
"$tally" run --core dsp500 --set core.frequency_mhz=250 --set core.voltage=1.0 --stats-json "$dir/static.json" \
  "$elf" >/dev/null

python3 - "$tally" "$dir" "$elf" <<'PY'
import json, re, subprocess, sys
tally, d = sys.argv[1], sys.argv[2]
fail = []
rep = open(d + "/report.txt").read()

def chosen_ranges(text):
    return [(int(m.group(1), 16), int(m.group(2), 16))
            for m in re.finditer(r"^  loop .* ([0-9a-f]{8})-([0-9a-f]{8}) .*  chosen$", text, re.M)]

def measured(text):
    part = text.split("measured on tally")[1].split("references")[0]
    rows = []
    for line in part.splitlines():
        # the last eight numbers: cycles, time, energy twice, then the two
        # percentages (the region column is as wide as the longest name)
        nums = re.findall(r"[-+]?\d+\.?\d*%?", line) if line.startswith("  ") else []
        if len(nums) >= 8 and nums[-1].endswith("%") and not line.strip().startswith("region"):
            rows.append((re.split(r"\s{2,}", line.strip())[0], [float(x) for x in nums[-8:-2]]))
    return rows

def syms(name):
    for line in open(d + "/symbols.txt"):
        f = line.split()
        if len(f) == 3 and f[2] == name:
            return int(f[0], 16)
    raise SystemExit("no symbol " + name)

def count(elf, lo, hi):
    csv = d + "/count.csv"
    subprocess.run([tally, "run", "--core", "dsp500", "--no-store", "--interval", "4000000000",
                    "--intervals-csv", csv, "--count", "cycle@0x%x-0x%x" % (lo, hi), elf],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return int([l for l in open(csv) if l.startswith("total")][0].split(",")[3])

a, b, c, end = syms("phase_a"), syms("phase_b"), syms("phase_c"), syms("phase_end")
ranges = chosen_ranges(rep)
# A's range ends after its back edge (bnez, 2 bytes), before "li t0, 50"
if len(ranges) != 2 or ranges[0][0] != a or ranges[1][0] != b or not (a < ranges[0][1] < b and b < ranges[1][1] < c):
    fail.append("chosen ranges %s, want loops at phase_a %x and phase_b %x" % (ranges, a, b))

rows = measured(rep)
if len(rows) != 4:
    fail.append("measured rows: %s" % rows)
else:
    for col, prog in ((0, "orig"), (3, "dvfs")):
        s = json.load(open("%s/%s.json" % (d, prog)))
        parts, whole = rows[:3], rows[3][1]
        cyc = sum(r[1][col] for r in parts)
        if cyc != whole[col]: fail.append("%s: rows' cycles add to %d, whole run %d" % (prog, cyc, whole[col]))
        for k, unit in ((1, "time"), (2, "energy")):
            tot = sum(r[1][col + k] for r in parts)
            if abs(tot - whole[col + k]) > 0.002: fail.append("%s: rows' %s add to %.3f, whole %.3f" % (prog, unit, tot, whole[col + k]))
        if whole[col] != s["cycles"]: fail.append("%s: whole-run cycles %d, tally run %d" % (prog, whole[col], s["cycles"]))
        if abs(whole[col + 1] - s["seconds"] * 1e6) > 0.002: fail.append("%s: time %.3f us, tally run %.9f s" % (prog, whole[col + 1], s["seconds"]))
        if abs(whole[col + 2] - s["energy_j"]["total"] * 1e6) > 0.002 + 1e-6 * whole[col + 2]:
            fail.append("%s: energy %.3f uJ, tally run %r J" % (prog, whole[col + 2], s["energy_j"]["total"]))

s = json.load(open(d + "/dvfs.json"))
sig = s["signals"]
tot = lambda n: sig[n]["total"] if isinstance(sig[n], dict) else sig[n]
if tot("dvfs.switch") != 4: fail.append("dvfs.switch %d, expected 4" % tot("dvfs.switch"))
if tot("stall.dvfs") != 4000: fail.append("stall.dvfs %d, expected 4000" % tot("stall.dvfs"))

# references
st = json.load(open(d + "/static.json"))
m = re.search(r"static 250/1.00 \(whole program\)\s+(\d+) cycles\s+([\d.]+) us\s+([\d.]+) uJ", rep)
if not m or int(m.group(1)) != st["cycles"] or abs(float(m.group(3)) - st["energy_j"]["total"] * 1e6) > 0.002:
    fail.append("static row %s, tally run at 250 MHz: %d cycles %r J" % (m and m.groups(), st["cycles"], st["energy_j"]["total"]))
tool = float(re.search(r"tally dvfs\s+\d+ cycles\s+[\d.]+ us\s+([\d.]+) uJ", rep).group(1))
orc = re.search(r"oracle \((\w+), (\d+) runs\)\s+\d+ cycles\s+[\d.]+ us\s+([\d.]+) uJ", rep)
if not orc or orc.group(1) != "exhaustive" or int(orc.group(2)) != 3 or float(orc.group(3)) > tool + 1e-9:
    fail.append("oracle %s against the tool's %.3f uJ" % (orc and orc.groups(), tool))

# the three-point run: 125 MHz stretches
t3 = json.load(open(d + "/three.json"))
C, t_ps = t3["cycles"], round(t3["seconds"] * 1e12)
rest = t_ps - 2000 * C
if rest % 6000: fail.append("T = %d ps is not 2 ns x C + 6 ns x C_low" % t_ps)
c_low = rest // 6000
three = open(d + "/three.txt").read()
if "125/0.90" not in three: fail.append("the regions do not run at 125 MHz:\n" + three)
own = sum(count(d + "/three.elf", lo, hi) for lo, hi in ranges)
if not (own <= c_low < own + 4 * 5000):
    fail.append("cycles at 125 MHz %d, the loops' own %d (and the switch code's)" % (c_low, own))
print("three points: C=%d T=%d ps C_low=%d loops=%d" % (C, t_ps, c_low, own))
# --max-slowdown holds, by tally run's own clock (regions were raised a
# point or dropped until it did)
lim, orig = json.load(open(d + "/limit.json")), json.load(open(d + "/orig.json"))
if lim["seconds"] > orig["seconds"] * 1.01:
    fail.append("--max-slowdown 1: %r s against %r s" % (lim["seconds"], orig["seconds"]))
if "one point up" not in open(d + "/limit.txt").read() and "dropped" not in open(d + "/limit.txt").read():
    fail.append("--max-slowdown 1 changed no decision:\n" + open(d + "/limit.txt").read())
# every region's cycles against the statistics module, in each program
for (lo, hi), r in zip(ranges, rows):
    for elf, col in ((sys.argv[3], 0), (d + "/dvfs.elf", 3)):
        n = count(elf, lo, hi)
        if n != r[1][col]: fail.append("cycles in %x-%x of %s: statistics module %d, report %d" % (lo, hi, elf, n, r[1][col]))
if fail: print("\n".join(fail)); sys.exit(1)
PY

echo "dvfs regions ok"
