#!/usr/bin/env bash
# dvfs.stop: tally dvfs on a program that never ends (forever.elf) stops on
# --max-insns, --timeout, Ctrl-C and SIGTERM, says what it measured up to
# the stop and keeps the scratch directory.
# Usage: run_dvfs_stop.sh TALLY FOREVER_ELF
set -u
TALLY=$1
ELF=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() { # check RC WANT_RC MAX_MS MS WORDS...
  local rc=$1 want=$2 max=$3 ms=$4
  shift 4
  [ "$rc" -eq "$want" ] || fail "exit $rc, expected $want"
  [ "$ms" -le "$max" ] || fail "took $ms ms, expected at most $max"
  for w in "$@"; do
    grep -qF -- "$w" "$WORK/all" || { fail "output lacks '$w'"; cat "$WORK/all"; }
  done
  # the kept scratch directory, removed here
  dir=$(sed -n 's/^tally dvfs: scratch files kept in //p' "$WORK/all")
  if [ -n "$dir" ] && [ -d "$dir" ]; then rm -rf "$dir"; else fail "no scratch directory kept"; fi
}
now() { echo $(($(date +%s%N) / 1000000)); }

t0=$(now)
"$TALLY" dvfs "$ELF" -o "$WORK/o.elf" --max-insns 5M >"$WORK/all" 2>&1
check $? 124 20000 $(($(now) - t0)) "--max-insns reached after 5000000 instructions" \
  "5000000 instructions" "up to the stop (partial)"

t0=$(now)
"$TALLY" dvfs "$ELF" -o "$WORK/o.elf" --timeout 1 >"$WORK/all" 2>&1
check $? 124 3000 $(($(now) - t0)) "--timeout reached after"

for sig in INT TERM; do
  "$TALLY" dvfs "$ELF" -o "$WORK/o.elf" >"$WORK/all" 2>&1 &
  pid=$!
  sleep 1
  t0=$(now)
  kill -$sig $pid
  wait $pid
  check $? 130 2000 $(($(now) - t0)) "interrupted after" "up to the stop (partial)"
done

"$TALLY" dvfs "$ELF" -o "$WORK/o.elf" --max-insns 0 >"$WORK/all" 2>&1
[ $? -eq 64 ] && grep -q -- "--max-insns '0'" "$WORK/all" || fail "--max-insns 0 not refused"
"$TALLY" dvfs "$ELF" -o "$WORK/o.elf" --timeout -1 >"$WORK/all" 2>&1
[ $? -eq 64 ] && grep -q -- "--timeout '-1'" "$WORK/all" || fail "--timeout -1 not refused"

[ "$fails" -eq 0 ] && echo ok || exit 1
