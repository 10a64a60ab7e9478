//! # mcp-reference
//!
//! A reference implementation of the Model Context Protocol, revision
//! 2026-07-28, for one small read-only server, "book-orders".
//!
//! The layers a line of input walks down, each a module:
//!
//! | layer | module | owns |
//! | --- | --- | --- |
//! | driver | [`stdio`] | framing on stdin/stdout, line limit, flushing, end-of-file |
//! | session | [`session`] | what belongs to the process: the opt-in legacy handshake |
//! | core | [`server`] | one line in, at most one line out; the order of checks |
//! | envelope | [`envelope`] | JSON-RPC 2.0: ids, requests, notifications, replies |
//! | metadata and versions | [`meta`] | `params._meta`, protocol versions, `initialize` |
//! | dispatch | [`dispatch`] | methods and their params |
//! | legacy core | [`legacy`] | beside the core, for the session's legacy-era requests: `initialize`, `ping` and the tools under 2025-11-25 and 2025-06-18 (opt-in), behind one function |
//! | tools | [`tools`] | the catalog, `inputSchema` checks, tool results |
//! | configuration | [`config`] | user, data, identity, versions, hints, limits |
//!
//! [`error`] (the error codes) and [`json`] (borrowed, duplicate-detecting
//! decoding) are leaves every layer may use. Nothing reaches back up.
//! [`schema`] validates wire messages against the official JSON Schemas
//! for tests and `check`; the server itself never uses it.
//!
//! The test kit (nothing in the server uses it; it depends on the server
//! only to drive it, and its oracle not at all):
//!
//! | module | owns |
//! | --- | --- |
//! | [`model`] | the one oracle: `docs/behavior.md` as an executable model (core and legacy session), its JSON tree and parser, the reply reader, the row registry `docs/rows.json` |
//! | [`strategy`] | proptest generators of configurations and lines; every line carries the model's expectation |
//! | [`invariants`] | the invariants beyond the model: no leak, noninterference, known codes |
//! | [`fuzzing`] | the checks the fuzz targets in `fuzz/` and the stable corpus replay share (`docs/fuzzing.md`) |
//! | [`diff`], [`check`] | comparing another server with this one; checking a server over stdio |
//!
//! The import order is model <- strategy, invariants <- fuzzing; the model
//! imports only [`config`] and serde_json.
//!
//! The rules each module implements, with the spec sections they rest on,
//! are in `docs/behavior.md`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod canonical;
pub mod check;
pub mod config;
pub mod diff;
pub mod dispatch;
pub mod envelope;
pub mod error;
pub mod fuzzing;
pub mod invariants;
pub mod json;
pub mod legacy;
pub mod meta;
pub mod model;
pub mod schema;
pub mod server;
pub mod session;
pub mod stdio;
pub mod strategy;
pub mod tools;

pub use config::Config;
pub use server::{Disposition, Server};
