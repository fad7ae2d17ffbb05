#!/bin/sh
# Runs the decoder fuzz target for a bounded time from the document's
# vectors. Exit 77 (skipped) when the target could not be built.
#   run_fuzz.sh FUZZER DOC WORKDIR SECONDS
fuzzer=$1 doc=$2 work=$3 seconds=$4
if [ ! -x "$fuzzer" ]; then
  echo "fuzz.decode skipped: no clang with libFuzzer (install clang and libclang-rt-14-dev)"
  exit 77
fi
rm -rf "$work/seeds" "$work/corpus"
mkdir -p "$work/corpus" || exit 1
python3 "$(dirname "$0")/make_corpus.py" "$doc" "$work/seeds" || exit 1
exec "$fuzzer" -error_exitcode=1 -timeout_exitcode=1 -max_total_time="$seconds" -seed=1 -max_len=1500 -timeout=5 -rss_limit_mb=1024 \
  -artifact_prefix="$work/" "$work/corpus" "$work/seeds"
