//! `mcp-reference diff [--cases N] [--seed S] [--shrink-iters N]
//! [--timeout-ms N] -- CMD
//! [ARGS...]`: runs the library's differential tester
//! ([`mcp_reference_tools::diff`]) against another implementation of the
//! book-orders server and prints the minimal difference, if any.
//!
//! Exit codes: 0 when no difference was found, 1 when one was, 2 when the
//! command could not be run (or a flag was bad), with one sentence on
//! stderr.

use std::ffi::OsString;
use std::process::ExitCode;
use std::time::Duration;

use mcp_reference_tools::diff::{self, Options};

/// The arguments of `diff`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Everything after `--` is the implementation's own command line, \
    passed on as is; diff starts it once per case with MCP_REFERENCE_CONFIG naming the \
    case's configuration file, which it must serve (as `mcp-reference serve` does; its \
    --config, --user and --legacy flags would override that file, so leave them out when \
    diffing the reference). Exit codes: 0 no difference, 1 a difference (shrunk and \
    printed), 2 the command could not be run or the command line is wrong. See \
    docs/check.md."
)]
pub(crate) struct Args {
    /// How many generated cases must agree.
    #[arg(long, default_value_t = 256, value_name = "N")]
    cases: u32,

    /// The generator's seed: the same seed gives the same cases.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,

    /// How many runs shrinking a difference may take (0: report it as
    /// first found).
    #[arg(long, default_value_t = 1024, value_name = "N")]
    shrink_iters: u32,

    /// How long one case may take, in milliseconds, from writing its lines
    /// to the command's stdout closing.
    #[arg(long, default_value_t = 5000, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    timeout_ms: u64,

    /// The implementation's command and its arguments, after `--`. It must
    /// read its configuration from the file named by MCP_REFERENCE_CONFIG.
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<OsString>,
}

pub(crate) fn run(args: Args) -> ExitCode {
    let mut options = Options::new(args.command);
    options.cases = args.cases;
    options.seed = args.seed;
    options.timeout = Duration::from_millis(args.timeout_ms);
    options.shrink_iters = args.shrink_iters;
    match diff::run(&options) {
        Ok(report) => {
            print!("{}", report.text());
            if report.counterexample.is_some() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("mcp-reference diff: {e}");
            ExitCode::from(2)
        }
    }
}
