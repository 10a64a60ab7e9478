//! The report of one `check` run: each check's outcome, the verdict, and
//! the two ways to print it (a table for people, JSON for machines).
//!
//! The verdict passes when no MUST check failed. Skipped checks (a rule
//! that does not apply, such as tool checks against a server without the
//! `tools` capability) do not fail it; the report says why each was
//! skipped.

use serde_json::{Value, json};

use super::catalog::{CheckInfo, Level};

/// What became of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The server follows the rule.
    Pass,
    /// It does not.
    Fail(Failure),
    /// The rule could not be tried; the reason says why.
    Skip(String),
}

/// A failed check: why, and the exchange that shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// One sentence.
    pub reason: String,
    /// The line sent (as shown: long lines are cut), if one shows the fault.
    pub request: Option<String>,
    /// The line received, if any.
    pub reply: Option<String>,
}

impl Outcome {
    /// `pass`, `fail` or `skip`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail(_) => "fail",
            Outcome::Skip(_) => "skip",
        }
    }
}

/// One check and its outcome.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The check.
    pub check: CheckInfo,
    /// What happened.
    pub outcome: Outcome,
}

/// Continuation lines aligned under the first.
fn indent(text: &str) -> String {
    text.replace('\n', "\n           ")
}

/// The whole run.
#[derive(Debug, Clone)]
pub struct Report {
    /// The command that was checked.
    pub command: String,
    /// The per-reply timeout, in milliseconds.
    pub timeout_ms: u64,
    /// Every check, in catalog order.
    pub entries: Vec<Entry>,
    /// How many server processes were started.
    pub processes: usize,
    /// How many bytes the server wrote on stderr, over all processes.
    pub stderr_bytes: u64,
}

impl Report {
    /// The outcome of the check with this id.
    pub fn outcome(&self, id: &str) -> Option<&Outcome> {
        self.entries
            .iter()
            .find(|e| e.check.id == id)
            .map(|e| &e.outcome)
    }

    /// The ids of the failed checks, in report order.
    pub fn failed(&self) -> Vec<&'static str> {
        self.entries
            .iter()
            .filter(|e| matches!(e.outcome, Outcome::Fail(_)))
            .map(|e| e.check.id)
            .collect()
    }

    /// The ids of the skipped checks, in report order.
    pub fn skipped(&self) -> Vec<&'static str> {
        self.entries
            .iter()
            .filter(|e| matches!(e.outcome, Outcome::Skip(_)))
            .map(|e| e.check.id)
            .collect()
    }

    /// Whether every MUST check passed or was skipped.
    pub fn passed(&self) -> bool {
        !self
            .entries
            .iter()
            .any(|e| e.check.level == Level::Must && matches!(e.outcome, Outcome::Fail(_)))
    }

    fn counts(&self) -> (usize, usize, usize, usize) {
        let mut n = (0, 0, 0, 0);
        for e in &self.entries {
            match e.outcome {
                Outcome::Pass => n.0 += 1,
                Outcome::Fail(_) if e.check.level == Level::Must => {
                    n.1 += 1;
                    n.2 += 1
                }
                Outcome::Fail(_) => n.1 += 1,
                Outcome::Skip(_) => n.3 += 1,
            }
        }
        n
    }

    /// The report as a table, with the details of each failure and skip.
    pub fn table(&self) -> String {
        let mut out = format!("mcp-reference check: {}\n\n", self.command);
        let width = self
            .entries
            .iter()
            .map(|e| e.check.id.len())
            .max()
            .unwrap_or(0);
        out.push_str(&format!(
            "{:<6} {:<6} {:<width$}  {}\n",
            "RESULT", "LEVEL", "CHECK", "RULE"
        ));
        for e in &self.entries {
            out.push_str(&format!(
                "{:<6} {:<6} {:<width$}  {}\n",
                e.outcome.as_str(),
                e.check.level.as_str(),
                e.check.id,
                e.check.description
            ));
        }
        let details: Vec<&Entry> = self
            .entries
            .iter()
            .filter(|e| e.outcome != Outcome::Pass)
            .collect();
        if !details.is_empty() {
            out.push('\n');
        }
        for e in details {
            out.push_str(&format!(
                "{} {} ({}; {})\n",
                e.outcome.as_str(),
                e.check.id,
                e.check.level.as_str(),
                e.check.section
            ));
            match &e.outcome {
                Outcome::Fail(f) => {
                    out.push_str(&format!("  why:     {}\n", indent(&f.reason)));
                    if let Some(request) = &f.request {
                        out.push_str(&format!("  sent:    {}\n", indent(request)));
                    }
                    if let Some(reply) = &f.reply {
                        out.push_str(&format!("  got:     {}\n", indent(reply)));
                    }
                }
                Outcome::Skip(reason) => out.push_str(&format!("  why:     {}\n", indent(reason))),
                Outcome::Pass => {}
            }
        }
        let (passed, failed, must_failed, skipped) = self.counts();
        out.push_str(&format!(
            "\n{passed} passed, {failed} failed ({must_failed} MUST), {skipped} skipped; \
             {} server process(es), {} bytes on stderr.\nverdict: {}\n",
            self.processes,
            self.stderr_bytes,
            if self.passed() {
                "PASS (every MUST check passed)"
            } else {
                "FAIL (a MUST check failed)"
            }
        ));
        out
    }

    /// The report as JSON.
    pub fn json(&self) -> Value {
        let (passed, failed, must_failed, skipped) = self.counts();
        let checks: Vec<Value> = self
            .entries
            .iter()
            .map(|e| {
                let mut v = json!({
                    "id": e.check.id,
                    "level": e.check.level.as_str(),
                    "section": e.check.section,
                    "description": e.check.description,
                    "result": e.outcome.as_str(),
                });
                match &e.outcome {
                    Outcome::Fail(f) => {
                        v["reason"] = f.reason.clone().into();
                        if let Some(r) = &f.request {
                            v["request"] = r.clone().into();
                        }
                        if let Some(r) = &f.reply {
                            v["reply"] = r.clone().into();
                        }
                    }
                    Outcome::Skip(reason) => v["reason"] = reason.clone().into(),
                    Outcome::Pass => {}
                }
                v
            })
            .collect();
        json!({
            "command": self.command,
            "protocolVersion": super::wire::VERSION,
            "timeoutMs": self.timeout_ms,
            "checks": checks,
            "summary": {
                "passed": passed,
                "failed": failed,
                "mustFailed": must_failed,
                "skipped": skipped,
                "processes": self.processes,
                "stderrBytes": self.stderr_bytes,
            },
            "verdict": if self.passed() { "pass" } else { "fail" },
        })
    }
}
