//! `mcp-reference-tools`: `check`, `diff` and `bench` for implementers,
//! also run as `mcp-reference check`, `mcp-reference diff` and
//! `mcp-reference bench`.
//!
//! Exit codes: `check` 0 PASS, 1 FAIL, 3 INCOMPLETE; `diff` 0 no
//! difference, 1 a difference; `bench` 0 no error, 1 a server had errors;
//! all 2 when the server could not be run or
//! the command line is wrong, with one sentence on stderr (docs/check.md).

#![forbid(unsafe_code)]

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
