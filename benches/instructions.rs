//! The instruction-count regression gate: how many instructions one
//! `Server::respond_into` costs per request class, and one request of each
//! of the other paths a request takes (the HTTP binding, with and without
//! a cached verified token, and both rounds of a multi round-trip request:
//! [`paths`]), counted by valgrind's callgrind, compared with the committed
//! baseline.
//!
//! Wall-clock figures drift on a shared machine; instruction counts of the
//! same binary on the same input do not, so they can fail CI. The classes
//! and their reply checks are those of `benches/common` (the criterion
//! bench measures the same bytes).
//!
//! Usage (`cargo bench --bench instructions -- [FLAG]`):
//!
//! - no flag: measure every class, print the table, exit 1 when a class
//!   costs more than 10% over `benches/baseline/instructions.json` (or is
//!   missing from it);
//! - `--update`: measure and rewrite the baseline. Do it deliberately, in
//!   its own commit, when a change is worth its cost;
//! - `--measure CLASS N respond|floor` (internal): the process valgrind
//!   runs; answers the class's line N times inside `measured_respond` (a
//!   path's request inside its `measured_respond_*`), or runs the floor of
//!   `benches/dispatch.rs` N times inside `measured_floor`.
//!
//! The table also shows the floor's count (parse the line, or a path's
//! JSON-RPC body, into a `Value`, serialize it) and `now / floor`: a deterministic companion to the
//! wall-clock ratios of `benches/dispatch.rs`. Only `now` is gated.
//!
//! How a count is taken: callgrind starts with collection off
//! (`--collect-atstart=no`) and `--toggle-collect` turns it on only inside
//! `measured_respond` (and the paths' `measured_respond_*`), so process
//! start, configuration rendering, token minting and the reply check are
//! not counted. The output buffer is warmed by one call
//! outside the measured function, as the stdio driver's buffer is warm
//! after its first line. The count is the total over N calls divided by N.

mod common;
mod paths;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use mcp_reference::Server;
use mcp_reference_testkit::schema::Schema;
use serde_json::{Value, json};

/// Calls measured per class. Counts are per call, so this only sets how
/// much the fixed cost of entering the function is diluted.
const CALLS: u64 = 1000;

/// How much more than its baseline a class may cost before the gate fails.
const TOLERANCE: f64 = 0.10;

const BASELINE: &str = "benches/baseline/instructions.json";

#[inline(never)]
fn measured_respond(server: &Server, line: &[u8], out: &mut Vec<u8>) {
    out.clear();
    black_box(server.respond_into(black_box(line), out));
}

/// The floor of `benches/dispatch.rs`: parse into a `Value`, serialize it.
#[inline(never)]
fn measured_floor(line: &[u8]) {
    if let Ok(value) = serde_json::from_slice::<Value>(black_box(line)) {
        black_box(serde_json::to_vec(&value).ok());
    }
}

fn measure(name: &str, calls: u64, floor: bool) -> Result<(), String> {
    if let Some(done) = paths::measure(name, calls, floor.then_some(measured_floor as fn(&[u8]))) {
        return done;
    }
    let server = common::server();
    let class = common::classes()
        .into_iter()
        .find(|c| c.name == name)
        .ok_or_else(|| format!("no class named {name}"))?;
    class.check(&server)?;
    let mut out = Vec::new();
    // Warm-up, not counted: grows the buffer to its steady size.
    server.respond_into(&class.line, &mut out);
    if floor {
        measured_floor(&class.line);
        for _ in 0..calls {
            measured_floor(&class.line);
        }
        return Ok(());
    }
    for _ in 0..calls {
        measured_respond(&server, &class.line, &mut out);
    }
    Ok(())
}

/// Runs the `--measure` mode of this very binary under callgrind and
/// returns instructions per call of `what` (`respond` or `floor`).
fn count(exe: &Path, class: &str, what: &str, dir: &Path) -> Result<u64, String> {
    let out_file = dir.join(format!("callgrind.{class}.{what}.out"));
    let status = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg("--collect-atstart=no")
        .arg(format!("--toggle-collect=*measured_{what}*"))
        .arg(exe)
        .args(["--measure", class, &CALLS.to_string(), what])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run valgrind ({e}); install it (apt-get install valgrind)"))?;
    if !status.status.success() {
        return Err(format!(
            "valgrind on class {class} failed:\n{}",
            String::from_utf8_lossy(&status.stderr)
        ));
    }
    let text = std::fs::read_to_string(&out_file)
        .map_err(|e| format!("cannot read {}: {e}", out_file.display()))?;
    let total: u64 = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("no totals in {}", out_file.display()))?;
    if total == 0 {
        return Err(format!(
            "class {class}: callgrind counted nothing inside measured_{what} (was it inlined or renamed?)"
        ));
    }
    Ok((total + CALLS / 2) / CALLS)
}

fn rustc_version() -> String {
    Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|| "unknown".into())
}

/// Checks every class's reply (against its expectation and the official
/// schema) before counting anything.
fn check_all() -> Result<(), String> {
    let server = common::server();
    let schema = Schema::find("2026-07-28")
        .map_err(|e| format!("the official schema is needed to check bench replies: {e}"))?;
    for class in common::classes() {
        let reply = class.check(&server)?;
        let method = serde_json::from_slice::<Value>(&class.line)
            .ok()
            .and_then(|v| v["method"].as_str().map(str::to_owned));
        schema
            .validate_reply(method.as_deref(), &reply)
            .map_err(|e| format!("{}: reply breaks the schema: {e}", class.name))?;
    }
    // Each path judges its own replies (the model and the schema); no call
    // is counted here.
    for (name, _) in paths::PATHS {
        paths::measure(name, 0, None).unwrap_or_else(|| Err(format!("no path {name}")))?;
    }
    Ok(())
}

/// Every row of the gate: the request classes of `benches/common`, then
/// the paths of [`paths`], each as (baseline key, title).
fn rows() -> Vec<(&'static str, &'static str)> {
    let classes = common::classes().into_iter().map(|c| (c.name, c.title));
    classes.chain(paths::PATHS).collect()
}

fn gate(update: bool) -> Result<bool, String> {
    check_all()?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("instructions");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let baseline_path = Path::new(env!("CARGO_MANIFEST_DIR")).join(BASELINE);
    let toolchain = rustc_version();

    let mut now = BTreeMap::new();
    let mut floor = BTreeMap::new();
    for (name, _) in rows() {
        now.insert(name, count(&exe, name, "respond", &dir)?);
        floor.insert(name, count(&exe, name, "floor", &dir)?);
    }

    if update {
        let classes: serde_json::Map<String, Value> =
            now.iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
        let doc = json!({
            "about": "Instructions per Server::respond_into call, per request class, and per \
                      request of the HTTP and multi round-trip paths (benches/paths), under \
                      valgrind callgrind (cargo bench --bench instructions). Update only \
                      deliberately, in its own commit.",
            "toolchain": toolchain,
            "calls_per_class": CALLS,
            "classes": classes,
        });
        let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())? + "\n";
        std::fs::write(&baseline_path, text)
            .map_err(|e| format!("{}: {e}", baseline_path.display()))?;
        println!("wrote {}", baseline_path.display());
    }

    let baseline: Value = std::fs::read(&baseline_path)
        .map_err(|e| format!("{}: {e}", baseline_path.display()))
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))?;
    if baseline["toolchain"] != json!(toolchain) {
        println!(
            "note: baseline taken with {}, now {toolchain}; counts may shift with the compiler",
            baseline["toolchain"]
        );
    }
    println!(
        "| class | baseline | now | change | floor | now / floor | |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | --- |"
    );
    let mut ok = true;
    for (name, title) in rows() {
        let current = now[name];
        let Some(base) = baseline["classes"][name].as_u64() else {
            println!("| {title} | (none) | {current} | | | | FAIL: not in the baseline |");
            ok = false;
            continue;
        };
        let change = current as f64 / base as f64 - 1.0;
        let verdict = if change > TOLERANCE {
            ok = false;
            "FAIL: over the 10% tolerance"
        } else if change < -TOLERANCE {
            "better: consider updating the baseline"
        } else {
            "ok"
        };
        let floor = floor[name];
        println!(
            "| {title} | {base} | {current} | {:+.1}% | {floor} | {:.2} | {verdict} |",
            change * 100.0,
            current as f64 / floor as f64
        );
    }
    Ok(ok)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["--measure", class, calls, what] => match calls.parse() {
            Ok(n) => measure(class, n, *what == "floor").map(|()| true),
            Err(_) => Err(format!("not a number of calls: {calls}")),
        },
        // `cargo bench` passes `--bench`; the update flag may come with it.
        rest if rest.contains(&"--update") => gate(true),
        _ => gate(false),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("instructions: a request class costs more than 10% over its baseline");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("instructions: {e}");
            ExitCode::FAILURE
        }
    }
}
