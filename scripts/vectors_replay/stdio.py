"""The stdio replay (docs/vectors.md, "Replay" and "Format 6"), as
tools/src/vectors/replay.rs runs it: single vectors on a shared process
(or each on its own with --fresh-each), each request followed by a sync
probe; sequences on a fresh process, written at once and paired by id;
chains (a sequence with a carry) step by step on a fresh process, each
step's request filled from the replies before it; and the tries again of
the single vectors that failed at must on the shared process (BASE-21).
"""

import json
import time

from .judge import (LEVELS, NOTHING, SILENCE, at, failed_levels, id_token, is_notification,
                    show, value)
from .process import Process, grace, is_reply_to, missing, open_process, sync_line
from .stateless import stateless
from .vectors import load


def split_notes(s, lines):
    """For a step with before (format 6): the notifications that lead its
    lines, and the lines after them (the first is its reply). For another
    step: None, and the lines as they are."""
    if s["before"] is None:
        return None, lines
    k = 0
    while k < len(lines) and is_notification(lines[k]):
        k += 1
    return lines[:k], lines[k:]


def read_step(p, s, i, o, end, late):
    """The lines before the reply to the probe with id i, the notifications
    among them split off (split_notes), then, when late and no reply to the
    request came, the line within grace() after the probe's reply; and the
    read that ended them when the probe got no reply (None when it did).
    (notes, lines, last)."""
    lines, last = p.early, None
    p.early = []
    while True:
        read = p.read(o, end)
        if read[0] != "line":
            last = read
            break
        if is_reply_to(read[1], i):
            break
        lines.append(read[1])
    notes, lines = split_notes(s, lines)
    if late and last is None and not lines and s["reply"] is not None:
        read = p.read_within(grace(o), end)
        if read[0] == "line":
            lines.append(read[1])
    return notes, lines, last


def judge_lines(v, fixture, s, notes, lines, last):
    """A step's lines judged (docs/vectors.md, "Replay"): the notifications
    before its reply (None: not judged), then the reply; none is a silence
    when the probe was answered (last None); a line more than the reply
    fails at every level. The levels failed, the got line shown, and what
    came back (the reply line, SILENCE or NOTHING)."""
    if lines and s.get("before") is not None:
        got = lines[0]
        shown = "(%d notifications first) %s" % (len(notes or []), show(lines[0]))
    elif lines:
        got, shown = lines[0], show(lines[0])
    elif last is None:
        got, shown = SILENCE, "(no reply: the probe that follows was answered)"
    else:
        got, shown = NOTHING, missing(last) + " (to the request and the probe that follows)"
    levels = failed_levels(v, fixture, s, got, notes)
    if len(lines) > 1:
        silent = dict(s, expect=None, reply=None, before=None, opaque=[])
        levels += failed_levels(v, fixture, silent, lines[1])
        levels = [l for l in LEVELS if l in levels]
    return levels, shown, got


def single(p, v, n, o, end, late=True):
    """One single vector on the shared process: the request, then the
    probe; the lines before the probe's reply (or, when late, within
    grace() after it) are the request's. None or its failure (the levels,
    step, expected, got), and whether the process is still answering (the
    probe got its reply). The tries again of tried_again() wait no grace
    (a concurrent server's late reply had its grace on the shared process,
    and a try again only ever finds a pass)."""
    s = v["steps"][0]
    p.write(s["request"])
    probe, i = sync_line("sync", n)
    p.write(probe)
    notes, lines, last = read_step(p, s, i, o, end, late)
    levels, shown, _ = judge_lines(v, o.fixture, s, notes, lines, last)
    answering = last is None
    if not levels:
        return None, answering
    return (levels, 1, expected_shown(s), shown), answering


def expected_shown(s):
    """The expected line as shown: the reference's reply, and for a step
    that judges its notifications (format 6) how many come first, as the
    got line says how many came."""
    if s["reply"] is None or s.get("before") is None:
        return s["reply"]
    return "(%d notifications first) %s" % (len(s["before"]), s["reply"])


def fill(s, replies):
    """A chain step's request with its carries filled (format 6): each
    placeholder's JSON string replaced by the compact JSON text of the
    value at the pointer in the reply to step `from`. (request, None), or
    (None, (from, pointer)) when that reply has nothing there (no reply,
    not a JSON object, no such value)."""
    request = s["request"]
    for c in s["carry"]:
        got = replies[c["from"]]
        reply = value(got) if got is not None else None
        found, x = at(reply, c["pointer"]) if isinstance(reply, dict) else (False, None)
        try:
            # serde_json's compact text: keys sorted, non-ASCII as is.
            text = json.dumps(x, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
            text = text.encode("utf-8")
        except (UnicodeEncodeError, ValueError):
            found = False
        if not found:
            return None, (c["from"], c["pointer"])
        request = request.replace(json.dumps(c["placeholder"], ensure_ascii=False).encode("utf-8"),
                                  text)
    return request, None


def not_run(blocked):
    """The got line of a chain step that was not written."""
    return "(not run: step %d's reply has nothing at %s)" % (blocked[0] + 1, blocked[1])


# The got line of the chain steps after one whose probe got no reply.
STOPPED = "(not run: the server stopped answering at an earlier step)"


def chain(v, n, o, end, starts):
    """A chain on a fresh process, opened as the shared one is (id
    "mcp-vectors-open-S", S this server start): each step's filled
    request, then a sync probe (id "mcp-vectors-sync-N-K", K the step's
    index), its lines judged as a single vector's are; after the last step
    stdin is closed and the process group killed. A step whose carry finds
    nothing is not written, nor any step after it, nor any step after one
    whose probe got no reply: each fails at every level it is judged at.
    None or the failure (levels, step, expected, got), the step shown the
    first to fail at the weakest level, as for a sequence."""
    p = Process(o.command)
    replies = [None] * len(v["steps"])
    levels, first, stopped = [], None, None
    try:
        open_process(p, starts[0], o, end)
        for k, s in enumerate(v["steps"]):
            if stopped is None:
                request, blocked = fill(s, replies)
                stopped = not_run(blocked) if blocked is not None else None
            if stopped is not None:
                failed, shown = failed_levels(v, o.fixture, s, NOTHING), stopped
            else:
                p.write(request)
                probe, i = sync_line("sync", "%d-%d" % (n, k))
                p.write(probe)
                notes, lines, last = read_step(p, s, i, o, end, late=True)
                failed, shown, got = judge_lines(v, o.fixture, s, notes, lines, last)
                replies[k] = got if isinstance(got, bytes) else None
                if last is not None:
                    stopped = STOPPED
            first = noted(levels, first, failed, (k + 1, expected_shown(s), shown))
    finally:
        p.kill()
    if first is None:
        return None
    return ([l for l in LEVELS if l in levels],) + first[1:]


def sequence(v, n, o, end):
    """A sequence on a fresh process: its steps, then the probe (id
    "mcp-vectors-end-N"), stdin closed, lines read to end-of-file and
    paired with the steps by id. The probe's reply is no step's; a step
    that expects silence passes only when it came."""
    p = Process(o.command)
    alive = False
    try:
        for s in v["steps"]:
            p.write(s["request"])
        probe, probe_id = sync_line("end", n)
        p.write(probe)
        p.close()
        got = []
        while True:
            read = p.read(o, end)
            if read[0] != "line":
                last = read
                break
            if is_reply_to(read[1], probe_id):
                alive = True
            else:
                got.append(read[1])
    finally:
        p.kill()
    levels, first = [], None
    # Replies are paired with steps by id, as JSON-RPC pairs them (a server
    # may answer in any order); a step whose id no line has takes the first
    # line whose id is no step's.
    pool = list(got)
    ids = [id_token(s["reply"]) for s in v["steps"] if s["reply"] is not None]
    # The last step whose reply came: a silent step before it was observed
    # (the server went past it), one after it only when the probe was
    # answered.
    last_seen = -1
    for i, s in enumerate(v["steps"]):
        if s["reply"] is None:
            continue
        want = id_token(s["reply"])
        k = next((j for j, l in enumerate(pool) if l is not None and id_token(l) == want), None)
        if k is None:
            k = next((j for j, l in enumerate(pool)
                      if l is not None and id_token(l) not in ids), None)
        if k is not None:
            last_seen = i
            line, pool[k] = pool[k], None
            failed, shown = failed_levels(v, o.fixture, s, line), show(line)
        else:
            failed, shown = failed_levels(v, o.fixture, s, NOTHING), missing(last)
        first = noted(levels, first, failed, (i + 1, s["reply"], shown))
    for i, s in enumerate(v["steps"]):
        if s["reply"] is None and not alive and i > last_seen:
            failed = failed_levels(v, o.fixture, s, NOTHING)
            shown = missing(last) + " (to the probe after the last step)"
            first = noted(levels, first, failed, (i + 1, None, shown))
    extra = next((l for l in pool if l is not None), None)
    if extra is not None:
        silent = dict(v["steps"][-1], expect=None, reply=None, before=None, opaque=[])
        failed = failed_levels(v, o.fixture, silent, extra)
        first = noted(levels, first, failed, (len(v["steps"]), None, show(extra)))
    if first is None:
        return None
    levels = [l for l in LEVELS if l in levels]
    return (levels,) + first[1:]


def noted(levels, first, failed, shown):
    """Adds a step's failed levels; the step shown is the first to fail at
    the weakest level failed (one failing at must rather than an earlier
    one failing only at textbook). first and the result: (rank, step,
    expected, got) or None."""
    if not failed:
        return first
    levels += failed
    rank = min(LEVELS.index(l) for l in failed)
    if first is None or rank < first[0]:
        return (rank,) + shown
    return first

def replay(o):
    vectors = load(o.dir, o.fixture)
    end = time.monotonic() + o.deadline
    shared = None
    results = []
    starts = o.starts = [0]
    o.retried = 0
    again = []
    o.stateless = stateless(o, end, starts)
    try:
        for n, v in enumerate(vectors):
            if time.monotonic() >= end:
                results.append((v, "notrun"))
                continue
            if v["chain"]:
                starts[0] += 1
                failure = chain(v, n, o, end, starts)
            elif v["sequence"]:
                starts[0] += 1
                failure = sequence(v, n, o, end)
            else:
                if shared is None:
                    starts[0] += 1
                    p = Process(o.command)
                    open_process(p, starts[0], o, end)
                else:
                    p = shared
                shared = None
                failure, answering = single(p, v, n, o, end)
                if answering and not o.fresh_each:
                    shared = p
                else:
                    p.kill()
                # A failure at must on the shared process is tried again
                # on fresh processes after the replay (tried_again).
                if failure is not None and "must" in failure[0] and not o.fresh_each:
                    again.append(n)
            results.append((v, failure))
    finally:
        if shared is not None:
            shared.kill()
    o.retried = tried_again(results, again, o, end, starts)
    return results


def tried_again(results, again, o, end, starts):
    """The single vectors that failed at must on the shared process (their
    indices in results), tried again on two fresh processes, each opened as
    the shared one was: all of them one after another in their order, then
    in the reverse order. One that passes at must on either depends on
    earlier lines (BASE-21): two histories gave two answers. Two starts
    however many failed (tools/src/vectors/replay.rs, tried_again, says
    why). Returns how many were tried; the verdicts stay the shared
    process's."""
    passed = [False] * len(again)
    tried = [False] * len(again)
    for order in (list(range(len(again))), list(range(len(again)))[::-1]):
        p = None
        try:
            for j in order:
                if time.monotonic() >= end:
                    break
                n = again[j]
                v = results[n][0]
                if p is None:
                    starts[0] += 1
                    p = Process(o.command)
                    open_process(p, starts[0], o, end)
                failure, answering = single(p, v, n, o, end, late=False)
                tried[j] = True
                if failure is None or "must" not in failure[0]:
                    passed[j] = True
                if not answering:
                    p.kill()
                    p = None
        finally:
            if p is not None:
                p.kill()
    for j, n in enumerate(again):
        v, failure = results[n]
        results[n] = (v, failure + (passed[j],))
    return sum(tried)


