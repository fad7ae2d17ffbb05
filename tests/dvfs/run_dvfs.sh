#!/bin/sh
# run_dvfs.sh TALLY PHASETEST.elf
# tally dvfs on phasetest.elf (phasekern.S: two loops whose loads and
# stores all miss), thresholds set so that phase_kernel alone is chosen.
# Checked, independently of the tool's own report:
# - the command line: --help exits 0, usage errors 64, a missing input 66;
# - --board virt (the default board) changes neither the program nor the
#   report; a board without semihosting or an unknown one is refused (64);
# - the DVFS'd program's output and exit status equal the original's
#   (tally run of both);
# - it switches exactly twice (down at phase_kernel's entry, up at its
#   return) and the PLL stands still 2 x 1000 cycles (dsp500's
#   pll_relock_cycles);
# - the time law: with C cycles in all, C_low of them at 250 MHz and the
#   rest at 500 MHz, the simulated time is T = (C - C_low)/500 MHz +
#   C_low/250 MHz, so T/2 ns - C must be a whole number C_low; and the low
#   cycles hold all of phase_kernel's own (statistics module over its
#   range) and at most the switch code and its relock besides (< 5000);
# - the knapsack after the descent (the default) never ends with more
#   energy than the descent alone (--no-readd), by tally run of both
#   programs; here phase_kernel costs more in relocks than it saves, so
#   the knapsack's choice is no region and the program takes no more
#   energy than the original (the laws above are checked on the
#   --no-readd program). That premise needs the switch code cached: on
#   dsp500 it runs from on-chip SRAM and costs so little that
#   phase_kernel pays, so this check runs on dsp500 without its SRAM;
# - the report's head says where the switch code runs: dsp500's SRAM, or
#   cached on the model without it;
# - code outside the region takes the same cycles as in the original run:
#   main (which calls the region) and puts (which runs after it), by the
#   statistics module over each function in both programs. (Not _start:
#   the instrumentation runtime runs before it and leaves the caches in
#   another state.)
set -eu
tally=$1 elf=$2
command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 || { echo "no cross compiler for tally inst: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
status() { set +e; "$@" >"$dir/cli.out" 2>&1; s=$?; set -e; echo $s; }

[ "$(status "$tally" dvfs --help)" = 0 ] || fail "--help"
grep -q "max-slowdown" "$dir/cli.out" || fail "--help does not name --max-slowdown"
[ "$(status "$tally" dvfs "$elf")" = 64 ] || fail "no -o: want 64"
[ "$(status "$tally" dvfs --points 250 "$elf" -o "$dir/x.elf")" = 64 ] || fail "bad --points: want 64"
[ "$(status "$tally" dvfs "$dir/missing.elf" -o "$dir/x.elf")" = 66 ] || fail "missing input: want 66"
[ ! -e "$dir/x.elf" ] || fail "an output was left behind after a failure"

# --min-mpc 0.004: phase_kernel's misses per cycle are ~0.0045; _start's (clearing
# 128 KiB of .bss) ~0.003 since the jump tactic's trampolines leave few cycles
# counted per loop-header visit (with traps it was far below 0.001)
forced="--core dsp500 --regions functions --no-oracle --min-misses 50 --min-mpc 0.004 --min-relocks 0 --max-slowdown 100"
"$tally" dvfs $forced --no-readd "$elf" -o "$dir/dvfs.elf" >"$dir/report.txt" || { cat "$dir/report.txt"; fail "tally dvfs"; }
grep -q "phase_kernel .* chosen" "$dir/report.txt" || { cat "$dir/report.txt"; fail "phase_kernel not chosen"; }
# --board virt is the default board: the same program and report
"$tally" dvfs $forced --no-readd --board virt "$elf" -o "$dir/dvfs-virt.elf" >"$dir/report-virt.txt" ||
  { cat "$dir/report-virt.txt"; fail "tally dvfs --board virt"; }
cmp -s "$dir/dvfs.elf" "$dir/dvfs-virt.elf" || fail "--board virt changes the DVFS'd program"
sed 1d "$dir/report.txt" >"$dir/r1"; sed 1d "$dir/report-virt.txt" >"$dir/r2"
cmp -s "$dir/r1" "$dir/r2" || fail "--board virt changes the report"
# a board without what tally dvfs needs (semihosting for the profiler) is refused
[ "$(status "$tally" dvfs --board litex "$elf" -o "$dir/x.elf")" = 64 ] || fail "--board litex: want 64"
grep -q "board litex has no semihosting" "$dir/cli.out" || fail "--board litex: $(cat "$dir/cli.out")"
[ "$(status "$tally" dvfs --board nope "$elf" -o "$dir/x.elf")" = 64 ] || fail "--board nope: want 64"
grep -q "unknown board 'nope'" "$dir/cli.out" || fail "--board nope: $(cat "$dir/cli.out")"
grep -q "^switch code: in the model's on-chip SRAM (0x88000000-0x8800ffff, 64 KiB" "$dir/report.txt" ||
  { cat "$dir/report.txt"; fail "the report does not say the switch code is in dsp500's SRAM"; }
nosram=$dir/dsp500-nosram.ini
sed 's/^sram_size = .*/sram_size = 0/' "$(dirname "$0")/../../cores/dsp500.ini" >"$nosram"
grep -q "^sram_size = 0" "$nosram" || fail "no sram_size in cores/dsp500.ini"
"$tally" dvfs $forced --core "$nosram" "$elf" -o "$dir/best.elf" >"$dir/best.txt" ||
  { cat "$dir/best.txt"; fail "tally dvfs (knapsack)"; }
grep -q "^switch code: at 0x88000000, cached like the program" "$dir/best.txt" ||
  { cat "$dir/best.txt"; fail "the report does not say the switch code runs cached"; }
# an SRAM too small for the switch code is refused, naming both sizes
sed 's/^sram_size = .*/sram_size = 4K/' "$(dirname "$0")/../../cores/dsp500.ini" >"$dir/small.ini"
[ "$(status "$tally" dvfs $forced --no-readd --core "$dir/small.ini" "$elf" -o "$dir/x.elf")" = 65 ] ||
  { cat "$dir/cli.out"; fail "an SRAM of 4 KiB: want 65"; }
grep -q "does not fit the model's on-chip SRAM (0x88000000-0x88001000)" "$dir/cli.out" ||
  fail "an SRAM of 4 KiB: $(cat "$dir/cli.out")"
[ ! -e "$dir/x.elf" ] || fail "an output was left behind when the switch code did not fit"
for f in orig:"$elf" dvfs:"$dir/dvfs.elf" best:"$dir/best.elf"; do
  "$tally" run --core "$nosram" --stats-json "$dir/${f%%:*}.e.json" "${f#*:}" >/dev/null
done
python3 - "$dir" <<'PY' || { cat "$dir/best.txt"; fail "knapsack"; }
import json, sys
d = sys.argv[1]
e = {k: json.load(open("%s/%s.e.json" % (d, k)))["energy_j"]["total"] for k in ("orig", "dvfs", "best")}
print("energy uJ: original %.3f, descent %.3f, with the knapsack %.3f" % tuple(1e6 * e[k] for k in ("orig", "dvfs", "best")))
if e["dvfs"] <= e["orig"]: sys.exit("phase_kernel saves energy here: the test's premise is gone")
if e["best"] > e["dvfs"] or e["best"] > e["orig"]: sys.exit("the knapsack ended with more energy")
PY

set +e
"$tally" run "$elf" >"$dir/a.out" 2>&1; sa=$?
"$tally" run "$dir/dvfs.elf" >"$dir/b.out" 2>&1; sb=$?
set -e
[ $sa = $sb ] && cmp -s "$dir/a.out" "$dir/b.out" || fail "output or exit status differs ($sa, $sb)"

"$tally" run --core dsp500 --stats-json "$dir/stats.json" "$dir/dvfs.elf" >/dev/null
"$tally" run --core dsp500 --interval 4000000000 --intervals-csv "$dir/region.csv" --count cycle@phase_kernel \
  "$dir/dvfs.elf" >/dev/null 2>&1
for f in "$elf" "$dir/dvfs.elf"; do
  "$tally" run --core dsp500 --interval 4000000000 --intervals-csv "$dir/outside.csv" \
    --count cycle@main --count cycle@puts "$f" >/dev/null 2>&1
  grep '^total' "$dir/outside.csv" | cut -d, -f4,5 >>"$dir/outside.txt"
done
[ "$(grep -c '^[0-9][0-9]*,[0-9][0-9]*$' "$dir/outside.txt")" = 2 ] || fail "no counts of main and puts"
[ "$(sed -n 1p "$dir/outside.txt")" = "$(sed -n 2p "$dir/outside.txt")" ] ||
  fail "cycles of main,puts outside the region differ: $(tr '\n' ' ' <"$dir/outside.txt")"

python3 - "$dir" <<'PY'
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/stats.json"))
sig = s["signals"]
def total(name):
    v = sig[name]
    return v["total"] if isinstance(v, dict) else v
fail = []
if total("dvfs.switch") != 2: fail.append("dvfs.switch %d, expected 2" % total("dvfs.switch"))
if total("stall.dvfs") != 2000: fail.append("stall.dvfs %d, expected 2000" % total("stall.dvfs"))
C = s["cycles"]
t_ns = round(s["seconds"] * 1e9)
if t_ns % 2: fail.append("T = %d ns is not a whole number of 2 ns periods" % t_ns)
c_low = t_ns // 2 - C
region = int([r for r in csv.reader(open(d + "/region.csv")) if r and r[0] == "total"][0][3])
if not (region <= c_low < region + 5000):
    fail.append("cycles at 250 MHz %d, phase_kernel's own %d" % (c_low, region))
if fail: print("\n".join(fail)); sys.exit(1)
print("dvfs ok: C=%d T=%d ns C_low=%d region=%d" % (C, t_ns, c_low, region))
PY
