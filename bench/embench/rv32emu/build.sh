#!/usr/bin/env bash
# bench/embench/rv32emu/build.sh RV32EMU_CHECKOUT OUT_DIR
#
# Builds rv32emu (github.com/sysprog21/rv32emu, never committed here) twice
# from a copy of the checkout, offline: OUT_DIR/interp/build/rv32emu (its
# interpreter, CONFIG_INTERPRETER_ONLY) and OUT_DIR/jit/build/rv32emu (its
# first-tier JIT, CONFIG_JIT, without the LLVM tier T2C). Its build wants
# Kconfiglib from the network to turn a defconfig into .config; this writes
# .config by hand instead (RV32IMAC, Zicsr, Zifencei, macro-op fusion, block
# chaining, LTO, -O2; no F extension, SDL or GDB stub, whose sources are git
# submodules) and stubs the Kconfig tools out.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: build.sh RV32EMU_CHECKOUT OUT_DIR" >&2
  exit 2
fi
src=$(cd "$1" && pwd)
if [ ! -f "$src/src/emulate.c" ] || [ ! -f "$src/mk/kconfig.mk" ]; then
  echo "build.sh: $src is not an rv32emu checkout (no src/emulate.c, mk/kconfig.mk)" >&2; exit 2
fi
mkdir -p "$2"
out=$(cd "$2" && pwd)
for kind in interp jit; do
  d=$out/$kind
  rm -rf "$d"
  cp -r "$src" "$d"
  mkdir -p "$d/tools/kconfig"
  for f in kconfiglib defconfig genconfig oldconfig savedefconfig menuconfig; do
    echo 'import sys' > "$d/tools/kconfig/$f.py"
  done
  engine=CONFIG_INTERPRETER_ONLY=y
  [ "$kind" = jit ] && engine=CONFIG_JIT=y
  cat > "$d/.config" <<C
CONFIG_CC_IS_GCC=y
CONFIG_BUILD_NATIVE=y
CONFIG_RV32I=y
CONFIG_EXT_M=y
CONFIG_EXT_A=y
CONFIG_EXT_C=y
CONFIG_Zicsr=y
CONFIG_Zifencei=y
$engine
CONFIG_MOP_FUSION=y
CONFIG_BLOCK_CHAINING=y
CONFIG_LTO=y
CONFIG_OPTIMIZE_LEVEL=2
CONFIG_CONFIGURED=y
C
  echo '/* written by bench/embench/rv32emu/build.sh */' > "$d/src/rv32emu_config.h"
  make -C "$d" -j2 > "$d.log" 2>&1 || { echo "build.sh: rv32emu ($kind) did not build; see $d.log" >&2; exit 1; }
  echo "$d/build/rv32emu"
done
