"""The HTTP replay (--http URL; docs/vectors.md, "HTTP vectors" and
"Authorization vectors"): each vector one request on a connection of its
own to a running Streamable HTTP server, judged per level as
`mcp-reference check --vectors --http` judges it.
"""

import http.client
import json
import os
import time

from .judge import meets, members, same, textbook_form, token
from .vectors import LEVELS, CannotRun

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


def allow_matches(want, headers):
    """Where the reference's response has an allow header (a 405: rows H2,
    A2), the server's lists the same methods (RFC 9110 10.2.1: a
    comma-separated list; compared as a set, method names case-sensitive),
    judged at textbook and canonical; without one, nothing is asked."""
    reference = want["headers"].get("allow")
    if reference is None:
        return True
    got = headers.get("allow")
    methods = lambda text: {m.strip() for m in text.split(",") if m.strip()}
    return got is not None and methods(got) == methods(reference)


def http_judge(v, status, headers, body):
    expect, want = v["expect"], v["response"]
    got = http_reply(headers, body)
    out = []
    for level in http_levels(v["level"]):
        if level == "canonical":
            ok = (status == want["status"] and headers.get("content-type") == want["headers"].get("content-type")
                  and body == want["body"].encode("utf-8") and allow_matches(want, headers))
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
            ok = ok and allow_matches(want, headers)
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

