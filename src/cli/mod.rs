//! Command-line parsing and the subcommands. Everything here is I/O glue
//! around the library: no protocol rule lives in this folder.
//!
//! `check`, `diff` and `bench` are the implementer tools, which live in a package of
//! their own (`tools/`, binary `mcp-reference-tools`) so that this binary
//! links none of their dependencies: `mcp-reference check ARGS...` runs
//! `mcp-reference-tools check ARGS...` from beside this program, or from
//! `PATH`, the way cargo runs its external subcommands.

mod demo;
mod http;
mod issuer;
mod judge;
mod tokens;

use std::ffi::OsString;
use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command as Process, ExitCode};

use clap::{Parser, Subcommand};
use mcp_reference::{Config, End, LogLevel, Server};

/// Exit code for a bad flag or configuration.
const USAGE: u8 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "mcp-reference",
    version,
    about = "Reference MCP 2026-07-28 server \"book-orders\" over stdio"
)]
struct Cli {
    /// Configuration file (JSON); replaces the built-in textbook data.
    #[arg(long, global = true, env = "MCP_REFERENCE_CONFIG", value_name = "FILE")]
    config: Option<PathBuf>,

    /// The trusted user (overrides the configuration's).
    #[arg(long, global = true, env = "MCP_REFERENCE_USER", value_name = "USER")]
    user: Option<String>,

    /// Also serve these legacy protocol versions through the `initialize`
    /// handshake, comma-separated: 2025-11-25,2025-06-18 (overrides the
    /// configuration's `legacy_versions`; off by default).
    #[arg(long, global = true, value_name = "VERSIONS", value_delimiter = ',')]
    legacy: Option<Vec<String>>,

    /// Log level on stderr: off, error, warn, info or debug.
    #[arg(long, global = true, default_value = "warn", value_name = "LEVEL", value_parser = parse_level)]
    log_level: LogLevel,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve MCP over stdin/stdout (the default), or over Streamable HTTP
    /// with `--http`.
    Serve {
        /// Serve Streamable HTTP on this address instead of stdio, for
        /// example 127.0.0.1:8080 (endpoint /mcp; port 0 picks a free
        /// port). A non-loopback address needs http.allowed_origins in the
        /// configuration file.
        #[arg(long, value_name = "ADDR", value_parser = parse_addr)]
        http: Option<SocketAddr>,
        /// With --http (ignored without): also trust the CA certificates in this PEM file when
        /// fetching the authorization server's metadata and keys over
        /// https (besides the built-in Mozilla roots).
        #[arg(long, value_name = "FILE", env = "MCP_REFERENCE_ISSUER_CA")]
        issuer_ca: Option<PathBuf>,
    },
    /// Serve exactly as `serve` does, and judge the client connected to it
    /// against the client rules of 2026-07-28 (docs/judge.md): a report
    /// when the session ends, a summary on stderr.
    Judge {
        /// Write the verdict here as JSON, kept current as the session goes
        /// (replaced atomically) and final when it ends.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        /// End the session after this many seconds (besides the end of
        /// stdin, SIGTERM and SIGINT).
        #[arg(long, value_name = "SECONDS")]
        duration: Option<u64>,
        /// Serve and judge Streamable HTTP on this address instead of
        /// stdio (as `serve --http`).
        #[arg(long, value_name = "ADDR", value_parser = parse_addr)]
        http: Option<SocketAddr>,
        /// With --http: as `serve --issuer-ca`.
        #[arg(long, value_name = "FILE", env = "MCP_REFERENCE_ISSUER_CA")]
        issuer_ca: Option<PathBuf>,
        /// With --http (refused over stdio): a provocation; hold the answer
        /// to every `tools/call` of the tool NAME for MS milliseconds (1 to
        /// 60000), so that requests sent meanwhile are judged with that
        /// one in flight. Repeatable, one tool each (docs/judge.md,
        /// "Provocations").
        #[arg(long, value_name = "NAME=MS", value_parser = judge::parse_slow_tool)]
        slow_tool: Vec<judge::SlowTool>,
    },
    /// Run the textbook's five requests against a `serve` subprocess, print
    /// a table, and write the transcript.
    Demo {
        /// Where to write the transcript [default: data/mcp-run.json for the
        /// textbook configuration, target/demo/mcp-run.json for any other,
        /// so the committed transcript only ever holds the textbook's run].
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Check any stdio MCP server against the protocol rules of 2026-07-28
    /// that hold whatever tools it offers: `check [OPTIONS] -- CMD
    /// [ARGS...]` (runs mcp-reference-tools; `check --help` for its options).
    #[command(disable_help_flag = true)]
    Check {
        /// The arguments of `mcp-reference-tools check`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<OsString>,
    },
    /// Compare another implementation of book-orders with this reference on
    /// generated cases: `diff [OPTIONS] -- CMD [ARGS...]` (runs
    /// mcp-reference-tools; `diff --help` for its options).
    #[command(disable_help_flag = true)]
    Diff {
        /// The arguments of `mcp-reference-tools diff`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<OsString>,
    },
    /// Measure a server (stdio or HTTP) against the reference, on the same
    /// workload in the same run: `bench [OPTIONS] -- CMD [ARGS...]` or
    /// `bench --http URL` (runs mcp-reference-tools; `bench --help` for its
    /// options).
    #[command(disable_help_flag = true)]
    Bench {
        /// The arguments of `mcp-reference-tools bench`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<OsString>,
    },
}

/// The binary that holds `check`, `diff` and `bench`.
const TOOLS: &str = "mcp-reference-tools";

/// Runs `mcp-reference-tools` with `args` (the subcommand first): the one
/// beside this program if there is one, else the one on `PATH`. Its exit
/// code is this program's.
fn tools(args: &[OsString]) -> ExitCode {
    let name = format!("{TOOLS}{}", std::env::consts::EXE_SUFFIX);
    let beside = std::env::current_exe()
        .ok()
        .map(|exe| exe.with_file_name(&name))
        .filter(|path| path.is_file());
    let program = beside.map_or_else(|| OsString::from(&name), PathBuf::into_os_string);
    let mut command = Process::new(&program);
    command.args(args);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Replaces this process: signals, stdin and stdout go straight to it.
        let error = command.exec();
        tools_missing(&error)
    }
    #[cfg(not(unix))]
    match command.status() {
        Ok(status) => ExitCode::from(u8::try_from(status.code().unwrap_or(1)).unwrap_or(1)),
        Err(error) => tools_missing(&error),
    }
}

fn tools_missing(error: &io::Error) -> ExitCode {
    let sub = std::env::args().nth(1).unwrap_or_default();
    if error.kind() == io::ErrorKind::NotFound {
        refuse(&format!(
            "{sub} is in the {TOOLS} binary, which is not beside this one nor on PATH: build it \
             with `cargo build --release -p {TOOLS}` (or install it with `cargo install --path tools`)"
        ))
    } else {
        refuse(&format!("cannot run {TOOLS}: {error}"))
    }
}

/// `--http ADDR`: an IP address and a port. A host name is not resolved
/// (which of its addresses would be bound is the resolver's choice, and
/// the loopback rules depend on it), so `localhost:8080` gets a hint.
fn parse_addr(s: &str) -> Result<SocketAddr, String> {
    s.parse().map_err(|_| {
        let port = s.rsplit_once(':').map_or("8080", |(_, p)| p);
        let port = if port.parse::<u16>().is_ok() {
            port
        } else {
            "8080"
        };
        format!(
            "{s:?} is not an IP address and port: write one such as 127.0.0.1:{port} or \
             [::1]:{port} (host names such as localhost are not resolved)"
        )
    })
}

fn parse_level(s: &str) -> Result<LogLevel, String> {
    LogLevel::parse(s).ok_or_else(|| format!("{s:?} is not one of off, error, warn, info, debug"))
}

/// Prints one sentence on stderr and returns the usage exit code.
fn refuse(sentence: &str) -> ExitCode {
    eprintln!("mcp-reference: {sentence}");
    ExitCode::from(USAGE)
}

pub(crate) fn main() -> ExitCode {
    // `check`, `diff` and `bench` take their own options, not this program's.
    let argv: Vec<OsString> = std::env::args_os().collect();
    if let Some(sub) = argv.get(1).and_then(|a| a.to_str())
        && matches!(sub, "check" | "diff" | "bench")
    {
        return tools(argv.get(1..).unwrap_or_default());
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let rendered = e.to_string();
            let first = rendered.lines().next().unwrap_or("bad arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            return refuse(&format!("{first} (see mcp-reference --help)"));
        }
    };
    let config = match load_config(&cli) {
        Ok(config) => config,
        Err(sentence) => return refuse(&sentence),
    };
    let stdio = Command::Serve {
        http: None,
        issuer_ca: None,
    };
    let command = cli.command.unwrap_or(stdio);
    let launch_user = match &command {
        Command::Serve { http: Some(_), .. } | Command::Judge { http: Some(_), .. } => config
            .http()
            .authorization
            .as_ref()
            .and_then(|a| a.oauth())
            .is_none(),
        _ => true,
    };
    let warning = (launch_user && cli.log_level >= LogLevel::Warn)
        .then(|| user_without_orders(&config))
        .flatten()
        .map(|sentence| format!("mcp-reference: warning: {sentence}"));
    // Over HTTP the warning follows the line that names the address, which
    // stays the first line on stderr.
    let http = matches!(
        command,
        Command::Serve { http: Some(_), .. } | Command::Judge { .. }
    );
    if let (false, Some(warning)) = (http, &warning) {
        eprintln!("{warning}");
    }
    match command {
        Command::Serve { http: None, .. } => serve(config, cli.log_level),
        Command::Serve {
            http: Some(addr),
            issuer_ca,
        } => serve_http(
            config,
            (addr, cli.config.as_deref()),
            issuer_ca.as_deref(),
            (cli.log_level, warning),
        ),
        Command::Judge {
            report,
            duration,
            http,
            issuer_ca,
            slow_tool,
        } => judge::run(
            config,
            judge::Options {
                report,
                duration,
                http,
                issuer_ca,
                slow_tools: slow_tool,
            },
            cli.config.as_deref(),
            (cli.log_level, warning),
        ),
        Command::Demo { out } => {
            if let Some(sentence) = out.as_deref().and_then(demo::unwritable_out) {
                return refuse(&sentence);
            }
            let is_default = config == Config::default();
            demo::run(&cli.config, &cli.user, out, is_default)
        }
        Command::Check { args } => tools(&[&[OsString::from("check")], &args[..]].concat()),
        Command::Diff { args } => tools(&[&[OsString::from("diff")], &args[..]].concat()),
        Command::Bench { args } => tools(&[&[OsString::from("bench")], &args[..]].concat()),
    }
}

/// A warning when the trusted user owns none of the configuration's
/// orders (a misspelt `--user`, or a user from another configuration):
/// every `get_order` would then answer as for an order that does not exist,
/// which looks like a broken server. Not a refusal: a user with no order
/// yet is a real case (docs/behavior.md, DEC29's launch user).
fn user_without_orders(config: &Config) -> Option<String> {
    let mut owners: Vec<&str> = config.orders().iter().map(|o| o.owner.as_str()).collect();
    owners.sort_unstable();
    owners.dedup();
    if owners.is_empty() || owners.contains(&config.user()) {
        return None;
    }
    Some(format!(
        "the user {:?} owns no order in this configuration (owners: {}), so every order will \
         read as not found; --user or MCP_REFERENCE_USER names the user",
        config.user(),
        owners.join(", ")
    ))
}

fn load_config(cli: &Cli) -> Result<Config, String> {
    let config = match &cli.config {
        Some(path) => Config::load(path).map_err(|e| e.to_string())?,
        None => Config::default(),
    };
    let config = match &cli.legacy {
        Some(versions) => config
            .with_legacy_versions(versions.clone())
            .map_err(|e| format!("--legacy: {e}"))?,
        None => config,
    };
    match &cli.user {
        Some(user) => config
            .with_user(user.as_str())
            .map_err(|e| format!("--user: {e}")),
        None => Ok(config),
    }
}

/// `serve --http`: exit 0 after a graceful shutdown; 2 for what is refused
/// before listening (legacy versions, a non-loopback address without
/// origins or authorization, an issuer fetched over plain http from afar,
/// an unreadable `--issuer-ca`); 1 when listening, fetching the issuer's
/// keys or serving fails.
fn serve_http(
    config: Config,
    (addr, file): (SocketAddr, Option<&std::path::Path>),
    issuer_ca: Option<&std::path::Path>,
    (level, warning): (LogLevel, Option<String>),
) -> ExitCode {
    if !config.legacy_versions().is_empty() {
        return refuse(
            "the legacy initialize handshake is not served over HTTP (--legacy or legacy_versions \
             with --http): serve legacy hosts over stdio, or drop the legacy versions",
        );
    }
    let server = Server::new(config);
    if let Err(sentence) = http::preflight(&server, addr, file) {
        return refuse(&sentence);
    }
    let client = match issuer::Client::new(issuer_ca) {
        Ok(client) => client,
        Err(sentence) => return refuse(&sentence),
    };
    match http::serve(server, addr, client, (level, warning), (None, None)) {
        Ok(_) => ExitCode::SUCCESS,
        Err(sentence) => {
            eprintln!("mcp-reference: {sentence}");
            ExitCode::FAILURE
        }
    }
}

fn serve(config: Config, level: LogLevel) -> ExitCode {
    let server = Server::new(config);
    let stdin = io::stdin().lock();
    // Written from the driver's writer thread (a lock cannot move there).
    let stdout = io::stdout();
    let stderr = io::stderr().lock();
    match mcp_reference::serve(&server, stdin, stdout, stderr, level) {
        Ok((End::EndOfInput | End::OutputClosed, _)) => ExitCode::SUCCESS,
        Err(e) => {
            if level >= LogLevel::Error {
                eprintln!("mcp-reference: reading stdin failed: {e}");
            }
            ExitCode::FAILURE
        }
    }
}
