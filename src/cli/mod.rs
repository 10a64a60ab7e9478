//! Command-line parsing and the subcommands. Everything here is I/O glue
//! around the library: no protocol rule lives in this folder.

mod check;
mod demo;
mod diff;

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mcp_reference::stdio::{self, End, LogLevel};
use mcp_reference::{Config, Server};

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
    /// Serve MCP over stdin/stdout (the default).
    Serve,
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
    /// that hold whatever tools it offers: `check -- CMD [ARGS...]`.
    Check(check::Args),
    /// Compare another implementation of book-orders with this reference on
    /// generated request sequences: `diff -- CMD [ARGS...]`.
    Diff(diff::Args),
}

fn parse_level(s: &str) -> Result<LogLevel, String> {
    LogLevel::parse(s).ok_or_else(|| format!("{s:?} is not one of off, error, warn, info, debug"))
}

/// Prints one sentence on stderr and returns the usage exit code.
fn refuse(sentence: &str) -> ExitCode {
    eprintln!("mcp-reference: {sentence}");
    ExitCode::from(USAGE)
}

pub fn main() -> ExitCode {
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
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(config, cli.log_level),
        Command::Demo { out } => {
            let is_default = config == Config::default();
            demo::run(&cli.config, &cli.user, out, is_default)
        }
        Command::Check(args) => check::run(args),
        Command::Diff(args) => diff::run(args),
    }
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

fn serve(config: Config, level: LogLevel) -> ExitCode {
    let server = Server::new(config);
    let stdin = io::stdin().lock();
    let stdout = io::stdout().lock();
    let stderr = io::stderr().lock();
    match stdio::serve(&server, stdin, stdout, stderr, level) {
        Ok((End::EndOfInput | End::OutputClosed, _)) => ExitCode::SUCCESS,
        Err(e) => {
            if level >= LogLevel::Error {
                eprintln!("mcp-reference: reading stdin failed: {e}");
            }
            ExitCode::FAILURE
        }
    }
}
