#!/usr/bin/env bash
# Installs the browser tests' npm packages (playwright-core only: it drives
# Debian's /usr/bin/chromium; no browser is downloaded) from the committed
# package-lock.json. A no-op when they are there already, so tests never
# need the network once scripts/install-deps.sh has run this.
set -euo pipefail
cd "$(dirname "$0")"
if [ -f node_modules/.package-lock.json ] && cmp -s <(sed -n '/"node_modules\/playwright-core"/,/}/p' package-lock.json) \
     <(sed -n '/"node_modules\/playwright-core"/,/}/p' node_modules/.package-lock.json); then
  exit 0
fi
command -v npm >/dev/null || { echo "setup.sh: npm is missing (apt-get install npm)" >&2; exit 1; }
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
