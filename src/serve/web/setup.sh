#!/usr/bin/env bash
# Installs the page's npm packages (src/serve/web/package.json) exactly as
# package-lock.json pins them, into src/serve/web/node_modules. A no-op when
# that lock is installed already (its copy in node_modules/.tally-lock), so a
# build needs the network only the first time; scripts/install-deps.sh runs
# this, and the CMake build does when node_modules is missing or stale.
set -euo pipefail
cd "$(dirname "$0")"
if [ -f node_modules/.tally-lock ] && cmp -s package-lock.json node_modules/.tally-lock; then
  exit 0
fi
command -v npm >/dev/null || { echo "src/serve/web/setup.sh: npm is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
npm ci --no-audit --no-fund --loglevel=error
cp package-lock.json node_modules/.tally-lock
