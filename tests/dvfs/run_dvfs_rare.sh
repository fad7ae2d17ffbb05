#!/bin/sh
# run_dvfs_rare.sh TALLY RARETEST.elf
# tally dvfs on raretest.elf (raretest.c + rarekern.S): four uses of a
# memory-bound loop whose way out is a 2-byte c.ret (rare_ret) right after
# its 4-byte back edge (rare_back). The switch back up sits before that
# c.ret; tally dvfs marks its switch sites rare, so no trampoline is put on
# the back edge. Checked by tally's own counters, never by the tool's
# numbers, running the DVFS'd program with LINES = 2048 and 4096 (the
# output does not depend on LINES; 8,192 more iterations, the same uses):
# - the loop at rare_loop (nm) is chosen; output and exit status identical;
# - dvfs.switch = 8 at both sizes (4 uses, down and up: by hand);
# - something retires at the back edge's address 4 x LINES times (instret
#   over its 4 bytes: the loop ran its iterations; a jal put there would
#   too, so this alone does not tell where the bne ran);
# - the instructions retired in the trampoline hole (.tally_inst_hole, by
#   readelf) and in the analysis region (0x88000000-0x89000000) are the same
#   at both sizes (they grow with the switches, not with the iterations),
#   and the hole's are at most 64 per switch.
set -eu
tally=$1
command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 || { echo "no cross compiler for tally inst: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# tally dvfs runs the program with IN's name as argv[0]: names of one
# length make tally run's runs of both programs alike
elf=$dir/orig.elf
cp "$2" "$elf"

"$tally" dvfs --core dsp500 --no-oracle --max-slowdown 100 "$elf" -o "$dir/dvfs.elf" >"$dir/report.txt" ||
  { cat "$dir/report.txt"; fail "tally dvfs"; }
cat "$dir/report.txt"
sym() { riscv64-unknown-elf-nm "$elf" | awk -v n="$1" '$3 == n { print $1 }'; }
loop=$(sym rare_loop)
back=$(sym rare_back)
[ -n "$loop" ] && [ -n "$back" ] || fail "no rare_loop/rare_back symbols"
grep -Eq "^  loop 0x$loop .* chosen" "$dir/report.txt" || fail "the loop at 0x$loop is not chosen"
hole=$(readelf -SW "$elf" | awk '{ for (i = 1; i <= NF; i++) if ($i == ".tally_inst_hole") print $(i + 2), $(i + 4) }')
[ -n "$hole" ] || fail "no .tally_inst_hole in $elf"
hlo=$((0x${hole% *}))
hhi=$((hlo + 0x${hole#* }))
blo=$((0x$back))

for lines in 2048 4096; do
  set +e
  "$tally" run --core dsp500 "$elf" $lines >"$dir/a.out" 2>&1; sa=$?
  "$tally" run --core dsp500 "$dir/dvfs.elf" $lines >"$dir/b.out" 2>&1; sb=$?
  set -e
  [ $sa = $sb ] && cmp -s "$dir/a.out" "$dir/b.out" || fail "LINES $lines: output or exit status differs ($sa, $sb)"
  "$tally" run --core dsp500 --no-store --interval 4000000000 --intervals-csv "$dir/c.csv" \
    --count "$(printf 'instret@0x%x-0x%x' $hlo $hhi)" --count instret@0x88000000-0x89000000 \
    --count "$(printf 'instret@0x%x-0x%x' $blo $((blo + 4)))" --count dvfs.switch \
    "$dir/dvfs.elf" $lines >/dev/null 2>&1 || fail "tally run --count"
  # total,begin,end,hole,region,back edge,switches
  grep '^total' "$dir/c.csv" | cut -d, -f4-7 | tr , ' ' >"$dir/n.$lines"
  read -r h r b s <"$dir/n.$lines"
  echo "LINES $lines: hole $h, analysis region $r, back edge $b, switches $s"
  [ "$s" = 8 ] || fail "LINES $lines: $s switches, want 8 (4 uses, down and up)"
  [ "$b" = $((4 * lines)) ] || fail "LINES $lines: the back edge retired $b times at its address, want $((4 * lines))"
  [ "$h" -le $((64 * s)) ] || fail "LINES $lines: $h instructions in the trampolines for $s switches"
done
cmp -s "$dir/n.2048" "$dir/n.4096" && fail "the counts did not change with LINES at all (the back edge should)"
[ "$(cut -d' ' -f1,2 "$dir/n.2048")" = "$(cut -d' ' -f1,2 "$dir/n.4096")" ] ||
  fail "trampoline or analysis instructions grow with the iterations: $(cat "$dir/n.2048") / $(cat "$dir/n.4096")"
echo "dvfs rare ok"
