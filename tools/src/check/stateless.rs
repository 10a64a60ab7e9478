//! `stateless.fresh-and-later`: whether a server takes context from
//! earlier requests on its connection. Two requests, each sent as a
//! process's first line and after the other, on two processes of their
//! own; their answers compared by kind (error code, result, silence).
//!
//! Spec: 2026-07-28 `basic/index.mdx#statelessness` (BASE-21 of
//! docs/spec-coverage.md: a server MUST NOT take context from earlier
//! requests).

use std::time::Duration;

use super::ctx::{Ctx, NoReply, Results, joined};
use super::probes::fail;
use super::report::Outcome;
use super::wire;

/// `stateless.fresh-and-later`, on two processes of their own: a valid
/// `server/discover`, then one without `params` (a missing `_meta`), on
/// one; the same two the other way round on the other. Each request must
/// be answered alike (the same error code, both a result, or both
/// silence) whether it comes first or after the other: a server that
/// decides from the requests it has seen whether a client is modern (or
/// anything else) takes context from earlier requests, which BASE-21
/// forbids (`basic/index.mdx#statelessness`).
pub fn stateless(cx: &mut Ctx) -> Results {
    const ID: &str = "stateless.fresh-and-later";
    let valid = wire::request(
        &wire::string_id("valid"),
        "server/discover",
        &wire::params(),
    );
    let bare = format!(
        r#"{{"jsonrpc":"2.0","id":{},"method":"server/discover"}}"#,
        wire::string_id("no-meta")
    )
    .into_bytes();
    let pairs = [[&valid, &bare], [&bare, &valid]];
    // What each request got, per order, as compared: "error CODE", "a
    // result", "no reply".
    let mut got: Vec<[String; 2]> = Vec::new();
    for pair in pairs {
        let mut p = match cx.spawn() {
            Ok(p) => p,
            Err(e) => return vec![(ID, cx.no_reply(&e, pair[0]))],
        };
        let mut answers: [String; 2] = Default::default();
        for (n, line) in pair.iter().enumerate() {
            let id = if *line == &valid { "valid" } else { "no-meta" };
            let wait = if n == 0 {
                cx.waits().first
            } else {
                cx.waits().reply
            };
            p.send(joined(&[line.as_slice()]));
            let deadline = cx.until(wait);
            let want = wire::string_id(id);
            let answer = match cx.await_reply(
                &mut p,
                Some("server/discover"),
                Some(&want),
                deadline,
                &[line.as_slice()],
                false,
            ) {
                Ok(reply) => match reply.error_code() {
                    Some(code) => format!("error {code}"),
                    None if reply.result().is_some() => "a result".to_owned(),
                    None => reply.gist(),
                },
                Err(NoReply::Timeout(_)) => "no reply".to_owned(),
                Err(e) => {
                    cx.retire(p, Duration::ZERO);
                    return vec![(ID, cx.no_reply(&e, line))];
                }
            };
            // Indexed by request: 0 the valid one, 1 the one without _meta.
            let slot = usize::from(*line != &valid);
            if let Some(a) = answers.get_mut(slot) {
                *a = answer;
            }
        }
        cx.retire(p, Duration::ZERO);
        got.push(answers);
    }
    let [[valid_first, bare_after], [valid_after, bare_first]] = [
        got.first().cloned().unwrap_or_default(),
        got.get(1).cloned().unwrap_or_default(),
    ];
    let mut problems = Vec::new();
    for (what, alone, after) in [
        ("a valid server/discover", valid_first, valid_after),
        ("server/discover without _meta", bare_first, bare_after),
    ] {
        if alone != after {
            problems.push(format!(
                "{what} got {alone} as a process's first line but {after} after the other request"
            ));
        }
    }
    let outcome = if problems.is_empty() {
        Outcome::Pass
    } else {
        fail(
            format!(
                "{}: the answer depends on earlier requests",
                problems.join("; ")
            ),
            &valid,
            None,
        )
    };
    vec![(ID, outcome)]
}
