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
  gdb-multiarch                          # the GDB stub's tests (tests/gdb)
  libmicrohttpd-dev libjansson-dev       # tally serve
  nodejs                                 # tally serve's page is built with npm packages (src/serve/web)
  chromium                               # tally serve's browser tests (tests/serve)
  python3-matplotlib                     # scripts/sweep-plot.py (tally sweep plots)
  slurm-wlm munge                        # tally sweep --slurm on a one-node cluster (tests/sweep)
  verilator yosys                        # rtl/: co-simulation, synthesis (tests/rtl)
  nextpnr-ice40                          # rtl/fmax.py: iCE40 place and route, Fmax (rtl.fmax.small)
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Debian's nodejs comes without npm; a nodejs from elsewhere may bring its own.
command -v npm >/dev/null || missing+=(npm)

# The npm packages of tally serve's page (uPlot, d3-flame-graph, cytoscape,
# esbuild: src/serve/web/package.json) and of its browser tests
# (playwright-core), each from its committed package-lock.json; a no-op once
# installed, so builds and tests never need the network.
serve_npm() {
  "$(dirname "$0")/../src/serve/web/setup.sh"
  "$(dirname "$0")/../tests/serve/browser/setup.sh"
}

if [ ${#missing[@]} -eq 0 ]; then
  serve_npm
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
serve_npm
