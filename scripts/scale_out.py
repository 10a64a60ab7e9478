#!/usr/bin/env python3
"""Scale-out of a stateless multi round-trip request behind a real load balancer.

What a stateless round trip is for (basic/patterns/mrtr.mdx): the server
keeps nothing between rounds, so each round may land on any replica. This
script starts two `mcp-reference serve --http` replicas with the same
configuration, puts HAProxy (the distribution's package) in front of them,
round-robin, every request on a connection of its own, and runs a
multi-round `tools/call` through it:

1. round 1 is answered `input_required` with a `requestState`;
2. each later round carries the elicitation's answer and the state the
   previous round returned, and lands on the other replica (read from the
   replicas' own request logs, `--log-level info`);
3. the last round completes.

Then a third replica, configured like the others but with another
`input_required.state_key`, is given the last round's request directly: it
must refuse the state with a JSON-RPC error (rows I of docs/behavior.md),
and log no completed call.

Everything listens on 127.0.0.1; files go to target/scale-out/. Exit 0 when
every step held, 1 when one did not (said on stdout), 2 when something could
not be started (one sentence on stderr).

    cargo build --release
    python3 scripts/scale_out.py [--bin target/release/mcp-reference]
        [--config data/conformance.json] [--tool test_input_required_result_multi_round]
"""

from __future__ import annotations

import argparse
import base64
import json
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSION = "2026-07-28"


class Unrunnable(Exception):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int, proc: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise Unrunnable(f"{what} exited with status {proc.returncode} before listening")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise Unrunnable(f"{what} did not listen on 127.0.0.1:{port} within 20 s")


def post(url: str, body: dict, name: str) -> tuple[int, dict]:
    data = json.dumps(body, separators=(",", ":")).encode()
    req = urllib.request.Request(
        url,
        data=data,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": VERSION,
            "Mcp-Method": body["method"],
            "Mcp-Name": name,
            "Connection": "close",
        },
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def answer_for(request: dict) -> dict:
    """An accepted elicitation whose content fills the requested schema."""
    params = request.get("params", {})
    schema = params.get("requestedSchema", {})
    content = {}
    for key, prop in schema.get("properties", {}).items():
        kind = prop.get("type")
        if "enum" in prop:
            content[key] = prop["enum"][0]
        elif kind == "boolean":
            content[key] = True
        elif kind in ("number", "integer"):
            content[key] = 1
        else:
            content[key] = "scale-out"
    return {"action": "accept", "content": content}


def request(rid: int, tool: str, responses: dict | None, state: str | None) -> dict:
    params: dict = {
        "name": tool,
        "arguments": {},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": VERSION,
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        },
    }
    if responses is not None:
        params["inputResponses"] = responses
    if state is not None:
        params["requestState"] = state
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}


def served(log: Path) -> int:
    return len(re.findall(r" POST /mcp \d{3}", log.read_text()))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", type=Path, default=ROOT / "target" / "release" / "mcp-reference")
    p.add_argument("--config", type=Path, default=ROOT / "data" / "conformance.json")
    p.add_argument("--tool", default="test_input_required_result_multi_round")
    a = p.parse_args()
    work = ROOT / "target" / "scale-out"
    procs: list[subprocess.Popen] = []
    failures: list[str] = []

    def check(ok: bool, what: str) -> None:
        print(f"{'ok  ' if ok else 'FAIL'} {what}")
        if not ok:
            failures.append(what)

    try:
        haproxy = shutil.which("haproxy")
        if haproxy is None:
            raise Unrunnable("haproxy is not installed (apt-get install haproxy)")
        if not a.bin.is_file():
            raise Unrunnable(f"no server binary at {a.bin}: run `cargo build --release` first")
        try:
            config = json.loads(a.config.read_text())
        except (OSError, json.JSONDecodeError) as e:
            raise Unrunnable(f"cannot read the configuration {a.config}: {e}")
        if "state_key" not in config.get("input_required", {}):
            raise Unrunnable(f"{a.config} has no input_required.state_key: no multi round-trip tool to scale out")
        if work.exists():
            shutil.rmtree(work)
        work.mkdir(parents=True)
        lb, ports = free_port(), {"a": free_port(), "b": free_port(), "c": free_port()}
        hosts = [f"127.0.0.1:{lb}", f"localhost:{lb}"] + [f"127.0.0.1:{p}" for p in ports.values()]
        config.setdefault("http", {})["allowed_hosts"] = hosts
        (work / "replica.json").write_text(json.dumps(config, indent=2))
        other = json.loads(json.dumps(config))
        key = base64.urlsafe_b64decode(other["input_required"]["state_key"] + "==")
        other["input_required"]["state_key"] = base64.urlsafe_b64encode(bytes(b ^ 0x5A for b in key)).rstrip(b"=").decode()
        (work / "other-key.json").write_text(json.dumps(other, indent=2))
        logs = {}
        for name, port in ports.items():
            cfg = work / ("other-key.json" if name == "c" else "replica.json")
            logs[name] = work / f"replica-{name}.log"
            err = open(logs[name], "w")
            procs.append(
                subprocess.Popen(
                    [str(a.bin), "serve", "--http", f"127.0.0.1:{port}", "--config", str(cfg), "--log-level", "info"],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=err,
                )
            )
            err.close()
            wait_listening(port, procs[-1], f"replica {name}")
        (work / "haproxy.cfg").write_text(
            "\n".join(
                [
                    "global",
                    "  maxconn 64",
                    "defaults",
                    "  mode http",
                    "  timeout connect 2s",
                    "  timeout client 10s",
                    "  timeout server 10s",
                    "  option http-server-close",
                    "frontend mcp",
                    f"  bind 127.0.0.1:{lb}",
                    "  default_backend replicas",
                    "backend replicas",
                    "  balance roundrobin",
                    f"  server a 127.0.0.1:{ports['a']}",
                    f"  server b 127.0.0.1:{ports['b']}",
                    "",
                ]
            )
        )
        hlog = open(work / "haproxy.log", "w")
        procs.append(subprocess.Popen([haproxy, "-db", "-f", str(work / "haproxy.cfg")], stdin=subprocess.DEVNULL, stdout=hlog, stderr=hlog))
        hlog.close()
        wait_listening(lb, procs[-1], "haproxy")
        url = f"http://127.0.0.1:{lb}/mcp"
        print(f"replicas a 127.0.0.1:{ports['a']}, b 127.0.0.1:{ports['b']} behind HAProxy {haproxy_version(haproxy)} at {url}")

        responses, state, last, landed = None, None, None, []
        for rnd in range(1, 10):
            body = request(rnd, a.tool, responses, state)
            before = {n: served(logs[n]) for n in ("a", "b")}
            status, reply = post(url, body, a.tool)
            after = {n: served(logs[n]) for n in ("a", "b")}
            on = [n for n in ("a", "b") if after[n] > before[n]]
            landed.append(on[0] if len(on) == 1 else "?")
            result = (reply or {}).get("result", {})
            kind = result.get("resultType")
            print(f"round {rnd}: HTTP {status}, resultType {kind!r}, served by replica {landed[-1]}")
            if status != 200 or kind not in ("input_required", "complete"):
                check(False, f"round {rnd} answered HTTP {status} with {json.dumps(reply)[:300]}")
                break
            if kind == "complete":
                check(rnd >= 3, f"the call completed after {rnd} rounds, at least two of them carrying state")
                check(not result.get("isError", False), "the completed call is not a tool error")
                break
            state = result.get("requestState")
            check(isinstance(state, str) and len(state) > 0, f"round {rnd} returned a requestState")
            requests = result.get("inputRequests", {})
            responses = {k: answer_for(v) for k, v in requests.items()}
            last = request(rnd + 1, a.tool, responses, state)
        else:
            check(False, "the call completed within 9 rounds")
        check("?" not in landed, f"each round was served by exactly one replica ({' '.join(landed)})")
        check(all(x != y for x, y in zip(landed, landed[1:])), "consecutive rounds landed on different replicas")
        if last is not None:
            status, reply = post(f"http://127.0.0.1:{ports['c']}/mcp", last, a.tool)
            err = (reply or {}).get("error")
            check(err is not None and "result" not in (reply or {}), f"replica c (another state_key) refuses the state: HTTP {status}, error {json.dumps(err)[:200]}")
    except Unrunnable as e:
        print(f"scale_out: {e}", file=sys.stderr)
        return 2
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    print("scale-out: " + ("PASS" if not failures else f"FAIL ({len(failures)} failed)"))
    return 0 if not failures else 1


def haproxy_version(binary: str) -> str:
    out = subprocess.run([binary, "-v"], capture_output=True, text=True).stdout
    m = re.search(r"version (\S+)", out)
    return m.group(1) if m else "?"


if __name__ == "__main__":
    sys.exit(main())
