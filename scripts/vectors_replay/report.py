"""The report of a stdio replay (docs/vectors.md, "Replay"): per failed
vector its FAIL line with the request, expected and got lines, then the
summary, one line per level, the statelessness line and the verdict, in
the form `mcp-reference check --vectors` prints; and the exit code.
"""

from .judge import levels_of, show
from .vectors import LEVELS

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

