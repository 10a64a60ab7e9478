//! The schema gate: where the official JSON Schemas of the MCP
//! specification are looked for ([`spec_dir`], one list for the tests,
//! `check` and this crate's build script), and a build script that stops a
//! *test* build at its start when they are not there, with the recipe that
//! fetches them (README, "Tests need the official schemas"). Any other build
//! (`cargo build`, `cargo run --example`, `cargo doc`, clippy) never needs
//! the schemas and is never stopped (issue 49, item 1). The commit the
//! schemas are pinned to is [`SPEC_COMMIT`], the test kit's too.

#![forbid(unsafe_code)]

mod places;

pub use places::{
    SPEC_COMMIT, VARIABLE, VERSIONS, beside_checkout, recipe, spec_dir, where_looked,
};
