//! `mcp-reference demo`: the textbook's recorded run, replayed against a
//! real `mcp-reference serve` subprocess over pipes, as a host would.
//!
//! It sends the five requests one at a time (each waits for its reply, up
//! to five seconds), closes stdin, waits up to five seconds for the server
//! to exit, prints a table of what happened, and writes the transcript:
//! every line as sent and as received, with nothing that varies between
//! runs (no times, no paths), so a fresh run can be compared byte for byte
//! with the committed `data/mcp-run.json`.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

const DEADLINE: Duration = Duration::from_secs(5);

/// The `_meta` every request of the recorded run carries: the host calls
/// itself `book-host` 1.0.0, as in Example 43.2.
const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"book-host","version":"1.0.0"}}"#;

/// The textbook's five requests: (what the table calls it, the line). Each
/// is in the form of Example 43.2 (members `jsonrpc, id, method, params`;
/// in `params`, the book's `name, arguments, _meta`): request 3 is
/// Example 43.2's request byte for byte.
fn requests() -> Vec<(&'static str, String)> {
    let call = |id: u8, name: &str, order: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{{"order_id":"{order}"}},{META}}}}}"#
        )
    };
    vec![
        (
            "server/discover",
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{META}}}}}"#),
        ),
        (
            "tools/list",
            format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{{META}}}}}"#),
        ),
        ("tools/call get_order A-104", call(3, "get_order", "A-104")),
        ("tools/call get_order B-205", call(4, "get_order", "B-205")),
        (
            "tools/call cancel_order A-104",
            call(5, "cancel_order", "A-104"),
        ),
    ]
}

/// One line describing a reply, read from the reply itself.
fn outcome(reply: &Value) -> String {
    if let Some(error) = reply.get("error") {
        return format!(
            "error {}: {}",
            error["code"],
            error["message"].as_str().unwrap_or("")
        );
    }
    let result = &reply["result"];
    if let Some(versions) = result.get("supportedVersions") {
        let info = &result["_meta"]["io.modelcontextprotocol/serverInfo"];
        return format!(
            "supports {}; offers {}; server {} {}",
            versions,
            result["capabilities"]
                .as_object()
                .map(|c| c.keys().cloned().collect::<Vec<_>>().join(", "))
                .unwrap_or_default(),
            info["name"].as_str().unwrap_or("?"),
            info["version"].as_str().unwrap_or("?")
        );
    }
    if let Some(tools) = result.get("tools").and_then(Value::as_array) {
        let names: Vec<String> = tools
            .iter()
            .map(|t| {
                format!(
                    "{} (requires {}; readOnlyHint {})",
                    t["name"].as_str().unwrap_or("?"),
                    t["inputSchema"]["required"],
                    t["annotations"]["readOnlyHint"]
                )
            })
            .collect();
        return format!("tools: {}", names.join(", "));
    }
    let is_error = result["isError"].as_bool().unwrap_or(false);
    let text = result["content"][0]["text"].as_str().unwrap_or("");
    match result.get("structuredContent") {
        Some(structured) => {
            let agrees = serde_json::from_str::<Value>(text).ok().as_ref() == Some(structured);
            format!(
                "isError {is_error}; status {}; text block {} structuredContent",
                structured["status"],
                if agrees { "equals" } else { "DIFFERS FROM" }
            )
        }
        None => format!("isError {is_error}: {text}"),
    }
}

/// Where the transcript of the default configuration is kept (committed).
pub(crate) const RECORDED: &str = "data/mcp-run.json";

/// Where the transcript of any other configuration goes unless `--out`
/// says otherwise: under `target/`, which git ignores, so that running the
/// demo never changes the committed transcript.
pub(crate) const OTHER: &str = "target/demo/mcp-run.json";

/// Why `--out FILE` cannot be written where it says, before anything runs:
/// its folder does not exist, or is not a folder. The demo creates the
/// folders of its own default paths only; a path the user gave names a
/// place of theirs, and a typo there must not become a tree of new folders
/// (issue 49, item 5).
pub(crate) fn unwritable_out(out: &Path) -> Option<String> {
    let dir = out.parent().filter(|d| !d.as_os_str().is_empty())?;
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => None,
        Ok(_) => Some(format!(
            "--out {}: {} is not a folder",
            out.display(),
            dir.display()
        )),
        Err(_) => Some(format!(
            "--out {}: the folder {} does not exist (the demo creates no folder for --out)",
            out.display(),
            dir.display()
        )),
    }
}

/// Runs the demo. `is_default` says whether the effective configuration is
/// the textbook's; only then does the transcript go to [`RECORDED`] by
/// default, and only in the checkout ([`in_checkout`]).
pub(crate) fn run(
    config: &Option<PathBuf>,
    user: &Option<String>,
    out: Option<PathBuf>,
    is_default: bool,
) -> ExitCode {
    let outside = out.is_none() && !in_checkout();
    let chosen = out.is_some();
    let out = match out {
        Some(out) => out,
        None if outside => std::env::temp_dir().join("mcp-reference-demo/mcp-run.json"),
        None => PathBuf::from(if is_default { RECORDED } else { OTHER }),
    };
    match exchange(config, user) {
        Ok(transcript) => {
            if let Some(dir) = out
                .parent()
                .filter(|d| !d.as_os_str().is_empty() && !chosen)
                && let Err(e) = std::fs::create_dir_all(dir)
            {
                return fail(&format!("cannot create {}: {e}", dir.display()));
            }
            if let Err(e) = std::fs::write(&out, transcript) {
                return fail(&format!("cannot write {}: {e}", out.display()));
            }
            if outside {
                println!(
                    "\ntranscript written to {} (this directory is not the mcp-reference \
                     checkout, so nothing is written here; --out FILE chooses the file)",
                    out.display()
                );
            } else if is_default {
                println!("\ntranscript written to {}", out.display());
            } else {
                println!(
                    "\ntranscript written to {} (not {RECORDED}: that file is the textbook \
                     configuration's run)",
                    out.display()
                );
            }
            ExitCode::SUCCESS
        }
        Err(sentence) => fail(&sentence),
    }
}

/// Whether the working directory is the mcp-reference checkout (its
/// `Cargo.toml` and the book's Example 43.2 beside it): only there do the
/// default transcript paths, which are the checkout's, apply. Run from
/// anywhere else, the demo writes into the system's temporary folder
/// rather than create `data/` or `target/` in a stranger's directory.
fn in_checkout() -> bool {
    std::path::Path::new("Cargo.toml").is_file()
        && std::path::Path::new("data/example-43.2.request.json").is_file()
}

fn fail(sentence: &str) -> ExitCode {
    eprintln!("mcp-reference demo: {sentence}");
    ExitCode::FAILURE
}

/// A JSON string literal.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// The transcript file: `description, command, exchanges, exit_code`, each
/// exchange `request, response` with the lines exactly as they crossed the
/// pipes, nothing that varies between runs (no times, no paths but the
/// ones given).
fn transcript(command: &[String], exchanges: &[(String, String)], exit: Option<i32>) -> String {
    let command: Vec<String> = command.iter().map(|a| quoted(a)).collect();
    let exchanges: Vec<String> = exchanges
        .iter()
        .map(|(request, response)| {
            format!(
                "    {{\n      \"request\": {},\n      \"response\": {}\n    }}",
                quoted(request),
                quoted(response)
            )
        })
        .collect();
    let exit = exit.map_or_else(|| "null".to_owned(), |c| c.to_string());
    format!(
        "{{\n  \"description\": {},\n  \"command\": [{}],\n  \"exchanges\": [\n{}\n  ],\n  \"exit_code\": {exit}\n}}\n",
        quoted(
            "The textbook's recorded run: the five requests of Table 43.2 to `mcp-reference serve`, one line each way; request 3 and its reply are Example 43.2."
        ),
        command.join(", "),
        exchanges.join(",\n"),
    )
}

fn exchange(config: &Option<PathBuf>, user: &Option<String>) -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let mut args = vec!["serve".to_owned()];
    if let Some(config) = config {
        args.extend(["--config".to_owned(), config.display().to_string()]);
    }
    if let Some(user) = user {
        args.extend(["--user".to_owned(), user.clone()]);
    }
    let mut command = Command::new(exe);
    command.args(&args);
    command
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER");
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("the server has no stdin")?;
    let stdout = child.stdout.take().ok_or("the server has no stdout")?;

    // Replies are read on a thread so that each wait has a deadline.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line).is_err() {
                break;
            }
        }
    });

    println!("{:<3} {:<30} outcome", "id", "request");
    let mut exchanges = Vec::new();
    for (i, (label, line)) in requests().into_iter().enumerate() {
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot write request {}: {e}", i + 1))?;
        let reply = match rx.recv_timeout(DEADLINE) {
            Ok(Ok(reply)) => reply,
            Ok(Err(e)) => return Err(format!("cannot read reply {}: {e}", i + 1)),
            Err(_) => {
                let _ = child.kill();
                return Err(format!("no reply to request {} within 5 seconds", i + 1));
            }
        };
        let parsed: Value = serde_json::from_str(&reply)
            .map_err(|e| format!("reply {} is not JSON ({e}): {reply}", i + 1))?;
        println!("{:<3} {:<30} {}", i + 1, label, outcome(&parsed));
        exchanges.push((line, reply));
    }
    drop(stdin);

    let closed = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if closed.elapsed() < DEADLINE => std::thread::sleep(Duration::from_millis(2)),
            Ok(None) => {
                let _ = child.kill();
                return Err("the server did not exit within 5 seconds of end-of-input".into());
            }
            Err(e) => return Err(format!("cannot wait for the server: {e}")),
        }
    };
    if let Ok(Ok(extra)) = rx.try_recv() {
        return Err(format!("the server wrote an unrequested line: {extra}"));
    }
    println!("stdin closed; server exited with {status}");
    let mut shown = vec!["mcp-reference".to_owned()];
    shown.extend(args);
    Ok(transcript(&shown, &exchanges, status.code()))
}
