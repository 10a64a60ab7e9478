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


def median_ns(target, group, function):
    path = os.path.join(target, "criterion", group, function, "new", "estimates.json")
    with open(path) as f:
        return json.load(f)["median"]["point_estimate"]


def main():
    target = sys.argv[1] if len(sys.argv) > 1 else "target"
    print("| class | respond (ns) | floor (ns) | respond / floor | target | |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    missing = []
    for group, title, goal in CLASSES:
        try:
            respond = median_ns(target, group, "respond")
            floor = median_ns(target, group, "floor")
        except OSError:
            missing.append(group)
            continue
        ratio = respond / floor
        verdict = "met" if ratio <= goal else "MISSED"
        print(f"| {title} | {respond:.0f} | {floor:.0f} | {ratio:.2f} | <= {goal} | {verdict} |")
    if missing:
        print(f"no estimates for: {', '.join(missing)} (run cargo bench --bench dispatch)",
              file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
