//! The report of one `check` run: each check's outcome, the verdict, and
//! the two ways to print it (a table for people, JSON for machines).
//!
//! The verdict:
//!
//! | verdict | when | exit code |
//! | --- | --- | --- |
//! | PASS | every MUST check ran and passed (or does not apply) | 0 |
//! | FAIL | a MUST check failed | 1 |
//! | INCOMPLETE | no MUST check failed, but one could not run (no schema, the run's deadline, a silent server); its line says how to fix that | 3 |
//!
//! (Exit code 2: the server could not be run at all; no report.) Skipped
//! checks (a rule that does not apply, such as tool checks against a server
//! without the `tools` capability) count for nothing; the report says why
//! each was skipped.

use serde_json::{Value, json};

use super::catalog::{CheckInfo, Level};

/// What became of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The server follows the rule.
    Pass,
    /// It does not.
    Fail(Failure),
    /// The rule does not apply here; the reason says why.
    Skip(String),
    /// The rule applies but could not be tried (no schema, the run's
    /// deadline); the reason says why and how to fix it.
    NotRun(String),
}

/// What a whole run comes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Every MUST check ran and passed (or does not apply).
    Pass,
    /// A MUST check failed.
    Fail,
    /// No MUST check failed, but one could not run.
    Incomplete,
}

impl Verdict {
    /// `pass`, `fail` or `incomplete`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Incomplete => "incomplete",
        }
    }

    /// The documented exit code: 0, 1 or 3.
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Pass => 0,
            Verdict::Fail => 1,
            Verdict::Incomplete => 3,
        }
    }

    /// The report's last line.
    pub fn line(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS (every MUST check ran and passed)",
            Verdict::Fail => "FAIL (a MUST check failed)",
            Verdict::Incomplete => {
                "INCOMPLETE (no MUST check failed, but one could not run: see its line)"
            }
        }
    }
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
    /// `pass`, `fail`, `skip` or `notrun`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail(_) => "fail",
            Outcome::Skip(_) => "skip",
            Outcome::NotRun(_) => "notrun",
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

    /// The ids of the checks that could not run, in report order.
    pub fn not_run(&self) -> Vec<&'static str> {
        self.entries
            .iter()
            .filter(|e| matches!(e.outcome, Outcome::NotRun(_)))
            .map(|e| e.check.id)
            .collect()
    }

    /// The verdict (see the module documentation).
    pub fn verdict(&self) -> Verdict {
        let must = |e: &&Entry| e.check.level == Level::Must;
        if self
            .entries
            .iter()
            .filter(must)
            .any(|e| matches!(e.outcome, Outcome::Fail(_)))
        {
            Verdict::Fail
        } else if self
            .entries
            .iter()
            .filter(must)
            .any(|e| matches!(e.outcome, Outcome::NotRun(_)))
        {
            Verdict::Incomplete
        } else {
            Verdict::Pass
        }
    }

    /// Whether the verdict is PASS.
    pub fn passed(&self) -> bool {
        self.verdict() == Verdict::Pass
    }

    /// (passed, failed, of which MUST, skipped, not run).
    fn counts(&self) -> (usize, usize, usize, usize, usize) {
        let mut n = (0, 0, 0, 0, 0);
        for e in &self.entries {
            match e.outcome {
                Outcome::Pass => n.0 += 1,
                Outcome::Fail(_) if e.check.level == Level::Must => {
                    n.1 += 1;
                    n.2 += 1
                }
                Outcome::Fail(_) => n.1 += 1,
                Outcome::Skip(_) => n.3 += 1,
                Outcome::NotRun(_) => n.4 += 1,
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
            "{:<6} {:<8} {:<width$}  {}\n",
            "RESULT", "LEVEL", "CHECK", "RULE"
        ));
        for e in &self.entries {
            out.push_str(&format!(
                "{:<6} {:<8} {:<width$}  {}\n",
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
                "{} {} ({} by {}; {})\n",
                e.outcome.as_str(),
                e.check.id,
                e.check.level.as_str(),
                e.check.source,
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
                Outcome::Skip(reason) | Outcome::NotRun(reason) => {
                    out.push_str(&format!("  why:     {}\n", indent(reason)))
                }
                Outcome::Pass => {}
            }
        }
        let (passed, failed, must_failed, skipped, not_run) = self.counts();
        out.push_str(&format!(
            "\n{passed} passed, {failed} failed ({must_failed} MUST), {skipped} skipped, \
             {not_run} not run; {} server process(es), {} bytes on stderr.\nverdict: {}\n",
            self.processes,
            self.stderr_bytes,
            self.verdict().line()
        ));
        for (level, ran, ok) in self.per_level() {
            out.push_str(&format!("{level} {ok}/{ran}\n"));
        }
        out
    }

    /// Per level (`must`, `should`, `textbook`): the checks that ran
    /// there (passed or failed) and those that passed.
    pub fn per_level(&self) -> Vec<(&'static str, usize, usize)> {
        [
            (Level::Must, "must"),
            (Level::Should, "should"),
            (Level::Textbook, "textbook"),
        ]
        .into_iter()
        .map(|(level, name)| {
            let ran: Vec<&Entry> = self
                .entries
                .iter()
                .filter(|e| e.check.level == level)
                .filter(|e| matches!(e.outcome, Outcome::Pass | Outcome::Fail(_)))
                .collect();
            let ok = ran.iter().filter(|e| e.outcome == Outcome::Pass).count();
            (name, ran.len(), ok)
        })
        .collect()
    }

    /// The report as JSON.
    pub fn json(&self) -> Value {
        let (passed, failed, must_failed, skipped, not_run) = self.counts();
        let checks: Vec<Value> = self
            .entries
            .iter()
            .map(|e| {
                let mut v = json!({
                    "id": e.check.id,
                    "level": e.check.level.as_str(),
                    "source": e.check.source,
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
                    Outcome::Skip(reason) | Outcome::NotRun(reason) => {
                        v["reason"] = reason.clone().into()
                    }
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
                "notRun": not_run,
                "processes": self.processes,
                "stderrBytes": self.stderr_bytes,
            },
            "verdict": self.verdict().as_str(),
        })
    }
}
