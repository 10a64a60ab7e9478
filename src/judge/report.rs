//! The judge's report: the verdict of a session as JSON, in the shape
//! `docs/judge.md` documents ("The report"), and the one-line-per-failure
//! summary for stderr. Its shape is an interface: fields are added, never
//! renamed or removed.
//!
//! - `verdict`: `FAIL` when a MUST rule failed; else `INCOMPLETE` while
//!   the session goes on (the file is rewritten as it goes), or when it
//!   ended without a single request to judge; else `PASS`.
//! - `rules`: every rule of the session's binding, in the order of the
//!   table, each `pass` (exercised, never broken), `fail` (broken at least
//!   once: its evidence, the first messages that broke it, each with its
//!   position among the client's messages), or `not-run` (no message
//!   exercised it, and the reason says what would).

use serde::Serialize;

use super::rules::{Level, RULES, Scope};
use super::{Judge, SHOWN, Transport};

/// The verdict of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// Every MUST that was exercised held, and the session ended.
    #[serde(rename = "PASS")]
    Pass,
    /// A MUST failed.
    #[serde(rename = "FAIL")]
    Fail,
    /// No MUST failed, but the session has not ended or judged nothing.
    #[serde(rename = "INCOMPLETE")]
    Incomplete,
}

/// The status of one rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Exercised, never broken.
    Pass,
    /// Broken at least once.
    Fail,
    /// Never exercised.
    NotRun,
}

/// A message that broke a rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// Its position among the client's messages (1 is the first).
    pub position: u64,
    /// The message as sent, cut to [`SHOWN`] bytes (`null` for a session
    /// end).
    pub message: Option<String>,
    /// What about it broke the rule.
    pub detail: String,
}

impl Evidence {
    pub(super) fn new(position: u64, raw: Option<&[u8]>, detail: String) -> Evidence {
        let message = raw.map(|raw| {
            let cut = raw.get(..SHOWN).unwrap_or(raw);
            let mut text = String::from_utf8_lossy(cut).into_owned();
            if cut.len() < raw.len() {
                text.push_str("...");
            }
            text
        });
        Evidence {
            position,
            message,
            detail,
        }
    }
}

/// One rule's line of the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleReport {
    /// The rule's id.
    pub id: &'static str,
    /// `must` or `should`.
    pub level: &'static str,
    /// Pass, fail or not run.
    pub status: Status,
    /// Its statement's id in `docs/spec-coverage.md`.
    pub statement: &'static str,
    /// The spec page (relative to `docs/specification/2026-07-28/`).
    pub section: &'static str,
    /// Why it has its status.
    pub reason: String,
    /// How many messages exercised it, and how many broke it.
    pub exercised: u64,
    /// How many messages broke it.
    pub failures: u64,
    /// The first messages that broke it.
    pub evidence: Vec<Evidence>,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The verdict.
    pub verdict: Verdict,
    /// `clientInfo` as the client first sent it (`null`: never).
    pub client: Option<serde_json::Value>,
    /// `stdio` or `http`.
    pub binding: &'static str,
    /// The provocations the server was started with.
    pub provocations: Vec<String>,
    /// How the session ended (`null`: it has not).
    pub ended: Option<&'static str>,
    /// How many messages the client sent.
    pub messages: u64,
    /// How many of them were requests.
    pub requests: u64,
    /// Every rule of the binding.
    pub rules: Vec<RuleReport>,
}

impl Report {
    /// The report as pretty-printed JSON, with a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// One line per failing rule, for stderr: `FAIL must mrtr.new-id
    /// (CLI-14): <reason>`, then the verdict.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        for rule in self.rules.iter().filter(|r| r.status == Status::Fail) {
            out.push_str(&format!(
                "mcp-reference judge: FAIL {} {} ({}, {}): {}\n",
                rule.level, rule.id, rule.statement, rule.section, rule.reason
            ));
        }
        let count = |s: Status| self.rules.iter().filter(|r| r.status == s).count();
        out.push_str(&format!(
            "mcp-reference judge: verdict {} ({} passed, {} failed, {} not run; {} messages)\n",
            match self.verdict {
                Verdict::Pass => "PASS",
                Verdict::Fail => "FAIL",
                Verdict::Incomplete => "INCOMPLETE",
            },
            count(Status::Pass),
            count(Status::Fail),
            count(Status::NotRun),
            self.messages
        ));
        out
    }
}

pub(super) fn build(judge: &Judge) -> Report {
    let mut rules = Vec::new();
    let mut must_failed = false;
    for (rule, tally) in RULES.iter().zip(&judge.tallies) {
        let applies = match rule.scope {
            Scope::Both => true,
            Scope::Stdio => judge.transport == Transport::Stdio,
            Scope::Http => judge.transport == Transport::Http,
        };
        if !applies {
            continue;
        }
        let (status, reason) = if tally.failures > 0 {
            if rule.level == Level::Must {
                must_failed = true;
            }
            let first = tally
                .evidence
                .first()
                .map_or_else(String::new, |e| e.detail.clone());
            (
                Status::Fail,
                format!(
                    "{first} (broken by {} of the {} messages that exercised it)",
                    tally.failures, tally.exercised
                ),
            )
        } else if tally.exercised > 0 {
            // The shutdown rule is held by the session's end, not by a
            // message.
            let reason = match tally.exercised {
                _ if rule.id == "stdio.close-first" => {
                    "the session ended with stdin closed".to_owned()
                }
                1 => "held in the one message that exercised it".to_owned(),
                n => format!("held in all {n} messages that exercised it"),
            };
            (Status::Pass, reason)
        } else {
            (Status::NotRun, format!("not run: {}", rule.needs))
        };
        rules.push(RuleReport {
            id: rule.id,
            level: rule.level.name(),
            status,
            statement: rule.statement,
            section: rule.section,
            reason,
            exercised: tally.exercised,
            failures: tally.failures,
            evidence: tally.evidence.clone(),
        });
    }
    let verdict = if must_failed {
        Verdict::Fail
    } else if judge.ended.is_none() || judge.requests == 0 {
        Verdict::Incomplete
    } else {
        Verdict::Pass
    };
    Report {
        verdict,
        client: judge.client.clone(),
        binding: match judge.transport {
            Transport::Stdio => "stdio",
            Transport::Http => "http",
        },
        provocations: judge.provocations.clone(),
        ended: judge.ended.map(super::Ending::name),
        messages: judge.position,
        requests: judge.requests,
        rules,
    }
}
