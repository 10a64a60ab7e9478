#!/usr/bin/env bash
# Keeps what a fuzzing campaign found, minimized, beside the generated seeds.
#
# Usage: bash scripts/fuzz_cmin.sh TARGET [DIR...]
#
# fuzz/corpus/TARGET holds two kinds of files: the generator's seeds
# (tests/fuzz_replay.rs, `regenerate_seed_corpora`, which owns every file
# not named min-*) and min-* files, inputs a campaign found. This script
# runs `cargo fuzz cmin` over all of them together with the campaign's
# directories (DIR...), then replaces the min-* files with the survivors
# that are not generated seeds, each named min-<sha1 prefix> of its bytes.
# So regenerating the seeds never drops a campaign's find, and minimizing
# never drops a generated seed. What cmin keeps is what the edges alone call
# new (see the comment at `cargo fuzz cmin` below).
# Needs a nightly toolchain and cargo-fuzz. Exit status: cargo fuzz's, or 2
# for a usage error.
set -euo pipefail
if [ "$#" -lt 1 ]; then
  echo "usage: bash scripts/fuzz_cmin.sh TARGET [DIR...]" >&2
  exit 2
fi
target="$1"
shift
dirs=()
for d in "$@"; do
  if [ ! -d "$d" ]; then
    echo "fuzz_cmin: $d is not a directory" >&2
    exit 2
  fi
  dirs+=("$(cd "$d" && pwd)")
done
cd "$(dirname "$0")/../fuzz"
corpus="corpus/$target"
if [ ! -d "$corpus" ]; then
  echo "fuzz_cmin: no corpus for target $target" >&2
  exit 2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/all"
cp "$corpus"/* "$work/all/"
for d in "${dirs[@]}"; do
  find "$d" -maxdepth 1 -type f -exec cp {} "$work/all/" \;
done
before=$(find "$work/all" -type f | wc -l)
# Edges only (no hit counts, no value profile): the committed corpus keeps
# one input per branch reached, so it stays a few dozen files; a
# campaign's own working corpus keeps the finer features.
cargo +nightly fuzz cmin "$target" "$work/all" -- -use_counters=0 -use_value_profile=0
rm -f "$corpus"/min-*
kept=0
for f in "$work/all"/*; do
  name="$(basename "$f")"
  if [[ "$name" != min-* ]] && [ -e "$corpus/$name" ] && cmp -s "$f" "$corpus/$name"; then
    continue # a generated seed: it stays whatever cmin decided
  fi
  sum="$(sha1sum "$f" | cut -c1-16)"
  cp "$f" "$corpus/min-$sum"
  kept=$((kept + 1))
done
echo "fuzz_cmin: $target: $before inputs minimized; $kept kept as min-* beside $(find "$corpus" -type f ! -name 'min-*' | wc -l) generated seeds"
