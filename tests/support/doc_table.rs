//! The rows of a Markdown table in a doc, as cells: the tables that tests
//! keep equal to what the code or a run makes (`tests/judge_docs.rs`, the
//! rule table of docs/judge.md; `tests/judge_binary.rs`, its faulty client
//! table), through `#[path]`.

/// The rows of the first table under the heading `## {heading}` (up to the
/// next `## ` heading, or `stop` when given) whose first cell is code
/// (`| \`...`), each split into its cells.
pub(crate) fn rows(doc: &str, heading: &str, stop: Option<&str>) -> Vec<Vec<String>> {
    let section = doc
        .split(&format!("\n## {heading}"))
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap_or_default();
    let section = match stop {
        Some(stop) => section.split(stop).next().unwrap_or_default(),
        None => section,
    };
    section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            l.trim_start_matches("| ")
                .trim_end_matches(" |")
                .split(" | ")
                .map(str::to_owned)
                .collect()
        })
        .collect()
}
