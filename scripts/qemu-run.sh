#!/usr/bin/env bash
# qemu-run.sh PROG.elf [ARGS...]
#
# Runs a board program on QEMU's `virt` machine the way tally runs it:
# program output (semihosting console and UART) on stdout, the program's
# exit status as ours, and the command line "PROG.elf ARGS..." delivered
# through semihosting SYS_GET_CMDLINE (argv[0] is the ELF's base name, as
# tally passes it unless --argv0-path).
#
# Environment:
#   QEMU_SYSTEM_RISCV32  QEMU binary (default: qemu-system-riscv32)
#   QEMU_TIMEOUT         seconds before QEMU is killed (default 60);
#                        a timeout exits with status 124
#   QEMU_EXTRA_ARGS      extra QEMU options, split at spaces
set -u

if [ $# -lt 1 ]; then
  echo "usage: qemu-run.sh PROG.elf [ARGS...]" >&2
  exit 2
fi
elf=$1
qemu=${QEMU_SYSTEM_RISCV32:-qemu-system-riscv32}
timeout_s=${QEMU_TIMEOUT:-60}

if ! command -v "$qemu" >/dev/null 2>&1; then
  echo "qemu-run.sh: $qemu not found (Debian package qemu-system-misc)" >&2
  exit 127
fi
if [ ! -r "$elf" ]; then
  echo "qemu-run.sh: cannot read $elf" >&2
  exit 2
fi

# Semihosting arguments: QEMU joins them with single spaces into the
# command line. A comma inside a QEMU option value is written as ",,".
semi="enable=on,target=native,chardev=con"
for a in "$(basename -- "$elf")" "${@:2}"; do
  case $a in
    *" "*|*$'\t'*|"")
      echo "qemu-run.sh: warning: argument '$a' is empty or has blanks; the program will not see it as one argument" >&2 ;;
  esac
  semi+=",arg=${a//,/,,}"
done

# At a terminal, QEMU must stay in the foreground process group to read
# the keyboard and set the terminal mode (timeout would move it out).
fg=()
[ -t 0 ] && fg=(--foreground)

# shellcheck disable=SC2086
exec timeout "${fg[@]}" --kill-after=5 "$timeout_s" "$qemu" \
  -M virt -bios none -nographic -monitor none \
  -chardev stdio,id=con,mux=on -serial chardev:con \
  -semihosting-config "$semi" \
  ${QEMU_EXTRA_ARGS:-} \
  -kernel "$elf"
