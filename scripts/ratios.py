#!/usr/bin/env python3
"""Prints `respond / floor` per request class from criterion's estimates.

Reads target/criterion/<class>/{respond,floor}/new/estimates.json, written by
`cargo bench --bench dispatch`, and prints a Markdown table (the one in
docs/performance.md) with each class's target from issue 4. The ratio uses
criterion's median of each function, both measured in the same run.

Usage: python3 scripts/ratios.py [TARGET_DIR]   (default: ./target)
Exit status: 0 always when every class has estimates; the targets are
benchmark goals, reported as "met" or "MISSED", not a test.
"""

import json
import os
import sys

# Class, title and target, in the order of benches/common/mod.rs.
CLASSES = [
    ("discover", "server/discover", 0.4),
    ("tools_list", "tools/list", 0.4),
    ("call_success", "tools/call success", 0.5),
    ("call_forbidden", "tools/call forbidden", 0.5),
    ("unknown_tool", "unknown tool", 1.0),
    ("invalid_arguments", "invalid arguments", 1.0),
    ("unknown_method", "unknown method", 1.0),
    ("missing_meta", "missing _meta", 1.0),
    ("unsupported_version", "unsupported version", 1.0),
    ("parse_error", "parse error", 1.0),
    ("large_id", "large-integer id", 1.0),
    ("order_id_4k", "4 KiB order_id", 1.0),
]

# The catalog's classes (issue 32, on data/config.example.json): each
# ratio against the floor may be at most 1.5 times tools/call success's,
# measured again in the same run on the same server (the first row).
CATALOG_BASE = ("catalog_call_success", "tools/call success (catalog)")
CATALOG = [
    ("resources_read_order", "resources/read of an order"),
    ("resources_read_policy", "resources/read of a policy"),
    ("prompts_get", "prompts/get reply_to_customer"),
]
CATALOG_FACTOR = 1.5


def median_ns(target, group, function):
    path = os.path.join(target, "criterion", group, function, "new", "estimates.json")
    with open(path) as f:
        return json.load(f)["median"]["point_estimate"]


def estimate(target, group, missing):
    """(respond, floor) medians of a group, or None (its name added to missing)."""
    try:
        return median_ns(target, group, "respond"), median_ns(target, group, "floor")
    except OSError:
        missing.append(group)
        return None


def main():
    target = sys.argv[1] if len(sys.argv) > 1 else "target"
    print("| class | respond (ns) | floor (ns) | respond / floor | target | |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    missing = []
    for group, title, goal in CLASSES:
        found = estimate(target, group, missing)
        if found is None:
            continue
        respond, floor = found
        ratio = respond / floor
        verdict = "met" if ratio <= goal else "MISSED"
        print(f"| {title} | {respond:.0f} | {floor:.0f} | {ratio:.2f} | <= {goal} | {verdict} |")
    print()
    print("| class | respond (ns) | floor (ns) | respond / floor | / tools/call's | target | |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    base = None
    for group, title in [CATALOG_BASE] + CATALOG:
        found = estimate(target, group, missing)
        if found is None:
            continue
        respond, floor = found
        ratio = respond / floor
        if base is None:
            base = ratio
            print(f"| {title} | {respond:.0f} | {floor:.0f} | {ratio:.2f} | 1.00 | | |")
            continue
        rel = ratio / base
        verdict = "met" if rel <= CATALOG_FACTOR else "MISSED"
        print(f"| {title} | {respond:.0f} | {floor:.0f} | {ratio:.2f} | {rel:.2f} | <= {CATALOG_FACTOR} | {verdict} |")
    if missing:
        print(f"no estimates for: {', '.join(missing)} (run cargo bench --bench dispatch)",
              file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
