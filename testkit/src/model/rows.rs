//! The row registry, `docs/rows.json`: one entry per row of
//! `docs/behavior.md` (`id`, `section`, `rule`, and for a row whose reply is
//! a fixed error its `code` and `message`), with the verdict level its
//! outcome is judged at and the source that level rests on (`level`,
//! `source`, `expect`, `codes`: docs/vectors.md, "Levels"). The model takes the code and
//! message of every fixed error from here, so they are written once, in
//! the registry, and never copied from the server's constants.

use std::sync::OnceLock;

use serde::Deserialize;

/// The registry's text, compiled in.
pub const REGISTRY: &str = include_str!("../../../docs/rows.json");

/// One row of the registry.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// `F1` ... `L17`.
    pub id: String,
    /// The section of `docs/behavior.md` it is in.
    pub section: String,
    /// The rule, one line.
    pub rule: String,
    /// The code of the row's fixed error, if its reply is one.
    #[serde(default)]
    pub code: Option<i64>,
    /// The message of the row's fixed error.
    #[serde(default)]
    pub message: Option<String>,
    /// The level its outcome is judged at: `must`, `should`, `textbook`
    /// or `canonical`; it follows from `source`.
    pub level: String,
    /// What the level rests on: a statement id of `docs/spec-coverage.md`
    /// (`BASE-41`, `JRPC-03`, ...), `textbook:<row>` (what the book-orders
    /// fixtures fix) or `canonical:<row>` (the reference's exact bytes).
    pub source: String,
    /// What the source requires of a reply: `silence`, `reply` (a reply
    /// with the request's id), `error` (an error reply with it), `result`
    /// (a complete result with it, and the reference's `isError`) or
    /// `versions` (an answer to `initialize` by VER-07: a legacy
    /// `InitializeResult`, or an error naming a version the reference
    /// names in its reply's `data.supported`).
    pub expect: String,
    /// For `error`: the codes the source allows (empty: any code).
    #[serde(default)]
    pub codes: Vec<i64>,
}

/// The verdict levels, weakest claim first: a level's verdict includes
/// every level before it.
pub const LEVELS: [&str; 4] = ["must", "should", "textbook", "canonical"];

/// The level a statement's RFC 2119 keyword gives (`MUST`, `SHOULD NOT`,
/// ...); `None` for a keyword no verdict can rest on (`MAY`).
pub fn level_of_keyword(keyword: &str) -> Option<&'static str> {
    match keyword {
        "MUST" | "MUST NOT" | "REQUIRED" | "SHALL" | "SHALL NOT" => Some("must"),
        "SHOULD" | "SHOULD NOT" | "RECOMMENDED" | "NOT RECOMMENDED" => Some("should"),
        _ => None,
    }
}

/// The code row `id` fixes and the level the vectors require that code at:
/// the row's own level when its source allows only such codes (`codes`
/// lists it: `M1`'s `-32602` at `must`), else `textbook`, where every
/// vector is judged against the reference's reply, code included (`E1`'s
/// `-32700`: JSON-RPC requires an error, not its code). `check` asks this
/// for the level of its code checks, so both tools judge a code alike.
/// `None`: the row fixes no code.
pub fn code_level(id: &str) -> Option<(i64, &'static str)> {
    let row = row(id)?;
    let code = row.code?;
    let own = LEVELS.iter().copied().find(|l| *l == row.level)?;
    Some((
        code,
        if row.codes.contains(&code) {
            own
        } else {
            "textbook"
        },
    ))
}

/// Every row, in registry order (empty if the registry does not parse;
/// `tests/rows.rs` fails then).
pub fn rows() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| serde_json::from_str(REGISTRY).unwrap_or_default())
}

/// The row `id`, if the registry has it.
pub fn row(id: &str) -> Option<&'static Row> {
    rows().iter().find(|r| r.id == id)
}

/// The fixed error of row `id`: its code and message. A row without one
/// gives code 0 and a message saying so, which no reply matches, so a
/// registry that lost an entry fails the tests instead of panicking.
pub fn fixed(id: &str) -> (i64, String) {
    match row(id) {
        Some(Row {
            code: Some(code),
            message: Some(message),
            ..
        }) => (*code, message.clone()),
        _ => (0, format!("docs/rows.json has no fixed error for row {id}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A code is required at the row's level only where the row's source
    /// allows only such codes; elsewhere the vectors' `textbook` level
    /// judges it.
    #[test]
    fn the_level_of_a_rows_code() {
        assert_eq!(code_level("E1"), Some((-32700, "textbook")));
        assert_eq!(code_level("E5"), Some((-32600, "textbook")));
        assert_eq!(code_level("D4"), Some((-32601, "textbook")));
        assert_eq!(code_level("M1"), Some((-32602, "must")));
        assert_eq!(code_level("D3"), Some((-32602, "should")));
        assert_eq!(code_level("T4"), None);
        assert_eq!(code_level("no such row"), None);
    }
}
