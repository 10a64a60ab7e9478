//! Both vector replayers, `mcp-reference check --vectors` (Rust, the
//! vectors built in) and `scripts/replay_vectors.py` (Python's standard
//! library), against the reference and against each fault of
//! `examples/faulty_server.rs`: the reference passes every vector of every
//! fixture; each fault fails the vector of the rule it breaks; and the two
//! replayers agree on every verdict (the same failing vector ids, the same
//! exit code, the per-level lines, the same number of server starts); a
//! failure restarts the server only when it stops answering. Durations are printed, never asserted.

#[path = "support/fixture.rs"]
mod fixture;

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The exit code, the failing vector ids, how many server processes the
/// replay started, and the whole output.
struct Verdict {
    code: i32,
    failed: BTreeSet<String>,
    starts: Option<u64>,
    /// The per-level lines (`must 175/175`, ...), in order.
    levels: Vec<String>,
    /// The statelessness probe's line (BASE-21).
    stateless: Option<String>,
    out: String,
}

impl Verdict {
    /// The count of vectors that failed at `level`.
    fn failed_at(&self, level: &str) -> usize {
        self.levels
            .iter()
            .find_map(|l| l.strip_prefix(level)?.strip_prefix(' '))
            .and_then(|n| n.split_once('/'))
            .and_then(|(ok, all)| Some(all.parse::<usize>().ok()? - ok.parse::<usize>().ok()?))
            .unwrap_or(usize::MAX)
    }
}

fn verdict(mut cmd: Command) -> Verdict {
    let started = Instant::now();
    let out = cmd
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER")
        .output()
        .expect("the replayer runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let failed = text
        .lines()
        .filter_map(|l| l.strip_prefix("FAIL "))
        .filter_map(|l| l.split(' ').next())
        .map(String::from)
        .collect();
    let starts = text
        .lines()
        .filter_map(|l| l.strip_suffix(" server starts"))
        .filter_map(|l| l.rsplit(' ').next())
        .find_map(|n| n.parse().ok());
    let levels = text
        .lines()
        .filter(|l| {
            ["must ", "should ", "textbook ", "canonical "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(String::from)
        .collect();
    println!(
        "{:?}: exit {:?} in {:.2} s",
        cmd.get_args().collect::<Vec<_>>(),
        out.status.code(),
        started.elapsed().as_secs_f64()
    );
    let stateless = text
        .lines()
        .find(|l| l.starts_with("statelessness (BASE-21, must): "))
        .map(String::from);
    Verdict {
        code: out.status.code().unwrap_or(-1),
        failed,
        starts,
        levels,
        stateless,
        out: text + &String::from_utf8_lossy(&out.stderr),
    }
}

fn rust(fixture: Option<&str>, server: &[OsString]) -> Verdict {
    rust_at(fixture, "must", server)
}

fn rust_at(fixture: Option<&str>, level: &str, server: &[OsString]) -> Verdict {
    let mut cmd = Command::new(fixture::bin());
    cmd.args(["check", "--vectors", "--level", level]);
    if let Some(f) = fixture {
        cmd.args(["--fixture", f]);
    }
    cmd.arg("--").args(server);
    verdict(cmd)
}

fn python(fixture: Option<&str>, server: &[OsString]) -> Verdict {
    python_at(fixture, "must", server)
}

fn python_at(fixture: Option<&str>, level: &str, server: &[OsString]) -> Verdict {
    let mut cmd = Command::new("python3");
    cmd.arg(repo().join("scripts/replay_vectors.py"));
    cmd.args(["--level", level]);
    if let Some(f) = fixture {
        cmd.args(["--fixture", f]);
    }
    cmd.arg("--").args(server);
    verdict(cmd)
}

/// Runs both replayers and requires the same verdict; returns it.
fn both(fixture: Option<&str>, server: &[OsString]) -> Verdict {
    both_at(fixture, "must", server)
}

/// [`both`], the verdict resting on `level`.
fn both_at(fixture: Option<&str>, level: &str, server: &[OsString]) -> Verdict {
    let r = rust_at(fixture, level, server);
    let p = python_at(fixture, level, server);
    assert_eq!(
        (r.code, &r.failed, r.starts, &r.levels, &r.stateless),
        (p.code, &p.failed, p.starts, &p.levels, &p.stateless),
        "the replayers disagree\n--- check --vectors\n{}\n--- replay_vectors.py\n{}",
        r.out,
        p.out
    );
    r
}

/// [`both_at`], requiring besides the same report line for line but for
/// its first (which names the replayer): the `FAIL` lines and the
/// request, expected and got lines under them. Only for a server that
/// never makes the replay wait out a timeout (whose remaining time the
/// got line shows).
fn both_line_for_line(fixture: Option<&str>, level: &str, server: &[OsString]) -> Verdict {
    let r = rust_at(fixture, level, server);
    let p = python_at(fixture, level, server);
    let body = |v: &Verdict| v.out.lines().skip(1).map(String::from).collect::<Vec<_>>();
    assert_eq!(
        (r.code, body(&r)),
        (p.code, body(&p)),
        "the replayers' reports differ\n--- check --vectors\n{}\n--- replay_vectors.py\n{}",
        r.out,
        p.out
    );
    r
}

fn reference(config: Option<&str>) -> Vec<OsString> {
    let mut argv = fixture::reference();
    if let Some(name) = config {
        argv.push("--config".into());
        argv.push(repo().join(format!("vectors/configs/{name}.json")).into());
    }
    argv
}

#[test]
fn the_reference_passes_every_vector_of_every_fixture_in_both_replayers() {
    for fixture in [
        None,
        Some("textbook"),
        Some("stock"),
        Some("short-lines"),
        Some("legacy"),
        Some("catalog"),
        Some("conformance"),
    ] {
        let v = both_at(fixture, "canonical", &reference(fixture));
        assert_eq!(v.code, 0, "{}", v.out);
        assert!(v.failed.is_empty(), "{}", v.out);
        assert!(v.out.contains("verdict: PASS"), "{}", v.out);
        assert!(v.out.contains(" 0 failed"), "{}", v.out);
        assert_eq!(v.levels.len(), 4, "{}", v.out);
        for level in ["must", "should", "textbook", "canonical"] {
            assert_eq!(v.failed_at(level), 0, "{level}\n{}", v.out);
        }
    }
}

/// Each fault fails the vector of the rule it breaks, in both replayers,
/// with the same failing vectors and exit code.
#[test]
fn each_fault_fails_its_vectors_with_the_same_verdicts() {
    let faults = [
        ("--wrong-id", "generic/E10-id-04", true),
        ("--answer-notifications", "generic/E16-01", true),
        ("--skip-version-check", "generic/M7-01", true),
        ("--no-result-type", "generic/D1-discover", true),
        ("--leak-forbidden", "textbook/T5-forbidden", true),
        ("--drop-at-eof", "textbook/W1-recorded-run", true),
        ("--log-on-stdout", "generic/D1-discover", true),
        ("--no-version-list", "textbook/M10-01", true),
    ];
    println!("| fault | must | should | textbook | canonical |");
    for (flag, vector, must) in faults {
        let v = both(Some("textbook"), &fixture::faulty(&[flag]));
        println!(
            "| {flag} | {} | {} | {} | {} |",
            v.failed_at("must"),
            v.failed_at("should"),
            v.failed_at("textbook"),
            v.failed_at("canonical")
        );
        println!("{flag}: {} failing: {:?}", v.failed.len(), v.failed);
        assert!(
            v.failed.contains(vector),
            "{flag} should fail {vector}\n{}",
            v.out
        );
        assert_ne!(v.code, 2, "{}", v.out);
        if must {
            assert_eq!(v.code, 1, "{flag} fails a must vector\n{}", v.out);
            assert!(v.failed_at("must") > 0, "{}", v.out);
        } else {
            assert_eq!(v.code, 0, "{flag} breaks no MUST\n{}", v.out);
        }
    }
}

/// A server that differs from the reference only where the specification
/// leaves it free (wording, `error.data`, a further `_meta` member, member
/// order) passes `must`, `should` and `textbook`, and fails only
/// `canonical`, which `--level canonical` makes the verdict.
#[test]
fn style_is_canonical_only() {
    let server = fixture::faulty(&["--restyle"]);
    let v = both(Some("textbook"), &server);
    assert_eq!(v.code, 0, "{}", v.out);
    for level in ["must", "should", "textbook"] {
        assert_eq!(v.failed_at(level), 0, "{level}\n{}", v.out);
    }
    assert!(v.failed_at("canonical") > 100, "{}", v.out);
    let v = both_at(Some("textbook"), "canonical", &server);
    assert_eq!(v.code, 1, "{}", v.out);
    let v = both_at(Some("textbook"), "textbook", &server);
    assert_eq!(v.code, 0, "{}", v.out);
}

/// A failed vector replaces the server only when its probe got no reply
/// (it exited or stopped answering): a server that fails many vectors with
/// well-formed lines (a wrong member, a wrong id, a reply to a
/// notification, log lines on stdout) is started as often as the
/// reference, once for the shared process and once per sequence, plus the
/// two fresh processes its failures at must are tried again on, in both
/// replayers; a server that stops answering is replaced.
#[test]
fn a_failure_keeps_the_server_unless_it_stops_answering() {
    let reference = both(Some("textbook"), &reference(Some("textbook")));
    let once = reference.starts.expect("the summary counts server starts");
    for flag in [
        "--no-result-type",
        "--wrong-id",
        "--answer-notifications",
        "--log-on-stdout",
    ] {
        let v = both(
            Some("textbook"),
            &fixture::faulty(&[flag, "--slow-start", "300"]),
        );
        assert!(v.failed.len() > 1, "{flag}\n{}", v.out);
        // The vectors failing at must are tried again on two fresh
        // processes, however many they are (issue 39, item 12).
        assert!(retried(&v) > 0, "{flag}\n{}", v.out);
        assert_eq!(v.starts, Some(once + 2), "{flag}\n{}", v.out);
    }
    let v = both(
        Some("textbook"),
        &fixture::faulty(&["--hang-on", "logging/setLevel"]),
    );
    assert!(v.starts > Some(once), "{}", v.out);
}

/// The command line: an unknown fixture or a server that cannot start is
/// exit 2 with one sentence, in both replayers.
#[test]
fn what_cannot_run_is_exit_two_in_both() {
    let v = both(Some("nonesuch"), &reference(None));
    assert_eq!(v.code, 2, "{}", v.out);
    assert!(v.out.contains("no fixture nonesuch"), "{}", v.out);
    let v = both(None, &["/nonexistent/server".into()]);
    assert_eq!(v.code, 2, "{}", v.out);
    assert!(
        v.out.contains("cannot start /nonexistent/server"),
        "{}",
        v.out
    );
}

/// The reference behind a launcher that also starts a process of its own,
/// detached from every pipe (as `npx` or `uv run` leave a server behind
/// them): when a replayer is done with a server, nothing the launcher
/// started is left running, in either replayer (each kills the server's
/// process group, on the shared process and on each sequence's fresh one).
#[cfg(target_os = "linux")]
#[test]
fn nothing_a_launcher_started_outlives_the_replay_in_either_replayer() {
    let dir = std::env::temp_dir().join(format!("mcp-vectors-launcher-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    for (name, replay) in [
        (
            "check --vectors",
            rust as fn(Option<&str>, &[OsString]) -> Verdict,
        ),
        ("replay_vectors.py", python),
    ] {
        let pids = dir.join(format!("{}.pids", name.replace(' ', "-")));
        let mut launcher: Vec<OsString> = vec![
            "sh".into(),
            "-c".into(),
            "sleep 300 </dev/null >/dev/null 2>&1 & echo $! >> \"$0\"; exec \"$@\"".into(),
            pids.clone().into(),
        ];
        launcher.extend(reference(Some("textbook")));
        let v = replay(Some("textbook"), &launcher);
        assert_eq!(v.code, 0, "{name}\n{}", v.out);
        let started = std::fs::read_to_string(&pids).expect("the launcher wrote its pids");
        let started: Vec<&str> = started.lines().collect();
        // The shared process and one fresh process per sequence vector.
        assert!(started.len() >= 2, "{name}: {started:?}");
        let left = fixture::left_running(&started);
        assert!(
            left.is_empty(),
            "{name} left {} of {} running: {left:?}",
            left.len(),
            started.len()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--fresh-each` (every single vector on a process of its own, as if the
/// server were restarted before each) against the shared process: the same
/// verdicts, in both replayers, for servers that take no context from
/// earlier requests, and for `--first-line-decides`, which takes the
/// connection's era from its first line: every process is opened with a
/// valid `server/discover`, as a modern client opens one, so no vector's
/// verdict depends on being a process's first line. That server fails the
/// statelessness probe (BASE-21) in both modes, and nothing else.
#[test]
fn fresh_each_gives_the_same_verdicts() {
    let fresh = |python: bool, server: &[OsString]| {
        let mut cmd = if python {
            let mut c = Command::new("python3");
            c.arg(repo().join("scripts/replay_vectors.py"));
            c
        } else {
            let mut c = Command::new(fixture::bin());
            c.args(["check", "--vectors"]);
            c
        };
        cmd.args(["--fresh-each", "--fixture", "textbook", "--"])
            .args(server);
        verdict(cmd)
    };
    let servers = [
        reference(None),
        fixture::faulty(&["--wrong-id"]),
        fixture::faulty(&["--no-result-type"]),
    ];
    for server in &servers {
        let shared = both(Some("textbook"), server);
        let starts = shared.starts.unwrap_or(0);
        for python in [false, true] {
            let each = fresh(python, server);
            assert_eq!(
                (each.code, &each.failed, &each.levels),
                (shared.code, &shared.failed, &shared.levels),
                "{server:?} (python: {python})\n{}",
                each.out
            );
            assert!(each.starts.unwrap_or(0) > 100 + starts, "{}", each.out);
        }
    }
    let stateful = fixture::faulty(&["--first-line-decides"]);
    let shared = both(Some("textbook"), &stateful);
    for python in [false, true] {
        let each = fresh(python, &stateful);
        assert_eq!(
            (each.code, &each.failed, &each.levels, &each.stateless),
            (
                shared.code,
                &shared.failed,
                &shared.levels,
                &shared.stateless
            ),
            "python: {python}\n{}\n{}",
            shared.out,
            each.out
        );
    }
    // No vector fails, but the statelessness probe does, at must (BASE-21),
    // in both replayers: exit 1.
    assert!(shared.failed.is_empty(), "{}", shared.out);
    assert_eq!(shared.code, 1, "{}", shared.out);
    let line = shared.stateless.clone().unwrap_or_default();
    assert!(
        line.contains(
            "FAIL: a valid server/discover got a result as a process's first line but error -32600"
        ),
        "{line}"
    );
    for server in &servers {
        assert_stateless(&both(None, server));
    }
}

/// The statelessness probe passed (BASE-21), and no vector failing at
/// must depends on earlier lines.
fn assert_stateless(v: &Verdict) {
    let line = v.stateless.as_deref().unwrap_or_default();
    assert!(
        line == "statelessness (BASE-21, must): pass"
            || line.starts_with("statelessness (BASE-21, must): pass; 0 of "),
        "{}",
        v.out
    );
}

/// How many vectors the replay tried again after they failed at must on
/// the shared process, from its statelessness line (`D of R vectors`).
fn retried(v: &Verdict) -> u64 {
    v.stateless
        .as_deref()
        .and_then(|l| l.split_once(" of "))
        .and_then(|(_, rest)| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Replies in another order than the requests' (a server answering
/// concurrently) are no fault: a sequence's lines are paired with its steps
/// by id, as JSON-RPC pairs them, in both replayers.
#[test]
fn replies_in_another_order_are_paired_by_id() {
    for flag in ["--random-order", "--late-tool-calls"] {
        let v = both_at(Some("textbook"), "canonical", &fixture::faulty(&[flag]));
        assert_eq!(v.code, 0, "{flag}\n{}", v.out);
        assert!(v.failed.is_empty(), "{flag}\n{}", v.out);
    }
}

/// A dual-era server, the reference with `--legacy`, on the textbook
/// fixture in both replayers: it answers a well-formed `initialize` with a
/// legacy handshake, which passes `should` (VER-07 binds a modern-only
/// server; format 4's `versions` outcome) and fails only `textbook` and
/// `canonical`; it answers a malformed one with a `-32602` that names no
/// version (row L3), which fails `should`, as it would for a modern-only
/// server (one reply cannot tell them apart: docs/vectors.md). Nothing
/// fails at `must`, and the statelessness probe passes.
#[test]
fn a_dual_era_server_passes_must_and_its_handshakes_pass_should() {
    let mut server = reference(Some("textbook"));
    server.extend(["--legacy".into(), "2025-11-25,2025-06-18".into()]);
    let v = both_at(Some("textbook"), "should", &server);
    assert_eq!(v.failed_at("must"), 0, "{}", v.out);
    assert_eq!(
        failing_at(&v.out, "should"),
        ["textbook/D6-03", "textbook/gen-D7-02"]
            .map(String::from)
            .into(),
        "{}",
        v.out
    );
    for handshake in ["textbook/D6-01", "textbook/D6-02", "textbook/gen-D7-01"] {
        assert!(
            failing_at(&v.out, "textbook").contains(handshake),
            "{}",
            v.out
        );
    }
    assert_eq!(v.code, 1, "{}", v.out);
    assert_stateless(&v);
}

/// `--no-version-list` (every `-32022` without its `data`) fails, at
/// `must` (VER-01), exactly the vectors whose `expect` names the version
/// asked for (`requested`), in both replayers; at `should` only
/// `initialize` vectors (D6), whose error then names no version; nothing
/// at `textbook`, which leaves `data` out (`canonical` sees the bytes).
#[test]
fn a_version_error_without_its_list_fails_at_must() {
    let v = both(Some("textbook"), &fixture::faulty(&["--no-version-list"]));
    let mut requested = BTreeSet::new();
    for file in ["generic", "textbook"] {
        let text = std::fs::read_to_string(repo().join(format!("vectors/{file}.jsonl")))
            .expect("the vectors are readable");
        for line in text.lines() {
            let vector: serde_json::Value = serde_json::from_str(line).expect("a vector");
            let expects: Vec<&serde_json::Value> = match vector.get("steps") {
                Some(steps) => steps
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|s| s.get("expect"))
                    .collect(),
                None => vector.get("expect").into_iter().collect(),
            };
            if expects.iter().any(|e| e.get("requested").is_some()) {
                requested.insert(vector["id"].as_str().unwrap_or_default().to_string());
            }
        }
    }
    for id in ["generic/M7-01", "textbook/M10-01"] {
        assert!(requested.contains(id), "{requested:?}");
    }
    assert_eq!(failing_at(&v.out, "must"), requested, "{}", v.out);
    for id in failing_at(&v.out, "should") {
        assert!(id.contains("D6-"), "{id} fails at should\n{}", v.out);
    }
    assert!(failing_at(&v.out, "textbook").is_empty(), "{}", v.out);
    assert_eq!(v.code, 1, "{}", v.out);
}

/// The ids of the vectors a replayer's report says fail at `level`.
fn failing_at(out: &str, level: &str) -> BTreeSet<String> {
    out.lines()
        .filter_map(|l| l.strip_prefix("FAIL "))
        .filter(|l| {
            l.split_once("; fails ")
                .is_some_and(|(_, ls)| ls.trim_end_matches(')').split(", ").any(|x| x == level))
        })
        .filter_map(|l| l.split(' ').next())
        .map(String::from)
        .collect()
}

/// The vectors a replayer's report says depend on earlier lines.
fn depending(out: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let mut last = None;
    for line in out.lines() {
        if let Some(rest) = line.strip_prefix("FAIL ") {
            last = rest.split(' ').next().map(String::from);
        } else if line.starts_with("  depends on earlier lines: BASE-21")
            && let Some(id) = last.clone()
        {
            ids.insert(id);
        }
    }
    ids
}

/// A server that checks the protocol version only until a request of
/// another method has got a result (as a port on the official TypeScript
/// SDK 2.4): the version vectors after a `tools/list` fail at must on the
/// shared process and pass alone, so both replayers say they depend on
/// earlier lines (BASE-21), in their statelessness line too, and agree
/// line for line; the verdict stays FAIL.
#[test]
fn a_version_checked_once_depends_on_earlier_lines_in_both_replayers() {
    let server = fixture::faulty(&["--version-once"]);
    let r = rust_at(Some("textbook"), "must", &server);
    let p = python_at(Some("textbook"), "must", &server);
    let body = |out: &str| out.lines().skip(1).map(String::from).collect::<Vec<_>>();
    assert_eq!(body(&r.out), body(&p.out), "{}\n---\n{}", r.out, p.out);
    let must = failing_at(&r.out, "must");
    assert!(must.contains("generic/M7-01"), "{}", r.out);
    assert_eq!(depending(&r.out), must, "{}", r.out);
    assert_eq!(
        r.stateless,
        Some(format!(
            "statelessness (BASE-21, must): FAIL: the probe passed; {n} of {n} vectors failing at \
             must on the shared process pass on a fresh process (their replies depend on earlier \
             lines)",
            n = must.len()
        )),
        "{}",
        r.out
    );
    assert_eq!(r.code, 1, "{}", r.out);
    // A failure that does not depend on earlier lines is not said to:
    // --skip-version-check fails the same vectors alone too.
    let skip = both(
        Some("textbook"),
        &fixture::faulty(&["--skip-version-check"]),
    );
    assert!(depending(&skip.out).is_empty(), "{}", skip.out);
    assert!(
        skip.stateless
            .as_deref()
            .is_some_and(|s| s.starts_with("statelessness (BASE-21, must): pass; 0 of ")),
        "{}",
        skip.out
    );
}

/// The fault fixture on the catalog fixture's configuration (it reads
/// `MCP_REFERENCE_CONFIG`, which the replay clears, so `env` sets it).
fn faulty_catalog(flag: &str) -> Vec<OsString> {
    faulty_fixture("catalog", flag)
}

/// The fault-injected server with `fixture`'s configuration.
fn faulty_fixture(fixture: &str, flag: &str) -> Vec<OsString> {
    let config = repo().join(format!("vectors/configs/{fixture}.json"));
    let mut argv: Vec<OsString> = vec![
        "env".into(),
        format!("MCP_REFERENCE_CONFIG={}", config.display()).into(),
    ];
    argv.extend(fixture::faulty(&[flag]));
    argv
}

/// The catalog's faults fail the vectors of their rows at their level, in
/// both replayers: an unknown resource as `-32002` or as an empty
/// `contents` fails R6's vectors at `must` (RES-05) and nothing else; a
/// completion that suggests another user's orders, or only counts them,
/// fails C1's vectors at `must` (COMP-08: the vectors name the hidden ids
/// and the most the count may be, format 5) wherever the prefix matches
/// another user's order, and nothing else.
#[test]
fn the_catalog_faults_fail_their_rows_vectors_at_their_level() {
    for flag in ["--resource-not-found-32002", "--empty-contents"] {
        let v = both_at(Some("catalog"), "textbook", &faulty_catalog(flag));
        let must = failing_at(&v.out, "must");
        assert!(must.contains("catalog/R6-B-205"), "{flag}\n{}", v.out);
        assert!(
            must.iter().all(|id| id.starts_with("catalog/R6-")),
            "{flag}: {must:?}\n{}",
            v.out
        );
        assert_eq!(v.code, 1, "{flag}\n{}", v.out);
    }
    // Every C1 vector's prefix (A, A-1, B and the empty one) matches
    // A-150 or B-205, tomas's.
    let leaking = [
        "catalog/C1-empty",
        "catalog/C1-prefix-B",
        "catalog/C1-prompt-A-1",
        "catalog/C1-template-A",
    ];
    for flag in ["--complete-leaks", "--complete-counts-leaks"] {
        let v = both_at(Some("catalog"), "textbook", &faulty_catalog(flag));
        let must: Vec<String> = failing_at(&v.out, "must").into_iter().collect();
        assert_eq!(must, leaking, "{flag}\n{}", v.out);
        let textbook = failing_at(&v.out, "textbook");
        assert!(
            textbook.iter().all(|id| id.starts_with("catalog/C1-")),
            "{flag}: {textbook:?}\n{}",
            v.out
        );
        assert_eq!(v.code, 1, "{flag}\n{}", v.out);
    }
}

/// The conformance fixture's vectors with a step that `pick` selects,
/// from the committed vectors.
fn conformance_vectors(
    pick: impl Fn(&mcp_reference_tools::vectors::Step) -> bool,
) -> BTreeSet<String> {
    mcp_reference_tools::vectors::select(Some("conformance"))
        .expect("the fixture exists")
        .into_iter()
        .filter(|v| v.steps.iter().any(&pick))
        .map(|v| v.id)
        .collect()
}

/// Format 6 in both replayers, on the conformance fixture's faults. A
/// server that sends no notification passes `must` (a server MAY send
/// none; PROG-03 and LOG-04 judge those it sends) and fails `textbook`
/// and `canonical` on every vector with notifications (`before`); one
/// that sends them in reverse order fails the progress vectors at `must`
/// (PROG-03: progress increases). A server whose InputRequiredResult has
/// no `requestState` fails every vector with an `opaque` state at
/// `textbook`, and every chain at its carried step, which is not run
/// (`must` where that step's row is a MUST). The two reports are the
/// same line for line.
#[test]
fn format_six_faults_fail_their_vectors_in_both_replayers() {
    let notified = conformance_vectors(|s| s.before.as_ref().is_some_and(|b| !b.is_empty()));
    let progress = conformance_vectors(|s| {
        s.before.as_ref().is_some_and(|b| !b.is_empty())
            && s.expect
                .as_ref()
                .and_then(|e| e.pointer("/notifications/progressToken"))
                .is_some()
    });
    assert!(notified.len() >= 3 && progress.len() >= 2, "{notified:?}");
    for (flag, at_must) in [
        ("--drop-notifications", BTreeSet::new()),
        ("--notifications-backwards", progress.clone()),
    ] {
        let v = both_line_for_line(
            Some("conformance"),
            "canonical",
            &faulty_fixture("conformance", flag),
        );
        assert_eq!(v.failed, notified, "{flag}\n{}", v.out);
        assert_eq!(
            failing_at(&v.out, "textbook"),
            notified,
            "{flag}\n{}",
            v.out
        );
        assert_eq!(failing_at(&v.out, "must"), at_must, "{flag}\n{}", v.out);
        assert_eq!(v.code, 1, "{flag}\n{}", v.out);
    }
    let stateful = conformance_vectors(|s| !s.opaque.is_empty() || !s.carry.is_empty());
    let carried_must = conformance_vectors(|s| {
        !s.carry.is_empty() && s.level.as_ref().is_some_and(|(l, _)| l == "must")
    });
    assert!(!carried_must.is_empty());
    let v = both_line_for_line(
        Some("conformance"),
        "canonical",
        &faulty_fixture("conformance", "--no-request-state"),
    );
    assert_eq!(v.failed, stateful, "{}", v.out);
    assert_eq!(failing_at(&v.out, "must"), carried_must, "{}", v.out);
    assert!(
        v.out
            .contains("(not run: step 1's reply has nothing at /result/requestState)"),
        "{}",
        v.out
    );
    assert_eq!(v.code, 1, "{}", v.out);
}

/// The single vectors of `fixture` (and the generic ones) that expect
/// silence, from the committed vectors.
fn silent_singles(fixture: &str) -> BTreeSet<String> {
    mcp_reference_tools::vectors::select(Some(fixture))
        .expect("the fixture exists")
        .into_iter()
        .filter(|v| !v.sequence && v.steps.iter().all(|s| s.reply.is_none()))
        .map(|v| v.id)
        .collect()
}

/// A server that exits or hangs on its first notification observed no
/// silence: every single vector expecting silence fails at its level in
/// both replayers (both passed them all before: with
/// `--exit-on-notifications`, 204/204 and 18 starts), because the probe
/// after it got no reply; a server that answers and keeps answering
/// passes them.
#[test]
fn a_server_that_dies_or_hangs_on_a_notification_observes_no_silence() {
    let silent = silent_singles("textbook");
    assert!(silent.len() >= 5, "{silent:?}");
    for flag in ["--exit-on-notifications", "--hang-on-notifications"] {
        let v = both(Some("textbook"), &fixture::faulty(&[flag]));
        let notifications: BTreeSet<String> =
            mcp_reference_tools::vectors::select(Some("textbook"))
                .expect("the fixture exists")
                .into_iter()
                .filter(|v| silent.contains(&v.id))
                .filter(|v| {
                    v.steps.iter().any(|s| {
                        serde_json::from_slice::<serde_json::Value>(&s.request)
                            .is_ok_and(|r| r.get("method").is_some() && r.get("id").is_none())
                    })
                })
                .map(|v| v.id)
                .collect();
        assert!(!notifications.is_empty(), "{silent:?}");
        for id in &notifications {
            assert!(v.failed.contains(id), "{flag}: {id} passed\n{}", v.out);
        }
        assert_eq!(v.code, 1, "{flag}\n{}", v.out);
        assert!(v.failed_at("must") >= notifications.len(), "{}", v.out);
    }
}

/// A sequence whose last step expects silence (L5-01: a notification,
/// `initialize`, then `notifications/initialized`) on a server that exits
/// when it reads a notification after a request: the replies before it came, but the
/// probe after the last step got none, so the silence was not observed and
/// the sequence fails in both replayers (both passed it before).
#[test]
fn a_sequence_ending_in_a_silence_fails_when_the_server_dies_there() {
    let silent_last: BTreeSet<String> = mcp_reference_tools::vectors::select(Some("legacy"))
        .expect("the fixture exists")
        .into_iter()
        .filter(|v| v.sequence && v.steps.last().is_some_and(|s| s.reply.is_none()))
        .map(|v| v.id)
        .collect();
    assert!(!silent_last.is_empty());
    // The reference behind a filter that passes lines on until a
    // notification after a request, then exits (the reference answers what
    // it got, then sees end-of-file).
    let mut server: Vec<OsString> = vec![
        "sh".into(),
        "-c".into(),
        "seen=; while IFS= read -r l; do case \"$l\" in *'\"method\"'*) case \"$l\" in *'\"id\"'*) seen=1;; *) [ -n \"$seen\" ] && exit 101;; esac;; esac; printf '%s\\n' \"$l\"; done | \"$@\"".into(),
        "filter".into(),
    ];
    server.extend(reference(Some("legacy")));
    let v = both(Some("legacy"), &server);
    for id in &silent_last {
        assert!(v.failed.contains(id), "{id} passed\n{}", v.out);
    }
    assert!(
        v.out.contains("(to the probe after the last step)"),
        "{}",
        v.out
    );
    // The same sequences pass on the reference itself.
    let v = both(Some("legacy"), &reference(Some("legacy")));
    assert!(v.failed.is_disjoint(&silent_last), "{}", v.out);
}

/// The fault fixture on the conformance fixture's configuration.
fn faulty_conformance(flag: &str) -> Vec<OsString> {
    faulty_fixture("conformance", flag)
}

/// The format 6 vectors (issue 38) fail a server that breaks their rows,
/// at their levels, in both replayers: one that never checks its
/// `requestState` (`--ignore-state`: a forged, foreign or expired state is
/// taken for none) fails every I6, I7 and I8 vector, including the chain
/// that presents one target's state to another, and the multi-round chain
/// at `should` (its second round is asked again: the carried state is
/// what tells the rounds apart), and nothing else; one that logs to every
/// `tools/call` unasked (`--unasked-log`) fails the vectors of requests
/// without `logLevel` that judge notifications at `must` (LOG-04) but not
/// the one asking for `debug`; one that drops the notifications asked for
/// (`--drop-notifications`) fails only `textbook` and `canonical`
/// (progress is a MAY).
#[test]
fn the_conformance_faults_fail_their_rows_vectors_at_their_level() {
    let v = both_at(
        Some("conformance"),
        "textbook",
        &faulty_conformance("--ignore-state"),
    );
    let all = failing_at(&v.out, "textbook");
    assert!(
        all.iter().all(|id| ["I6-", "I7-", "I8-", "I9-"]
            .iter()
            .any(|p| id.starts_with(&format!("conformance/{p}")))),
        "{all:?}\n{}",
        v.out
    );
    let must = failing_at(&v.out, "must");
    for id in [
        "conformance/I6-null",
        "conformance/I7-one-byte",
        "conformance/I7-other-key",
        "conformance/I7-other-user",
        "conformance/I7-other-tool-state",
    ] {
        assert!(must.contains(id), "{id}\n{}", v.out);
    }
    let should = failing_at(&v.out, "should");
    assert!(should.contains("conformance/I8-expired"), "{}", v.out);
    assert!(should.contains("conformance/I9-multi-round"), "{}", v.out);
    assert_eq!(v.code, 1, "{}", v.out);

    let v = both_at(
        Some("conformance"),
        "textbook",
        &faulty_conformance("--unasked-log"),
    );
    let must = failing_at(&v.out, "must");
    for id in [
        "conformance/T13-log-none",
        "conformance/T13-log-error",
        "conformance/T12-progress-no-token",
    ] {
        assert!(must.contains(id), "{id}\n{}", v.out);
    }
    assert!(!must.contains("conformance/T13-log-debug"), "{}", v.out);
    assert!(
        failing_at(&v.out, "textbook").contains("conformance/T13-log-debug"),
        "{}",
        v.out
    );

    let v = both_at(
        Some("conformance"),
        "textbook",
        &faulty_conformance("--drop-notifications"),
    );
    let textbook = failing_at(&v.out, "textbook");
    assert_eq!(
        textbook.into_iter().collect::<Vec<_>>(),
        [
            "conformance/T12-progress",
            "conformance/T12-progress-integer-token",
            "conformance/T13-log-debug"
        ],
        "{}",
        v.out
    );
    assert!(failing_at(&v.out, "must").is_empty(), "{}", v.out);
    assert_eq!(v.code, 1, "{}", v.out);
}
