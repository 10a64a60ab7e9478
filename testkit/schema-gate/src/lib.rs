//! The schema gate (no code): its build script (`build.rs`) stops a test
//! build at its start when the official JSON Schemas of the MCP
//! specification are not where the tests read them (`MCP_SPEC_DIR`, which
//! `.cargo/config.toml` points at `../shared/spec`), with the recipe that
//! fetches them: README, "Tests need the official schemas". The commit
//! the schemas are pinned to is [`SPEC_COMMIT`], the test kit's too.

#![forbid(unsafe_code)]

/// The commit of the public specification repository whose schemas the
/// tests rest on (`spec-commit.txt`, read by the build script and by the
/// test kit's `schema::SPEC_COMMIT`).
pub const SPEC_COMMIT: &str = include_str!("../spec-commit.txt");
