//! Keeps `docs/spec-coverage.md` honest (issue 16): every statement names
//! rows that `docs/rows.json` registers, checks that
//! `tools/src/check/catalog.rs` defines (parsed as text: the root package
//! cannot depend on the tools), and decisions that `docs/behavior.md`'s
//! "Decisions" table holds; every statement has coverage or a reason; every
//! registry row is claimed by a statement or listed, with its decision, under
//! "Rows no statement claims"; every page section has a table or a reason;
//! and the per-level counts are those of the tables. The "Client-side
//! statements" table rests each rule of `mcp_reference::judge::RULES` on
//! one statement, with the rule's section and a keyword of its level.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// What the coverage file may name.
struct Known {
    rows: Vec<String>,
    checks: BTreeSet<String>,
    decisions: BTreeSet<String>,
}

fn known() -> Known {
    let registry: serde_json::Value = serde_json::from_str(&read("docs/rows.json")).unwrap();
    let rows = registry
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    let catalog = read("tools/src/check/catalog.rs");
    let table = &catalog[catalog.find("pub const CHECKS").unwrap()..];
    let table = &table[..table.find("\n];").unwrap()];
    let mut checks = BTreeSet::new();
    for (i, _) in table.match_indices("Level::") {
        let rest = &table[i..];
        if let Some(start) = rest.find('"') {
            let id = rest[start + 1..].split('"').next().unwrap();
            checks.insert(id.to_string());
        }
    }
    // The checks of `check --call` (`tools/src/check/call/mod.rs`).
    let calls = read("tools/src/check/call/mod.rs");
    let table = &calls[calls.find("pub const CALL_CHECKS").unwrap()..];
    let table = &table[..table.find("\n];").unwrap()];
    for (i, _) in table.match_indices("\"call.") {
        let id = table[i + 1..].split('"').next().unwrap();
        checks.insert(id.to_string());
    }
    let decisions = read("docs/behavior.md")
        .lines()
        .filter_map(|l| l.strip_prefix("| DEC"))
        .filter_map(|l| l.split(' ').next())
        .map(|n| format!("DEC{n}"))
        .collect();
    Known {
        rows,
        checks,
        decisions,
    }
}

/// The references of one "honoured by" cell.
#[derive(Default)]
struct Refs {
    rows: Vec<String>,
    checks: Vec<String>,
    decisions: Vec<String>,
}

fn is_row_letter(c: char) -> bool {
    matches!(
        c,
        'F' | 'E' | 'M' | 'D' | 'T' | 'W' | 'H' | 'A' | 'L' | 'R' | 'P' | 'C' | 'I'
    )
}

/// Row ids (ranges `E1–E17` expanded), backticked check-like ids, and
/// `DECn` ids written in `cell`.
fn refs(cell: &str) -> Refs {
    let mut out = Refs::default();
    let chars: Vec<char> = cell.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let boundary = i == 0 || !chars[i - 1].is_alphanumeric();
        if boundary && chars[i..].starts_with(&['D', 'E', 'C']) {
            let digits: String = chars[i + 3..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            if !digits.is_empty() {
                out.decisions.push(format!("DEC{digits}"));
                i += 3 + digits.len();
                continue;
            }
        }
        if boundary && is_row_letter(chars[i]) {
            let letter = chars[i];
            let digits: String = chars[i + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            let end = i + 1 + digits.len();
            let word_ends = chars.get(end).is_none_or(|c| !c.is_alphanumeric());
            if !digits.is_empty() && word_ends {
                let from: u32 = digits.parse().unwrap();
                // A range: `E1–E17`.
                let mut to = from;
                if chars.get(end) == Some(&'–') && chars.get(end + 1) == Some(&letter) {
                    let upper: String = chars[end + 2..]
                        .iter()
                        .take_while(|c| c.is_ascii_digit())
                        .collect();
                    if let Ok(n) = upper.parse() {
                        to = n;
                        i = end + 2 + upper.len();
                    } else {
                        i = end;
                    }
                } else {
                    i = end;
                }
                for n in from..=to {
                    out.rows.push(format!("{letter}{n}"));
                }
                continue;
            }
        }
        i += 1;
    }
    for (k, piece) in cell.split('`').enumerate() {
        let check_like = piece.split_once('.').is_some_and(|(group, name)| {
            !group.is_empty()
                && !name.is_empty()
                && group.bytes().all(|b| b.is_ascii_lowercase())
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        });
        if k % 2 == 1 && check_like {
            out.checks.push(piece.to_string());
        }
    }
    out
}

const LEVELS: [&str; 6] = [
    "MUST",
    "MUST NOT",
    "SHOULD",
    "SHOULD NOT",
    "RECOMMENDED",
    "MAY",
];

/// Every way `doc` breaks the rules above, one sentence each.
fn problems(doc: &str, known: &Known) -> Vec<String> {
    let mut bad = Vec::new();
    let mut claimed = BTreeSet::new();
    let mut ids = BTreeSet::new();
    // level -> (statements, covered, not applicable)
    let mut counts: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let (pages, rest) = doc.split_once("\n## Counts").unwrap_or((doc, ""));
    for line in pages.lines() {
        let cells: Vec<&str> = line.split(" | ").collect();
        let Some(id) = cells[0].strip_prefix("| ") else {
            continue;
        };
        let statement = id.split_once('-').is_some_and(|(p, n)| {
            !p.is_empty()
                && p.bytes().all(|b| b.is_ascii_uppercase())
                && n.bytes().all(|b| b.is_ascii_digit())
        });
        if !statement {
            continue;
        }
        if cells.len() != 5 || !ids.insert(id.to_string()) {
            bad.push(format!("{id}: not a five-cell row, or a duplicate id"));
            continue;
        }
        let Some(level) = LEVELS.iter().find(|l| **l == cells[2]) else {
            bad.push(format!("{id}: unknown level {}", cells[2]));
            continue;
        };
        let cell = cells[4].trim_end_matches(" |").trim();
        let entry = counts.entry(level).or_default();
        entry.0 += 1;
        if let Some(reason) = cell.strip_prefix("not applicable:") {
            if reason.trim().is_empty() {
                bad.push(format!("{id}: not applicable without a reason"));
            }
            entry.2 += 1;
            continue;
        }
        let r = refs(cell);
        if r.rows.is_empty() && r.checks.is_empty() && r.decisions.is_empty() {
            bad.push(format!("{id}: neither coverage nor a reason"));
        }
        entry.1 += 1;
        for row in r.rows {
            if !known.rows.contains(&row) {
                bad.push(format!("{id}: names row {row}, which docs/rows.json lacks"));
            }
            claimed.insert(row);
        }
        for check in r.checks {
            if !known.checks.contains(&check) {
                bad.push(format!(
                    "{id}: names check {check}, which the catalog lacks"
                ));
            }
        }
        for dec in r.decisions {
            if !known.decisions.contains(&dec) {
                bad.push(format!(
                    "{id}: names decision {dec}, which docs/behavior.md lacks"
                ));
            }
        }
    }
    if ids.len() < 150 {
        bad.push(format!("only {} statements found", ids.len()));
    }
    // Every page section has a table or says why it does not bind.
    for section in pages.split("\n### ").skip(1) {
        let title = section.lines().next().unwrap_or_default();
        let body = &section[title.len()..];
        let reason = body.trim_start().starts_with("Not binding: ");
        let table = body
            .lines()
            .any(|l| l.starts_with("| ") && !l.starts_with("| id ") && !l.starts_with("| ---"));
        if !reason && !table {
            bad.push(format!("page {title}: neither a table nor a reason"));
        }
    }
    // Rows no statement claims: each listed with a decision, none claimed.
    let listed_section = rest
        .split("\n## Rows no statement claims")
        .nth(1)
        .unwrap_or_default();
    let listed_section = listed_section.split("\n## ").next().unwrap_or_default();
    let mut listed = BTreeSet::new();
    for line in listed_section.lines() {
        let Some(cells) = line.strip_prefix("| ") else {
            continue;
        };
        let (row, reason) = cells.split_once(" | ").unwrap_or((cells, ""));
        if row == "row" || row.starts_with("---") {
            continue;
        }
        if !known.rows.iter().any(|r| r == row) {
            bad.push(format!("listed row {row} is not in docs/rows.json"));
        }
        let decisions = refs(reason).decisions;
        if decisions.is_empty() || decisions.iter().any(|d| !known.decisions.contains(d)) {
            bad.push(format!("listed row {row} names no existing decision"));
        }
        if claimed.contains(row) {
            bad.push(format!(
                "listed row {row} is claimed by a statement: drop it from the list"
            ));
        }
        listed.insert(row.to_string());
    }
    for row in &known.rows {
        if !claimed.contains(row) && !listed.contains(row) {
            bad.push(format!(
                "row {row} is claimed by no statement and not listed as decision-only"
            ));
        }
    }
    // The counts table equals the tables.
    let table = rest.split("\n## ").next().unwrap_or_default();
    let mut total = (0, 0, 0);
    for level in LEVELS {
        let want = counts.get(level).copied().unwrap_or_default();
        total = (total.0 + want.0, total.1 + want.1, total.2 + want.2);
        let line = format!("| {level} | {} | {} | {} |", want.0, want.1, want.2);
        if !table.lines().any(|l| l == line) {
            bad.push(format!("the counts table lacks `{line}`"));
        }
    }
    let line = format!("| all | {} | {} | {} |", total.0, total.1, total.2);
    if !table.lines().any(|l| l == line) {
        bad.push(format!("the counts table lacks `{line}`"));
    }
    bad
}

#[test]
fn every_statement_is_covered_by_what_exists() {
    let known = known();
    assert!(known.rows.len() > 60 && known.checks.len() > 20 && known.decisions.len() >= 22);
    let bad = problems(&read("docs/spec-coverage.md"), &known);
    assert!(bad.is_empty(), "docs/spec-coverage.md:\n{}", bad.join("\n"));
}

#[test]
fn the_coverage_test_can_fail() {
    let known = known();
    let doc = read("docs/spec-coverage.md");
    let broken = [
        doc.replacen("| D3 |", "| D99 |", 1),
        doc.replacen("`notifications.silent`", "`notifications.loud`", 1),
        doc.replacen("DEC16", "DEC99", 1),
        doc.replacen("| D3 |", "| see above |", 1),
        doc.replacen("| D3 |", "| not applicable: |", 1),
    ];
    for (i, b) in broken.iter().enumerate() {
        assert_ne!(b, &doc, "mutation {i} changed nothing");
        assert!(
            !problems(b, &known).is_empty(),
            "mutation {i} went unnoticed"
        );
    }
    // A row nobody claims.
    let mut fewer = known;
    fewer.rows.push("T99".into());
    assert!(problems(&doc, &fewer).iter().any(|p| p.contains("T99")));
}

#[test]
fn ranges_and_ids_are_read() {
    let r = refs("E1–E3, M16 (DEC12); `stdout.schema`, `src/error.rs`, BASE-45, T5");
    assert_eq!(r.rows, ["E1", "E2", "E3", "M16", "T5"]);
    assert_eq!(r.decisions, ["DEC12"]);
    assert_eq!(r.checks, ["stdout.schema"]);
}

/// Every statement id of the coverage file with its keyword (`MUST`, ...).
fn statements(doc: &str) -> BTreeMap<String, String> {
    let pages = doc.split("\n## Counts").next().unwrap_or(doc);
    pages
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split(" | ").collect();
            let id = cells.first()?.strip_prefix("| ")?;
            let keyword = cells.get(2)?;
            (cells.len() == 5 && id.contains('-')).then(|| (id.to_string(), keyword.to_string()))
        })
        .collect()
}

/// Every way a row's verdict level breaks its source: a statement id that
/// the coverage file lacks, a level other than the one the statement's
/// keyword gives, a `textbook:` or `canonical:` source that is not the
/// row's own with the level it names, an `expect` or codes out of place.
fn level_problems(doc: &str, rows: &[mcp_reference_testkit::model::rows::Row]) -> Vec<String> {
    use mcp_reference_testkit::model::rows::{LEVELS, level_of_keyword};
    let statements = statements(doc);
    let mut bad = Vec::new();
    for row in rows {
        let want = match row.source.split_once(':') {
            Some((level @ ("textbook" | "canonical"), of)) if of == row.id => Some(level),
            Some(_) => None,
            None => statements
                .get(&row.source)
                .and_then(|keyword| level_of_keyword(keyword)),
        };
        match want {
            None => bad.push(format!(
                "row {}: source {} is no statement of a MUST or SHOULD, nor the row's own rule",
                row.id, row.source
            )),
            Some(level) if level != row.level => bad.push(format!(
                "row {}: level {} but its source {} gives {level}",
                row.id, row.level, row.source
            )),
            Some(_) => {}
        }
        if !LEVELS.contains(&row.level.as_str()) {
            bad.push(format!("row {}: unknown level {}", row.id, row.level));
        }
        if ![
            "silence",
            "reply",
            "error",
            "result",
            "versions",
            "input_required",
        ]
        .contains(&row.expect.as_str())
            || (!row.codes.is_empty() && row.expect != "error")
        {
            bad.push(format!(
                "row {}: expect {} with codes {:?}",
                row.id, row.expect, row.codes
            ));
        }
    }
    bad
}

/// Each row's level follows from the statement it rests on (issue 25).
#[test]
fn every_row_s_level_follows_from_its_source() {
    let rows = mcp_reference_testkit::model::rows::rows();
    assert!(rows.len() > 60, "docs/rows.json does not parse");
    let bad = level_problems(&read("docs/spec-coverage.md"), rows);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The level check can fail: a MUST row citing a SHOULD, a missing
/// statement, another row's textbook rule.
#[test]
fn the_level_check_can_fail() {
    let doc = read("docs/spec-coverage.md");
    let mut rows = mcp_reference_testkit::model::rows::rows().to_vec();
    let first = rows.first().cloned().expect("a row");
    let broken = [
        ("must", "PAGE-03"),
        ("must", "NOPE-99"),
        ("textbook", "textbook:Z9"),
    ];
    for (level, source) in broken {
        let mut row = first.clone();
        row.level = level.into();
        row.source = source.into();
        rows.truncate(0);
        rows.push(row);
        assert_eq!(level_problems(&doc, &rows).len(), 1, "{level} {source}");
    }
}

/// Every way the "Client-side statements" table breaks the judge's rules:
/// a rule without exactly one statement, a statement naming no rule, a
/// section or a level that is not the rule's. The table comes after the
/// server's counts, so those are unchanged by it.
fn client_problems(doc: &str) -> Vec<String> {
    use mcp_reference::judge::{Level, RULES};
    let mut bad = Vec::new();
    let section = doc
        .split("\n## Client-side statements")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap_or_default();
    let mut seen = BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with("| CLI-")) {
        let cells: Vec<&str> = line
            .trim_start_matches("| ")
            .trim_end_matches(" |")
            .split(" | ")
            .collect();
        let [id, page, level, _, judged] = cells[..] else {
            bad.push(format!("not a five-cell row: {line}"));
            continue;
        };
        let rule_id = judged
            .strip_prefix("`judge:")
            .and_then(|r| r.strip_suffix('`'))
            .unwrap_or_default();
        let Some(rule) = RULES.iter().find(|r| r.id == rule_id) else {
            bad.push(format!("{id}: names no rule of the judge ({judged})"));
            continue;
        };
        *seen.entry(rule.id).or_insert(0) += 1;
        if rule.statement != id {
            bad.push(format!(
                "{id}: rule {} rests on {}",
                rule.id, rule.statement
            ));
        }
        if page != format!("`{}`", rule.section) {
            bad.push(format!(
                "{id}: section {page}, the rule's is {}",
                rule.section
            ));
        }
        let must = matches!(level, "MUST" | "MUST NOT" | "REQUIRED");
        let should = matches!(level, "SHOULD" | "SHOULD NOT" | "RECOMMENDED");
        let agrees = match rule.level {
            Level::Must => must,
            Level::Should => should,
        };
        if !agrees {
            bad.push(format!(
                "{id}: keyword {level} is not the level of {}",
                rule.id
            ));
        }
    }
    for rule in RULES {
        let n = seen.get(rule.id).copied().unwrap_or(0);
        if n != 1 {
            bad.push(format!(
                "rule {} has {n} client-side statements, not one",
                rule.id
            ));
        }
    }
    bad
}

#[test]
fn every_judge_rule_rests_on_one_client_side_statement() {
    let bad = client_problems(&read("docs/spec-coverage.md"));
    assert!(bad.is_empty(), "docs/spec-coverage.md:\n{}", bad.join("\n"));
}

#[test]
fn the_client_side_check_can_fail() {
    let doc = read("docs/spec-coverage.md");
    for (from, to) in [
        // A MUST rule's keyword weakened.
        (
            "| CLI-02 | `basic/index.mdx#requests` | MUST |",
            "| CLI-02 | `basic/index.mdx#requests` | SHOULD |",
        ),
        // A section changed.
        (
            "| CLI-28 | `basic/transports/stdio.mdx#shutdown`",
            "| CLI-28 | `basic/transports/stdio.mdx`",
        ),
        // A rule named twice, so another is named by none.
        ("`judge:jsonrpc.id-in-flight`", "`judge:jsonrpc.id`"),
    ] {
        let changed = doc.replacen(from, to, 1);
        assert_ne!(changed, doc, "{from}");
        assert!(!client_problems(&changed).is_empty(), "{to}");
    }
}
