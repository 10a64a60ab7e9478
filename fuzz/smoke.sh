#!/usr/bin/env bash
# Fuzz smoke: builds every fuzz target and runs each for SECONDS (default
# 60) from its committed seed corpus and regression inputs, new inputs
# going to a scratch directory (the committed corpus is never written).
# A crash, a failed assertion, a timeout or an out-of-memory fails the run
# and prints the input. Without a nightly toolchain (cargo-fuzz needs one)
# or cargo-fuzz it says so and skips, exit 0; under CI=true it says so and
# fails, exit 1: a CI run that could not fuzz is not green (.ci/run
# installs both first; docs/fuzzing.md, "In CI"). Usage: bash
# fuzz/smoke.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"

# Cannot run: a skip, or under CI=true a failure.
cannot() {
  if [ "${CI:-}" = true ]; then
    echo "fuzz smoke FAILED: $1; under CI=true the smoke must run" >&2
    exit 1
  fi
  echo "fuzz smoke SKIPPED: $1"
  exit 0
}

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  cannot "no nightly toolchain on this machine (cargo-fuzz needs one)"
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "fuzz smoke: installing cargo-fuzz"
  if ! cargo install cargo-fuzz --locked; then
    cannot "cargo-fuzz could not be installed"
  fi
fi
cargo +nightly fuzz --version

echo "fuzz smoke: building every target"
cargo +nightly fuzz build

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
for target in $(cargo +nightly fuzz list); do
  mkdir -p "$work/$target"
  dirs=("$work/$target" "corpus/$target")
  [ -d "regressions/$target" ] && dirs+=("regressions/$target")
  dict=()
  [ -f "dict/$target.dict" ] && dict=("-dict=dict/$target.dict")
  log="$work/$target.log"
  echo "fuzz smoke: $target for ${seconds}s"
  if cargo +nightly fuzz run "$target" "${dirs[@]}" -- \
    -max_total_time="$seconds" -timeout=10 -print_final_stats=1 "${dict[@]}" >"$log" 2>&1; then
    # The last status line: total executions, coverage (edges), exec/s.
    grep -E '^#[0-9]+' "$log" | tail -n 1 || true
    grep -E 'stat::(number_of_executed_units|average_exec_per_sec)' "$log" || true
  else
    status=1
    echo "fuzz smoke FAILED: $target" >&2
    tail -n 60 "$log" >&2
  fi
done
exit "$status"
