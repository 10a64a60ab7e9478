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

use serde_json::{Value, json};

const DEADLINE: Duration = Duration::from_secs(5);

/// The textbook's five requests: (what the table calls it, the line).
fn requests() -> Vec<(&'static str, String)> {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"textbook-demo","version":"1.0.0"}}"#;
    vec![
        (
            "server/discover",
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{meta}}}}}"#),
        ),
        (
            "tools/list",
            format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{{meta}}}}}"#),
        ),
        (
            "tools/call get_order A-104",
            format!(
                r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{{meta},"name":"get_order","arguments":{{"order_id":"A-104"}}}}}}"#
            ),
        ),
        (
            "tools/call get_order B-205",
            format!(
                r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{{meta},"name":"get_order","arguments":{{"order_id":"B-205"}}}}}}"#
            ),
        ),
        (
            "tools/call cancel_order A-104",
            format!(
                r#"{{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{{{meta},"name":"cancel_order","arguments":{{"order_id":"A-104"}}}}}}"#
            ),
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

pub fn run(config: &Option<PathBuf>, user: &Option<String>, out: &Path) -> ExitCode {
    match exchange(config, user) {
        Ok(transcript) => {
            let text = match serde_json::to_string_pretty(&transcript) {
                Ok(text) => text + "\n",
                Err(e) => return fail(&format!("cannot render the transcript: {e}")),
            };
            if let Err(e) = std::fs::write(out, text) {
                return fail(&format!("cannot write {}: {e}", out.display()));
            }
            println!("\ntranscript written to {}", out.display());
            ExitCode::SUCCESS
        }
        Err(sentence) => fail(&sentence),
    }
}

fn fail(sentence: &str) -> ExitCode {
    eprintln!("mcp-reference demo: {sentence}");
    ExitCode::FAILURE
}

fn exchange(config: &Option<PathBuf>, user: &Option<String>) -> Result<Value, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let mut command = Command::new(exe);
    command.arg("serve");
    if let Some(config) = config {
        command.arg("--config").arg(config);
    }
    if let Some(user) = user {
        command.arg("--user").arg(user);
    }
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
        exchanges.push(json!({ "request": line, "response": reply }));
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
    Ok(json!({
        "description": "The textbook's recorded run: five requests to `mcp-reference serve` with the default configuration, one line each way.",
        "command": ["mcp-reference", "serve"],
        "exchanges": exchanges,
        "exit_code": status.code(),
    }))
}
