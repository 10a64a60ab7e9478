//! The checks `mcp-reference check` runs: each one's id, level, the spec
//! section it rests on, and what it asserts. The order here is the order of
//! the report. `docs/check.md` restates this table (a unit test keeps the
//! two in step).
//!
//! Levels follow the spec's own words: MUST where the spec (or JSON-RPC
//! 2.0, which MCP builds on) says MUST, SHOULD where it says SHOULD or only
//! implies the rule. Section paths are relative to
//! `docs/specification/2026-07-28/` of the MCP specification.

/// How binding a check's rule is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// A failure makes the verdict fail (exit code 1).
    Must,
    /// Reported, but the verdict does not depend on it.
    Should,
}

impl Level {
    /// `MUST` or `SHOULD`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
        }
    }
}

/// One check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckInfo {
    /// Stable id, `group.name`.
    pub id: &'static str,
    /// MUST or SHOULD.
    pub level: Level,
    /// Where the rule is written.
    pub section: &'static str,
    /// What a passing server does, in one line.
    pub description: &'static str,
}

const fn must(id: &'static str, section: &'static str, description: &'static str) -> CheckInfo {
    CheckInfo {
        id,
        level: Level::Must,
        section,
        description,
    }
}

const fn should(id: &'static str, section: &'static str, description: &'static str) -> CheckInfo {
    CheckInfo {
        id,
        level: Level::Should,
        section,
        description,
    }
}

/// Every check, in report order.
pub const CHECKS: &[CheckInfo] = &[
    must(
        "discover.result",
        "server/discover.mdx#discoverresult; server/utilities/caching.mdx#cacheable-results; basic/index.mdx#resulttype",
        "server/discover answers with resultType \"complete\", supportedVersions including 2026-07-28, capabilities, ttlMs and cacheScope",
    ),
    should(
        "discover.server-info",
        "server/discover.mdx#discoverresult; basic/index.mdx#meta",
        "the discover result carries _meta[\"io.modelcontextprotocol/serverInfo\"] with a name and a version",
    ),
    must(
        "version.unsupported",
        "basic/versioning.mdx#protocol-version-negotiation",
        "a request naming a version the server does not serve gets -32022 with data.supported and data.requested",
    ),
    must(
        "meta.missing",
        "basic/index.mdx#meta (per-request protocol fields)",
        "a request without params, without params._meta, or with _meta not an object gets -32602",
    ),
    must(
        "meta.protocol-version",
        "basic/index.mdx#meta (per-request protocol fields)",
        "a request whose _meta lacks protocolVersion, or has one that is not a string, gets -32602",
    ),
    must(
        "meta.client-capabilities",
        "basic/index.mdx#meta (per-request protocol fields)",
        "a request whose _meta lacks clientCapabilities, or has one that is not an object, gets -32602",
    ),
    must(
        "method.unknown",
        "basic/index.mdx#error-codes; JSON-RPC 2.0 section 5.1",
        "a well-formed request for a method the server does not have gets -32601",
    ),
    must(
        "jsonrpc.parse-error",
        "JSON-RPC 2.0 sections 5 and 5.1; basic/index.mdx#error-responses",
        "a line that is not valid JSON gets -32700 with id null",
    ),
    must(
        "jsonrpc.not-object",
        "JSON-RPC 2.0 sections 5 and 5.1; basic/index.mdx#messages",
        "JSON that is not an object (a number, a string, null, true, an empty array) gets -32600 with id null",
    ),
    must(
        "ids.echo",
        "basic/index.mdx#requests and #responses; JSON-RPC 2.0 section 5",
        "string ids and 64-bit integer ids are echoed exactly",
    ),
    must(
        "ids.big-integer",
        "basic/index.mdx#requests (an id is a string or an integer, of no bounded size); JSON-RPC 2.0 section 5",
        "integer ids beyond 64 bits are echoed digit for digit",
    ),
    must(
        "notifications.silent",
        "basic/index.mdx#notifications; JSON-RPC 2.0 section 4.1",
        "notifications get no reply: known or unknown, with params MCP accepts or not, even with a request's method",
    ),
    must(
        "tools.list",
        "server/tools.mdx#listing-tools; server/utilities/caching.mdx#cacheable-results",
        "tools/list answers with a tools array, an integer ttlMs >= 0 and cacheScope \"public\" or \"private\"",
    ),
    should(
        "tools.list-deterministic",
        "server/tools.mdx#capabilities",
        "tools/list gives the same tools in the same order each time, whatever came between",
    ),
    must(
        "tools.call-unknown",
        "server/tools.mdx#error-handling; schema InvalidParamsError",
        "tools/call of a name not in tools/list gets -32602 and no result",
    ),
    should(
        "initialize.answer",
        "basic/versioning.mdx#backward-compatibility-with-initialization-based-versions",
        "initialize gets a legacy InitializeResult, or an error that names the versions the server supports",
    ),
    must(
        "eof.answers-all",
        "JSON-RPC 2.0 sections 4.1 and 5; basic/transports/stdio.mdx#shutdown",
        "requests written at once and followed by end-of-file are all answered",
    ),
    should(
        "eof.exits",
        "basic/transports/stdio.mdx#shutdown",
        "the server exits once its stdin is closed, within the timeout",
    ),
    should(
        "robust.oversized-line",
        "basic/transports/stdio.mdx; RFC 8259 section 9",
        "after an 8 MiB line the server is alive and answers the next request as before",
    ),
    should(
        "robust.invalid-utf8",
        "basic/transports/stdio.mdx; RFC 8259 section 8.1",
        "after a line that is not UTF-8 the server is alive and answers the next request as before",
    ),
    should(
        "robust.deep-nesting",
        "RFC 8259 section 9",
        "after a line nested 100000 levels deep the server is alive and answers the next request as before",
    ),
    must(
        "stdout.json-rpc",
        "basic/transports/stdio.mdx (stdout carries only valid MCP messages, never requests)",
        "every line on stdout is a JSON-RPC 2.0 response or notification",
    ),
    must(
        "stdout.schema",
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
        for c in CHECKS {
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

    #[test]
    fn docs_list_every_check_with_its_level() {
        let docs = include_str!("../../../docs/check.md");
        for c in CHECKS {
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
        assert!(rows >= CHECKS.len());
    }
}
