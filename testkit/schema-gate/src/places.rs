//! Where the official JSON Schemas are looked for, decided once for the
//! schema gate's build script, the test kit and `check` (README, "Tests
//! need the official schemas"; issue 49, item 2): `MCP_SPEC_DIR` when it is
//! set, else the first of the checkout's `../mcp-spec/schema` (where the
//! README's recipe puts them) and `../shared/spec` that holds the 2026-07-28
//! schema. "The checkout" is the workspace this crate was built in, so the
//! places do not move with the working directory or the shell.
//!
//! This file is the library's module and, through `#[path]`, the build
//! script's and the test kit's (`testkit/src/schema.rs`, which does not
//! depend on this crate, so that the gate's reruns never rebuild it): one
//! list, one recipe.

use std::path::{Path, PathBuf};

/// The commit of the public specification repository whose schemas the
/// tests rest on (`spec-commit.txt`).
pub const SPEC_COMMIT: &str = include_str!("../spec-commit.txt");

/// The versions whose `schema.json` the tests read.
pub const VERSIONS: [&str; 3] = ["2026-07-28", "2025-11-25", "2025-06-18"];

/// The environment variable that names the schema folder, overriding the
/// places beside the checkout.
pub const VARIABLE: &str = "MCP_SPEC_DIR";

/// The checkout the crate that includes this file was built in: the
/// nearest folder above its manifest that holds this gate
/// (`testkit/schema-gate/spec-commit.txt`); the test kit includes this file
/// too, one level higher than the gate.
fn checkout() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|dir| dir.join("testkit/schema-gate/spec-commit.txt").is_file())
        .unwrap_or(manifest)
        .to_path_buf()
}

/// The places beside the checkout, in the order they are tried: the
/// recipe's `../mcp-spec/schema`, then `../shared/spec`.
pub fn beside_checkout() -> [PathBuf; 2] {
    let checkout = checkout();
    let parent = checkout
        .parent()
        .map_or_else(|| checkout.join(".."), Path::to_path_buf);
    [
        parent.join("mcp-spec").join("schema"),
        parent.join("shared").join("spec"),
    ]
}

/// The folder holding `<version>/schema.json`: `MCP_SPEC_DIR` if set (even
/// when it holds nothing: then every load says so, naming it), else the
/// first place beside the checkout whose `2026-07-28/schema.json` exists,
/// else `None`.
pub fn spec_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(VARIABLE) {
        return Some(PathBuf::from(dir));
    }
    beside_checkout()
        .into_iter()
        .find(|dir| dir.join(VERSIONS[0]).join("schema.json").is_file())
}

/// The places named in one phrase, for a sentence that says where nothing
/// was found.
pub fn where_looked() -> String {
    let [recipe, shared] = beside_checkout();
    format!(
        "{} or {} ({VARIABLE} is not set)",
        recipe.display(),
        shared.display()
    )
}

/// The recipe that fetches the schemas to where they are found without
/// `MCP_SPEC_DIR`, as a clause for a sentence.
pub fn recipe() -> String {
    let [place, _] = beside_checkout();
    let clone = place
        .parent()
        .map_or_else(|| place.clone(), Path::to_path_buf);
    format!(
        "fetch the JSON Schemas of the MCP specification at commit {SPEC_COMMIT} with `git clone \
         --no-checkout https://github.com/modelcontextprotocol/modelcontextprotocol {clone} && \
         git -C {clone} checkout {SPEC_COMMIT} -- schema` (found there without {VARIABLE}; \
         README, \"Tests need the official schemas\")",
        clone = clone.display()
    )
}
