//! `judge`: serves exactly as `serve` does (the same stdio driver, the same
//! HTTP driver, the same core) and hands every message the client sends,
//! with the server's reply, to the pure client judge
//! ([`mcp_reference::judge::Judge`]). This file is I/O glue: the report
//! file, stderr's summary, signals and the `--duration` timer. No rule is
//! decided here.
//!
//! - The report (`--report FILE`) is rewritten as the session goes, whole
//!   and atomically (a temporary file beside it, then a rename), so that a
//!   host that kills the server outright still leaves the last verdict:
//!   over stdio whenever the driver is about to wait for input, over HTTP
//!   at most every [`EVERY`] while requests arrive; and once more when the
//!   session ends.
//! - The session ends at stdin's end of file (stdio), at SIGTERM or SIGINT
//!   (either binding), or when `--duration` has elapsed. Then the last
//!   report is written and the summary (one line per failing rule, then the
//!   verdict) goes to stderr.
//! - The exit status is `serve`'s: 0 at the end of stdin, 1 when reading it
//!   fails; over HTTP 0 after the graceful stop. A signal over stdio, which
//!   `serve` does not catch, exits 128 plus the signal's number (143 for
//!   SIGTERM, 130 for SIGINT), the status a shell shows for a process the
//!   signal ended; `--duration` exits 0. A judged session never looks like
//!   a crashed server (docs/judge.md, "Exit status").
//! - Provocations (docs/judge.md, "Provocations"; issue 48): legal server
//!   moves a passive server never makes, opt-in, each named in the
//!   report's `provocations`. `--slow-tool NAME=MS` (HTTP only) holds the
//!   answer to every `tools/call` of NAME for MS milliseconds before it is
//!   sent and before the judge reads it, so that the client's other
//!   requests meanwhile are judged with that one in flight (CLI-03, CLI-19,
//!   CLI-21 of `basic/index.mdx#requests`,
//!   `basic/patterns/cancellation.mdx`, `basic/patterns/progress.mdx`).
//!   The answer itself is the core's, unchanged.

use std::io::{self, Write as _};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use mcp_reference::http::{Request, Response};
use mcp_reference::judge::{Ending, Judge, Transport};
use mcp_reference::{LogLevel, Observer, Server};

use super::http::{self, Stop, Watch};
use super::issuer;

/// How often, at most, the HTTP judge rewrites the report while requests
/// arrive.
const EVERY: Duration = Duration::from_millis(200);

/// The judge of one session and where its report goes.
struct Shared {
    judge: Mutex<Judge>,
    report: Option<PathBuf>,
    server: Arc<Server>,
    /// When the report was last written; held for the whole of a write, so
    /// two writers (an HTTP exchange and the session's end) never share
    /// the temporary file.
    written: Mutex<Option<Instant>>,
    /// Whether the session has ended; held for the whole of the ending, so
    /// that stdin's end of file and a signal arriving together end it once
    /// (both used to write the report at the same time: an empty report
    /// about one run in twelve).
    ended: Mutex<bool>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Judge> {
        // A panic while judging (a bug) must not stop the server answering.
        self.judge
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Writes the report now.
    fn write(&self) {
        let Some(path) = &self.report else {
            return;
        };
        let mut written = self
            .written
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let text = self.lock().report().to_json();
        if let Err(e) = write_atomically(path, text.as_bytes()) {
            eprintln!(
                "mcp-reference: judge: cannot write the report {}: {e}",
                path.display()
            );
        }
        *written = Some(Instant::now());
    }

    /// Writes the report unless it was written less than [`EVERY`] ago.
    fn write_soon(&self) {
        let recent = self
            .written
            .lock()
            .ok()
            .and_then(|w| *w)
            .is_some_and(|at| at.elapsed() < EVERY);
        if !recent {
            self.write();
        }
    }

    /// Ends the session, once: the last report, and the summary on
    /// stderr. The guard returned is held until the process exits or
    /// returns, so a second ending (a signal at stdin's end of file) waits
    /// for the first instead of writing over it; `None` when the session
    /// had already ended.
    fn finish(&self, ending: Ending) -> Option<MutexGuard<'_, bool>> {
        let mut ended = self
            .ended
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if *ended {
            return None;
        }
        *ended = true;
        self.lock().end(ending);
        self.write();
        let summary = self.lock().report().summary();
        let _ = io::stderr().write_all(summary.as_bytes());
        Some(ended)
    }
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over
/// `path`: a reader sees the old report or the new one, never half of one.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "report.json".into());
    let temporary = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&temporary, bytes)?;
    std::fs::rename(&temporary, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temporary);
    })
}

/// The judge's side of the stdio driver.
struct Lines<'s> {
    shared: &'s Shared,
    dirty: bool,
}

impl Observer for Lines<'_> {
    fn line(&mut self, line: &[u8], replies: &[u8]) {
        let mut judge = self.shared.lock();
        let ticket = judge.client(&self.shared.server, line);
        judge.server(ticket, replies);
        self.dirty = true;
    }

    fn waiting(&mut self) {
        if std::mem::take(&mut self.dirty) {
            self.shared.write();
        }
    }
}

/// The judge's side of the HTTP driver.
struct Exchanges {
    shared: Arc<Shared>,
    /// `--slow-tool`: how long the answer to each named tool is held.
    slow: Vec<SlowTool>,
}

impl Watch for Exchanges {
    fn request(&self, request: &Request<'_>) -> u64 {
        let mut judge = self.shared.lock();
        judge.client_http(&self.shared.server, request).number()
    }

    fn refused(&self, request: &Request<'_>) -> u64 {
        let mut judge = self.shared.lock();
        judge
            .client_http_head(&self.shared.server, request)
            .number()
    }

    fn hold(&self, request: &Request<'_>) -> Option<Duration> {
        if self.slow.is_empty() {
            return None;
        }
        let name = called_tool(request.body)?;
        self.slow
            .iter()
            .find(|slow| slow.name == name)
            .map(|slow| Duration::from_millis(slow.ms))
    }

    fn response(&self, ticket: u64, response: &Response) {
        self.shared
            .lock()
            .server_http(mcp_reference::judge::Ticket::from_number(ticket), response);
        self.shared.write_soon();
    }
}

/// The tool a body calls: `params.name` of a `tools/call` request (one
/// JSON object, as the binding reads a body); `None` for anything else.
fn called_tool(body: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    if value.get("method")?.as_str()? != "tools/call" || value.get("id").is_none() {
        return None;
    }
    Some(value.pointer("/params/name")?.as_str()?.to_owned())
}

/// The longest hold `--slow-tool` accepts, in milliseconds.
const SLOWEST: u64 = 60_000;

/// `--slow-tool NAME=MS`: hold the answers to the tool NAME for MS
/// milliseconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SlowTool {
    pub(crate) name: String,
    pub(crate) ms: u64,
}

impl SlowTool {
    /// Its entry in the report's `provocations`.
    fn provocation(&self) -> String {
        format!("slow-tool {} {}ms", self.name, self.ms)
    }
}

/// Parses `NAME=MS` (whether NAME is a tool is checked against the
/// configuration at start, in [`run`]).
pub(crate) fn parse_slow_tool(s: &str) -> Result<SlowTool, String> {
    let Some((name, ms)) = s.rsplit_once('=') else {
        return Err(
            "write NAME=MS, a tool and a delay in milliseconds, such as \
                    test_simple_text=1000"
                .into(),
        );
    };
    if name.is_empty() {
        return Err("the tool NAME before = is empty".into());
    }
    match ms.parse::<u64>() {
        Ok(ms) if (1..=SLOWEST).contains(&ms) => Ok(SlowTool {
            name: name.to_owned(),
            ms,
        }),
        _ => Err(format!(
            "the delay MS after = must be an integer from 1 to {SLOWEST} (milliseconds), not {ms:?}"
        )),
    }
}

/// Why `--slow-tool` cannot be honoured, checked before serving: over
/// stdio at all, or a NAME that is not a tool of the configuration (as its
/// `tools/list` answers), or one NAME given twice.
fn refused_slow_tools(server: &Server, slow: &[SlowTool], http: bool) -> Option<String> {
    if slow.is_empty() {
        return None;
    }
    if !http {
        return Some(
            "--slow-tool needs --http: the stdio driver answers each line before it reads the \
             next, so a held answer there would put no other request in flight"
                .into(),
        );
    }
    let tools = tool_names(server);
    for (n, tool) in slow.iter().enumerate() {
        if !tools.contains(&tool.name) {
            return Some(format!(
                "--slow-tool {}={}: the configuration has no tool {:?} (its tools: {})",
                tool.name,
                tool.ms,
                tool.name,
                tools.join(", ")
            ));
        }
        if slow
            .get(..n)
            .is_some_and(|e| e.iter().any(|t| t.name == tool.name))
        {
            return Some(format!(
                "--slow-tool names the tool {:?} twice: give each tool one delay",
                tool.name
            ));
        }
    }
    None
}

/// The names of the configuration's tools, from the core's own answer to
/// `tools/list` (the one a client gets).
fn tool_names(server: &Server) -> Vec<String> {
    let version = server
        .config()
        .versions()
        .first()
        .cloned()
        .unwrap_or_default();
    let line = serde_json::json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/list",
        "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "mcp-reference judge", "version": "0"},
        }},
    })
    .to_string();
    let answer = server
        .respond(line.as_bytes())
        .and_then(|reply| serde_json::from_slice::<serde_json::Value>(&reply).ok());
    answer
        .as_ref()
        .and_then(|a| a.pointer("/result/tools"))
        .and_then(serde_json::Value::as_array)
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t.get("name")?.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// What `judge` was asked for.
pub(crate) struct Options {
    pub(crate) report: Option<PathBuf>,
    pub(crate) duration: Option<u64>,
    pub(crate) http: Option<SocketAddr>,
    pub(crate) issuer_ca: Option<PathBuf>,
    pub(crate) slow_tools: Vec<SlowTool>,
}

/// Runs the judged session.
pub(crate) fn run(
    config: mcp_reference::Config,
    options: Options,
    file: Option<&Path>,
    (level, warning): (LogLevel, Option<String>),
) -> ExitCode {
    if let Some(path) = &options.report
        && let Some(sentence) = unwritable(path)
    {
        return super::refuse(&sentence);
    }
    let transport = if options.http.is_some() {
        Transport::Http
    } else {
        Transport::Stdio
    };
    let server = Arc::new(Server::new(config.clone()));
    let slow = &options.slow_tools;
    if let Some(sentence) = refused_slow_tools(&server, slow, options.http.is_some()) {
        return super::refuse(&sentence);
    }
    let provocations = slow.iter().map(SlowTool::provocation).collect();
    let shared = Arc::new(Shared {
        judge: Mutex::new(Judge::new(transport, provocations)),
        report: options.report.clone(),
        server,
        written: Mutex::new(None),
        ended: Mutex::new(false),
    });
    shared.write();
    match options.http {
        Some(addr) => http_session(config, (addr, file), &options, (level, warning), shared),
        None => {
            if let Some(warning) = warning {
                eprintln!("{warning}");
            }
            stdio_session(&shared, options.duration, level)
        }
    }
}

fn stdio_session(shared: &Arc<Shared>, duration: Option<u64>, level: LogLevel) -> ExitCode {
    // Signals and the duration end the process from a thread of their
    // own: the driver may be blocked reading stdin. The handlers are in
    // place before the first line is read, so an early signal is caught.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return super::refuse(&format!("cannot start the signal handler: {e}")),
    };
    let signals = {
        let _inside = runtime.enter();
        Signals::new()
    };
    let ender = Arc::clone(shared);
    std::thread::spawn(move || {
        let code = runtime.block_on(async move {
            match duration {
                None => Some(signals.wait().await),
                Some(seconds) => tokio::select! {
                    n = signals.wait() => Some(n),
                    () = tokio::time::sleep(Duration::from_secs(seconds)) => None,
                },
            }
        });
        let (ending, status) = match code {
            Some(n) => (Ending::Signal, 128 + n),
            None => (Ending::Duration, 0),
        };
        // Exits holding the guard: stdin's end of file, arriving now,
        // waits for it rather than writing a report of its own. When the
        // end of file came first, its thread is ending the process.
        if let Some(_ended) = ender.finish(ending) {
            std::process::exit(status);
        }
    });
    let mut lines = Lines {
        shared,
        dirty: false,
    };
    let stdin = io::stdin().lock();
    let stdout = io::stdout();
    // Not locked for the session: the signal thread writes the summary to
    // stderr, and would wait forever for a lock held here (found by the
    // faulty client fixture on branch judge-fixture, `stdio.close-first`).
    let stderr = io::stderr();
    let served = mcp_reference::serve_observed(
        &shared.server,
        (stdin, stdout, stderr),
        level,
        Some(&mut lines),
    );
    let status = match served {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            if level >= LogLevel::Error {
                eprintln!("mcp-reference: reading stdin failed: {e}");
            }
            ExitCode::FAILURE
        }
    };
    // When a signal ended the session first, this waits for its thread to
    // exit the process with the signal's status.
    let _ended = shared.finish(Ending::StdinClosed);
    status
}

fn http_session(
    config: mcp_reference::Config,
    (addr, file): (SocketAddr, Option<&Path>),
    options: &Options,
    (level, warning): (LogLevel, Option<String>),
    shared: Arc<Shared>,
) -> ExitCode {
    if !config.legacy_versions().is_empty() {
        return super::refuse(
            "the legacy initialize handshake is not served over HTTP (--legacy or legacy_versions \
             with --http): judge legacy hosts over stdio, or drop the legacy versions",
        );
    }
    let server = Server::new(config);
    if let Err(sentence) = http::preflight(&server, addr, file) {
        return super::refuse(&sentence);
    }
    let client = match issuer::Client::new(options.issuer_ca.as_deref()) {
        Ok(client) => client,
        Err(sentence) => return super::refuse(&sentence),
    };
    let watch: Arc<dyn Watch> = Arc::new(Exchanges {
        shared: Arc::clone(&shared),
        slow: options.slow_tools.clone(),
    });
    let until = options.duration.map(Duration::from_secs);
    match http::serve(server, addr, client, (level, warning), (Some(watch), until)) {
        Ok(stop) => {
            let _ended = shared.finish(match stop {
                Stop::Signal => Ending::Signal,
                Stop::Elapsed => Ending::Duration,
            });
            ExitCode::SUCCESS
        }
        Err(sentence) => {
            eprintln!("mcp-reference: {sentence}");
            ExitCode::FAILURE
        }
    }
}

/// Why the report file cannot be written, checked before serving: its
/// folder must exist.
fn unwritable(path: &Path) -> Option<String> {
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Some(format!(
            "--report {}: the folder {} does not exist",
            path.display(),
            parent.display()
        ));
    }
    if path.is_dir() {
        return Some(format!("--report {}: is a folder", path.display()));
    }
    None
}

/// The SIGTERM and SIGINT handlers.
struct Signals {
    #[cfg(unix)]
    term: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    int: Option<tokio::signal::unix::Signal>,
}

impl Signals {
    /// Installs the handlers (inside a runtime).
    #[cfg(unix)]
    fn new() -> Signals {
        use tokio::signal::unix::{SignalKind, signal};
        Signals {
            term: signal(SignalKind::terminate()).ok(),
            int: signal(SignalKind::interrupt()).ok(),
        }
    }

    /// See the Unix version: Ctrl-C only.
    #[cfg(not(unix))]
    fn new() -> Signals {
        Signals {}
    }

    /// Waits for either signal: its number (15 or 2).
    #[cfg(unix)]
    async fn wait(mut self) -> i32 {
        match (self.term.as_mut(), self.int.as_mut()) {
            (Some(term), Some(int)) => tokio::select! {
                _ = term.recv() => 15,
                _ = int.recv() => 2,
            },
            (Some(term), None) => {
                term.recv().await;
                15
            }
            (None, Some(int)) => {
                int.recv().await;
                2
            }
            (None, None) => std::future::pending().await,
        }
    }

    /// See the Unix version.
    #[cfg(not(unix))]
    async fn wait(self) -> i32 {
        let _ = tokio::signal::ctrl_c().await;
        2
    }
}

#[cfg(test)]
mod slow_tool_tests {
    use super::{SlowTool, called_tool, parse_slow_tool};

    #[test]
    fn a_name_and_a_delay_from_1_to_60000_ms() {
        assert_eq!(
            parse_slow_tool("test_simple_text=1000"),
            Ok(SlowTool {
                name: "test_simple_text".into(),
                ms: 1000
            })
        );
        // The delay follows the last `=`: a tool name may hold one.
        assert_eq!(
            parse_slow_tool("a=b=60000").map(|s| (s.name, s.ms)),
            Ok(("a=b".into(), 60_000))
        );
        for bad in ["x=0", "x=60001", "x=-1", "x=1.5", "x=", "x", "=5", ""] {
            assert!(parse_slow_tool(bad).is_err(), "{bad:?}");
        }
        let named = parse_slow_tool("t=5").expect("t=5 parses");
        assert_eq!(named.provocation(), "slow-tool t 5ms");
    }

    #[test]
    fn only_a_tools_call_request_names_a_tool() {
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#;
        assert_eq!(called_tool(call).as_deref(), Some("t"));
        for other in [
            &br#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"t"}}"#[..],
            br#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"t"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}"#,
            br#"[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}]"#,
            b"not json",
            b"",
        ] {
            assert_eq!(
                called_tool(other),
                None,
                "{}",
                String::from_utf8_lossy(other)
            );
        }
    }
}
