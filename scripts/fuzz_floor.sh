#!/usr/bin/env bash
# How fast could each fuzz target be if its oracle cost nothing?
# (docs/fuzzing.md, "The floor: the core runs alone").
#
# Usage: bash scripts/fuzz_floor.sh [fuzz_rates.py options] LABEL=DIR|REV...
#   bash scripts/fuzz_floor.sh before=238ecf5 now=HEAD
#   bash scripts/fuzz_floor.sh --seconds 600 --rounds 1 --targets session now=HEAD
#
# Builds, in a scratch copy of HEAD with scripts/fuzz_floor.patch applied,
# every fuzz target as its floor: the same input, decoded and rendered as
# the real target does, and the core run as many times as the target's
# assertions need (the answer, the same line again for determinism, the
# server without the forbidden orders for noninterference; the session and
# its twin for `session`), with no model, no comparison and no reply read.
# It builds them twice: `floor3` with those runs, `floor1` with the answer
# alone (`FUZZ_FLOOR_ONE_RUN`). Then it runs scripts/fuzz_rates.py with the
# builds given and the two floors after them, in the same alternating
# rounds, cargo fuzz's default build flags (AddressSanitizer included) for
# all. Needs a nightly toolchain and cargo-fuzz. The checkout is never
# written. Exit status: fuzz_rates.py's; 1 when the patch no longer applies
# or a floor build fails; 2 for a usage error.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "$#" -eq 0 ]; then
  echo "usage: bash scripts/fuzz_floor.sh [fuzz_rates.py options] LABEL=DIR|REV..." >&2
  exit 2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mkdir "$work/src"
git -C "$root" archive HEAD | tar -x -C "$work/src"
if ! (cd "$work/src" && git apply "$root/scripts/fuzz_floor.patch"); then
  echo "fuzz_floor: scripts/fuzz_floor.patch no longer applies to HEAD; refresh it" >&2
  exit 1
fi
cd "$work/src/fuzz"
release="$work/target/x86_64-unknown-linux-gnu/release"
for floor in floor3 floor1; do
  echo "fuzz_floor: building $floor" >&2
  if [ "$floor" = floor1 ]; then
    export FUZZ_FLOOR_ONE_RUN=1
  fi
  if ! cargo +nightly fuzz build --target-dir "$work/target" >"$work/build.log" 2>&1; then
    tail -n 20 "$work/build.log" >&2
    echo "fuzz_floor: building $floor failed" >&2
    exit 1
  fi
  mkdir "$work/$floor"
  for target in $(cargo +nightly fuzz list); do
    cp "$release/$target" "$work/$floor/"
  done
done
unset FUZZ_FLOOR_ONE_RUN
# The two floors must differ, or the second build did not see the switch.
if cmp -s "$work/floor3/respond_bytes" "$work/floor1/respond_bytes"; then
  echo "fuzz_floor: floor1 was built the same as floor3" >&2
  exit 1
fi
python3 "$root/scripts/fuzz_rates.py" "$@" floor3="$work/floor3" floor1="$work/floor1"
