//! The model of the legacy path, rows L1 to L17 of `docs/behavior.md`
//! ("Legacy path"): a pure step function over the model's own session
//! state, `(state, configuration, line) -> (state, expectation)`.
//!
//! Which era a line belongs to is decided here from the tree, as the
//! contract's table says: a request or notification whose `params._meta`
//! holds one of the four modern keys is modern (the core answers it, L14),
//! `initialize` and everything else legacy. Lines the envelope refuses,
//! blank lines and oversized ones are the core's, whatever the state.

use serde_json::json;

use super::core::{self, Envelope, MODERN_KEYS, Read, Request};
use super::expect::{Body, Era, Expect, Reply};
use super::tree::Json;
use mcp_reference::Config;

/// Where a process stands in the legacy lifecycle.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum State {
    /// No `initialize` answered.
    #[default]
    Fresh,
    /// `initialize` answered with this version; `notifications/initialized`
    /// not yet received.
    Initialized(String),
    /// `notifications/initialized` received (L5).
    Operating(String),
}

impl State {
    /// The negotiated version, once there is one.
    pub fn version(&self) -> Option<&str> {
        match self {
            State::Fresh => None,
            State::Initialized(v) | State::Operating(v) => Some(v),
        }
    }
}

/// Whether a request or notification is modern: its `params._meta` holds
/// one of the four modern keys, and it is not `initialize`.
pub fn is_modern(method: &str, params: Option<&Json>) -> bool {
    let meta = params.and_then(|p| p.get("_meta"));
    method != "initialize" && meta.is_some_and(|m| MODERN_KEYS.iter().any(|k| m.get(k).is_some()))
}

/// The step function: the next state and what the reply to `line` must be.
/// With the legacy path off there is one state and the core answers.
pub fn step(config: &Config, state: &State, line: &[u8]) -> (State, Expect) {
    let (next, expect, _) = step_era(config, state, line);
    (next, expect)
}

/// [`step`], also saying which era answered: [`Era::Modern`] for every
/// line the stateless core answers (all of them with the legacy path off;
/// blank, oversized and unreadable lines, clients' responses and modern
/// requests with it on), [`Era::Legacy`] for the session's own.
pub fn step_era(config: &Config, state: &State, line: &[u8]) -> (State, Expect, Era) {
    if config.legacy_versions().is_empty() {
        return (state.clone(), core::expect_line(config, line), Era::Modern);
    }
    let (parsed, cr) = match core::read(config, line) {
        Read::Done(expect) => return (state.clone(), expect, Era::Modern),
        Read::Message(parsed, cr) => (parsed, cr),
    };
    let modern = |e: Expect| (state.clone(), e, Era::Modern);
    let (next, expect, era) = match core::envelope(&parsed) {
        Envelope::Done(expect) => modern(expect),
        Envelope::Request(r) if is_modern(r.method, r.params) => {
            modern(core::answer(config, &r).note("L14"))
        }
        Envelope::Notification { method, params } if is_modern(method, params) => {
            modern(Expect::new("E16", Reply::Silence).note("L14"))
        }
        Envelope::Notification { method, .. } => {
            let next = match (state, method) {
                (State::Initialized(v), "notifications/initialized") => State::Operating(v.clone()),
                _ => state.clone(),
            };
            let row = if method == "notifications/initialized" {
                "L5"
            } else {
                "E16"
            };
            (next, Expect::new(row, Reply::Silence), Era::Legacy)
        }
        Envelope::Request(r) => {
            let (next, expect) = serve(config, state, &r);
            (next, r.noted(expect), Era::Legacy)
        }
    };
    (next, if cr { expect.note("F2") } else { expect }, era)
}

/// A legacy request: L13 (`params` and `_meta` objects), L7 (`ping`), L1
/// to L4 (`initialize`), L6 (before `initialize`), L8 to L12 (served).
pub fn serve(config: &Config, state: &State, r: &Request<'_>) -> (State, Expect) {
    let id = r.id.clone();
    let relabel = |row: &'static str, mut e: Expect| {
        e.notes.insert(0, e.row);
        e.row = row;
        e
    };
    let params = match r.params {
        None => &Json::Null,
        Some(p @ Json::Obj(_)) => p,
        Some(_) => return (state.clone(), relabel("L13", Expect::fixed("M2", Some(id)))),
    };
    if params.get("_meta").is_some_and(|m| !m.is_object()) {
        return (state.clone(), relabel("L13", Expect::fixed("M4", Some(id))));
    }
    let result = |row: &'static str, body: Body| {
        Expect::new(
            row,
            Reply::Result {
                id: id.clone(),
                era: Era::Legacy,
                body,
            },
        )
    };
    match (state.version(), r.method) {
        (_, "ping") => (state.clone(), result("L7", Body::Empty)),
        (None, "initialize") => {
            let object = |k: &str| params.get(k).is_some_and(Json::is_object);
            let requested = params.get("protocolVersion").and_then(Json::as_str);
            match requested {
                Some(v) if object("capabilities") && object("clientInfo") => {
                    let served = config.legacy_versions().iter().any(|s| s == v);
                    let (row, version) = if served {
                        ("L1", v.to_string())
                    } else {
                        ("L2", newest_legacy(config))
                    };
                    (
                        State::Initialized(version.clone()),
                        result(row, Body::Initialize(version)),
                    )
                }
                _ => (state.clone(), Expect::fixed("L3", Some(id))),
            }
        }
        (None, _) => {
            let (code, message) = super::rows::fixed("L6");
            let data = json!({ "supported": core::supported_versions(config) });
            let expect = Expect::new(
                "L6",
                Reply::Error {
                    id: Some(id),
                    code,
                    message,
                    data: Some(data),
                },
            );
            (state.clone(), expect.note("L17"))
        }
        (Some(_), "initialize") => (state.clone(), Expect::fixed("L4", Some(id))),
        (Some(version), method) => (
            state.clone(),
            initialized(config, version, method, params, &id),
        ),
    }
}

/// Rows L8 to L12: a request in an initialized process under `version`.
fn initialized(config: &Config, version: &str, method: &str, params: &Json, id: &str) -> Expect {
    match method {
        "tools/list" if params.get("cursor").is_some() => {
            let e = Expect::fixed("D3", Some(id.to_string()));
            Expect {
                row: "L8",
                notes: vec!["D3"],
                reply: e.reply,
                notices: Vec::new(),
            }
        }
        "tools/list" => Expect::new(
            "L8",
            Reply::Result {
                id: id.to_string(),
                era: Era::Legacy,
                body: Body::ToolsList,
            },
        ),
        "tools/call" => {
            let e = core::call(config, id, params, Era::Legacy);
            match e.body() {
                Some(Body::InvalidArguments(_)) if version == "2025-06-18" => {
                    Expect::fixed("L10", Some(id.to_string())).note(e.row)
                }
                Some(Body::InvalidArguments(_)) => Expect {
                    row: "L11",
                    notes: vec![e.row],
                    reply: e.reply,
                    notices: Vec::new(),
                },
                _ => Expect {
                    row: "L9",
                    notes: std::iter::once(e.row).chain(e.notes).collect(),
                    reply: e.reply,
                    notices: Vec::new(),
                },
            }
        }
        _ => Expect::fixed("L12", Some(id.to_string())),
    }
}

/// The newest legacy version served (versions are dates, so the greatest
/// string is the newest).
fn newest_legacy(config: &Config) -> String {
    config
        .legacy_versions()
        .iter()
        .max()
        .cloned()
        .unwrap_or_default()
}
