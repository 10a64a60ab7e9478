//! The committed test vectors (`vectors/`, format in `docs/vectors.md`),
//! built into this binary, and how a reply is matched against a vector's
//! expected line (`exact`, `json`, `error`, `result`). Like [`crate::check`],
//! this module never calls the reference's core: it compares what a server
//! writes with the committed lines. `scripts/replay_vectors.py` is the same
//! replayer in Python's standard library; `tools/tests/vectors.rs` holds the
//! two to the same verdicts.
//!
//! The rows a vector exercises are named by its `rule` (a row id of
//! docs/behavior.md); no rule is decided here.

mod replay;

use std::collections::HashMap;

use serde_json::Value;
use serde_json::value::RawValue;

pub use self::replay::{Options, Outcome, Report, run};

/// The vector files, in replay order, with their text.
const FILES: [(&str, &str); 5] = [
    ("generic", include_str!("../../../vectors/generic.jsonl")),
    ("textbook", include_str!("../../../vectors/textbook.jsonl")),
    ("stock", include_str!("../../../vectors/stock.jsonl")),
    (
        "short-lines",
        include_str!("../../../vectors/short-lines.jsonl"),
    ),
    ("legacy", include_str!("../../../vectors/legacy.jsonl")),
];

/// The fixtures (`vectors/configs/<name>.json`) a server can be started
/// with for `--fixture`.
pub const FIXTURES: [&str; 4] = ["textbook", "stock", "short-lines", "legacy"];

/// One request line and the line expected back (`None`: silence).
#[derive(Debug, Clone)]
pub struct Step {
    /// The bytes to write, without the newline.
    pub request: Vec<u8>,
    /// The expected reply line, or `None` for no reply.
    pub reply: Option<String>,
}

/// One vector.
#[derive(Debug, Clone)]
pub struct Vector {
    /// Its stable id.
    pub id: String,
    /// The docs/behavior.md row it exercises.
    pub rule: String,
    /// Its flags (`must`, `decision`, `generic`, `generated`).
    pub flags: Vec<String>,
    /// How a reply is compared: `exact`, `json`, `error` or `result`.
    pub matching: String,
    /// Its steps: one for a single vector.
    pub steps: Vec<Step>,
    /// Whether it is a sequence (replayed on a fresh process, stdin closed
    /// after the last step).
    pub sequence: bool,
}

impl Vector {
    /// Whether the vector carries the `must` flag.
    pub fn is_must(&self) -> bool {
        self.flags.iter().any(|f| f == "must")
    }
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
    Ok(Step { request, reply })
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
        None => (vec![step(&v)?], false),
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
    Ok(Vector {
        id: text("id")?,
        rule: text("rule")?,
        flags,
        matching: text("match")?,
        steps,
        sequence,
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

/// Whether `got` matches `expected` under `matching` (docs/vectors.md).
pub fn matches(matching: &str, expected: &str, got: &[u8]) -> bool {
    if matching == "exact" {
        return got == expected.as_bytes();
    }
    let Ok(got) = std::str::from_utf8(got) else {
        return false;
    };
    let (Ok(want), Ok(have)) = (
        serde_json::from_str::<Value>(expected),
        serde_json::from_str::<Value>(got),
    ) else {
        return false;
    };
    if !same_id(got, expected) || have.get("jsonrpc") != Some(&Value::String("2.0".into())) {
        return false;
    }
    match matching {
        "json" => want == have,
        "error" => {
            have.get("result").is_none()
                && have.pointer("/error/code").is_some()
                && have.pointer("/error/code") == want.pointer("/error/code")
        }
        "result" => {
            have.get("error").is_none()
                && have.get("result").is_some_and(Value::is_object)
                && have.pointer("/result/resultType") == Some(&Value::String("complete".into()))
        }
        _ => false,
    }
}
