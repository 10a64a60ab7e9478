//! `check --call TOOL[=ARGUMENTS_JSON]` and `--get PROMPT[=ARGUMENTS_JSON]`:
//! the opt-in checks that call a named tool or get a named prompt, as a
//! client would, and judge every server rule the replies make observable.
//! Only the named targets are ever called (a tool may have effects). Each
//! rule is a row of [`CALL_CHECKS`], in the report only when a target is
//! named; a rule no reply showed is never passed: it is skipped when it did
//! not apply (the tool asked for no input, so there is no `requestState`
//! to tamper with; the server sent no progress, which it may), and not run
//! when it applied but could not be tried (no schema, the deadline, a call
//! that got no reply).
//!
//! The modules:
//!
//! | module | owns |
//! | --- | --- |
//! | [`answer`] | the answers to input requests (elicitation, sampling, roots), and which capability each needs |
//! | [`link`] | one request and what came for it, over stdio or HTTP |
//! | `flow` | the calls made for each target, and their verdicts |
//!
//! Spec: 2026-07-28 `basic/patterns/mrtr.mdx` (multi round-trip requests),
//! `basic/patterns/progress.mdx`, `basic/index.mdx#resulttype`,
//! `client/elicitation.mdx`, `client/sampling.mdx`; each check's statement
//! is in [`CALL_CHECKS`] and in `docs/check.md`.

pub mod answer;
mod flow;
pub mod link;

use serde_json::{Map, Value};

use mcp_reference_testkit::schema::Schema;

use super::catalog::{CheckInfo, Level, check};
use super::ctx::Results;
use super::report::Outcome;

use Level::{Must, Should};

/// The checks of `--call` and `--get`, in report order.
pub const CALL_CHECKS: &[CheckInfo] = &[
    check(
        Must,
        "call.result-schema",
        "BASE-02, MRTR-10",
        "basic/index.mdx#messages; basic/patterns/mrtr.mdx#server-requirements-basic-workflow; the official schema.json",
        "every reply to a call validates against the official schema (CallToolResultResponse, GetPromptResultResponse, InputRequiredResult, JSONRPCErrorResponse), and an InputRequiredResult has inputRequests or requestState",
    ),
    check(
        Must,
        "call.result-type",
        "BASE-07",
        "basic/index.mdx#resulttype",
        "every result of a call carries a string resultType, over HTTP also the response that ends an SSE stream",
    ),
    check(
        Must,
        "call.server-requests",
        "MRTR-01",
        "basic/patterns/mrtr.mdx (the note on server-to-client requests)",
        "no request of the server's own (elicitation/create, sampling/createMessage, roots/list with an id) comes with the reply to a call: input is asked for only inside an InputRequiredResult",
    ),
    check(
        Must,
        "call.input-capabilities",
        "MRTR-11, ELICIT-04, SAMPLING-01",
        "basic/patterns/mrtr.mdx#server-requirements-basic-workflow; client/elicitation.mdx#capabilities; client/sampling.mdx#tools-in-sampling",
        "a call declaring no capabilities gets -32021 or no input request; one declaring only form-mode elicitation and plain sampling gets no URL-mode elicitation and no tool-enabled sampling",
    ),
    check(
        Must,
        "call.state-tampered",
        "MRTR-07, MRTR-06, MRTR-17",
        "basic/patterns/mrtr.mdx#server-requirements-basic-workflow; #security-considerations",
        "a retry whose requestState has one character changed (three retries: at a quarter, the half, three quarters of it) is refused (an error, a tool error or a new InputRequiredResult), never completed",
    ),
    check(
        Must,
        "call.state-truncated",
        "MRTR-07, MRTR-17",
        "basic/patterns/mrtr.mdx#server-requirements-basic-workflow; #security-considerations",
        "a retry whose requestState is cut to half its length is refused, never completed",
    ),
    check(
        Should,
        "call.state-foreign-tool",
        "MRTR-08",
        "basic/patterns/mrtr.mdx#server-requirements-basic-workflow",
        "a requestState one named target issued, presented (with its answers) on a call of another named target that issues state, is refused, never completed",
    ),
    check(
        Should,
        "call.state-foreign-arguments",
        "MRTR-08",
        "basic/patterns/mrtr.mdx#server-requirements-basic-workflow",
        "a requestState presented (with its answers) on a call of the same target with other arguments is refused, never completed",
    ),
    check(
        Should,
        "call.decline",
        "ELICIT-02, ELICIT-01",
        "client/elicitation.mdx#error-handling",
        "a retry whose elicitations are declined never gets the result the accepted ones got",
    ),
    check(
        Should,
        "call.cancel",
        "ELICIT-02, ELICIT-01",
        "client/elicitation.mdx#error-handling",
        "a retry whose elicitations are cancelled never gets the result the accepted ones got",
    ),
    check(
        Should,
        "call.retry-unanswered",
        "MRTR-16",
        "basic/patterns/mrtr.mdx#error-handling",
        "a retry with the requestState but without the required inputResponses gets a new InputRequiredResult asking again, not an error",
    ),
    check(
        Should,
        "call.answers-malformed",
        "MRTR-13, MRTR-14",
        "basic/patterns/mrtr.mdx#error-handling",
        "a retry whose every inputResponses value is a number, no InputResponse at all, is refused or asked again, never completed",
    ),
    check(
        Must,
        "call.progress",
        "PROG-05, PROG-03, PROG-09",
        "basic/patterns/progress.mdx#progress-flow; #behavior-requirements; #implementation-notes",
        "progress notifications for a call with a progressToken carry that token, increase, and all come before the response",
    ),
    check(
        Must,
        "call.progress-unasked",
        "PROG-05",
        "basic/patterns/progress.mdx#behavior-requirements",
        "a call without a progressToken gets no progress notification",
    ),
];

/// What a target is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A tool, by `tools/call`.
    Tool,
    /// A prompt, by `prompts/get`.
    Prompt,
}

/// One named target of `--call` or `--get`.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// A tool or a prompt.
    pub kind: Kind,
    /// Its name.
    pub name: String,
    /// The arguments to call it with.
    pub arguments: Map<String, Value>,
}

impl Target {
    /// Parses `NAME[=ARGUMENTS_JSON]`; the arguments, when given, are a
    /// JSON object.
    pub fn parse(kind: Kind, text: &str) -> Result<Target, String> {
        let (name, arguments) = match text.split_once('=') {
            None => (text, Map::new()),
            Some((name, json)) => match serde_json::from_str::<Value>(json) {
                Ok(Value::Object(map)) => (name, map),
                Ok(_) => return Err(format!("the arguments of {name:?} are not a JSON object")),
                Err(e) => return Err(format!("the arguments of {name:?} are not JSON: {e}")),
            },
        };
        if name.is_empty() {
            return Err(format!("{text:?} names no tool or prompt"));
        }
        Ok(Target {
            kind,
            name: name.to_owned(),
            arguments,
        })
    }

    /// `tools/call` or `prompts/get`.
    pub fn method(&self) -> &'static str {
        match self.kind {
            Kind::Tool => "tools/call",
            Kind::Prompt => "prompts/get",
        }
    }

    /// How a report names it.
    pub fn label(&self) -> String {
        match self.kind {
            Kind::Tool => format!("tool {}", self.name),
            Kind::Prompt => format!("prompt {}", self.name),
        }
    }
}

/// Runs the call checks for `targets` over `link`, validating replies with
/// `schema` (or, without one, not running `call.result-schema`).
pub fn run(
    link: &mut dyn link::Link,
    targets: &[Target],
    schema: Result<&Schema, &str>,
) -> Results {
    let mut tally = Tally::default();
    flow::all(link, targets, schema, &mut tally);
    tally.results()
}

/// The outcomes of each check, target by target.
#[derive(Default)]
pub(crate) struct Tally {
    seen: Vec<(&'static str, String, Outcome)>,
}

impl Tally {
    /// Notes `outcome` for check `id` on `target`.
    pub(crate) fn note(&mut self, id: &'static str, target: &Target, outcome: Outcome) {
        self.seen.push((id, target.label(), outcome));
    }

    /// One outcome per check: the first failure (naming its target); else
    /// not run when one target's could not run; else a pass when one
    /// target passed; else skipped, with each target's reason.
    pub(crate) fn results(&self) -> Results {
        CALL_CHECKS
            .iter()
            .map(|c| (c.id, self.outcome(c.id)))
            .collect()
    }

    fn outcome(&self, id: &str) -> Outcome {
        let mine: Vec<&(&str, String, Outcome)> =
            self.seen.iter().filter(|(i, _, _)| *i == id).collect();
        if let Some((_, label, Outcome::Fail(f))) =
            mine.iter().find(|(_, _, o)| matches!(o, Outcome::Fail(_)))
        {
            let mut f = f.clone();
            f.reason = format!("{label}: {}", f.reason);
            return Outcome::Fail(f);
        }
        let joined = |want: fn(&Outcome) -> Option<&String>| {
            let reasons: Vec<String> = mine
                .iter()
                .filter_map(|(_, label, o)| want(o).map(|r| format!("{label}: {r}")))
                .collect();
            (!reasons.is_empty()).then(|| reasons.join("; "))
        };
        if let Some(r) = joined(|o| match o {
            Outcome::NotRun(r) => Some(r),
            _ => None,
        }) {
            return Outcome::NotRun(r);
        }
        if mine.iter().any(|(_, _, o)| matches!(o, Outcome::Pass)) {
            return Outcome::Pass;
        }
        match joined(|o| match o {
            Outcome::Skip(r) => Some(r),
            _ => None,
        }) {
            Some(r) => Outcome::Skip(r),
            None => Outcome::NotRun("no reply to judge it by was seen".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::report::Failure;

    #[test]
    fn targets_parse() {
        let t = Target::parse(Kind::Tool, r#"get_order={"order_id":"A-104"}"#).unwrap();
        assert_eq!(t.name, "get_order");
        assert_eq!(t.arguments.get("order_id"), Some(&Value::from("A-104")));
        assert!(Target::parse(Kind::Tool, "t").unwrap().arguments.is_empty());
        assert!(Target::parse(Kind::Tool, "t=[1]").is_err());
        assert!(Target::parse(Kind::Prompt, "=").is_err());
        assert!(Target::parse(Kind::Prompt, "p={").is_err());
    }

    #[test]
    fn a_failure_wins_and_nothing_unseen_passes() {
        let a = Target::parse(Kind::Tool, "a").unwrap();
        let b = Target::parse(Kind::Tool, "b").unwrap();
        let mut t = Tally::default();
        t.note("call.progress", &a, Outcome::Pass);
        t.note(
            "call.progress",
            &b,
            Outcome::Fail(Failure {
                reason: "bad".into(),
                request: None,
                reply: None,
            }),
        );
        t.note("call.decline", &a, Outcome::Skip("no elicitation".into()));
        t.note("call.cancel", &a, Outcome::Pass);
        t.note("call.cancel", &b, Outcome::NotRun("deadline".into()));
        let r = t.results();
        let get = |id: &str| r.iter().find(|(i, _)| *i == id).map(|(_, o)| o.clone());
        assert!(
            matches!(get("call.progress"), Some(Outcome::Fail(f)) if f.reason == "tool b: bad")
        );
        assert!(matches!(get("call.decline"), Some(Outcome::Skip(_))));
        assert!(matches!(get("call.cancel"), Some(Outcome::NotRun(_))));
        assert!(matches!(
            get("call.state-tampered"),
            Some(Outcome::NotRun(_))
        ));
    }
}
