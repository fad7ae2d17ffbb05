#!/bin/sh
# A long fuzzing session of every target, for a person or a nightly job:
#   fuzz/long_run.sh BUILD_DIR [SECONDS_EACH]   (default 3600)
# Corpora grow in BUILD_DIR/fuzz/long/<target>/corpus and are kept between
# sessions; a crash leaves its input as BUILD_DIR/fuzz/long/<target>/crash-*.
# Run the targets one after another (each may use a core).
set -u
build=$1 seconds=${2:-3600}
here=$(dirname "$0")
status=0
for t in decode elf lines map; do
  bin=$build/fuzz/fuzz_$t
  [ -x "$bin" ] || { echo "no $bin (cmake --build $build --target fuzz_$t)"; status=1; continue; }
  w=$build/fuzz/long/$t
  mkdir -p "$w/corpus" "$w/seeds"
  if [ "$t" = decode ]; then
    python3 "$here/make_corpus.py" "$here/../docs/protocol.md" "$w/seeds" || status=1
    len=1500
  elif [ "$t" = map ]; then
    find "$build" -name '*.map' -size -1024k | head -50 | while read -r f; do cp "$f" "$w/seeds/"; done
    len=262144
  else
    find "$build/tests" "$build/target" -name '*.elf' -size -256k | head -50 |
      while read -r f; do cp "$f" "$w/seeds/$(basename "$(dirname "$f")")_$(basename "$f")"; done
    len=262144
  fi
  echo "fuzz_$t: $seconds s"
  "$bin" -max_total_time="$seconds" -max_len=$len -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$w/" "$w/corpus" "$w/seeds" || status=1
done
exit $status
