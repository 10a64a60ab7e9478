//! `mcp-reference diff --http URL`: differential testing of another
//! Streamable HTTP server of book-orders against the reference's HTTP
//! binding, one generated request at a time, every kind of difference
//! shrunk to a small request and printed as a runnable `curl` command.
//!
//! Each case is one HTTP request from
//! [`mcp_reference_testkit::strategy::http::http_request`]: a body from the
//! stdio generators (or a `get_order` call), the headers a conforming
//! client sends, and at most one break (a mirrored header dropped,
//! repeated, changed or mis-encoded, the origin, host, content type,
//! length, method or path changed, session headers added). A case is one
//! request because the binding is stateless (rows H1 to H17 of
//! `docs/behavior.md`; `basic/transports/streamable-http.mdx`): each POST
//! stands alone, on a connection of its own. What the server under test
//! answers is held against what the reference's binding
//! ([`mcp_reference::http::Binding`], with the configuration given, bound
//! where the URL says) answers to the same request, in process.
//!
//! The comparison, in order: a response at all; the status; `Allow` on a
//! 405 (its methods as a set); a body or none; then the body, by `diff`'s
//! equivalence ([`super::compare`]), where a reply sent as
//! `text/event-stream` counts as its JSON-RPC response (a client MUST read
//! both, and which one to send is the server's choice, DEC28): the
//! notifications a stream carries before the response (rows T12, T13, H18)
//! are not compared over HTTP, since a server MAY send them and a reply
//! as `application/json` drops them; stdio `diff` compares them. A difference is classed by the row the model
//! ([`mcp_reference_testkit::model::http::expect_http`]) says decided the
//! reference's response, and the part that differs; for a body the core
//! answered (H15, H17), the stdio row that decided the body. Shrinking
//! (headers dropped, then the body emptied or else shrunk by the stdio
//! shrinker, then headers again) keeps both the row and the part. Requests are sent one at a time
//! and generation is seeded from the seed alone, so the same seed, case
//! count and server give the same report, byte for byte.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use mcp_reference::http::{Binding, Bound};
use mcp_reference::{Config, Server};
use mcp_reference_testkit::http::as_request;
use mcp_reference_testkit::model::http::{HttpRequest, Listen, expect_http};
use mcp_reference_testkit::model::rows;
use mcp_reference_testkit::strategy::http::http_request;
use proptest::strategy::{Strategy, ValueTree};

use super::{RunError, SHRINK_TOTAL, compare, part, shrink};
use crate::http_client::{self, Url};

mod report;

pub use report::curl;

/// What to compare, and how.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// The server's endpoint, `http://host:port/path`.
    pub url: String,
    /// How many requests to generate.
    pub cases: u32,
    /// The generator's seed.
    pub seed: u64,
    /// How long one exchange may take.
    pub timeout: Duration,
    /// How many requests shrinking one class may send (0: report each
    /// class's first request as found).
    pub shrink_iters: u32,
    /// The configuration the server serves (`None`: the textbook's, with
    /// the URL's path as its endpoint).
    pub config: Option<Config>,
    /// Stop generating after this long (shrinking still runs).
    pub time_budget: Option<Duration>,
}

impl HttpOptions {
    /// Defaults: 256 requests, seed 0, 5 s per exchange, up to 500
    /// shrinking requests per class, the textbook configuration.
    pub fn new(url: &str) -> HttpOptions {
        HttpOptions {
            url: url.to_owned(),
            cases: 256,
            seed: 0,
            timeout: Duration::from_secs(5),
            shrink_iters: 500,
            config: None,
            time_budget: None,
        }
    }
}

/// One response, as compared: the status, `Allow`, the media type and the
/// body (for `text/event-stream`, its JSON-RPC response).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The header lines that were sent, names lowercase.
    pub headers: Vec<(String, String)>,
    /// The body as sent.
    pub body: Vec<u8>,
}

/// One class of difference, with its smallest request found.
#[derive(Debug, Clone)]
pub struct HttpClass {
    /// The row of `docs/behavior.md` that decided the reference's response
    /// (or, for a body the core answered, its body).
    pub row: String,
    /// That row's rule, level and source (`docs/rows.json`).
    pub rule: String,
    /// The part that differs: `no response`, `status`, `allow`, `body`,
    /// `content-type`, or a JSON path of the body (`/error`, `/result`).
    pub part: String,
    /// How many generated requests fell into this class.
    pub count: u64,
    /// The difference on the minimal request, in one sentence.
    pub difference: String,
    /// The minimal request, as sent.
    pub request: HttpRequest,
    /// The reference binding's response to it.
    pub reference: Answer,
    /// The server's response to it, or why there was none.
    pub command: Result<Answer, String>,
}

/// The result of a run.
#[derive(Debug, Clone)]
pub struct HttpDiffReport {
    /// The URL compared.
    pub url: String,
    /// The seed.
    pub seed: u64,
    /// How many requests were asked for.
    pub cases: u32,
    /// How many generated requests were sent.
    pub cases_run: u32,
    /// How many requests were sent in all, shrinking included.
    pub runs: u64,
    /// The classes of difference, in the order they were first found.
    pub classes: Vec<HttpClass>,
    /// How long the run took.
    pub elapsed: Duration,
}

/// The server under test and the reference, side by side.
struct Side {
    url: Url,
    listen: Listen,
    config: Config,
    binding: Binding,
    timeout: Duration,
    runs: u64,
    memo: HashMap<Key, Outcome>,
}

/// A difference: its class key and sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Found {
    row: &'static str,
    part: String,
    sentence: String,
}

type Outcome = (Answer, Result<Answer, String>, Option<Found>);

/// A request as memo key: method, target, header lines, body.
type Key = (String, String, Vec<(String, Vec<u8>)>, Vec<u8>);

impl Side {
    /// The request as it goes on the wire: `Host` and `Content-Length`
    /// added when missing, as the client adds them.
    fn finish(&self, request: &HttpRequest) -> HttpRequest {
        let mut r = request.clone();
        let has = |r: &HttpRequest, name: &str| {
            r.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(name))
        };
        if !has(&r, "host") {
            r.headers
                .insert(0, ("Host".into(), self.url.authority.clone().into_bytes()));
        }
        if !has(&r, "content-length") && (!r.body.is_empty() || r.method == "POST") {
            let n = r.body.len().to_string().into_bytes();
            r.headers.push(("Content-Length".into(), n));
        }
        r
    }

    /// The reference's answer to `request` (finished).
    fn reference(&self, request: &HttpRequest) -> Answer {
        let headers: Vec<(&str, &[u8])> = request
            .headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_slice()))
            .collect();
        let response = self.binding.respond(&as_request(request, &headers));
        let mut sent: Vec<(String, String)> = response
            .headers
            .iter()
            .map(|(n, v)| (n.to_ascii_lowercase(), (*v).to_owned()))
            .collect();
        if !response.body.is_empty() {
            sent.push(("content-length".into(), response.body.len().to_string()));
        }
        Answer {
            status: response.status,
            headers: sent,
            body: response.body,
        }
    }

    /// Sends `request` (finished) to the server and to the reference.
    fn run(&mut self, request: &HttpRequest) -> Outcome {
        let key = (
            request.method.clone(),
            request.target.clone(),
            request.headers.clone(),
            request.body.clone(),
        );
        if let Some(o) = self.memo.get(&key) {
            return o.clone();
        }
        self.runs += 1;
        let reference = self.reference(request);
        let wire = http_client::Request {
            method: request.method.clone(),
            target: request.target.clone(),
            headers: request.headers.clone(),
            body: request.body.clone(),
        };
        let command = http_client::send(&self.url, &wire, self.timeout).map(|r| Answer {
            status: r.status,
            headers: r.headers,
            body: r.body,
        });
        let found = self.difference(request, &reference, &command);
        let outcome = (reference, command, found);
        self.memo.insert(key, outcome.clone());
        outcome
    }

    fn difference(
        &self,
        request: &HttpRequest,
        reference: &Answer,
        command: &Result<Answer, String>,
    ) -> Option<Found> {
        let expect = expect_http(&self.config, self.listen, request);
        let (part, sentence) = differ(reference, command)?;
        let body_row = match (&expect.body, expect.row) {
            (Some(body), "H15" | "H17") if part.starts_with('/') => Some(body.row),
            _ => None,
        };
        Some(Found {
            row: body_row.unwrap_or(expect.row),
            part,
            sentence,
        })
    }
}

fn header<'a>(answer: &'a Answer, name: &str) -> Option<&'a str> {
    answer
        .headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn media_type(answer: &Answer) -> String {
    header(answer, "content-type")
        .and_then(|v| v.split(';').next())
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// The methods an `Allow` value lists, as a sorted set.
fn methods(value: Option<&str>) -> Option<Vec<String>> {
    let mut list: Vec<String> = value?
        .split(',')
        .map(|m| m.trim().to_owned())
        .filter(|m| !m.is_empty())
        .collect();
    list.sort();
    list.dedup();
    Some(list)
}

/// The JSON-RPC reply a body carries, as sent: the body of
/// `application/json`, the `data` of the last event of `text/event-stream`
/// that is a response (its bytes, so that an id is compared digit for
/// digit).
fn reply_bytes(answer: &Answer) -> Option<Vec<u8>> {
    match media_type(answer).as_str() {
        "application/json" => Some(answer.body.clone()),
        "text/event-stream" => {
            let text = String::from_utf8_lossy(&answer.body).replace("\r\n", "\n");
            text.split("\n\n")
                .map(|event| {
                    let data: Vec<&str> = event
                        .lines()
                        .filter_map(|l| l.strip_prefix("data:"))
                        .map(|d| d.strip_prefix(' ').unwrap_or(d))
                        .collect();
                    data.join("\n").into_bytes()
                })
                .filter(|data| match compare::normalize(data) {
                    compare::Normal::Json(v) => {
                        v.get("result").is_some() || v.get("error").is_some()
                    }
                    compare::Normal::Bytes(_) => false,
                })
                .last()
        }
        _ => None,
    }
}

/// The first part where the two answers differ, and a sentence saying how.
fn differ(reference: &Answer, command: &Result<Answer, String>) -> Option<(String, String)> {
    let command = match command {
        Ok(c) => c,
        Err(e) => return Some(("no response".into(), format!("no response: {e}"))),
    };
    if command.status != reference.status {
        return Some((
            "status".into(),
            format!(
                "status {}, where the reference answers {}",
                command.status, reference.status
            ),
        ));
    }
    let (want, got) = (
        methods(header(reference, "allow")),
        methods(header(command, "allow")),
    );
    if want.is_some() && want != got {
        return Some((
            "allow".into(),
            format!(
                "Allow {:?}, where the reference sends {:?}",
                header(command, "allow"),
                header(reference, "allow")
            ),
        ));
    }
    match (reference.body.is_empty(), command.body.is_empty()) {
        (true, true) => return None,
        (true, false) => {
            return Some((
                "body".into(),
                format!(
                    "a body of {} bytes, where the reference sends none",
                    command.body.len()
                ),
            ));
        }
        (false, true) => {
            return Some((
                "body".into(),
                "no body, where the reference sends a JSON-RPC message".into(),
            ));
        }
        (false, false) => {}
    }
    let Some(got) = reply_bytes(command) else {
        return Some((
            "content-type".into(),
            format!(
                "Content-Type {:?} carries no JSON-RPC response, where the reference sends application/json",
                header(command, "content-type")
            ),
        ));
    };
    // The reference's own stream (H18) counts as its response too.
    let want = reply_bytes(reference).unwrap_or_else(|| reference.body.clone());
    let (_, d) = compare::first_difference_at(&[want], &[got])?;
    let sentence = d
        .sentence
        .strip_prefix("reply 1: ")
        .unwrap_or(&d.sentence)
        .to_owned();
    Some((part(&d.kind), format!("body: {sentence}")))
}

/// The request with the generators' port 8080 (in `Origin`, say) written
/// as the server's; `None` when it is not valid HTTP/1.1 on the wire (a
/// header name that is not a token, a value with a control character or
/// surrounding whitespace): what a server answers to those is its HTTP
/// parser's, not its binding's (the reference's hyper refuses them with an
/// empty 400 before the binding sees them), so they are not sent.
fn on_wire(request: &HttpRequest, port: u16) -> Option<HttpRequest> {
    let mut r = request.clone();
    for (name, value) in &mut r.headers {
        let token = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
        if name.is_empty() || !name.bytes().all(token) {
            return None;
        }
        let text = String::from_utf8(value.clone()).ok()?;
        if text.bytes().any(|b| b < 0x20 || b == 0x7f) || text.trim() != text {
            return None;
        }
        *value = text.replace(":8080", &format!(":{port}")).into_bytes();
    }
    Some(r)
}

/// Whether the URL's host is a loopback name.
fn loopback(url: &Url) -> bool {
    let host = url
        .authority
        .rsplit_once(':')
        .map_or(url.authority.as_str(), |(h, _)| h);
    host == "localhost" || host == "[::1]" || host.starts_with("127.")
}

/// The textbook configuration, with the URL's path as its endpoint.
fn textbook_at(url: &Url) -> Config {
    let http = mcp_reference::HttpSettings {
        endpoint: url.path.clone(),
        ..Default::default()
    };
    Config::default().with_http(http).unwrap_or_default()
}

/// Runs the comparison.
pub fn run_http(options: &HttpOptions) -> Result<HttpDiffReport, RunError> {
    let started = Instant::now();
    let url = Url::parse(&options.url).map_err(RunError)?;
    let port = url
        .authority
        .rsplit_once(':')
        .and_then(|(_, p)| p.parse::<u16>().ok())
        .ok_or_else(|| RunError(format!("{} names no port", options.url)))?;
    let listen = Listen {
        port,
        loopback: loopback(&url),
    };
    let config = options.config.clone().unwrap_or_else(|| textbook_at(&url));
    let binding = Binding::new(
        Server::new(config.clone()),
        Bound {
            port,
            loopback: listen.loopback,
        },
    );
    let mut side = Side {
        url,
        listen,
        config,
        binding,
        timeout: options.timeout,
        runs: 0,
        memo: HashMap::new(),
    };
    let (cases_run, classes) = search(&mut side, options, started)?;
    Ok(HttpDiffReport {
        url: options.url.clone(),
        seed: options.seed,
        cases: options.cases,
        cases_run,
        runs: side.runs,
        classes,
        elapsed: started.elapsed(),
    })
}

/// A class while searching: its first request and how many fell in it.
struct Seen {
    key: (&'static str, String),
    request: HttpRequest,
    count: u64,
}

fn search(
    side: &mut Side,
    options: &HttpOptions,
    started: Instant,
) -> Result<(u32, Vec<HttpClass>), RunError> {
    let mut runner = super::seeded_runner(options.seed);
    let strategy = http_request(&side.config, side.listen);
    let mut seen: Vec<Seen> = Vec::new();
    let mut cases_run = 0;
    for _ in 0..options.cases {
        if options.time_budget.is_some_and(|b| started.elapsed() >= b) {
            break;
        }
        // Drawn until one is valid HTTP/1.1 on the wire.
        let mut drawn = None;
        while drawn.is_none() {
            let request = strategy
                .new_tree(&mut runner)
                .map_err(|e| RunError(format!("cannot generate a request: {e}")))?
                .current();
            drawn = on_wire(&request, side.listen.port);
        }
        let Some(request) = drawn else { break };
        let request = side.finish(&request);
        let (_, command, found) = side.run(&request);
        if cases_run == 0
            && let Err(e) = &command
        {
            return Err(RunError(format!(
                "the server at {} did not answer: {e}",
                options.url
            )));
        }
        cases_run += 1;
        let Some(found) = found else { continue };
        let key = (found.row, found.part);
        match seen.iter_mut().find(|s| s.key == key) {
            Some(s) => s.count += 1,
            None => seen.push(Seen {
                key,
                request,
                count: 1,
            }),
        }
    }
    let mut left = options.shrink_iters.saturating_mul(SHRINK_TOTAL);
    let mut classes: Vec<HttpClass> = Vec::new();
    for s in seen {
        let budget = options.shrink_iters.min(left);
        let mut spent = 0;
        let request = shrink_request(side, &s.key, s.request, budget, &mut spent);
        left = left.saturating_sub(spent);
        let (reference, command, found) = side.run(&request);
        let difference = found.map(|f| f.sentence).unwrap_or_default();
        let (row, part) = s.key;
        let rule = rows::row(row).map_or_else(
            || "a decision of docs/behavior.md (its Decisions table)".to_owned(),
            |r| format!("{} ({}, {})", r.rule, r.level, r.source),
        );
        classes.push(HttpClass {
            row: row.to_owned(),
            rule,
            part,
            count: s.count,
            difference,
            request,
            reference,
            command,
        });
    }
    Ok((cases_run, classes))
}

/// Shrinks `request` while it shows the difference of class `key`, within
/// `budget` requests: headers dropped one at a time, the body emptied or
/// else shrunk by the stdio shrinker (the configuration held), then
/// headers again.
fn shrink_request(
    side: &mut Side,
    key: &(&'static str, String),
    request: HttpRequest,
    budget: u32,
    spent: &mut u32,
) -> HttpRequest {
    let shows = |side: &mut Side, candidate: &HttpRequest, spent: &mut u32| -> bool {
        if *spent >= budget {
            return false;
        }
        *spent += 1;
        let (_, _, found) = side.run(candidate);
        found.is_some_and(|f| (f.row, f.part.as_str()) == (key.0, key.1.as_str()))
    };
    let mut request = request;
    for pass in 0..2 {
        let mut i = 0;
        while i < request.headers.len() {
            let mut fewer = request.clone();
            fewer.headers.remove(i);
            let fewer = side.finish(&fewer);
            if fewer.headers.len() < request.headers.len() && shows(side, &fewer, spent) {
                request = fewer;
            } else {
                i += 1;
            }
        }
        if pass == 1 || request.body.is_empty() {
            break;
        }
        let config = side.config.clone();
        let explicit_length = request.headers.iter().any(|(n, v)| {
            n.eq_ignore_ascii_case("content-length")
                && v.as_slice() != request.body.len().to_string().as_bytes()
        });
        let with_body = |request: &HttpRequest, body: &[u8]| {
            let mut r = request.clone();
            r.body = body.to_vec();
            if !explicit_length {
                for (n, v) in &mut r.headers {
                    if n.eq_ignore_ascii_case("content-length") {
                        *v = body.len().to_string().into_bytes();
                    }
                }
            }
            r
        };
        let base = request.clone();
        let empty = with_body(&base, b"");
        if shows(side, &empty, spent) {
            request = empty;
            continue;
        }
        let (_, lines) = shrink::shrink(
            (config.clone(), vec![request.body.clone()]),
            budget.saturating_sub(*spent),
            &mut |c, lines| match lines {
                [body] if *c == config => shows(side, &with_body(&base, body), spent),
                _ => false,
            },
        );
        if let [body] = lines.as_slice() {
            request = with_body(&base, body);
        }
    }
    request
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, headers: &[(&str, &str)], body: &str) -> Answer {
        Answer {
            status,
            headers: headers
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
            body: body.as_bytes().to_vec(),
        }
    }

    const JSON: (&str, &str) = ("content-type", "application/json");

    #[test]
    fn the_parts_compared_in_order() {
        let ok = answer(200, &[JSON], r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
        assert_eq!(differ(&ok, &Ok(ok.clone())), None);
        let part = |r: &Answer, c: Result<Answer, String>| differ(r, &c).map(|(p, _)| p);
        assert_eq!(
            part(&ok, Err("reset".into())).as_deref(),
            Some("no response")
        );
        let mut other = ok.clone();
        other.status = 400;
        assert_eq!(part(&ok, Ok(other)).as_deref(), Some("status"));
        let allow = answer(405, &[("allow", "POST")], "");
        assert_eq!(
            part(&allow, Ok(answer(405, &[], ""))).as_deref(),
            Some("allow")
        );
        assert_eq!(
            part(&allow, Ok(answer(405, &[("allow", " POST ,POST")], ""))),
            None
        );
        assert_eq!(
            part(&allow, Ok(answer(405, &[("allow", "GET, POST")], ""))).as_deref(),
            Some("allow")
        );
        let empty = answer(202, &[], "");
        assert_eq!(
            part(&empty, Ok(answer(202, &[JSON], "{}"))).as_deref(),
            Some("body")
        );
        assert_eq!(
            part(&ok, Ok(answer(200, &[JSON], ""))).as_deref(),
            Some("body")
        );
        assert_eq!(
            part(
                &ok,
                Ok(answer(200, &[("content-type", "text/plain")], "{}"))
            )
            .as_deref(),
            Some("content-type")
        );
        let error = answer(
            200,
            &[JSON],
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":1}}"#,
        );
        // The first member that differs, in the reference's order.
        assert_eq!(part(&ok, Ok(error)).as_deref(), Some("/result"));
    }

    #[test]
    fn an_event_stream_counts_as_its_response() {
        let ok = answer(200, &[JSON], r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
        let sse = answer(
            200,
            &[("content-type", "text/event-stream")],
            "event: message\ndata: {\"result\":{},\"id\":1,\"jsonrpc\":\"2.0\"}\n\n",
        );
        assert_eq!(differ(&ok, &Ok(sse)), None);
        let wrong = answer(
            200,
            &[("content-type", "text/event-stream")],
            "data: {\"result\":{\"isError\":true},\"id\":1,\"jsonrpc\":\"2.0\"}\n\n",
        );
        assert_eq!(
            differ(&ok, &Ok(wrong)).map(|(p, _)| p).as_deref(),
            Some("/result")
        );
    }

    #[test]
    fn loopback_names() {
        for (url, want) in [
            ("http://127.0.0.1:8080/mcp", true),
            ("http://localhost:1/mcp", true),
            ("http://[::1]:9/mcp", true),
            ("http://10.0.0.1:8080/mcp", false),
            ("http://example.org/mcp", false),
        ] {
            let url = Url::parse(url).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(loopback(&url), want, "{url:?}");
        }
    }
}
