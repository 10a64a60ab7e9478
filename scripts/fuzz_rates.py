#!/usr/bin/env python3
"""Executions per second of the fuzz targets, builds side by side (issue 14).

Runs the fuzz targets of two or more builds in turn, the order rotating
from round to round, each run for the same time with the flags of
fuzz/smoke.sh, from a fresh scratch directory plus this checkout's
committed seeds and regressions (and its dictionary, for the targets that
have one), so that every build sees the same inputs. Prints one Markdown
table: per target, each build's `stat::average_exec_per_sec` per round,
and each build's mean over the first build's mean. This is the protocol
of docs/fuzzing.md, "Measurements".

A build is LABEL=WHAT, where WHAT is either a directory holding the target
binaries (say, copied aside after `cargo +nightly fuzz build`) or a git
revision of this repository. A revision is exported with `git archive`
into a temporary directory and built there with `cargo +nightly fuzz
build` and nothing else, so it builds as it did at that commit (its own
fuzz/.cargo/config.toml included).

Usage (from anywhere in the repository):

    python3 scripts/fuzz_rates.py before=238ecf5 now=HEAD
    python3 scripts/fuzz_rates.py --seconds 600 --rounds 1 a=/tmp/a b=/tmp/b
    python3 scripts/fuzz_rates.py --targets respond_bytes,session now=HEAD other=DIR

Needs a nightly toolchain and cargo-fuzz for a revision (not for a
directory). Writes only under a temporary directory, removed at the end;
the checkout is never written. Rates are wall-clock figures of a shared
machine: compare builds within one table, never across tables. Exit
status: 0 with the table; 1 when a run fails (a crash, a failed assertion,
a timeout: its output's tail is printed and no table is); 2 when something
needed is missing or a build fails (one line on stderr).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

TRIPLE = "x86_64-unknown-linux-gnu"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUZZ = os.path.join(ROOT, "fuzz")
# The targets are the checkout's: one file each in fuzz/fuzz_targets/.
TARGETS = sorted(
    name[: -len(".rs")]
    for name in os.listdir(os.path.join(FUZZ, "fuzz_targets"))
    if name.endswith(".rs")
)


def fail(message):
    print(f"fuzz_rates: {message}", file=sys.stderr)
    sys.exit(2)


def build_revision(label, rev, scratch):
    """Exports `rev` and builds its fuzz targets; returns the binaries' directory."""
    src = os.path.join(scratch, f"src-{label}")
    os.makedirs(src)
    archive = subprocess.run(
        ["git", "-C", ROOT, "archive", "--format=tar", rev],
        capture_output=True,
    )
    if archive.returncode != 0:
        fail(f"{rev!r} is not a directory or a revision of this repository")
    subprocess.run(["tar", "-x", "-C", src], input=archive.stdout, check=True)
    target_dir = os.path.join(scratch, f"target-{label}")
    print(f"fuzz_rates: building {label} ({rev})", file=sys.stderr)
    built = subprocess.run(
        ["cargo", "+nightly", "fuzz", "build", "--target-dir", target_dir],
        cwd=os.path.join(src, "fuzz"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    if built.returncode != 0:
        tail = built.stderr.strip().splitlines()[-1:] or ["no output"]
        fail(f"building {label} ({rev}) failed: {tail[0]}")
    return os.path.join(target_dir, TRIPLE, "release")


def run_once(binary, target, seconds, scratch):
    """One run; returns (executions, exec/s) or exits 1 on a failed run."""
    work = os.path.join(scratch, "work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    dirs = [work, os.path.join(FUZZ, "corpus", target)]
    regressions = os.path.join(FUZZ, "regressions", target)
    if os.path.isdir(regressions):
        dirs.append(regressions)
    flags = [f"-max_total_time={seconds}", "-timeout=10", "-print_final_stats=1"]
    dictionary = os.path.join(FUZZ, "dict", f"{target}.dict")
    if os.path.isfile(dictionary):
        flags.append(f"-dict={dictionary}")
    run = subprocess.run(
        [binary, *dirs, *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
    )
    stats = dict(re.findall(r"^stat::(\w+):\s+(\d+)", run.stdout, re.M))
    if run.returncode != 0 or "average_exec_per_sec" not in stats:
        print("\n".join(run.stdout.splitlines()[-40:]), file=sys.stderr)
        print(f"fuzz_rates: {binary} failed; no rates are reported", file=sys.stderr)
        sys.exit(1)
    return int(stats.get("number_of_executed_units", 0)), int(stats["average_exec_per_sec"])


def load_average():
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("builds", nargs="+", metavar="LABEL=DIR|REV")
    parser.add_argument("--seconds", type=int, default=60, help="per run (default 60)")
    parser.add_argument(
        "--rounds", type=int, default=2, help="runs per build and target (default 2)"
    )
    parser.add_argument(
        "--targets", default=",".join(TARGETS), help="comma-separated (default: all)"
    )
    args = parser.parse_args()

    targets = [t for t in args.targets.split(",") if t]
    unknown = [t for t in targets if t not in TARGETS]
    if unknown:
        fail(f"no fuzz target named {unknown[0]!r} (the targets: {', '.join(TARGETS)})")
    if args.seconds < 1 or args.rounds < 1:
        fail("--seconds and --rounds must be at least 1")
    builds = []
    for spec in args.builds:
        label, sep, what = spec.partition("=")
        if not sep or not label or not what or not re.fullmatch(r"[\w.-]+", label):
            fail(
                f"{spec!r} is not LABEL=DIR or LABEL=REVISION "
                "(a label of letters, digits, '.', '_', '-')"
            )
        if label in (b[0] for b in builds):
            fail(f"the label {label!r} is given twice")
        builds.append((label, what))

    with tempfile.TemporaryDirectory(prefix="fuzz-rates-") as scratch:
        bins = {}
        for label, what in builds:
            if os.path.isdir(what):
                bins[label] = os.path.abspath(what)
            else:
                if shutil.which("cargo") is None:
                    fail("cargo is not on PATH (needed to build a revision)")
                check = subprocess.run(
                    ["cargo", "+nightly", "fuzz", "--version"], capture_output=True
                )
                if check.returncode != 0:
                    fail("building a revision needs a nightly toolchain and cargo-fuzz")
                bins[label] = build_revision(label, what, scratch)
            for target in targets:
                if not os.access(os.path.join(bins[label], target), os.X_OK):
                    fail(f"{label}: no executable {target} in {bins[label]}")

        rates = {(t, label): [] for t in targets for label, _ in builds}
        loads = []
        labels = [label for label, _ in builds]
        for r in range(args.rounds):
            for target in targets:
                for k in range(len(labels)):
                    label = labels[(k + r) % len(labels)]
                    load = load_average()
                    if load is not None:
                        loads.append(load)
                    execs, rate = run_once(
                        os.path.join(bins[label], target), target, args.seconds, scratch
                    )
                    rates[(target, label)].append(rate)
                    print(
                        f"round {r + 1} {target} {label}: {rate} exec/s ({execs} runs)",
                        file=sys.stderr,
                    )

    first = labels[0]
    head = ["target", *labels, *(f"{label} / {first}" for label in labels[1:])]
    print("| " + " | ".join(head) + " |")
    print("| --- |" + " ---: |" * (len(head) - 1))
    for target in targets:
        cells = [f"`{target}`"]
        cells += ["; ".join(f"{v:,}" for v in rates[(target, label)]) for label in labels]
        base = sum(rates[(target, first)])
        for label in labels[1:]:
            ratio = sum(rates[(target, label)]) / base if base else float("nan")
            cells.append(f"{ratio:.2f}x")
        print("| " + " | ".join(cells) + " |")
    span = ""
    if loads:
        low, high = f"{min(loads):.1f}", f"{max(loads):.1f}"
        span = f", load average {low}" if low == high else f", load average {low} to {high}"
    rounds = "1 round" if args.rounds == 1 else f"{args.rounds} rounds"
    print(
        f"\n({rounds} of {args.seconds} s per build and target, "
        f"the order rotating{span}; a ratio divides the means.)"
    )


if __name__ == "__main__":
    main()
