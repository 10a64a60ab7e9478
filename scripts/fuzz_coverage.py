#!/usr/bin/env python3
"""Line coverage of the core by the committed fuzz corpora (issue 14).

For each fuzz target, runs `cargo +nightly fuzz coverage TARGET` over the
target's committed seeds and regression inputs (fuzz/corpus/TARGET,
fuzz/regressions/TARGET), exports the line counts with llvm-cov, and prints
one Markdown table: per file of the root package's src/ (the core, the
session, the legacy path, the stdio driver; the binary's front end in
src/cli/ and src/main.rs is not linked into the targets), the lines with
code, the lines some target reached, and the lines none reached. A line is
reached when any target's corpus runs it.

Usage (from the repository root):

    python3 scripts/fuzz_coverage.py            # build, run, report
    python3 scripts/fuzz_coverage.py --no-run   # report from the last run
    python3 scripts/fuzz_coverage.py --lines    # also list the unreached lines' text

Needs a nightly toolchain, cargo-fuzz and the nightly `llvm-tools`
component (added with rustup when missing). Writes only under fuzz/target
and fuzz/coverage, both ignored by git. Exit status: 0 with the report, 2
when something needed is missing or a step fails (one line on stderr).
"""

import argparse
import glob
import os
import subprocess
import sys

TARGETS = ["respond_bytes", "respond_structured", "config_load", "session"]
TRIPLE = "x86_64-unknown-linux-gnu"


def fail(message):
    print(f"fuzz_coverage: {message}", file=sys.stderr)
    sys.exit(2)


def llvm_cov():
    """The nightly toolchain's llvm-cov, which reads its profile format."""
    try:
        sysroot = subprocess.run(
            ["rustc", "+nightly", "--print", "sysroot"],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        fail("no nightly toolchain (rustup toolchain install nightly)")
    tool = os.path.join(sysroot, "lib", "rustlib", TRIPLE, "bin", "llvm-cov")
    if not os.path.exists(tool):
        step = ["rustup", "component", "add", "llvm-tools", "--toolchain", "nightly"]
        if subprocess.run(step).returncode != 0 or not os.path.exists(tool):
            fail("the nightly llvm-tools component could not be added")
    return tool


def run_coverage(fuzz_dir, target):
    dirs = [d for d in (f"corpus/{target}", f"regressions/{target}")
            if os.path.isdir(os.path.join(fuzz_dir, d))]
    step = ["cargo", "+nightly", "fuzz", "coverage", target, *dirs]
    if subprocess.run(step, cwd=fuzz_dir).returncode != 0:
        fail(f"`{' '.join(step)}` failed")


def line_counts(tool, fuzz_dir, target, src):
    """{file: {line: count}} for the files under src/, from llvm-cov."""
    binary = os.path.join(fuzz_dir, "target", TRIPLE, "coverage", TRIPLE,
                          "release", target)
    profile = os.path.join(fuzz_dir, "coverage", target, "coverage.profdata")
    if not (os.path.exists(binary) and os.path.exists(profile)):
        fail(f"no coverage data for {target}: run without --no-run first")
    lcov = subprocess.run(
        [tool, "export", "-format=lcov", binary, f"-instr-profile={profile}"],
        check=True, capture_output=True, text=True,
    ).stdout
    counts, current = {}, None
    for line in lcov.splitlines():
        if line.startswith("SF:"):
            path = os.path.realpath(line[3:])
            current = counts.setdefault(path, {}) if path.startswith(src) else None
        elif line.startswith("DA:") and current is not None:
            number, hits = line[3:].split(",")[:2]
            n = int(number)
            current[n] = current.get(n, 0) + int(hits)
    return counts


def ranges(numbers):
    out, start, prev = [], None, None
    for n in sorted(numbers):
        if start is None:
            start = prev = n
        elif n == prev + 1:
            prev = n
        else:
            out.append((start, prev))
            start = prev = n
    if start is not None:
        out.append((start, prev))
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-run", action="store_true",
                        help="report from the coverage data of the last run")
    parser.add_argument("--lines", action="store_true",
                        help="print the text of every unreached line")
    args = parser.parse_args()
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    fuzz_dir = os.path.join(root, "fuzz")
    src = os.path.join(root, "src") + os.sep
    tool = llvm_cov()
    union, per_target = {}, {}
    for target in TARGETS:
        if not args.no_run:
            run_coverage(fuzz_dir, target)
        counts = line_counts(tool, fuzz_dir, target, src)
        per_target[target] = counts
        for path, lines in counts.items():
            merged = union.setdefault(path, {})
            for n, hits in lines.items():
                merged[n] = merged.get(n, 0) + hits
    files = sorted(p for p in union
                   if not p.startswith(os.path.join(src, "cli"))
                   and p != os.path.join(src, "main.rs"))
    if not files:
        fail("the coverage data names no file of src/")
    head = ["file", "lines with code", "reached", "%"] + TARGETS + ["not reached by any target"]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    total = reached_total = 0
    for path in files:
        lines = union[path]
        reached = sum(1 for h in lines.values() if h > 0)
        total += len(lines)
        reached_total += reached
        by_target = []
        for target in TARGETS:
            mine = per_target[target].get(path, {})
            by_target.append(str(sum(1 for h in mine.values() if h > 0)))
        missed = [n for n, h in lines.items() if h == 0]
        name = os.path.relpath(path, root)
        share = 100.0 * reached / len(lines) if lines else 100.0
        print(f"| `{name}` | {len(lines)} | {reached} | {share:.1f} | "
              + " | ".join(by_target) + f" | {ranges(missed) or '-'} |")
    share = 100.0 * reached_total / total if total else 100.0
    print(f"| all | {total} | {reached_total} | {share:.1f} |" + " |" * len(TARGETS) + " |")
    if args.lines:
        for path in files:
            missed = sorted(n for n, h in union[path].items() if h == 0)
            if not missed:
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read().splitlines()
            print(f"\n{os.path.relpath(path, root)}")
            for n in missed:
                print(f"{n:5}: {text[n - 1] if n <= len(text) else ''}")


if __name__ == "__main__":
    main()
