//! `mcp-reference diff [--cases N] [--seed S] [--shrink-iters N]
//! [--timeout-ms N] [--config FILE | --generate-configs]
//! [--time-budget SECONDS] [--json] -- CMD [ARGS...]`: runs the library's
//! differential tester ([`mcp_reference_tools::diff`]) against another
//! implementation of the book-orders server and prints every class of
//! difference found, each with a minimal case. With `--http URL` instead
//! of a command, the server at that Streamable HTTP endpoint is compared
//! with the reference's HTTP binding ([`mcp_reference_tools::diff::http`]),
//! each minimal request printed as a `curl` command.
//!
//! Exit codes: 0 when no difference was found, 1 when one was, 2 when the
//! command could not be run (or a flag was bad), with one sentence on
//! stderr.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use mcp_reference::Config;
use mcp_reference_tools::diff::http::HttpOptions;
use mcp_reference_tools::diff::{self, Options};

/// The arguments of `diff`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Everything after `--` is the implementation's own command line, \
    passed on as is; diff starts it with MCP_REFERENCE_CONFIG naming the case's \
    configuration file (the textbook's unless --config or --generate-configs says \
    otherwise), which it must serve as `mcp-reference serve` does (its --config, --user \
    and --legacy flags would override that file, so leave them out when diffing the \
    reference). With --http URL there is no command: the server at URL must serve \
    the configuration --config names (the textbook's by default). Exit codes: 0 no \
    difference found; 1 differences found (each class reported); 2 the command could \
    not be run, the server did not answer, or the command line is wrong. See \
    docs/check.md."
)]
pub(crate) struct Args {
    /// How many cases to generate.
    #[arg(long, default_value_t = 256, value_name = "N")]
    cases: u32,

    /// The generator's seed: the same seed gives the same cases.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,

    /// How many runs shrinking one class of difference may take (0:
    /// report each as first found).
    #[arg(long, default_value_t = 500, value_name = "N")]
    shrink_iters: u32,

    /// How long one case may take, in milliseconds, from writing its lines
    /// to the command's stdout closing (or to the answer of each line, on
    /// a reused process).
    #[arg(long, default_value_t = 5000, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    timeout_ms: u64,

    /// Give every case this configuration file (default: the textbook's).
    #[arg(long, value_name = "FILE", conflicts_with = "generate_configs")]
    config: Option<PathBuf>,

    /// Draw a configuration per case, for commands that read the file
    /// MCP_REFERENCE_CONFIG names (default: the textbook configuration).
    #[arg(long)]
    generate_configs: bool,

    /// Stop generating cases after this many seconds; the report says how
    /// many ran.
    #[arg(long, value_name = "SECONDS")]
    time_budget: Option<u64>,

    /// Print the report as JSON.
    #[arg(long)]
    json: bool,

    /// Compare the Streamable HTTP server at this endpoint (for example
    /// http://127.0.0.1:8080/mcp) with the reference's HTTP binding,
    /// instead of launching a stdio command; --config names the
    /// configuration the server serves (default: the textbook's, at the
    /// URL's path).
    #[arg(
        long,
        value_name = "URL",
        conflicts_with = "generate_configs",
        conflicts_with = "command"
    )]
    http: Option<String>,

    /// The implementation's command and its arguments, after `--`.
    #[arg(last = true, required_unless_present = "http", value_name = "CMD")]
    command: Vec<OsString>,
}

pub(crate) fn run(args: Args) -> ExitCode {
    let config = match &args.config {
        Some(path) => match Config::load(path) {
            Ok(c) => Some(c),
            Err(e) => {
                eprintln!(
                    "mcp-reference diff: cannot read the configuration {}: {e}",
                    path.display()
                );
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    if let Some(url) = &args.http {
        return run_http(&args, url, config);
    }
    let mut options = Options::new(args.command);
    options.cases = args.cases;
    options.seed = args.seed;
    options.timeout = Duration::from_millis(args.timeout_ms);
    options.shrink_iters = args.shrink_iters;
    options.generate_configs = args.generate_configs;
    options.time_budget = args.time_budget.map(Duration::from_secs);
    options.config = config;
    let json = args.json;
    printed(
        diff::run(&options).map(|r| (r.json(), r.text(), r.statistics(), r.classes.is_empty())),
        json,
    )
}

/// Prints a report (JSON, or text with its statistics on stderr) and gives
/// the exit code: 0 no difference, 1 differences, 2 no report.
fn printed(
    report: Result<(serde_json::Value, String, String, bool), diff::RunError>,
    json: bool,
) -> ExitCode {
    match report {
        Ok((as_json, text, statistics, clean)) => {
            if json {
                println!("{as_json}");
            } else {
                print!("{text}");
                eprintln!("mcp-reference diff: {statistics}");
            }
            if clean {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("mcp-reference diff: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_http(args: &Args, url: &str, config: Option<Config>) -> ExitCode {
    let mut options = HttpOptions::new(url);
    options.cases = args.cases;
    options.seed = args.seed;
    options.timeout = Duration::from_millis(args.timeout_ms);
    options.shrink_iters = args.shrink_iters;
    options.time_budget = args.time_budget.map(Duration::from_secs);
    options.config = config;
    let report = diff::http::run_http(&options);
    let differs = report.as_ref().is_ok_and(|r| !r.classes.is_empty());
    let code = printed(
        report.map(|r| (r.json(), r.text(), r.statistics(), r.classes.is_empty())),
        args.json,
    );
    if differs {
        // The most common cause of many classes at once: the server runs
        // another configuration than the one the reference answered with.
        let against = args.config.as_ref().map_or_else(
            || "the textbook configuration".to_owned(),
            |f| f.display().to_string(),
        );
        eprintln!(
            "mcp-reference diff: the reference answered with {against}; if the server was \
             started with another configuration, name that file with --config FILE"
        );
    }
    code
}
