"""The vector files (docs/vectors.md, "A vector" and "Format 6"): which
files a run reads, the manifest's format version, and each line read into
the dict the replay and the judgement use. A single vector is a sequence
of one step whose level is the vector's; a step holds its request (bytes),
expect, reply, level, and the format 6 members carry, before and opaque.
"""

import json
import os

FILES = ["generic", "textbook", "stock", "short-lines", "legacy", "catalog", "conformance"]
FIXTURES = ["textbook", "stock", "short-lines", "legacy", "catalog", "conformance"]
# The verdict levels, weakest claim first (docs/vectors.md, "Levels").
LEVELS = ["must", "should", "textbook", "canonical"]
# The format versions this replayer reads (docs/vectors.md, "Versions and
# breaking changes": a format 5 vector reads the same in format 6).
FORMATS = range(1, 7)


class CannotRun(Exception):
    """The run cannot go on: one sentence for stderr, exit code 2."""


def check_format(directory):
    """Refuses a folder whose manifest names a format this replayer does
    not read (a newer one may hold members it would not judge). A folder
    without a manifest is read as the current format."""
    path = os.path.join(directory, "manifest.json")
    try:
        with open(path, "rb") as f:
            manifest = json.loads(f.read().decode("utf-8"))
    except FileNotFoundError:
        return
    except (OSError, ValueError) as e:
        raise CannotRun("cannot read %s: %s" % (path, getattr(e, "strerror", None) or e))
    version = manifest.get("format_version") if isinstance(manifest, dict) else None
    if not isinstance(version, int) or isinstance(version, bool) or version not in FORMATS:
        raise CannotRun("%s has format_version %s: this replayer reads formats %d to %d"
                        % (path, json.dumps(version), FORMATS[0], FORMATS[-1]))


def load(directory, fixture):
    if fixture is not None and fixture not in FIXTURES:
        raise CannotRun("no fixture %s: the fixtures are %s" % (fixture, ", ".join(FIXTURES)))
    check_format(directory)
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
            except (ValueError, KeyError, TypeError, AttributeError) as e:
                raise CannotRun("%s line %d: %s" % (path, n, e))
    return out


def strings(v, name):
    """A member that is a list of strings, or None when absent."""
    if name not in v:
        return None
    x = v[name]
    if not isinstance(x, list) or not all(isinstance(s, str) for s in x):
        raise ValueError("%s must be a list of strings" % name)
    return list(x)


def carries(v, index):
    """A step's carry (format 6): each from an earlier step (0-based), a
    JSON pointer and a placeholder."""
    out = []
    for c in v.get("carry", []):
        k, pointer, placeholder = c["from"], c["pointer"], c["placeholder"]
        if (not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < index
                or not isinstance(pointer, str) or not isinstance(placeholder, str)):
            raise ValueError("a carry takes an earlier step, a pointer and a placeholder")
        out.append({"from": k, "pointer": pointer, "placeholder": placeholder})
    return out


def step(v, index=0):
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
    return {"request": request, "expect": expect, "reply": reply, "level": level,
            "carry": carries(v, index), "before": strings(v, "before"),
            "opaque": strings(v, "opaque") or []}


def parse(v):
    sequence = "steps" in v
    if sequence:
        steps = [step(s, i) for i, s in enumerate(v["steps"])]
    else:
        steps = [dict(step(v), level=None, carry=[])]
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
        # A sequence with a carry in any step runs step by step (a chain).
        "chain": any(s["carry"] for s in steps),
    }
