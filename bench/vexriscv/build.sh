#!/bin/sh
# build.sh OUT_DIR [REPEAT] -- the speed-comparison programs of
# bench/vexriscv.md, tests/cores/vexriscv/crc.c's kernel run REPEAT times
# (default 100), rv32i -O2 (every variant runs them), linked for the
# LiteX-like board with the differential programs' link.ld:
#   OUT_DIR/b_crc_REPEAT.{elf,bin}      driver.c calls it (crt.S's start-up)
#   OUT_DIR/b_crcloop_REPEAT.{elf,bin}  crt.S's start-up calls it (-DREPEAT)
# The .bin is the flat image the RTL testbench loads at 0x40000000.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then echo "usage: build.sh OUT_DIR [REPEAT]" >&2; exit 2; fi
out=$1
rep=${2:-100}
case $rep in
  ''|*[!0-9]*|0*) echo "build.sh: REPEAT '$rep': not a positive count" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../../tests/cores/vexriscv
cc=riscv64-unknown-elf-gcc
mkdir -p "$out"
flags="-march=rv32i_zicsr -mabi=ilp32 -O2 -ffreestanding -I$src"
ld="-nostdlib -nostartfiles -T $src/link.ld -Wl,--no-warn-rwx-segments"
# shellcheck disable=SC2086
{
  $cc $flags -DREPEAT="$rep" -c "$here/driver.c" -o "$out/driver_$rep.o"
  $cc $flags -Dmain=kernel_main -c "$src/crc.c" -o "$out/k_crc.o"
  $cc $flags $ld -o "$out/b_crc_$rep.elf" "$src/crt.S" "$out/driver_$rep.o" "$out/k_crc.o" -lgcc
  $cc $flags $ld -DREPEAT="$rep" -o "$out/b_crcloop_$rep.elf" "$src/crt.S" "$src/crc.c" -lgcc
}
for p in b_crc b_crcloop; do
  riscv64-unknown-elf-objcopy -O binary "$out/${p}_$rep.elf" "$out/${p}_$rep.bin"
done
