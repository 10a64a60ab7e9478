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

Each vector is judged at its own level (must, should or textbook: what its
source requires), at textbook and at canonical (the exact bytes); each
level is reported on its own line. Exit codes: 0 every vector passed at
the verdict's levels (must, or every level up to --level), 1 one failed
there, 3 the deadline cut some vectors (none failed), 2 could not run (bad command
line, unknown fixture, unreadable vectors, the server cannot be started).
"""

import argparse
import http.client
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time

FILES = ["generic", "textbook", "stock", "short-lines", "legacy", "catalog", "conformance"]
# The verdict levels, weakest claim first (docs/vectors.md, "Levels").
LEVELS = ["must", "should", "textbook", "canonical"]
# The one _meta member of a result the textbook level compares.
SERVER_INFO = "io.modelcontextprotocol/serverInfo"
FIXTURES = ["textbook", "stock", "short-lines", "legacy", "catalog", "conformance"]


class CannotRun(Exception):
    """The run cannot go on: one sentence for stderr, exit code 2."""


def load(directory, fixture):
    if fixture is not None and fixture not in FIXTURES:
        raise CannotRun("no fixture %s: the fixtures are %s" % (fixture, ", ".join(FIXTURES)))
    out = []
    for name in FILES:
        if name != "generic" and name != fixture:
            continue
        path = os.path.join(directory, name + ".jsonl")
        try:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8")
        except OSError as e:
            raise CannotRun("cannot read %s: %s" % (path, e.strerror))
        # Split on "\n" only: str.splitlines() would also split inside a
        # line at U+2028, U+0085 and other separators JSON leaves unescaped.
        for n, line in enumerate(text.split("\n"), 1):
            if not line:
                continue
            try:
                out.append(parse(json.loads(line)))
            except (ValueError, KeyError, TypeError) as e:
                raise CannotRun("%s line %d: %s" % (path, n, e))
    return out


def step(v):
    if ("request" in v) == ("request_hex" in v):
        raise ValueError("a step needs exactly one of request and request_hex")
    request = v["request"].encode("utf-8") if "request" in v else bytes.fromhex(v["request_hex"])
    reply = v["reply"]
    if reply is not None and not isinstance(reply, str):
        raise ValueError("reply must be a string or null")
    expect = v["expect"]
    if expect is not None and not isinstance(expect, dict):
        raise ValueError("expect must be an object or null")
    # A step of a sequence (format 3) carries the level its expect is
    # judged at and the statement or rule that gives it.
    level = None
    if "level" in v or "source" in v:
        if v.get("level") not in LEVELS or not isinstance(v.get("source"), str):
            raise ValueError("a step has a known level and a source, or neither")
        level = (v["level"], v["source"])
    return {"request": request, "expect": expect, "reply": reply, "level": level}


def parse(v):
    sequence = "steps" in v
    steps = [step(s) for s in v["steps"]] if sequence else [dict(step(v), level=None)]
    if v["level"] not in LEVELS:
        raise ValueError("unknown level %s" % v["level"])
    return {
        "id": v["id"],
        "rule": v["rule"],
        "flags": list(v["flags"]),
        "level": v["level"],
        "source": v["source"],
        "config": v["config"],
        "steps": steps,
        "sequence": sequence,
    }


class Literal:
    """A number as its literal text (for comparing ids)."""

    def __init__(self, text):
        self.text = text


def token(raw):
    """A raw id (its JSON text) as a comparable token: a string's value or
    any other literal's text; None when unreadable."""
    raw = raw.strip()
    if raw.startswith('"'):
        try:
            return "s:" + json.loads(raw)
        except ValueError:
            return None
    return "n:" + raw


def members(line):
    """A line's id (its raw text, "null" when absent) and its other members
    as JSON values; None when the line is no JSON object. Numbers are read
    as Python reads them, ids as written."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            return None
    try:
        v = json.loads(line, parse_int=Literal, parse_float=Literal)
    except ValueError:
        return None
    if not isinstance(v, dict):
        return None
    i = v.pop("id", None)
    if isinstance(i, str):
        raw = json.dumps(i)
    elif isinstance(i, Literal):
        raw = i.text
    else:
        # null, a boolean, or an array or object (no valid id, but a reply
        # may carry one): compact, its numbers as read.
        raw = json.dumps(plain(i), separators=(",", ":"))
    return raw, {k: plain(x) for k, x in v.items()}


def plain(x):
    """A value with number literals turned into numbers (an int, else a
    float), as serde_json compares them."""
    if isinstance(x, Literal):
        t = x.text
        if all(c.isdigit() or c == "-" for c in t):
            return int(t)
        return float(t)
    if isinstance(x, dict):
        return {k: plain(y) for k, y in x.items()}
    if isinstance(x, list):
        return [plain(y) for y in x]
    return x


def id_token(line):
    """A reply's id as a token; None when the line is no JSON object."""
    m = members(line)
    return None if m is None else token(m[0])


def same(a, b):
    """The same JSON value, member order free, numbers of the same kind."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def meets(expect, got):
    """Whether got is what expect requires (docs/vectors.md, "Levels")."""
    m = members(got)
    if m is None:
        return False
    raw, have = m
    if have.get("jsonrpc") != "2.0" or token(raw) is None or token(raw) != token(expect.get("id", "")):
        return False
    result, error = have.get("result"), have.get("error")
    outcome = expect.get("outcome")
    if outcome == "reply":
        return ("result" in have) != ("error" in have)
    if outcome == "versions":
        # An answer to initialize by VER-07, as check's initialize.answer
        # judges it: a legacy InitializeResult (a dual-era server), or an
        # error whose message or data names one of the versions.
        versions = [x for x in expect.get("versions", []) if isinstance(x, str)]
        if not versions or ("result" in have) == ("error" in have):
            return False
        if "result" in have:
            return isinstance(result, dict) and isinstance(result.get("protocolVersion"), str)
        if not isinstance(error, dict):
            return False
        text = "%s %s" % (json.dumps(error.get("message"), ensure_ascii=False),
                          json.dumps(error.get("data"), ensure_ascii=False))
        return any(x in text for x in versions)
    if outcome == "error":
        code = error.get("code") if isinstance(error, dict) else None
        codes = expect.get("codes", [])
        if not ("result" not in have and isinstance(code, int) and not isinstance(code, bool)
                and (not codes or code in codes)):
            return False
        asked = expect.get("requested")
        if code == -32022 and isinstance(asked, str):
            # A -32022 lists the versions and names the one asked for
            # (VER-01), as check's version.unsupported judges it.
            data = error.get("data")
            data = data if isinstance(data, dict) else {}
            supported = data.get("supported")
            return (isinstance(supported, list) and len(supported) > 0
                    and all(isinstance(x, str) for x in supported)
                    and data.get("requested") == asked)
        return True
    if outcome == "result":
        if "error" in have or not isinstance(result, dict):
            return False
        is_error = result.get("isError", False)
        return (result.get("resultType") == "complete" and isinstance(is_error, bool)
                and is_error == expect.get("isError", False)
                and discloses_nothing(expect, result))
    return False


def discloses_nothing(expect, result):
    """For a completion of an order id (format 5, COMP-08): no value is one
    of the hidden ids (the orders the fixture's user may not read), and
    total, when given, is at most total_at_most (the user's own ids that
    match). True when the vector says neither."""
    completion = result.get("completion")
    completion = completion if isinstance(completion, dict) else {}
    values = completion.get("values")
    values = values if isinstance(values, list) else []
    hidden = expect.get("hidden", [])
    most = expect.get("total_at_most")
    if isinstance(most, int) and "total" in completion:
        total = completion["total"]
        if not (isinstance(total, int) and not isinstance(total, bool) and 0 <= total <= most):
            return False
    return not any(isinstance(v, str) and v in hidden for v in values)


def textbook_form(v):
    """A reply without the error's wording and data, and without the
    result's _meta members other than serverInfo."""
    v = dict(v)
    if isinstance(v.get("error"), dict):
        e = dict(v["error"])
        e.pop("message", None)
        e.pop("data", None)
        v["error"] = e
    if isinstance(v.get("result"), dict) and isinstance(v["result"].get("_meta"), dict):
        r = dict(v["result"])
        r["_meta"] = {k: x for k, x in r["_meta"].items() if k == SERVER_INFO}
        v["result"] = r
    return v


def textbook(v, reply, got):
    """The textbook judgement: the reference's reply but for the error's
    wording and data; for a generic vector the reference's error code, or
    a complete result."""
    want, have = members(reply), members(got)
    if want is None or have is None:
        return False
    if "generic" in v["flags"]:
        expect = {"id": want[0], "outcome": "result"}
        error = want[1].get("error")
        if isinstance(error, dict) and "code" in error:
            expect = {"id": want[0], "outcome": "error", "codes": [error["code"]]}
        return meets(expect, got)
    return token(have[0]) == token(want[0]) and same(textbook_form(want[1]), textbook_form(have[1]))


def levels_of(v, fixture):
    """The levels a vector is judged at: its own, textbook, and canonical
    unless the server runs another fixture than the reply was made with."""
    exact = fixture is None or fixture == v["config"]
    own = [s["level"][0] for s in v["steps"] if s["level"] is not None]
    return [l for l in LEVELS
            if l == v["level"] or l == "textbook" or (l == "canonical" and exact) or l in own]


def expect_judged_at(v, s, level):
    """Whether a step's expect is judged at level (must or should): at its
    own level for a step of a sequence, at the vector's for a single one."""
    if s["level"] is not None:
        return s["level"][0] == level
    return v["level"] == level


# What came back for a step when no line did: SILENCE when the server
# showed it had gone past the request (the probe written after it was
# answered), NOTHING when it exited or stopped answering (not a silence:
# a step that expects silence fails).
SILENCE = "silence"
NOTHING = "nothing"


def failed_levels(v, fixture, s, got):
    """The levels at which a step fails, given what came back (a line,
    SILENCE or NOTHING)."""
    out = []
    for level in levels_of(v, fixture):
        if level not in ("canonical", "textbook") and not expect_judged_at(v, s, level):
            ok = True
        elif s["reply"] is None or not isinstance(got, bytes):
            ok = s["reply"] is None and got == SILENCE
        elif level == "canonical":
            ok = got == s["reply"].encode("utf-8")
        elif level == "textbook":
            ok = textbook(v, s["reply"], got)
        else:
            ok = s["expect"] is not None and meets(s["expect"], got)
        if not ok:
            out.append(level)
    return out


def show(line):
    return line.decode("utf-8", errors="replace")


class Process:
    """The server: in a process group of its own (POSIX), so that killing
    it stops whatever a launcher (npx, uv run, a shell script) started too;
    its stdin fed by a writer thread, so a server that stops reading never
    blocks the replay; its stdout read by a reader thread."""

    def __init__(self, command):
        try:
            self.p = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL,
                                      start_new_session=(os.name == "posix"))
        except OSError as e:
            raise CannotRun("cannot start %s: %s" % (command[0], e.strerror))
        self.lines = queue.Queue()
        self.input = queue.Queue()
        self.closed = False
        self.answered = False
        self.early = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._write, daemon=True).start()

    def _read(self):
        try:
            for line in self.p.stdout:
                if line.endswith(b"\n"):
                    line = line[:-1]
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    def _write(self):
        stdin = self.p.stdin
        try:
            while True:
                data = self.input.get()
                if data is None:
                    break
                stdin.write(data)
                stdin.flush()
        except (OSError, ValueError):
            pass
        try:
            stdin.close()
        except (OSError, ValueError):
            pass

    def write(self, data):
        if not self.closed:
            self.input.put(data + b"\n")

    def close(self):
        if not self.closed:
            self.closed = True
            self.input.put(None)

    def read(self, o, end):
        return self.read_within(o.reply_timeout if self.answered else o.timeout, end)

    def read_within(self, wait, end):
        wait = max(0.0, min(wait, end - time.monotonic()))
        try:
            line = self.lines.get(timeout=wait)
        except queue.Empty:
            return ("timeout", wait)
        if line is None:
            return ("exited", None)
        self.answered = True
        return ("line", line)

    def kill(self):
        self.close()
        if os.name == "posix":
            try:
                os.killpg(self.p.pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            self.p.kill()
        except OSError:
            pass
        self.p.wait()


def missing(read):
    kind, value = read
    if kind == "line":
        return show(value)
    if kind == "exited":
        return "(no reply: the server exited)"
    return "(no reply within %d ms)" % int(round(value * 1000))


def sync_line(kind, n):
    """The probe written after each single vector's request (kind "sync"),
    and its id."""
    i = '"mcp-vectors-%s-%d"' % (kind, n)
    line = ('{"jsonrpc":"2.0","id":%s,"method":"server/discover","params":{"_meta":'
            '{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
            '"io.modelcontextprotocol/clientCapabilities":{}}}}' % i)
    return line.encode("utf-8"), i


def is_reply_to(line, i):
    """Whether a line is a reply whose id is the probe's."""
    return id_token(line) == "s:" + json.loads(i)


def grace(o):
    """The wait, after the probe's reply, for a reply to the request that a
    server answering concurrently may send after it."""
    return o.reply_timeout / 8


def open_process(p, n, o, end):
    """Opens a process for single vectors as a modern client opens a stdio
    connection: a valid server/discover (id "mcp-vectors-open-N") before
    any other request. Its reply is not judged: a dual-era server may
    choose its era from how the connection opens, and a single vector's
    request is judged on a connection a modern client opened, whether it
    shares the process or has one of its own (--fresh-each). The lines
    before the reply are kept for the first vector."""
    line, i = sync_line("open", n)
    p.write(line)
    while True:
        read = p.read(o, end)
        if read[0] != "line" or is_reply_to(read[1], i):
            return
        p.early.append(read[1])


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
    if late and last is None and not lines and s["reply"] is not None:
        read = p.read_within(grace(o), end)
        if read[0] == "line":
            lines.append(read[1])
    answering = last is None
    if lines:
        got, shown = lines[0], show(lines[0])
    elif last is None:
        got, shown = SILENCE, "(no reply: the probe that follows was answered)"
    else:
        got, shown = NOTHING, missing(last) + " (to the request and the probe that follows)"
    levels = failed_levels(v, o.fixture, s, got)
    if len(lines) > 1:
        silent = {"request": s["request"], "expect": None, "reply": None, "level": s["level"]}
        levels += failed_levels(v, o.fixture, silent, lines[1])
        levels = [l for l in LEVELS if l in levels]
    if not levels:
        return None, answering
    return (levels, 1, s["reply"], shown), answering


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
        silent = {"request": v["steps"][-1]["request"], "expect": None, "reply": None,
                  "level": v["steps"][-1]["level"]}
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
            if v["sequence"]:
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


def report(o, results):
    out = ["replay_vectors%s: %s" % (" --fixture " + o.fixture if o.fixture else "",
                                     " ".join(o.command))]
    passed = failed = cut = depends = 0
    per = {l: [0, 0] for l in LEVELS}
    for v, r in results:
        if r == "notrun":
            cut += 1
            continue
        for level in levels_of(v, o.fixture):
            per[level][0] += 1
            if r is None or level not in r[0]:
                per[level][1] += 1
        if r is None:
            passed += 1
            continue
        failed += 1
        levels, step_no, expected, got = r[:4]
        out.append("FAIL %s (level %s, source %s, rule %s; fails %s)"
                   % (v["id"], v["level"], v["source"], v["rule"], ", ".join(levels)))
        if r[4:] == (True,):
            depends += 1
            out.append("  depends on earlier lines: BASE-21 (passes at must on a fresh process)")
        if v["sequence"]:
            own = v["steps"][step_no - 1]["level"] if 0 < step_no <= len(v["steps"]) else None
            # A reply due and missing breaks JSON-RPC's rule whatever the
            # step's row (JRPC-01).
            missing_reply = expected is not None and got.startswith("(no reply")
            note = ""
            if own:
                note = " (level %s, source %s%s)" % (own + ("; no reply: JRPC-01" if missing_reply else "",))
            out.append("  step     %d%s" % (step_no, note))
        out.append("  request  %s" % show(v["steps"][step_no - 1]["request"]))
        out.append("  expected %s" % (expected if expected is not None else "(no reply)"))
        out.append("  got      %s" % got)
    out.append("vectors: %d run, %d passed at every level, %d failed at some level, %d not run; %d server starts"
               % (len(results) - cut, passed, failed, cut, o.starts[0]))
    for level in LEVELS:
        out.append("%s %d/%d" % (level, per[level][1], per[level][0]))
    state, why = o.stateless
    line = "statelessness (BASE-21, must): " + {"pass": "pass", "fail": "FAIL: ",
                                                "notrun": "not run: "}[state] + why
    if state == "pass" and depends:
        # Vectors that depend on earlier lines fail it though the probe passed.
        line = "statelessness (BASE-21, must): FAIL: the probe passed"
    if o.retried:
        line += ("; %d of %d vectors failing at must on the shared process pass on a "
                 "fresh process (their replies depend on earlier lines)" % (depends, o.retried))
    out.append(line)
    counted = LEVELS[:LEVELS.index(o.level) + 1]
    bad = any(per[l][1] < per[l][0] for l in counted) or state == "fail"
    code = 1 if bad else (3 if cut or state == "notrun" else 0)
    fail = "FAIL (a vector failed at %s)" % ", ".join(counted)
    if state == "fail":
        fail = "FAIL (a vector failed at %s, or the statelessness probe at must)" % ", ".join(counted)
    out.append("verdict: " + {0: "PASS (every vector passed at %s)" % ", ".join(counted),
                              1: fail,
                              3: "INCOMPLETE (the deadline cut some vectors, or the statelessness probe could not run)"}[code])
    print("\n".join(out))
    return code


# ---------------------------------------------------------------------------
# HTTP vectors (--http URL)


def http_send(url, req, timeout):
    """Sends one vector's request as written; (status, headers, body) or
    raises OSError."""
    rest = url[len("http://"):]
    authority, _, path = rest.partition("/")
    path = "/" + path
    host, _, port = authority.rpartition(":")
    if not host:
        host, port = authority, "80"
    target = req["target"]
    if target.startswith("/mcp"):
        target = path + target[len("/mcp"):]
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        conn.putrequest(req["method"], target, skip_host=True, skip_accept_encoding=True)
        names = set()
        for name, value in req["headers"]:
            conn.putheader(name, value.replace("{authority}", authority))
            names.add(name.lower())
        body = req["body"].encode("utf-8")
        if "content-length" not in names and (body or req["method"] == "POST"):
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        resp = conn.getresponse()
        data = resp.read()
        headers = {k.lower(): v for k, v in resp.getheaders()}
        return resp.status, headers, data
    finally:
        conn.close()


def http_reply(headers, body):
    """The JSON-RPC response of a body: the object of an application/json
    body, or the last response among the events of a text/event-stream."""
    media = headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "text/event-stream":
        return body
    found = b""
    for event in body.replace(b"\r\n", b"\n").split(b"\n\n"):
        data = [l[5:].lstrip(b" ") if l.startswith(b"data:") else None for l in event.split(b"\n")]
        text = b"\n".join(d for d in data if d is not None)
        try:
            v = json.loads(text)
        except ValueError:
            continue
        if isinstance(v, dict) and ("result" in v or "error" in v):
            found = text
    return found


def http_levels(level):
    return [l for l in LEVELS if l == level or l in ("textbook", "canonical")]


def challenge_meets(want, got):
    """expect.challenge (the authorization vectors): a Bearer challenge whose
    error parameter is the one named (None: none), with scope or
    resource_metadata present where True."""
    if want is None:
        return True
    if got is None or not (got == "Bearer" or got.startswith("Bearer ")):
        return False
    params = {}
    for p in got[len("Bearer"):].split(","):
        name, eq, value = p.strip().partition("=")
        if eq:
            params.setdefault(name.strip().lower(), value.strip().strip('"'))
    for name, value in want.items():
        if value is None and name in params:
            return False
        if value is True and name not in params:
            return False
        if isinstance(value, str) and params.get(name) != value:
            return False
    return True


def members_meet(want, body):
    """expect.members: the body is a JSON object with these members equal."""
    if want is None:
        return True
    try:
        got = json.loads(body)
    except ValueError:
        return False
    return isinstance(got, dict) and all(k in got and got[k] == v for k, v in want.items())


def absent_from(want, headers, body):
    """expect.absent (row A8): no part of a token sent comes back."""
    text = "\n".join("%s: %s" % kv for kv in headers.items()) + "\n" + body.decode("utf-8", "replace")
    return all(s not in text for s in (want or []))


def not_json_rpc(body):
    """A reference body that is JSON but no JSON-RPC message (A1's
    metadata document), as its value; else None."""
    try:
        v = json.loads(body)
    except ValueError:
        return None
    return v if isinstance(v, dict) and "jsonrpc" not in v else None


def http_judge(v, status, headers, body):
    expect, want = v["expect"], v["response"]
    got = http_reply(headers, body)
    out = []
    for level in http_levels(v["level"]):
        if level == "canonical":
            ok = (status == want["status"] and headers.get("content-type") == want["headers"].get("content-type")
                  and body == want["body"].encode("utf-8"))
        elif level == "textbook":
            if want["body"] == "":
                ok = status == want["status"] and body == b""
            elif not_json_rpc(want["body"]) is not None:
                try:
                    ok = status == want["status"] and json.loads(body) == not_json_rpc(want["body"])
                except ValueError:
                    ok = False
            else:
                w, h = members(want["body"].encode("utf-8")), members(got)
                ok = (status == want["status"] and w is not None and h is not None
                      and token(h[0]) == token(w[0]) and same(textbook_form(w[1]), textbook_form(h[1])))
        else:
            ok = ("status" not in expect or status == expect["status"]) and (
                "outcome" not in expect or meets(expect, got)) and challenge_meets(
                expect.get("challenge"), headers.get("www-authenticate")) and members_meet(
                expect.get("members"), body) and absent_from(expect.get("absent"), headers, body)
        if not ok:
            out.append(level)
    return out


def http_main(o):
    if o.fixture not in ("http", "http-auth"):
        raise CannotRun("no HTTP fixture %r: the HTTP fixtures are http and http-auth" % o.fixture)
    path = os.path.join(o.dir, o.fixture + ".jsonl")
    try:
        with open(path, encoding="utf-8") as f:
            vectors = [json.loads(l) for l in f if l.strip()]
    except (OSError, ValueError) as e:
        raise CannotRun("cannot read %s: %s" % (path, e))
    if not o.http.startswith("http://"):
        raise CannotRun("%r is not an http:// URL" % o.http)
    end = time.monotonic() + o.deadline
    per = {l: [0, 0] for l in LEVELS}
    out = ["replay_vectors --http %s" % o.http]
    cut = 0
    for v in vectors:
        if time.monotonic() >= end:
            cut += 1
            continue
        try:
            status, headers, body = http_send(o.http, v["request"], o.timeout)
            failed = http_judge(v, status, headers, body)
            got = "%d %s" % (status, body.decode("utf-8", errors="replace")[:400])
        except OSError as e:
            failed, got = http_levels(v["level"]), str(e)
        for level in http_levels(v["level"]):
            per[level][0] += 1
            if level not in failed:
                per[level][1] += 1
        if failed:
            out.append("FAIL %s (%s %s): fails %s" % (v["id"], v["level"], v["source"], ", ".join(failed)))
            out.append("  got: %s" % got)
    out.append("http vectors: " + ", ".join("%s %d/%d" % (l, per[l][1], per[l][0]) for l in LEVELS))
    counted = LEVELS[:LEVELS.index(o.level) + 1]
    bad = any(per[l][1] < per[l][0] for l in counted)
    code = 1 if bad else (3 if cut else 0)
    out.append("verdict: " + {0: "PASS", 1: "FAIL", 3: "INCOMPLETE"}[code])
    print("\n".join(out))
    return code


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
