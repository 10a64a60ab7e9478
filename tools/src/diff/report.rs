//! The report of a `diff` run: as text for people (per class, the row and
//! its rule, the case as a shell line ready to run, both replies) and as
//! JSON for CI. Owns no rule of `docs/behavior.md`; the rows and rules it
//! prints come from the model's registry (`docs/rows.json`).

use serde_json::{Value, json};

use super::{Class, DiffReport};
use crate::check::wire;
use crate::process::shell_quote;

/// The lines as a `printf` that writes them, one per line: `printf '%s\n'
/// 'a' 'b'` when they are printable text, else a format string with octal
/// escapes.
pub(super) fn printf(lines: &[Vec<u8>]) -> String {
    let printable = |l: &Vec<u8>| {
        std::str::from_utf8(l).is_ok_and(|s| !s.chars().any(char::is_control) && !s.is_empty())
    };
    if lines.iter().all(printable) {
        let args: Vec<String> = lines
            .iter()
            .map(|l| quote_always(&String::from_utf8_lossy(l)))
            .collect();
        return format!("printf '%s\\n' {}", args.join(" "));
    }
    let mut format = String::new();
    for line in lines {
        format.push_str(&printf_format(line));
        format.push_str("\\n");
    }
    format!("printf '{format}'")
}

/// `bytes` as the inside of a single-quoted `printf` format string that
/// writes them exactly: `%` doubled, `\` doubled, `'` closed and
/// reopened, visible ASCII as is, every other byte as an octal escape.
pub(super) fn printf_format(bytes: &[u8]) -> String {
    let mut format = String::new();
    for &b in bytes {
        match b {
            b'%' => format.push_str("%%"),
            b'\\' => format.push_str("\\\\"),
            b'\'' => format.push_str("'\\''"),
            0x20..=0x7e => format.push(char::from(b)),
            _ => format.push_str(&format!("\\{b:03o}")),
        }
    }
    format
}

fn quote_always(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The shell line that runs a class's case against the command.
pub(super) fn shell_line(class: &Class, command: &[String]) -> String {
    let cmd: Vec<String> = command.iter().map(|a| shell_quote(a)).collect();
    let env = if class.config.is_some() {
        "MCP_REFERENCE_CONFIG=config.json "
    } else {
        ""
    };
    format!("{} | {env}{}", printf(&class.lines), cmd.join(" "))
}

fn text_lines(lines: &[Vec<u8>]) -> Vec<String> {
    lines.iter().map(|l| wire::show(l, 2000)).collect()
}

impl DiffReport {
    /// What was asked and how many cases ran: the same for the same seed,
    /// cases and command.
    fn summary(&self) -> String {
        let cut = if self.cases_run < self.cases {
            format!(
                " (the time budget cut the search short: {} of {} cases ran)",
                self.cases_run, self.cases
            )
        } else {
            String::new()
        };
        format!(
            "seed {}, {} case(s) generated{cut}",
            self.seed, self.cases_run
        )
    }

    /// How the run went, which timing may change (how many runs, on which
    /// processes, cases that differed once but not on a fresh process, how
    /// long): one line, kept out of [`DiffReport::text`] so that the same
    /// seed gives the same report byte for byte; the command line prints it
    /// on stderr.
    pub fn statistics(&self) -> String {
        let starts: u64 = self.reused_starts.iter().map(|(_, n)| n).sum();
        let why: Vec<String> = self
            .reused_starts
            .iter()
            .map(|(why, n)| format!("{n} {why}"))
            .collect();
        let reused = if !self.reused {
            "; the command could not be reused".to_string()
        } else if starts > 1 {
            format!(
                ", the others on a reused process, started {starts} times: {}",
                why.join(", ")
            )
        } else {
            ", the others on one reused process".to_string()
        };
        let unconfirmed = if self.unconfirmed > 0 {
            format!(
                "; {} case(s) differed once but not again on a fresh process (not reported)",
                self.unconfirmed
            )
        } else {
            String::new()
        };
        let late = if self.late > 0 {
            format!("; {} late repl(ies) dropped", self.late)
        } else {
            String::new()
        };
        let waits = if self.waits.0 + self.waits.1 > 0 {
            format!(
                "; {} late-reply wait(s) run out (the wait {} ms at the end), {} skipped on rows the command is silent on",
                self.waits.0, self.waits.2, self.waits.1
            )
        } else {
            String::new()
        };
        format!(
            "{} run(s) in all ({} on a fresh process{reused}){late}{waits}{unconfirmed}; searching {:.1} s, shrinking and confirming {:.1} s, {:.1} s",
            self.runs,
            self.fresh_runs,
            self.searched.as_secs_f64(),
            self.elapsed.saturating_sub(self.searched).as_secs_f64(),
            self.elapsed.as_secs_f64()
        )
    }

    /// The report as text: the same seed, cases and command give the same
    /// text, byte for byte (see [`DiffReport::statistics`] for the rest).
    pub fn text(&self) -> String {
        let argv = &self.argv;
        let mut out = format!("mcp-reference diff: {}\n{}\n", self.command, self.summary());
        if self.classes.is_empty() {
            out.push_str("no difference found\n");
            return out;
        }
        out.push_str(&format!("{} class(es) of difference\n", self.classes.len()));
        for (n, c) in self.classes.iter().enumerate() {
            out.push_str(&format!(
                "\n{}. row {}: {}\n{}   {} generated case(s); also applied: {}\n   difference: {}\n",
                n + 1,
                c.row,
                c.rule,
                if c.merged.is_empty() {
                    String::new()
                } else {
                    format!(
                        "   the same difference under row(s) {} is counted here\n",
                        c.merged.join(", ")
                    )
                },
                c.count,
                if c.also.is_empty() {
                    "-".to_string()
                } else {
                    c.also.join(", ")
                },
                c.difference
            ));
            if let Some(config) = &c.config {
                out.push_str(&format!(
                    "   configuration (save as config.json): {config}\n"
                ));
            }
            out.push_str(&format!("   run:\n     {}\n", shell_line(c, argv)));
            for (name, lines) in [
                ("input", &c.lines),
                ("reference", &c.reference),
                ("command", &c.command),
            ] {
                out.push_str(&format!("   {name}:\n"));
                if lines.is_empty() {
                    out.push_str("     (none)\n");
                }
                let mark = if name == "input" { '>' } else { '<' };
                for (i, l) in text_lines(lines).iter().enumerate() {
                    out.push_str(&format!("     {}{mark} {l}\n", i + 1));
                }
            }
        }
        out
    }

    /// The report as JSON.
    pub fn json(&self) -> Value {
        let argv = &self.argv;
        let classes: Vec<Value> = self
            .classes
            .iter()
            .map(|c| {
                json!({
                    "row": c.row,
                    "rule": c.rule,
                    "merged": c.merged,
                    "also": c.also,
                    "count": c.count,
                    "shrink_runs": c.shrink_runs,
                    "difference": c.difference,
                    "config": c.config,
                    "shell": shell_line(c, argv),
                    "input": text_lines(&c.lines),
                    "reference": text_lines(&c.reference),
                    "command": text_lines(&c.command),
                })
            })
            .collect();
        json!({
            "command": self.command,
            "seed": self.seed,
            "cases": self.cases,
            "cases_run": self.cases_run,
            "runs": self.runs,
            "fresh_runs": self.fresh_runs,
            "reused": self.reused,
            "reused_starts": self.reused_starts.iter().map(|(why, n)| json!({"why": why, "count": n})).collect::<Vec<_>>(),
            "late": self.late,
            "unconfirmed": self.unconfirmed,
            "elapsed_ms": u64::try_from(self.elapsed.as_millis()).unwrap_or(u64::MAX),
            "differences": !self.classes.is_empty(),
            "classes": classes,
        })
    }
}
