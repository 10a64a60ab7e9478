//! The checks `mcp-reference check` runs: each one's id, level, the spec
//! section it rests on, and what it asserts. The order here is the order of
//! the report. `docs/check.md` restates this table (a unit test keeps the
//! two in step).
//!
//! Every check names the statement it rests on (`source`: ids of
//! `docs/spec-coverage.md`, the first the one its level follows from), or
//! the book-orders rule it holds a server to (`textbook:<row>`, a row of
//! `docs/behavior.md`): MUST for a MUST or MUST NOT of the MCP
//! specification or JSON-RPC 2.0, SHOULD for a SHOULD, SHOULD NOT or
//! RECOMMENDED, TEXTBOOK for the reference's own choice where the
//! specification names none (reported, never in the verdict). A unit test
//! fails when a level is not the one its source gives or a source does not
//! exist. Section paths are relative to `docs/specification/2026-07-28/`
//! of the MCP specification.

/// How binding a check's rule is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// A failure makes the verdict fail (exit code 1).
    Must,
    /// Reported, but the verdict does not depend on it.
    Should,
    /// The book-orders reference's choice where the specification names
    /// none: reported, never in the verdict.
    Textbook,
}

impl Level {
    /// `MUST` or `SHOULD`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
            Level::Textbook => "TEXTBOOK",
        }
    }
}

/// One check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckInfo {
    /// Stable id, `group.name`.
    pub id: &'static str,
    /// MUST, SHOULD or TEXTBOOK.
    pub level: Level,
    /// The statement ids (docs/spec-coverage.md) it rests on, the first
    /// giving its level; or `textbook:<row>`.
    pub source: &'static str,
    /// Where the rule is written.
    pub section: &'static str,
    /// What a passing server does, in one line.
    pub description: &'static str,
}

pub(crate) const fn check(
    level: Level,
    id: &'static str,
    source: &'static str,
    section: &'static str,
    description: &'static str,
) -> CheckInfo {
    CheckInfo {
        id,
        level,
        source,
        section,
        description,
    }
}

/// Every check, in report order.
pub const CHECKS: &[CheckInfo] = &[
    check(
        Level::Must,
        "discover.result",
        "DISC-01, BASE-07, CACHE-01, CACHE-03",
        "server/discover.mdx#discoverresult; server/utilities/caching.mdx#cacheable-results; basic/index.mdx#resulttype",
        "server/discover answers with resultType \"complete\", supportedVersions including 2026-07-28, capabilities, ttlMs and cacheScope",
    ),
    check(
        Level::Should,
        "discover.server-info",
        "DISC-02",
        "server/discover.mdx#discoverresult; basic/index.mdx#meta",
        "the discover result carries _meta[\"io.modelcontextprotocol/serverInfo\"] with a name and a version",
    ),
    check(
        Level::Must,
        "version.unsupported",
        "VER-01",
        "basic/versioning.mdx#protocol-version-negotiation",
        "a request naming a version the server does not serve gets -32022 with data.supported and data.requested",
    ),
    check(
        Level::Must,
        "meta.missing",
        "BASE-41",
        "basic/index.mdx#meta (per-request protocol fields)",
        "a request without params, without params._meta, or with _meta not an object gets -32602",
    ),
    check(
        Level::Must,
        "meta.protocol-version",
        "BASE-41",
        "basic/index.mdx#meta (per-request protocol fields)",
        "a request whose _meta lacks protocolVersion, or has one that is not a string, gets -32602",
    ),
    check(
        Level::Must,
        "meta.client-capabilities",
        "BASE-41",
        "basic/index.mdx#meta (per-request protocol fields)",
        "a request whose _meta lacks clientCapabilities, or has one that is not an object, gets -32602",
    ),
    check(
        Level::Textbook,
        "method.unknown",
        "textbook:D4",
        "basic/index.mdx#error-codes; JSON-RPC 2.0 section 5.1",
        "a well-formed request for a method the server does not have gets -32601 (JSON-RPC's code; no MCP statement requires it)",
    ),
    check(
        Level::Must,
        "jsonrpc.parse-error",
        "JRPC-03",
        "JSON-RPC 2.0 sections 5 and 5.1; basic/index.mdx#error-responses",
        "a line that is not valid JSON gets an error with id null (its code is jsonrpc.parse-error-code's)",
    ),
    check(
        Level::Must,
        "jsonrpc.not-object",
        "JRPC-03",
        "JSON-RPC 2.0 sections 5 and 5.1; basic/index.mdx#messages",
        "JSON that is not an object (a number, a string, null, true, an empty array) gets an error with id null (its code is jsonrpc.not-object-code's)",
    ),
    check(
        Level::Textbook,
        "jsonrpc.parse-error-code",
        "textbook:E1",
        "JSON-RPC 2.0 section 5.1; docs/behavior.md row E1",
        "the error a line that is not valid JSON gets has JSON-RPC's code -32700 (the vectors judge the code at textbook: JSON-RPC requires an error, not its code)",
    ),
    check(
        Level::Textbook,
        "jsonrpc.not-object-code",
        "textbook:E5",
        "JSON-RPC 2.0 section 5.1; docs/behavior.md rows E5 and E6",
        "the error JSON that is not an object gets has JSON-RPC's code -32600 (the vectors judge the code at textbook)",
    ),
    check(
        Level::Must,
        "ids.echo",
        "JRPC-03, BASE-05",
        "basic/index.mdx#requests and #responses; JSON-RPC 2.0 section 5",
        "string ids and 64-bit integer ids are echoed exactly",
    ),
    check(
        Level::Must,
        "ids.big-integer",
        "JRPC-03, BASE-03",
        "basic/index.mdx#requests (an id is a string or an integer, of no bounded size); JSON-RPC 2.0 section 5",
        "integer ids beyond 64 bits are echoed digit for digit",
    ),
    check(
        Level::Must,
        "notifications.silent",
        "BASE-19, JRPC-04",
        "basic/index.mdx#notifications; JSON-RPC 2.0 section 4.1",
        "notifications get no reply: known or unknown, with params MCP accepts or not, even with a request's method",
    ),
    check(
        Level::Must,
        "tools.list",
        "TOOLS-02, CACHE-03",
        "server/tools.mdx#listing-tools; server/utilities/caching.mdx#cacheable-results",
        "tools/list answers with a tools array, an integer ttlMs >= 0 and cacheScope \"public\" or \"private\"",
    ),
    check(
        Level::Should,
        "tools.list-deterministic",
        "TOOLS-04",
        "server/tools.mdx#capabilities",
        "tools/list gives the same tools in the same order each time, whatever came between",
    ),
    check(
        Level::Textbook,
        "tools.call-unknown",
        "textbook:T3",
        "server/tools.mdx#error-handling; schema InvalidParamsError",
        "tools/call of a name not in tools/list gets -32602 and no result (a protocol error in server/tools.mdx, with no MUST)",
    ),
    check(
        Level::Must,
        "resources.list",
        "RES-02, CACHE-01, CACHE-03",
        "server/resources.mdx#capabilities; server/utilities/caching.mdx#cacheable-results",
        "a server declaring resources answers resources/list with a resources array, an integer ttlMs >= 0 and cacheScope \"public\" or \"private\"",
    ),
    check(
        Level::Must,
        "resources.templates-list",
        "CACHE-01, CACHE-03",
        "server/resources.mdx#resource-templates; server/utilities/caching.mdx#cacheable-results",
        "a resources/templates/list result carries a resourceTemplates array and caching hints (an error: no templates, skipped)",
    ),
    check(
        Level::Must,
        "resources.read",
        "CACHE-01, RES-12",
        "server/resources.mdx#reading-resources; server/resources.mdx#security-considerations; server/utilities/caching.mdx#cacheable-results",
        "resources/read of a listed resource gives contents, each with a uri and a text or a valid Base64 blob, and caching hints",
    ),
    check(
        Level::Must,
        "resources.read-unknown",
        "RES-05",
        "server/resources.mdx#error-handling",
        "resources/read of a resource that does not exist gets error -32602 (never -32002, the code of earlier revisions)",
    ),
    check(
        Level::Must,
        "resources.read-unknown-not-empty",
        "RES-07",
        "server/resources.mdx#error-handling",
        "resources/read of a resource that does not exist never gets a result with an empty contents array",
    ),
    check(
        Level::Textbook,
        "resources.order-not-yours",
        "textbook:R6",
        "server/resources.mdx#security-considerations; docs/behavior.md DEC12",
        "another user's order read through book-orders://orders/{order_id} gets the reply, apart from the id and the asked uri echoed, of an order that does not exist",
    ),
    check(
        Level::Should,
        "prompts.get-unknown",
        "PROMPT-06",
        "server/prompts.mdx#error-handling",
        "prompts/get of a prompt not listed gets -32602",
    ),
    check(
        Level::Should,
        "prompts.get-missing-argument",
        "PROMPT-07",
        "server/prompts.mdx#error-handling",
        "prompts/get of a listed prompt without its required argument gets -32602",
    ),
    check(
        Level::Must,
        "prompts.list",
        "PROMPT-02, CACHE-01, CACHE-03",
        "server/prompts.mdx#capabilities; server/utilities/caching.mdx#cacheable-results",
        "a server declaring prompts answers prompts/list with a prompts array, an integer ttlMs >= 0 and cacheScope \"public\" or \"private\"",
    ),
    check(
        Level::Must,
        "completion.values",
        "STDIO-03",
        "server/utilities/completion.mdx#completion-results; schema CompleteResult (values: maxItems 100)",
        "completion/complete of each listed prompt argument and template variable gives at most 100 string values",
    ),
    check(
        Level::Should,
        "completion.unknown-prompt",
        "COMP-02",
        "server/utilities/completion.mdx#error-handling",
        "completion/complete for a prompt not listed gets -32602",
    ),
    check(
        Level::Must,
        "completion.own-ids-only",
        "COMP-08",
        "server/utilities/completion.mdx#security",
        "book-orders: completing order_id of reply_to_customer or the order template, from nothing or from another user's order id, neither suggests another user's order nor counts it (total at most the user's own ids that match)",
    ),
    check(
        Level::Textbook,
        "completion.foreign-as-none",
        "textbook:C1",
        "server/utilities/completion.mdx#security; docs/behavior.md DEC12",
        "book-orders: another user's order id as a prefix gets the completion, apart from the id, of an order id that does not exist",
    ),
    check(
        Level::Must,
        "resources.list-stable",
        "RES-03",
        "server/resources.mdx#capabilities",
        "resources/list gives the same resources after other requests: the list does not vary with earlier requests",
    ),
    check(
        Level::Must,
        "prompts.list-stable",
        "PROMPT-03",
        "server/prompts.mdx#capabilities",
        "prompts/list gives the same prompts after other requests: the list does not vary with earlier requests",
    ),
    check(
        Level::Should,
        "initialize.answer",
        "VER-07",
        "basic/versioning.mdx#backward-compatibility-with-initialization-based-versions",
        "initialize gets a legacy InitializeResult, or an error that names the versions the server supports",
    ),
    check(
        Level::Must,
        "eof.answers-all",
        "JRPC-01",
        "JSON-RPC 2.0 sections 4.1 and 5; basic/transports/stdio.mdx#shutdown",
        "requests written at once and followed by end-of-file are all answered",
    ),
    check(
        Level::Must,
        "stateless.fresh-and-later",
        "BASE-21",
        "basic/index.mdx#statelessness",
        "a valid server/discover gets the same answer (error code, result or silence) as a process's first line and after one without _meta: no context is taken from an earlier request",
    ),
    check(
        Level::Must,
        "stateless.warm",
        "BASE-21",
        "basic/index.mdx#statelessness",
        "every request check above gets the same verdict on a warm process (each request after a valid server/discover and tools/list) as on the fresh one: no context is taken from earlier requests",
    ),
    check(
        Level::Should,
        "eof.exits",
        "STDIO-10",
        "basic/transports/stdio.mdx#shutdown",
        "the server exits once its stdin is closed, within the timeout",
    ),
    check(
        Level::Should,
        "robust.oversized-line",
        "IDX-04",
        "basic/transports/stdio.mdx; RFC 8259 section 9",
        "after an 8 MiB line the server is alive and answers the next request as before",
    ),
    check(
        Level::Should,
        "robust.invalid-utf8",
        "IDX-04",
        "basic/transports/stdio.mdx; RFC 8259 section 8.1",
        "after a line that is not UTF-8 the server is alive and answers the next request as before",
    ),
    check(
        Level::Should,
        "robust.deep-nesting",
        "IDX-04",
        "RFC 8259 section 9",
        "after a line nested 100000 levels deep the server is alive and answers the next request as before",
    ),
    check(
        Level::Must,
        "stdout.json-rpc",
        "STDIO-03",
        "basic/transports/stdio.mdx (stdout carries only valid MCP messages, never requests)",
        "every line on stdout is a JSON-RPC 2.0 response or notification",
    ),
    check(
        Level::Must,
        "stdout.schema",
        "STDIO-03, BASE-02",
        "basic/transports/stdio.mdx; the official schema.json of the message's version",
        "every JSON-RPC message on stdout validates against the official schema for its version",
    ),
];

/// The check with this id.
pub fn find(id: &str) -> Option<&'static CheckInfo> {
    CHECKS.iter().find(|c| c.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn ids_are_unique_and_well_formed() {
        let mut seen = BTreeSet::new();
        for c in CHECKS.iter().chain(super::super::call::CALL_CHECKS) {
            assert!(seen.insert(c.id), "duplicate {}", c.id);
            assert!(
                c.id.split_once('.').is_some()
                    && c.id.bytes().all(|b| b.is_ascii_lowercase()
                        || b == b'.'
                        || b == b'-'
                        || b.is_ascii_digit()),
                "{}",
                c.id
            );
            assert!(!c.description.contains('\n') && !c.section.is_empty());
        }
    }

    /// Each check's level is the one its first source gives, and every
    /// source exists (a statement of docs/spec-coverage.md, or a row).
    #[test]
    fn every_level_follows_from_its_source() {
        let coverage = include_str!("../../../docs/spec-coverage.md");
        let rows = include_str!("../../../docs/rows.json");
        let keyword = |id: &str| {
            coverage.lines().find_map(|l| {
                let cells: Vec<&str> = l.split(" | ").collect();
                (cells.first() == Some(&format!("| {id}").as_str()))
                    .then(|| cells.get(2).map(|k| k.to_string()))
                    .flatten()
            })
        };
        for c in CHECKS.iter().chain(super::super::call::CALL_CHECKS) {
            let mut level = None;
            for source in c.source.split(", ") {
                let this = match source.strip_prefix("textbook:") {
                    Some(row) => {
                        assert!(
                            rows.contains(&format!("{{\"id\": \"{row}\"")),
                            "{}: {row}",
                            c.id
                        );
                        Level::Textbook
                    }
                    None => match keyword(source).as_deref() {
                        Some("MUST" | "MUST NOT") => Level::Must,
                        Some("SHOULD" | "SHOULD NOT" | "RECOMMENDED") => Level::Should,
                        other => panic!("{}: source {source} gives {other:?}", c.id),
                    },
                };
                level.get_or_insert(this);
            }
            assert_eq!(level, Some(c.level), "{}: {}", c.id, c.source);
        }
    }

    /// The checks of a JSON-RPC code are at the level the vectors judge
    /// that code at (`model::rows::code_level`, one place for both).
    #[test]
    fn code_checks_are_at_the_vectors_level() {
        for (id, row) in [
            ("jsonrpc.parse-error-code", "E1"),
            ("jsonrpc.not-object-code", "E5"),
            ("method.unknown", "D4"),
            ("tools.call-unknown", "T3"),
            ("meta.missing", "M1"),
            ("meta.protocol-version", "M5"),
            ("meta.client-capabilities", "M8"),
        ] {
            let level = mcp_reference_testkit::model::rows::code_level(row)
                .map(|(_, level)| level)
                .unwrap_or_default();
            let check = find(id).map(|c| c.level.as_str().to_ascii_lowercase());
            assert_eq!(check.as_deref(), Some(level), "{id} against row {row}");
        }
    }

    #[test]
    fn docs_list_every_check_with_its_level() {
        let docs = include_str!("../../../docs/check.md");
        for c in CHECKS.iter().chain(super::super::call::CALL_CHECKS) {
            let row = docs
                .lines()
                .find(|l| l.starts_with(&format!("| `{}` |", c.id)))
                .unwrap_or_else(|| panic!("docs/check.md has no row for {}", c.id));
            assert!(
                row.contains(&format!("| {} |", c.level.as_str())),
                "docs/check.md gives {} another level: {row}",
                c.id
            );
        }
        let rows = docs.lines().filter(|l| l.starts_with("| `")).count();
        assert!(rows >= CHECKS.len() + super::super::call::CALL_CHECKS.len());
    }
}
