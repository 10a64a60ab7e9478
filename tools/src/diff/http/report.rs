//! The report of a `diff --http` run: per class, the row and its rule,
//! the minimal request as a runnable `curl` command, and both responses
//! (status, the headers that matter, body); as text for people and as
//! JSON for CI. Owns no rule: rows and rules come from the model's
//! registry (`docs/rows.json`).

use serde_json::{Value, json};

use super::super::report::printf_format;
use super::{Answer, HttpClass, HttpDiffReport};
use crate::check::wire;
use mcp_reference_testkit::model::http::HttpRequest;

/// The headers of a response the report shows: the ones the comparison
/// reads (a server's `date`, say, would make two runs differ).
const SHOWN: [&str; 2] = ["content-type", "allow"];

/// A shell word for `bytes`: single-quoted when they are visible ASCII,
/// else `$'...'` with `\xHH` escapes (bash, zsh and ksh read both).
fn word(bytes: &[u8]) -> String {
    if bytes.iter().all(|b| (0x20..=0x7e).contains(b)) {
        let text = String::from_utf8_lossy(bytes);
        return format!("'{}'", text.replace('\'', r"'\''"));
    }
    let mut out = String::from("$'");
    for &b in bytes {
        match b {
            b'\\' => out.push_str(r"\\"),
            b'\'' => out.push_str(r"\'"),
            0x20..=0x7e => out.push(char::from(b)),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('\'');
    out
}

/// `request` (as sent to `authority`) as a `curl` command that sends the
/// same method, target, header lines and body, and prints the response
/// head and body: curl's own `Accept`, `User-Agent` and (with a body)
/// `Content-Type` are removed where the request has none.
pub fn curl(request: &HttpRequest, authority: &str) -> String {
    let has = |name: &str| {
        request
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    };
    let mut out = String::new();
    if !request.body.is_empty() {
        let mut format = printf_format(&request.body);
        if format.starts_with('-') {
            format.replace_range(..1, "\\055");
        }
        out.push_str(&format!("printf '{format}' | "));
    }
    out.push_str("curl -sS -i --http1.1 --path-as-is -X ");
    out.push_str(&word(request.method.as_bytes()));
    for name in ["Accept", "User-Agent"] {
        if !has(name) {
            out.push_str(&format!(" -H '{name}:'"));
        }
    }
    if !request.body.is_empty() && !has("content-type") {
        out.push_str(" -H 'Content-Type:'");
    }
    for (name, value) in &request.headers {
        // An empty value is written `Name;` (curl's `Name:` removes one).
        let line = if value.is_empty() {
            format!("{name};").into_bytes()
        } else {
            [name.as_bytes(), b": ", value].concat()
        };
        out.push_str(" -H ");
        out.push_str(&word(&line));
    }
    if !request.body.is_empty() {
        out.push_str(" --data-binary @-");
    }
    out.push(' ');
    out.push_str(&word(
        format!("http://{authority}{}", request.target).as_bytes(),
    ));
    out
}

fn request_lines(request: &HttpRequest) -> Vec<String> {
    let mut out = vec![format!("{} {}", request.method, request.target)];
    for (n, v) in &request.headers {
        out.push(format!("{n}: {}", wire::show(v, 200)));
    }
    out.push(String::new());
    if !request.body.is_empty() {
        out.push(wire::show(&request.body, 2000));
    }
    out
}

fn answer_lines(answer: &Answer) -> Vec<String> {
    let mut out = vec![answer.status.to_string()];
    for (n, v) in &answer.headers {
        if SHOWN.contains(&n.as_str()) {
            out.push(format!("{n}: {v}"));
        }
    }
    out.push(String::new());
    if !answer.body.is_empty() {
        out.push(wire::show(&answer.body, 2000));
    }
    out
}

fn command_lines(command: &Result<Answer, String>) -> Vec<String> {
    match command {
        Ok(a) => answer_lines(a),
        Err(e) => vec![format!("(no response: {e})")],
    }
}

impl HttpDiffReport {
    fn authority(&self) -> String {
        crate::http_client::Url::parse(&self.url)
            .map(|u| u.authority)
            .unwrap_or_default()
    }

    /// What was asked and how many requests ran: the same for the same
    /// seed, cases and server.
    fn summary(&self) -> String {
        let cut = if self.cases_run < self.cases {
            format!(
                " (the time budget cut the search short: {} of {} requests ran)",
                self.cases_run, self.cases
            )
        } else {
            String::new()
        };
        format!(
            "seed {}, {} request(s) generated{cut}",
            self.seed, self.cases_run
        )
    }

    /// How many requests were sent and how long it took (kept out of
    /// [`HttpDiffReport::text`], which the same seed gives byte for byte).
    pub fn statistics(&self) -> String {
        format!(
            "{} request(s) sent in all, {:.1} s",
            self.runs,
            self.elapsed.as_secs_f64()
        )
    }

    /// The report as text.
    pub fn text(&self) -> String {
        let authority = self.authority();
        let mut out = format!(
            "mcp-reference diff --http {}\n{}\n",
            self.url,
            self.summary()
        );
        if self.classes.is_empty() {
            out.push_str("no difference found\n");
            return out;
        }
        out.push_str(&format!("{} class(es) of difference\n", self.classes.len()));
        for (n, c) in self.classes.iter().enumerate() {
            out.push_str(&format!(
                "\n{}. row {}, {}: {}\n   {} generated request(s)\n   difference: {}\n   run:\n     {}\n",
                n + 1,
                c.row,
                c.part,
                c.rule,
                c.count,
                c.difference,
                curl(&c.request, &authority)
            ));
            for (name, mark, lines) in [
                ("request", '>', request_lines(&c.request)),
                ("reference", '<', answer_lines(&c.reference)),
                ("server", '<', command_lines(&c.command)),
            ] {
                out.push_str(&format!("   {name}:\n"));
                for l in lines {
                    if l.is_empty() {
                        out.push_str(&format!("     {mark}\n"));
                    } else {
                        out.push_str(&format!("     {mark} {l}\n"));
                    }
                }
            }
        }
        out
    }

    /// The report as JSON.
    pub fn json(&self) -> Value {
        let authority = self.authority();
        let classes: Vec<Value> = self
            .classes
            .iter()
            .map(|c: &HttpClass| {
                json!({
                    "row": c.row,
                    "rule": c.rule,
                    "part": c.part,
                    "count": c.count,
                    "difference": c.difference,
                    "curl": curl(&c.request, &authority),
                    "request": request_lines(&c.request),
                    "reference": answer_lines(&c.reference),
                    "server": command_lines(&c.command),
                })
            })
            .collect();
        json!({
            "url": self.url,
            "seed": self.seed,
            "cases": self.cases,
            "cases_run": self.cases_run,
            "runs": self.runs,
            "elapsed_ms": u64::try_from(self.elapsed.as_millis()).unwrap_or(u64::MAX),
            "differences": !self.classes.is_empty(),
            "classes": classes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_quote_every_byte() {
        assert_eq!(word(b"a b"), "'a b'");
        assert_eq!(word(b"it's"), r"'it'\''s'");
        assert_eq!(word(b"x\x01'\\"), r"$'x\x01\'\\'");
    }

    #[test]
    fn curl_sends_what_the_request_has_and_nothing_of_its_own() {
        let request = HttpRequest {
            method: "POST".into(),
            target: "/mcp?x=1".into(),
            headers: vec![
                ("Host".into(), b"127.0.0.1:9".to_vec()),
                ("Mcp-Name".into(), Vec::new()),
                ("Mcp-Method".into(), b"tools/list".to_vec()),
            ],
            body: b"-1%\n".to_vec(),
        };
        assert_eq!(
            curl(&request, "127.0.0.1:9"),
            "printf '\\0551%%\\012' | curl -sS -i --http1.1 --path-as-is -X 'POST' \
             -H 'Accept:' -H 'User-Agent:' -H 'Content-Type:' -H 'Host: 127.0.0.1:9' \
             -H 'Mcp-Name;' -H 'Mcp-Method: tools/list' --data-binary @- \
             'http://127.0.0.1:9/mcp?x=1'"
        );
    }
}
