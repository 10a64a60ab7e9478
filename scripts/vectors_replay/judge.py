"""The judgement of what came back for a step (docs/vectors.md, "Levels"
and "Format 6"), as tools/src/vectors/format.rs judges it: ids as
literals, JSON values member order free, the expect outcomes (reply,
error, result, versions, input_required), the textbook form, the opaque
pointers (a requestState compared as present, never by value), and the
notifications written before a reply (expect.notifications, before).
"""

import json

from .vectors import LEVELS

# The one _meta member of a result the textbook level compares.
SERVER_INFO = "io.modelcontextprotocol/serverInfo"

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
    if outcome == "input_required":
        return "error" not in have and isinstance(result, dict) and asks_input(expect, result)
    return False


def asks_input(expect, result):
    """An InputRequiredResult (format 6, MRTR-10, SCHEMA-14): resultType
    input_required with an inputRequests object or a requestState string;
    with expect.kinds, every input request's method among them (the ones
    the request's clientCapabilities can receive, MRTR-11)."""
    requests = result.get("inputRequests")
    if result.get("resultType") != "input_required":
        return False
    if not isinstance(requests, dict) and not isinstance(result.get("requestState"), str):
        return False
    kinds = expect.get("kinds")
    if not isinstance(kinds, list) or not isinstance(requests, dict):
        return True
    return all(isinstance(r, dict) and isinstance(r.get("method"), str) and r["method"] in kinds
               for r in requests.values())

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


def value(line):
    """A line as a JSON value, numbers as members() reads them; None when
    it is not JSON (a JSON null is never a line this judges)."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            return None
    try:
        return plain(json.loads(line, parse_int=Literal, parse_float=Literal))
    except ValueError:
        return None


def at(v, pointer):
    """The value at a JSON pointer (RFC 6901) as (True, value), or (False,
    None) when there is nothing there."""
    if pointer == "":
        return True, v
    if not pointer.startswith("/"):
        return False, None
    for part in pointer[1:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(v, dict) and part in v:
            v = v[part]
        elif (isinstance(v, list) and part.isdigit() and part.isascii()
              and (part == "0" or not part.startswith("0")) and int(part) < len(v)):
            v = v[int(part)]
        else:
            return False, None
    return True, v


def left_out(v, pointers):
    """A reply's members (no id) with the values at the opaque pointers
    left out (a member removed, an array element made null)."""
    v = json.loads(json.dumps(v))
    for pointer in pointers:
        parent, _, last = pointer.rpartition("/")
        found, holder = at(v, parent)
        last = last.replace("~1", "/").replace("~0", "~")
        if found and isinstance(holder, dict):
            holder.pop(last, None)
        elif found and isinstance(holder, list) and last.isdigit() and int(last) < len(holder):
            holder[int(last)] = None
    return v


def opaque_strings(have, pointers):
    """Whether a reply's members (no id) hold a string at every opaque
    pointer (the textbook level's demand on them)."""
    for pointer in pointers:
        found, x = at(have, pointer)
        if not found or not isinstance(x, str):
            return False
    return True


def textbook(v, reply, got, opaque=()):
    """The textbook judgement: the reference's reply but for the error's
    wording and data, and the values at the opaque pointers (present as
    strings, never compared); for a generic vector the reference's error
    code, or a complete result."""
    want, have = members(reply), members(got)
    if want is None or have is None:
        return False
    if not opaque_strings(have[1], opaque):
        return False
    if "generic" in v["flags"]:
        expect = {"id": want[0], "outcome": "result"}
        error = want[1].get("error")
        if isinstance(error, dict) and "code" in error:
            expect = {"id": want[0], "outcome": "error", "codes": [error["code"]]}
        return meets(expect, got)
    return token(have[0]) == token(want[0]) and same(
        textbook_form(left_out(want[1], opaque)), textbook_form(left_out(have[1], opaque)))


def canonical(reply, got, opaque=()):
    """The canonical judgement: the reference's bytes, after the JSON text
    of its string at each opaque pointer (the first occurrence in its line)
    is replaced by the JSON text of the server's string there."""
    want = reply
    if opaque:
        mine, theirs = value(reply), value(got)
        for pointer in opaque:
            found, a = at(mine, pointer)
            there, b = at(theirs, pointer)
            if not (found and there and isinstance(a, str) and isinstance(b, str)):
                return False
            want = want.replace(json.dumps(a, ensure_ascii=False), json.dumps(b, ensure_ascii=False), 1)
    try:
        return got == want.encode("utf-8")
    except UnicodeEncodeError:
        return False


def is_notification(line):
    """A JSON object with a string method and no id (the lines a vector
    with before reads as its request's notifications)."""
    v = value(line)
    return isinstance(v, dict) and isinstance(v.get("method"), str) and "id" not in v


def number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def notifications_meet(want, notes):
    """expect.notifications (must, should): a notifications/progress only
    where it has progressToken, each with that token and a progress greater
    than the one before (PROG-03); a notifications/message only where it
    has logLevels, each with its level among them (LOG-04); other methods
    not judged; a line that is no JSON object fails."""
    want = want if isinstance(want, dict) else {}
    last = None
    for line in notes:
        n = value(line)
        if not isinstance(n, dict):
            return False
        params = n.get("params")
        params = params if isinstance(params, dict) else {}
        method = n.get("method")
        if method == "notifications/progress":
            progress = params.get("progress")
            if ("progressToken" not in want or "progressToken" not in params
                    or not same(plain(want["progressToken"]), params["progressToken"])
                    or not number(progress) or (last is not None and not progress > last)):
                return False
            last = progress
        elif method == "notifications/message":
            levels = want.get("logLevels")
            if not isinstance(levels, list) or not isinstance(params.get("level"), str) \
                    or params["level"] not in levels:
                return False
    return True


def notifications_pass(v, s, level, notes):
    """Whether the notifications before a step's reply pass at level: by
    expect.notifications at must and should, as before's JSON values in
    order at textbook, as before's bytes at canonical."""
    before = s["before"]
    if level == "canonical":
        return list(notes) == [b.encode("utf-8") for b in before]
    if level == "textbook":
        return len(notes) == len(before) and all(
            value(n) is not None and same(value(b), value(n)) for b, n in zip(before, notes))
    return s["expect"] is not None and notifications_meet(s["expect"].get("notifications"), notes)


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


def failed_levels(v, fixture, s, got, notes=()):
    """The levels at which a step fails, given what came back (a line,
    SILENCE or NOTHING) and the notification lines before it (judged only
    where the step has before)."""
    notes = notes or ()
    out = []
    for level in levels_of(v, fixture):
        if level not in ("canonical", "textbook") and not expect_judged_at(v, s, level):
            ok = True
        elif s["reply"] is None or not isinstance(got, bytes):
            ok = s["reply"] is None and got == SILENCE
        elif level == "canonical":
            ok = canonical(s["reply"], got, s["opaque"])
        elif level == "textbook":
            ok = textbook(v, s["reply"], got, s["opaque"])
        else:
            ok = s["expect"] is not None and meets(s["expect"], got)
        if ok and s["before"] is not None and (
                level in ("canonical", "textbook") or expect_judged_at(v, s, level)):
            ok = notifications_pass(v, s, level, notes)
        if not ok:
            out.append(level)
    return out


def show(line):
    return line.decode("utf-8", errors="replace")

