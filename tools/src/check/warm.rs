//! `stateless.warm`: every request check run a second time, on a warm
//! process, where each of its requests comes after valid requests of other
//! methods ([`super::wire::warm_up`]: a `server/discover` and a
//! `tools/list`). A check whose verdict differs between the two runs (it
//! passes on one and fails on the other) shows a server whose answer
//! depends on earlier requests: a MUST failure by BASE-21, reported with
//! both answers, the requests that came before, and, where the check's own
//! statement fails on the warm run, that statement too. A server that
//! checks the protocol version only until its first `tools/list` (as a
//! port on the official TypeScript SDK 2.4 does) passes
//! `version.unsupported` on a fresh process and fails it here.
//!
//! Spec: 2026-07-28 `basic/index.mdx#statelessness` (BASE-21 of
//! docs/spec-coverage.md: a server MUST NOT take context from earlier
//! requests).

use super::catalog;
use super::ctx::{Asked, Ctx, Results};
use super::report::{Failure, Outcome};

/// A group of checks: what [`super::run`] runs, on the process `Ctx` gives.
pub(crate) type Group = fn(&mut Ctx) -> Results;

/// Runs `groups` again on a warm process and compares each check's verdict
/// with its verdict in `fresh` (the first run). What the checks learn on
/// the warm run is dropped: the first run's facts stand.
pub(crate) fn warm(cx: &mut Ctx, groups: &[Group], fresh: &Results) -> Results {
    let facts = std::mem::take(&mut cx.facts);
    cx.set_warm(true);
    let mut warm = Vec::new();
    for group in groups {
        warm.extend(group(cx));
    }
    cx.set_warm(false);
    cx.facts = facts;
    vec![("stateless.warm", judge(fresh, &warm, &cx.asked))]
}

/// The request `request` as asked on the run `warm` says, if it was.
fn asked<'a>(asked: &'a [Asked], request: Option<&str>, warm: bool) -> Option<&'a Asked> {
    let request = request?;
    asked
        .iter()
        .find(|a| a.warm == warm && a.request == request)
}

/// The before-requests of a warm ask, by method, for a sentence.
fn after(a: Option<&Asked>) -> String {
    let methods: Vec<String> = a
        .map(|a| a.before.as_slice())
        .unwrap_or_default()
        .iter()
        .filter_map(|line| {
            serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| v.get("method")?.as_str().map(str::to_owned))
        })
        .collect();
    if methods.is_empty() {
        "after valid requests of other methods".into()
    } else {
        format!("after a valid {}", methods.join(" and a valid "))
    }
}

/// The judgement: `None` when every check compared got the same verdict
/// on both runs.
fn judge(fresh: &Results, warm: &Results, log: &[Asked]) -> Outcome {
    let mut problems = Vec::new();
    let mut shown: Option<Failure> = None;
    let mut compared = 0;
    for (id, on_warm) in warm {
        let Some((_, on_fresh)) = fresh.iter().find(|(i, _)| i == id) else {
            continue;
        };
        let statement = catalog::find(id)
            .and_then(|c| c.source.split(", ").next())
            .unwrap_or("its statement");
        let (request, fresh_reply, warm_ask, also) = match (on_fresh, on_warm) {
            (Outcome::Pass, Outcome::Fail(failed)) => {
                let request = failed.request.as_deref();
                let fresh_reply = asked(log, request, false).map(|a| a.reply.clone());
                let also = format!("; there {statement} fails too: {}", failed.reason);
                (request, fresh_reply, asked(log, request, true), also)
            }
            (Outcome::Fail(failed), Outcome::Pass) => {
                let request = failed.request.as_deref();
                let also = format!(
                    "; on the fresh process {statement} failed: {}",
                    failed.reason
                );
                (
                    request,
                    failed.reply.clone(),
                    asked(log, request, true),
                    also,
                )
            }
            (Outcome::Pass | Outcome::Fail(_), Outcome::Pass | Outcome::Fail(_)) => {
                compared += 1;
                continue;
            }
            _ => continue,
        };
        compared += 1;
        let fresh_reply = fresh_reply.unwrap_or_else(|| "(not recorded)".into());
        let warm_reply = warm_ask.map_or_else(|| "(not recorded)".into(), |a| a.reply.clone());
        let verdicts = if matches!(on_fresh, Outcome::Pass) {
            "passes on a fresh process and fails"
        } else {
            "fails on a fresh process and passes"
        };
        problems.push(format!(
            "{id} {verdicts} {} on the same process: the answer depends on earlier requests{also}",
            after(warm_ask)
        ));
        if shown.is_none() {
            let mut lines: Vec<String> = warm_ask.map(|a| a.before.clone()).unwrap_or_default();
            lines.push(request.unwrap_or_default().to_owned());
            shown = Some(Failure {
                reason: String::new(),
                request: Some(lines.join("\n")),
                reply: Some(format!("fresh: {fresh_reply}\nwarm:  {warm_reply}")),
            });
        }
    }
    match shown {
        Some(mut failure) => {
            failure.reason = problems.join("; ");
            Outcome::Fail(failure)
        }
        None if compared == 0 => Outcome::NotRun(
            warm.iter()
                .find_map(|(_, o)| match o {
                    Outcome::NotRun(why) => Some(why.clone()),
                    _ => None,
                })
                .unwrap_or_else(|| {
                    "no request check ran on both a fresh and a warm process".into()
                }),
        ),
        None => Outcome::Pass,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed(request: &str, reason: &str) -> Outcome {
        Outcome::Fail(Failure {
            reason: reason.into(),
            request: Some(request.into()),
            reply: Some("r".into()),
        })
    }

    #[test]
    fn a_verdict_that_differs_fails_naming_both_answers() {
        let log = vec![
            Asked {
                request: "REQ".into(),
                before: Vec::new(),
                reply: "FRESH".into(),
                warm: false,
            },
            Asked {
                request: "REQ".into(),
                before: vec![r#"{"jsonrpc":"2.0","id":"w","method":"tools/list"}"#.into()],
                reply: "WARM".into(),
                warm: true,
            },
        ];
        let fresh: Results = vec![
            ("version.unsupported", Outcome::Pass),
            ("meta.missing", Outcome::Pass),
        ];
        let warm: Results = vec![
            (
                "version.unsupported",
                failed("REQ", "expected error -32022, got a result"),
            ),
            ("meta.missing", Outcome::Pass),
        ];
        let Outcome::Fail(f) = judge(&fresh, &warm, &log) else {
            panic!("a differing verdict passed");
        };
        assert_eq!(
            f.reason,
            "version.unsupported passes on a fresh process and fails after a valid tools/list \
             on the same process: the answer depends on earlier requests; there VER-01 fails \
             too: expected error -32022, got a result"
        );
        assert_eq!(
            f.request.as_deref(),
            Some("{\"jsonrpc\":\"2.0\",\"id\":\"w\",\"method\":\"tools/list\"}\nREQ")
        );
        assert_eq!(f.reply.as_deref(), Some("fresh: FRESH\nwarm:  WARM"));
        // The same verdicts, failures included, pass; nothing compared is
        // not a pass.
        let both: Results = vec![("meta.missing", failed("REQ", "x"))];
        assert_eq!(judge(&both, &both, &log), Outcome::Pass);
        let cut: Results = vec![("meta.missing", Outcome::NotRun("deadline".into()))];
        assert!(matches!(judge(&fresh, &cut, &log), Outcome::NotRun(_)));
    }
}
