//! Where the test servers are: the reference's `mcp-reference` binary
//! (built beside this package's `mcp-reference-tools` when the workspace is
//! built, as `cargo test --workspace` does), this package's own binary, and
//! the fault-injected `faulty_server` example (`examples/faulty_server.rs`),
//! which `cargo test` builds into `target/<profile>/examples/`.
//!
//! Used by the tests in `tests/` through `#[path]`.

#![allow(dead_code)]

use std::ffi::OsString;
use std::path::PathBuf;

/// This package's binary, `mcp-reference-tools`.
pub(crate) const TOOLS: &str = env!("CARGO_BIN_EXE_mcp-reference-tools");

/// The reference binary, `mcp-reference`, beside [`TOOLS`].
pub(crate) fn bin() -> String {
    let path = std::path::Path::new(TOOLS)
        .with_file_name(format!("mcp-reference{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: build the workspace (`cargo test --workspace` does)",
        path.display()
    );
    path.to_string_lossy().into_owned()
}

/// `mcp-reference serve`, as a command line.
pub(crate) fn reference() -> Vec<OsString> {
    vec![bin().into(), "serve".into()]
}

/// The fault-injected fixture. The test binary lives in
/// `target/<profile>/deps/`; the example beside it in `examples/`.
pub(crate) fn faulty_server() -> PathBuf {
    example("faulty_server")
}

/// The fault-injected HTTP fixture (`examples/faulty_http_server.rs`).
pub(crate) fn faulty_http_server() -> PathBuf {
    example("faulty_http_server")
}

fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary has a path");
    let profile = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test binary is in target/<profile>/deps");
    let path = profile
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: `cargo test` builds it; with a narrower command, run \
         `cargo build --example {name}` (with the same --release or not) first",
        path.display()
    );
    path
}

/// The fixture with these fault flags, as a command line.
pub(crate) fn faulty(flags: &[&str]) -> Vec<OsString> {
    let mut argv = vec![faulty_server().into_os_string()];
    argv.extend(flags.iter().map(OsString::from));
    argv
}

/// Runs the reference binary `mcp-reference` (which runs `check` and `diff`
/// through this package's binary) with `args`, without the configuration
/// variables: (exit code, stdout, stderr).
pub(crate) fn cli(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(bin())
        .args(args)
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER")
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whether process `pid` is running (a zombie, killed but not yet reaped,
/// is not), for the tests that nothing a server started outlives it.
#[cfg(target_os = "linux")]
pub(crate) fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
        !state.is_some_and(|s| s.starts_with('Z') || s.starts_with('X'))
    })
}

/// Waits up to ten seconds for every process of `pids` to stop running;
/// kills those still running and returns them.
#[cfg(target_os = "linux")]
pub(crate) fn left_running<'p>(pids: &[&'p str]) -> Vec<&'p str> {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while pids.iter().any(|p| running(p)) && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let left: Vec<&str> = pids.iter().copied().filter(|p| running(p)).collect();
    for pid in &left {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", pid])
            .status();
    }
    left
}

/// A server process started by a test, killed when dropped, and the
/// endpoint URL it announced on its first stderr line.
pub(crate) struct Running {
    child: std::process::Child,
    pub(crate) url: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `program ARGS...` without the configuration variables and reads
/// the URL it announces (`... http://HOST:PORT/PATH`) on stderr.
pub(crate) fn start_http(program: &std::path::Path, args: &[&str]) -> Running {
    use std::io::BufRead;
    let mut child = std::process::Command::new(program)
        .args(args)
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut line = String::new();
    if let Some(stderr) = child.stderr.take() {
        let _ = std::io::BufReader::new(stderr).read_line(&mut line);
    }
    let url = line
        .trim()
        .rsplit(' ')
        .next()
        .unwrap_or_default()
        .to_owned();
    assert!(url.starts_with("http://"), "announced {line:?}");
    Running { child, url }
}

/// `mcp-reference serve --http 127.0.0.1:0 ARGS...`.
pub(crate) fn serve_http(args: &[&str]) -> Running {
    let mut all = vec!["serve", "--http", "127.0.0.1:0"];
    all.extend_from_slice(args);
    start_http(std::path::Path::new(&bin()), &all)
}
