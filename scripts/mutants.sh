#!/usr/bin/env bash
# cargo-mutants on the root package (docs/fuzzing.md, "cargo-mutants on the
# core").
#
# Usage: bash scripts/mutants.sh [driver] [K/N] [more cargo-mutants arguments]
#   bash scripts/mutants.sh 0/5                 # a round-robin fifth of the core
#   bash scripts/mutants.sh 0/1 --in-diff D     # the core's mutants a diff touches
#   bash scripts/mutants.sh driver 0/1          # the binary's front end
#   bash scripts/mutants.sh oracle 0/60         # a sixtieth of the checker
#   bash scripts/mutants.sh judge 0/1           # the client judge (src/judge/)
#
# The core (the default): mutates the root package's src/ but the binary's
# front end and the judge (the core, the session, the legacy path, the stdio driver, the
# HTTP binding and its authorization step, the catalog) and runs the tests
# that exercise them: the unit tests, behavior, golden, canonical,
# properties, rows, legacy, spec_rules, state_machine, fuzz_replay (the
# committed fuzz corpora through the fuzz checks), binary (the stdio
# driver in the real binary), http (the HTTP binding against the model),
# http_auth (the authorization step against the model), mrtr and
# mrtr_state_machine (multi round-trip requests against their model),
# vectors and http_vectors (every committed vector re-answered byte for
# byte), command_line (the stdio driver's one-time hint for a refused
# initialize).
#
# `driver`: mutates src/cli/ and src/main.rs (serve --http's driver, the
# issuer's keys and the token cache, demo, the command line) and runs the
# binary's unit tests and the tests that run the real binary: binary,
# command_line, http_binary, http_auth_binary, http_state_machine,
# http_edges (refusals before the body, a stalled issuer), mrtr_binary (the
# driver's clock in the states it issues), golden (the demo's transcript)
# and oidc (against oidc-provider when MCP_OIDC_PROVIDER names
# its install, as in .ci/run; without it those tests say so and pass).
#
# `oracle`: mutates the checker and the vector replayer of the tools package
# (tools/src/check/ and tools/src/vectors/, the oracle implementers trust)
# and runs the tools' unit tests and the tests that hold them to the fault
# fixtures: check, check_http, check_http_auth, vectors (both replayers)
# and judgement (both replayers' judgement fed fault transcripts). The
# reference binary and the fault fixtures (which never link the mutated
# code) are built once before the first mutant, in target/mutants-oracle/
# (kept between runs), so each mutant rebuilds only the tools package. A mutant that survives and turns a FAIL into a PASS is
# a missing fault fixture (docs/fuzzing.md, "cargo-mutants on the oracle").
#
# `judge`: mutates the client judge (src/judge/, issue 48) and runs the
# tests that hold it: the unit tests (each rule held and broken),
# judge_state_machine (a correct client never found at fault), judge_docs
# (the rule table and the report's shape) and fuzz_replay (the judge's
# committed seeds and regressions). The core's own tests are the core
# scope's.
#
# Any scope runs in a scratch copy of the working tree, never in the tree
# itself, built with the `mutants` profile (Cargo.toml). The results go to
# target/mutants-out/ (MUTANTS_OUT overrides). Needs cargo-mutants
# (`cargo install cargo-mutants --locked`). Exit status: cargo-mutants' own
# (0 every viable mutant caught, 2 some missed, 3 some timed out, 4 the
# tests fail on the unmutated tree); 2 as well when a usage or setup step
# fails.
set -euo pipefail
scope=core
if [ "${1:-}" = driver ] || [ "${1:-}" = oracle ] || [ "${1:-}" = judge ]; then
  scope="$1"
  shift
fi
shard="${1:-0/5}"
[ "$#" -gt 0 ] && shift
root="$(cd "$(dirname "$0")/.." && pwd)"
if ! cargo mutants --version >/dev/null 2>&1; then
  echo "mutants: cargo-mutants is not installed (cargo install cargo-mutants --locked)" >&2
  exit 2
fi
# The scratch copy is elsewhere, so the places beside the checkout
# (testkit/schema-gate/src/places.rs) and the relative path of
# .cargo/config.toml would miss the schemas and the textbook: pass them as
# absolute paths, the schemas from the first of those places that has them.
spec_default="$root/../mcp-spec/schema"
[ -f "$spec_default/2026-07-28/schema.json" ] || spec_default="$root/../shared/spec"
MCP_SPEC_DIR="$(cd "${MCP_SPEC_DIR:-$spec_default}" && pwd)"
MCP_TEXTBOOK_DIR="$(cd "${MCP_TEXTBOOK_DIR:-$root/../shared/textbook}" && pwd)"
export MCP_SPEC_DIR MCP_TEXTBOOK_DIR
if [ -n "${MCP_OIDC_PROVIDER:-}" ]; then
  MCP_OIDC_PROVIDER="$(cd "$MCP_OIDC_PROVIDER" && pwd)"
  export MCP_OIDC_PROVIDER
fi
out="${MUTANTS_OUT:-$root/target/mutants-out}"
mkdir -p "$out"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
tar -C "$root" --exclude=./target --exclude=./fuzz/target --exclude=./fuzz/coverage \
  --exclude=./.git -cf - . | tar -C "$scratch" -xf -
if [ "$scope" = core ]; then
  tests=(--lib --test=behavior --test=golden --test=canonical --test=properties
    --test=rows --test=legacy --test=spec_rules --test=state_machine --test=fuzz_replay
    --test=binary --test=http --test=http_auth --test=vectors --test=http_vectors --test=mrtr --test=mrtr_state_machine
    --test=command_line)
  files=(--exclude 'src/cli/**' --exclude src/main.rs --exclude 'src/judge/**')
elif [ "$scope" = judge ]; then
  tests=(--lib --test=judge_state_machine --test=judge_docs --test=fuzz_replay)
  files=(--file 'src/judge/**')
elif [ "$scope" = oracle ]; then
  tests=(--lib --test=check --test=check_http --test=check_http_auth --test=vectors
    --test=judgement)
  files=(--file 'tools/src/check/**' --file 'tools/src/vectors/**')
else
  tests=(--bins --test=binary --test=command_line --test=http_binary --test=http_auth_binary
    --test=http_state_machine --test=http_edges --test=mrtr_binary --test=golden --test=oidc)
  files=(--file 'src/cli/**' --file src/main.rs)
fi
args=()
for t in "${tests[@]}"; do args+=("--cargo-arg=$t"); done
cd "$scratch"
package=mcp-reference
timeout=180
if [ "$scope" = oracle ]; then
  # Each mutant runs four test binaries of real server processes.
  package=mcp-reference-tools
  timeout=600
  CARGO_TARGET_DIR="$root/target/mutants-oracle"
  export CARGO_TARGET_DIR
  cargo build --profile mutants -p mcp-reference --bin mcp-reference
  cargo build --profile mutants -p mcp-reference-tools --examples --bins
fi
cargo mutants --in-place --package "$package" "${files[@]}" \
  --shard "$shard" --sharding round-robin --profile mutants \
  --timeout "$timeout" --build-timeout 900 -o "$out" "${args[@]}" "$@"
