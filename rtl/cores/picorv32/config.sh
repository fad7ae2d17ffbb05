#!/bin/sh
# The Verilator -G options of a testbench configuration (build.sh): the
# PicoRV32 parameters each shipped core file claims.
case "${1:-}" in
  imc)      echo "-GENABLE_MUL=1 -GENABLE_FAST_MUL=0 -GENABLE_DIV=1 -GCOMPRESSED_ISA=1 -GTWO_STAGE_SHIFT=1 -GBARREL_SHIFTER=0" ;;
  im)       echo "-GENABLE_MUL=1 -GENABLE_FAST_MUL=0 -GENABLE_DIV=1 -GCOMPRESSED_ISA=0 -GTWO_STAGE_SHIFT=1 -GBARREL_SHIFTER=0" ;;
  imc-fast) echo "-GENABLE_MUL=0 -GENABLE_FAST_MUL=1 -GENABLE_DIV=1 -GCOMPRESSED_ISA=1 -GTWO_STAGE_SHIFT=0 -GBARREL_SHIFTER=1" ;;
  i)        echo "-GENABLE_MUL=0 -GENABLE_FAST_MUL=0 -GENABLE_DIV=0 -GCOMPRESSED_ISA=0 -GTWO_STAGE_SHIFT=1 -GBARREL_SHIFTER=0" ;;
  *) echo "config.sh: unknown configuration '${1:-}' (imc, im, imc-fast, i)" >&2; exit 2 ;;
esac
