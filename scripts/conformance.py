#!/usr/bin/env python3
"""Run the official MCP conformance suite against this server and judge it.

The suite is npm's @modelcontextprotocol/conformance, pinned with the
Node 22 it needs in scripts/conformance-suite/package-lock.json; .ci/run installs
both into target/conformance (never the checkout):

    mkdir -p target/conformance
    cp scripts/conformance-suite/package*.json target/conformance/
    (cd target/conformance && npm ci --no-audit --no-fund)
    cargo build --release
    python3 scripts/conformance.py

This script starts `mcp-reference serve --http 127.0.0.1:0 --config
data/conformance.json` (or judges the server at --url), runs the suite
twice, as the issue that added it asks:

    server --requirements 2026-07-28           (the frozen list: 37 required
                                                scenarios, 3 pending, the
                                                tasks-* extension)
    server --suite all --spec-version 2026-07-28

and reads every check of every scenario from the suite's result files. The
scenario sets come from the suite itself (`list --requirements 2026-07-28`),
never from a list of ours. Verdict, with no expected-failures file:

- a required or pending scenario passes when it ran and none of its checks
  is FAILURE or WARNING; SKIPPED checks (the suite's own "does not apply",
  such as subscriptions/listen on a server that offers no subscriptions) are
  listed with the suite's reason, never counted as passed;
- the extension scenarios (tasks-*) are run and reported, never required.

Exit 0 when every required and pending scenario passes in both runs, 1 when
one does not, 2 when the suite or the server could not be run (one sentence
on stderr). Results go to target/conformance/results/ (or --out).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REVISION = "2026-07-28"
ROOT = Path(__file__).resolve().parent.parent
BAD = ("FAILURE", "WARNING")


class Unrunnable(Exception):
    """The suite or the server could not be run: exit 2."""


def suite_command(suite_dir: Path) -> list[str]:
    node = suite_dir / "node_modules" / "node" / "bin" / "node"
    entry = suite_dir / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    if not node.is_file() or not entry.is_file():
        raise Unrunnable(
            f"the conformance suite is not installed in {suite_dir}: copy scripts/conformance-suite/package*.json "
            f"there and run `npm ci` in it (see the README, \"The official conformance suite\")"
        )
    return [str(node), str(entry)]


def scenario_sets(cmd: list[str]) -> dict[str, list[str]]:
    """The suite's own frozen classification of the server scenarios."""
    out = subprocess.run(cmd + ["list", "--requirements", REVISION], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise Unrunnable(f"`conformance list --requirements {REVISION}` failed: {out.stderr.strip()[:300]}")
    sets: dict[str, list[str]] = {"required": []}
    section = None
    for line in out.stdout.splitlines():
        if line.startswith("Server scenarios"):
            section = "required"
            continue
        if line.startswith("Client scenarios"):
            section = None
            continue
        m = re.match(r"^  ([a-z-]+) \(\d+\):$", line)
        if m:
            section = m.group(1)
            sets.setdefault(section, [])
            continue
        m = re.match(r"^\s+- (\S+)(?: \[(\w+)\])?$", line)
        if m and section is not None:
            name, leg = m.group(1), m.group(2)
            if section == "required" or leg == "server":
                sets[section].append(name)
    if not sets["required"]:
        raise Unrunnable(f"`conformance list --requirements {REVISION}` named no server scenario")
    return sets


def start_server(binary: Path, config: Path, log: Path) -> tuple[subprocess.Popen, str]:
    if not binary.is_file():
        raise Unrunnable(f"no server binary at {binary}: run `cargo build --release` first (or pass --bin or --url)")
    if not config.is_file():
        raise Unrunnable(f"no configuration at {config}")
    # Its stderr goes to a file, so that a server that logs much never
    # blocks on a full pipe while the suite runs.
    err = open(log, "w")
    proc = subprocess.Popen(
        [str(binary), "serve", "--http", "127.0.0.1:0", "--config", str(config)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=err,
    )
    err.close()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        m = re.search(r"serving MCP over HTTP at (http://\S+)", log.read_text())
        if m:
            return proc, m.group(1)
        time.sleep(0.05)
    proc.kill()
    said = log.read_text().strip()[:300]
    raise Unrunnable(f"`{binary} serve --http` did not say where it listens (exit {proc.wait()}): {said}")


def run_suite(cmd: list[str], url: str, args: list[str], out: Path, log: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as f:
        # The suite's exit status counts the unscored scenarios too; the
        # verdict is ours, from its result files.
        subprocess.run(cmd + ["server", "--url", url, *args, "-o", str(out)], stdout=f, stderr=subprocess.STDOUT, timeout=1800)


def read_results(out: Path) -> dict[str, list[dict]]:
    results: dict[str, list[dict]] = {}
    for checks in sorted(out.glob("server-*/checks.json")):
        m = re.match(r"^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$", checks.parent.name)
        if not m:
            continue
        try:
            results[m.group(1)] = json.loads(checks.read_text())
        except (OSError, json.JSONDecodeError) as e:
            results[m.group(1)] = [{"id": "result-file", "status": "FAILURE", "errorMessage": f"unreadable: {e}"}]
    return results


def count(checks: list[dict], status: str) -> int:
    return sum(1 for c in checks if c.get("status") == status)


def judge(label: str, results: dict[str, list[dict]], sets: dict[str, list[str]], judged: list[str]) -> bool:
    print(f"\n== {label}")
    ok = True
    passed = 0
    print(f"{'scenario':52} {'set':10} pass fail warn skip  verdict")
    names = [n for n in judged if n in results or n in sets["required"]]
    names += [n for n in results if n not in names]
    for name in names:
        kind = next((k for k, v in sets.items() if name in v), "other")
        checks = results.get(name)
        scored = kind in ("required", "pending")
        if checks is None:
            verdict = "FAIL (did not run)" if scored else "not run"
            ok = ok and not scored
            print(f"{name:52} {kind:10}    -    -    -    -  {verdict}")
            continue
        bad = [c for c in checks if c.get("status") in BAD]
        if scored:
            verdict = "FAIL" if bad else "PASS"
            ok = ok and not bad
            passed += not bad
        else:
            verdict = "reported" + (" (failing)" if bad else "")
        print(
            f"{name:52} {kind:10} {count(checks, 'SUCCESS'):4} {count(checks, 'FAILURE'):4} "
            f"{count(checks, 'WARNING'):4} {count(checks, 'SKIPPED'):4}  {verdict}"
        )
        if scored:
            for c in bad:
                print(f"    {c.get('status')} {c.get('id')}: {c.get('errorMessage', c.get('description', ''))}")
            for c in checks:
                if c.get("status") == "SKIPPED":
                    print(f"    skipped by the suite {c.get('id')}: {c.get('description', '')}")
    required = sets["required"]
    pending = sets.get("pending", [])
    req_ok = sum(1 for n in required if n in results and not [c for c in results[n] if c.get("status") in BAD])
    pen_run = [n for n in pending if n in results]
    pen_ok = sum(1 for n in pen_run if not [c for c in results[n] if c.get("status") in BAD])
    ext = [n for n in sets.get("extension", []) if n in results]
    ext_ok = sum(1 for n in ext if not [c for c in results[n] if c.get("status") in BAD])
    print(f"required: {req_ok} of {len(required)} with no failing or warning check")
    if pen_run:
        print(f"pending: {pen_ok} of {len(pen_run)} with no failing or warning check")
    if ext:
        checks = [c for n in ext for c in results[n]]
        print(
            f"extension (not required): {ext_ok} of {len(ext)} scenarios pass; checks "
            f"{count(checks, 'SUCCESS')} passed, {count(checks, 'FAILURE')} failed, {count(checks, 'SKIPPED')} skipped"
        )
    return ok


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", type=Path, default=ROOT / "target" / "release" / "mcp-reference")
    p.add_argument("--config", type=Path, default=ROOT / "data" / "conformance.json")
    p.add_argument("--suite-dir", type=Path, default=ROOT / "target" / "conformance")
    p.add_argument("--url", help="judge the server at this URL instead of starting this one")
    p.add_argument("--out", type=Path, help="where the suite's result files go (default: target/conformance/results/)")
    a = p.parse_args()
    proc = None
    try:
        cmd = suite_command(a.suite_dir)
        sets = scenario_sets(cmd)
        out = a.out or a.suite_dir / "results"
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        url = a.url
        if url is None:
            proc, url = start_server(a.bin, a.config, out / "server.log")
        runs = [
            ("requirements", ["--requirements", REVISION], sets["required"] + sets.get("pending", []) + sets.get("extension", [])),
            ("all", ["--suite", "all", "--spec-version", REVISION], sets["required"] + sets.get("pending", [])),
        ]
        ok = True
        for label, args, judged in runs:
            run_suite(cmd, url, args, out / label, out / f"{label}.log")
            results = read_results(out / label)
            if not results:
                raise Unrunnable(f"the suite wrote no result ({out / (label + '.log')} says why)")
            title = f"conformance server {' '.join(args)} against {url}"
            ok = judge(title, results, sets, judged) and ok
        print(f"\nconformance: {'PASS' if ok else 'FAIL'} (results in {out})")
        return 0 if ok else 1
    except Unrunnable as e:
        print(f"conformance: {e}", file=sys.stderr)
        return 2
    except subprocess.TimeoutExpired as e:
        print(f"conformance: `{' '.join(map(str, e.cmd))[:200]}` did not finish in {e.timeout} s", file=sys.stderr)
        return 2
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


if __name__ == "__main__":
    sys.exit(main())
