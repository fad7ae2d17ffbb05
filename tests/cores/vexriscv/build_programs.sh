#!/bin/sh
# build_programs.sh OUT_DIR [CC] -- build every program of programs.txt into
# OUT_DIR/NAME.elf and OUT_DIR/NAME.bin (the flat image the RTL testbench
# loads at 0x40000000): crt.S with NAME.S or NAME.c, or a line's FILES. CC defaults to riscv64-unknown-elf-gcc; objcopy and
# nm are taken from beside it.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then echo "usage: build_programs.sh OUT_DIR [CC]" >&2; exit 2; fi
out=$1
cc=${2:-riscv64-unknown-elf-gcc}
prefix=${cc%gcc}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
grep -v '^#' "$here/programs.txt" | while read -r name march files; do
    [ -n "$name" ] || continue
    if [ -n "$files" ]; then
        # FILES: the start-up and sources (paths from this directory) and
        # flags, in place of crt.S and NAME.S or NAME.c
        srcs=""; opt="-O2"
        for f in $files; do
            case $f in -*) srcs="$srcs $f" ;; *) srcs="$srcs $here/$f" ;; esac
        done
    elif [ -f "$here/$name.S" ]; then srcs="$here/crt.S $here/$name.S"; opt=""
    else srcs="$here/crt.S $here/$name.c"; opt="-O2"; fi
    # shellcheck disable=SC2086
    "$cc" -march="$march" -mabi=ilp32 $opt -nostdlib -nostartfiles -ffreestanding \
        -I"$here" -T "$here/link.ld" -Wl,--no-warn-rwx-segments \
        -o "$out/$name.elf" $srcs -lgcc
    "${prefix}objcopy" -O binary "$out/$name.elf" "$out/$name.bin"
done
