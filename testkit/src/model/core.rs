//! The model of the stateless core: rows F1 to F3 (framing), E1 to E17
//! (the JSON-RPC envelope), M1 to M16 (`params._meta` and versions), D1 to
//! D7 (methods) and T1 to T9 (tools) of `docs/behavior.md`, in its order of
//! checks, one function per step. Also L15 and L17 (what `_meta` and
//! `data.supported` say when the legacy path is on) and L16 (discover's
//! list), which are rules of the core.
//!
//! Every function reads the one tree ([`Json`]) and the configuration's
//! data; nothing here calls the server.

use serde_json::{Value, json};

use super::expect::{Body, Era, Expect, GET_ORDER, LOOKUP_STOCK, Reply};
use super::parse::{Parsed, Refusal, parse};
use super::tree::{Json, is_integer_literal};
use mcp_reference::Config;

/// The second message of row E3 (the first, for nesting, is the
/// registry's).
pub const OUT_OF_RANGE: &str = "Parse error: a number is out of range";

/// The `-32602` variant of row D6, for an `initialize` without a string
/// `protocolVersion` (the registry holds the `-32022` one).
pub const INITIALIZE_WITHOUT_VERSION: &str = "Invalid params: initialize needs a string \
     protocolVersion, and this server has no initialize handshake; use one of data.supported";

/// The `_meta` keys of 2026-07-28 requests (`basic/index.mdx#meta`).
pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// See [`PROTOCOL_VERSION`].
pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// See [`PROTOCOL_VERSION`].
pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// See [`PROTOCOL_VERSION`] (defined with the answer types, which the
/// notifications model reads too).
pub use super::expect::LOG_LEVEL;
/// The four keys that make a request modern (`docs/behavior.md`, "Which
/// era a line belongs to").
pub const MODERN_KEYS: [&str; 4] = [
    PROTOCOL_VERSION,
    CLIENT_CAPABILITIES,
    CLIENT_INFO,
    LOG_LEVEL,
];

/// `LoggingLevel` of the 2026-07-28 schema (row M12).
pub use super::expect::LOG_LEVELS;

/// The capabilities `ClientCapabilities` defines as objects (row M9).
pub const CAPABILITIES: &[&str] = &[
    "elicitation",
    "experimental",
    "extensions",
    "roots",
    "sampling",
];

/// The methods of 2026-07-28 this server serves (rows D1 to D3, T*).
const SERVED: [&str; 3] = ["server/discover", "tools/list", "tools/call"];

/// Methods 2026-07-28 removed, answered as row D5 when sent as requests.
const REMOVED: [&str; 4] = [
    "ping",
    "logging/setLevel",
    "notifications/initialized",
    "notifications/roots/list_changed",
];

/// Every version `data.supported` lists: the modern ones, then the legacy
/// ones served (row L17).
pub fn supported_versions(config: &Config) -> Vec<String> {
    config
        .versions()
        .iter()
        .chain(config.legacy_versions())
        .cloned()
        .collect()
}

fn supported(config: &Config) -> Value {
    json!(supported_versions(config))
}

fn legacy_on(config: &Config) -> bool {
    !config.legacy_versions().is_empty()
}

/// The core's reply to one line (no newline), for `config`: the model of
/// `Server::respond`.
pub fn expect_line(config: &Config, line: &[u8]) -> Expect {
    match read(config, line) {
        Read::Done(expect) => expect,
        Read::Message(parsed, cr) => {
            let expect = match envelope(&parsed) {
                Envelope::Done(expect) => expect,
                Envelope::Request(r) => answer(config, &r),
                // E18: a cancellation changes nothing, whatever it names.
                Envelope::Notification {
                    method: "notifications/cancelled",
                    ..
                } => Expect::new("E16", Reply::Silence).note("E18"),
                Envelope::Notification { .. } => Expect::new("E16", Reply::Silence),
            };
            if cr { expect.note("F2") } else { expect }
        }
    }
}

/// A line after framing and parsing.
pub enum Read {
    /// Answered by framing or parsing.
    Done(Expect),
    /// A JSON text, and whether a carriage return was stripped (F2).
    Message(Parsed, bool),
}

/// Framing and parsing: rows F1 to F3 and E1 to E4.
pub fn read(config: &Config, line: &[u8]) -> Read {
    let (text, cr) = match frame(config, line) {
        Framed::Text(text, cr) => (text, cr),
        Framed::Done(expect) => return Read::Done(expect),
    };
    match parse(text) {
        Ok(parsed) => Read::Message(parsed, cr),
        Err(refusal) => Read::Done(refused(refusal)),
    }
}

/// What framing makes of a line.
pub enum Framed<'l> {
    /// The text to parse, and whether a `\r` was stripped (F2).
    Text(&'l [u8], bool),
    /// Answered by framing.
    Done(Expect),
}

/// Rows F1 (blank), F3 (too long), F2 (a trailing `\r`) and E2 (UTF-8).
pub fn frame<'l>(config: &Config, line: &'l [u8]) -> Framed<'l> {
    if line
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    {
        return Framed::Done(Expect::new("F1", Reply::Silence));
    }
    if line.len() > config.max_line_bytes() {
        return Framed::Done(Expect::fixed("F3", None));
    }
    let (text, cr) = match line.strip_suffix(b"\r") {
        Some(text) => (text, true),
        None => (line, false),
    };
    if std::str::from_utf8(text).is_err() {
        return Framed::Done(Expect::fixed("E2", None));
    }
    Framed::Text(text, cr)
}

/// Rows E1, E3, E4: why the text is not JSON the server reads.
pub fn refused(refusal: Refusal) -> Expect {
    match refusal {
        Refusal::Syntax => Expect::fixed("E1", None),
        Refusal::LoneSurrogate => Expect::fixed("E4", None),
        Refusal::TooDeep => Expect::fixed("E3", None),
        Refusal::OutOfRange => Expect::new(
            "E3",
            Reply::Error {
                id: None,
                code: -32700,
                message: OUT_OF_RANGE.into(),
                data: None,
            },
        ),
        Refusal::Unsure => Expect::new("E9", Reply::Unknown),
    }
}

/// A request that passed the envelope.
pub struct Request<'t> {
    /// The raw text of its id.
    pub id: String,
    /// The method.
    pub method: &'t str,
    /// `params`, when present.
    pub params: Option<&'t Json>,
    /// Rows noted on the way (E10, E17).
    pub notes: Vec<&'static str>,
}

impl Request<'_> {
    /// `expect` with this request's notes.
    pub fn noted(&self, mut expect: Expect) -> Expect {
        for row in &self.notes {
            expect = expect.note(row);
        }
        expect
    }
}

/// The envelope's verdict.
pub enum Envelope<'t> {
    /// Answered (an error, or silence for a client's response).
    Done(Expect),
    /// A request.
    Request(Request<'t>),
    /// A notification: never answered (E16).
    Notification {
        /// The method.
        method: &'t str,
        /// `params`, when present.
        params: Option<&'t Json>,
    },
}

/// Rows E5 to E17, in the order of `docs/behavior.md`.
pub fn envelope(parsed: &Parsed) -> Envelope<'_> {
    let tree = &parsed.tree;
    let Json::Obj(members) = tree else {
        let row = if tree.is_array() { "E6" } else { "E5" };
        return Envelope::Done(Expect::fixed(row, None));
    };
    let has = |name: &str| tree.get(name).is_some();
    if !has("method") && (has("result") || has("error")) {
        return Envelope::Done(Expect::new("E13", Reply::Silence));
    }
    // E10: one id, a string or an integer literal, echoed as written.
    let id = match (parsed.ids.as_slice(), tree.get("id")) {
        ([raw], Some(Json::Str(..))) => Some(raw.clone()),
        ([raw], Some(Json::Num(_))) if is_integer_literal(raw) => Some(raw.clone()),
        _ => None,
    };
    // E16: a line without id that breaks the envelope is no notification;
    // it gets the row's error.
    let done = |e: Expect| Envelope::Done(if has("id") { e } else { e.note("E16") });
    let mut names: Vec<&str> = tree.names().collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w.first() == w.get(1)) {
        return done(Expect::fixed("E11", id));
    }
    if members
        .iter()
        .any(|(k, _, v)| k != "id" && v.has_duplicate())
    {
        return done(Expect::fixed("E12", id));
    }
    match tree.get("jsonrpc") {
        None => return done(Expect::fixed("E7", id)),
        Some(v) if v.as_str() != Some("2.0") => {
            return done(Expect::fixed("E8", id));
        }
        Some(_) => {}
    }
    if has("id") && id.is_none() {
        return done(Expect::fixed("E9", None));
    }
    let method = match tree.get("method") {
        None => return done(Expect::fixed("E14", id)),
        Some(m) => match m.as_str() {
            Some(m) => m,
            None => return done(Expect::fixed("E15", id)),
        },
    };
    let params = tree.get("params");
    let Some(id) = id else {
        return Envelope::Notification { method, params };
    };
    let mut notes = vec!["E10"];
    if tree
        .names()
        .any(|k| !matches!(k, "jsonrpc" | "id" | "method" | "params"))
    {
        notes.push("E17");
    }
    Envelope::Request(Request {
        id,
        method,
        params,
        notes,
    })
}

/// A modern request (envelope valid): `initialize` (D6), then `_meta`
/// (M*), then the method (D*, T*).
pub fn answer(config: &Config, request: &Request<'_>) -> Expect {
    let modern_initialize = request.method == "initialize" && modern(request);
    if request.method == "initialize" && !modern_initialize {
        return request.noted(initialize(config, request));
    }
    let expect = match meta(config, request) {
        Some(expect) => expect,
        None if modern_initialize => initialize_removed(config, request),
        None => method(config, request),
    };
    request.noted(expect)
}

/// Row D7: whether an `initialize` carries modern `_meta` (its
/// `params._meta` names a protocol version): then it is a modern request,
/// checked as every other, for a method 2026-07-28 does not have.
fn modern(request: &Request<'_>) -> bool {
    request
        .params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(PROTOCOL_VERSION))
        .is_some()
}

/// Row D7: a modern `initialize` whose `_meta` passes: `-32601` naming the
/// supported versions in `data.supported`.
fn initialize_removed(config: &Config, request: &Request<'_>) -> Expect {
    let (code, message) = super::rows::fixed("D7");
    let expect = Expect::new(
        "D7",
        Reply::Error {
            id: Some(request.id.clone()),
            code,
            message,
            data: Some(json!({ "supported": supported(config) })),
        },
    );
    if legacy_on(config) {
        expect.note("L17")
    } else {
        expect
    }
}

/// Row D6: `initialize` never starts a handshake in the core.
pub fn initialize(config: &Config, request: &Request<'_>) -> Expect {
    let id = Some(request.id.clone());
    let requested = match request.params {
        Some(p @ Json::Obj(_)) => p.get("protocolVersion").and_then(Json::as_str),
        _ => None,
    };
    let (code, message, data) = match requested {
        Some(v) => {
            let (code, message) = super::rows::fixed("D6");
            (
                code,
                message,
                json!({ "supported": supported(config), "requested": v }),
            )
        }
        None => (
            -32602,
            INITIALIZE_WITHOUT_VERSION.to_string(),
            json!({ "supported": supported(config) }),
        ),
    };
    let expect = Expect::new(
        "D6",
        Reply::Error {
            id,
            code,
            message,
            data: Some(data),
        },
    );
    if legacy_on(config) {
        expect.note("L17")
    } else {
        expect
    }
}

/// Rows M1 to M15: `params` and `_meta`, the version first. `None`: they
/// pass.
pub fn meta(config: &Config, request: &Request<'_>) -> Option<Expect> {
    let id = Some(request.id.clone());
    let fail = |row: &'static str| Some(Expect::fixed(row, id.clone()));
    // M15: an unknown method is not judged before `_meta` is.
    let shape = |row: &'static str| {
        let e = Expect::fixed(row, id.clone());
        if SERVED.contains(&request.method) || super::catalog::serves(config, request.method) {
            Some(e)
        } else {
            Some(Expect {
                row: "M15",
                notes: vec![row],
                reply: e.reply,
                notices: Vec::new(),
            })
        }
    };
    let params = match request.params {
        None => return shape("M1"),
        Some(p @ Json::Obj(_)) => p,
        Some(_) => return shape("M2"),
    };
    let meta = match params.get("_meta") {
        None => return shape("M3"),
        Some(m @ Json::Obj(_)) => m,
        Some(_) => return shape("M4"),
    };
    let version = match meta.get(PROTOCOL_VERSION) {
        None => return fail("M5"),
        Some(Json::Str(v, _)) => v,
        Some(_) => return fail("M6"),
    };
    if !config.versions().contains(version) {
        let legacy = config.legacy_versions().contains(version);
        let (code, message) = super::rows::fixed(if legacy { "L15" } else { "M7" });
        let row = match (legacy, other_meta_fields(meta)) {
            (true, _) => "L15",
            (false, Err(_)) => "M10",
            (false, Ok(())) => "M7",
        };
        let expect = Expect::new(
            row,
            Reply::Error {
                id,
                code,
                message,
                data: Some(json!({ "supported": supported(config), "requested": version })),
            },
        );
        return Some(if legacy_on(config) {
            expect.note("L17")
        } else {
            expect
        });
    }
    if let Err(row) = other_meta_fields(meta) {
        return fail(row);
    }
    None
}

/// Rows M8, M9, M11, M12, M13: the `_meta` fields after the version.
fn other_meta_fields(meta: &Json) -> Result<(), &'static str> {
    match meta.get(CLIENT_CAPABILITIES) {
        None => return Err("M8"),
        Some(caps @ Json::Obj(_)) => {
            let defined_not_object = CAPABILITIES
                .iter()
                .any(|c| caps.get(c).is_some_and(|v| !v.is_object()));
            if defined_not_object {
                return Err("M9");
            }
        }
        Some(_) => return Err("M9"),
    }
    if let Some(info) = meta.get(CLIENT_INFO) {
        let string = |k: &str| info.get(k).is_some_and(|v| v.as_str().is_some());
        let optional_string = |k: &str| info.get(k).is_none_or(|v| v.as_str().is_some());
        let ok = info.is_object()
            && string("name")
            && string("version")
            && ["title", "description", "websiteUrl"]
                .iter()
                .all(|k| optional_string(k))
            && info.get("icons").is_none_or(Json::is_array);
        if !ok {
            return Err("M11");
        }
    }
    if let Some(level) = meta.get(LOG_LEVEL)
        && !level.as_str().is_some_and(|l| LOG_LEVELS.contains(&l))
    {
        return Err("M12");
    }
    if let Some(token) = meta.get("progressToken")
        && token.as_str().is_none()
        && !is_int64(token)
    {
        return Err("M13");
    }
    Ok(())
}

/// Row M13: an integer literal that fits 64 bits. `-0` is refused: the
/// contract counts it among the literals a 64-bit reader takes for a float.
fn is_int64(v: &Json) -> bool {
    match v {
        Json::Num(n) if is_integer_literal(n) && n != "-0" => {
            n.parse::<i64>().is_ok() || n.parse::<u64>().is_ok()
        }
        _ => false,
    }
}

/// Rows D1 to D5, and T* through [`call`]. M14 and M16 are noted here.
pub fn method(config: &Config, request: &Request<'_>) -> Expect {
    let id = request.id.clone();
    let params = request.params.unwrap_or(&Json::Null);
    let result = |row: &'static str, body: Body| {
        Expect::new(
            row,
            Reply::Result {
                id: id.clone(),
                era: Era::Modern,
                body,
            },
        )
    };
    let mut expect = match request.method {
        "server/discover" if legacy_on(config) => result("D1", Body::Discover).note("L16"),
        "server/discover" => result("D1", Body::Discover),
        "tools/list" if params.get("cursor").is_some() => Expect::fixed("D3", Some(id.clone())),
        "tools/list" => result("D2", Body::ToolsList),
        "tools/call" => call(config, &id, params, Era::Modern),
        m if super::catalog::serves(config, m) => super::catalog::method(config, &id, m, params),
        m if REMOVED.contains(&m) => Expect::fixed("D5", Some(id.clone())),
        _ => Expect::fixed("D4", Some(id.clone())),
    };
    // I1: a served method but `tools/call` and `prompts/get` carrying
    // `inputResponses` or `requestState`: its reply, never an
    // `InputRequiredResult` (the reply above is never one).
    let served = SERVED.contains(&request.method) || super::catalog::serves(config, request.method);
    if served
        && !matches!(request.method, "tools/call" | "prompts/get")
        && (params.get("inputResponses").is_some() || params.get("requestState").is_some())
    {
        expect = expect.note("I1");
    }
    let meta = params.get("_meta").unwrap_or(&Json::Null);
    if meta
        .names()
        .any(|k| !MODERN_KEYS.contains(&k) && k != "progressToken")
    {
        expect = expect.note("M14");
    }
    // The optional fields, accepted (M11 to M13 say what a valid one is).
    for (key, row) in [
        (CLIENT_INFO, "M11"),
        (LOG_LEVEL, "M12"),
        ("progressToken", "M13"),
    ] {
        if meta.get(key).is_some() {
            expect = expect.note(row);
        }
    }
    if expect.body() == Some(&Body::NotVisible) && meta.get(CLIENT_INFO).is_some() {
        expect = expect.note("M16");
    }
    expect
}

/// Rows T1 to T9: a `tools/call` with `params` (an object), in `era`.
pub fn call(config: &Config, id: &str, params: &Json, era: Era) -> Expect {
    let result = |row: &'static str, body: Body| {
        Expect::new(
            row,
            Reply::Result {
                id: id.to_string(),
                era,
                body,
            },
        )
    };
    let Some(name) = params.get("name").and_then(Json::as_str) else {
        return Expect::fixed("T1", Some(id.to_string()));
    };
    let empty = Json::Obj(Vec::new());
    let args = match params.get("arguments") {
        None => &empty,
        Some(a @ Json::Obj(_)) => a,
        Some(_) => return Expect::fixed("T2", Some(id.to_string())),
    };
    match name {
        GET_ORDER => match args.get("order_id").and_then(Json::as_str) {
            None => result("T6", Body::InvalidArguments(GET_ORDER)),
            Some(order_id) => {
                let readable = config
                    .orders()
                    .iter()
                    .any(|o| o.order_id == order_id && o.owner == config.user());
                let expect = if readable {
                    result("T4", Body::Order(order_id.to_string()))
                } else {
                    result("T5", Body::NotVisible)
                };
                if args.names().any(|k| k != "order_id") {
                    expect.note("T7")
                } else {
                    expect
                }
            }
        },
        LOOKUP_STOCK if config.stock().is_some() => {
            let only_product = args.names().count() == 1;
            match args.get("product_id").and_then(Json::as_str) {
                Some(product_id) if only_product => {
                    let known = config
                        .stock()
                        .unwrap_or_default()
                        .iter()
                        .any(|s| s.product_id == product_id);
                    if known {
                        result("T8", Body::Stock(product_id.to_string()))
                    } else {
                        result("T8", Body::UnknownProduct)
                    }
                }
                _ => result("T9", Body::InvalidArguments(LOOKUP_STOCK)),
            }
        }
        other if era == Era::Modern && super::input::is_tool(config, other) => {
            super::input::generic(config, id, "tools/call", params)
                .unwrap_or_else(|| Expect::new("I12", Reply::Unknown))
        }
        other => match config
            .catalog()
            .content_tools
            .iter()
            .find(|t| t.name == other)
        {
            // T10, T11: a configured content tool takes no arguments;
            // T14: or those its configured inputSchema accepts.
            Some(t) if accepts(t, args) => {
                // T12, T13: the notifications this request asked for.
                let mut expect = result("T10", Body::Content(t.name.clone()));
                if t.input_schema.is_some() {
                    expect = expect.note("T14");
                }
                expect.notices = super::notices::expected(t, params);
                // The rows hold for a tool that may send, asked or not.
                let (progress, log) = (!t.progress.is_empty(), !t.log.is_empty());
                if progress {
                    expect = expect.note("T12");
                }
                if log {
                    expect = expect.note("T13");
                }
                expect
            }
            Some(t) if t.input_schema.is_some() => result("T14", Body::NoArguments(t.name.clone())),
            Some(t) => result("T11", Body::NoArguments(t.name.clone())),
            None => Expect::fixed("T3", Some(id.to_string())),
        },
    }
}

/// Whether content tool `tool` accepts `args` (T10, T11, T14): without a
/// configured `inputSchema`, only no members; with one, what the test kit's
/// own JSON Schema validator (the `jsonschema` crate, an implementation
/// independent of the core's `src/schema.rs`) accepts. Without the
/// `schema` feature (the fuzz build, whose configurations configure no
/// schema) a configured schema accepts nothing the model can vouch for.
fn accepts(tool: &mcp_reference::catalog::ContentTool, args: &Json) -> bool {
    match &tool.input_schema {
        None => args.names().next().is_none(),
        #[cfg(feature = "schema")]
        Some(schema) => serde_json::from_str::<serde_json::Value>(schema.text())
            .ok()
            .and_then(|s| crate::schema::ToolSchema::new_2020_12(&s).ok())
            .is_some_and(|v| v.is_valid(&args.to_value())),
        #[cfg(not(feature = "schema"))]
        Some(_) => false,
    }
}
