//! The design rules of the source layout that a reader can check by
//! counting: every Rust file of the repository (`git ls-files`, or a walk
//! of the tree when git is not there) has at most 1,000 lines and opens
//! with a `//!` header saying what it owns.

use std::path::{Path, PathBuf};

const MAX_LINES: usize = 1_000;

/// Every `.rs` file under `dir`, skipping build output and hidden folders.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "target" || name == "corpus" {
            continue;
        }
        if path.is_dir() {
            walk(&path, out);
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_rust_file_is_short_and_says_what_it_owns() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root, &mut files);
    assert!(files.len() > 50, "found only {} files", files.len());
    let mut bad = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let shown = file.strip_prefix(&root).unwrap_or(file).display();
        let lines = text.lines().count();
        if lines > MAX_LINES {
            bad.push(format!("{shown}: {lines} lines (at most {MAX_LINES})"));
        }
        if !text.starts_with("//!") {
            bad.push(format!("{shown}: no //! header on its first line"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
