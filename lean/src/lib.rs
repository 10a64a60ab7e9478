//! The reference library exactly as a library user gets it:
//! `mcp-reference = { path = "..", default-features = false }`, which
//! builds neither the `jwt` feature (RS256 and ES256 signatures) nor the
//! `state` feature (HMAC-SHA256 of a multi round-trip request's
//! `requestState`). Without them the library has stand-ins, and two
//! documented behaviours that no test of the root workspace can see,
//! because every test build there links `mcp-reference-testkit`, whose
//! dependency on the root turns both features on (cargo unifies a
//! dev-dependency's features into the library's test build):
//!
//! - without `jwt`, no signature verifies (`src/http/jws.rs`), so a
//!   binding with authorization on accepts no token: every token the jwt
//!   build accepts (the `200` vectors of `vectors/http-auth.jsonl`, rows
//!   A7) is refused with the `invalid_token` challenge (rows A3, A5);
//! - without `state`, a configuration whose input-required tools or
//!   prompts issue `requestState` is refused at load with one sentence
//!   naming the feature (`src/config/input.rs`, rows I of "Multi round-trip
//!   requests"), so the stand-ins of `src/input/state.rs` are never
//!   reached.
//!
//! This package is not a member of the root workspace (that would unify
//! the features again); it has its own `Cargo.lock`, holding the root
//! lock's versions. The root's `tests/lean.rs` runs its tests as a
//! subprocess, so they are part of `cargo test --release --workspace`.
//! The tests are in `tests/stand_ins.rs`; this library only finds the
//! repository's files. Why this layout, and what cargo-mutants made of
//! the stand-ins: docs/fuzzing.md, "The lean library's stand-ins".

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

/// The checkout this package sits in (its parent folder).
pub fn repository() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// The bytes of the repository's file `relative` (a test's input: a
/// missing file fails the test, naming it).
pub fn read(relative: &str) -> Vec<u8> {
    let path = repository().join(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
