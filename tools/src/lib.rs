//! # mcp-reference-tools
//!
//! What `mcp-reference` offers implementers of other servers, as a library
//! and as the binary `mcp-reference-tools` (which `mcp-reference check`,
//! `mcp-reference diff` and `mcp-reference bench` run):
//!
//! | module | owns |
//! | --- | --- |
//! | [`check`] | any stdio MCP 2026-07-28 server against the protocol's rules that hold whatever its tools; independent of the reference's core |
//! | [`vectors`] | the committed test vectors (`vectors/`, built in) and their replay on any stdio server; independent of the reference's core |
//! | [`diff`] | an implementation of book-orders against the reference, on generated cases (stdio lines, or HTTP requests: `diff::http`), differences shrunk |
//! | [`bench`](mod@bench) | a server (stdio or HTTP) and the reference measured on the same workload in alternating rounds, every reply judged by the test kit's model; ratios target / reference |
//! | [`http_client`] | a small blocking HTTP/1.1 client for `check --http` and `diff --http` (and kept-alive connections for `bench --http`): requests sent as given, responses read with a deadline, JSON or SSE bodies |
//! | [`process`] | the server under test as a child process: pipes, reader and writer threads, deadlines, killing its process group; what the three above launch |
//!
//! `docs/check.md` documents check and diff, `docs/bench.md` bench,
//! `docs/vectors.md` the vectors.

#![forbid(unsafe_code)]

pub mod bench;
pub mod check;
pub mod diff;
pub mod http_client;
pub mod process;
pub mod vectors;
