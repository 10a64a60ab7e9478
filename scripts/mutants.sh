#!/usr/bin/env bash
# cargo-mutants on the core (docs/fuzzing.md, "cargo-mutants on the core").
#
# Usage: bash scripts/mutants.sh [K/N] [more cargo-mutants arguments]
#   bash scripts/mutants.sh 0/5                 # a round-robin fifth
#   bash scripts/mutants.sh 0/1 --in-diff D     # the mutants a diff touches
#
# Mutates the root package's src/ (the core, the session, the legacy path,
# the stdio driver; not the binary's front end in src/cli/ and src/main.rs)
# in a scratch copy of the working tree, never in the tree itself, and runs
# the tests that exercise them: the unit tests, behavior, golden, canonical,
# properties, rows, legacy, spec_rules, state_machine, fuzz_replay (the
# committed fuzz corpora through the fuzz checks), binary (the stdio
# driver in the real binary) and http (the HTTP binding against the model),
# built with the
# `mutants` profile (Cargo.toml). The results go to target/mutants-out/
# (MUTANTS_OUT overrides). Needs cargo-mutants (`cargo install
# cargo-mutants --locked`). Exit status: cargo-mutants' own (0 every viable
# mutant caught, 2 some missed, 3 some timed out, 4 the tests fail on the
# unmutated tree); 2 as well when a usage or setup step fails.
set -euo pipefail
shard="${1:-0/5}"
[ "$#" -gt 0 ] && shift
root="$(cd "$(dirname "$0")/.." && pwd)"
if ! cargo mutants --version >/dev/null 2>&1; then
  echo "mutants: cargo-mutants is not installed (cargo install cargo-mutants --locked)" >&2
  exit 2
fi
# The scratch copy is elsewhere, so the relative paths of .cargo/config.toml
# would miss the schemas and the textbook: pass them as absolute paths.
MCP_SPEC_DIR="$(cd "${MCP_SPEC_DIR:-$root/../shared/spec}" && pwd)"
MCP_TEXTBOOK_DIR="$(cd "${MCP_TEXTBOOK_DIR:-$root/../shared/textbook}" && pwd)"
export MCP_SPEC_DIR MCP_TEXTBOOK_DIR
out="${MUTANTS_OUT:-$root/target/mutants-out}"
mkdir -p "$out"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
tar -C "$root" --exclude=./target --exclude=./fuzz/target --exclude=./fuzz/coverage \
  --exclude=./.git -cf - . | tar -C "$scratch" -xf -
tests=(--lib --test=behavior --test=golden --test=canonical --test=properties
  --test=rows --test=legacy --test=spec_rules --test=state_machine --test=fuzz_replay
  --test=binary --test=http)
args=()
for t in "${tests[@]}"; do args+=("--cargo-arg=$t"); done
cd "$scratch"
cargo mutants --in-place --package mcp-reference \
  --exclude 'src/cli/**' --exclude src/main.rs \
  --shard "$shard" --sharding round-robin --profile mutants \
  --timeout 180 --build-timeout 900 -o "$out" "${args[@]}" "$@"
