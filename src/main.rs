//! The `mcp-reference` binary: `serve` (the default) runs the stdio server,
//! `serve --http ADDR` the Streamable HTTP server;
//! `demo` replays the textbook's recorded run against a real `serve`
//! subprocess.
//!
//! Exit codes: 0 success (including a host that closed our stdout); 1 an
//! I/O failure or a failed demo; 2 a bad flag or a bad configuration, with
//! one sentence on stderr.

#![forbid(unsafe_code)]

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
