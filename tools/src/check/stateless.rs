//! `stateless.fresh-and-later`: whether a server takes context from
//! earlier requests on its connection. Two requests, each sent as a
//! process's first line and after the other, on two processes of their
//! own; the valid one's answers compared by kind (error code, result,
//! silence).
//!
//! Spec: 2026-07-28 `basic/index.mdx#statelessness` (BASE-21 of
//! docs/spec-coverage.md: a server MUST NOT take context from earlier
//! requests).

use std::time::Duration;

use serde_json::Value;

use super::ctx::{Ctx, NoReply, Results, fail, joined};
use super::report::Outcome;
use super::wire;

/// `stateless.fresh-and-later`, on two processes of their own: a valid
/// `server/discover`, then one without `params` (a missing `_meta`), on
/// one; the same two the other way round on the other. The valid request
/// must be answered alike (the same error code, both a result, or both
/// silence) whether it comes first or after the other: a server that
/// refuses a request carrying all its context because of an earlier one
/// takes context from earlier requests, which BASE-21 forbids
/// (`basic/index.mdx#statelessness`). Only an `initialize` may select
/// legacy semantics for a process (`basic/versioning.mdx`), and the probe
/// sends none. See `judge` for why the other request's answers are not
/// judged.
pub(crate) fn stateless(cx: &mut Ctx) -> Results {
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
                Ok(reply) => kind(Some(&reply.value)),
                Err(NoReply::Timeout(_)) => kind(None),
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
    let outcome = match judge([valid_first, valid_after], [bare_first, bare_after]) {
        Judged::Alike => Outcome::Pass,
        Judged::Depends(why) => fail(why, &valid, None),
        Judged::Unobserved(why) => Outcome::NotRun(why),
    };
    vec![(ID, outcome)]
}

/// What a request got, as the statelessness probes (this check and the
/// vector replay's, `crate::vectors`) compare it: `error CODE`, `a
/// result`, `no reply` (`None`), or `an unreadable reply`.
pub(crate) fn kind(reply: Option<&Value>) -> String {
    let Some(reply) = reply else {
        return "no reply".into();
    };
    if reply.get("result").is_some() {
        return "a result".into();
    }
    match reply.pointer("/error/code").and_then(Value::as_i64) {
        Some(code) => format!("error {code}"),
        None => "an unreadable reply".into(),
    }
}

/// What the statelessness probes come to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Judged {
    /// The valid request got the same kind of answer in both places.
    Alike,
    /// It did not: how its answer depends on an earlier request (BASE-21).
    Depends(String),
    /// It got no answer in either place: nothing was observed to compare
    /// (a server that never answers `server/discover` is not thereby
    /// stateless), so the probe did not run; the reason says so.
    Unobserved(String),
}

/// The judgement of both statelessness probes: the kinds a valid
/// `server/discover` got as a process's first line and after the request
/// without `_meta`, and the kinds that one got as a first line and after
/// the valid one. The request without
/// `_meta` carries no context of its own, and a dual-era server may read
/// it by how the connection was opened (a legacy request when it opens
/// one, a malformed modern one after a modern opening:
/// `basic/versioning.mdx#compatibility-matrix`), so its answers are shown
/// and never judged.
pub(crate) fn judge(valid: [String; 2], bare: [String; 2]) -> Judged {
    let [alone, after] = valid;
    let [bare_alone, bare_after] = bare;
    let silent = kind(None);
    if alone == silent && after == silent {
        return Judged::Unobserved(format!(
            "a valid server/discover got {silent} as a process's first line or after \
             server/discover without _meta: there is no answer to compare"
        ));
    }
    if alone == after {
        return Judged::Alike;
    }
    Judged::Depends(format!(
        "a valid server/discover got {alone} as a process's first line but {after} after \
         server/discover without _meta (which got {bare_alone} as a first line and \
         {bare_after} after the valid one): the answer depends on an earlier request"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_the_judgement() {
        let v = |s: &str| serde_json::from_str::<Value>(s).unwrap_or_default();
        assert_eq!(kind(Some(&v(r#"{"result":{}}"#))), "a result");
        assert_eq!(
            kind(Some(&v(r#"{"error":{"code":-32602}}"#))),
            "error -32602"
        );
        assert_eq!(kind(Some(&v(r#"{"error":{}}"#))), "an unreadable reply");
        assert_eq!(kind(None), "no reply");
        let s = |a: &str, b: &str| [a.to_owned(), b.to_owned()];
        assert_eq!(
            judge(s("a result", "a result"), s("error -32602", "error -32602")),
            Judged::Alike
        );
        let why = judge(
            s("a result", "error -32600"),
            s("error -32601", "error -32602"),
        );
        assert_eq!(
            why,
            Judged::Depends(
                "a valid server/discover got a result as a process's first line but error -32600 \
                 after server/discover without _meta (which got error -32601 as a first line and \
                 error -32602 after the valid one): the answer depends on an earlier request"
                    .into()
            )
        );
        // The request without _meta may be read by how the connection
        // opened: its answers alone never fail the probe.
        assert_eq!(
            judge(s("x", "x"), s("no reply", "error -32602")),
            Judged::Alike
        );
        assert!(matches!(
            judge(s("a result", "no reply"), s("x", "x")),
            Judged::Depends(_)
        ));
        // No answer in either place is nothing observed: not run, never a
        // pass (whatever the other request got).
        for bare in [s("a result", "a result"), s("no reply", "no reply")] {
            assert!(matches!(
                judge(s("no reply", "no reply"), bare),
                Judged::Unobserved(_)
            ));
        }
    }
}
