//! The numbers the README and docs/vectors.md quote for a replay of the
//! textbook fixture against the reference (`must 167/167`, ...) are what
//! `check --vectors --fixture textbook` prints (issue 39, item 7: the
//! README said `must 175/175`, which no fixture gives).

#[path = "support/fixture.rs"]
mod fixture;

use std::path::PathBuf;
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `level n/m` pairs quoted after "with `--fixture textbook` against
/// the reference:" in `text`, whitespace folded.
fn quoted(text: &str) -> Vec<String> {
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let start = folded
        .find("with `--fixture textbook` against the reference: ")
        .expect("the quoted numbers");
    folded
        .get(start..)
        .unwrap_or_default()
        .split('`')
        .skip(3)
        .step_by(2)
        .take(4)
        .map(String::from)
        .collect()
}

#[test]
fn the_quoted_replay_numbers_are_the_replay_s() {
    let mut server = fixture::reference();
    server.push("--config".into());
    server.push(repo().join("vectors/configs/textbook.json").into());
    let out = Command::new(fixture::bin())
        .args(["check", "--vectors", "--fixture", "textbook", "--"])
        .args(&server)
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER")
        .output()
        .expect("the replayer runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let printed: Vec<String> = text
        .lines()
        .filter(|l| {
            ["must ", "should ", "textbook ", "canonical "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(String::from)
        .collect();
    assert_eq!(printed.len(), 4, "{text}");
    for file in ["README.md", "docs/vectors.md"] {
        let doc = std::fs::read_to_string(repo().join(file)).expect(file);
        assert_eq!(quoted(&doc), printed, "{file}");
    }
}
