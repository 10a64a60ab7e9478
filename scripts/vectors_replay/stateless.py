"""The statelessness probe (BASE-21, docs/vectors.md, "Replay"), run
before the vectors, as tools/src/vectors/stateless.rs runs it: a valid
server/discover and one without _meta, each as a fresh process's first
line and after the other; the valid one's answers must be alike.
"""

import json

from .process import Process, grace, is_reply_to, missing, sync_line

def kind(line):
    """What came back for a request, as compared: "error CODE", "a result",
    "no reply", or "an unreadable reply" (as check and the Rust replayer)."""
    if line is None:
        return "no reply"
    try:
        v = json.loads(line)
    except ValueError:
        return "an unreadable reply"
    if isinstance(v, dict) and "result" in v:
        return "a result"
    code = v.get("error", {}).get("code") if isinstance(v, dict) and isinstance(v.get("error"), dict) else None
    if isinstance(code, int) and not isinstance(code, bool):
        return "error %d" % code
    return "an unreadable reply"


def stateless(o, end, starts):
    """The statelessness probe (BASE-21), before the vectors: a valid
    server/discover and one without _meta, each as a fresh process's first
    line and after the other, on two processes of their own; each answer
    read up to a sync probe (or within the grace after it); the valid
    one's answers judged. ("pass", ""), ("fail", why) or ("notrun", why)."""
    valid = sync_line("history", 0)
    bare = (b'{"jsonrpc":"2.0","id":"mcp-vectors-history-bare","method":"server/discover"}',
            '"mcp-vectors-history-bare"')
    answers = []
    for n, order in enumerate([[valid, bare], [bare, valid]]):
        starts[0] += 1
        p = Process(o.command)
        try:
            got = []
            for i, (line, want) in enumerate(order):
                p.write(line)
                sync, sid = sync_line("history-sync", n * 2 + i)
                p.write(sync)
                # The answer is the line with the request's id (a log line
                # or a stray reply is not).
                first = None
                while True:
                    read = p.read(o, end)
                    if read[0] != "line":
                        return ("notrun", missing(read))
                    if is_reply_to(read[1], sid):
                        break
                    if first is None and is_reply_to(read[1], want):
                        first = read[1]
                if first is None:
                    read = p.read_within(grace(o), end)
                    if read[0] == "line" and is_reply_to(read[1], want):
                        first = read[1]
                got.append(kind(first))
            answers.append(got)
        finally:
            p.kill()
    # The valid request must be answered alike in both places; the one
    # without _meta carries no context of its own, and a dual-era server
    # may read it by how the connection opened, so its answers are shown
    # and not judged (tools/src/check/stateless.rs, judge).
    alone, after = answers[0][0], answers[1][1]
    if alone == after == "no reply":
        return ("notrun", "a valid server/discover got no reply as a process's first line or "
                "after server/discover without _meta: there is no answer to compare")
    if alone != after:
        return ("fail", "a valid server/discover got %s as a process's first line but %s after "
                "server/discover without _meta (which got %s as a first line and %s after the "
                "valid one): the answer depends on an earlier request"
                % (alone, after, answers[1][0], answers[0][1]))
    return ("pass", "")

