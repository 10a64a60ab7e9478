//! `mcp-reference check`: holds any stdio MCP server to the protocol-level
//! rules of revision 2026-07-28 that hold whatever tools it offers.
//!
//! [`run`] launches the server's command (more than once when it has to:
//! see [`probes`]), runs every check of [`catalog::CHECKS`], and returns a
//! [`Report`]. Nothing in here knows the book-orders server: the checks
//! use only `server/discover`, `tools/list`, an unknown tool, an unknown
//! method, malformed lines and, for a server that declares them, the list,
//! read, get and complete methods of resources, prompts and completion
//! (two `TEXTBOOK` checks there know the book-orders data). The checker never hangs and never panics on
//! what a server does: every wait has a deadline, a server that stops
//! answering is replaced by a fresh process, and its output is read with
//! bounded memory.
//!
//! The modules:
//!
//! | module | owns |
//! | --- | --- |
//! | [`catalog`] | the checks: id, level, spec section, rule |
//! | [`ctx`] | the shared process ([`crate::process`]), waits and the run's deadline, pairing replies with requests |
//! | [`wire`] | request lines, pairing replies, raw ids, envelope rules |
//! | [`probes`] | the checks' exchanges and verdicts |
//! | `jsonrpc` | the checks of unreadable lines, and the level of a code check |
//! | [`features`] | the checks of resources, prompts and completion, for a server that declares them |
//! | `fixture` | whether a server holds a vectors fixture's data (its capabilities, tools and orders), asked of the model |
//! | `stateless` | `stateless.fresh-and-later`, on two processes of its own |
//! | `warm` | `stateless.warm`: the request checks again on a warm process |
//! | [`report`] | outcomes, verdict, table and JSON |
//! | [`http`] | `check --http URL`: the Streamable HTTP binding's checks, over [`crate::http_client`] |
//! | [`call`] | `check --call TOOL` / `--get PROMPT`: the opt-in checks that call named targets, over stdio or HTTP |
//! | [`auth`] | `check --http URL --auth`: the authorization checks, with tokens of its own |
//! | [`issuer`] | the loopback authorization server `--auth` starts (metadata and keys) |
//!
//! Spec: 2026-07-28 `basic/transports/stdio.mdx` (how a client launches and
//! talks to a stdio server); each check's own section is in the catalog and
//! in `docs/check.md`.

pub mod auth;
pub mod call;
pub mod catalog;
pub mod ctx;
pub mod features;
pub(crate) mod fixture;
pub mod http;
pub mod issuer;
mod jsonrpc;
pub mod probes;
pub mod report;
pub(crate) mod stateless;
mod warm;
pub mod wire;

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

pub use catalog::{CHECKS, CheckInfo, Level};
pub use report::{Entry, Failure, Outcome, Report, Verdict};

use mcp_reference_testkit::schema::{self, Schema};

/// What to check, and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// The server's command: program and arguments.
    pub command: Vec<OsString>,
    /// Extra environment variables for the server.
    pub env: Vec<(OsString, OsString)>,
    /// How long to wait for a process's first reply (start-up included).
    pub timeout: Duration,
    /// How long to wait for any later reply of a process that has
    /// answered.
    pub reply_timeout: Duration,
    /// How long the whole run may take; checks it cuts are not run.
    pub deadline: Duration,
    /// The 2026-07-28 `schema.json`; `None`: where the test kit's
    /// `schema::spec_dir` looks (`MCP_SPEC_DIR`, else beside the checkout).
    pub schema: Option<PathBuf>,
    /// The tools and prompts `--call` and `--get` name, in order: only
    /// these are ever called ([`call`]); none, and the call checks are not
    /// in the report.
    pub calls: Vec<call::Target>,
}

impl Options {
    /// Options for `command` with the default waits: 5 s for a first
    /// reply, 2 s for a later one, 120 s for the run.
    pub fn new(command: Vec<OsString>) -> Options {
        Options {
            command,
            env: Vec::new(),
            timeout: Duration::from_secs(5),
            reply_timeout: Duration::from_secs(2),
            deadline: Duration::from_secs(120),
            schema: None,
            calls: Vec::new(),
        }
    }
}

/// Why no report could be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The command could not be started (the sentence says why).
    Spawn(String),
    /// The schema named by `--schema` could not be loaded.
    Schema(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Spawn(s) | RunError::Schema(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for RunError {}

/// Runs every check against the command.
pub fn run(options: &Options) -> Result<Report, RunError> {
    let schemas = load_schemas(options)?;
    let launch = crate::process::Launch {
        argv: options.command.clone(),
        env: options.env.clone(),
        env_remove: Vec::new(),
    };
    let command = launch.display();
    let waits = ctx::Waits {
        first: options.timeout,
        reply: options.reply_timeout.min(options.timeout),
        run: options.deadline,
    };
    let mut cx = probes::Ctx::start(launch, waits).map_err(RunError::Spawn)?;
    // The request checks: on the shared process, then again on a warm one
    // (`warm`), where each of their requests follows valid requests of
    // other methods.
    let requests: [warm::Group; 8] = [
        probes::discover,
        probes::version,
        probes::meta,
        probes::method,
        jsonrpc::jsonrpc,
        probes::ids,
        probes::tools,
        features::features,
    ];
    let others: [warm::Group; 5] = [
        probes::notifications,
        probes::initialize,
        stateless::stateless,
        probes::eof,
        probes::robust,
    ];
    let mut results = Vec::new();
    for group in requests {
        results.extend(group(&mut cx));
    }
    let warm = warm::warm(&mut cx, &requests, &results);
    results.extend(warm);
    for group in others {
        results.extend(group(&mut cx));
    }
    let calls = if options.calls.is_empty() {
        Vec::new()
    } else {
        let schema = schemas.modern.as_ref().map_err(String::as_str);
        let mut link = call::link::Stdio {
            cx: &mut cx,
            requests: Vec::new(),
        };
        call::run(&mut link, &options.calls, schema)
    };
    cx.finish();
    results.extend(probes::stdout(&cx, &schemas));
    let mut entries = entries(CHECKS, &results);
    if !options.calls.is_empty() {
        entries.extend(self::entries(call::CALL_CHECKS, &calls));
    }
    Ok(Report {
        command,
        timeout_ms: u64::try_from(options.timeout.as_millis()).unwrap_or(u64::MAX),
        entries,
        processes: cx.processes(),
        stderr_bytes: cx.stderr_bytes(),
    })
}

/// The report's entries: each check of `checks`, in order, with its
/// outcome from `results` (a check without one is reported as not run).
pub(crate) fn entries(checks: &[CheckInfo], results: &[(&str, Outcome)]) -> Vec<Entry> {
    checks
        .iter()
        .map(|check| Entry {
            check: *check,
            outcome: results
                .iter()
                .find(|(id, _)| *id == check.id)
                .map(|(_, o)| o.clone())
                .unwrap_or_else(|| Outcome::NotRun("not run (a bug in the checker)".into())),
        })
        .collect()
}

fn load_schemas(options: &Options) -> Result<probes::Schemas, RunError> {
    match &options.schema {
        Some(file) => {
            let modern = Schema::load_file(file, wire::VERSION).map_err(RunError::Schema)?;
            // Legacy schemas, for legacy initialize results: beside it, as
            // <dir>/<version>/schema.json, when laid out that way.
            let dir = file
                .parent()
                .and_then(|p| p.parent())
                .map(PathBuf::from)
                .or_else(schema::spec_dir);
            Ok(probes::Schemas {
                modern: Ok(modern),
                dir,
            })
        }
        None => {
            // The reason is check's own, in a few words: the test suite's
            // sentence (`schema::missing`) speaks of tests to run.
            let dir = schema::spec_dir();
            let modern = match &dir {
                None => Err(format!("none at {}", schema::where_looked())),
                Some(d) if !d.join(wire::VERSION).join("schema.json").is_file() => Err(format!(
                    "none at {}",
                    d.join(wire::VERSION).join("schema.json").display()
                )),
                Some(d) => Schema::find_in(Some(d), wire::VERSION),
            };
            Ok(probes::Schemas { modern, dir })
        }
    }
}
