#!/bin/sh
# regen.sh RTL_CHECKOUT WORK_DIR [CSV] -- regenerate the VexRiscv RTL counts.
#
# RTL_CHECKOUT: a checkout of litex-hub/pythondata-cpu-vexriscv (a git work
# tree; its commit is written into the CSV). WORK_DIR: where the testbenches
# and programs are built. CSV: where the counts go (default
# tests/cores/vexriscv/rtl_counts.csv of this tree).
#
# Every program of tests/cores/vexriscv/programs.txt runs on every variant
# (std: VexRiscv.v, imac: VexRiscv_IMAC.v, min: VexRiscv_Min.v) at 0 to 3
# wait states; instret counts up to the finisher store (_finish_store).
set -eu
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: regen.sh RTL_CHECKOUT WORK_DIR [CSV]" >&2; exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
rtl=$1; work=$2
csv=${3:-$top/tests/cores/vexriscv/rtl_counts.csv}
vdir=$rtl/pythondata_cpu_vexriscv/verilog
[ -d "$vdir" ] || { echo "regen.sh: $vdir: not found (not a pythondata-cpu-vexriscv checkout?)" >&2; exit 2; }
commit=$(git -C "$rtl" rev-parse HEAD)
"$here/build.sh" "$vdir" "$work/tb"
"$top/tests/cores/vexriscv/build_programs.sh" "$work/prog"
tmp=$csv.tmp
{
    echo "# VexRiscv RTL counts: litex-hub/pythondata-cpu-vexriscv $commit, $(verilator --version | cut -d' ' -f1-2)"
    echo "# made by rtl/cores/vexriscv/regen.sh; memory and counting: rtl/cores/vexriscv/tb.cpp"
    echo "variant,program,wait,cycles,instret,exit,ibus_beats,ibus_transactions,ibus_bursts,dbus_reads,dbus_writes,dbus_transactions,dbus_bursts"
    grep -v '^#' "$top/tests/cores/vexriscv/programs.txt" | while read -r name march; do
        [ -n "$name" ] || continue
        fpc=$(riscv64-unknown-elf-nm "$work/prog/$name.elf" | awk '/ _finish_store$/{print $1}')
        for v in std imac min; do
            for w in 0 1 2 3; do
                line=$("$work/tb/tb-$v" "$work/prog/$name.bin" -w "$w" -f "$fpc" 2>/dev/null) \
                    || { echo "regen.sh: $v $name -w $w failed" >&2; exit 1; }
                echo "$line" | awk -v v="$v" -v n="$name" -v w="$w" '{
                    printf "%s,%s,%s", v, n, w
                    for (i = 1; i <= NF; i++) { split($i, kv, "="); printf ",%s", kv[2] }
                    printf "\n" }'
            done
        done
    done
} >"$tmp"
mv "$tmp" "$csv"
echo "regen.sh: $(grep -c '^[a-z]*,' "$csv") rows -> $csv"
