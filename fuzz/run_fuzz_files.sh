#!/bin/sh
# Runs one file-reader fuzz target (fuzz_elf, fuzz_lines, fuzz_map) for a
# bounded time, seeded with real files of its kind from the build: the test
# programs and workloads (ELF, with DWARF) or their linker maps. Exit 77
# (skipped) when the target could not be built.
#   run_fuzz_files.sh FUZZER WORKDIR SECONDS BUILD_DIR elf|lines|map|trace|board
# (trace: binary instruction traces, seeded from fuzz/regressions alone;
# board: board files, seeded from boards/*.ini)
fuzzer=$1 work=$2 seconds=$3 build=$4 kind=$5
if [ ! -x "$fuzzer" ]; then
  echo "fuzz.$kind skipped: no clang with libFuzzer (install clang and libclang-rt-14-dev)"
  exit 77
fi
rm -rf "$work/seeds" "$work/corpus"
mkdir -p "$work/seeds" "$work/corpus" || exit 1
if [ "$kind" = trace ]; then
  :
elif [ "$kind" = board ]; then
  cp "$(dirname "$0")"/../boards/*.ini "$work/seeds/"
elif [ "$kind" = map ]; then
  find "$build" -name '*.map' -size -1024k | head -20 | while read -r f; do cp "$f" "$work/seeds/"; done
else
  # small ELF files first: libFuzzer's -max_len keeps inputs near them
  find "$build/tests" "$build/target" -name '*.elf' -size -256k 2>/dev/null | head -20 |
    while read -r f; do cp "$f" "$work/seeds/$(basename "$(dirname "$f")")_$(basename "$f")"; done
fi
# inputs that once failed (fuzz/regressions/KIND-*) are always among the seeds
for f in "$(dirname "$0")/regressions/$kind"-*; do [ -f "$f" ] && cp "$f" "$work/seeds/"; done
[ -n "$(ls "$work/seeds")" ] || { echo "fuzz.$kind skipped: no seed files in $build"; exit 77; }
exec "$fuzzer" -error_exitcode=1 -timeout_exitcode=1 -max_total_time="$seconds" -seed=1 -max_len=262144 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$work/" "$work/corpus" "$work/seeds"
