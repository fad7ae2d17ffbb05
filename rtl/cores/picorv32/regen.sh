#!/bin/sh
# Remeasures tests/cores/picorv32/rtl_counts.csv on the PicoRV32 RTL.
#
#   regen.sh RTL_CHECKOUT COMMIT BUILD_DIR [OUT_CSV]
#
# RTL_CHECKOUT: a git checkout of https://github.com/YosysHQ/picorv32 at
# COMMIT (checked). BUILD_DIR: tally's CMake build, whose
# tests/cores/picorv32/*.elf are the programs tally's tests run. Builds the
# testbench for each configuration (build.sh), runs every program at 0..3
# wait states and writes program,rvc,W,config,cycles,instret,exit (default:
# the committed CSV). Configurations: imc (cores/picorv32*.ini) and
# imc-fast (cores/picorv32-fast.ini) on every program; im (no
# COMPRESSED_ISA) on the programs without compressed code.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
[ $# -ge 3 ] || { echo "usage: regen.sh RTL_CHECKOUT COMMIT BUILD_DIR [OUT_CSV]" >&2; exit 2; }
rtl=$1 commit=$2 build=$3
out=${4:-$top/tests/cores/picorv32/rtl_counts.csv}
have=$(git -C "$rtl" rev-parse HEAD)
[ "$have" = "$commit" ] || { echo "regen.sh: $rtl is at $have, not $commit" >&2; exit 1; }
elfs=$build/tests/cores/picorv32
[ -d "$elfs" ] || { echo "regen.sh: $elfs: no programs (build tally's tests first)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
programs=$( (cat "$top/tests/cores/picorv32/programs.txt"; echo misc
  for c in crc sort mat str; do for a in rv32imac rv32im; do for o in O2 Os; do echo "c-$c-$o-$a"; done; done; done) )
{
  echo "# PicoRV32 RTL (YosysHQ/picorv32 $commit, Verilator $(verilator --version | cut -d' ' -f2)), rtl/cores/picorv32/regen.sh"
  echo "program,rvc,W,config,cycles,instret,exit"
  for cfg in imc im imc-fast; do
    tb=$("$here/build.sh" "$rtl" "$tmp" "$cfg")
    for p in $programs; do
      case $p in *-rvc|*rv32imac|misc) rvc=1 ;; *) rvc=0 ;; esac
      [ "$cfg" = im ] && [ $rvc = 1 ] && continue
      for w in 0 1 2 3; do
        r=$("$tb" "$elfs/$p.elf" -w $w)
        set -- $r
        echo "$p,$rvc,$w,$cfg,$2,$4,$6"
      done
    done
  done
} > "$tmp/counts.csv"
mv "$tmp/counts.csv" "$out"
echo "$out"
