//! `mcp-reference bench [OPTIONS] -- CMD [ARGS...]` or `bench --http URL`:
//! parses the flags into [`mcp_reference_tools::bench::Options`], runs the
//! rounds ([`mcp_reference_tools::bench::run`]) and prints the report
//! (docs/bench.md).
//!
//! Exit codes: 0 the run completed and no reply was an error; 1 it
//! completed, but some of the target's replies were errors (invalid,
//! missing, or a transport error); 3 the target had none but the reference
//! had some, so the run is no comparison (one sentence on stderr); 2 the
//! command line is wrong or a server could not be started or reached, with
//! one sentence on stderr.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use mcp_reference::Config;
use mcp_reference_tools::bench::workload::{Call, DEFAULT_CALL, Valid, Workload};
use mcp_reference_tools::bench::{self, Options, Plan, Target};
use mcp_reference_tools::http_client::Url;

/// The arguments of `bench`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Everything after `--` is the server's own command line, passed \
    on as is (with MCP_REFERENCE_CONFIG naming --config's file, when given). The reference, \
    `mcp-reference serve` (over HTTP: `serve --http 127.0.0.1:0`), runs in the same run, \
    alternating rounds with the server: each round sends server/discover, tools/list and the \
    --call, in turn, and every reply is judged; a reply that is not valid is an error, never \
    throughput. Exit codes: 0 the run completed without an error; 1 a server had errors \
    (invalid or missing replies); 2 the command line is wrong or a server could not be \
    started or reached. See docs/bench.md."
)]
pub(crate) struct Args {
    /// The tool call of the workload, as TOOL=ARGS_JSON (the arguments a
    /// JSON object).
    #[arg(long, value_name = "TOOL=ARGS_JSON", default_value = DEFAULT_CALL, value_parser = Call::parse)]
    call: Call,

    /// Requests in flight at once on the stdio server (pipelined; replies
    /// matched by id).
    #[arg(long, default_value_t = 8, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    concurrency: u64,

    /// Over HTTP: kept-alive connections, each with one request in flight.
    #[arg(long, default_value_t = 4, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    connections: u64,

    /// How long each round measures, in seconds.
    #[arg(long, default_value_t = 3.0, value_name = "SECONDS", value_parser = seconds)]
    duration: f64,

    /// End each round after this many measured requests instead (still at
    /// most --duration).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    requests: Option<u64>,

    /// The start of each round whose replies are judged but not measured,
    /// in seconds.
    #[arg(long, default_value_t = 0.5, value_name = "SECONDS", value_parser = seconds_or_zero)]
    warmup: f64,

    /// Rounds per server (reference, server, reference, server, ...); the
    /// report gives the medians.
    #[arg(long, default_value_t = 3, value_name = "R", value_parser = clap::value_parser!(u32).range(1..=100))]
    rounds: u32,

    /// How long one reply may take, in milliseconds (a server's first reply,
    /// its start-up included, may take 10 s or this, whichever is longer).
    #[arg(long, default_value_t = 5000, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    timeout_ms: u64,

    /// How replies are judged: `model` (the test kit's model, for the
    /// configuration --config names: the reference's reply, up to the id)
    /// or `result` (a JSON-RPC response with the request's id and a result,
    /// the call's not isError: for a server whose data or wording differs).
    #[arg(long, default_value = "model", value_name = "HOW", value_parser = valid)]
    valid: Valid,

    /// The configuration the reference serves and the model judges by
    /// (default: the textbook's); a stdio server also gets it in
    /// MCP_REFERENCE_CONFIG.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// The reference program [default: mcp-reference beside this program,
    /// else on PATH]; run as `PROGRAM serve [--config FILE]`.
    #[arg(long, value_name = "PROGRAM")]
    reference: Option<OsString>,

    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,

    /// Bench the Streamable HTTP server at this endpoint (for example
    /// http://127.0.0.1:8080/mcp) instead of a stdio command; against the
    /// reference's `serve --http`.
    #[arg(long, value_name = "URL", conflicts_with = "command")]
    http: Option<String>,

    /// With --http: allow a URL whose host is not loopback (localhost,
    /// 127.0.0.0/8, ::1).
    #[arg(long)]
    allow_remote: bool,

    /// The server's command and its arguments, after `--`.
    #[arg(last = true, required_unless_present = "http", value_name = "CMD")]
    command: Vec<OsString>,
}

fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 3600.0 => Ok(v),
        _ => Err(format!(
            "{s:?} is not a number of seconds above 0 (at most 3600)"
        )),
    }
}

fn seconds_or_zero(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=3600.0).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a number of seconds from 0 to 3600")),
    }
}

fn valid(s: &str) -> Result<Valid, String> {
    match s {
        "model" => Ok(Valid::Model),
        "result" => Ok(Valid::Result),
        _ => Err(format!("{s:?} is not model or result")),
    }
}

fn refuse(sentence: &str) -> ExitCode {
    eprintln!("mcp-reference bench: {sentence}");
    ExitCode::from(2)
}

/// The options of a parsed command line, or the sentence refusing it.
fn options(args: Args) -> Result<(Options, bool), String> {
    let config = match &args.config {
        Some(path) => Config::load(path)
            .map_err(|e| format!("cannot read the configuration {}: {e}", path.display()))?,
        None => Config::default(),
    };
    let target = match &args.http {
        Some(url) => {
            let parsed = Url::parse(url)?;
            if !args.allow_remote && !bench::http::loopback(&parsed) {
                return Err(format!(
                    "{url} is not a loopback address (localhost, 127.0.0.0/8, ::1): pass \
                     --allow-remote to bench a server on another machine"
                ));
            }
            Target::Http(parsed)
        }
        None if args.allow_remote => {
            return Err("--allow-remote is for --http URL only: a stdio server runs here".into());
        }
        None => Target::Stdio(args.command),
    };
    let timeout = Duration::from_millis(args.timeout_ms);
    let plan = Plan {
        concurrency: usize::try_from(args.concurrency).unwrap_or(1),
        connections: usize::try_from(args.connections).unwrap_or(1),
        duration: Duration::from_secs_f64(args.duration),
        requests: args.requests,
        warmup: Duration::from_secs_f64(args.warmup),
        rounds: args.rounds,
        timeout,
        start_timeout: timeout.max(Duration::from_secs(10)),
    };
    Ok((
        Options {
            target,
            workload: Workload::new(config, args.call, args.valid),
            plan,
            reference: args.reference.unwrap_or_else(bench::default_reference),
            config_file: args.config,
        },
        args.json,
    ))
}

pub(crate) fn run(args: Args) -> ExitCode {
    let (options, json) = match options(args) {
        Ok(o) => o,
        Err(sentence) => return refuse(&sentence),
    };
    if options.workload.valid == Valid::Model
        && let Some(code) = options.workload.call_error()
    {
        eprintln!(
            "mcp-reference bench: note: for this configuration the model answers the call {} \
             with the error {code}, so that error counts as the valid answer; --valid result \
             counts it as an error",
            options.workload.call.name
        );
    }
    match bench::run(&options) {
        Ok(report) => {
            if json {
                println!("{}", report.json());
            } else {
                print!("{}", report.text());
            }
            if !report.target_clean() {
                ExitCode::FAILURE
            } else if !report.reference_clean() {
                // The yardstick failed, not the server: no verdict on it.
                eprintln!(
                    "mcp-reference bench: the reference itself had errors, so the run is no \
                     comparison: check --config (the data the model judges by) or give a \
                     longer --timeout-ms on a loaded machine"
                );
                ExitCode::from(3)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(sentence) => refuse(&sentence),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Top {
        #[command(flatten)]
        args: Args,
    }

    fn parse(words: &[&str]) -> Result<Args, clap::Error> {
        Top::try_parse_from(std::iter::once("bench").chain(words.iter().copied())).map(|t| t.args)
    }

    #[test]
    fn defaults() {
        let a = parse(&["--", "srv"]).unwrap();
        assert_eq!(a.call, Call::parse(DEFAULT_CALL).unwrap());
        assert_eq!((a.concurrency, a.connections, a.rounds), (8, 4, 3));
        assert_eq!((a.duration, a.warmup, a.requests), (3.0, 0.5, None));
        assert_eq!(a.valid, Valid::Model);
        assert_eq!(a.command, vec![OsString::from("srv")]);
    }

    #[test]
    fn bad_command_lines() {
        for words in [
            &["--call", "get_order", "--", "srv"][..],
            &["--call", "get_order=[]", "--", "srv"],
            &["--duration", "0", "--", "srv"],
            &["--duration", "x", "--", "srv"],
            &["--warmup", "-1", "--", "srv"],
            &["--concurrency", "0", "--", "srv"],
            &["--valid", "bytes", "--", "srv"],
            &["--http", "http://127.0.0.1:1/mcp", "--", "srv"],
            &[],
        ] {
            assert!(parse(words).is_err(), "{words:?}");
        }
    }

    #[test]
    fn remote_urls_need_allow_remote() {
        let a = parse(&["--http", "http://10.1.2.3:8080/mcp"]).unwrap();
        let e = options(a).err().unwrap_or_default();
        assert!(e.contains("--allow-remote"), "{e}");
        let a = parse(&["--http", "http://10.1.2.3:8080/mcp", "--allow-remote"]).unwrap();
        assert!(options(a).is_ok());
        let a = parse(&["--http", "http://127.0.0.1:8080/mcp"]).unwrap();
        assert!(options(a).is_ok());
        let a = parse(&["--http", "https://127.0.0.1:8080/mcp"]).unwrap();
        assert!(options(a).is_err());
        let a = parse(&["--allow-remote", "--", "srv"]).unwrap();
        assert!(options(a).is_err());
    }
}
