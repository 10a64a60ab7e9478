#!/usr/bin/env python3
"""The official conformance suite's client scenarios and `mcp-reference
judge`, side by side, on the official Python SDK client (issue 48, "The
anchor, side by side"; the client rules of docs/judge.md, 2026-07-28:
basic/index.mdx#meta, basic/patterns/mrtr.mdx,
basic/transports/streamable-http.mdx).

For each of the five client scenarios the suite and the judge share
(request-metadata, tools_call, sep-2322-client-request-state,
http-standard-headers, http-custom-headers):

a. the suite runs the client: `conformance client --command "PYTHON
   scripts/suite_client_driver.py" --scenario NAME --spec-version
   2026-07-28`, and its checks (id, name, status) are read from its
   checks.json, with the client's exit status from its log;
b. the same driver, for the same scenario, runs against `mcp-reference
   judge --http 127.0.0.1:0 --config data/conformance.json --report FILE`
   (SIGTERM at the end; the final report is read), and the judge's rule
   statuses are collected;
c. each suite check is set beside the judge rules that judge the same
   client obligation (COVER below): they agree when SUCCESS meets pass,
   FAILURE or WARNING meets fail, SKIPPED meets not-run. A check with no
   such rule ("suite-only"), a judge rule the session exercised that no
   check of the scenario covers ("judge-only"), and a check whose rules'
   status is another ("differs") are disagreements.

It prints a table, writes the whole comparison as JSON (--out, default
target/suite-side-by-side/side-by-side.json), and compares it with the
committed tests/judge_expected/suite-side-by-side.json: exit 1 when a suite
check's status, a judge rule's status, a verdict or a client's exit status
differs from it, a scenario is missing, or a disagreement has no decision
in it (or it decides one that no longer happens); exit 2 when the suite,
the SDK or the binary cannot be run; 0 otherwise.

usage: python3 scripts/suite_side_by_side.py --bin target/release/mcp-reference
       [--python PY] [--suite-dir DIR] [--expected FILE] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REVISION = "2026-07-28"
SCENARIOS = (
    "request-metadata",
    "tools_call",
    "sep-2322-client-request-state",
    "http-standard-headers",
    "http-custom-headers",
)

# Which judge rules judge the obligation a suite check checks: (check id,
# prefix of the check's name, or "" for any, the rules). A check of none is
# suite-only.
COVER: dict[str, list[tuple[str, str, list[str]]]] = {
    "request-metadata": [
        ("sep-2575-http-client-sends-version-header", "", ["http.version-header"]),
        ("sep-2575-client-populates-meta", "", ["meta.protocol-version", "meta.client-capabilities"]),
        ("sep-2575-client-sends-client-info", "", ["meta.client-info"]),
        ("sep-2575-http-version-header-matches-meta", "", ["http.version-header"]),
        ("sep-2575-client-declares-roots-capability", "", ["meta.client-capabilities"]),
        ("sep-2575-client-declares-sampling-capability", "", ["meta.client-capabilities"]),
        ("sep-2575-client-declares-elicitation-capability", "", ["meta.client-capabilities"]),
        ("sep-2575-client-retry-supported-version", "", ["version.retry-supported"]),
    ],
    "tools_call": [
        # Every message the client sent valid against the revision's schema
        # (the suite's mock servers add it; the two rules are the judge's
        # decoding of the same messages).
        ("wire-schema-valid", "", ["jsonrpc.message", "jsonrpc.id"]),
    ],
    "sep-2322-client-request-state": [
        ("sep-2322-client-request-state-echoed", "", ["mrtr.state-echo"]),
        ("sep-2322-client-jsonrpc-id-different", "", ["mrtr.new-id"]),
        ("sep-2322-client-no-state-omitted", "", ["mrtr.state-none"]),
        ("sep-2322-client-parallel-isolation", "", ["mrtr.retry-only"]),
    ],
    "http-standard-headers": [
        ("sep-2243-client-includes-standard-headers", "ClientMcpMethodHeader", ["http.method-header"]),
        ("sep-2243-client-includes-standard-headers", "ClientMcpNameHeader", ["http.name-header"]),
    ],
    "http-custom-headers": [
        ("sep-2243-client-supports-custom-headers", "", ["http.param-headers"]),
        ("sep-2243-client-mirrors-designated-params", "", ["http.param-headers"]),
        ("sep-2243-client-encode-values", "", ["http.param-headers"]),
        ("sep-2243-client-base64-unsafe", "", ["http.param-headers"]),
        ("sep-2243-client-omit-null", "", ["http.param-headers"]),
    ],
}

SUITE_AS = {"SUCCESS": "pass", "FAILURE": "fail", "WARNING": "fail", "SKIPPED": "not-run"}


class Unrunnable(Exception):
    """The suite, the SDK or the binary could not be run: exit 2."""


# ---------------------------------------------------------------- pure logic


def suite_checks(raw: list[dict]) -> dict[str, str]:
    """The suite's checks as {"id#name": status} (INFO entries dropped; a
    repeated key gets "#2", "#3" in order)."""
    out: dict[str, str] = {}
    for c in raw:
        status = c.get("status")
        if status == "INFO":
            continue
        key = f"{c.get('id')}#{c.get('name')}"
        n, base = 2, key
        while key in out:
            key, n = f"{base}#{n}", n + 1
        out[key] = status
    return out


def rules_for(scenario: str, key: str) -> list[str] | None:
    cid, _, name = key.partition("#")
    for check_id, prefix, rules in COVER.get(scenario, []):
        if check_id == cid and name.startswith(prefix):
            return rules
    return None


def combined(statuses: list[str]) -> str:
    if "fail" in statuses:
        return "fail"
    if "pass" in statuses:
        return "pass"
    return "not-run"


def compare_scenario(scenario: str, checks: dict[str, str], rules: dict[str, str]) -> dict:
    """Each suite check beside its judge rules, and the exercised rules no
    check covers."""
    rows = []
    covered: set[str] = set()
    for key, status in checks.items():
        mapped = rules_for(scenario, key)
        if mapped is None:
            rows.append({"check": key, "suite": status, "rules": [], "judge": None, "agreement": "suite-only"})
            continue
        covered.update(mapped)
        judged = combined([rules.get(r, "absent") for r in mapped])
        agree = SUITE_AS.get(status) == judged
        rows.append({"check": key, "suite": status, "rules": mapped, "judge": judged,
                     "agreement": "agree" if agree else "differs"})
    judge_only = sorted(r for r, s in rules.items() if s in ("pass", "fail") and r not in covered)
    return {"rows": rows, "judge_only": judge_only}


def disagreement_keys(comparison: dict[str, dict]) -> list[str]:
    """Every disagreement, as the key its decision has in the committed
    file: "SCENARIO CHECK" for a suite check, "judge-only RULE" for a rule."""
    keys = []
    for scenario, comp in comparison.items():
        keys += [f"{scenario} {r['check']}" for r in comp["rows"] if r["agreement"] != "agree"]
        keys += [f"judge-only {rule}" for rule in comp["judge_only"]]
    return sorted(set(keys))


def observed_entry(suite: dict, judge: dict) -> dict:
    return {
        "suite": {"client_exit": suite["client_exit"], "checks": suite["checks"]},
        "judge": {"client_exit": judge["client_exit"], "verdict": judge["verdict"], "rules": judge["rules"]},
    }


def differences(observed: dict[str, dict], expected: dict) -> list[str]:
    """Every way the run differs from the committed expectation, one
    sentence each; empty when it matches."""
    problems = []
    want = expected.get("scenarios", {})
    for scenario in SCENARIOS:
        if scenario not in observed:
            problems.append(f"{scenario}: did not run")
            continue
        if scenario not in want:
            problems.append(f"{scenario}: not in the committed file")
            continue
        got, exp = observed[scenario], want[scenario]
        for side, field in (("suite", "checks"), ("judge", "rules")):
            g, e = got[side][field], exp.get(side, {}).get(field, {})
            for k in sorted(set(g) | set(e)):
                if g.get(k) != e.get(k):
                    problems.append(f"{scenario}: {side} {k} is {g.get(k, 'absent')}, committed {e.get(k, 'absent')}")
        for side in ("suite", "judge"):
            g, e = got[side]["client_exit"], exp.get(side, {}).get("client_exit")
            if g != e:
                problems.append(f"{scenario}: the client's exit status before the {side} is {g}, committed {e}")
        if got["judge"]["verdict"] != exp.get("judge", {}).get("verdict"):
            problems.append(f"{scenario}: judge verdict {got['judge']['verdict']}, "
                            f"committed {exp.get('judge', {}).get('verdict')}")
    for scenario in sorted(set(want) - set(SCENARIOS)):
        problems.append(f"{scenario}: in the committed file, not a scenario of this comparison")
    comparison = {s: compare_scenario(s, o["suite"]["checks"], o["judge"]["rules"]) for s, o in observed.items()}
    decisions = expected.get("decisions", {})
    keys = disagreement_keys(comparison)
    for k in keys:
        d = decisions.get(k)
        if not d or not d.get("spec") or not d.get("decision"):
            problems.append(f"disagreement without a decision (spec and decision) in the committed file: {k}")
    for k in sorted(set(decisions) - set(keys)):
        problems.append(f"decision for a disagreement that no longer happens: {k}")
    return problems


def counts(entry: dict, comp: dict) -> dict:
    checks = list(entry["suite"]["checks"].values())
    rules = list(entry["judge"]["rules"].values())
    return {
        "suite": {s: checks.count(s) for s in ("SUCCESS", "FAILURE", "WARNING", "SKIPPED")},
        "judge": {s: rules.count(s) for s in ("pass", "fail", "not-run")},
        "agree": sum(1 for r in comp["rows"] if r["agreement"] == "agree"),
        "disagree": sum(1 for r in comp["rows"] if r["agreement"] != "agree") + len(comp["judge_only"]),
    }


def table(observed: dict[str, dict]) -> str:
    lines = [f"{'scenario':32} {'suite pass/fail/warn/skip':>26} {'judge pass/fail/not-run':>24}  agree  disagree  exits"]
    for scenario in SCENARIOS:
        if scenario not in observed:
            lines.append(f"{scenario:32} did not run")
            continue
        o = observed[scenario]
        comp = compare_scenario(scenario, o["suite"]["checks"], o["judge"]["rules"])
        c = counts(o, comp)
        s, j = c["suite"], c["judge"]
        suite = f"{s['SUCCESS']}/{s['FAILURE']}/{s['WARNING']}/{s['SKIPPED']}"
        judge = f"{j['pass']}/{j['fail']}/{j['not-run']} {o['judge']['verdict']}"
        exits = f"{o['suite']['client_exit']},{o['judge']['client_exit']}"
        lines.append(f"{scenario:32} {suite:>26} {judge:>24}  {c['agree']:5}  {c['disagree']:8}  {exits}")
        for r in comp["rows"]:
            if r["agreement"] != "agree":
                lines.append(f"    {r['agreement']:10} {r['check']}: suite {r['suite']}, judge "
                             f"{r['judge'] or '-'} ({', '.join(r['rules']) or 'no rule'})")
        for rule in comp["judge_only"]:
            lines.append(f"    judge-only {rule}: {o['judge']['rules'][rule]}")
    return "\n".join(lines)


# ---------------------------------------------------------------- running


def suite_command(suite_dir: Path) -> list[str]:
    node = suite_dir / "node_modules" / "node" / "bin" / "node"
    entry = suite_dir / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    if not node.is_file() or not entry.is_file():
        raise Unrunnable(f"the conformance suite is not installed in {suite_dir}: copy "
                         "scripts/conformance-suite/package*.json there and run `npm ci` in it")
    return [str(node), str(entry)]


def run_suite(cmd: list[str], python: str, driver: Path, scenario: str, out: Path) -> dict:
    # The suite splits --command on spaces and appends the URL.
    for part in (python, str(driver)):
        if " " in part:
            raise Unrunnable(f"the suite cannot run a command whose path has a space: {part}")
    out.mkdir(parents=True, exist_ok=True)
    log = out / f"{scenario}.log"
    with open(log, "w") as f:
        subprocess.run(cmd + ["client", "--command", f"{python} {driver}", "--scenario", scenario,
                              "--spec-version", REVISION, "-o", str(out)],
                       stdout=f, stderr=subprocess.STDOUT, timeout=300, cwd=ROOT)
    said = log.read_text()
    dirs = sorted(out.glob(f"{scenario}-*/checks.json"))
    if not dirs:
        raise Unrunnable(f"the suite wrote no result for {scenario} ({log} says why)")
    raw = json.loads(dirs[-1].read_text())
    m = re.search(r"Client exited with code (-?\d+)", said)
    timed_out = "Client timed out" in said
    return {"checks": suite_checks(raw), "client_exit": "timeout" if timed_out else int(m.group(1)) if m else 0}


def run_judge(binary: Path, config: Path, python: str, driver: Path, scenario: str, out: Path) -> dict:
    report = out / f"judge-{scenario}.json"
    err_path = out / f"judge-{scenario}.stderr"
    report.unlink(missing_ok=True)
    with open(err_path, "w") as err:
        proc = subprocess.Popen([str(binary), "judge", "--http", "127.0.0.1:0", "--config", str(config),
                                 "--report", str(report)],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
    try:
        url = None
        deadline = time.monotonic() + 30
        while url is None and time.monotonic() < deadline and proc.poll() is None:
            m = re.search(r"serving MCP over HTTP at (http://\S+)", err_path.read_text())
            url = m.group(1) if m else None
            if url is None:
                time.sleep(0.05)
        if url is None:
            raise Unrunnable(f"`{binary} judge --http` did not say where it listens: {err_path.read_text()[:300]}")
        env = dict(os.environ, MCP_CONFORMANCE_SCENARIO=scenario, MCP_CONFORMANCE_PROTOCOL_VERSION=REVISION)
        env.pop("MCP_CONFORMANCE_CONTEXT", None)
        with open(out / f"judge-{scenario}.client.log", "w") as f:
            try:
                client = subprocess.run([python, str(driver), url], env=env, stdout=f, stderr=subprocess.STDOUT,
                                        timeout=120, cwd=ROOT)
                client_exit: int | str = client.returncode
            except subprocess.TimeoutExpired:
                client_exit = "timeout"
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if code != 0:
        raise Unrunnable(f"judge --http exited {code} after SIGTERM: {err_path.read_text()[-300:]}")
    r = json.loads(report.read_text())
    return {"verdict": r["verdict"], "rules": {x["id"]: x["status"] for x in r["rules"]}, "client_exit": client_exit}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", type=Path, default=ROOT / "target" / "release" / "mcp-reference")
    p.add_argument("--config", type=Path, default=ROOT / "data" / "conformance.json")
    p.add_argument("--python", default=os.environ.get("MCP_SDK_PYTHON", str(ROOT / "target" / "py-mcp" / "bin" / "python")))
    p.add_argument("--suite-dir", type=Path, default=ROOT / "target" / "conformance")
    p.add_argument("--expected", type=Path, default=ROOT / "tests" / "judge_expected" / "suite-side-by-side.json")
    p.add_argument("--out", type=Path, default=ROOT / "target" / "suite-side-by-side" / "side-by-side.json")
    a = p.parse_args()
    driver = ROOT / "scripts" / "suite_client_driver.py"
    try:
        if not a.bin.is_file():
            raise Unrunnable(f"no binary at {a.bin}: run `cargo build --release` first (or pass --bin)")
        try:
            probe = subprocess.run([a.python, "-c", "import mcp"], capture_output=True, text=True, timeout=60)
            said = probe.stderr.strip()[-200:] if probe.returncode != 0 else None
        except OSError as e:
            said = str(e)
        if said is not None:
            raise Unrunnable(f"{a.python} cannot import the Python SDK (mcp): {said}"
                             " (set MCP_SDK_PYTHON or pass --python)")
        cmd = suite_command(a.suite_dir)
        expected = json.loads(a.expected.read_text()) if a.expected.is_file() else {}
        a.out.parent.mkdir(parents=True, exist_ok=True)
        work = a.out.parent / "run"  # this run's logs and reports, the last run's removed
        if work.exists():
            shutil.rmtree(work)
        work.mkdir()
        observed: dict[str, dict] = {}
        for scenario in SCENARIOS:
            suite = run_suite(cmd, a.python, driver, scenario, work / "suite")
            judge = run_judge(a.bin, a.config, a.python, driver, scenario, work)
            observed[scenario] = observed_entry(suite, judge)
        comparison = {s: compare_scenario(s, o["suite"]["checks"], o["judge"]["rules"]) for s, o in observed.items()}
        a.out.write_text(json.dumps({"scenarios": observed, "comparison": comparison,
                                     "disagreements": disagreement_keys(comparison)}, indent=2) + "\n")
        print(table(observed))
        problems = differences(observed, expected) if expected else [f"no committed file at {a.expected}"]
        for line in problems:
            print(f"DIFFERS {line}")
        print(f"\nsuite-side-by-side: {'FAIL' if problems else 'PASS'} ({len(problems)} differences from "
              f"{a.expected.relative_to(ROOT) if a.expected.is_relative_to(ROOT) else a.expected}; "
              f"JSON in {a.out}; logs in {work})")
        return 1 if problems else 0
    except Unrunnable as e:
        print(f"suite-side-by-side: {e}", file=sys.stderr)
        return 2
    except subprocess.TimeoutExpired as e:
        print(f"suite-side-by-side: `{' '.join(map(str, e.cmd))[:200]}` did not finish in {e.timeout} s", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
