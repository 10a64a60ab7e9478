//! The model of the Streamable HTTP binding (rows H1 to H17 of
//! `docs/behavior.md`, "Streamable HTTP"): given the configuration, where
//! the server listens and one HTTP request, the status, the headers that
//! matter and the body the binding must answer, and the row that decided.
//!
//! Written from the rows, not from `src/http`: its own header lookup, its
//! own Base64 decoder, its own number comparison, and the stdio model
//! ([`super::core`]) for the body, which is the stdio reply to the same
//! JSON. Like the rest of the model it shares only the `Config` data with
//! the server.

use mcp_reference::Config;
use serde_json::json;

use super::core::{self, Envelope};
use super::parse::parse;
use super::tree::Json;
use super::{Expect, Reply, rows};

/// One HTTP request, as the model reads it.
#[derive(Debug, Clone)]
pub struct HttpRequest {
    /// The method.
    pub method: String,
    /// The request target (path and query).
    pub target: String,
    /// The header lines, in order.
    pub headers: Vec<(String, Vec<u8>)>,
    /// The body.
    pub body: Vec<u8>,
}

/// Where the server listens.
#[derive(Debug, Clone, Copy)]
pub struct Listen {
    /// The port.
    pub port: u16,
    /// Whether the address is loopback.
    pub loopback: bool,
}

/// What the response must be.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpExpect {
    /// The deciding row (`H1` ... `H17`).
    pub row: &'static str,
    /// The status.
    pub status: u16,
    /// `Allow: POST` is due (405).
    pub allow: bool,
    /// The body: `None` empty, else the JSON-RPC reply the stdio model
    /// (or, for `-32020`, this module) expects, `Content-Type:
    /// application/json`.
    pub body: Option<Expect>,
}

impl HttpExpect {
    fn empty(row: &'static str, status: u16) -> HttpExpect {
        HttpExpect {
            row,
            status,
            allow: false,
            body: None,
        }
    }

    /// The statement of `docs/spec-coverage.md` (or the fixture rule,
    /// `textbook:Hn`) that fixes this response's status, or `None` where
    /// the specification leaves it to the server (decision DEC23: a parse
    /// error, an invalid request, invalid params other than a missing
    /// `_meta` field, an unknown tool). For a body the core answers (H7,
    /// H15, H17): 200 for a result (SHTTP-12), 400 for `-32022`
    /// (SHTTP-21), 404 for `-32601` (SHTTP-22), 400 for a missing `_meta`
    /// field (the rows resting on BASE-41: BASE-42); for every other row,
    /// the row's own source (`docs/rows.json`).
    pub fn status_source(&self) -> Option<&'static str> {
        match self.row {
            "H7" | "H15" | "H17" => {
                let body = self.body.as_ref()?;
                match body.code() {
                    None if body.replies() == Some(true) => Some("SHTTP-12"),
                    Some(-32022) => Some("SHTTP-21"),
                    Some(-32601) => Some("SHTTP-22"),
                    _ if rows::row(body.row).is_some_and(|r| r.source == "BASE-41") => {
                        Some("BASE-42")
                    }
                    _ => None,
                }
            }
            row => rows::row(row).map(|r| r.source.as_str()),
        }
    }

    /// Checks a response: status, the `allow` and `content-type` headers
    /// (present exactly when due) and the body, with the stdio model's
    /// comparison. `headers` are lowercase names.
    pub fn check(
        &self,
        config: &Config,
        status: u16,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<(), String> {
        let get = |name: &str| headers.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        if status != self.status {
            return Err(format!(
                "row {}: status {status}, expected {}",
                self.row, self.status
            ));
        }
        if (get("allow") == Some("POST")) != self.allow {
            return Err(format!("row {}: allow header {:?}", self.row, get("allow")));
        }
        let json = get("content-type") == Some("application/json");
        match &self.body {
            None if body.is_empty() && !json => Ok(()),
            None => Err(format!(
                "row {}: expected an empty body without content-type, got {:?} ({})",
                self.row,
                get("content-type"),
                String::from_utf8_lossy(body)
            )),
            Some(_) if !json => Err(format!(
                "row {}: content-type is not application/json",
                self.row
            )),
            Some(_) if body.ends_with(b"\n") || body.is_empty() => Err(format!(
                "row {}: the body must be one JSON object without a newline",
                self.row
            )),
            Some(expect) => {
                let line = [body, b"\n"].concat();
                expect
                    .check(config, &line)
                    .map_err(|e| format!("row {}: {e}", self.row))
            }
        }
    }
}

/// The loopback names, with the port (and without, on port 80).
fn loopback(prefix: &str, port: u16) -> Vec<String> {
    let mut out = Vec::new();
    for host in ["localhost", "127.0.0.1", "[::1]"] {
        out.push(format!("{prefix}{host}:{port}"));
        if port == 80 {
            out.push(format!("{prefix}{host}"));
        }
    }
    out
}

fn named<'r>(request: &'r HttpRequest, name: &str) -> Vec<&'r [u8]> {
    request
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_slice())
        .collect()
}

fn listed(list: &[String], value: &[u8]) -> bool {
    list.iter()
        .any(|l| l.to_ascii_lowercase().as_bytes() == value.to_ascii_lowercase())
}

/// The binding's answer to `request`.
pub fn expect_http(config: &Config, listen: Listen, request: &HttpRequest) -> HttpExpect {
    let settings = config.http();
    // H1: the path, without its query.
    let path = request.target.split('?').next().unwrap_or_default();
    if path != settings.endpoint {
        return HttpExpect::empty("H1", 404);
    }
    // H2
    if request.method != "POST" {
        return HttpExpect {
            allow: true,
            ..HttpExpect::empty("H2", 405)
        };
    }
    // H3
    let origins = settings
        .allowed_origins
        .clone()
        .unwrap_or_else(|| loopback("http://", listen.port));
    if named(request, "Origin")
        .iter()
        .any(|o| !listed(&origins, o))
    {
        return HttpExpect::empty("H3", 403);
    }
    // H4
    let hosts = match &settings.allowed_hosts {
        Some(list) => Some(list.clone()),
        None if listen.loopback => Some(loopback("", listen.port)),
        None => None,
    };
    if let Some(hosts) = hosts {
        match named(request, "Host").as_slice() {
            [one] if listed(&hosts, one) => {}
            _ => return HttpExpect::empty("H4", 403),
        }
    }
    // H5
    let json_type = |v: &[u8]| {
        let media = String::from_utf8_lossy(v);
        let media = media.split(';').next().unwrap_or_default();
        media
            .trim_matches(|c: char| c.is_ascii_whitespace())
            .eq_ignore_ascii_case("application/json")
    };
    match named(request, "Content-Type").as_slice() {
        [one] if json_type(one) => {}
        _ => return HttpExpect::empty("H5", 415),
    }
    // H6
    let limit = config.max_line_bytes() as u64;
    let declared_over = named(request, "Content-Length").iter().any(|v| {
        String::from_utf8_lossy(v)
            .trim_matches([' ', '\t'])
            .parse::<u64>()
            .map_or(true, |n| n > limit)
    });
    if declared_over || request.body.len() as u64 > limit {
        return HttpExpect::empty("H6", 413);
    }
    body(config, request)
}

/// H7 to H17: the body, once the head is accepted.
fn body(config: &Config, request: &HttpRequest) -> HttpExpect {
    let text = request.body.as_slice();
    let reply = |row: &'static str, status: u16, expect: Expect| HttpExpect {
        row,
        status,
        allow: false,
        body: Some(expect),
    };
    // No line framing on HTTP: a blank body is no JSON (E1), and the UTF-8
    // and syntax rows apply to the whole body.
    if text
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    {
        return reply("H7", 400, Expect::fixed("E1", None));
    }
    if std::str::from_utf8(text).is_err() {
        return reply("H7", 400, Expect::fixed("E2", None));
    }
    let parsed = match parse(text) {
        Ok(parsed) => parsed,
        Err(refusal) => return reply("H7", 400, core::refused(refusal)),
    };
    match core::envelope(&parsed) {
        Envelope::Done(expect) if expect.row == "E13" => HttpExpect::empty("H8", 400),
        Envelope::Done(expect) => reply("H7", 400, expect),
        Envelope::Notification { .. } => HttpExpect::empty("H9", 202),
        Envelope::Request(r) => {
            if let Err((row, message)) = mirrored(config, request, &r) {
                let data = (r.method == "initialize")
                    .then(|| json!({ "supported": core::supported_versions(config) }));
                let row = if r.method == "initialize" { "H16" } else { row };
                return reply(
                    row,
                    400,
                    Expect::new(
                        row,
                        Reply::Error {
                            id: Some(r.id.clone()),
                            code: -32020,
                            message,
                            data,
                        },
                    ),
                );
            }
            let expect = core::answer(config, &r);
            let status = match expect.code() {
                None => 200,
                Some(-32601) => 404,
                Some(_) => 400,
            };
            // H16: an initialize whose headers agree gets the core's D6
            // (400) or D7 (404).
            let row = if r.method == "initialize" {
                "H16"
            } else {
                "H15"
            };
            let mut out = reply(row, status, expect);
            if ["mcp-session-id", "last-event-id"]
                .iter()
                .any(|h| !named(request, h).is_empty())
            {
                out.row = "H17";
            }
            out
        }
    }
}

/// A body value a header stands for.
enum Wants<'j> {
    /// The body has no (string) value there.
    Nothing,
    /// This text.
    Text(&'j str),
    /// This JSON value of the arguments.
    Value(&'j Json),
}

/// A failed header check: its row and the `-32020` message.
type Mismatch = (&'static str, String);

/// H10 to H14: the mirrored headers, in order.
fn mirrored(config: &Config, request: &HttpRequest, r: &core::Request<'_>) -> Result<(), Mismatch> {
    let params = r.params.filter(|p| p.is_object());
    let version = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion"))
        .and_then(Json::as_str);
    // H10: compared only with a version the body names; a body without
    // one is left to the core (`_meta`'s -32602, DEC9).
    if let Some(version) = version {
        one(
            "H10",
            request,
            "MCP-Protocol-Version",
            false,
            Wants::Text(version),
        )?;
    }
    one("H11", request, "Mcp-Method", false, Wants::Text(r.method))?;
    // H12: `params.name` on tools/call and prompts/get, `params.uri` on
    // resources/read, in every configuration.
    let source = match r.method {
        "resources/read" => "uri",
        "tools/call" | "prompts/get" => "name",
        _ => return Ok(()),
    };
    let name = params.and_then(|p| p.get(source)).and_then(Json::as_str);
    one(
        "H12",
        request,
        "Mcp-Name",
        true,
        name.map_or(Wants::Nothing, Wants::Text),
    )?;
    if r.method != "tools/call" {
        return Ok(());
    }
    let offered = |tool: &str| {
        tool == super::GET_ORDER || (tool == super::LOOKUP_STOCK && config.stock().is_some())
    };
    let Some(tool) = name.filter(|n| offered(n)) else {
        return Ok(());
    };
    let args = params
        .and_then(|p| p.get("arguments"))
        .filter(|a| a.is_object());
    for (param, header) in config.param_headers().get(tool).into_iter().flatten() {
        let header = format!("Mcp-Param-{header}");
        match args.and_then(|a| a.get(param)) {
            None | Some(Json::Null) => {
                if let Some(value) = named(request, &header).first() {
                    return Err((
                        "H14",
                        format!(
                            "Header mismatch: {header} header value '{}' does not match body value (none: the argument is absent or null)",
                            escape(&String::from_utf8_lossy(value))
                        ),
                    ));
                }
            }
            Some(value) => one("H14", request, &header, true, Wants::Value(value))?,
        }
    }
    Ok(())
}

fn one(
    row: &'static str,
    request: &HttpRequest,
    header: &str,
    sentinel: bool,
    wants: Wants<'_>,
) -> Result<(), Mismatch> {
    let values = named(request, header);
    let raw = match values.as_slice() {
        [] => {
            return Err((
                row,
                format!("Header mismatch: the {header} header is required and missing"),
            ));
        }
        [one] => *one,
        many => {
            return Err((
                row,
                format!(
                    "Header mismatch: the {header} header appears {} times; send it once",
                    many.len()
                ),
            ));
        }
    };
    if raw
        .iter()
        .any(|&b| !(b == b'\t' || (b' '..=b'~').contains(&b)))
    {
        return Err((
            row,
            format!(
                "Header mismatch: the {header} header value holds characters a header value may not carry (only visible ASCII, space and tab; encode others as =?base64?...?=)"
            ),
        ));
    }
    let text = String::from_utf8_lossy(raw).into_owned();
    let value = if sentinel
        && text.starts_with("=?base64?")
        && text.ends_with("?=")
        && text.len() >= 11
    {
        let inner = &text["=?base64?".len()..text.len() - 2];
        match base64(inner).and_then(|b| String::from_utf8(b).ok()) {
            Some(decoded) => decoded,
            None => {
                return Err((
                    "H13",
                    format!(
                        "Header mismatch: the {header} header value '{}' is not valid Base64 of UTF-8 text inside =?base64?...?=",
                        escape(&text)
                    ),
                ));
            }
        }
    } else {
        text
    };
    let same = match &wants {
        Wants::Nothing => false,
        Wants::Text(t) => value == *t,
        Wants::Value(Json::Str(s, _)) => value == *s,
        Wants::Value(Json::Bool(b)) => value == b.to_string(),
        Wants::Value(Json::Num(n)) => same_number(&value, n),
        Wants::Value(_) => false,
    };
    if same {
        return Ok(());
    }
    let shown = match &wants {
        Wants::Nothing => "(none: the body has no such string value)".to_owned(),
        Wants::Text(t) => format!("'{}'", escape(t)),
        Wants::Value(Json::Str(s, _)) => format!("'{}'", escape(s)),
        Wants::Value(Json::Bool(b)) => format!("'{b}'"),
        Wants::Value(Json::Num(n)) => format!("'{}'", number_shown(n)),
        Wants::Value(Json::Arr(_)) => "(an array, which no header can carry)".to_owned(),
        Wants::Value(_) => "(an object, which no header can carry)".to_owned(),
    };
    Err((
        row,
        format!(
            "Header mismatch: {header} header value '{}' does not match body value {shown}",
            escape(&value)
        ),
    ))
}

/// A body number as the message shows it: an integer literal that fits in
/// 64 bits as its digits, any other as its nearest float.
fn number_shown(literal: &str) -> String {
    match literal
        .parse::<i64>()
        .ok()
        .map(i128::from)
        .or_else(|| literal.parse::<u64>().ok().map(i128::from))
    {
        Some(i) if super::tree::is_integer_literal(literal) => i.to_string(),
        _ => literal
            .parse::<f64>()
            .map(|f| f.to_string())
            .unwrap_or_default(),
    }
}

/// Whether a header value is a JSON number literal equal to the body's
/// number literal. An integer literal within 64 bits (signed or unsigned)
/// is an integer, any other number a 64-bit float: two integers compare
/// exactly; an integer and a float compare as floats only when the integer
/// is below 2^53 in magnitude (where floats are exact); two floats compare
/// as floats.
fn same_number(header: &str, body: &str) -> bool {
    if !is_number_literal(header) {
        return false;
    }
    let int = |s: &str| -> Option<i128> {
        if !super::tree::is_integer_literal(s) {
            return None;
        }
        let i = s.parse::<i128>().ok()?;
        (i64::try_from(i).is_ok() || u64::try_from(i).is_ok()).then_some(i)
    };
    match (int(header), int(body)) {
        (Some(h), Some(b)) => h == b,
        (Some(i), None) | (None, Some(i)) if i.unsigned_abs() >= 1 << 53 => false,
        _ => match (header.parse::<f64>(), body.parse::<f64>()) {
            (Ok(h), Ok(b)) => h.is_finite() && h == b,
            _ => false,
        },
    }
}

/// RFC 8259 section 6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn is_number_literal(s: &str) -> bool {
    let mut rest = s.strip_prefix('-').unwrap_or(s);
    let digits = |t: &str| t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let n = digits(rest);
    if n == 0 || (n > 1 && rest.starts_with('0')) {
        return false;
    }
    rest = &rest[n..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = digits(frac);
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    if let Some(exp) = rest.strip_prefix(['e', 'E']) {
        let exp = exp.strip_prefix(['+', '-']).unwrap_or(exp);
        let n = digits(exp);
        if n == 0 {
            return false;
        }
        rest = &exp[n..];
    }
    rest.is_empty()
}

/// Standard Base64 with padding, canonical (zero trailing bits): the
/// model's own decoder.
pub(super) fn base64(text: &str) -> Option<Vec<u8>> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let pad = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    if pad > 2 {
        return None;
    }
    let body = &bytes[..bytes.len() - pad];
    let mut bits: u32 = 0;
    let mut n = 0;
    let mut out = Vec::new();
    for &b in body {
        let v = ALPHABET.iter().position(|&a| a == b)? as u32;
        bits = (bits << 6) | v;
        n += 6;
        if n >= 8 {
            n -= 8;
            out.push((bits >> n) as u8);
            bits &= (1 << n) - 1;
        }
    }
    // Leftover bits must be zero (a canonical encoding).
    (bits == 0).then_some(out)
}

/// As the `-32020` message shows a value: control characters, `'` and `\`
/// as `\u{..}`, at most 64 characters, then `...`.
fn escape(value: &str) -> String {
    let mut out = String::new();
    for (i, c) in value.chars().enumerate() {
        if i == 64 {
            out.push_str("...");
            break;
        }
        if c.is_control() || c == '\'' || c == '\\' {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Every row id this module can decide.
pub const ROWS: &[&str] = &[
    "H1", "H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9", "H10", "H11", "H12", "H13", "H14", "H15",
    "H16", "H17",
];

/// The registry knows every row the module names (a guard for tests).
pub fn rows_registered() -> bool {
    ROWS.iter().all(|r| rows::row(r).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_strict() {
        assert_eq!(
            base64("SGVsbG8sIOS4lueVjA=="),
            Some("Hello, 世界".as_bytes().to_vec())
        );
        assert_eq!(base64("IHBhZGRlZCA="), Some(b" padded ".to_vec()));
        assert_eq!(base64(""), Some(Vec::new()));
        for bad in ["SGVsbG8", "SGVsbG8=!", "S===", "SGVsbG9=", "SG Vs"] {
            assert_eq!(base64(bad), None, "{bad}");
        }
    }

    #[test]
    fn which_statement_fixes_the_status() {
        let config = Config::default();
        let listen = Listen {
            port: 8080,
            loopback: true,
        };
        let post = |body: &str, headers: &[(&str, &str)]| {
            let request = HttpRequest {
                method: "POST".into(),
                target: "/mcp".into(),
                headers: headers
                    .iter()
                    .map(|(n, v)| ((*n).to_owned(), v.as_bytes().to_vec()))
                    .collect(),
                body: body.as_bytes().to_vec(),
            };
            expect_http(&config, listen, &request).status_source()
        };
        let json = [
            ("Host", "127.0.0.1:8080"),
            ("Content-Type", "application/json"),
        ];
        let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
        let modern = [
            json[0],
            json[1],
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "nope"),
        ];
        // A parse error: left to the server (DEC23).
        assert_eq!(post("x", &json), None);
        // An unknown method: 404 (SHTTP-22).
        let unknown = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"nope","params":{{{meta}}}}}"#);
        assert_eq!(post(&unknown, &modern), Some("SHTTP-22"));
        // A foreign origin: the row's own source.
        let origin = [json[0], json[1], ("Origin", "http://evil.example")];
        assert_eq!(post(&unknown, &origin), Some("SHTTP-03"));
        // A foreign host: the fixture's rule.
        assert_eq!(
            post(&unknown, &[("Host", "evil.example"), json[1]]),
            Some("textbook:H4")
        );
    }

    #[test]
    fn numbers() {
        assert!(same_number("42", "42"));
        assert!(same_number("42.0", "42"));
        assert!(same_number("42", "4.2e1"));
        assert!(!same_number("+42", "42"));
        assert!(!same_number("43", "42"));
        assert!(!same_number("9007199254740993", "9007199254740992"));
    }
}
