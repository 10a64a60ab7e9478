#!/usr/bin/env bash
# Real legacy clients against the binary. The official MCP Python SDK (the
# `mcp` package), in its legacy mode (the initialize handshake), lists the
# tools and calls get_order A-104 on `mcp-reference serve --legacy ...`;
# it also runs in its default mode (a server/discover probe first), and in
# legacy mode against a server without --legacy, which must fail with the
# error naming the supported versions. Then, when npm is there, the MCP
# Inspector CLI (whose default era for a command target is legacy) does the
# same two calls. Every line on the wire is shown.
#
# Not run in CI (it installs packages). Usage: scripts/legacy-client.sh
# The SDK goes into a virtual environment under /tmp (MCP_CLIENT_VENV), the
# Inspector into /tmp/mcp-inspector (MCP_INSPECTOR_DIR). The binary is
# built into $CARGO_TARGET_DIR (default target/). Exit 0 only when every
# call ended as it must (the three legacy and dual-era sessions and the
# Inspector's calls succeed, the legacy client without --legacy fails);
# otherwise exit 1, after a line naming each call that did not.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${MCP_CLIENT_VENV:-/tmp/mcp-venv}"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import mcp' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q mcp
fi
echo "client: MCP Python SDK $("$venv/bin/pip" show mcp | sed -n 's/^Version: //p')"

cargo build --release -q
target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$PWD/$target" ;; esac
bin="$target/release/mcp-reference"
[ -x "$bin" ] || { echo "legacy-client.sh: no binary at $bin after the build" >&2; exit 1; }
wrong=()
wire="$(mktemp -d)"
trap 'rm -rf "$wire"' EXIT

# The server, behind a wrapper that copies both directions of the wire.
cat >"$wire/server.sh" <<WRAP
#!/bin/sh
tee "$wire/in" | "$bin" "\$@" | tee "$wire/out"
WRAP
chmod +x "$wire/server.sh"

# run EXPECT MODE ARGS...: EXPECT is ok or fails.
run() {
  local expect="$1" mode="$2" status=0
  shift 2
  : >"$wire/in"
  : >"$wire/out"
  echo
  echo "\$ python scripts/legacy_client.py mcp-reference $mode $*"
  "$venv/bin/python" scripts/legacy_client.py "$wire/server.sh" "$mode" "$@" || status=$?
  show_wire
  if { [ "$expect" = ok ] && [ "$status" -ne 0 ]; } || { [ "$expect" = fails ] && [ "$status" -eq 0 ]; }; then
    wrong+=("$mode $* (exit $status, expected $expect)")
  fi
}

verdict() {
  if [ "${#wrong[@]}" -gt 0 ]; then
    printf 'legacy-client.sh: not as expected: %s\n' "${wrong[@]}" >&2
    exit 1
  fi
  echo
  echo "every call ended as expected"
}

show_wire() {
  echo "-- wire, client to server:"
  cat "$wire/in"
  echo "-- wire, server to client:"
  cat "$wire/out"
}

run ok legacy serve --legacy 2025-11-25,2025-06-18
run ok legacy serve --legacy 2025-06-18
run ok auto serve --legacy 2025-11-25,2025-06-18
run fails legacy serve

command -v npm >/dev/null || { echo "no npm: the Inspector CLI part is skipped"; verdict; }
inspector_dir="${MCP_INSPECTOR_DIR:-/tmp/mcp-inspector}"
inspector="$inspector_dir/node_modules/.bin/mcp-inspector"
if [ ! -x "$inspector" ]; then
  mkdir -p "$inspector_dir"
  npm install --silent --prefix "$inspector_dir" @modelcontextprotocol/inspector@2.12.0
fi
# The Inspector keeps a catalog of servers; keep it out of the home folder.
export MCP_CATALOG_PATH="$wire/catalog.json"
echo
echo "client: MCP Inspector CLI $("$inspector" --version)"
for call in "--method tools/list" "--method tools/call --tool-name get_order --tool-arg order_id=A-104"; do
  : >"$wire/in"
  : >"$wire/out"
  echo
  # shellcheck disable=SC2086
  echo "\$ mcp-inspector --cli mcp-reference serve --legacy 2025-11-25,2025-06-18 $call"
  # shellcheck disable=SC2086
  status=0
  "$inspector" --cli "$wire/server.sh" serve --legacy 2025-11-25,2025-06-18 $call || status=$?
  show_wire
  [ "$status" -eq 0 ] || wrong+=("inspector $call (exit $status, expected ok)")
done
verdict
