#!/usr/bin/env python3
"""Replay the committed test vectors (vectors/, format in docs/vectors.md)
on any stdio MCP 2026-07-28 server. Python's standard library only.

    python3 scripts/replay_vectors.py [--fixture NAME] [--dir DIR] -- CMD [ARGS...]
    python3 scripts/replay_vectors.py --http URL [--fixture http|http-auth] [--level L] [--dir DIR]

With --http URL: the HTTP vectors (vectors/http.jsonl) against a running
Streamable HTTP server started with vectors/configs/http.json, one request
per connection, judged as `mcp-reference check --vectors --http` judges
them (docs/vectors.md, "HTTP vectors").

Without --fixture: the `generic` vectors, which hold for any 2026-07-28
server whatever its tools. With --fixture NAME: also every vector of that
fixture, for a server started with vectors/configs/NAME.json.

Single vectors share one server process (2026-07-28 requests are
stateless), opened with a valid server/discover as a modern client opens
a stdio connection (its reply not judged); each request is followed by a
server/discover probe, and the lines before the probe's reply (or within
an eighth of the reply timeout after it) are the request's. A vector with
`steps` runs on a fresh process whose stdin is closed after the last step;
its lines are read to end-of-file. A failed vector replaces the shared process only when its
probe got no reply (the process exited or stopped answering). The single
vectors that fail at must there are tried again after the replay, on two
fresh processes that run them all in order and in reverse order; passing
there, one depends on earlier lines (BASE-21), which its report and the
statelessness line say. Every wait
has a deadline. The server runs in a process group of its own, killed
whole when the replay is done with it, so a launcher leaves nothing
running.
This is the algorithm of `mcp-reference check --vectors`
(tools/src/vectors/), which tools/tests/vectors.rs holds to the same
verdicts.

Format 6 (docs/vectors.md, "Format 6"): the input_required outcome, a
step's carry (a sequence with one runs as a chain, step by step on a
fresh process, each request filled from the replies before it), opaque
pointers (a requestState: present, never compared by value) and the
notifications before a reply (before, expect.notifications).

The replayer is the package scripts/vectors_replay/ (one module per part);
this file is its command line.

Each vector is judged at its own level (must, should or textbook: what its
source requires), at textbook and at canonical (the exact bytes); each
level is reported on its own line. Exit codes: 0 every vector passed at
the verdict's levels (must, or every level up to --level), 1 one failed
there, 3 the deadline cut some vectors (none failed), 2 could not run (bad command
line, unknown fixture, unreadable vectors, the server cannot be started).
"""

import argparse
import os
import sys

from vectors_replay.http_replay import http_main
from vectors_replay.judge import NOTHING, SILENCE, failed_levels, meets  # noqa: F401 (tools/tests/judgement.rs)
from vectors_replay.report import report
from vectors_replay.stdio import replay
from vectors_replay.vectors import FIXTURES, LEVELS, CannotRun, load  # noqa: F401


def main(argv):
    default_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "vectors")
    if "--" not in argv and ("-h" in argv or "--help" in argv):
        print(__doc__)
        return 0
    if "--http" in argv and "--" not in argv:
        parser = argparse.ArgumentParser(prog="replay_vectors.py --http")
        parser.add_argument("--http", required=True, metavar="URL")
        parser.add_argument("--fixture", default="http", metavar="NAME")
        parser.add_argument("--dir", default=default_dir, metavar="DIR")
        parser.add_argument("--timeout-ms", type=int, default=5000, metavar="N")
        parser.add_argument("--deadline-ms", type=int, default=120000, metavar="N")
        parser.add_argument("--level", default="must", choices=LEVELS)
        try:
            o = parser.parse_args(argv)
        except SystemExit as e:
            return 0 if e.code == 0 else 2
        o.timeout = o.timeout_ms / 1000.0
        o.deadline = o.deadline_ms / 1000.0
        try:
            return http_main(o)
        except CannotRun as e:
            sys.stderr.write("replay_vectors.py: %s\n" % e)
            return 2
    if "--" not in argv:
        sys.stderr.write("replay_vectors.py: the server's command goes after `--`: "
                         "python3 scripts/replay_vectors.py [--fixture NAME] [--dir DIR] -- CMD [ARGS...]\n")
        return 2
    split = argv.index("--")
    ours, command = argv[:split], argv[split + 1:]
    parser = argparse.ArgumentParser(prog="replay_vectors.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--fixture", metavar="NAME",
                        help="also replay this fixture's vectors (%s)" % ", ".join(FIXTURES))
    parser.add_argument("--dir", default=default_dir, metavar="DIR",
                        help="the vectors folder (default: vectors/ beside scripts/)")
    parser.add_argument("--timeout-ms", type=int, default=5000, metavar="N",
                        help="wait for a fresh process's first line (default 5000)")
    parser.add_argument("--reply-timeout-ms", type=int, default=2000, metavar="N",
                        help="wait for each later line (default 2000)")
    parser.add_argument("--deadline-ms", type=int, default=120000, metavar="N",
                        help="the whole run's deadline (default 120000)")
    parser.add_argument("--level", default="must", choices=LEVELS,
                        help="the level the verdict and exit code rest on (default must); "
                             "failures at every level up to it count")
    parser.add_argument("--fresh-each", action="store_true",
                        help="run every single vector on a fresh process of its own "
                             "(as if restarted before each; a server that takes no context "
                             "from earlier requests, BASE-21, gets the same verdicts)")
    try:
        o = parser.parse_args(ours)
    except SystemExit as e:
        return 0 if e.code == 0 else 2
    if not command:
        sys.stderr.write("replay_vectors.py: no command after `--`\n")
        return 2
    o.command = command
    o.timeout = o.timeout_ms / 1000.0
    o.reply_timeout = o.reply_timeout_ms / 1000.0
    o.deadline = o.deadline_ms / 1000.0
    try:
        results = replay(o)
    except CannotRun as e:
        sys.stderr.write("replay_vectors.py: %s\n" % e)
        return 2
    return report(o, results)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
