//! `jsonrpc.parse-error` and `jsonrpc.not-object` (JRPC-03: an error with
//! id null), and the codes of those errors, `jsonrpc.parse-error-code` and
//! `jsonrpc.not-object-code`, judged at the level the vectors judge them
//! at ([`code_level`], from `docs/rows.json` through the test kit, for
//! every code check of `check`).
//!
//! Spec: JSON-RPC 2.0 sections 5 and 5.1; 2026-07-28
//! `basic/index.mdx#error-responses`.

use super::ctx::{Ctx, Results, fail};
use super::report::Outcome;
use super::wire::Reply;
use mcp_reference_testkit::model;

/// `jsonrpc.parse-error`, `jsonrpc.not-object`, and the codes of their
/// replies, `jsonrpc.parse-error-code` and `jsonrpc.not-object-code`.
pub(crate) fn jsonrpc(cx: &mut Ctx) -> Results {
    // JSON-RPC 2.0 requires an error with id null (JRPC-03); the code is
    // judged on lines of its own, at the level the vectors give it.
    let (parse_code, _) = code_level("E1");
    let (object_code, _) = code_level("E5");
    let with_null_id = |code: i64| {
        move |reply: &Reply| -> Option<String> {
            if reply.error_code().is_none() {
                Some(format!(
                    "expected an error (the reference: {code}), got {}",
                    reply.gist()
                ))
            } else if !reply.id_is_null() {
                Some("the id is not null, though the request's id cannot be read".into())
            } else {
                None
            }
        }
    };
    let parse: Vec<(Vec<u8>, Option<&str>)> = [
        r#"{"jsonrpc":"2.0","id":60,"method":"server/discover","#,
        r#"{"jsonrpc": "2.0", "id": 61, "method": 'server/discover'}"#,
        "hello, server",
    ]
    .iter()
    .map(|l| (l.as_bytes().to_vec(), None))
    .collect();
    let not_object: Vec<(Vec<u8>, Option<&str>)> =
        ["42", r#""server/discover""#, "null", "true", "[]"]
            .iter()
            .map(|l| (l.as_bytes().to_vec(), None))
            .collect();
    let [parse_error, parse_error_code] = each_case_twice(
        cx,
        &parse,
        with_null_id(parse_code),
        code_of(parse_code, "E1"),
    );
    let [not_an_object, not_an_object_code] = each_case_twice(
        cx,
        &not_object,
        with_null_id(object_code),
        code_of(object_code, "E5"),
    );
    vec![
        ("jsonrpc.parse-error", parse_error),
        ("jsonrpc.parse-error-code", parse_error_code),
        ("jsonrpc.not-object", not_an_object),
        ("jsonrpc.not-object-code", not_an_object_code),
    ]
}

/// The code row `row` fixes, and the level the vectors judge it at
/// ([`model::rows::code_level`]); `(0, "textbook")` for a row that fixes
/// none, which no reply matches (a unit test requires every row this
/// module asks for to fix one).
pub(crate) fn code_level(row: &str) -> (i64, &'static str) {
    model::rows::code_level(row).unwrap_or((0, "textbook"))
}

/// The judgement of an error reply's code: `code`, the one row `row`
/// fixes. A reply that is no error is not this judgement's (`Some("")`:
/// not judged).
fn code_of(code: i64, row: &'static str) -> impl Fn(&Reply) -> Option<String> {
    move |reply: &Reply| match reply.error_code() {
        None => Some(String::new()),
        Some(c) if c == code => None,
        Some(c) => Some(format!(
            "got error {c}; row {row} (the vectors' {} level) has {code}",
            code_level(row).1
        )),
    }
}

/// `probes::each_case` with two judgements of the same replies: the first
/// stops at its first failure, as there; the second fails at its first
/// failure too, is not judged on a reply it returns `Some("")` for, and is
/// skipped when it judged none.
fn each_case_twice(
    cx: &mut Ctx,
    cases: &[(Vec<u8>, Option<&str>)],
    first: impl Fn(&Reply) -> Option<String>,
    second: impl Fn(&Reply) -> Option<String>,
) -> [Outcome; 2] {
    let (mut one, mut two) = (Outcome::Pass, Outcome::Pass);
    let mut judged = false;
    for (line, method) in cases {
        let reply = match cx.ask(line, *method) {
            Ok(reply) => reply,
            Err(e) => {
                let no = cx.no_reply(&e, line);
                if one == Outcome::Pass {
                    one = no;
                }
                break;
            }
        };
        if one == Outcome::Pass
            && let Some(why) = first(&reply)
        {
            one = fail(why, line, Some(&reply));
        }
        match second(&reply) {
            Some(why) if why.is_empty() => {}
            Some(why) => {
                judged = true;
                if two == Outcome::Pass {
                    two = fail(why, line, Some(&reply));
                }
            }
            None => judged = true,
        }
    }
    if !judged {
        two = Outcome::Skip("no line got an error reply whose code could be judged".into());
    }
    [one, two]
}
