//! Random inputs for the proofs: proptest strategies for lines across the
//! whole input space and for configurations. Every generated line carries
//! the model's expectation ([`crate::model::Expect`]): what the reply must
//! be and which row of `docs/behavior.md` decides it. The generators never
//! say it themselves.
//!
//! Used by the property tests, the state machine test, benches and `diff`;
//! nothing in the server itself uses it.
//!
//! | generator | module | what it makes |
//! | --- | --- | --- |
//! | [`config()`] | [`config`](mod@config) | random users, order snapshots with random owners and values, stock tables or none, cache hints, line limits, sometimes `input_required` targets |
//! | [`input::input_request`] | [`input`](mod@input) | requests to input targets at a time, across rows I2 to I13, with states sealed by the model |
//! | [`arguments`] | [`config`](mod@config) | random `arguments` objects, for the `inputSchema` agreement property |
//! | [`request()`] and friends | [`request`](mod@request) | request trees: ids of every kind, known and unknown methods, `_meta` good and broken, tool calls with every kind of argument |
//! | [`case`] | here | one line for a configuration, weighted: mostly well-formed requests, the rest tree and byte mutations (rows F1 to F3, E1 to E4) |
//!
//! Lines are built as [`Json`] trees (the model's one tree) and rendered;
//! byte-level mutations (cut lines, junk, invalid UTF-8, CRLF, padding,
//! blank, oversized and random lines) change the bytes after rendering.

pub mod auth;
pub mod catalog;
pub mod config;
pub mod http;
pub mod input;
pub mod request;
pub mod values;

use std::fmt;

use proptest::prelude::*;
use proptest::sample::{Index, select};

pub use self::config::{arguments, config, forbidden_orders, input_config};
pub use self::request::{
    catalog_call, client_response, deep, id, invalid_id, meta, method, mutated_tree, not_object,
    notification, request, tool_call, unsupported_version,
};
pub use self::values::{any_json, esc, text};
use crate::model::{self, Expect, Json};
use mcp_reference::Config;

/// One generated line and the model's expectation of its reply.
#[derive(Clone)]
pub struct Case {
    /// The line, without its newline (never contains `\n`).
    pub line: Vec<u8>,
    /// What the reply must be (from [`model::expect_line`]).
    pub expect: Expect,
    /// Which generator made it, for diagnostics and coverage counts.
    pub label: &'static str,
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = if self.line.len() > 600 {
            format!(
                "{}... ({} bytes)",
                String::from_utf8_lossy(self.line.get(..600).unwrap_or_default()),
                self.line.len()
            )
        } else {
            String::from_utf8_lossy(&self.line).into_owned()
        };
        f.debug_struct("Case")
            .field("label", &self.label)
            .field("line", &shown)
            .field("utf8", &std::str::from_utf8(&self.line).is_ok())
            .field("expect", &self.expect)
            .finish()
    }
}

impl Case {
    /// The case of a line, with the model's expectation for `config`.
    pub fn from_bytes(config: &Config, line: Vec<u8>, label: &'static str) -> Case {
        let expect = model::expect_line(config, &line);
        Case {
            line,
            expect,
            label,
        }
    }

    /// The case of a tree rendered as is.
    pub fn from_tree(config: &Config, tree: &Json, label: &'static str) -> Case {
        Case::from_bytes(config, tree.render(), label)
    }
}

/// One line for `config`, across the whole input space: mostly requests
/// (well-formed or broken in one place), then tree mutations, notifications,
/// client responses, non-objects, byte-level mutations, blank, oversized
/// and random lines; for a configuration with input targets, also
/// requests to them at the epoch ([`input::input_request`], rows I2 to
/// I13; the generic model judges at the epoch).
pub fn case(config: &Config) -> BoxedStrategy<Case> {
    let c = config.clone();
    let tree_case = move |label: &'static str| {
        let c = c.clone();
        move |tree: Json| Case::from_tree(&c, &tree, label)
    };
    let any = prop_oneof![
        50 => request(config).prop_map(tree_case("request")),
        12 => mutated_tree(config).prop_map(tree_case("tree mutation")),
        4 => notification(config).prop_map(tree_case("notification")),
        3 => client_response().prop_map(tree_case("client response")),
        3 => not_object(config).prop_map(tree_case("not an object")),
        4 => deep(config).prop_map(tree_case("deep nesting")),
        12 => byte_mutation(config),
        3 => blank(config),
        3 => oversized(config),
        2 => random_bytes(config),
    ];
    if config.input().is_none() {
        return any.boxed();
    }
    let c = config.clone();
    let input_case = input::input_request(config, 0)
        .prop_map(move |v| Case::from_tree(&c, &Json::from_value(&v), "input request"));
    prop_oneof![96 => any, 30 => input_case].boxed()
}

/// A configuration and one line for it.
pub fn scenario() -> impl Strategy<Value = (Config, Case)> {
    config().prop_flat_map(|c| {
        let lines = case(&c);
        (Just(c), lines)
    })
}

/// A configuration and a sequence of lines for it.
pub fn session(len: std::ops::Range<usize>) -> impl Strategy<Value = (Config, Vec<Case>)> {
    config().prop_flat_map(move |c| {
        let lines = proptest::collection::vec(case(&c), len.clone());
        (Just(c), lines)
    })
}

/// Byte sequences that are not UTF-8 wherever they start.
const NOT_UTF8: &[&[u8]] = &[
    b"\xff",
    b"\xc0\x80",
    b"\xed\xa0\x80",
    b"\x80",
    b"\xe2\x82",
    b"\xf5\x80\x80\x80",
    b"\xc3",
];

/// A request line changed at the byte level: cut, junk before or after,
/// invalid UTF-8, CRLF, JSON whitespace around it, random bytes spliced
/// in, two values on one line.
fn byte_mutation(config: &Config) -> BoxedStrategy<Case> {
    let c = config.clone();
    (
        request(config),
        0..8u8,
        any::<Index>(),
        "[ \t]{0,3}",
        "[ \t]{0,3}",
        select(NOT_UTF8.to_vec()),
        "[^\n]{1,8}",
        proptest::collection::vec(any::<u8>().prop_filter("no newline", |b| *b != b'\n'), 1..8),
    )
        .prop_map(
            move |(tree, how, at, lead, trail, bad, junk, junk_bytes): (
                Json,
                u8,
                Index,
                String,
                String,
                &'static [u8],
                String,
                Vec<u8>,
            )| {
                let base = tree.render();
                let (line, label) = match how {
                    0 => (
                        base.get(..at.index(base.len()))
                            .unwrap_or_default()
                            .to_vec(),
                        "truncated",
                    ),
                    1 => {
                        let mut line = format!("{lead}#{junk}").into_bytes();
                        line.extend_from_slice(&base);
                        (line, "junk before")
                    }
                    2 => {
                        let mut line = base.clone();
                        line.extend_from_slice(format!("{trail}x{junk}").as_bytes());
                        (line, "junk after")
                    }
                    3 => {
                        let text = String::from_utf8_lossy(&base).into_owned();
                        let bounds: Vec<usize> = text
                            .char_indices()
                            .map(|(i, _)| i)
                            .chain([text.len()])
                            .collect();
                        let pos = bounds.get(at.index(bounds.len())).copied().unwrap_or(0);
                        (insert_at(&base, pos, bad), "invalid UTF-8")
                    }
                    4 => {
                        let mut line = base.clone();
                        line.push(b'\r');
                        (line, "CRLF")
                    }
                    5 => {
                        let mut line = lead.clone().into_bytes();
                        line.extend_from_slice(&base);
                        line.extend_from_slice(trail.as_bytes());
                        line.push(b'\r');
                        (line, "padded")
                    }
                    6 => {
                        let pos = at.index(base.len() + 1);
                        (insert_at(&base, pos, &junk_bytes), "random splice")
                    }
                    _ => {
                        let mut line = base.clone();
                        line.extend_from_slice(&base);
                        (line, "two values")
                    }
                };
                Case::from_bytes(&c, line, label)
            },
        )
        .boxed()
}

/// `bytes` inserted into `line` at `pos`.
fn insert_at(line: &[u8], pos: usize, bytes: &[u8]) -> Vec<u8> {
    let (head, tail) = line.split_at(pos.min(line.len()));
    [head, bytes, tail].concat()
}

/// Blank and whitespace-only lines.
fn blank(config: &Config) -> BoxedStrategy<Case> {
    let c = config.clone();
    "[ \t]{0,6}\r?"
        .prop_map(move |s| Case::from_bytes(&c, s.into_bytes(), "blank"))
        .boxed()
}

/// Lines around the limit: a request padded to exactly the limit, or past
/// it, or junk past it. Skipped (a plain request instead) when the limit is
/// too large to fill cheaply.
fn oversized(config: &Config) -> BoxedStrategy<Case> {
    let c = config.clone();
    let limit = config.max_line_bytes();
    if limit > 64 * 1024 {
        return request(config)
            .prop_map(move |t| Case::from_tree(&c, &t, "request"))
            .boxed();
    }
    (request(config), 0..3u8, 1usize..200)
        .prop_map(move |(tree, how, extra)| {
            let base = tree.render();
            let (line, label) = match how {
                0 => {
                    let pad = limit.saturating_sub(base.len());
                    (insert_at(&base, 0, &vec![b' '; pad]), "at the limit")
                }
                1 => {
                    let mut line = base.clone();
                    let pad = (limit + extra).saturating_sub(base.len());
                    line.extend(std::iter::repeat_n(b' ', pad));
                    (line, "over the limit")
                }
                _ => (vec![b'x'; limit + extra], "over the limit, not JSON"),
            };
            Case::from_bytes(&c, line, label)
        })
        .boxed()
}

/// Random bytes (no newline).
fn random_bytes(config: &Config) -> BoxedStrategy<Case> {
    let c = config.clone();
    proptest::collection::vec(
        any::<u8>().prop_filter("no newline", |b| *b != b'\n'),
        0..64,
    )
    .prop_map(move |line| Case::from_bytes(&c, line, "random bytes"))
    .boxed()
}
