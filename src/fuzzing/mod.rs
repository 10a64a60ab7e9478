//! The checks behind the fuzz targets: one function per target, each taking
//! the raw fuzzer input and panicking when an invariant of the BRIEF breaks.
//!
//! The targets in `fuzz/fuzz_targets/` are three-line wrappers around these
//! functions, and `tests/fuzz_replay.rs` runs every committed corpus file and
//! crash artifact through the same functions on stable Rust, so a bug a
//! fuzzer once found stays fixed without nightly.
//!
//! | target | input | what it asserts beyond "no panic" |
//! | --- | --- | --- |
//! | [`respond_bytes`] | raw bytes as one line | the generic reply invariants, for the textbook server and for the fixture the length picks |
//! | [`respond_structured`] | an [`arbitrary`]-decoded [`model::Request`] | the generic invariants, plus the oracle's exact outcome (code, message, id, tool outcome, executor count), forbidden == nonexistent byte for byte, `clientInfo` changes nothing |
//! | [`config_load`] | raw bytes as a configuration file | a one-line error, or a server that answers discover and every order correctly |
//! | [`session`] | an [`arbitrary`]-decoded sequence of lines | per line: the generic invariants; modern lines get the core's bytes, whatever came before; legacy lifecycle rules |
//!
//! The generic invariants of every reply (one line, JSON-RPC 2.0, id echoed
//! or null, known error codes, results complete with serverInfo, the full
//! supported list on `-32022`, no value of an order the user may not read,
//! text content == `structuredContent`) are checked here by [`check_reply`].
//!
//! `arbitrary` is a normal (not optional) dependency of the library: it is
//! small, has no dependencies of its own besides its derive macro, and
//! being always there is what lets the stable replay test decode the
//! structured corpus files exactly as the fuzz targets do, without a cargo
//! feature that `cargo test` would have to turn on.
//!
//! Spec: the invariants are those of `BRIEF.md` ("Invariants the tests must
//! prove"); the rules the oracle restates are in `docs/behavior.md`.

pub mod model;

use std::sync::OnceLock;

use arbitrary::{Arbitrary, Unstructured};
use serde_json::Value;

use crate::config::{Config, Order, StockItem};
use crate::envelope::Message;
use crate::invariants::{Checker, LineView, Member, read_line};
use crate::server::{Disposition, Line, Server};
use crate::session::{self, Session};
use crate::tools::{Checked, Executor, Tool};

/// The check function of a fuzz target: panics when an invariant breaks.
pub type Target = fn(&[u8]);

/// The fuzz targets, by name, as `fuzz/Cargo.toml` declares them.
pub const TARGETS: &[(&str, Target)] = &[
    ("respond_bytes", respond_bytes),
    ("respond_structured", respond_structured),
    ("config_load", config_load),
    ("session", session),
];

/// An executor that counts which tools ran.
#[derive(Debug, Default)]
pub struct Counting {
    /// The names of the tools executed, in order.
    pub ran: Vec<&'static str>,
}

impl Executor for Counting {
    fn run<'t>(&mut self, tool: &'t dyn Tool, args: Checked<'_>) -> &'t [u8] {
        self.ran.push(tool.name());
        tool.run(args)
    }
}

/// A configured server the targets answer with.
pub struct Fixture {
    /// A short name, for failure messages.
    pub name: &'static str,
    /// The server.
    pub server: Server,
    /// The invariant checks of [`crate::invariants`] for its configuration
    /// (one line, JSON-RPC, id echo, known codes, no leak, text ==
    /// `structuredContent`, and the same bytes as without the orders the
    /// user may not read).
    pub checker: Checker,
    /// The same configuration without the orders the user may not read, for
    /// the session target's twin session (a session's reply may depend on
    /// what came before, so it is compared with a twin fed the same lines).
    pub twin: Server,
    /// The configuration it was built from, to check it never changes.
    pub config: Config,
}

impl Fixture {
    /// Builds the server, its checks and its twin.
    pub fn new(name: &'static str, config: Config) -> Fixture {
        let readable: Vec<Order> = config
            .orders()
            .iter()
            .filter(|o| o.owner == config.user())
            .cloned()
            .collect();
        let twin = config
            .clone()
            .with_orders(readable)
            .unwrap_or_else(|e| panic!("[{name}] dropping orders made the config invalid: {e}"));
        Fixture {
            name,
            server: Server::new(config.clone()),
            checker: Checker::new(&config),
            twin: Server::new(twin),
            config,
        }
    }
}

fn order(id: &str, owner: &str, status: &str, as_of: &str, source: &str) -> Order {
    Order {
        order_id: id.into(),
        owner: owner.into(),
        status: status.into(),
        as_of: as_of.into(),
        source_version: source.into(),
    }
}

fn stock() -> Option<Vec<StockItem>> {
    Some(vec![
        StockItem {
            product_id: "python-book".into(),
            stock: 3,
        },
        StockItem {
            product_id: "rust-book".into(),
            stock: 0,
        },
    ])
}

fn build(config: Result<Config, crate::config::ConfigError>) -> Config {
    config.unwrap_or_else(|e| panic!("a fuzz fixture is invalid: {e}"))
}

/// The fixture servers: the textbook one first, then variations that move
/// the user, the data, the tools, the versions and the limits.
pub fn fixtures() -> &'static [Fixture] {
    static FIXTURES: OnceLock<Vec<Fixture>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let textbook = Config::default();
        vec![
            Fixture::new("textbook", textbook.clone()),
            Fixture::new("stock", build(textbook.clone().with_stock(stock()))),
            Fixture::new("as tomas", build(textbook.clone().with_user("tomas"))),
            Fixture::new("as nobody", build(textbook.clone().with_user("nobody"))),
            Fixture::new(
                "legacy",
                build(
                    textbook
                        .clone()
                        .with_legacy_versions(vec!["2025-11-25".into(), "2025-06-18".into()]),
                ),
            ),
            Fixture::new(
                "small lines",
                build(
                    textbook
                        .clone()
                        .with_stock(stock())
                        .and_then(|c| c.with_max_line_bytes(1024)),
                ),
            ),
            Fixture::new(
                "tricky strings",
                build(
                    textbook
                        .clone()
                        .with_user("mïra \"q\"")
                        .and_then(|c| {
                            c.with_orders(vec![
                                order(
                                    "Ä-1\"\\",
                                    "mïra \"q\"",
                                    "in\ntransit \u{2028}",
                                    "2026-01-01T00:00:00+02:00",
                                    "src\"v1",
                                ),
                                order(
                                    "\u{1F600}",
                                    "eve\u{0}",
                                    "secret\u{7f}status",
                                    "2025-12-31T23:59:59.999Z",
                                    "hidden-source\t9",
                                ),
                                order(
                                    "B-205",
                                    "tomas",
                                    "on-hold-for-tomas",
                                    "2026-09-12T08:30:00Z",
                                    "src\"v1",
                                ),
                            ])
                        })
                        .and_then(|c| c.with_stock(Some(Vec::new()))),
                ),
            ),
        ]
    })
}

/// The raw texts of every top-level `id` member of a JSON object line, in
/// order, when serde_json reads the line as an object (`None` otherwise).
fn raw_ids(line: &[u8]) -> Option<Vec<String>> {
    struct Ids;
    impl<'de> serde::de::Visitor<'de> for Ids {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut ids = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                let value: &serde_json::value::RawValue = map.next_value()?;
                if key == "id" {
                    ids.push(value.get().to_string());
                }
            }
            Ok(ids)
        }
    }
    let mut de = serde_json::Deserializer::from_slice(line);
    let ids = serde::Deserializer::deserialize_map(&mut de, Ids).ok()?;
    de.end().ok()?;
    Some(ids)
}

/// The raw text of the one `id` of a reply, or of a request line (`None`
/// when there is not exactly one, or the line is not an object).
fn raw_id(line: &[u8]) -> Option<String> {
    match raw_ids(line)?.as_slice() {
        [id] => Some(id.clone()),
        _ => None,
    }
}

/// Checks the reply of the core (modern era) to `line` (`None`: no reply)
/// with [`Checker::check`] and [`check_reply_in`]; returns it parsed.
pub fn check_reply(fixture: &Fixture, line: &[u8], reply: Option<&[u8]>) -> Option<Value> {
    if let Err(e) = fixture.checker.check(line, reply.unwrap_or_default()) {
        panic!(
            "[{}] {e}; line {:?}",
            fixture.name,
            String::from_utf8_lossy(line)
        );
    }
    reply.map(|r| check_reply_in(fixture, line, r, true))
}

/// What this module checks of a reply beyond [`crate::invariants`]: the id
/// is the request's only id or null, no members beyond `jsonrpc`, `id` and
/// `result` or `error`; a modern result is complete and names the
/// configured server; an error that lists versions lists every version
/// served; a structured tool result's text is its JSON. `modern`: the reply
/// is of the 2026-07-28 era (a legacy-era result has no `resultType`).
pub fn check_reply_in(fixture: &Fixture, line: &[u8], reply: &[u8], modern: bool) -> Value {
    let name = fixture.name;
    let show = || String::from_utf8_lossy(line).into_owned();
    assert_eq!(
        reply.iter().position(|&b| b == b'\n'),
        Some(reply.len().saturating_sub(1)),
        "[{name}] a reply is one line ending in a newline: {:?} for {:?}",
        String::from_utf8_lossy(reply),
        show()
    );
    let value: Value = serde_json::from_slice(reply).unwrap_or_else(|e| {
        panic!(
            "[{name}] reply is not JSON ({e}): {:?}",
            String::from_utf8_lossy(reply)
        )
    });
    let Some(obj) = value.as_object() else {
        panic!("[{name}] reply is not an object: {value}");
    };
    assert_eq!(
        obj.get("jsonrpc"),
        Some(&Value::from("2.0")),
        "[{name}] {value}"
    );
    let reply_id = raw_id(reply).unwrap_or_else(|| panic!("[{name}] reply id unreadable: {value}"));
    if reply_id != "null" {
        assert!(
            is_integer(&reply_id) || reply_id.starts_with('"'),
            "[{name}] reply id must be null, a string or an integer: {value}"
        );
        if let Some(request_ids) = raw_ids(line.trim_ascii()) {
            assert_eq!(
                request_ids,
                [reply_id.as_str()],
                "[{name}] the reply's id is not the request's, for {:?}",
                show()
            );
        }
        assert!(
            String::from_utf8_lossy(line).contains(&reply_id),
            "[{name}] reply id {reply_id} is not in the request {:?}",
            show()
        );
    }
    match (obj.get("result"), obj.get("error")) {
        (Some(result), None) => check_result(fixture, result, &value, modern),
        (None, Some(error)) => check_error(fixture, error, &value),
        _ => panic!("[{name}] a reply has exactly one of result and error: {value}"),
    }
    assert_eq!(
        obj.len(),
        3,
        "[{name}] no members beyond jsonrpc, id, result|error: {value}"
    );
    value
}

fn is_integer(raw: &str) -> bool {
    let digits = raw.strip_prefix('-').unwrap_or(raw);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn check_result(fixture: &Fixture, result: &Value, reply: &Value, modern: bool) {
    let name = fixture.name;
    let identity = fixture.config.identity();
    let Some(result) = result.as_object() else {
        panic!("[{name}] result is not an object: {reply}");
    };
    if modern {
        assert_eq!(
            result.get("resultType"),
            Some(&Value::from("complete")),
            "[{name}] {reply}"
        );
        let info = &result["_meta"]["io.modelcontextprotocol/serverInfo"];
        assert_eq!(info["name"], identity.name.as_str(), "[{name}] {reply}");
        assert_eq!(
            info["version"],
            identity.version.as_str(),
            "[{name}] {reply}"
        );
    }
    if let Some(content) = result.get("content") {
        let blocks = content
            .as_array()
            .unwrap_or_else(|| panic!("[{name}] {reply}"));
        assert!(
            result.get("isError").is_some_and(Value::is_boolean),
            "[{name}] {reply}"
        );
        if let Some(structured) = result.get("structuredContent") {
            let text = blocks
                .first()
                .and_then(|b| b.get("text"))
                .and_then(Value::as_str)
                .unwrap_or_else(|| panic!("[{name}] structured result without text: {reply}"));
            let parsed: Value = serde_json::from_str(text)
                .unwrap_or_else(|e| panic!("[{name}] text is not the JSON ({e}): {reply}"));
            assert_eq!(
                &parsed, structured,
                "[{name}] text != structuredContent: {reply}"
            );
        }
    }
}

fn check_error(fixture: &Fixture, error: &Value, reply: &Value) {
    let name = fixture.name;
    let code = error["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("[{name}] error code is not an integer: {reply}"));
    assert!(
        crate::invariants::CODES.contains(&code),
        "[{name}] unknown error code: {reply}"
    );
    assert!(error["message"].is_string(), "[{name}] {reply}");
    if code == -32022 || error["data"].get("supported").is_some() {
        let mut all: Vec<&str> = fixture
            .config
            .versions()
            .iter()
            .map(String::as_str)
            .collect();
        all.extend(fixture.config.legacy_versions().iter().map(String::as_str));
        assert_eq!(
            error["data"]["supported"],
            Value::from(all),
            "[{name}] an error that lists versions must list every one served: {reply}"
        );
    }
    if code == -32022 {
        assert!(error["data"]["requested"].is_string(), "[{name}] {reply}");
    }
    if code == -32700 {
        assert!(
            reply["id"].is_null(),
            "[{name}] a parse error has id null: {reply}"
        );
    }
}

/// Answers `line` with `fixture`'s core and checks what holds for any line:
/// disposition and output agree, the reply (if any) passes [`check_reply`],
/// at most one tool ran and only a catalog tool through a `tools/call`
/// whose reply is a result, the same line gives the same bytes, and the
/// configuration is unchanged. Returns the reply and the tools that ran.
pub fn check_line(fixture: &Fixture, line: &[u8]) -> (Option<Vec<u8>>, Vec<&'static str>) {
    let name = fixture.name;
    let server = &fixture.server;
    let mut out = Vec::new();
    let mut counting = Counting::default();
    let disposition = server.respond_with(line, &mut out, &mut counting);
    let reply = match disposition {
        Disposition::Replied => {
            assert!(!out.is_empty(), "[{name}] Replied but wrote nothing");
            Some(out)
        }
        other => {
            assert!(out.is_empty(), "[{name}] {other:?} but wrote {out:?}");
            None
        }
    };
    let parsed = check_reply(fixture, line, reply.as_deref());
    check_runs(fixture, line, parsed.as_ref(), &counting.ran);
    check_duplicates(fixture, line, parsed.as_ref());
    assert_eq!(
        server.respond(line),
        reply,
        "[{name}] the same line gave different bytes"
    );
    assert!(
        server.config() == &fixture.config,
        "[{name}] the configuration changed"
    );
    (reply, counting.ran)
}

/// A message that names a member twice anywhere is ambiguous: no result,
/// only `-32600` (or silence, for a client's response). BRIEF decision 7.
fn check_duplicates(fixture: &Fixture, line: &[u8], reply: Option<&Value>) {
    let LineView::Object(members) = read_line(&fixture.config, line) else {
        return;
    };
    let mut names: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
    names.sort_unstable();
    let duplicate = names.windows(2).any(|w| w.first() == w.get(1))
        || members
            .iter()
            .any(|(_, m)| matches!(m, Member::Value(node) if node.has_duplicate()));
    if let (true, Some(reply)) = (duplicate, reply) {
        assert_eq!(
            reply["error"]["code"],
            -32600,
            "[{}] a message with a duplicate member name needs -32600: {reply} for {:?}",
            fixture.name,
            String::from_utf8_lossy(line)
        );
    }
}

fn check_runs(fixture: &Fixture, line: &[u8], reply: Option<&Value>, ran: &[&'static str]) {
    let name = fixture.name;
    assert!(ran.len() <= 1, "[{name}] more than one tool ran: {ran:?}");
    let Some(tool) = ran.first() else {
        return;
    };
    assert!(
        fixture.server.catalog().find(tool).is_some(),
        "[{name}] {tool} ran but is not in the catalog"
    );
    let reply = reply.unwrap_or_else(|| panic!("[{name}] {tool} ran but nothing was answered"));
    assert!(
        reply.get("result").is_some(),
        "[{name}] {tool} ran but the reply is an error: {reply}"
    );
    let request: Value = serde_json::from_slice(line.trim_ascii())
        .unwrap_or_else(|e| panic!("[{name}] {tool} ran for a line that is not JSON ({e})"));
    assert_eq!(
        request["method"], "tools/call",
        "[{name}] {tool} ran for {request}"
    );
    assert_eq!(
        request["params"]["name"], *tool,
        "[{name}] {tool} ran for {request}"
    );
}

/// `respond_bytes`: the input as one line, to the textbook server and to
/// the fixture its length picks (`len % fixtures`, so a trailing space
/// moves a line to the next fixture without changing what it says).
pub fn respond_bytes(data: &[u8]) {
    let fixtures = fixtures();
    if let Some(textbook) = fixtures.first() {
        check_line(textbook, data);
    }
    let pick = data.len() % fixtures.len();
    if pick != 0
        && let Some(fixture) = fixtures.get(pick)
    {
        check_line(fixture, data);
    }
}

/// `respond_structured`: one [`model::Request`], rendered for the fixture it
/// names, answered by the core, and held to the oracle.
pub fn respond_structured(data: &[u8]) {
    let Ok(request) = model::Request::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let fixtures = fixtures();
    let Some(fixture) = fixtures.get(usize::from(request.fixture) % fixtures.len()) else {
        return;
    };
    check_request(fixture, &request);
}

/// Checks the core's reply to `request` against the generic invariants and
/// the oracle.
pub fn check_request(fixture: &Fixture, request: &model::Request) {
    let name = fixture.name;
    let config = &fixture.config;
    let line = request.line(config);
    let (reply, ran) = check_line(fixture, &line);
    let expect = request.expect(config);
    let show = String::from_utf8_lossy(&line).into_owned();
    if let Some(runs) = expect.runs() {
        assert_eq!(ran.len(), runs, "[{name}] tools run {ran:?} for {show}");
    }
    match &expect {
        model::Expect::Unknown => {}
        model::Expect::Silence => {
            assert_eq!(reply, None, "[{name}] no reply expected to {show}");
        }
        model::Expect::Error {
            id,
            code,
            message,
            requested,
        } => {
            let reply = reply
                .as_deref()
                .unwrap_or_else(|| panic!("[{name}] no reply to {show}"));
            let v: Value = serde_json::from_slice(reply).unwrap_or_default();
            let got_id = raw_id(reply);
            assert_eq!(
                got_id.as_deref(),
                Some(id.as_deref().unwrap_or("null")),
                "[{name}] id of {v} for {show}"
            );
            assert_eq!(v["error"]["code"], *code, "[{name}] {v} for {show}");
            // A parse error's message depends on where the parser stopped
            // (depth limit or syntax), so only its code is pinned.
            if *code != -32700 {
                let message = match (*code, requested) {
                    (-32022, Some(r))
                        if *message == crate::meta::UNSUPPORTED
                            && config.legacy_versions().contains(r) =>
                    {
                        crate::meta::LEGACY_IN_META
                    }
                    _ => message,
                };
                assert_eq!(v["error"]["message"], *message, "[{name}] {v} for {show}");
            }
            if let Some(requested) = requested {
                assert_eq!(
                    v["error"]["data"]["requested"], *requested,
                    "[{name}] {v} for {show}"
                );
            }
        }
        model::Expect::Result { id, method, tool } => {
            let reply = reply
                .as_deref()
                .unwrap_or_else(|| panic!("[{name}] no reply to {show}"));
            let v: Value = serde_json::from_slice(reply).unwrap_or_default();
            assert_eq!(raw_id(reply).as_deref(), Some(id.as_str()), "[{name}] {v}");
            let result = v
                .get("result")
                .unwrap_or_else(|| panic!("[{name}] a result expected, got {v} for {show}"));
            check_result_content(fixture, method, tool.as_ref(), result, &v, &show);
        }
    }
    // clientInfo is self-reported: leaving it out changes nothing.
    if let Some(plain) = request.without_client_info()
        && request.comparable(config)
    {
        let other = fixture.server.respond(&plain.line(config));
        assert_eq!(
            other.as_deref().map(String::from_utf8_lossy),
            reply.as_deref().map(String::from_utf8_lossy),
            "[{name}] clientInfo changed the reply to {show}"
        );
    }
    // Not yours and not there are the same answer (BRIEF decision 12).
    if let model::Expect::Result {
        tool: Some((_, model::ToolOutcome::Forbidden)),
        ..
    } = &expect
        && !config
            .orders()
            .iter()
            .any(|o| o.order_id == model::NONEXISTENT_ORDER)
        && request.with_nonexistent_order().comparable(config)
    {
        let nonexistent = request.with_nonexistent_order();
        let other = fixture.server.respond(&nonexistent.line(config));
        assert_eq!(
            other.as_deref().map(String::from_utf8_lossy),
            reply.as_deref().map(String::from_utf8_lossy),
            "[{name}] forbidden and nonexistent differ for {show}"
        );
    }
}

fn check_result_content(
    fixture: &Fixture,
    method: &str,
    tool: Option<&(&'static str, model::ToolOutcome)>,
    result: &Value,
    reply: &Value,
    show: &str,
) {
    let name = fixture.name;
    let config = &fixture.config;
    match method {
        "server/discover" => {
            assert_eq!(
                result["supportedVersions"],
                Value::from(config.versions().to_vec()),
                "[{name}] {reply}"
            );
        }
        "tools/list" => {
            let mut expected = vec!["get_order"];
            if config.stock().is_some() {
                expected.push("lookup_stock");
            }
            let names: Vec<&str> = result["tools"]
                .as_array()
                .map(|t| t.iter().filter_map(|t| t["name"].as_str()).collect())
                .unwrap_or_default();
            assert_eq!(names, expected, "[{name}] {reply}");
        }
        _ => {}
    }
    let Some((_, outcome)) = tool else {
        return;
    };
    let is_error = result["isError"].as_bool();
    let structured = &result["structuredContent"];
    match outcome {
        model::ToolOutcome::Snapshot(id) => {
            let o = config
                .orders()
                .iter()
                .find(|o| &o.order_id == id)
                .unwrap_or_else(|| panic!("[{name}] oracle picked a missing order"));
            assert_eq!(is_error, Some(false), "[{name}] {reply} for {show}");
            assert_eq!(
                structured["order_id"],
                o.order_id.as_str(),
                "[{name}] {reply}"
            );
            assert_eq!(structured["status"], o.status.as_str(), "[{name}] {reply}");
            assert_eq!(structured["as_of"], o.as_of.as_str(), "[{name}] {reply}");
            assert_eq!(
                structured["source_version"],
                o.source_version.as_str(),
                "[{name}] {reply}"
            );
        }
        model::ToolOutcome::Stock(id, n) => {
            assert_eq!(is_error, Some(false), "[{name}] {reply} for {show}");
            assert_eq!(structured["product_id"], id.as_str(), "[{name}] {reply}");
            assert_eq!(structured["stock"], *n, "[{name}] {reply}");
        }
        model::ToolOutcome::Forbidden
        | model::ToolOutcome::UnknownProduct
        | model::ToolOutcome::InvalidArguments => {
            assert_eq!(is_error, Some(true), "[{name}] {reply} for {show}");
            assert!(structured.is_null(), "[{name}] {reply} for {show}");
        }
    }
}

/// `config_load`: the input as a configuration file. Either a clear,
/// one-line error, or a configuration whose server answers `server/discover`
/// and every order of the snapshot as the configuration says (and, through
/// the twin, the same bytes as without the orders the user may not read).
pub fn config_load(data: &[u8]) {
    let config = match Config::from_json(data) {
        Err(e) => {
            let message = e.to_string();
            assert!(!message.is_empty(), "an empty config error");
            assert!(
                !message
                    .chars()
                    .any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')),
                "a config error is one line of printable text: {message:?}"
            );
            return;
        }
        Ok(config) => config,
    };
    let fixture = Fixture::new("loaded", config);
    let mut discover = model::Request::textbook();
    discover.method = model::MethodModel::Discover;
    check_request(&fixture, &discover);
    // The first few orders (to keep the target fast), and one that does
    // not exist.
    let ids = fixture
        .config
        .orders()
        .iter()
        .take(4)
        .map(|o| o.order_id.as_str());
    for (n, order_id) in ids.chain([model::NONEXISTENT_ORDER]).enumerate() {
        let mut request = model::Request::textbook();
        request.id = model::IdModel::Int(i64::try_from(n).unwrap_or_default());
        request.set_order_id(model::OrderRef::Other(model::Text(order_id.to_string())));
        check_request(&fixture, &request);
    }
}

/// One line of a [`SessionInput`].
#[derive(Debug, Clone, Arbitrary)]
pub enum SessionLine {
    /// A modern request or other line from the request model.
    Request(Box<model::Request>),
    /// A legacy `initialize` (no `_meta`).
    Initialize {
        /// id
        id: i64,
        /// `protocolVersion`
        version: model::VersionModel,
        /// whether `capabilities` and `clientInfo` are there
        complete: bool,
    },
    /// `notifications/initialized`.
    Initialized,
    /// A legacy request: no `_meta`.
    Legacy {
        /// id
        id: i64,
        /// method
        method: model::MethodModel,
        /// tool name, for `tools/call`
        name: model::ToolName,
        /// the order id argument
        order: model::OrderRef,
    },
    /// Raw bytes (newlines removed).
    Raw(Vec<u8>),
}

/// The input of the `session` target.
#[derive(Debug, Clone, Arbitrary)]
pub struct SessionInput {
    /// the legacy fixture (true) or the textbook one
    pub legacy: bool,
    /// the lines, in order
    pub lines: Vec<SessionLine>,
}

impl SessionLine {
    fn line(&self, config: &Config) -> Vec<u8> {
        match self {
            SessionLine::Request(r) => r.line(config),
            SessionLine::Initialize {
                id,
                version,
                complete,
            } => {
                let mut params = String::from("{");
                if let Some(v) = version.string() {
                    params.push_str(&format!("\"protocolVersion\":{}", model::json_string(&v)));
                }
                if *complete {
                    if params.len() > 1 {
                        params.push(',');
                    }
                    params.push_str(
                        "\"capabilities\":{},\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"}",
                    );
                }
                params.push('}');
                format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"initialize\",\"params\":{params}}}"
                )
                .into_bytes()
            }
            SessionLine::Initialized => {
                b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}".to_vec()
            }
            SessionLine::Legacy {
                id,
                method,
                name,
                order,
            } => {
                let method = method.name().unwrap_or_else(|| "tools/call".into());
                let mut params = Vec::new();
                if let Some(name) = name.json() {
                    params.push(("name".to_string(), name));
                }
                if let Some(order) = model::order_id(config, order) {
                    params.push((
                        "arguments".to_string(),
                        model::J::Obj(vec![("order_id".into(), order)]),
                    ));
                }
                let message = model::J::Obj(vec![
                    ("jsonrpc".into(), model::J::Str("2.0".into())),
                    ("id".into(), model::J::Raw(id.to_string())),
                    ("method".into(), model::J::Str(method)),
                    ("params".into(), model::J::Obj(params)),
                ]);
                let mut text = String::new();
                message.render(&mut text);
                text.into_bytes()
            }
            SessionLine::Raw(bytes) => bytes.iter().copied().filter(|&b| b != b'\n').collect(),
        }
    }
}

/// `session`: a sequence of lines through one [`Session`] (and, in
/// lockstep, one of the twin server). Per line: the reply passes
/// [`check_reply_in`] and equals the twin's; at most one catalog tool runs,
/// for a result; a line of the modern era gets exactly the core's bytes,
/// whatever came before (statelessness), and a modern model request meets
/// the oracle; in the legacy era, nothing but `initialize` and `ping` is
/// served before a successful `initialize`, a second `initialize` is
/// refused, and `ping` is always answered.
pub fn session(data: &[u8]) {
    let Ok(input) = SessionInput::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let wanted = if input.legacy { "legacy" } else { "textbook" };
    let Some(fixture) = fixtures().iter().find(|f| f.name == wanted) else {
        panic!("no {wanted} fixture");
    };
    let name = fixture.name;
    let server = &fixture.server;
    let mut s = Session::new(server);
    let mut twin = Session::new(&fixture.twin);
    let mut initialized = false;
    for item in input.lines.iter().take(64) {
        let line = item.line(&fixture.config);
        let show = String::from_utf8_lossy(&line).into_owned();
        let mut out = Vec::new();
        let mut counting = Counting::default();
        let disposition = s.handle_with(&line, &mut out, &mut counting);
        let mut twin_out = Vec::new();
        twin.handle(&line, &mut twin_out);
        assert_eq!(
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&twin_out),
            "[{name}] the orders the user may not read changed the reply to {show}"
        );
        let reply = match disposition {
            Disposition::Replied => Some(out),
            other => {
                assert!(out.is_empty(), "[{name}] {other:?} but wrote {out:?}");
                None
            }
        };
        let era = match server.read(&line) {
            Line::Message(Message::Request { method, params, .. })
            | Line::Message(Message::Notification { method, params }) => Some((
                session::era_of(&method, params.as_ref()),
                method.into_owned(),
            )),
            _ => None,
        };
        let modern =
            !server.legacy().is_on() || matches!(era, None | Some((session::Era::Modern, _)));
        // Statelessness first, so that a session mishandling a modern line
        // is named as such.
        if modern {
            assert_eq!(
                reply.as_deref().map(String::from_utf8_lossy),
                server
                    .respond(&line)
                    .as_deref()
                    .map(String::from_utf8_lossy),
                "[{name}] the session changed the core's reply to {show}"
            );
        }
        // A modern line gets every check of the invariants module. A legacy
        // line gets its framing, envelope and structured-content checks
        // (its leak check compares with the core's replies, which a legacy
        // result is not); noninterference is the twin session's check above.
        let bytes = reply.as_deref().unwrap_or_default();
        let checked = match modern {
            true => fixture.checker.check(&line, bytes),
            false => crate::invariants::framing(bytes).and_then(|()| match reply.is_some() {
                true => serde_json::from_slice::<Value>(bytes)
                    .map_err(|e| e.to_string())
                    .and_then(|v| {
                        crate::invariants::envelope(&v)?;
                        v.get("result")
                            .map_or(Ok(()), crate::invariants::structured)
                    }),
                false => Ok(()),
            }),
        };
        if let Err(e) = checked {
            panic!("[{name}] {e}; line {show}");
        }
        let parsed = reply
            .as_ref()
            .map(|r| check_reply_in(fixture, &line, r, modern));
        if let Some(tool) = counting.ran.first() {
            assert!(counting.ran.len() == 1, "[{name}] {:?} ran", counting.ran);
            assert!(server.catalog().find(tool).is_some(), "[{name}] {tool} ran");
            assert!(
                parsed.as_ref().is_some_and(|p| p.get("result").is_some()),
                "[{name}] {tool} ran but the reply is not a result: {parsed:?}"
            );
        }
        if modern {
            if let SessionLine::Request(r) = item {
                check_request(fixture, r);
            }
            continue;
        }
        let (Some((_, method)), Some(parsed)) = (era, parsed) else {
            continue;
        };
        let is_result = parsed.get("result").is_some();
        match method.as_str() {
            "initialize" if initialized => assert!(
                !is_result,
                "[{name}] a second initialize must be refused: {parsed}"
            ),
            "initialize" => initialized = is_result,
            "ping" if matches!(item, SessionLine::Legacy { .. }) => {
                assert!(is_result, "[{name}] ping is always answered: {parsed}")
            }
            "ping" => {}
            _ if !initialized => assert!(
                !is_result,
                "[{name}] a legacy request before initialize was served: {show} -> {parsed}"
            ),
            _ => {}
        }
    }
}
