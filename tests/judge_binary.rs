//! The faulty client fixture (`examples/faulty_client.rs`) against the real
//! `mcp-reference judge --config data/conformance.json` (issue 48, "Pure
//! and proven"; docs/judge.md, "The faulty client"): the correct session
//! passes with every rule run that a client can be made to break, and each
//! `--fault RULE_ID`, on every binding it applies to, fails exactly its
//! rule, at its level, with evidence, and nothing else; the verdict is FAIL
//! exactly when that level is must. The docs' table of faults is
//! regenerated from these runs and must equal the committed one, cell for
//! cell; every rule of `RULES` has a fault on each binding of its scope or
//! is listed in the docs as left out on that binding.
//!
//! Over stdio the fixture spawns `judge --report FILE` and closes its
//! stdin; over HTTP the test starts `judge --http 127.0.0.1:0 --report
//! FILE`, reads the announced address, runs the fixture with the URL, then
//! SIGTERMs the judge and reads the final report. Reports go under the
//! system's temporary folder and are removed.
//!
//! The rules on requests in flight (those whose `needs` names
//! `--slow-tool`) need the judge to hold a tool's answers: the HTTP runs of
//! the correct session and of those rules' faults start the judge with
//! `--slow-tool test_simple_text=1000` and tell the fixture with
//! `--held-tool test_simple_text`, which then sends two calls of it in
//! flight at once. The other HTTP runs hold nothing, so their sessions are
//! the stdio ones message for message and a fault's report line is the
//! same over both bindings (and no run waits on a held answer it does not
//! use). The hold only orders events; nothing is timed.
//!
//! The fixture is an example: `cargo test` builds it before the tests, a
//! narrow `cargo test --test judge_binary` does not (`cargo build
//! --release --examples` first; the test says so when it is missing).
//!
//! Spec: 2026-07-28, the pages of the rules (`src/judge/rules.rs`).

#[path = "support/doc_table.rs"]
mod doc_table;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_reference::judge::{Level, RULES, Scope};
use serde_json::Value;

#[path = "support/http_server.rs"]
mod http_server;
use http_server::{BIN, Server};

/// The two bindings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Binding {
    Stdio,
    Http,
}

/// One run: the fault (none for the correct session) over a binding.
#[derive(Debug, Clone)]
struct Case {
    fault: Option<String>,
    binding: Binding,
}

/// What a run left: the final report, and the judge's summary lines.
#[derive(Debug)]
struct Outcome {
    report: Value,
    summary: Vec<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The tool the in-flight runs hold, and the flag that holds it (a tool
/// the fixture calls anyway; the delay orders events, nothing is timed).
const HELD: &str = "test_simple_text";
const SLOW_FLAG: &str = "test_simple_text=1000";

/// Whether `rule` is exercised only with two requests in flight, so only
/// under `--slow-tool` (its `needs` says so).
fn in_flight_rule(rule: &str) -> bool {
    RULES
        .iter()
        .any(|r| r.id == rule && r.needs.contains("--slow-tool"))
}

/// Whether the run holds a tool: over HTTP, the correct session and the
/// faults of the in-flight rules.
fn held(case: &Case) -> bool {
    case.binding == Binding::Http && case.fault.as_deref().is_none_or(in_flight_rule)
}

fn config() -> String {
    root()
        .join("data/conformance.json")
        .to_string_lossy()
        .into_owned()
}

/// The fixture, next to this test's executable (`target/PROFILE/deps/..`
/// beside `target/PROFILE/examples/faulty_client`).
fn fixture() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test runs from target/PROFILE/deps");
    let path = profile
        .join("examples")
        .join(format!("faulty_client{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "{} is missing: the examples are built by `cargo test` but not by a narrow \
         `cargo test --test judge_binary`; run `cargo build --release --examples` first",
        path.display()
    );
    path
}

/// The fixture's faults, from `--list`: (rule, bindings, level).
fn faults() -> &'static Vec<(String, Vec<Binding>, String)> {
    static FAULTS: OnceLock<Vec<(String, Vec<Binding>, String)>> = OnceLock::new();
    FAULTS.get_or_init(|| {
        let out = Command::new(fixture())
            .arg("--list")
            .output()
            .expect("faulty_client --list runs");
        assert!(out.status.success(), "faulty_client --list failed");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|line| {
                let cells: Vec<&str> = line.split('\t').collect();
                assert_eq!(cells.len(), 4, "a --list line of 4 cells: {line}");
                let bindings = cells[1]
                    .split(',')
                    .map(|b| match b {
                        "stdio" => Binding::Stdio,
                        "http" => Binding::Http,
                        other => panic!("unknown binding {other} in {line}"),
                    })
                    .collect();
                (cells[0].to_owned(), bindings, cells[2].to_owned())
            })
            .collect()
    })
}

/// A report path of its own under the temporary folder.
fn report_path() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "judge-binary-{}-{}.json",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

fn fault_args(case: &Case) -> Vec<String> {
    case.fault
        .iter()
        .flat_map(|f| ["--fault".to_owned(), f.clone()])
        .collect()
}

fn summary_of(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter(|l| l.starts_with("mcp-reference judge: "))
        .map(str::to_owned)
        .collect()
}

fn read_report(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("the report {}: {e}", path.display()));
    let _ = std::fs::remove_file(path);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("the report is not JSON ({e}): {text}"))
}

/// Runs one case against the real judge.
fn run(case: &Case) -> Outcome {
    let report = report_path();
    let report_arg = report.to_string_lossy().into_owned();
    match case.binding {
        Binding::Stdio => {
            let out = Command::new(fixture())
                .args(fault_args(case))
                .args(["--stdio", "--", BIN, "judge", "--report", &report_arg])
                .args(["--config", &config()])
                .output()
                .expect("the fixture runs");
            let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
            assert!(
                out.status.success(),
                "{case:?}: the fixture failed: {stderr}"
            );
            Outcome {
                report: read_report(&report),
                summary: summary_of(&stderr),
            }
        }
        Binding::Http => {
            let config = config();
            let mut judge_args = vec!["--report", report_arg.as_str(), "--config", &config];
            let mut fixture_args = vec!["--http".to_owned(), String::new()];
            if held(case) {
                judge_args.extend(["--slow-tool", SLOW_FLAG]);
                fixture_args.extend(["--held-tool".to_owned(), HELD.to_owned()]);
            }
            let server = Server::start_command("judge", "127.0.0.1:0", &judge_args);
            fixture_args[1] = server.url();
            let out = Command::new(fixture())
                .args(fault_args(case))
                .args(&fixture_args)
                .output()
                .expect("the fixture runs");
            let (code, stderr) = server.terminate();
            let client = String::from_utf8_lossy(&out.stderr).into_owned();
            assert!(
                out.status.success(),
                "{case:?}: the fixture failed: {client}"
            );
            assert_eq!(code, Some(0), "{case:?}: the judge's exit: {stderr}");
            Outcome {
                report: read_report(&report),
                summary: summary_of(&stderr),
            }
        }
    }
}

/// Every run, once for the whole file: the correct session on both
/// bindings, then every fault on every binding it applies to (four at a
/// time: each run is a few processes, mostly waiting).
fn runs() -> &'static Vec<(Case, Outcome)> {
    static RUNS: OnceLock<Vec<(Case, Outcome)>> = OnceLock::new();
    RUNS.get_or_init(|| {
        let mut cases = vec![
            Case {
                fault: None,
                binding: Binding::Stdio,
            },
            Case {
                fault: None,
                binding: Binding::Http,
            },
        ];
        for (fault, bindings, _) in faults() {
            for binding in bindings {
                cases.push(Case {
                    fault: Some(fault.clone()),
                    binding: *binding,
                });
            }
        }
        let next = AtomicUsize::new(0);
        let mut done: Vec<(usize, Case, Outcome)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..4)
                .map(|_| {
                    scope.spawn(|| {
                        let mut mine = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(case) = cases.get(i) else { break };
                            mine.push((i, case.clone(), run(case)));
                        }
                        mine
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().expect("a worker ran its cases"))
                .collect()
        });
        done.sort_by_key(|(i, _, _)| *i);
        done.into_iter().map(|(_, c, o)| (c, o)).collect()
    })
}

fn status<'r>(report: &'r Value, rule: &str) -> Option<&'r Value> {
    report["rules"]
        .as_array()
        .and_then(|rules| rules.iter().find(|r| r["id"] == rule))
}

/// The rules the docs list as left out, with the binding ("### Rules left
/// out" under "## The faulty client": one `- \`id\`` bullet each, `over
/// stdio` or `over HTTP` before its first colon when only one binding
/// leaves it out).
fn left_out(doc: &str) -> BTreeSet<(String, Binding)> {
    section(doc)
        .split("\n### Rules left out")
        .nth(1)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.strip_prefix("- `"))
        .flat_map(|l| {
            let (id, rest) = l.split_once('`').unwrap_or((l, ""));
            let head = rest.split(':').next().unwrap_or_default();
            let bindings = match (head.contains("over stdio"), head.contains("over HTTP")) {
                (true, false) => vec![Binding::Stdio],
                (false, true) => vec![Binding::Http],
                _ => vec![Binding::Stdio, Binding::Http],
            };
            bindings.into_iter().map(move |b| (id.to_owned(), b))
        })
        .collect()
}

/// Whether the docs leave `id` out over `binding`.
fn is_left_out(left: &BTreeSet<(String, Binding)>, id: &str, binding: Binding) -> bool {
    left.contains(&(id.to_owned(), binding))
}

fn doc() -> String {
    std::fs::read_to_string(root().join("docs/judge.md")).expect("docs/judge.md")
}

/// The text of "## The faulty client", up to the next `## ` heading.
fn section(doc: &str) -> &str {
    doc.split("\n## The faulty client")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap_or_default()
}

fn level_name(level: Level) -> &'static str {
    level.name()
}

#[test]
fn the_correct_session_passes_with_every_provokable_rule_run() {
    let left = left_out(&doc());
    for (case, outcome) in runs().iter().filter(|(c, _)| c.fault.is_none()) {
        let report = &outcome.report;
        assert_eq!(report["verdict"], "PASS", "{case:?}: {report:#}");
        let rules = report["rules"].as_array().expect("rules");
        assert!(!rules.is_empty(), "{case:?}: no rules");
        for rule in rules {
            let id = rule["id"].as_str().unwrap_or_default();
            let want = if is_left_out(&left, id, case.binding) {
                "not-run"
            } else {
                "pass"
            };
            assert_eq!(rule["status"], want, "{case:?}: {id}: {rule:#}");
        }
        assert_eq!(
            outcome
                .summary
                .iter()
                .filter(|l| l.contains(": FAIL "))
                .count(),
            0,
            "{case:?}: {:?}",
            outcome.summary
        );
    }
}

#[test]
fn each_fault_fails_exactly_its_rule_at_its_level() {
    let faulted: Vec<_> = runs().iter().filter(|(c, _)| c.fault.is_some()).collect();
    assert!(faulted.len() >= 42, "only {} faulted runs", faulted.len());
    for (case, outcome) in faulted {
        let fault = case.fault.as_deref().unwrap_or_default();
        let report = &outcome.report;
        let rule = RULES
            .iter()
            .find(|r| r.id == fault)
            .unwrap_or_else(|| panic!("{fault} is no rule"));
        let line = status(report, fault).unwrap_or_else(|| panic!("{case:?}: {fault} absent"));
        assert_eq!(line["status"], "fail", "{case:?}: {line:#}");
        assert_eq!(line["level"], level_name(rule.level), "{case:?}");
        let evidence = line["evidence"].as_array().map_or(0, Vec::len);
        assert!(evidence >= 1, "{case:?}: no evidence: {line:#}");
        assert_eq!(line["failures"], 1, "{case:?}: broken once: {line:#}");
        for other in report["rules"].as_array().expect("rules") {
            if other["id"] != fault {
                assert_ne!(other["status"], "fail", "{case:?} also fails {other:#}");
            }
        }
        let verdict = match rule.level {
            Level::Must => "FAIL",
            Level::Should => "PASS",
        };
        assert_eq!(report["verdict"], verdict, "{case:?}");
        let failing: Vec<_> = outcome
            .summary
            .iter()
            .filter(|l| l.contains(": FAIL "))
            .collect();
        assert_eq!(failing.len(), 1, "{case:?}: {:?}", outcome.summary);
        let prefix = format!("mcp-reference judge: FAIL {} {fault} (", rule.level.name());
        assert!(failing[0].starts_with(&prefix), "{case:?}: {}", failing[0]);
        // Without a held tool the fixture sends no two requests in flight:
        // the in-flight rules are not run at all.
        if !held(case) {
            for r in RULES.iter().filter(|r| in_flight_rule(r.id)) {
                let line = status(report, r.id).unwrap_or_else(|| panic!("{case:?}: {}", r.id));
                assert_eq!(line["status"], "not-run", "{case:?}: {line:#}");
            }
        }
    }
}

#[test]
fn every_rule_has_a_fault_on_each_of_its_bindings_or_a_reason() {
    let left = left_out(&doc());
    let listed: BTreeSet<(String, Binding)> = faults()
        .iter()
        .flat_map(|(id, bindings, _)| bindings.iter().map(move |b| (id.clone(), *b)))
        .collect();
    for (id, _, level) in faults() {
        let rule = RULES.iter().find(|r| r.id == id);
        let rule = rule.unwrap_or_else(|| panic!("the fault {id} names no rule"));
        assert_eq!(level, rule.level.name(), "{id}: the level --list prints");
    }
    let mut missing = Vec::new();
    for rule in RULES {
        let bindings: &[Binding] = match rule.scope {
            Scope::Both => &[Binding::Stdio, Binding::Http],
            Scope::Stdio => &[Binding::Stdio],
            Scope::Http => &[Binding::Http],
        };
        for b in bindings {
            let faulted = listed.contains(&(rule.id.to_owned(), *b));
            let left_here = is_left_out(&left, rule.id, *b);
            if !faulted && !left_here {
                missing.push(format!("{} over {b:?}", rule.id));
            }
            assert!(
                !(faulted && left_here),
                "{} has a fault over {b:?} and is listed as left out there",
                rule.id
            );
        }
        let out_of_scope = listed
            .iter()
            .filter(|(id, b)| id == rule.id && !bindings.contains(b))
            .count();
        assert_eq!(out_of_scope, 0, "{}: a fault outside its scope", rule.id);
    }
    assert!(
        missing.is_empty(),
        "rules without a fault and not listed as left out: {missing:?}"
    );
    for (id, _) in &left {
        assert!(
            RULES.iter().any(|r| r.id == id),
            "the docs leave out {id}, which is no rule"
        );
    }
}

/// The table of "## The faulty client" as these runs make it: a binding
/// without a run is `n/a` outside the rule's scope, and `left out (below)`
/// inside it (the docs' "Rules left out" says why).
fn observed_table() -> Vec<Vec<String>> {
    let left = left_out(&doc());
    let mut rows = Vec::new();
    for rule in RULES {
        let runs: Vec<_> = runs()
            .iter()
            .filter(|(c, _)| c.fault.as_deref() == Some(rule.id))
            .collect();
        if runs.is_empty() {
            continue;
        }
        let in_scope = |binding: Binding| match rule.scope {
            Scope::Both => true,
            Scope::Stdio => binding == Binding::Stdio,
            Scope::Http => binding == Binding::Http,
        };
        let absent = |binding: Binding| {
            if in_scope(binding) && is_left_out(&left, rule.id, binding) {
                "left out (below)".to_owned()
            } else {
                "n/a".to_owned()
            }
        };
        let cell = |binding: Binding| {
            runs.iter().find(|(c, _)| c.binding == binding).map_or_else(
                || absent(binding),
                |(_, o)| {
                    let status = status(&o.report, rule.id)
                        .and_then(|l| l["status"].as_str())
                        .unwrap_or("absent");
                    let verdict = o.report["verdict"].as_str().unwrap_or("none");
                    format!("{status} (verdict {verdict})")
                },
            )
        };
        let lines: BTreeSet<String> = runs
            .iter()
            .flat_map(|(_, o)| o.summary.iter())
            .filter(|l| l.contains(&format!(" {} (", rule.id)) && l.contains(": FAIL "))
            .cloned()
            .collect();
        assert_eq!(
            lines.len(),
            1,
            "{}: one report line over both bindings: {lines:?}",
            rule.id
        );
        rows.push(vec![
            format!("`{}`", rule.id),
            match rule.level {
                Level::Must => "MUST",
                Level::Should => "SHOULD",
            }
            .to_owned(),
            format!("`--fault {}`", rule.id),
            cell(Binding::Stdio),
            cell(Binding::Http),
            format!("`{}`", lines.first().cloned().unwrap_or_default()),
        ]);
    }
    rows
}

/// The committed table's rows, split into cells.
fn committed_table(doc: &str) -> Vec<Vec<String>> {
    doc_table::rows(doc, "The faulty client", Some("\n### Rules left out"))
}

#[test]
fn the_docs_table_is_the_one_the_runs_make() {
    let doc = doc();
    let committed = committed_table(&doc);
    let observed = observed_table();
    let render = |rows: &[Vec<String>]| {
        rows.iter()
            .map(|r| format!("| {} |", r.join(" | ")))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut bad = Vec::new();
    if committed.len() != observed.len() {
        bad.push(format!(
            "the docs' table has {} rows, the runs make {}",
            committed.len(),
            observed.len()
        ));
    }
    for (have, want) in committed.iter().zip(&observed) {
        for (column, (h, w)) in have.iter().zip(want).enumerate() {
            if h != w {
                bad.push(format!(
                    "{}: column {}: {h} (the runs: {w})",
                    want[0],
                    column + 1
                ));
            }
        }
        if have.len() != want.len() {
            bad.push(format!(
                "{}: {} cells, not {}",
                want[0],
                have.len(),
                want.len()
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "docs/judge.md, \"The faulty client\", differs from the runs:\n{}\n\nthe table the runs make:\n{}",
        bad.join("\n"),
        render(&observed)
    );
}

#[test]
fn bad_usage_is_one_sentence_and_exit_2() {
    let cases: &[&[&str]] = &[
        &[
            "--fault",
            "no.such-rule",
            "--http",
            "http://127.0.0.1:9/mcp",
        ],
        &["--fault", "http.post", "--stdio", "--", BIN, "judge"],
        &[
            "--fault",
            "stdio.close-first",
            "--http",
            "http://127.0.0.1:9/mcp",
        ],
        &["--fault"],
        &["--stdio"],
        &[],
        &["--list", "--http", "http://127.0.0.1:9/mcp"],
        &[
            "--fault",
            "jsonrpc.id-in-flight",
            "--http",
            "http://127.0.0.1:9/mcp",
        ],
        &[
            "--fault",
            "progress.token-unique",
            "--http",
            "http://127.0.0.1:9/mcp",
        ],
        &[
            "--fault",
            "progress.token-unique",
            "--held-tool",
            HELD,
            "--stdio",
            "--",
            BIN,
            "judge",
        ],
        &["--held-tool", HELD, "--stdio", "--", BIN, "judge"],
        &["--held-tool"],
    ];
    for args in cases {
        let out = Command::new(fixture())
            .args(*args)
            .output()
            .expect("the fixture runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("faulty_client: "), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
        // An in-flight fault over HTTP without a held tool says what it needs.
        if args.contains(&"--http") && args.iter().any(|a| in_flight_rule(a)) {
            assert!(
                stderr.contains("--slow-tool") && stderr.contains("--held-tool NAME"),
                "{args:?}: {stderr}"
            );
        }
    }
}
