//! A real client's judged session held to its committed expectation, for
//! the tests that run one against `mcp-reference judge`
//! (`tests/judge_sdk.rs`, `tests/judge_inspector.rs`,
//! `tests/judge_ts_sdk.rs`), through `#[path]`; its [`ReportFile`] also
//! serves `tests/judge_ending.rs` and `tests/judge_provoke.rs`.
//!
//! An expectation (`tests/judge_expected/<client>.json`) holds, per
//! binding, the verdict and every rule's status (`pass`, `fail` or
//! `not-run`), each one that is not `pass` with a one-sentence `why`
//! naming the rule's statement id. [`check`] compares a final report with
//! it: the same rules, no more and no fewer; the binding; an ended
//! session; the client's `clientInfo` as sent; then the verdict and the
//! statuses, a difference shown both ways. A real client's failure is
//! then a committed, argued expectation, never a broken build, and any
//! change of status fails.
//!
//! Two additions, for a client whose one run holds more than one session
//! or whose behaviour races the judge (`tests/judge_ts_sdk.rs`):
//!
//! - an entry's key need not be a binding: `"binding": "stdio"` names the
//!   report's binding when it is not the key (`stdio-probe`, a second
//!   stdio session of the same run);
//! - a rule's `also` is a second status it may show instead, when what the
//!   judge can observe genuinely varies between runs of the same client
//!   (two events of the client's arriving in either order); only on a
//!   SHOULD rule, which never moves the verdict, so the verdict stays one
//!   fixed expectation; such an entry always carries its `why`, which
//!   argues both.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// A report file under the temporary folder, removed when dropped.
pub(crate) struct ReportFile(pub(crate) PathBuf);

impl ReportFile {
    pub(crate) fn new(client: &str, binding: &str) -> ReportFile {
        let name = format!(
            "mcp-reference-judge-{client}-{}-{binding}.json",
            std::process::id()
        );
        let path = std::env::temp_dir().join(name);
        let _ = std::fs::remove_file(&path);
        ReportFile(path)
    }

    pub(crate) fn arg(&self) -> String {
        self.0.to_string_lossy().into_owned()
    }

    /// The report as JSON.
    pub(crate) fn read(&self) -> Value {
        let text = std::fs::read_to_string(&self.0)
            .unwrap_or_else(|e| panic!("the report {}: {e}", self.0.display()));
        serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("the report is not JSON ({e}): {text}"))
    }
}

impl Drop for ReportFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The committed expectation `tests/judge_expected/<file>`.
pub(crate) fn expected(file: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/judge_expected")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// The report's verdict and each rule's status (id -> status).
fn observed(report: &Value) -> Value {
    let rules: BTreeMap<String, Value> = report["rules"]
        .as_array()
        .expect("the report has rules")
        .iter()
        .map(|r| {
            let id = r["id"].as_str().expect("a rule has an id").to_owned();
            (id, r["status"].clone())
        })
        .collect();
    json!({ "verdict": report["verdict"], "rules": rules })
}

/// The expectation of a binding in the same shape: its `why`s left out.
fn statuses(expected: &Value) -> Value {
    let rules: BTreeMap<String, Value> = expected["rules"]
        .as_object()
        .expect("the expectation has rules")
        .iter()
        .map(|(id, e)| (id.clone(), e["status"].clone()))
        .collect();
    json!({ "verdict": expected["verdict"], "rules": rules })
}

/// Whether `status` is one `entry` allows: its `status`, or its `also`.
fn allowed(entry: &Value, status: &Value) -> bool {
    entry["status"] == *status || (entry["also"].is_string() && entry["also"] == *status)
}

/// Checks the final report of `binding` (an entry of the expectation's
/// `bindings`) against the expectation in `file`, whose client sends
/// `client` as its `clientInfo`.
pub(crate) fn check(file: &str, binding: &str, report: &Value, client: &Value) {
    let all = expected(file);
    let want = &all["bindings"][binding];
    assert!(want.is_object(), "{file} has no binding {binding}");
    let shown = serde_json::to_string_pretty(report).unwrap_or_default();

    // Well formed: the binding, an ended session, the client as sent.
    let wire = want["binding"].as_str().unwrap_or(binding);
    assert_eq!(report["binding"], wire, "{shown}");
    assert!(
        report["ended"].is_string(),
        "the session never ended:\n{shown}"
    );
    assert_eq!(
        &report["client"], client,
        "client is not the clientInfo as sent:\n{shown}"
    );
    assert_eq!(all["client"], client["name"], "{file} names another client");

    // The same rules, no more and no fewer.
    let mut in_report: Vec<String> = report["rules"]
        .as_array()
        .expect("the report has rules")
        .iter()
        .map(|r| r["id"].as_str().expect("a rule has an id").to_owned())
        .collect();
    let in_report_len = in_report.len();
    in_report.sort();
    in_report.dedup();
    assert_eq!(
        in_report.len(),
        in_report_len,
        "a rule appears twice:\n{shown}"
    );
    let in_expected: Vec<String> = want["rules"]
        .as_object()
        .expect("the expectation has rules")
        .keys()
        .cloned()
        .collect();
    let missing: Vec<_> = in_expected
        .iter()
        .filter(|i| !in_report.contains(i))
        .collect();
    let extra: Vec<_> = in_report
        .iter()
        .filter(|i| !in_expected.contains(i))
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{binding}: rules expected but not in the report: {missing:?}; in the report but not \
         expected: {extra:?}"
    );

    // Every entry that is not a pass says why in one sentence naming its
    // statement; a pass says nothing.
    for rule in report["rules"].as_array().into_iter().flatten() {
        let id = rule["id"].as_str().unwrap_or_default();
        let statement = rule["statement"].as_str().unwrap_or_default();
        let entry = &want["rules"][id];
        let why = entry["why"].as_str();
        if !entry["also"].is_null() {
            let also = entry["also"].as_str().unwrap_or_default();
            assert!(
                ["pass", "fail", "not-run"].contains(&also) && entry["status"] != also,
                "{binding} {id}: also is another status, not {}",
                entry["also"]
            );
            assert_eq!(
                rule["level"], "should",
                "{binding} {id}: an also on a MUST would make the verdict vary"
            );
        }
        if entry["status"] == "pass" && entry["also"].is_null() {
            assert!(why.is_none(), "{binding} {id}: a pass carries no why");
        } else {
            let why = why.unwrap_or_else(|| panic!("{binding} {id}: no why"));
            assert!(
                why.contains(statement) && why.ends_with('.') && !why.contains(". "),
                "{binding} {id}: the why is not one sentence naming {statement}: {why}"
            );
        }
    }

    // The verdict and the statuses.
    // A rule showing its `also` is compared as if it showed its status.
    let mut got = observed(report);
    for (id, entry) in want["rules"].as_object().into_iter().flatten() {
        if allowed(entry, &got["rules"][id]) {
            got["rules"][id] = entry["status"].clone();
        }
    }
    let expected = statuses(want);
    if got != expected {
        let differing: Vec<String> = report["rules"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|r| {
                let id = r["id"].as_str().unwrap_or_default();
                !allowed(&want["rules"][id], &r["status"])
            })
            .map(|r| {
                format!(
                    "  {}: expected {}, got {} ({})",
                    r["id"],
                    want["rules"][r["id"].as_str().unwrap_or_default()]["status"],
                    r["status"],
                    r["reason"]
                )
            })
            .collect();
        panic!(
            "{binding}: the judge's report differs from tests/judge_expected/{file}\n\
             verdict: expected {}, got {}\n{}\n--- expected ---\n{}\n--- got ---\n{}",
            expected["verdict"],
            got["verdict"],
            differing.join("\n"),
            serde_json::to_string_pretty(&expected).unwrap_or_default(),
            serde_json::to_string_pretty(&got).unwrap_or_default(),
        );
    }
}
