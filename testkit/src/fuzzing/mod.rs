//! The checks behind the fuzz targets: one function per target, each taking
//! the raw fuzzer input and panicking when an invariant breaks or the reply
//! is not the one the model ([`crate::model`], the executable
//! `docs/behavior.md`) says.
//!
//! The targets in `fuzz/fuzz_targets/` are three-line wrappers around these
//! functions, and `tests/fuzz_replay.rs` runs every committed corpus file and
//! crash artifact through the same functions on stable Rust, so a bug a
//! fuzzer once found stays fixed without nightly.
//!
//! | target | input | what it asserts beyond "no panic" |
//! | --- | --- | --- |
//! | [`respond_bytes`] | raw bytes as one line | the model's exact reply and the invariants of [`Checker`], tools run as the model says, determinism, the configuration unchanged; for the textbook server and for the fixture the length picks |
//! | [`respond_structured`] | an [`arbitrary`]-decoded [`model::Request`], rendered by [`render`] | the same, plus forbidden == nonexistent byte for byte (T5) and `clientInfo` changes nothing (M16) |
//! | [`config_load`] | raw bytes as a configuration file | a one-line error, or a server that answers discover and every order as the model says |
//! | [`judge()`] | a binding, a server, then client messages (stdio lines or HTTP requests) | the client judge never passes a session with a message the core could not read, its report is consistent and parses, and it is deterministic |
//! | [`session`] | an [`arbitrary`]-decoded sequence of lines | per line: the model's reply from its own session state (rows L1 to L17), the twin session's bytes (noninterference), tools run as the model says; lines of the modern era get the core's bytes whatever came before (statelessness) and every invariant; a session whose lines are independent never leaves its first state |
//!
//! `arbitrary` is a normal (not optional) dependency of the library: it is
//! small, has no dependencies of its own besides its derive macro, and
//! being always there is what lets the stable replay test decode the
//! structured corpus files exactly as the fuzz targets do, without a cargo
//! feature that `cargo test` would have to turn on.
//!
//! Spec: the invariants are those `README.md` and `docs/fuzzing.md` list;
//! the rules are those of `docs/behavior.md`, as [`crate::model`] executes
//! them.

pub mod http;
pub mod http_auth;
pub mod judge;
pub mod model;
pub mod mrtr;
#[cfg(test)]
mod profile;
pub mod render;
pub use self::http::http;
pub use self::http_auth::http_auth;
pub use self::judge::judge;
pub use self::mrtr::mrtr;

use std::sync::OnceLock;

use crate::invariants::Checker;
use crate::model::{self as oracle, Body, Era, Expect, Json};
use arbitrary::{Arbitrary, Unstructured};
use mcp_reference::Session;
use mcp_reference::{Call, Executor};
use mcp_reference::{Config, Order, StockItem};
use mcp_reference::{Disposition, Server};

/// The check function of a fuzz target: panics when an invariant breaks.
pub type Target = fn(&[u8]);

/// The fuzz targets, by name, as `fuzz/Cargo.toml` declares them.
pub const TARGETS: &[(&str, Target)] = &[
    ("respond_bytes", respond_bytes),
    ("respond_structured", respond_structured),
    ("config_load", config_load),
    ("session", session),
    ("http", http),
    ("http_auth", http_auth),
    ("mrtr", mrtr),
    ("judge", judge),
];

/// An executor that counts which tools ran.
#[derive(Debug, Default)]
pub struct Counting {
    /// The names of the tools executed, in order.
    pub ran: Vec<String>,
}

impl Executor for Counting {
    fn run<'t>(&mut self, call: Call<'t, '_>) -> &'t [u8] {
        self.ran.push(call.name().to_owned());
        call.run()
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
    /// The configuration it was built from, to check it never changes.
    pub config: Config,
}

impl Fixture {
    /// Builds the server and its checks.
    pub fn new(name: &'static str, config: Config) -> Fixture {
        let checker = Checker::try_new(&config)
            .unwrap_or_else(|e| panic!("[{name}] dropping orders made the config invalid: {e}"));
        Fixture {
            name,
            server: Server::new(config.clone()),
            checker,
            config,
        }
    }

    /// The same configuration without the orders the user may not read
    /// (the checker's), for the session target's twin session (a session's
    /// reply may depend on what came before, so it is compared with a twin
    /// fed the same lines).
    pub fn twin(&self) -> &Server {
        self.checker.public()
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

fn build(config: Result<Config, mcp_reference::ConfigError>) -> Config {
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
            // Resources, prompts and completion (issue 32): the example
            // configuration, which offers the whole catalog.
            Fixture::new(
                "catalog",
                build(Config::from_json(include_bytes!(
                    "../../../data/config.example.json"
                ))),
            ),
        ]
    })
}

/// Checks the core's reply to `line` (`None`: no reply) against every
/// invariant of [`Checker::check`] and against the model's expectation.
/// Panics, naming the fixture and the line, when either fails.
pub fn check_reply(fixture: &Fixture, line: &[u8], reply: Option<&[u8]>) {
    let expect = oracle::expect_line(&fixture.config, line);
    check_expected(fixture, line, reply, &expect);
}

fn show(line: &[u8]) -> String {
    String::from_utf8_lossy(line).into_owned()
}

/// [`Checker::check_with`], panicking on failure.
fn check_expected(fixture: &Fixture, line: &[u8], reply: Option<&[u8]>, expect: &Expect) {
    let bytes = reply.unwrap_or_default();
    if let Err(e) = fixture.checker.check_with(line, bytes, expect) {
        panic!("[{}] {e}; line {:?}", fixture.name, show(line));
    }
}

/// At most one tool ran, a catalog tool, and exactly the one the model
/// says (when it can tell; else only for a reply that is a result).
fn check_runs(fixture: &Fixture, expect: &Expect, reply: Option<&[u8]>, ran: &[String]) {
    let name = fixture.name;
    assert!(ran.len() <= 1, "[{name}] more than one tool ran: {ran:?}");
    if let Some(tool) = ran.first() {
        assert!(
            fixture.server.catalog().find(tool).is_some(),
            "[{name}] {tool} ran but is not in the catalog"
        );
    }
    match expect.runs() {
        Some(tool) => {
            if ran.first().map(String::as_str) != tool || ran.len() > 1 {
                let want: Vec<&str> = tool.into_iter().collect();
                panic!(
                    "[{name}] tools run, row {}: ran {ran:?}, expected {want:?}",
                    expect.row
                );
            }
        }
        None => {
            if let Some(tool) = ran.first() {
                let result = reply
                    .and_then(|r| oracle::read_reply_tree(r).ok())
                    .is_some_and(|r| r.result().is_some());
                assert!(result, "[{name}] {tool} ran but the reply is not a result");
            }
        }
    }
}

/// The reply a core or session wrote (`None`: none), after checking that
/// the disposition says the same: `Replied` with bytes, anything else with
/// none.
fn reply_of(name: &str, disposition: Disposition, out: Vec<u8>) -> Option<Vec<u8>> {
    match disposition {
        Disposition::Replied => {
            assert!(!out.is_empty(), "[{name}] Replied but wrote nothing");
            Some(out)
        }
        other => {
            assert!(out.is_empty(), "[{name}] {other:?} but wrote {out:?}");
            None
        }
    }
}

/// Answers `line` with `fixture`'s core and checks what holds for any line:
/// disposition and output agree, the reply passes [`Checker::check`] and
/// the model's expectation, the tools run are the ones the model says, the
/// same line gives the same bytes, and the configuration is unchanged.
/// Returns the reply, the tools that ran and the expectation.
pub fn check_line(fixture: &Fixture, line: &[u8]) -> (Option<Vec<u8>>, Vec<String>, Expect) {
    let name = fixture.name;
    let server = &fixture.server;
    let mut out = Vec::new();
    let mut counting = Counting::default();
    let disposition = server.respond_with(line, &mut out, &mut counting);
    let reply = reply_of(name, disposition, out);
    let expect = oracle::expect_line(&fixture.config, line);
    check_expected(fixture, line, reply.as_deref(), &expect);
    check_runs(fixture, &expect, reply.as_deref(), &counting.ran);
    let again = server.respond(line);
    if again != reply {
        panic!(
            "[{name}] the same line gave different bytes: {:?}, then {:?}; line {:?}",
            reply.as_deref().map(String::from_utf8_lossy),
            again.as_deref().map(String::from_utf8_lossy),
            show(line)
        );
    }
    assert!(
        server.config() == &fixture.config,
        "[{name}] the configuration changed"
    );
    (reply, counting.ran, expect)
}

/// `respond_bytes`: the input as one line, to the fixtures of
/// [`respond_bytes_fixtures`].
pub fn respond_bytes(data: &[u8]) {
    for fixture in respond_bytes_fixtures(data) {
        check_line(fixture, data);
    }
}

/// The fixtures `respond_bytes` answers `data` with: the textbook one, and
/// the one its length picks (`len % fixtures`, so a trailing space moves a
/// line to the next fixture without changing what it says) when that is
/// another.
pub fn respond_bytes_fixtures(data: &[u8]) -> impl Iterator<Item = &'static Fixture> {
    let fixtures = fixtures();
    let pick = data.len() % fixtures.len();
    let picked = fixtures.get(pick).filter(|_| pick != 0);
    fixtures.first().into_iter().chain(picked)
}

/// `respond_structured`: one [`model::Request`], rendered for the fixture it
/// names, answered by the core, and held to the oracle.
pub fn respond_structured(data: &[u8]) {
    let Some((request, fixture)) = structured_input(data) else {
        return;
    };
    check_request(fixture, &request);
}

/// What `respond_structured` decodes from `data`: the request and the
/// fixture it names, or `None` when the bytes do not decode.
pub fn structured_input(data: &[u8]) -> Option<(model::Request, &'static Fixture)> {
    let request = model::Request::arbitrary_take_rest(Unstructured::new(data)).ok()?;
    let fixtures = fixtures();
    let fixture = fixtures.get(usize::from(request.fixture) % fixtures.len())?;
    Some((request, fixture))
}

/// Checks the core's reply to `request` with [`check_line`], then the
/// variations the model's rows promise change nothing: leaving a valid
/// `clientInfo` out (M16), and asking for an order that does not exist
/// instead of one the user may not read (T5, DEC12).
pub fn check_request(fixture: &Fixture, request: &model::Request) {
    let tree = request.tree(&fixture.config);
    let line = request.framed(tree.render());
    let (reply, _, expect) = check_line(fixture, &line);
    check_variations(fixture, request, (&line, &tree), reply.as_deref(), &expect);
}

/// The variations of [`check_request`], for `request`, already rendered
/// (its line and tree for the fixture) and answered (`reply`, `None`: no
/// reply) as the model expects (`expect`).
fn check_variations(
    fixture: &Fixture,
    request: &model::Request,
    (line, tree): (&[u8], &Json),
    reply: Option<&[u8]>,
    expect: &Expect,
) {
    let name = fixture.name;
    let config = &fixture.config;
    let differ = |what: &str, other: Option<&[u8]>| -> ! {
        panic!(
            "[{name}] {what} for {:?}: {:?} against {:?}",
            show(line),
            other.map(String::from_utf8_lossy),
            reply.map(String::from_utf8_lossy)
        )
    };
    if let Some(plain) = request.without_client_info()
        && request.comparable_with(config, line, tree)
    {
        let other = fixture.server.respond(&plain.line(config));
        if other.as_deref() != reply {
            differ("clientInfo changed the reply", other.as_deref());
        }
    }
    if expect.body() == Some(&Body::NotVisible)
        && !config
            .orders()
            .iter()
            .any(|o| o.order_id == model::NONEXISTENT_ORDER)
    {
        let nonexistent = request.with_nonexistent_order();
        let tree = nonexistent.tree(config);
        let line = nonexistent.framed(tree.render());
        if nonexistent.comparable_with(config, &line, &tree) {
            let other = fixture.server.respond(&line);
            if other.as_deref() != reply {
                differ("forbidden and nonexistent differ", other.as_deref());
            }
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
    for request in config_load_requests(&fixture.config) {
        check_request(&fixture, &request);
    }
}

/// The requests `config_load` sends a loaded configuration's server:
/// `server/discover`, then `get_order` for the first few orders (to keep
/// the target fast) and for one that does not exist.
pub fn config_load_requests(config: &Config) -> Vec<model::Request> {
    let mut discover = model::Request::textbook();
    discover.method = model::MethodModel::Discover;
    let ids = config.orders().iter().take(4).map(|o| o.order_id.as_str());
    let orders = ids
        .chain([model::NONEXISTENT_ORDER])
        .enumerate()
        .map(|(n, order_id)| {
            let mut request = model::Request::textbook();
            request.id = model::IdModel::Int(i64::try_from(n).unwrap_or_default());
            request.set_order_id(model::OrderRef::Other(model::Text(order_id.to_string())));
            request
        });
    std::iter::once(discover).chain(orders).collect()
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

impl SessionInput {
    /// The fixture the session runs on: the legacy one or the textbook one.
    pub fn fixture(&self) -> &'static Fixture {
        let wanted = if self.legacy { "legacy" } else { "textbook" };
        match fixtures().iter().find(|f| f.name == wanted) {
            Some(fixture) => fixture,
            None => panic!("no {wanted} fixture"),
        }
    }
}

impl SessionLine {
    /// The line's bytes, rendered for `config` (newlines removed from
    /// [`SessionLine::Raw`]).
    pub fn line(&self, config: &Config) -> Vec<u8> {
        match self {
            SessionLine::Request(r) => r.line(config),
            SessionLine::Initialize {
                id,
                version,
                complete,
            } => {
                let mut params = Vec::new();
                if let Some(v) = version.string() {
                    params.push(("protocolVersion".to_string(), Json::str(v)));
                }
                if *complete {
                    params.push(("capabilities".into(), model::obj(Vec::new())));
                    let info = vec![
                        ("name".into(), Json::str("fuzz")),
                        ("version".into(), Json::str("1")),
                    ];
                    params.push(("clientInfo".into(), model::obj(info)));
                }
                model::obj(vec![
                    ("jsonrpc".into(), Json::str("2.0")),
                    ("id".into(), Json::int(id)),
                    ("method".into(), Json::str("initialize")),
                    ("params".into(), model::obj(params)),
                ])
                .render()
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
                if let Some(order) = render::order_id(config, order) {
                    params.push((
                        "arguments".to_string(),
                        model::obj(vec![("order_id".into(), order)]),
                    ));
                }
                model::obj(vec![
                    ("jsonrpc".into(), Json::str("2.0")),
                    ("id".into(), Json::int(id)),
                    ("method".into(), Json::str(method)),
                    ("params".into(), model::obj(params)),
                ])
                .render()
            }
            SessionLine::Raw(bytes) => bytes.iter().copied().filter(|&b| b != b'\n').collect(),
        }
    }
}

/// `session`: a sequence of lines through one [`Session`] (and, in
/// lockstep, one of the twin server), and through the model's own session
/// state ([`crate::model::legacy::step_era`]). Per line: the reply is the
/// model's (which covers the lifecycle: nothing but `initialize` and `ping`
/// served before a successful `initialize`, a second `initialize` refused,
/// `ping` always answered) and equals the twin's (noninterference); the
/// tools run are the model's; a line the model gives to the modern era gets
/// exactly the core's bytes, whatever came before (statelessness), and
/// every invariant of [`Checker::check`]; a modern model request also gets
/// [`check_request`]'s variations.
pub fn session(data: &[u8]) {
    let Ok(input) = SessionInput::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let fixture = input.fixture();
    let name = fixture.name;
    let config = &fixture.config;
    let server = &fixture.server;
    let mut s = Session::new(server);
    let mut twin = Session::new(fixture.twin());
    let mut state = oracle::State::Fresh;
    for item in input.lines.iter().take(64) {
        // A model request is rendered once: its tree serves the variations.
        let (line, tree) = match item {
            SessionLine::Request(r) => {
                let tree = r.tree(config);
                (r.framed(tree.render()), Some(tree))
            }
            other => (other.line(config), None),
        };
        let (next, expect, era) = oracle::legacy::step_era(config, &state, &line);
        let mut out = Vec::new();
        let mut counting = Counting::default();
        let disposition = s.handle_with(&line, &mut out, &mut counting);
        let mut twin_out = Vec::new();
        twin.handle(&line, &mut twin_out);
        if out != twin_out {
            panic!(
                "[{name}] the orders the user may not read changed the reply to {:?}: {:?} without them, {:?} with them",
                show(&line),
                String::from_utf8_lossy(&twin_out),
                String::from_utf8_lossy(&out)
            );
        }
        let reply = reply_of(name, disposition, out);
        // Statelessness first, so that a session mishandling a modern line
        // is named as such.
        if era == Era::Modern {
            let core = server.respond(&line);
            if core != reply {
                panic!(
                    "[{name}] the session changed the core's reply to {:?}: {:?}, the core's {:?}",
                    show(&line),
                    reply.as_deref().map(String::from_utf8_lossy),
                    core.as_deref().map(String::from_utf8_lossy)
                );
            }
            check_expected(fixture, &line, reply.as_deref(), &expect);
        } else if let Err(e) = expect.check(config, reply.as_deref().unwrap_or_default()) {
            panic!("[{name}] the model disagrees: {e}; line {:?}", show(&line));
        }
        check_runs(fixture, &expect, reply.as_deref(), &counting.ran);
        assert!(
            server.config() == config,
            "[{name}] the configuration changed"
        );
        // The session's reply to a modern line is the core's (checked
        // above), so the variations compare with it.
        if era == Era::Modern
            && let (SessionLine::Request(r), Some(tree)) = (item, &tree)
        {
            check_variations(fixture, r, (&line, tree), reply.as_deref(), &expect);
        }
        // What the stdio driver relies on to answer a batch on two threads,
        // each with a session of its own: a session whose lines are
        // independent never leaves its first state, whatever the lines.
        if s.lines_are_independent() && s.state() != mcp_reference::State::Fresh {
            panic!(
                "[{name}] a session whose lines are independent moved to {:?} on {:?}",
                s.state(),
                show(&line)
            );
        }
        state = next;
    }
}
