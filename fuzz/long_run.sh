#!/bin/sh
# A long fuzzing session, for a person or a nightly job (CI runs the short
# ones: fuzz.decode, fuzz.lines, ..., fuzz.*_replay):
#   fuzz/long_run.sh BUILD_DIR [RUNS_EACH [TARGET...]]
# runs each libFuzzer target to RUNS_EACH executions (default 10,000,000;
# targets by default: decode collector elf lines map trace; build them first,
# fuzz_elf with `cmake --build BUILD_DIR --target fuzz_elf`). Environment:
#   FUZZ_MAX_SECONDS  also stop each target after this many seconds (default
#                     none); a target stopped so is reported short of RUNS_EACH
# Corpora grow in BUILD_DIR/fuzz/long/<target>/corpus and are kept between
# sessions; a crash leaves its input as BUILD_DIR/fuzz/long/<target>/crash-*.
# Each target's figures (executions, seconds, executions per second, corpus
# size, result) are appended to BUILD_DIR/fuzz/long/summary.txt and printed.
# Exit status: 0 when every target ran to RUNS_EACH without a failure, 1 if
# any failed, 2 if none failed but some stopped short.
set -u
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [RUNS_EACH [TARGET...]]" >&2; exit 64; }
build=$1
runs=${2:-10000000}
[ $# -ge 2 ] && shift 2 || shift $#
targets=${*:-decode collector elf lines map trace}
here=$(cd "$(dirname "$0")" && pwd)
case $runs in '' | *[!0-9]*) echo "RUNS_EACH must be a whole number, not '$runs'" >&2; exit 64 ;; esac
maxt=${FUZZ_MAX_SECONDS:-0}
failed=0 short=0
mkdir -p "$build/fuzz/long"
summary=$build/fuzz/long/summary.txt
for t in $targets; do
  bin=$build/fuzz/fuzz_$t
  if [ ! -x "$bin" ]; then
    echo "fuzz_$t: not built (cmake --build $build --target fuzz_$t)" | tee -a "$summary"
    failed=1
    continue
  fi
  w=$build/fuzz/long/$t
  mkdir -p "$w/corpus" "$w/seeds"
  case $t in
  decode) python3 "$here/make_corpus.py" "$here/../docs/protocol.md" "$w/seeds" >/dev/null || failed=1; len=1500 ;;
  collector) cp "$here/corpus/collector/"* "$w/seeds/"; len=16384 ;;
  map)
    find "$build" -name '*.map' -size -1024k | head -50 | while read -r f; do cp "$f" "$w/seeds/"; done
    len=262144 ;;
  trace) len=262144 ;;
  *)
    find "$build/tests" "$build/target" -name '*.elf' -size -256k | head -50 |
      while read -r f; do cp "$f" "$w/seeds/$(basename "$(dirname "$f")")_$(basename "$f")"; done
    [ "$t" = elf ] && cp "$here/corpus/elf/"* "$w/seeds/" 2>/dev/null
    len=262144 ;;
  esac
  for f in "$here/regressions/$t"-*; do [ -f "$f" ] && cp "$f" "$w/seeds/"; done
  log=$w/last.log
  start=$(date +%s)
  echo "fuzz_$t: to $runs executions${maxt:+ (at most $maxt s)} ..."
  # -error_exitcode: libFuzzer's default of 77 reads as "skipped" elsewhere here
  "$bin" -runs="$runs" -max_total_time="$maxt" -max_len=$len -timeout=10 -rss_limit_mb=2048 -seed=1 \
    -error_exitcode=1 -timeout_exitcode=1 -print_final_stats=1 \
    -artifact_prefix="$w/" "$w/corpus" "$w/seeds" >"$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  [ -n "$done_runs" ] || done_runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
  [ -n "$done_runs" ] || done_runs=$(sed -n 's/.*#\([0-9]*\)\t.*/\1/p' "$log" | tail -1)
  done_runs=${done_runs:-0}
  rate=$(( secs > 0 ? done_runs / secs : done_runs ))
  files=$(ls "$w/corpus" | wc -l)
  if [ $rc -ne 0 ]; then
    result="FAILED (status $rc; see $log and $w/crash-*)"
    failed=1
  elif [ "$done_runs" -lt "$runs" ]; then
    result="stopped short of $runs"
    short=1
  else
    result=ok
  fi
  line="$(date -u +%Y-%m-%dT%H:%MZ) fuzz_$t: $done_runs executions in $secs s ($rate/s), corpus $files files: $result"
  echo "$line" | tee -a "$summary"
done
[ $failed -ne 0 ] && exit 1
[ $short -ne 0 ] && exit 2
exit 0
