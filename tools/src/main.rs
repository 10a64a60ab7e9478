//! `mcp-reference-tools`: `check` and `diff` for implementers, also run as
//! `mcp-reference check` and `mcp-reference diff`.
//!
//! Exit codes: `check` 0 PASS, 1 FAIL, 3 INCOMPLETE; `diff` 0 no
//! difference, 1 a difference; both 2 when the server could not be run or
//! the command line is wrong, with one sentence on stderr (docs/check.md).

#![forbid(unsafe_code)]

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
