#!/bin/sh
# Builds the speed-comparison programs of bench/picorv32-rtl.md into OUT:
# b_sort.elf, b_crc.elf, b_mat.elf (each kernel 40 times, rv32imac -O2).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../../tests/cores/picorv32
out=${1:?usage: build.sh OUT_DIR}
mkdir -p "$out"
flags="-march=rv32imac -mabi=ilp32 -misa-spec=2.2"
riscv64-unknown-elf-gcc $flags -O2 -ffreestanding -DREPEAT=40 -c "$here/driver.c" -o "$out/driver.o"
for k in sort crc mat; do
  riscv64-unknown-elf-gcc $flags -O2 -ffreestanding -Dmain=kernel_main -c "$src/c/$k.c" -o "$out/k_$k.o"
  riscv64-unknown-elf-gcc $flags -nostdlib -nostartfiles -T "$src/link.ld" -Wl,--no-warn-rwx-segments \
    "$src/crt0.S" "$out/driver.o" "$out/k_$k.o" -lgcc -o "$out/b_$k.elf"
done
