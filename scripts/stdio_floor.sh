#!/usr/bin/env bash
# How close to `cat` can the binary get on this machine, whatever its core
# does? (docs/performance.md, "The floor under serde_json").
#
# Usage: bash scripts/stdio_floor.sh
#
# Builds, in a scratch copy of HEAD, the binary with scripts/stdio_floor.patch
# applied: with MCP_FLOOR set, the same driver answers every line with the
# same 456-byte tools/call reply after reading the line (1) not at all,
# (2) with serde_json's syntax check alone (`IgnoredAny`), or (3) with a
# walk through serde's visitors that sees every member and decides nothing.
# Then, for each of the three, runs `cargo bench --bench stdio` with that
# build as STDIO_BENCH_BASELINE, so it runs in the same alternating rounds
# as `cat` and the real binary, and prints the two tools/call rows. With
# valgrind on the machine it also prints instructions per request for the
# real core and the three floors (20,000 requests from a file, callgrind).
# The patch never touches the checkout: the scratch copy is a temporary
# directory, removed at exit. Exit status: 0, or non-zero when a step fails
# (1 when the patch no longer applies or callgrind gives no count; the
# failing command's own status when a build or the bench fails).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mkdir "$work/src"
git archive HEAD | tar -x -C "$work/src"
if ! (cd "$work/src" && git apply "$root/scripts/stdio_floor.patch"); then
  echo "stdio_floor: scripts/stdio_floor.patch no longer applies to HEAD; refresh it" >&2
  exit 1
fi
echo "stdio_floor: building the floor binary (scratch copy of HEAD)"
CARGO_TARGET_DIR="$work/target" cargo build --release --locked --quiet \
  --manifest-path "$work/src/Cargo.toml" -p mcp-reference --bin mcp-reference
floor="$work/target/release/mcp-reference"

# The bench builds the real binary and writes the request file.
for mode in 1 2 3; do
  echo
  echo "== MCP_FLOOR=$mode as the baseline row"
  MCP_FLOOR="$mode" STDIO_BENCH_BASELINE="$floor" cargo bench --quiet --bench stdio |
    sed -n '/^| tools\/call/,/^| baseline/p'
done

if command -v valgrind >/dev/null 2>&1; then
  sample="$work/call-20k.jsonl"
  head -n 20000 target/tmp/stdio/call-1m.jsonl >"$sample"
  echo
  echo "== instructions per request (callgrind, 20,000 tools/call, startup included)"
  for mode in 0 1 2 3; do
    refs="$(MCP_FLOOR="$mode" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
      "$floor" --log-level off <"$sample" 2>&1 >/dev/null |
      sed -n 's/.*I *refs: *//p' | tr -d ',')"
    if [ -z "$refs" ]; then
      echo "stdio_floor: callgrind gave no instruction count for MCP_FLOOR=$mode" >&2
      exit 1
    fi
    echo "MCP_FLOOR=$mode: $((refs / 20000)) per request"
  done
fi
