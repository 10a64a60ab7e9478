//! How a judged session ends, through the real binary (`src/cli/judge.rs`;
//! docs/judge.md, "Exit status"): stdin's end of file, SIGTERM, and both
//! at once. A host often closes the server's stdin and signals it in the
//! same instant; the session must then end once: one whole report naming
//! one ending, one summary on stderr, and the exit status of that ending
//! (0 for stdin's end, 143 for SIGTERM). Before the fix both endings wrote
//! the report through the same temporary file, and about one run in twelve
//! left an empty report.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-reference");

/// A `server/discover` with every field a 2026-07-28 client sends.
const DISCOVER: &str = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"ending-test","version":"1"}}}}"#;

#[path = "support/judged.rs"]
mod judged;
use judged::ReportFile;

/// Starts `judge --report`, sends one discover and waits for its answer,
/// so the signal handlers are in place and the session has judged one
/// request.
fn started(report: &ReportFile) -> Child {
    let mut child = Command::new(BIN)
        .args(["judge", "--report"])
        .arg(&report.0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let stdin = child.stdin.as_mut().expect("stdin is piped");
    stdin
        .write_all(format!("{DISCOVER}\n").as_bytes())
        .expect("the discover is written");
    stdin.flush().expect("stdin flushes");
    let stdout = child.stdout.as_mut().expect("stdout is piped");
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !seen.ends_with(b"\n") {
        match stdout.read(&mut byte) {
            Ok(1) => seen.push(byte[0]),
            other => panic!("no answer to the discover: {other:?}"),
        }
    }
    child
}

fn terminate(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill failed");
}

/// Waits for the child with a deadline; its exit code and stderr.
fn ended(mut child: Child) -> (Option<i32>, String) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            let mut stderr = String::new();
            if let Some(mut pipe) = child.stderr.take() {
                let _ = pipe.read_to_string(&mut stderr);
            }
            return (status.code(), stderr);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the judge did not end within 20 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn summaries(stderr: &str) -> usize {
    stderr
        .lines()
        .filter(|l| l.starts_with("mcp-reference judge: verdict "))
        .count()
}

#[test]
fn stdin_closed_ends_the_session_with_status_zero_and_one_report() {
    let report = ReportFile::new("ending", "eof");
    let mut child = started(&report);
    drop(child.stdin.take());
    let (code, stderr) = ended(child);
    assert_eq!(code, Some(0), "{stderr}");
    let value = report.read();
    assert_eq!(value["ended"], "stdin-closed");
    assert_eq!(value["requests"], 1);
    assert_eq!(summaries(&stderr), 1, "{stderr}");
}

#[test]
fn sigterm_ends_the_session_with_status_143_and_one_report() {
    let report = ReportFile::new("ending", "term");
    let child = started(&report);
    terminate(&child);
    let (code, stderr) = ended(child);
    assert_eq!(code, Some(143), "{stderr}");
    let value = report.read();
    assert_eq!(value["ended"], "signal");
    assert_eq!(value["requests"], 1);
    assert_eq!(summaries(&stderr), 1, "{stderr}");
}

#[test]
fn stdin_closed_and_sigterm_together_end_the_session_once() {
    let mut endings = std::collections::BTreeMap::<String, usize>::new();
    for n in 0..40 {
        let report = ReportFile::new("ending", &format!("both-{n}"));
        let mut child = started(&report);
        // Closed and signalled in the same instant, in alternating order.
        if n % 2 == 0 {
            drop(child.stdin.take());
            terminate(&child);
        } else {
            terminate(&child);
            drop(child.stdin.take());
        }
        let (code, stderr) = ended(child);
        let value = report.read();
        let ending = value["ended"].as_str().unwrap_or("none").to_owned();
        let expected = match ending.as_str() {
            "stdin-closed" => Some(0),
            "signal" => Some(143),
            other => panic!("run {n}: the report names the ending {other:?}"),
        };
        assert_eq!(
            code, expected,
            "run {n}: the status of another ending: {stderr}"
        );
        assert_eq!(summaries(&stderr), 1, "run {n}: {stderr}");
        assert_eq!(value["requests"], 1, "run {n}");
        *endings.entry(ending).or_default() += 1;
    }
    eprintln!("endings over 40 runs: {endings:?}");
}
