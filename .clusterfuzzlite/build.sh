#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script: builds every cargo-fuzz target
# (the base image's cargo adds the sanitizer and coverage flags) and puts
# each binary in $OUT with its seed corpus (corpus and regression inputs)
# and its dictionary, under the names the runners look for.
cd "$SRC/mcp-reference"
cargo fuzz build -O
release=fuzz/target/x86_64-unknown-linux-gnu/release
for target in $(cargo fuzz list); do
  cp "$release/$target" "$OUT/"
  seeds=(fuzz/corpus/"$target"/*)
  if [ -d "fuzz/regressions/$target" ]; then
    seeds+=(fuzz/regressions/"$target"/*)
  fi
  zip -j -q "$OUT/${target}_seed_corpus.zip" "${seeds[@]}"
  if [ -f "fuzz/dict/$target.dict" ]; then
    cp "fuzz/dict/$target.dict" "$OUT/$target.dict"
  fi
done
