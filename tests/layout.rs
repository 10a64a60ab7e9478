//! The design rules of the source layout that a reader can check by
//! counting: every Rust file of the repository (`git ls-files`, or a walk
//! of the tree when git is not there) has at most 1,000 lines and opens
//! with a `//!` header saying what it owns; every Python file likewise,
//! with a docstring (after a `#!` line, if any).

use std::path::{Path, PathBuf};

const MAX_LINES: usize = 1_000;

/// Every `.rs` file under `dir`, skipping build output and hidden folders.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    walk_ext(dir, ".rs", out);
}

/// Every file under `dir` whose name ends with `ext`, skipping build
/// output, installed packages and hidden folders.
fn walk_ext(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.')
            || name == "target"
            || name == "corpus"
            || name == "node_modules"
            || name == "__pycache__"
        {
            continue;
        }
        if path.is_dir() {
            walk_ext(&path, ext, out);
        } else if name.ends_with(ext) {
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

/// The Python scripts (`scripts/`, the vector replayer's package and their
/// tests) keep the same rules: at most 1,000 lines, and a docstring first
/// saying what the file owns.
#[test]
fn every_python_file_is_short_and_says_what_it_owns() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk_ext(&root, ".py", &mut files);
    assert!(files.len() > 10, "found only {} files", files.len());
    let mut bad = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let shown = file.strip_prefix(&root).unwrap_or(file).display();
        let lines = text.lines().count();
        if lines > MAX_LINES {
            bad.push(format!("{shown}: {lines} lines (at most {MAX_LINES})"));
        }
        let body = match text.strip_prefix("#!") {
            Some(rest) => rest.split_once('\n').map_or("", |(_, b)| b),
            None => &text,
        };
        if !body.starts_with("\"\"\"") {
            bad.push(format!("{shown}: no docstring on its first line"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The module a file under `root` defines: its path below `root`, without
/// `.rs`, `mod`, `lib` or `main` (`check/probes.rs` is `check::probes`).
fn module_of(root: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).unwrap_or(file).with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The text of a file as far as imports go: its unit tests (from the
/// first `#[cfg(test)]`) and its `//` comments left out.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .map(|l| l.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path a file names that starts at `crate`, `super` or `self`
/// (`super::ctx::fail`, `crate::process::Proc`), one level of `use` groups
/// expanded (`use super::{a, b::c}` names `super::a` and `super::b::c`).
fn paths_in(code: &str) -> Vec<String> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let starts_word = i == 0 || chars.get(i - 1).is_none_or(|&c| !ident(c) && c != ':');
        let rest: String = chars
            .get(i..(i + 7).min(chars.len()))
            .unwrap_or_default()
            .iter()
            .collect();
        if !(starts_word
            && (rest.starts_with("crate::")
                || rest.starts_with("super::")
                || rest.starts_with("self::")))
        {
            i += 1;
            continue;
        }
        let mut j = i;
        while chars.get(j).is_some_and(|&c| ident(c) || c == ':') {
            j += 1;
        }
        let head: String = chars.get(i..j).unwrap_or_default().iter().collect();
        if head.ends_with("::") && chars.get(j) == Some(&'{') {
            let close = (j..chars.len())
                .find(|&k| chars.get(k) == Some(&'}'))
                .unwrap_or(chars.len());
            let group: String = chars.get(j + 1..close).unwrap_or_default().iter().collect();
            for item in group.split(',') {
                let item = item.split_whitespace().next().unwrap_or_default();
                if !item.is_empty() && item != "self" {
                    out.push(format!("{head}{item}"));
                }
            }
            i = close;
        } else {
            out.push(head.trim_end_matches(':').to_owned());
            i = j;
        }
    }
    out
}

/// The module a path names, from module `at`: the longest prefix of it
/// that is a module of `modules`.
fn resolve(at: &[String], path: &str, modules: &[Vec<String>]) -> Option<Vec<String>> {
    let mut parts = path.split("::").peekable();
    let mut base: Vec<String> = match parts.peek().copied() {
        Some("crate") => {
            parts.next();
            Vec::new()
        }
        Some("super" | "self") => at.to_vec(),
        _ => return None,
    };
    while let Some(&p) = parts.peek() {
        match p {
            "super" => {
                base.pop();
            }
            "self" => {}
            _ => break,
        }
        parts.next();
    }
    for part in parts {
        let mut next = base.clone();
        next.push(part.to_owned());
        if !modules.contains(&next) {
            break;
        }
        base = next;
    }
    Some(base)
}

/// The import circles of the modules under `root`: each a list of modules
/// that reach each other through their imports (a `mod` declaration is no
/// import; `pub use` of a child is).
fn circles(root: &Path) -> Vec<Vec<String>> {
    let mut files = Vec::new();
    walk(root, &mut files);
    let modules: Vec<Vec<String>> = files.iter().map(|f| module_of(root, f)).collect();
    let edges: Vec<Vec<usize>> = files
        .iter()
        .zip(&modules)
        .map(|(file, at)| {
            let code = code_of(&std::fs::read_to_string(file).unwrap_or_default());
            let mut to: Vec<usize> = paths_in(&code)
                .iter()
                .filter_map(|p| resolve(at, p, &modules))
                .filter(|m| m != at)
                .filter_map(|m| modules.iter().position(|x| *x == m))
                .collect();
            to.sort_unstable();
            to.dedup();
            to
        })
        .collect();
    // Two modules are in one circle when each reaches the other.
    let reach = |from: usize| {
        let mut seen = vec![false; modules.len()];
        let mut todo = vec![from];
        while let Some(m) = todo.pop() {
            for &n in edges.get(m).map(Vec::as_slice).unwrap_or_default() {
                if !seen.get(n).copied().unwrap_or(true) {
                    if let Some(s) = seen.get_mut(n) {
                        *s = true;
                    }
                    todo.push(n);
                }
            }
        }
        seen
    };
    let reached: Vec<Vec<bool>> = (0..modules.len()).map(reach).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for a in 0..modules.len() {
        let circle: Vec<String> = (0..modules.len())
            .filter(|&b| {
                reached
                    .get(a)
                    .and_then(|r| r.get(b))
                    .copied()
                    .unwrap_or(false)
                    && reached
                        .get(b)
                        .and_then(|r| r.get(a))
                        .copied()
                        .unwrap_or(false)
            })
            .map(|b| modules.get(b).map(|m| m.join("::")).unwrap_or_default())
            .collect();
        if circle.len() > 1 && !out.contains(&circle) {
            out.push(circle);
        }
    }
    out
}

/// The source folders of every package of the repository: the `src/` (or,
/// for the fuzz project, `fuzz_targets/`) beside each `Cargo.toml`, found
/// by walking the tree, so a package added later is covered without a word
/// here.
fn package_sources(root: &Path) -> Vec<PathBuf> {
    fn manifests(dir: &Path, out: &mut Vec<PathBuf>) {
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
                manifests(&path, out);
            } else if name == "Cargo.toml" {
                out.push(dir.to_path_buf());
            }
        }
    }
    let mut packages = Vec::new();
    manifests(root, &mut packages);
    let mut out: Vec<PathBuf> = packages
        .iter()
        .flat_map(|p| [p.join("src"), p.join("fuzz_targets")])
        .filter(|d| d.is_dir())
        .collect();
    out.sort();
    out
}

/// Layers, not circles: in every package (the reference crate `src/`, the
/// test kit `testkit/src/`, the implementer tools `tools/src/`, the fuzz
/// targets), no module reaches back, through its imports (`use`, and paths
/// from `crate`, `super` or `self`), to a module that imports it.
#[test]
fn no_import_circles() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dirs = package_sources(&root);
    for must in ["src", "testkit/src", "tools/src"] {
        assert!(
            dirs.contains(&root.join(must)),
            "the layout test does not see {must}: {dirs:?}"
        );
    }
    let mut found_any = Vec::new();
    for dir in &dirs {
        let shown = dir.strip_prefix(&root).unwrap_or(dir).display().to_string();
        for circle in circles(dir) {
            found_any.push(format!("{shown}: {}", circle.join(" <-> ")));
        }
    }
    assert!(
        found_any.is_empty(),
        "import circles: {}",
        found_any.join("; ")
    );
}

/// The circle finder finds one: two modules that import each other, and
/// a third that only imports them.
#[test]
fn the_circle_finder_sees_a_circle() {
    let dir = std::env::temp_dir().join(format!("mcp-layout-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("a")).unwrap_or_default();
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).unwrap_or_default();
    };
    write("lib.rs", "//! x\nmod a;\nmod c;\n");
    write("a/mod.rs", "//! x\nmod b;\nuse self::b::f;\n");
    write("a/b.rs", "//! x\nuse super::{g, h as i};\n// crate::c\n");
    write(
        "c.rs",
        "//! x\nfn f() { crate::a::b::f(); }\n#[cfg(test)]\nuse crate::c;\n",
    );
    let found = circles(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(found, vec![vec!["a".to_owned(), "a::b".to_owned()]]);
}
