//! The command line of `mcp-reference-tools`: parsing, and the one-sentence
//! errors a user sees. No rule of the protocol lives here.

mod bench;
mod check;
mod diff;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Parser, Subcommand};

/// Exit code for a command line that cannot be run.
const USAGE: u8 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "mcp-reference",
    version,
    about = "Hold a stdio MCP 2026-07-28 server, or a port of book-orders, to the reference",
    after_help = "Exit codes: check 0 PASS, 1 FAIL, 3 INCOMPLETE; diff 0 no difference, 1 a \
                  difference; bench 0 ran without an error, 1 a server had errors; 2 the \
                  server could not be run or the command line is wrong. See docs/check.md \
                  and docs/bench.md."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check any stdio MCP server against the protocol rules of 2026-07-28
    /// that hold whatever tools it offers.
    Check(check::Args),
    /// Compare another implementation of book-orders with this reference on
    /// generated cases, each difference shrunk to a minimal one.
    Diff(diff::Args),
    /// Measure a server (stdio or HTTP) against the reference on the same
    /// workload in the same run: throughput and p50/p95/p99 as ratios.
    Bench(bench::Args),
}

/// Prints one sentence on stderr and returns the usage exit code.
fn refuse(sentence: &str) -> ExitCode {
    eprintln!("mcp-reference: {sentence}");
    ExitCode::from(USAGE)
}

pub(crate) fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let cli = match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => return refuse(&explain(&e, &argv)),
    };
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Bench(args) => bench::run(args),
    }
}

/// One sentence for a command line clap refused, with the corrected
/// command line where one can be guessed.
fn explain(e: &clap::Error, argv: &[OsString]) -> String {
    let words: Vec<String> = argv
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let sub = words
        .iter()
        .find(|w| matches!(w.as_str(), "check" | "diff" | "bench"))
        .cloned();
    let Some(sub) = sub else {
        return "name a subcommand: check, diff or bench (see --help)".into();
    };
    let after: Vec<&String> = words.iter().skip_while(|w| **w != sub).skip(1).collect();
    let has_dashes = after.iter().any(|w| *w == "--");
    match e.kind() {
        ErrorKind::MissingRequiredArgument if !has_dashes => format!(
            "{sub} needs the server's command after `--`: mcp-reference {sub} [OPTIONS] -- CMD \
             [ARGS...] (see mcp-reference {sub} --help)"
        ),
        ErrorKind::UnknownArgument | ErrorKind::MissingRequiredArgument if !has_dashes => {
            // The first word that is no option of ours starts the command.
            let split = after
                .iter()
                .position(|w| !w.starts_with("--"))
                .unwrap_or(after.len());
            let (ours, theirs) = after.split_at(split);
            let ours: Vec<&str> = ours.iter().map(|w| w.as_str()).collect();
            let theirs: Vec<&str> = theirs.iter().map(|w| w.as_str()).collect();
            format!(
                "the server's command goes after `--`: mcp-reference {sub} {}-- {}",
                if ours.is_empty() {
                    String::new()
                } else {
                    format!("{} ", ours.join(" "))
                },
                theirs.join(" ")
            )
        }
        _ => {
            let rendered = e.to_string();
            let first = rendered
                .lines()
                .next()
                .unwrap_or("bad arguments")
                .trim_start_matches("error: ");
            format!("{first} (see mcp-reference {sub} --help)")
        }
    }
}
