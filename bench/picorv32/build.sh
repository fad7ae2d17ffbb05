#!/bin/sh
# Builds the speed-comparison programs of bench/picorv32-rtl.md into OUT:
# b_sort.elf, b_crc.elf, b_mat.elf (each kernel REPEAT times, default 40,
# rv32imac -O2).  usage: build.sh OUT_DIR [REPEAT]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../../tests/cores/picorv32
out=${1:?usage: build.sh OUT_DIR [REPEAT]}
rep=${2:-40}
case $rep in
  ''|*[!0-9]*|0*) echo "build.sh: REPEAT '$rep': not a positive count" >&2; exit 2 ;;
esac
mkdir -p "$out"
flags="-march=rv32imac -mabi=ilp32 -misa-spec=2.2"
riscv64-unknown-elf-gcc $flags -O2 -ffreestanding -DREPEAT="$rep" -c "$here/driver.c" -o "$out/driver.o"
for k in sort crc mat; do
  riscv64-unknown-elf-gcc $flags -O2 -ffreestanding -Dmain=kernel_main -c "$src/c/$k.c" -o "$out/k_$k.o"
  riscv64-unknown-elf-gcc $flags -nostdlib -nostartfiles -T "$src/link.ld" -Wl,--no-warn-rwx-segments \
    "$src/crt0.S" "$out/driver.o" "$out/k_$k.o" -lgcc -o "$out/b_$k.elf"
done
