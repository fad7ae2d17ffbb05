#!/usr/bin/env bash
# Installs the Debian packages tally needs to build, test and benchmark.
# Safe to run repeatedly: it asks apt only for what is missing.
set -euo pipefail

PKGS=(
  build-essential cmake pkg-config
  gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf picolibc-riscv64-unknown-elf
  qemu-system-misc
  libelf-dev libdw-dev libinih-dev
  libsqlite3-dev sqlite3
  libgcrypt20-dev
  clang libclang-rt-14-dev
  python3
  valgrind
  gdb-multiarch
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
