//! The two replayers' judgement of a reply, fed fault transcripts without
//! any server: for every step of every committed vector, the reference's
//! reply and lines a faulty server could send instead (none when the
//! server died, a silence, another id, a result for an error or an error
//! for a result, another error code, another `jsonrpc`), judged by
//! `mcp_reference_tools::vectors::failed_levels` and by
//! `scripts/replay_vectors.py`'s `failed_levels` (imported, no process
//! started). Both give the same levels for every line; the reference's
//! reply fails nothing; every fault where a reply is due fails some level,
//! and a line or a death where silence is due fails too. Where a step
//! judges notifications (format 6, `before`), each line comes after the
//! reference's notifications, and the same notifications in reverse order
//! are a fault of their own. The mutation testing of the oracle
//! (docs/fuzzing.md) runs this test.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use mcp_reference_tools::vectors::format::failed_levels_with;
use mcp_reference_tools::vectors::{FIXTURES, Got, Vector, select};
use serde_json::{Value, json};

/// One fault transcript: the vector, the step, what came back.
struct Case {
    fixture: &'static str,
    id: String,
    step: usize,
    fault: &'static str,
    got: Option<Vec<u8>>,
    /// With no line: whether the server showed it went past the request.
    alive: bool,
    /// The notification lines before it (the reference's, where the step
    /// has `before`).
    notes: Vec<String>,
}

/// The lines a faulty server could send instead of `reply` (a JSON-RPC
/// response line).
fn faults(reply: &str) -> Vec<(&'static str, Vec<u8>)> {
    let Ok(Value::Object(v)) = serde_json::from_str::<Value>(reply) else {
        return Vec::new();
    };
    let id = v.get("id").cloned().unwrap_or(Value::Null);
    let mut out = vec![("reference", reply.as_bytes().to_vec())];
    let mut other_id = v.clone();
    other_id.insert("id".into(), json!("mcp-judgement-other-id"));
    out.push((
        "another id",
        Value::Object(other_id).to_string().into_bytes(),
    ));
    let mut old = v.clone();
    old.insert("jsonrpc".into(), json!("1.0"));
    out.push(("jsonrpc 1.0", Value::Object(old).to_string().into_bytes()));
    if let Some(code) = v
        .get("error")
        .and_then(|e| e.get("code"))
        .and_then(Value::as_i64)
    {
        let result = json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete"}});
        out.push(("a result for an error", result.to_string().into_bytes()));
        let mut other = v.clone();
        other.insert(
            "error".into(),
            json!({"code": if code == -32603 { -32000 } else { -32603 }, "message": "m"}),
        );
        out.push((
            "another code",
            Value::Object(other).to_string().into_bytes(),
        ));
    } else {
        let error = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": "m"}});
        out.push(("an error for a result", error.to_string().into_bytes()));
    }
    out
}

fn cases() -> (Vec<Case>, Vec<(String, Vector)>) {
    let mut cases = Vec::new();
    let mut vectors = Vec::new();
    for fixture in FIXTURES {
        for v in select(Some(fixture)).expect("the fixture exists") {
            if v.config != fixture {
                continue;
            }
            for (n, step) in v.steps.iter().enumerate() {
                let before = step.before.clone().unwrap_or_default();
                let case = |fault, got, alive| Case {
                    fixture,
                    id: v.id.clone(),
                    step: n,
                    fault,
                    got,
                    alive,
                    notes: before.clone(),
                };
                if before.len() > 1
                    && let Some(reply) = &step.reply
                {
                    let mut reversed = case(
                        "notifications in reverse order",
                        Some(reply.as_bytes().to_vec()),
                        true,
                    );
                    reversed.notes.reverse();
                    cases.push(reversed);
                }
                cases.push(case("died", None, false));
                cases.push(case("silent", None, true));
                match &step.reply {
                    Some(reply) => {
                        for (fault, line) in faults(reply) {
                            cases.push(case(fault, Some(line), true));
                        }
                    }
                    None => cases.push(case(
                        "a line where silence is due",
                        Some(
                            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"m"}}"#
                                .to_vec(),
                        ),
                        true,
                    )),
                }
            }
            vectors.push((fixture.to_string(), v));
        }
    }
    (cases, vectors)
}

/// The Python replayer's levels for each case, in order.
fn python(cases: &[Case]) -> Vec<Vec<String>> {
    let scripts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    let program = r#"
import json, sys
sys.path.insert(0, sys.argv[1])
import replay_vectors as r
vectors = {}
for line in sys.stdin:
    c = json.loads(line)
    key = c["fixture"]
    if key not in vectors:
        vectors[key] = {v["id"]: v for v in r.load(sys.argv[2], key)}
    v = vectors[key][c["id"]]
    s = v["steps"][c["step"]]
    got = c["got"]
    got = got.encode("utf-8") if got is not None else (r.SILENCE if c["alive"] else r.NOTHING)
    notes = [n.encode("utf-8") for n in c["notes"]]
    print(json.dumps(r.failed_levels(v, None, s, got, notes)))
"#;
    let mut child = Command::new("python3")
        .args(["-c", program])
        .arg(&scripts)
        .arg(scripts.join("../vectors"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut input = Vec::new();
    for c in cases {
        let got = c
            .got
            .as_ref()
            .map(|g| String::from_utf8_lossy(g).into_owned());
        let line = json!({"fixture": c.fixture, "id": c.id, "step": c.step, "got": got,
            "alive": c.alive, "notes": c.notes});
        input.extend(line.to_string().into_bytes());
        input.push(b'\n');
    }
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("python3 ends");
    let _ = writer.join();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a list of levels"))
        .collect()
}

#[test]
fn both_replayers_judge_every_fault_transcript_alike_and_fail_it() {
    let (cases, vectors) = cases();
    assert!(cases.len() > 2000, "{}", cases.len());
    let py = python(&cases);
    assert_eq!(py.len(), cases.len());
    let mut failing = 0;
    for (c, py) in cases.iter().zip(&py) {
        let (_, v) = vectors
            .iter()
            .find(|(f, v)| f == c.fixture && v.id == c.id)
            .expect("the vector");
        let step = &v.steps[c.step];
        let got = match (&c.got, c.alive) {
            (Some(line), _) => Got::Line(line),
            (None, true) => Got::Silence,
            (None, false) => Got::Nothing,
        };
        let notes: Vec<Vec<u8>> = c.notes.iter().map(|n| n.clone().into_bytes()).collect();
        let rust: Vec<String> = failed_levels_with(v, None, step, got, &notes)
            .into_iter()
            .map(String::from)
            .collect();
        let what = format!("{} step {} ({})", c.id, c.step + 1, c.fault);
        assert_eq!(&rust, py, "the replayers disagree on {what}");
        let passes = match (c.fault, &step.reply) {
            ("reference", _) => true,
            ("silent", None) => true,
            // Another code where the source allows any (`codes` absent)
            // fails at textbook and canonical only; still a failure.
            _ => false,
        };
        assert_eq!(rust.is_empty(), passes, "{what}: failed at {rust:?}");
        failing += usize::from(!passes);
    }
    println!(
        "{} fault transcripts, {failing} failing in both replayers",
        cases.len()
    );
}
