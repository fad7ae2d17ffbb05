#!/bin/sh
# Runs one ISA test program on QEMU's virt machine; exits with its status.
# usage: run-qemu.sh QEMU PROG.elf [extra QEMU options...]
# Exits 77 (the CTest SKIP_RETURN_CODE) when QEMU is not installed.
# The UART is the machine's first serial port, multiplexed with the
# semihosting console on stdio.
QEMU=$1
ELF=$2
shift 2
if ! command -v "$QEMU" >/dev/null 2>&1; then
    echo "run-qemu.sh: $QEMU not found, skipping" >&2
    exit 77
fi
exec timeout 20 "$QEMU" -M virt -bios none -nographic -monitor none \
    -chardev stdio,id=con,mux=on -serial chardev:con \
    -semihosting-config enable=on,target=native,chardev=con \
    "$@" -kernel "$ELF" </dev/null
