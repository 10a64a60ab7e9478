//! # mcp-reference-testkit
//!
//! The test kit of `mcp-reference`: everything that judges the server, and
//! nothing the server itself uses. It drives the server only through its
//! public API, and its oracle does not use the server at all.
//!
//! | module | owns |
//! | --- | --- |
//! | [`model`] | the one oracle: `docs/behavior.md` as an executable model (core and legacy session), its JSON tree and parser, the one reply reader (with row W1, the canonical form), the row registry `docs/rows.json` |
//! | [`strategy`] | proptest generators of configurations and lines; every line carries the model's expectation |
//! | [`invariants`] | the invariants beyond the model: no leak, noninterference, known codes |
//! | [`http`] | the checks of one HTTP exchange: the binding against the model's HTTP rows, tools run, noninterference, and the stdio invariants on the body |
//! | [`fuzzing`] | the checks the fuzz targets in `fuzz/` and the stable corpus replay share (`docs/fuzzing.md`) |
//! | [`schema`] | the official JSON Schemas, loaded and applied to wire messages |
//!
//! The import order is model <- strategy, invariants <- fuzzing; the model
//! imports only the server's `Config` type (the data of a configuration)
//! and serde_json, never a function of the server that decides.

#![forbid(unsafe_code)]

pub mod fuzzing;
pub mod http;
pub mod http_auth;
pub mod invariants;
pub mod issuer;
pub mod model;
#[cfg(feature = "schema")]
pub mod schema;
#[cfg(feature = "strategy")]
pub mod strategy;

/// The `arbitrary` crate the structured fuzz inputs are decoded with, for
/// replaying them exactly as the fuzz targets do.
pub use arbitrary;
pub use fuzzing::Counting;
