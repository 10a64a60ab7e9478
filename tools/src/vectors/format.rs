//! The vector format (`vectors/`, format 6 in `docs/vectors.md`): the
//! committed files, built into this binary, parsed into [`Vector`]s, and
//! how a reply is judged at each verdict level (`must`, `should`,
//! `textbook`, `canonical`): at its own level against what the vector's
//! `expect` says its source requires, at `textbook` against the
//! reference's reply with wording and `error.data` left out, at
//! `canonical` byte for byte. No process is run here (`super::process`,
//! `super::replay`), and no rule is decided: the rows a vector exercises
//! are named by its `rule` (a row id of docs/behavior.md).

use std::collections::HashMap;

use serde_json::Value;
use serde_json::value::RawValue;

/// The vector files, in replay order, with their text.
const FILES: [(&str, &str); 7] = [
    ("generic", include_str!("../../../vectors/generic.jsonl")),
    ("textbook", include_str!("../../../vectors/textbook.jsonl")),
    ("stock", include_str!("../../../vectors/stock.jsonl")),
    (
        "short-lines",
        include_str!("../../../vectors/short-lines.jsonl"),
    ),
    ("legacy", include_str!("../../../vectors/legacy.jsonl")),
    ("catalog", include_str!("../../../vectors/catalog.jsonl")),
    (
        "conformance",
        include_str!("../../../vectors/conformance.jsonl"),
    ),
];

/// The fixtures (`vectors/configs/<name>.json`) a server can be started
/// with for `--fixture`.
pub const FIXTURES: [&str; 6] = [
    "textbook",
    "stock",
    "short-lines",
    "legacy",
    "catalog",
    "conformance",
];

/// A value an earlier step's reply gives a step's request (format 6,
/// `carry`): the value at `pointer` of the reply to step `from`
/// (0-based) replaces the JSON string `"placeholder"` in the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Carry {
    /// The step whose reply gives the value (0-based).
    pub from: usize,
    /// A JSON pointer (RFC 6901) into that reply.
    pub pointer: String,
    /// The placeholder, written in the request as a JSON string.
    pub placeholder: String,
}

/// One request line, what the vector's level requires of the reply, and
/// the reference's reply.
#[derive(Debug, Clone)]
pub struct Step {
    /// The bytes to write, without the newline (for a step with `carry`,
    /// with its placeholders: [`Step::fill`] makes the line to write).
    pub request: Vec<u8>,
    /// What earlier replies give its request (format 6).
    pub carry: Vec<Carry>,
    /// The reference's notification lines before its reply (format 6):
    /// `Some` where the vector judges the request's notifications.
    pub before: Option<Vec<String>>,
    /// Pointers of the reply whose values are the server's own opaque
    /// strings (format 6): compared as present, never by value.
    pub opaque: Vec<String>,
    /// For a step of a sequence (format 3): the level its `expect` is
    /// judged at and the statement or rule that gives it (the row that
    /// decided its reply); `None` for a single vector, whose `expect` is
    /// judged at the vector's level.
    pub level: Option<(String, String)>,
    /// What the level requires (`None`: silence): the `expect` member.
    pub expect: Option<Value>,
    /// The reference's reply line, or `None` for no reply.
    pub reply: Option<String>,
}

/// The verdict levels, weakest claim first (docs/vectors.md, "Levels"); a
/// verdict asked for at a level counts the failures of every level up to
/// it.
pub const LEVELS: [&str; 4] = ["must", "should", "textbook", "canonical"];

/// One vector.
#[derive(Debug, Clone)]
pub struct Vector {
    /// Its stable id.
    pub id: String,
    /// The docs/behavior.md row it exercises.
    pub rule: String,
    /// Its flags (`decision`, `generic`, `generated`).
    pub flags: Vec<String>,
    /// The level its outcome is judged at (`must`, `should`, `textbook`,
    /// `canonical`).
    pub level: String,
    /// The statement (docs/spec-coverage.md) or rule it rests on.
    pub source: String,
    /// The fixture its replies were made with.
    pub config: String,
    /// Its steps: one for a single vector.
    pub steps: Vec<Step>,
    /// Whether it is a sequence (replayed on a fresh process, stdin closed
    /// after the last step).
    pub sequence: bool,
    /// Whether it is a chain (format 6): a sequence with a `carry`, run
    /// step by step, each step's lines read before the next is written.
    pub chain: bool,
}

impl Vector {
    /// Whether the vector holds for any server (flag `generic`).
    pub fn is_generic(&self) -> bool {
        self.flags.iter().any(|f| f == "generic")
    }

    /// The levels this vector is judged at, replayed with `fixture`: its
    /// own, `textbook`, and `canonical` unless the server runs another
    /// fixture than the one the reply was made with (a `generic` vector
    /// replayed with `--fixture stock`).
    pub fn levels(&self, fixture: Option<&str>) -> Vec<&'static str> {
        let exact = fixture.is_none_or(|f| f == self.config);
        LEVELS
            .into_iter()
            .filter(|l| {
                *l == self.level
                    || *l == "textbook"
                    || (*l == "canonical" && exact)
                    || self.steps.iter().any(|s| s.judged_at(l))
            })
            .collect()
    }

    /// Whether `step`'s `expect` is judged at `level` (`must` or
    /// `should`): at its own level for a step of a sequence, at the
    /// vector's for a single vector.
    fn expect_judged_at(&self, step: &Step, level: &str) -> bool {
        match &step.level {
            Some(_) => step.judged_at(level),
            None => self.level == level,
        }
    }
}

impl Step {
    fn judged_at(&self, level: &str) -> bool {
        self.level.as_ref().is_some_and(|(l, _)| l == level)
    }

    /// The line to write: the request with each `carry` placeholder
    /// replaced by the compact JSON text of the value at its pointer of
    /// the reply the server gave to the step it names (`replies`, by step
    /// index). `Err`: what is shown for a step that cannot be written
    /// (the earlier reply is missing, no JSON object, or has nothing
    /// there; the step number is 1-based, as failures show steps).
    pub fn fill(&self, replies: &[Option<Vec<u8>>]) -> Result<Vec<u8>, String> {
        let mut line = self.request.clone();
        for c in &self.carry {
            let value = replies
                .get(c.from)
                .and_then(Option::as_deref)
                .and_then(|r| serde_json::from_slice::<Value>(r).ok())
                .filter(Value::is_object)
                .and_then(|r| r.pointer(&c.pointer).cloned())
                .ok_or_else(|| {
                    format!(
                        "(not run: step {}'s reply has nothing at {})",
                        c.from + 1,
                        c.pointer
                    )
                })?;
            let pattern = Value::from(c.placeholder.as_str()).to_string();
            line = replace_all(&line, pattern.as_bytes(), value.to_string().as_bytes());
        }
        Ok(line)
    }
}

/// `haystack` with every occurrence of `from` replaced by `to`.
fn replace_all(haystack: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    if from.is_empty() {
        return haystack.to_vec();
    }
    let mut out = Vec::with_capacity(haystack.len());
    let mut rest = haystack;
    while let Some(at) = rest.windows(from.len()).position(|w| w == from) {
        let (head, tail) = rest.split_at(at);
        out.extend_from_slice(head);
        out.extend_from_slice(to);
        rest = tail.get(from.len()..).unwrap_or_default();
    }
    out.extend_from_slice(rest);
    out
}

fn unhex(text: &str) -> Result<Vec<u8>, String> {
    let digit = |b: u8| (b as char).to_digit(16).ok_or("a non-hex digit");
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return Err("an odd number of hex digits".into());
    }
    bytes
        .chunks(2)
        .map(|pair| match pair {
            [hi, lo] => Ok((digit(*hi)? * 16 + digit(*lo)?) as u8),
            _ => Err("an odd number of hex digits".into()),
        })
        .collect()
}

fn step(v: &Value) -> Result<Step, String> {
    let request = match (v.get("request"), v.get("request_hex")) {
        (Some(Value::String(s)), None) => s.as_bytes().to_vec(),
        (None, Some(Value::String(h))) => unhex(h)?,
        _ => return Err("a step needs exactly one of request and request_hex".into()),
    };
    let reply = match v.get("reply") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Null) => None,
        _ => return Err("reply must be a string or null".into()),
    };
    let expect = match v.get("expect") {
        Some(Value::Null) => None,
        Some(e @ Value::Object(_)) => Some(e.clone()),
        _ => return Err("expect must be an object or null".into()),
    };
    let level = match (v.get("level"), v.get("source")) {
        (Some(Value::String(l)), Some(Value::String(s))) if LEVELS.contains(&l.as_str()) => {
            Some((l.clone(), s.clone()))
        }
        (None, None) => None,
        _ => return Err("a step has a known level and a source, or neither".into()),
    };
    let strings = |k: &str| -> Result<Option<Vec<String>>, String> {
        match v.get(k) {
            None => Ok(None),
            Some(Value::Array(a)) => a
                .iter()
                .map(|s| s.as_str().map(String::from))
                .collect::<Option<Vec<_>>>()
                .map(Some)
                .ok_or(format!("{k} must be an array of strings")),
            Some(_) => Err(format!("{k} must be an array of strings")),
        }
    };
    let carry = match v.get("carry") {
        None => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|c| {
                Some(Carry {
                    from: usize::try_from(c.get("from")?.as_u64()?).ok()?,
                    pointer: c.get("pointer")?.as_str()?.to_string(),
                    placeholder: c.get("placeholder")?.as_str()?.to_string(),
                })
            })
            .collect::<Option<Vec<_>>>()
            .ok_or("a carry is {from, pointer, placeholder}")?,
        Some(_) => return Err("carry must be an array".into()),
    };
    Ok(Step {
        request,
        carry,
        before: strings("before")?,
        opaque: strings("opaque")?.unwrap_or_default(),
        level,
        expect,
        reply,
    })
}

fn parse(line: &str) -> Result<Vector, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let text = |k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .map(String::from)
            .ok_or(format!("{k} must be a string"))
    };
    let (steps, sequence) = match v.get("steps") {
        Some(Value::Array(steps)) => (steps.iter().map(step).collect::<Result<_, _>>()?, true),
        // A single vector's level and source are the vector's own.
        None => (
            vec![Step {
                level: None,
                ..step(&v)?
            }],
            false,
        ),
        Some(_) => return Err("steps must be an array".into()),
    };
    let flags = v
        .get("flags")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .ok_or("flags must be an array")?;
    let level = text("level")?;
    if !LEVELS.contains(&level.as_str()) {
        return Err(format!("unknown level {level}"));
    }
    // A step carries only from a step before it.
    for (i, s) in steps.iter().enumerate() {
        if s.carry.iter().any(|c| c.from >= i) {
            return Err(format!("step {} carries from a step not before it", i + 1));
        }
    }
    let chain = steps.iter().any(|s| !s.carry.is_empty());
    Ok(Vector {
        id: text("id")?,
        rule: text("rule")?,
        flags,
        level,
        source: text("source")?,
        config: text("config")?,
        steps,
        sequence,
        chain,
    })
}

/// The vectors to replay: every `generic` one, then, with a fixture, every
/// vector of that fixture. `Err` names an unknown fixture.
pub fn select(fixture: Option<&str>) -> Result<Vec<Vector>, String> {
    if let Some(name) = fixture
        && !FIXTURES.contains(&name)
    {
        return Err(format!(
            "no fixture {name}: the fixtures are {}",
            FIXTURES.join(", ")
        ));
    }
    let mut out = Vec::new();
    for (file, text) in FILES {
        if file != "generic" && Some(file) != fixture {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            let v = parse(line).map_err(|e| format!("vectors/{file}.jsonl line {}: {e}", n + 1))?;
            out.push(v);
        }
    }
    Ok(out)
}

/// The id of a reply line as a comparable token: a string's value, or a
/// number's (or null's) literal text. `None` when the line is no JSON
/// object.
fn id_token(line: &str) -> Option<Result<String, String>> {
    let members: HashMap<String, Box<RawValue>> = serde_json::from_str(line).ok()?;
    Some(token(members.get("id").map_or("null", |r| r.get())))
}

/// A raw id as a comparable token.
fn token(raw: &str) -> Result<String, String> {
    let raw = raw.trim();
    if raw.starts_with('"') {
        serde_json::from_str::<String>(raw)
            .map(|s| format!("s:{s}"))
            .map_err(|e| e.to_string())
    } else {
        Ok(format!("n:{raw}"))
    }
}

/// Whether a reply line's id is the id of `expected` (a line, or an id's
/// own JSON text).
pub(crate) fn same_id(line: &str, expected: &str) -> bool {
    let want = if expected.trim_start().starts_with('{') {
        id_token(expected)
    } else {
        Some(token(expected))
    };
    match (want, id_token(line)) {
        (Some(Ok(a)), Some(Ok(b))) => a == b,
        _ => false,
    }
}

/// Whether `got` is what `expect` requires (docs/vectors.md, "Levels"):
/// a JSON object with `"jsonrpc":"2.0"` and the expected id; for
/// `error`, an `error` (no `result`) whose integer code is among `codes`
/// when they are given, and when it is `-32022` and `requested` is given,
/// whose `data` lists the supported versions and names `requested`
/// (VER-01, judged as `check`'s `version.unsupported` judges it); for
/// `result`, a `result` object (no `error`) with
/// `resultType` `"complete"` and the expected `isError` (absent: false),
/// and, where the vector names `hidden` ids, a completion that neither
/// suggests nor counts them (COMP-08); for `versions` (an `initialize`,
/// VER-07), a legacy `InitializeResult` or an error naming one of `versions`, judged as `check`'s
/// `initialize.answer` judges it.
pub fn meets(expect: &Value, got: &[u8]) -> bool {
    let Some((id, have)) = members(got) else {
        return false;
    };
    let want = expect.get("id").and_then(Value::as_str).unwrap_or_default();
    if have.get("jsonrpc") != Some(&Value::from("2.0")) || !same_token(&id, want) {
        return false;
    }
    let (result, error) = (have.get("result"), have.get("error"));
    match expect.get("outcome").and_then(Value::as_str) {
        Some("reply") => result.is_some() != error.is_some(),
        Some("versions") => {
            let versions: Vec<String> = expect
                .get("versions")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            !versions.is_empty()
                && (result.is_some() != error.is_some())
                && crate::check::probes::initialize_verdict(&Value::Object(have.clone()), &versions)
                    .is_none()
        }
        Some("error") => {
            let code = error.and_then(|e| e.get("code")).and_then(Value::as_i64);
            let codes: Vec<i64> = expect
                .get("codes")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_i64).collect())
                .unwrap_or_default();
            // A -32022 lists the versions and names the one asked for
            // (VER-01), when the vector says which one that is.
            // M7's code (docs/rows.json): an unsupported version.
            let unsupported = mcp_reference_testkit::model::rows::code_level("M7").map(|c| c.0);
            let listed = match (code, expect.get("requested").and_then(Value::as_str)) {
                (Some(c), Some(asked)) if Some(c) == unsupported => {
                    crate::check::probes::unsupported_verdict(&Value::Object(have.clone()), asked)
                        .is_none()
                }
                _ => true,
            };
            result.is_none()
                && code.is_some_and(|c| codes.is_empty() || codes.contains(&c))
                && listed
        }
        Some("input_required") => {
            error.is_none()
                && result
                    .and_then(Value::as_object)
                    .is_some_and(|r| asks_input(expect, r))
        }
        Some("result") => {
            let is_error = result
                .and_then(|r| r.get("isError"))
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let want = expect
                .get("isError")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            error.is_none()
                && result.is_some_and(Value::is_object)
                && result.and_then(|r| r.get("resultType")) == Some(&Value::from("complete"))
                && is_error == want
                && result.is_some_and(|r| discloses_nothing(expect, r))
        }
        _ => false,
    }
}

/// An `InputRequiredResult` (format 6): `resultType` `"input_required"`
/// with an `inputRequests` object or a `requestState` string (MRTR-10),
/// and, where the vector names `kinds`, every input request's `method`
/// among them (the kinds the request's capabilities can receive,
/// MRTR-11).
fn asks_input(expect: &Value, result: &serde_json::Map<String, Value>) -> bool {
    let requests = result.get("inputRequests");
    let shaped = result.get("resultType") == Some(&Value::from("input_required"))
        && (requests.is_some_and(Value::is_object)
            || result.get("requestState").is_some_and(Value::is_string));
    let kinds_ok = match (expect.get("kinds").and_then(Value::as_array), requests) {
        (Some(kinds), Some(Value::Object(asked))) => asked
            .values()
            .all(|r| r.get("method").is_some_and(|m| kinds.contains(m))),
        _ => true,
    };
    shaped && kinds_ok
}

/// Whether the notifications before a reply are what `expect`'s
/// `notifications` allows (format 6): a `notifications/progress` only
/// with its `progressToken`, that token each time and `progress`
/// increasing (PROG-03); a `notifications/message` only with its
/// `logLevels`, at one of them (LOG-04). Other methods are not judged; a
/// line that is no JSON object fails.
pub fn notes_meet(expect: &Value, notes: &[Vec<u8>]) -> bool {
    let allowed = expect.get("notifications");
    let token = allowed.and_then(|a| a.get("progressToken"));
    let levels = allowed
        .and_then(|a| a.get("logLevels"))
        .and_then(Value::as_array);
    let mut last: Option<f64> = None;
    notes.iter().all(|line| {
        let Ok(Value::Object(note)) = serde_json::from_slice::<Value>(line) else {
            return false;
        };
        let params = note.get("params");
        match note.get("method").and_then(Value::as_str) {
            Some("notifications/progress") => {
                let progress = params
                    .and_then(|p| p.get("progress"))
                    .and_then(Value::as_f64);
                let ok = token.is_some()
                    && params.and_then(|p| p.get("progressToken")) == token
                    && progress.is_some_and(|p| last.is_none_or(|l| p > l));
                last = progress;
                ok
            }
            Some("notifications/message") => levels.is_some_and(|levels| {
                params
                    .and_then(|p| p.get("level"))
                    .is_some_and(|l| levels.contains(l))
            }),
            _ => true,
        }
    })
}

/// Whether a line is a JSON-RPC notification: a JSON object with a
/// string `method` and no `id` (format 6: a request's notifications come
/// before its reply).
pub fn is_notification(line: &[u8]) -> bool {
    matches!(
        serde_json::from_slice::<Value>(line),
        Ok(Value::Object(m)) if m.get("method").is_some_and(Value::is_string) && !m.contains_key("id")
    )
}

/// The reply's values at the `opaque` pointers, each a string; `None`
/// when one is missing or no string.
fn opaque_values<'a>(reply: &'a Value, opaque: &[String]) -> Option<Vec<&'a str>> {
    opaque
        .iter()
        .map(|p| reply.pointer(p).and_then(Value::as_str))
        .collect()
}

/// `value` with the `opaque` pointers' values taken out (set to null).
fn without_opaque(mut value: Value, opaque: &[String]) -> Value {
    for p in opaque {
        if let Some(v) = value.pointer_mut(p) {
            *v = Value::Null;
        }
    }
    value
}

/// The `canonical` judgement: the reference's bytes, with the JSON text
/// of each `opaque` value (its first occurrence) replaced by the JSON
/// text of the server's own (format 6).
fn canonical(step: &Step, reply: &str, got: &[u8]) -> bool {
    if step.opaque.is_empty() {
        return got == reply.as_bytes();
    }
    let (Ok(want), Ok(have)) = (
        serde_json::from_str::<Value>(reply),
        serde_json::from_slice::<Value>(got),
    ) else {
        return false;
    };
    let (Some(want), Some(have)) = (
        opaque_values(&want, &step.opaque),
        opaque_values(&have, &step.opaque),
    ) else {
        return false;
    };
    let mut expected = reply.to_string();
    for (w, h) in want.iter().zip(&have) {
        let (w, h) = (Value::from(*w).to_string(), Value::from(*h).to_string());
        expected = expected.replacen(&w, &h, 1);
    }
    got == expected.as_bytes()
}

/// For a completion of an order id (format 5, COMP-08): no value is one
/// of the `hidden` ids (the orders the fixture's user may not read), and
/// `total`, when given, is at most `total_at_most` (the user's own ids
/// that match), so neither the values nor the count disclose another
/// user's order. True when the vector says neither.
fn discloses_nothing(expect: &Value, result: &Value) -> bool {
    let completion = result.get("completion");
    let hidden = expect
        .get("hidden")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let suggested = completion
        .and_then(|c| c.get("values"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let counted = match (
        expect.get("total_at_most").and_then(Value::as_u64),
        completion.and_then(|c| c.get("total")),
    ) {
        (Some(most), Some(total)) => total.as_u64().is_some_and(|t| t <= most),
        _ => true,
    };
    counted && !suggested.iter().any(|v| hidden.contains(v))
}

/// A reply with what the `textbook` level leaves to the server taken out:
/// the error's wording and its optional `data`, and the result's `_meta`
/// members other than serverInfo.
fn textbook_form(mut v: Value) -> Value {
    if let Some(error) = v.get_mut("error").and_then(Value::as_object_mut) {
        error.remove("message");
        error.remove("data");
    }
    if let Some(meta) = v
        .pointer_mut("/result/_meta")
        .and_then(Value::as_object_mut)
    {
        meta.retain(|k, _| k == SERVER_INFO);
    }
    v
}

/// The one `_meta` member of a result the `textbook` level compares.
const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The `textbook` judgement of `got` against the reference's `reply`: the
/// same JSON value (member order free) but for the error's wording and
/// `data`, and the id as [`same_id`] reads it. For a `generic` vector,
/// whose results depend on the server's own tools: an error with the
/// reference's code, or a complete result.
fn textbook(v: &Vector, step: &Step, reply: &str, got: &[u8]) -> bool {
    let (Some((want_id, want)), Some((have_id, have))) = (members(reply.as_bytes()), members(got))
    else {
        return false;
    };
    let (want, have) = (Value::Object(want), Value::Object(have));
    // Format 6: the server's own opaque values are there, as strings, and
    // not compared.
    if opaque_values(&have, &step.opaque).is_none() {
        return false;
    }
    let (Value::Object(want), Value::Object(have)) = (
        without_opaque(want, &step.opaque),
        without_opaque(have, &step.opaque),
    ) else {
        return false;
    };
    if v.is_generic() {
        let mut expect = serde_json::Map::new();
        expect.insert("id".into(), Value::from(want_id));
        expect.insert("outcome".into(), Value::from("result"));
        if let Some(code) = want.get("error").and_then(|e| e.get("code")) {
            expect.insert("outcome".into(), Value::from("error"));
            expect.insert("codes".into(), Value::Array(vec![code.clone()]));
        }
        return meets(&Value::Object(expect), got);
    }
    same_token(&have_id, &want_id)
        && textbook_form(Value::Object(want)) == textbook_form(Value::Object(have))
}

/// The `textbook` judgement of a whole reply against the reference's, for
/// a vector whose results do not depend on the server's tools (the HTTP
/// vectors, [`super::http`]): the same JSON value but for the error's wording and
/// `data` and further `_meta` members, the id compared as written.
pub fn textbook_equal(reply: &[u8], got: &[u8]) -> bool {
    let (Some((want_id, want)), Some((have_id, have))) = (members(reply), members(got)) else {
        return false;
    };
    same_token(&have_id, &want_id)
        && textbook_form(Value::Object(want)) == textbook_form(Value::Object(have))
}

/// A line's id (its raw text, `null` when absent) and its other members
/// as JSON values (an id of any size is kept as written); `None` when the
/// line is no JSON object.
fn members(line: &[u8]) -> Option<(String, serde_json::Map<String, Value>)> {
    let text = std::str::from_utf8(line).ok()?;
    let raw: HashMap<String, Box<RawValue>> = serde_json::from_str(text).ok()?;
    let mut id = "null".to_string();
    let mut out = serde_json::Map::new();
    for (name, value) in raw {
        if name == "id" {
            id = value.get().to_string();
        } else {
            out.insert(name, serde_json::from_str(value.get()).ok()?);
        }
    }
    Some((id, out))
}

/// Whether two raw ids are the same id (as [`same_id`] compares them).
fn same_token(a: &str, b: &str) -> bool {
    matches!((token(a), token(b)), (Ok(x), Ok(y)) if x == y)
}

/// What came back for a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Got<'a> {
    /// A line.
    Line(&'a [u8]),
    /// No line, and the server showed it had gone past the request: the
    /// probe written after it was answered. Only this is a silence.
    Silence,
    /// No line and no sign of life after the request: the server exited
    /// or stopped answering. Not a silence: nothing was observed, and a
    /// step that expects silence fails (a server that dies on every
    /// notification does not pass the vectors that expect none).
    Nothing,
}

impl<'a> Got<'a> {
    /// The line, if one came.
    pub fn line(self) -> Option<&'a [u8]> {
        match self {
            Got::Line(line) => Some(line),
            Got::Silence | Got::Nothing => None,
        }
    }
}

/// The levels at which a step fails, given what came back: for each
/// level of the vector, its own judgement (`must` and `should` only where
/// the step's `expect` is judged at that level).
pub fn failed_levels(
    v: &Vector,
    fixture: Option<&str>,
    step: &Step,
    got: Got,
) -> Vec<&'static str> {
    failed_levels_with(v, fixture, step, got, &[])
}

/// [`failed_levels`] for a step whose notifications came as `notes`
/// (format 6: judged only where the step has `before`; else they are
/// none).
pub fn failed_levels_with(
    v: &Vector,
    fixture: Option<&str>,
    step: &Step,
    got: Got,
    notes: &[Vec<u8>],
) -> Vec<&'static str> {
    v.levels(fixture)
        .into_iter()
        .filter(|level| {
            let judged =
                matches!(*level, "canonical" | "textbook") || v.expect_judged_at(step, level);
            let ok = match (&step.reply, got) {
                _ if !judged => true,
                (None, Got::Silence) => true,
                (None, Got::Line(_) | Got::Nothing) | (Some(_), Got::Silence | Got::Nothing) => {
                    false
                }
                (Some(reply), Got::Line(got)) => match *level {
                    "canonical" => canonical(step, reply, got),
                    "textbook" => textbook(v, step, reply, got),
                    _ => step.expect.as_ref().is_some_and(|e| meets(e, got)),
                },
            };
            let notes_ok = match (&step.before, *level) {
                _ if !judged => true,
                (None, _) => true,
                (Some(before), "canonical") => {
                    before.len() == notes.len()
                        && before.iter().zip(notes).all(|(b, n)| b.as_bytes() == n)
                }
                (Some(before), "textbook") => {
                    before.len() == notes.len()
                        && before.iter().zip(notes).all(|(b, n)| {
                            matches!(
                                (
                                    serde_json::from_str::<Value>(b),
                                    serde_json::from_slice::<Value>(n),
                                ),
                                (Ok(x), Ok(y)) if x == y
                            )
                        })
                }
                (Some(_), _) => step.expect.as_ref().is_some_and(|e| notes_meet(e, notes)),
            };
            !(ok && notes_ok)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `request_hex` decodes to exactly its bytes (a surviving mutant of
    /// the oracle sent one zero byte for every such line, so a server that
    /// dies on bytes that are not UTF-8 passed those vectors), and an odd
    /// count or a non-hex digit is refused.
    #[test]
    fn request_hex_is_its_bytes() {
        assert_eq!(unhex("ff00c328"), Ok(vec![0xff, 0x00, 0xc3, 0x28]));
        assert_eq!(unhex(""), Ok(Vec::new()));
        assert!(unhex("abc").is_err());
        assert!(unhex("zz").is_err());
        let hex = select(Some("stock"))
            .expect("the stock vectors")
            .into_iter()
            .flat_map(|v| v.steps)
            .find(|s| std::str::from_utf8(&s.request).is_err())
            .expect("a vector whose request is not UTF-8");
        assert!(hex.request.len() > 1, "{:?}", hex.request);
    }

    /// The `versions` outcome (format 4, row D6): a legacy
    /// `InitializeResult` or an error naming a listed version passes; an
    /// error naming none, a result without `protocolVersion`, another id,
    /// or an expect without versions does not.
    #[test]
    fn versions_outcome() {
        let expect =
            serde_json::json!({"id": "1", "outcome": "versions", "versions": ["2026-07-28"]});
        let pass = [
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"m","data":{"supported":["2026-07-28"]}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"use 2026-07-28"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
        ];
        for line in pass {
            assert!(meets(&expect, line.as_bytes()), "{line}");
        }
        let fail = [
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"m","data":{"supported":["2025-11-25"]}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"capabilities":{}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"2026-07-28"}}"#,
            r#"{"jsonrpc":"2.0","id":1}"#,
        ];
        for line in fail {
            assert!(!meets(&expect, line.as_bytes()), "{line}");
        }
        let none = serde_json::json!({"id": "1", "outcome": "versions"});
        assert!(!meets(&none, pass[0].as_bytes()));
    }

    /// The `input_required` outcome (format 6): an `InputRequiredResult`
    /// with `inputRequests` or `requestState` passes; a complete result,
    /// one with neither, an error, or (with `kinds`) an input request of a
    /// kind the request cannot receive does not.
    #[test]
    fn input_required_outcome() {
        let expect = serde_json::json!({"id": "1", "outcome": "input_required", "kinds": ["elicitation/create"]});
        let pass = [
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{}}}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s"}}"#,
        ];
        for line in pass {
            assert!(meets(&expect, line.as_bytes()), "{line}");
        }
        let fail = [
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","requestState":"s"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":7}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"sampling/createMessage","params":{}}}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"m"}}"#,
        ];
        for line in fail {
            assert!(!meets(&expect, line.as_bytes()), "{line}");
        }
    }

    /// `carry` (format 6): the placeholder's JSON string becomes the value
    /// at the pointer of the named step's reply; a missing reply or value
    /// is the shown reason the step is not run.
    #[test]
    fn carry_fills_the_placeholder_or_says_why_not() {
        let step = Step {
            request: br#"{"id":2,"params":{"requestState":"$state-0","x":"$state-0"}}"#.to_vec(),
            carry: vec![Carry {
                from: 0,
                pointer: "/result/requestState".into(),
                placeholder: "$state-0".into(),
            }],
            before: None,
            opaque: Vec::new(),
            level: None,
            expect: None,
            reply: None,
        };
        let reply = br#"{"jsonrpc":"2.0","id":1,"result":{"requestState":"ab\"c"}}"#.to_vec();
        assert_eq!(
            step.fill(&[Some(reply)]).unwrap(),
            br#"{"id":2,"params":{"requestState":"ab\"c","x":"ab\"c"}}"#.to_vec()
        );
        let none = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_vec();
        assert_eq!(
            step.fill(&[Some(none)]),
            Err("(not run: step 1's reply has nothing at /result/requestState)".into())
        );
        assert!(step.fill(&[None]).is_err());
        assert!(step.fill(&[]).is_err());
    }

    /// Notifications (format 6): progress only with its token, that token
    /// and increasing; messages only at the allowed levels; other methods
    /// free.
    #[test]
    fn notifications_are_judged_by_what_the_request_asked() {
        let line = |s: &str| s.as_bytes().to_vec();
        let p = |t: &str, n: u32| {
            line(&format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{t},"progress":{n}}}}}"#
            ))
        };
        let m = |l: &str| {
            line(&format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"{l}","data":"x"}}}}"#
            ))
        };
        let token = serde_json::json!({"notifications": {"progressToken": "t"}});
        assert!(notes_meet(&token, &[p("\"t\"", 0), p("\"t\"", 50)]));
        assert!(!notes_meet(&token, &[p("\"t\"", 50), p("\"t\"", 50)]));
        assert!(!notes_meet(&token, &[p("\"u\"", 0)]));
        assert!(!notes_meet(&token, &[m("info")]));
        let none = serde_json::json!({"notifications": {}});
        assert!(notes_meet(&none, &[]));
        assert!(!notes_meet(&none, &[p("\"t\"", 0)]));
        assert!(notes_meet(
            &none,
            &[line(
                r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#
            )]
        ));
        let levels = serde_json::json!({"notifications": {"logLevels": ["error", "critical"]}});
        assert!(notes_meet(&levels, &[m("error")]));
        assert!(!notes_meet(&levels, &[m("info")]));
        assert!(!notes_meet(&levels, &[line("not json")]));
    }

    /// `opaque` (format 6): at `canonical` the server's own state stands
    /// for the reference's, and nothing else may differ; a reply without
    /// one fails.
    #[test]
    fn opaque_values_are_the_server_s_own() {
        let step = Step {
            request: Vec::new(),
            carry: Vec::new(),
            before: None,
            opaque: vec!["/result/requestState".into()],
            level: None,
            expect: None,
            reply: None,
        };
        let reply = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"AAA"}}"#;
        let other = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"BBB"}}"#;
        assert!(canonical(&step, reply, other));
        let spaced = br#"{"jsonrpc":"2.0", "id":1,"result":{"resultType":"input_required","requestState":"BBB"}}"#;
        assert!(!canonical(&step, reply, spaced));
        let none = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}"#;
        assert!(!canonical(&step, reply, none));
        let plain = Step {
            opaque: Vec::new(),
            ..step
        };
        assert!(!canonical(&plain, reply, other));
    }
}
