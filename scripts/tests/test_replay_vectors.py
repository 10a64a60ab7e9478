"""The Python replayer's format 6 judgement (scripts/vectors_replay/,
docs/vectors.md "Format 6"), on vectors and lines written here: a carry
fills its placeholder from an earlier reply and stops a chain where the
reply has nothing; the input_required outcome with and without kinds;
opaque pointers at textbook and canonical; the notifications before a
reply at must, textbook and canonical; and a chain replayed on a small
server written here, step by step.

Run: python3 -m unittest discover -s scripts/tests
"""

import contextlib
import io
import json
import sys
import tempfile
import textwrap
import time
import unittest
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from vectors_replay import judge, stdio  # noqa: E402
from vectors_replay.vectors import CannotRun, load, parse  # noqa: E402

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}


def line(v):
    return json.dumps(v, separators=(",", ":"))


def vector(level="must", flags=(), **single):
    v = {"id": "t/v", "rule": "I2", "comment": "c", "config": "conformance", "flags": list(flags),
         "level": level, "source": "MRTR-10"}
    v.update(single)
    return parse(v)


def fails(v, got, notes=None, fixture=None):
    s = v["steps"][0]
    notes = () if notes is None else notes
    return judge.failed_levels(v, fixture, s, got if not isinstance(got, str) else got.encode(), notes)


INPUT = {"jsonrpc": "2.0", "id": 7, "result": {
    "resultType": "input_required",
    "inputRequests": {"name": {"method": "elicitation/create", "params": {"message": "m"}}},
    "requestState": "c3RhdGUtb2YtdGhlLXJlZmVyZW5jZQ"}}


def with_(v, pointer, x):
    """A copy of a JSON value with x at a two-level pointer /a/b (None:
    the member removed)."""
    v = json.loads(json.dumps(v))
    a, b = pointer.strip("/").split("/")
    if x is None:
        v[a].pop(b)
    else:
        v[a][b] = x
    return v


class InputRequired(unittest.TestCase):
    def expect(self, **more):
        return dict({"id": "7", "outcome": "input_required"}, **more)

    def test_an_input_required_result_meets_it(self):
        self.assertTrue(judge.meets(self.expect(), line(INPUT).encode()))

    def test_state_alone_or_requests_alone_meet_it(self):
        self.assertTrue(judge.meets(self.expect(), line(with_(INPUT, "/result/inputRequests", None)).encode()))
        self.assertTrue(judge.meets(self.expect(), line(with_(INPUT, "/result/requestState", None)).encode()))

    def test_neither_requests_nor_state_fails(self):
        bare = with_(with_(INPUT, "/result/inputRequests", None), "/result/requestState", None)
        self.assertFalse(judge.meets(self.expect(), line(bare).encode()))
        self.assertFalse(judge.meets(self.expect(), line(with_(bare, "/result/requestState", 5)).encode()))

    def test_a_complete_result_or_an_error_fails(self):
        self.assertFalse(judge.meets(self.expect(), line(with_(INPUT, "/result/resultType", "complete")).encode()))
        err = {"jsonrpc": "2.0", "id": 7, "error": {"code": -32021, "message": "m"}}
        self.assertFalse(judge.meets(self.expect(), line(err).encode()))
        both = dict(INPUT, error={"code": -32021, "message": "m"})
        self.assertFalse(judge.meets(self.expect(), line(both).encode()))

    def test_another_id_fails(self):
        self.assertFalse(judge.meets(self.expect(), line(dict(INPUT, id=8)).encode()))

    def test_kinds_allow_only_their_methods(self):
        ok = self.expect(kinds=["elicitation/create"])
        self.assertTrue(judge.meets(ok, line(INPUT).encode()))
        self.assertFalse(judge.meets(self.expect(kinds=["sampling/createMessage"]), line(INPUT).encode()))
        self.assertFalse(judge.meets(self.expect(kinds=[]), line(INPUT).encode()))
        # Without kinds, any method passes.
        roots = with_(INPUT, "/result/inputRequests", {"r": {"method": "roots/list"}})
        self.assertTrue(judge.meets(self.expect(), line(roots).encode()))
        self.assertFalse(judge.meets(ok, line(roots).encode()))

    def test_judged_at_the_vectors_level(self):
        v = vector(request=line({"jsonrpc": "2.0", "id": 7, "method": "tools/call"}),
                   expect=self.expect(kinds=["sampling/createMessage"]), reply=line(INPUT),
                   opaque=["/result/requestState"])
        self.assertEqual(fails(v, line(INPUT)), ["must"])


class Opaque(unittest.TestCase):
    def setUp(self):
        self.v = vector(request="{}", expect={"id": "7", "outcome": "input_required"},
                        reply=line(INPUT), opaque=["/result/requestState"])

    def test_another_state_passes_every_level(self):
        mine = line(with_(INPUT, "/result/requestState", "b3RoZXItc3RhdGU"))
        self.assertEqual(fails(self.v, mine), [])

    def test_without_opaque_another_state_fails_textbook_and_canonical(self):
        v = vector(request="{}", expect={"id": "7", "outcome": "input_required"}, reply=line(INPUT))
        mine = line(with_(INPUT, "/result/requestState", "b3RoZXItc3RhdGU"))
        self.assertEqual(fails(v, mine), ["textbook", "canonical"])

    def test_a_state_missing_or_not_a_string_fails_textbook_and_canonical(self):
        # must passes: inputRequests is there.
        self.assertEqual(fails(self.v, line(with_(INPUT, "/result/requestState", None))),
                         ["textbook", "canonical"])
        self.assertEqual(fails(self.v, line(with_(INPUT, "/result/requestState", 12))),
                         ["textbook", "canonical"])

    def test_textbook_still_compares_the_rest(self):
        other = with_(with_(INPUT, "/result/requestState", "eA"), "/result/inputRequests", {})
        self.assertEqual(fails(self.v, line(other)), ["textbook", "canonical"])

    def test_canonical_compares_the_bytes_around_the_state(self):
        reordered = json.dumps(with_(INPUT, "/result/requestState", "eA"), separators=(", ", ":"))
        self.assertEqual(fails(self.v, reordered), ["canonical"])

    def test_canonical_replaces_the_first_occurrence_only(self):
        # The reference's state text appears again later in its line (a
        # message that quotes it): only the first occurrence, the state,
        # is the server's.
        ref = "c3RhdGUtb2YtdGhlLXJlZmVyZW5jZQ"
        reply = {"jsonrpc": "2.0", "id": 7, "result": {
            "resultType": "input_required", "requestState": ref,
            "inputRequests": {"name": {"method": "elicitation/create", "params": {"message": ref}}}}}
        v = vector(request="{}", expect={"id": "7", "outcome": "input_required"},
                   reply=line(reply), opaque=["/result/requestState"])
        self.assertEqual(fails(v, line(with_(reply, "/result/requestState", "eA"))), [])
        quoted = with_(reply, "/result/inputRequests",
                       {"name": {"method": "elicitation/create", "params": {"message": "eA"}}})
        self.assertEqual(fails(v, line(with_(quoted, "/result/requestState", "eA"))),
                         ["textbook", "canonical"])


PROGRESS = [{"jsonrpc": "2.0", "method": "notifications/progress",
             "params": {"progressToken": "p", "progress": n, "total": 100}} for n in (0, 50, 100)]
DONE = {"jsonrpc": "2.0", "id": 13, "result": {"resultType": "complete", "content": [], "isError": False}}


def notified(before, notifications, level="must"):
    return vector(level=level, request="{}", reply=line(DONE), before=[line(b) for b in before],
                  expect={"id": "13", "outcome": "result", "isError": False,
                          "notifications": notifications})


class Notifications(unittest.TestCase):
    def lines(self, *vs):
        return [line(x).encode() for x in vs]

    def test_the_references_notifications_pass_every_level(self):
        v = notified(PROGRESS, {"progressToken": "p"})
        self.assertEqual(fails(v, line(DONE), self.lines(*PROGRESS)), [])

    def test_fewer_progress_notifications_pass_must_only(self):
        v = notified(PROGRESS, {"progressToken": "p"})
        self.assertEqual(fails(v, line(DONE), self.lines(PROGRESS[0])), ["textbook", "canonical"])
        self.assertEqual(fails(v, line(DONE), []), ["textbook", "canonical"])

    def test_progress_must_grow(self):
        v = notified(PROGRESS, {"progressToken": "p"})
        got = self.lines(PROGRESS[1], PROGRESS[0])
        self.assertEqual(fails(v, line(DONE), got), ["must", "textbook", "canonical"])
        same = self.lines(PROGRESS[1], PROGRESS[1])
        self.assertEqual(fails(v, line(DONE), same), ["must", "textbook", "canonical"])

    def test_progress_needs_the_token_asked_for(self):
        v = notified(PROGRESS, {"progressToken": "p"})
        other = json.loads(line(PROGRESS[0]))
        other["params"]["progressToken"] = "q"
        self.assertEqual(fails(v, line(DONE), self.lines(other)), ["must", "textbook", "canonical"])
        # The same token as a number is another JSON value.
        v = notified([], {"progressToken": 1})
        n = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}}
        self.assertEqual(fails(v, line(DONE), self.lines(n)), ["textbook", "canonical"])
        n["params"]["progressToken"] = "1"
        self.assertEqual(fails(v, line(DONE), self.lines(n)), ["must", "textbook", "canonical"])

    def test_progress_where_none_was_asked_fails_must(self):
        v = notified([], {})
        self.assertEqual(fails(v, line(DONE), self.lines(PROGRESS[0])), ["must", "textbook", "canonical"])
        self.assertEqual(fails(v, line(DONE), []), [])

    def test_log_levels(self):
        log = {"jsonrpc": "2.0", "method": "notifications/message",
               "params": {"level": "info", "data": "three"}}
        v = notified([log], {"logLevels": ["info", "warning"]}, level="should")
        self.assertEqual(fails(v, line(DONE), self.lines(log)), [])
        debug = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "debug", "data": "x"}}
        self.assertEqual(fails(v, line(DONE), self.lines(debug)), ["should", "textbook", "canonical"])
        # A message where no log level was asked for fails.
        self.assertEqual(fails(notified([], {}), line(DONE), self.lines(log)), ["must", "textbook", "canonical"])

    def test_a_line_that_is_no_json_object_fails_must(self):
        self.assertFalse(judge.notifications_meet({}, [b"not json"]))
        self.assertFalse(judge.notifications_meet({}, [b"[1]"]))

    def test_other_methods_are_not_judged_at_must(self):
        v = notified([], {})
        other = {"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {}}
        self.assertEqual(fails(v, line(DONE), self.lines(other)), ["textbook", "canonical"])

    def test_textbook_compares_values_canonical_bytes(self):
        v = notified(PROGRESS, {"progressToken": "p"})
        spaced = [json.dumps(x).encode() for x in PROGRESS]
        self.assertEqual(fails(v, line(DONE), spaced), ["canonical"])
        reordered = [line({"params": x["params"], "jsonrpc": "2.0", "method": x["method"]}).encode()
                     for x in PROGRESS]
        self.assertEqual(fails(v, line(DONE), reordered), ["canonical"])

    def test_the_lines_of_a_vector_with_before_split_at_the_reply(self):
        v = notified(PROGRESS, {"progressToken": "p"})
        s = v["steps"][0]

        def judged(vector, lines):
            step = vector["steps"][0]
            return stdio.judge_lines(vector, None, step, *stdio.split_notes(step, lines), None)[0]

        got = self.lines(*PROGRESS) + [line(DONE).encode()]
        self.assertEqual(stdio.split_notes(s, got), (got[:3], got[3:]))
        self.assertEqual(judged(v, got), [])
        # A line after the reply is a line too many.
        self.assertEqual(judged(v, got + self.lines(PROGRESS[2])), ["must", "textbook", "canonical"])
        # Without before, the first line is the reply.
        plain = vector(request="{}", reply=line(DONE), expect={"id": "13", "outcome": "result"})
        self.assertEqual(stdio.split_notes(plain["steps"][0], got), (None, got))
        self.assertEqual(judged(plain, got), ["must", "textbook", "canonical"])


def chain_vector(state_pointer="/result/requestState"):
    first = line({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                  "params": {"name": "t", "_meta": META}})
    second = line({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                   "params": {"name": "t", "requestState": "$state-0", "_meta": META}})
    return parse({"id": "t/chain", "rule": "I4", "comment": "c", "config": "conformance", "flags": [],
                  "level": "must", "source": "MRTR-10", "steps": [
                      {"request": first, "level": "must", "source": "MRTR-10",
                       "expect": {"id": "1", "outcome": "input_required"},
                       "reply": line(dict(INPUT, id=1)), "opaque": ["/result/requestState"]},
                      {"request": second,
                       "carry": [{"from": 0, "pointer": state_pointer, "placeholder": "$state-0"}],
                       "level": "must", "source": "MRTR-10",
                       "expect": {"id": "2", "outcome": "result", "isError": False},
                       "reply": line(dict(DONE, id=2))}]})


class Carry(unittest.TestCase):
    def test_the_placeholder_takes_the_earlier_replys_value(self):
        v = chain_vector()
        reply = line(with_(dict(INPUT, id=1), "/result/requestState", 'x"\u00e9'))
        request, blocked = stdio.fill(v["steps"][1], [reply.encode(), None])
        self.assertIsNone(blocked)
        self.assertEqual(json.loads(request)["params"]["requestState"], 'x"\u00e9')
        self.assertNotIn(b"$state-0", request)

    def test_a_value_of_any_kind_is_its_compact_json(self):
        v = chain_vector("/result/inputRequests")
        request, _ = stdio.fill(v["steps"][1], [line(dict(INPUT, id=1)).encode(), None])
        self.assertIn(b'"requestState":{"name":{"method":"elicitation/create","params":{"message":"m"}}}',
                      request)

    def test_nothing_at_the_pointer_stops_the_chain(self):
        v = chain_vector()
        s = v["steps"][1]
        for reply in [None, b"not json", b"[1]", line(with_(dict(INPUT, id=1), "/result/requestState", None)).encode()]:
            self.assertEqual(stdio.fill(s, [reply, None]), (None, (0, "/result/requestState")))
        self.assertEqual(stdio.not_run((0, "/result/requestState")),
                         "(not run: step 1's reply has nothing at /result/requestState)")

    def test_a_carry_from_a_later_step_is_refused(self):
        v = json.loads(json.dumps({"id": "x", "rule": "I4", "comment": "c", "config": "c", "flags": [],
                                   "level": "must", "source": "s", "steps": [
                                       {"request": "{}", "carry": [{"from": 0, "pointer": "", "placeholder": "p"}],
                                        "expect": None, "reply": None}]}))
        with self.assertRaises(ValueError):
            parse(v)


# A small stdio server: answers the probes, answers a first tools/call with
# an InputRequiredResult whose requestState is its own, and a call that
# carries that state with a complete result; STATE is its state.
SERVER = textwrap.dedent('''
    import json, sys
    STATE = sys.argv[1]
    for raw in sys.stdin:
        m = json.loads(raw)
        if m.get("method") == "server/discover":
            r = {"resultType": "complete"}
        elif "requestState" in m["params"]:
            ok = m["params"]["requestState"] == STATE
            r = {"resultType": "complete", "content": [], "isError": not ok}
        else:
            r = {"resultType": "input_required",
                 "inputRequests": {"name": {"method": "elicitation/create", "params": {"message": "m"}}},
                 "requestState": STATE}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}, separators=(",", ":")) + "\\n")
        sys.stdout.flush()
        if STATE == "exit" and m.get("method") == "tools/call":
            break
''')


class Chain(unittest.TestCase):
    def run_chain(self, v, state):
        with tempfile.TemporaryDirectory() as t:
            server = Path(t) / "server.py"
            server.write_text(SERVER)
            o = SimpleNamespace(command=[sys.executable, str(server), state], fixture=None,
                                timeout=10.0, reply_timeout=5.0)
            return stdio.chain(v, 0, o, time.monotonic() + 30, [1])

    def test_the_servers_own_state_is_carried(self):
        # The server's state differs from the reference's: the opaque
        # pointer and the carry make the chain pass at every level.
        self.assertIsNone(self.run_chain(chain_vector(), "c2VydmVyLXN0YXRl"))

    def test_a_carry_with_nothing_fails_the_step_not_run(self):
        failure = self.run_chain(chain_vector("/result/nothing"), "c2VydmVyLXN0YXRl")
        self.assertEqual(failure, (["must", "textbook", "canonical"], 2, line(dict(DONE, id=2)),
                                   "(not run: step 1's reply has nothing at /result/nothing)"))


    def test_after_a_step_whose_probe_got_no_reply_nothing_is_written(self):
        # The server answers the first call and exits before its probe:
        # the first step passes on its reply, the second is not written.
        v = chain_vector()
        v["steps"][0]["level"] = ("should", "MRTR-10")
        failure = self.run_chain(v, "exit")
        self.assertEqual(failure[:2], (["must", "textbook", "canonical"], 2))
        self.assertEqual(failure[3], stdio.STOPPED)


# A server answering concurrently: it answers a tools/call only after the
# probe that follows it, with a notification first.
LATE = textwrap.dedent('''
    import json, sys
    held = None
    for raw in sys.stdin:
        m = json.loads(raw)
        if m.get("method") == "tools/call":
            held = m["id"]
            continue
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": {}}) + "\\n")
        if held is not None:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/progress",
                                         "params": {"progressToken": "p", "progress": 1}}) + "\\n")
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": held, "result": {}}) + "\\n")
            held = None
        sys.stdout.flush()
''')


class Grace(unittest.TestCase):
    def test_a_line_in_the_grace_after_the_probe_is_the_reply(self):
        # As check --vectors reads it: the notifications are those before
        # the probe's reply; the first line after it is the reply.
        v = notified([], {"progressToken": "p"})
        v["steps"][0]["request"] = line({"jsonrpc": "2.0", "id": 13, "method": "tools/call"}).encode()
        with tempfile.TemporaryDirectory() as t:
            server = Path(t) / "late.py"
            server.write_text(LATE)
            o = SimpleNamespace(command=[sys.executable, str(server)], fixture=None,
                                timeout=10.0, reply_timeout=4.0)
            p = stdio.Process(o.command)
            try:
                failure, answering = stdio.single(p, v, 0, o, time.monotonic() + 30)
            finally:
                p.kill()
        self.assertTrue(answering)
        # The got line says how many notifications came first, then the
        # line taken for the reply.
        prefix = "(0 notifications first) "
        self.assertTrue(failure[3].startswith(prefix), failure[3])
        self.assertEqual(json.loads(failure[3][len(prefix):])["method"], "notifications/progress")


class Format(unittest.TestCase):
    def test_a_newer_format_cannot_run(self):
        with tempfile.TemporaryDirectory() as t:
            (Path(t) / "generic.jsonl").write_text("")
            (Path(t) / "manifest.json").write_text('{"format_version": 7}')
            with self.assertRaisesRegex(CannotRun, "format_version 7: this replayer reads formats 1 to 6"):
                load(t, None)
            (Path(t) / "manifest.json").write_text('{"format_version": 6}')
            self.assertEqual(load(t, None), [])

    def test_the_committed_vectors_pass_their_own_replies(self):
        root = Path(__file__).resolve().parent.parent.parent / "vectors"
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            for fixture in ["textbook", "stock", "short-lines", "legacy", "catalog", "conformance"]:
                for v in load(str(root), fixture):
                    for s in v["steps"]:
                        if s["reply"] is None:
                            continue
                        notes = [b.encode() for b in s["before"]] if s["before"] is not None else None
                        self.assertEqual(judge.failed_levels(v, None, s, s["reply"].encode(), notes), [],
                                         v["id"])


if __name__ == "__main__":
    unittest.main()
