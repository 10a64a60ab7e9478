//! The committed test vectors (`vectors/`, format in `docs/vectors.md`)
//! against the reference and the model: every committed request is answered
//! again by the reference (the core, or a [`Session`] for a vector with
//! `steps`) and must give the committed reply byte for byte; every reply is
//! what the model expects (`model::expect_line`, `model::legacy::step`), and
//! the vector's `rule` is a row the model names for it; every reply
//! validates against the official schema of its era; every row of
//! `docs/rows.json` has vectors (three or more when the row's outcome is an
//! error) and every vector's rule is a row; `vectors/manifest.json` (format
//! version, reference version, specification commit, the schema's sha256,
//! counts) is what a fresh run writes.
//!
//! The committed files are the source of the requests: regeneration,
//! `MCP_UPDATE_VECTORS=1 cargo test --release --test vectors`, re-answers the
//! committed requests and rewrites the replies and the manifest; it never
//! makes new requests. CI runs this test without the variable, so a
//! regeneration that would change a byte fails.

#[path = "support/switches.rs"]
mod switches;
use std::collections::BTreeMap;
use std::path::PathBuf;

use mcp_reference::{Config, Direct, InputKind, Server, Session};
use mcp_reference_testkit::model::expect::{LOG_LEVEL, LOG_LEVELS};
use mcp_reference_testkit::model::{self, Era, rows};
use mcp_reference_testkit::schema::{SPEC_COMMIT, Schema, missing, spec_dir};
use serde_json::{Value, json};

/// The version of the vector format (docs/vectors.md).
const FORMAT_VERSION: u64 = 6;
/// The vector files, in the order the replayers read them.
const FILES: [&str; 7] = [
    "generic",
    "textbook",
    "stock",
    "short-lines",
    "legacy",
    "catalog",
    "conformance",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn update() -> bool {
    switches::update("MCP_UPDATE_VECTORS")
}

/// One request line of a vector, what its level requires of the reply
/// (`None`: silence; made from the row registry and the reply), and its
/// committed reply.
#[derive(Debug, Clone)]
struct Line {
    /// As committed (for a step with `carry`, with its placeholders).
    request: Vec<u8>,
    /// Format 6: `{from, pointer, placeholder}` objects, as committed.
    carry: Vec<Value>,
    /// Format 6: the notification lines before the reply, where the
    /// committed vector judges them (`before` present).
    before: Option<Vec<String>>,
    /// Format 6: the reply's opaque pointers (its `requestState`).
    opaque: Vec<String>,
    /// For a step of a sequence: the level and source of the row that
    /// decided its reply (format 3), which its `expect` is judged at.
    level: Option<(String, String)>,
    expect: Option<Value>,
    reply: Option<String>,
}

#[derive(Debug, Clone)]
struct Vector {
    id: String,
    rule: String,
    comment: String,
    config: String,
    flags: Vec<String>,
    /// The level and source of the vector's row (docs/rows.json).
    level: String,
    source: String,
    /// One line, or the steps of a sequence.
    lines: Vec<Line>,
    steps: bool,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    assert!(text.len().is_multiple_of(2), "odd hex {text}");
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

fn read_line(v: &Value) -> Line {
    let request = match (v.get("request"), v.get("request_hex")) {
        (Some(Value::String(s)), None) => s.as_bytes().to_vec(),
        (None, Some(Value::String(h))) => unhex(h),
        _ => panic!("a vector needs exactly one of request, request_hex: {v}"),
    };
    let reply = match v.get("reply") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Null) => None,
        _ => panic!("reply must be a string or null: {v}"),
    };
    let level = match (v.get("level"), v.get("source")) {
        (Some(Value::String(l)), Some(Value::String(s))) => Some((l.clone(), s.clone())),
        (None, None) => None,
        _ => panic!("a step has both level and source, or neither: {v}"),
    };
    let carry = match v.get("carry") {
        None => Vec::new(),
        Some(Value::Array(a)) => a.clone(),
        _ => panic!("carry must be an array: {v}"),
    };
    let before = v.get("before").map(|b| {
        b.as_array()
            .unwrap_or_else(|| panic!("before must be an array: {v}"))
            .iter()
            .map(|s| s.as_str().unwrap_or_default().to_string())
            .collect()
    });
    Line {
        request,
        carry,
        before,
        opaque: Vec::new(),
        level,
        expect: None,
        reply,
    }
}

/// A step's request with its `carry` placeholders filled from the
/// reference's replies to the steps before it (docs/vectors.md, format
/// 6): the value at each pointer, as compact JSON, for the JSON string
/// of its placeholder.
fn fill(line: &Line, replies: &[Option<String>]) -> Vec<u8> {
    let mut text = String::from_utf8(line.request.clone()).expect("a carrying step is UTF-8");
    for c in &line.carry {
        let from = c["from"].as_u64().expect("carry.from") as usize;
        let pointer = c["pointer"].as_str().expect("carry.pointer");
        let placeholder = Value::from(c["placeholder"].as_str().expect("carry.placeholder"));
        let reply: Value = serde_json::from_str(
            replies
                .get(from)
                .and_then(Option::as_deref)
                .expect("the reference replied to the step carried from"),
        )
        .unwrap();
        let value = reply
            .pointer(pointer)
            .unwrap_or_else(|| panic!("the reference's reply has nothing at {pointer}: {reply}"));
        assert!(
            text.contains(&placeholder.to_string()),
            "the request has no {placeholder}"
        );
        text = text.replace(&placeholder.to_string(), &value.to_string());
    }
    text.into_bytes()
}

/// The reference's output for one request split into the notification
/// lines before the reply and the reply (format 6).
fn split(out: Option<Vec<u8>>) -> (Vec<String>, Option<String>) {
    let Some(text) = text(out) else {
        return (Vec::new(), None);
    };
    let mut lines: Vec<String> = text.split('\n').map(String::from).collect();
    let reply = lines.pop();
    (lines, reply)
}

fn parse(text: &str) -> Vector {
    let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let s = |k: &str| {
        v[k].as_str()
            .unwrap_or_else(|| panic!("{k} must be a string: {text}"))
            .to_string()
    };
    let (lines, steps) = match v.get("steps") {
        Some(Value::Array(steps)) => (steps.iter().map(read_line).collect(), true),
        // A single vector's level and source are the vector's own.
        None => (
            vec![Line {
                level: None,
                ..read_line(&v)
            }],
            false,
        ),
        Some(_) => panic!("steps must be an array: {text}"),
    };
    Vector {
        id: s("id"),
        rule: s("rule"),
        comment: s("comment"),
        config: s("config"),
        flags: v["flags"]
            .as_array()
            .unwrap_or_else(|| panic!("flags: {text}"))
            .iter()
            .map(|f| f.as_str().unwrap().to_string())
            // Format 1's `must` flag is the level now.
            .filter(|f| f != "must")
            .collect(),
        level: v["level"].as_str().unwrap_or_default().to_string(),
        source: v["source"].as_str().unwrap_or_default().to_string(),
        lines,
        steps,
    }
}

/// The one serialization of a vector: members in the order of
/// docs/vectors.md.
fn render(v: &Vector) -> String {
    let s = |x: &str| serde_json::to_string(x).unwrap();
    let line = |l: &Line| {
        let request = match std::str::from_utf8(&l.request) {
            Ok(t) => format!("\"request\":{}", s(t)),
            Err(_) => format!("\"request_hex\":{}", s(&hex(&l.request))),
        };
        let expect = l
            .expect
            .as_ref()
            .map_or("null".to_string(), Value::to_string);
        let reply = l.reply.as_deref().map_or("null".to_string(), s);
        let level = l.level.as_ref().map_or(String::new(), |(level, source)| {
            format!(",\"level\":{},\"source\":{}", s(level), s(source))
        });
        let carry = if l.carry.is_empty() {
            String::new()
        } else {
            let items: Vec<String> = l
                .carry
                .iter()
                .map(|c| {
                    format!(
                        "{{\"from\":{},\"pointer\":{},\"placeholder\":{}}}",
                        c["from"], c["pointer"], c["placeholder"]
                    )
                })
                .collect();
            format!(",\"carry\":[{}]", items.join(","))
        };
        let before = l.before.as_ref().map_or(String::new(), |b| {
            format!(",\"before\":{}", serde_json::to_string(b).unwrap())
        });
        let opaque = if l.opaque.is_empty() {
            String::new()
        } else {
            format!(",\"opaque\":{}", serde_json::to_string(&l.opaque).unwrap())
        };
        format!("{request}{carry}{level},\"expect\":{expect}{before},\"reply\":{reply}{opaque}")
    };
    let mut out = format!(
        "{{\"id\":{},\"rule\":{},\"comment\":{},\"config\":{},\"flags\":{},\"level\":{},\"source\":{}",
        s(&v.id),
        s(&v.rule),
        s(&v.comment),
        s(&v.config),
        serde_json::to_string(&v.flags).unwrap(),
        s(&v.level),
        s(&v.source)
    );
    if v.steps {
        let steps: Vec<String> = v.lines.iter().map(|l| format!("{{{}}}", line(l))).collect();
        out.push_str(&format!(",\"steps\":[{}]}}", steps.join(",")));
    } else {
        out.push_str(&format!(",{}}}", line(&v.lines[0])));
    }
    out
}

/// What the level of `row` requires of `reply` (docs/vectors.md,
/// "Levels"): `None` for silence; else the reply's id (its literal text),
/// the outcome (`reply`, `error`, `result` or `versions`), for an error
/// the codes the row's source allows (and for a `-32022` the version its
/// `data` names as `requested`), for a result the reference's `isError`,
/// for `versions` the versions the reference names, for a completion of
/// an order id (C1) the `hidden` ids and `total_at_most`. A step of
/// a sequence whose reply is not of the row's outcome is held to
/// `reply`; a single vector's must be (the registry and the reference
/// agree).
fn expect(
    row: &rows::Row,
    (request, reply, notes): (&[u8], Option<&str>, bool),
    single: bool,
    id: &str,
    hidden: &[String],
) -> Option<Value> {
    let reply = reply?;
    let read =
        model::read_reply(format!("{reply}\n").as_bytes()).unwrap_or_else(|e| panic!("{id}: {e}"));
    let value = &read.value;
    // For `versions`: the versions the reference names to `initialize`.
    let supported = value
        .pointer("/error/data/supported")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty() && a.iter().all(Value::is_string));
    let fits = match row.expect.as_str() {
        "reply" => true,
        "error" => value.get("error").is_some(),
        "result" => value.get("result").is_some(),
        "versions" => supported.is_some(),
        "input_required" => value.pointer("/result/resultType") == Some(&json!("input_required")),
        _ => false,
    };
    assert!(
        fits || !single,
        "{id}: row {} expects {} but the reference wrote {reply}",
        row.id,
        row.expect
    );
    let mut outcome = if fits { row.expect.as_str() } else { "reply" };
    // I11 (ELICIT-01, a MUST): a declined or cancelled input is never
    // taken for accepted, so its vectors are held to the reference's kind
    // of reply, an `isError` result (the tool did not run) or an error
    // (the prompt produced nothing), where the row says `reply` because
    // it covers both.
    if row.id == "I11" && outcome == "reply" {
        outcome = if value.get("result").is_some() {
            "result"
        } else {
            "error"
        };
    }
    let mut e = serde_json::Map::new();
    e.insert("id".into(), json!(read.id));
    e.insert("outcome".into(), json!(outcome));
    if let (Some(supported), "versions") = (supported, outcome) {
        e.insert("versions".into(), json!(supported));
    }
    if outcome == "error" && !row.codes.is_empty() {
        e.insert("codes".into(), json!(row.codes));
    }
    // A -32022 names the version asked for; the replayers then hold any
    // -32022 to VER-01 (the versions listed, that one named).
    if outcome == "error"
        && value.pointer("/error/code") == Some(&json!(-32022))
        && let Some(asked) = value
            .pointer("/error/data/requested")
            .filter(|r| r.is_string())
    {
        e.insert("requested".into(), asked.clone());
    }
    if outcome == "result"
        && let Some(is_error) = value.pointer("/result/isError")
    {
        e.insert("isError".into(), is_error.clone());
    }
    // C1 (format 5): the completion of an order id neither suggests nor
    // counts an order the user may not read (COMP-08, at the row's must):
    // the model's hidden ids, and the reference's total (the model's, as
    // checked) as the most any count may be.
    if outcome == "result"
        && row.id == "C1"
        && let Some(total) = value.pointer("/result/completion/total")
    {
        e.insert("hidden".into(), json!(hidden));
        e.insert("total_at_most".into(), total.clone());
    }
    // Format 6: the input requests the request's own capabilities can
    // receive (MRTR-11), from the core's kinds.
    let request: Value = serde_json::from_slice(request).unwrap_or_default();
    let meta = request.pointer("/params/_meta");
    if outcome == "input_required" {
        let declared = meta
            .and_then(|m| m.get("io.modelcontextprotocol/clientCapabilities"))
            .cloned()
            .unwrap_or_default();
        let kinds: Vec<&str> = [
            InputKind::Elicitation,
            InputKind::Roots,
            InputKind::Sampling,
        ]
        .into_iter()
        .filter(|k| declared.get(k.capability()).is_some_and(Value::is_object))
        .map(InputKind::method)
        .collect();
        e.insert("kinds".into(), json!(kinds));
    }
    // Format 6: the notifications the request's `_meta` allows (T12,
    // T13): its progress token, the log levels at or above its own.
    if notes {
        let mut allowed = serde_json::Map::new();
        if let Some(token) = meta.and_then(|m| m.get("progressToken")) {
            allowed.insert("progressToken".into(), token.clone());
        }
        if let Some(asked) = meta
            .and_then(|m| m.get(LOG_LEVEL))
            .and_then(Value::as_str)
            .and_then(|l| LOG_LEVELS.iter().position(|x| *x == l))
        {
            allowed.insert("logLevels".into(), json!(LOG_LEVELS.get(asked..)));
        }
        e.insert("notifications".into(), Value::Object(allowed));
    }
    Some(Value::Object(e))
}

fn config(name: &str) -> Config {
    let path = root().join(format!("vectors/configs/{name}.json"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Config::from_json(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn text(reply: Option<Vec<u8>>) -> Option<String> {
    reply.map(|mut r| {
        while r.last() == Some(&b'\n') {
            r.pop();
        }
        String::from_utf8(r).expect("the reference writes UTF-8")
    })
}

fn method_of(request: &[u8]) -> Option<String> {
    let v: Value = serde_json::from_slice(request).ok()?;
    v.get("method")?.as_str().map(String::from)
}

fn schema(version: &str) -> Schema {
    Schema::find(version).unwrap_or_else(|e| panic!("{e}"))
}

/// Answers a vector with the reference and checks every reply against the
/// model and the schema; returns the vector with the fresh replies.
fn answer(v: &Vector, schemas: &BTreeMap<String, Schema>) -> Vector {
    let c = config(&v.config);
    let hidden = model::catalog::hidden_ids(&c);
    let server = Server::new(c.clone());
    let mut fresh = v.clone();
    let mut rows_named: Vec<&'static str> = Vec::new();
    // For a sequence, the row that decided each step's reply.
    let mut step_rows: Vec<&'static str> = Vec::new();
    // The requests as written (a chain's filled from earlier replies).
    let mut written: Vec<Vec<u8>> = Vec::new();
    let chain = v.lines.iter().any(|l| !l.carry.is_empty());
    if chain {
        // A chain (format 6): each step a modern request of its own,
        // answered by the core at the epoch, its placeholders filled
        // from the replies before it.
        let mut replies: Vec<Option<String>> = Vec::new();
        for line in &mut fresh.lines {
            let request = fill(line, &replies);
            let (expect, reply) = answer_one(&c, &server, &request, line, &v.id, schemas);
            rows_named.extend(expect.rows());
            step_rows.push(expect.row);
            line.reply = reply;
            replies.push(line.reply.clone());
            written.push(request);
        }
    } else if v.steps {
        let mut session = Session::new(&server);
        let mut state = model::State::Fresh;
        for line in &mut fresh.lines {
            let mut out = Vec::new();
            session.handle(&line.request, &mut out);
            let (next, expect, era) = model::legacy::step_era(&c, &state, &line.request);
            expect
                .check(&c, &out)
                .unwrap_or_else(|e| panic!("{}: {e}", v.id));
            rows_named.extend(expect.rows());
            step_rows.push(expect.row);
            line.reply = text((!out.is_empty()).then_some(out));
            if let Some(reply) = &line.reply {
                let version = match era {
                    Era::Modern => Some("2026-07-28"),
                    Era::Legacy => next.version().or(state.version()),
                };
                if let Some(version) = version {
                    validate(schemas, version, &line.request, reply, &v.id);
                }
            }
            state = next;
            written.push(line.request.clone());
        }
    } else {
        let line = &mut fresh.lines[0];
        let request = line.request.clone();
        let (expect, reply) = answer_one(&c, &server, &request, line, &v.id, schemas);
        rows_named.extend(expect.rows());
        line.reply = reply;
        written.push(request);
    }
    // Format 6: a reply's `requestState` is the server's own.
    for line in &mut fresh.lines {
        line.opaque = line
            .reply
            .as_deref()
            .and_then(|r| serde_json::from_str::<Value>(r).ok())
            .filter(|r| r.pointer(OPAQUE).is_some_and(Value::is_string))
            .map(|_| vec![OPAQUE.to_string()])
            .unwrap_or_default();
    }
    assert!(
        rows_named.contains(&v.rule.as_str()),
        "{}: rule {} is not among the rows the model names for it: {rows_named:?}",
        v.id,
        v.rule
    );
    let row = rows::row(&v.rule).unwrap_or_else(|| panic!("{}: rule {} is no row", v.id, v.rule));
    fresh.level = row.level.clone();
    fresh.source = row.source.clone();
    assert!(
        v.steps || (row.expect == "silence") == fresh.lines[0].reply.is_none(),
        "{}: row {} expects {}",
        v.id,
        row.id,
        row.expect
    );
    if v.steps {
        // Each step is held, at its own row's level, to what that row
        // requires (a reply with the id, an error with its codes, ...);
        // the vector's level and source are its rule's, judged on the
        // whole sequence (textbook and canonical on every step).
        for ((line, step_row), request) in fresh.lines.iter_mut().zip(&step_rows).zip(&written) {
            let own = rows::row(step_row)
                .unwrap_or_else(|| panic!("{}: a step's row {step_row} is no row", v.id));
            line.level = Some((own.level.clone(), own.source.clone()));
            line.expect = expect(
                own,
                (request, line.reply.as_deref(), line.before.is_some()),
                true,
                &v.id,
                &hidden,
            );
        }
        if ["must", "should"].contains(&fresh.level.as_str()) {
            assert!(
                fresh.lines.iter().any(|l| l
                    .level
                    .as_ref()
                    .is_some_and(|(level, _)| *level == fresh.level)),
                "{}: no step is judged at the vector's level {}",
                v.id,
                fresh.level
            );
        }
    } else {
        let line = &mut fresh.lines[0];
        let request = written.first().map(Vec::as_slice).unwrap_or_default();
        line.expect = expect(
            row,
            (request, line.reply.as_deref(), line.before.is_some()),
            true,
            &v.id,
            &hidden,
        );
    }
    fresh
}

/// The time the vectors are answered at (Unix seconds; format 6): a
/// `requestState` issued in a chain is sealed at it and expires
/// `state_ttl_seconds` later, and the expired states of the I8 vectors
/// were sealed before it. Any fixed time gives the same bytes on every
/// run; a server replaying them runs at its own time.
const VECTOR_TIME: u64 = 1_000_000;

/// The pointer of a reply's opaque value (format 6).
const OPAQUE: &str = "/result/requestState";

/// One modern request answered by the core at the epoch and judged by the
/// model (and, for an input target, by the model of rows I1 to I15 at
/// the same time); the reply and any notifications before it validated
/// against the schema. Sets the line's `before` where the vector judges
/// notifications; a vector without `before` gets none.
fn answer_one(
    c: &Config,
    server: &Server,
    request: &[u8],
    line: &mut Line,
    id: &str,
    schemas: &BTreeMap<String, Schema>,
) -> (model::Expect, Option<String>) {
    let mut out = Vec::new();
    server.respond_at(request, &mut out, &mut Direct, VECTOR_TIME);
    let out = (!out.is_empty()).then_some(out);
    let parsed = serde_json::from_slice::<Value>(request).ok();
    let generic = model::expect_line(c, request);
    let input = parsed
        .as_ref()
        .filter(|v| generic.row.starts_with('I') && model::input::target(c, v).is_some());
    // A well-formed request to an input target is judged by the model of
    // rows I1 to I15 at the vectors' time (its states expire); any other
    // by the generic model.
    let expect = match input {
        Some(value) => {
            let got: Value = out
                .as_deref()
                .and_then(|o| serde_json::from_slice(o).ok())
                .unwrap_or_else(|| panic!("{id}: an input target's reply is one JSON line"));
            let want = model::input::check(c, value, VECTOR_TIME, &got)
                .unwrap_or_else(|e| panic!("{id}: {e}"));
            // The rows the generic model notes beside its own (I15).
            generic.notes.iter().fold(
                model::Expect::new(want.row, model::Reply::Unknown),
                |e, n| e.note(n),
            )
        }
        None => {
            generic
                .check(c, out.as_deref().unwrap_or_default())
                .unwrap_or_else(|e| panic!("{id}: {e}"));
            generic
        }
    };
    let (notes, reply) = split(out);
    match &mut line.before {
        Some(before) => *before = notes.clone(),
        None => assert!(
            notes.is_empty(),
            "{id}: the reference wrote notifications before its reply; the vector needs `before`"
        ),
    }
    if let Some(r) = &reply {
        validate(schemas, "2026-07-28", request, r, id);
        let schema = schemas.get("2026-07-28").expect("the 2026-07-28 schema");
        for note in &notes {
            let value: Value = serde_json::from_str(note).unwrap();
            schema
                .validate("ServerNotification", &value)
                .unwrap_or_else(|e| panic!("{id}: {e}\n{note}"));
        }
    }
    (expect, reply)
}

fn validate(
    schemas: &BTreeMap<String, Schema>,
    version: &str,
    request: &[u8],
    reply: &str,
    id: &str,
) {
    let schema = schemas
        .get(version)
        .unwrap_or_else(|| panic!("{id}: no schema for {version}"));
    let value = model::read_reply(format!("{reply}\n").as_bytes())
        .unwrap_or_else(|e| panic!("{id}: {e}"))
        .value;
    schema
        .validate_reply(method_of(request).as_deref(), &value)
        .unwrap_or_else(|e| panic!("{id}: {e}\n{reply}"));
}

fn load() -> BTreeMap<&'static str, (String, Vec<Vector>)> {
    FILES
        .iter()
        .map(|f| {
            let path = root().join(format!("vectors/{f}.jsonl"));
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let vectors = text.lines().map(parse).collect();
            (*f, (text, vectors))
        })
        .collect()
}

/// SHA-256 (FIPS 180-4), for the schema's digest in the manifest.
fn sha256(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in msg.chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([
                block[4 * i],
                block[4 * i + 1],
                block[4 * i + 2],
                block[4 * i + 3],
            ]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[test]
fn sha256_is_sha256() {
    assert_eq!(
        sha256(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        sha256(&[b'a'; 1000]),
        "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"
    );
}

fn manifest(files: &BTreeMap<&'static str, (String, Vec<Vector>)>) -> String {
    let path = spec_dir().map(|dir| dir.join("2026-07-28/schema.json"));
    let schema_bytes = path
        .as_deref()
        .and_then(|p| std::fs::read(p).ok())
        .unwrap_or_else(|| panic!("{}", missing(path.as_deref())));
    let mut by_file = serde_json::Map::new();
    let mut by_section: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_flag: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_level: BTreeMap<String, u64> = BTreeMap::new();
    let mut total = 0;
    for f in FILES {
        let vectors = &files[f].1;
        by_file.insert(f.to_string(), json!(vectors.len()));
        for v in vectors {
            total += 1;
            let section = rows::row(&v.rule).map_or("?".into(), |r| r.section.clone());
            *by_section.entry(section).or_default() += 1;
            for flag in &v.flags {
                *by_flag.entry(flag.clone()).or_default() += 1;
            }
            *by_level.entry(v.level.clone()).or_default() += 1;
        }
    }
    let m = json!({
        "format_version": FORMAT_VERSION,
        "reference_version": env!("CARGO_PKG_VERSION"),
        "protocol_version": "2026-07-28",
        "spec_commit": SPEC_COMMIT,
        "schema": "schema/2026-07-28/schema.json",
        "schema_sha256": sha256(&schema_bytes),
        "files": FILES.iter().map(|f| format!("{f}.jsonl")).collect::<Vec<_>>(),
        "fixtures": ["textbook", "stock", "short-lines", "legacy", "catalog", "conformance"],
        "counts": {
            "total": total,
            "by_file": by_file,
            "by_section": by_section,
            "by_flag": by_flag,
            "by_level": by_level,
        }
    });
    serde_json::to_string_pretty(&m).unwrap() + "\n"
}

/// Every committed request, answered again by the reference, gives the
/// committed reply byte for byte (the model and the schema agreeing), and
/// the files and the manifest are exactly what a regeneration writes.
#[test]
fn the_vectors_are_the_reference_s_answers() {
    let schemas: BTreeMap<String, Schema> = ["2026-07-28", "2025-11-25", "2025-06-18"]
        .iter()
        .map(|v| (v.to_string(), schema(v)))
        .collect();
    let files = load();
    let mut fresh_files = BTreeMap::new();
    let mut differences = Vec::new();
    for (f, (committed, vectors)) in &files {
        let fresh: Vec<Vector> = vectors.iter().map(|v| answer(v, &schemas)).collect();
        let text: String = fresh.iter().map(|v| render(v) + "\n").collect();
        if text != *committed {
            for (a, b) in committed.lines().zip(text.lines()) {
                if a != b {
                    differences.push(format!(
                        "vectors/{f}.jsonl\n  committed {a}\n  fresh     {b}"
                    ));
                }
            }
            if update() {
                std::fs::write(root().join(format!("vectors/{f}.jsonl")), &text).unwrap();
            }
        }
        fresh_files.insert(*f, (text, fresh));
    }
    let manifest = manifest(&fresh_files);
    let path = root().join("vectors/manifest.json");
    if update() {
        std::fs::write(&path, &manifest).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if !update() {
        assert!(
            differences.is_empty(),
            "{} vectors differ from the reference's answers (rerun with MCP_UPDATE_VECTORS=1 and review the diff):\n{}",
            differences.len(),
            differences.join("\n")
        );
        assert_eq!(committed, manifest, "vectors/manifest.json is stale");
    }
}

/// Both ways: every row of docs/rows.json has vectors (three or more when
/// its outcome is an error), every vector's rule is a row, ids are unique,
/// fields take their documented values, and every fixture named is a
/// configuration file that loads.
#[test]
fn every_row_has_vectors_and_every_vector_a_row() {
    let files = load();
    let mut per_rule: BTreeMap<&str, usize> = BTreeMap::new();
    let mut ids = std::collections::BTreeSet::new();
    for (f, (_, vectors)) in &files {
        for v in vectors {
            assert!(
                rows::row(&v.rule).is_some(),
                "{}: rule {} is no row",
                v.id,
                v.rule
            );
            assert!(ids.insert(v.id.clone()), "{} twice", v.id);
            *per_rule.entry(v.rule.as_str()).or_default() += 1;
            let row = rows::row(&v.rule).expect("a row");
            assert_eq!(
                (&v.level, &v.source),
                (&row.level, &row.source),
                "{}: a vector's level and source are its row's",
                v.id
            );
            for flag in &v.flags {
                assert!(
                    ["decision", "generic", "generated"].contains(&flag.as_str()),
                    "{}: {flag}",
                    v.id
                );
            }
            assert_eq!(
                v.flags.contains(&"generic".to_string()),
                *f == "generic",
                "{}",
                v.id
            );
            assert!(!v.comment.is_empty(), "{}", v.id);
            assert!(
                *f == "generic" || v.config == *f,
                "{}: a fixture's vectors live in vectors/<fixture>.jsonl",
                v.id
            );
            let _ = config(&v.config);
        }
    }
    // The HTTP rows (H1 to H17) have no stdio vectors: their vectors are
    // HTTP exchanges, not yet committed (issue 26 leaves vectors/http.jsonl
    // open); tests/http.rs holds the binding to the model on every one.
    // Nor have the authorization rows (A1 to A9), held to the model in
    // tests/http_auth.rs.
    for row in rows::rows()
        .iter()
        .filter(|r| !r.id.starts_with(['H', 'A']))
    {
        let n = per_rule.get(row.id.as_str()).copied().unwrap_or(0);
        let want = if row.code.is_some() { 3 } else { 1 };
        assert!(n >= want, "row {} has {n} vectors, needs {want}", row.id);
    }
    let example = std::fs::read_to_string(root().join("data/config.example.json")).unwrap();
    let catalog_fixture =
        std::fs::read_to_string(root().join("vectors/configs/catalog.json")).unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&example).unwrap(),
        serde_json::from_str::<Value>(&catalog_fixture).unwrap(),
        "vectors/configs/catalog.json is data/config.example.json"
    );
    let conformance = |path: &str| {
        serde_json::from_str::<Value>(&std::fs::read_to_string(root().join(path)).unwrap()).unwrap()
    };
    assert_eq!(
        conformance("data/conformance.json"),
        conformance("vectors/configs/conformance.json"),
        "vectors/configs/conformance.json is data/conformance.json"
    );
    assert_eq!(
        std::fs::read_to_string(root().join("vectors/configs/textbook.json")).unwrap(),
        Config::default().to_json() + "\n",
        "vectors/configs/textbook.json is the default configuration"
    );
}

/// The textbook's pair: Example 43.2's reply is the book's line (the copy in
/// data/), and the forbidden, not-found and self-declared administrator
/// replies are the same bytes.
#[test]
fn the_textbook_vectors_hold_the_book_s_bytes_and_the_forbidden_pair() {
    let files = load();
    let reply = |id: &str| {
        files["textbook"]
            .1
            .iter()
            .find(|v| v.id == id)
            .and_then(|v| v.lines[0].reply.clone())
            .unwrap_or_else(|| panic!("no vector {id} with a reply"))
    };
    let book = std::fs::read_to_string(root().join("data/example-43.2.response.json")).unwrap();
    assert_eq!(reply("textbook/W1-example-43.2"), book.trim_end());
    let forbidden = reply("textbook/T5-forbidden");
    assert_eq!(forbidden, reply("textbook/T5-not-found"));
    assert_eq!(forbidden, reply("textbook/M16-administrator"));
}
