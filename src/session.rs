//! What belongs to a stdio process rather than to a request: the opt-in
//! legacy `initialize` session.
//!
//! Modern (2026-07-28) requests carry everything they need and are answered
//! by the stateless core; nothing in this module may change their replies.
//! The session exists for the legacy path (`--legacy`), whose handshake is
//! scoped to the process: [`step`] is `(state, configuration, line) ->
//! (state, output)`, pure like the core.
//!
//! With the legacy path off (the default) there is one state and every line
//! goes to the core unchanged, byte for byte.
//!
//! With it on, each line is given to one era:
//!
//! | line | era |
//! | --- | --- |
//! | blank, too long, not JSON, not a valid JSON-RPC object, a client's response | neither: the core answers it (the envelope rules are the same in all three versions) |
//! | a request or notification whose `params._meta` holds any `io.modelcontextprotocol/` request key (`protocolVersion`, `clientCapabilities`, `clientInfo`, `logLevel`) | modern: the core answers it, whatever the state |
//! | `initialize` | legacy, whatever its `_meta` |
//! | any other request or notification | legacy |
//!
//! The legacy states and what a legacy request gets in each:
//!
//! | state | `initialize` | `ping` | any other request |
//! | --- | --- | --- | --- |
//! | [`State::Fresh`] | negotiated: its `InitializeResult`, to [`State::Initialized`] (malformed params: `-32602`, no change) | `{}` | `-32602` (row L6) |
//! | [`State::Initialized`] | `-32600` (row L4) | `{}` | served under the negotiated version |
//! | [`State::Operating`] | `-32600` (row L4) | `{}` | served under the negotiated version |
//!
//! What each legacy request gets is [`crate::legacy::Legacy::answer`]'s
//! business; this module keeps only the state machine: which era a line
//! belongs to, and how the state moves.
//!
//! `notifications/initialized` (legacy era) moves [`State::Initialized`] to
//! [`State::Operating`]; every other notification changes nothing. Before
//! any of these, `params` must be an object when present and its `_meta` an
//! object when present (`-32602`), as in every version.
//!
//! Spec: 2026-07-28 `basic/versioning.mdx`, "Backward Compatibility with
//! Initialization-Based Versions" (a request carrying modern `_meta` is
//! served statelessly; an `initialize` request selects legacy semantics,
//! scoped to the stdio process; a dual-era server MAY serve both eras on
//! one process); 2025-11-25 and 2025-06-18 `basic/lifecycle.mdx`
//! ("Initialization", "Version Negotiation") and `basic/utilities/
//! ping.mdx`. Where those are silent (a request before `initialize`, a
//! second `initialize`) the choices are argued in `docs/behavior.md`,
//! "Legacy path".

use crate::envelope::{self, Id, Message};
use crate::error::RpcError;
use crate::legacy::LegacyVersion;
use crate::meta::{MetaField, ParamsField};
use crate::server::{Disposition, Line, Server};
use crate::tools::{Direct, Executor};

/// Where a process stands in the legacy lifecycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum State {
    /// No `initialize` has been answered (always so with the legacy path off).
    #[default]
    Fresh,
    /// `initialize` was answered with this version; `notifications/initialized`
    /// has not arrived yet.
    Initialized(LegacyVersion),
    /// `notifications/initialized` arrived: normal operation.
    Operating(LegacyVersion),
}

impl State {
    /// The negotiated legacy version, once there is one.
    pub fn version(self) -> Option<LegacyVersion> {
        match self {
            State::Fresh => None,
            State::Initialized(v) | State::Operating(v) => Some(v),
        }
    }
}

/// Which era a message belongs to, when the legacy path is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Era {
    /// 2026-07-28: answered by the stateless core.
    Modern,
    /// The legacy session.
    Legacy,
}

/// Whether `params._meta` holds a modern per-request key.
fn carries_modern_meta(params: Option<&ParamsField<'_>>) -> bool {
    match params {
        Some(ParamsField::Object(p)) => match &p.meta {
            MetaField::Object(m) => {
                m.protocol_version.is_some()
                    || m.client_capabilities_ok.is_some()
                    || m.client_info_ok.is_some()
                    || m.log_level.is_some()
            }
            _ => false,
        },
        _ => false,
    }
}

/// The era of a request or notification for `method` with `params`.
pub(crate) fn era_of(method: &str, params: Option<&ParamsField<'_>>) -> Era {
    if method != "initialize" && carries_modern_meta(params) {
        Era::Modern
    } else {
        Era::Legacy
    }
}

/// The transition function: answers `line` in `state`, appending the reply
/// (if any) to `out`, and returns the next state.
pub(crate) fn step<E: Executor>(
    server: &Server,
    state: State,
    line: &[u8],
    out: &mut Vec<u8>,
    executor: &mut E,
    now: u64,
) -> (State, Disposition) {
    if !server.legacy().is_on() {
        return (state, server.respond_at(line, out, executor, now));
    }
    let message = match server.read(line) {
        Line::Blank => return (state, Disposition::Blank),
        Line::Oversized => {
            server.write_oversized(out);
            return (state, Disposition::Replied);
        }
        Line::Message(message) => message,
    };
    match message {
        Message::Request { id, method, params }
            if era_of(&method, params.as_ref()) == Era::Legacy =>
        {
            let answer = server.legacy().answer(
                server.catalog(),
                state.version(),
                &method,
                params.as_ref(),
                executor,
            );
            match answer.reply {
                Ok(body) => envelope::write_result(out, &id, body),
                Err(error) => write_error(server, out, &id, &error),
            }
            let next = match answer.negotiated {
                Some(version) => State::Initialized(version),
                None => state,
            };
            (next, Disposition::Replied)
        }
        Message::Notification { method, params }
            if era_of(&method, params.as_ref()) == Era::Legacy =>
        {
            let next = match (state, method.as_ref()) {
                (State::Initialized(v), "notifications/initialized") => State::Operating(v),
                _ => state,
            };
            (next, Disposition::Notification)
        }
        message => (state, server.answer_at(message, out, executor, now)),
    }
}

fn write_error(server: &Server, out: &mut Vec<u8>, id: &Id<'_>, error: &RpcError<'_>) {
    envelope::write_error(out, Some(id), error, server.versions().supported_json());
}

/// The per-process state around a [`Server`].
pub struct Session<'s> {
    server: &'s Server,
    state: State,
}

impl<'s> Session<'s> {
    /// A fresh process.
    pub fn new(server: &'s Server) -> Self {
        Session {
            server,
            state: State::Fresh,
        }
    }

    /// The server behind the session.
    pub fn server(&self) -> &'s Server {
        self.server
    }

    /// Where the process stands in the legacy lifecycle.
    pub fn state(&self) -> State {
        self.state
    }

    /// Whether every line's reply is independent of every other line: so
    /// when the legacy path is off, the one case where the state never
    /// moves. A driver may then answer lines on several threads, each with
    /// a session of its own, as long as it writes the replies in the order
    /// of the lines.
    pub fn lines_are_independent(&self) -> bool {
        !self.server.legacy().is_on()
    }

    /// Handles one line, appending the reply (if any) to `out`.
    pub fn handle(&mut self, line: &[u8], out: &mut Vec<u8>) -> Disposition {
        self.handle_with(line, out, &mut Direct)
    }

    /// Handles one line, running tools through `executor`, at the epoch.
    pub fn handle_with<E: Executor>(
        &mut self,
        line: &[u8],
        out: &mut Vec<u8>,
        executor: &mut E,
    ) -> Disposition {
        self.handle_at(line, out, executor, 0)
    }

    /// Handles one line at `now` (seconds since 1970), the time a multi
    /// round-trip request's `requestState` is issued and checked at
    /// ([`Server::respond_at`]).
    pub fn handle_at<E: Executor>(
        &mut self,
        line: &[u8],
        out: &mut Vec<u8>,
        executor: &mut E,
        now: u64,
    ) -> Disposition {
        let (next, disposition) = step(self.server, self.state, line, out, executor, now);
        self.state = next;
        disposition
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use serde_json::{Value, json};

    fn legacy_server(versions: &[&str]) -> Server {
        Server::new(
            Config::default()
                .with_legacy_versions(versions.iter().map(|v| v.to_string()).collect())
                .unwrap(),
        )
    }

    fn send(session: &mut Session<'_>, line: &Value) -> Option<Value> {
        let mut out = Vec::new();
        match session.handle(line.to_string().as_bytes(), &mut out) {
            Disposition::Replied => Some(serde_json::from_slice(&out).unwrap()),
            _ => {
                assert!(out.is_empty());
                None
            }
        }
    }

    fn initialize(id: i64, version: &str) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
    }

    fn initialized() -> Value {
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    }

    fn legacy(id: i64, method: &str, params: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }

    fn modern(id: i64, method: &str) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}}})
    }

    #[test]
    fn off_is_the_core_byte_for_byte() {
        let server = Server::new(Config::default());
        let mut session = Session::new(&server);
        assert!(session.lines_are_independent());
        for line in [
            initialize(1, "2025-11-25"),
            initialized(),
            legacy(2, "tools/list", json!({})),
            legacy(3, "ping", json!({})),
            modern(4, "tools/list"),
        ] {
            let bytes = line.to_string();
            let mut out = Vec::new();
            session.handle(bytes.as_bytes(), &mut out);
            assert_eq!(
                Some(out),
                server.respond(bytes.as_bytes()).or(Some(Vec::new()))
            );
            assert_eq!(session.state(), State::Fresh);
        }
    }

    #[test]
    fn the_handshake_and_its_states() {
        let server = legacy_server(&["2025-11-25", "2025-06-18"]);
        let mut session = Session::new(&server);
        assert!(!session.lines_are_independent());
        assert_eq!(session.state(), State::Fresh);
        let before = send(&mut session, &legacy(1, "tools/list", json!({}))).unwrap();
        assert_eq!(before["error"]["code"], -32602);
        assert_eq!(
            before["error"]["data"]["supported"],
            json!(["2026-07-28", "2025-11-25", "2025-06-18"])
        );
        assert_eq!(session.state(), State::Fresh);
        // initialized before initialize: ignored.
        assert_eq!(send(&mut session, &initialized()), None);
        assert_eq!(session.state(), State::Fresh);

        let reply = send(&mut session, &initialize(2, "2025-06-18")).unwrap();
        assert_eq!(reply["result"]["protocolVersion"], "2025-06-18");
        assert_eq!(
            session.state(),
            State::Initialized(LegacyVersion::V2025_06_18)
        );
        // Requests are served between the reply and notifications/initialized.
        let list = send(&mut session, &legacy(3, "tools/list", json!({}))).unwrap();
        assert_eq!(list["result"]["tools"][0]["name"], "get_order");
        // notifications/initialized of the modern era is the core's
        // notification, not the handshake's: no change.
        let mut modern_initialized = modern(0, "notifications/initialized");
        modern_initialized.as_object_mut().unwrap().remove("id");
        assert_eq!(send(&mut session, &modern_initialized), None);
        assert_eq!(
            session.state(),
            State::Initialized(LegacyVersion::V2025_06_18)
        );
        assert_eq!(send(&mut session, &initialized()), None);
        assert_eq!(
            session.state(),
            State::Operating(LegacyVersion::V2025_06_18)
        );

        let again = send(&mut session, &initialize(4, "2025-11-25")).unwrap();
        assert_eq!(again["error"]["code"], -32600);
        assert_eq!(
            session.state(),
            State::Operating(LegacyVersion::V2025_06_18)
        );
    }

    #[test]
    fn unsupported_requested_version_gets_the_newest_served() {
        let server = legacy_server(&["2025-06-18", "2025-11-25"]);
        let mut session = Session::new(&server);
        let reply = send(&mut session, &initialize(1, "2024-11-05")).unwrap();
        assert_eq!(reply["result"]["protocolVersion"], "2025-11-25");
    }

    #[test]
    fn malformed_initialize_leaves_the_process_fresh() {
        let server = legacy_server(&["2025-11-25"]);
        let mut session = Session::new(&server);
        for params in [
            json!({}),
            json!({"protocolVersion": 1, "capabilities": {}, "clientInfo": {}}),
            json!({"protocolVersion": "2025-11-25", "clientInfo": {}}),
        ] {
            let reply = send(&mut session, &legacy(1, "initialize", params)).unwrap();
            assert_eq!(reply["error"]["code"], -32602);
            assert_eq!(session.state(), State::Fresh);
        }
        let reply = send(&mut session, &legacy(1, "initialize", json!([]))).unwrap();
        assert_eq!(reply["error"]["code"], -32602);
        assert!(send(&mut session, &initialize(2, "2025-11-25")).unwrap()["result"].is_object());
    }

    #[test]
    fn ping_in_every_state_and_never_in_the_modern_era() {
        let server = legacy_server(&["2025-11-25"]);
        let mut session = Session::new(&server);
        assert_eq!(
            send(&mut session, &legacy(1, "ping", json!({}))).unwrap()["result"],
            json!({})
        );
        let no_params = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
        assert_eq!(send(&mut session, &no_params).unwrap()["result"], json!({}));
        send(&mut session, &initialize(3, "2025-11-25"));
        assert_eq!(
            send(&mut session, &legacy(4, "ping", json!({}))).unwrap()["result"],
            json!({})
        );
        let modern_ping = send(&mut session, &modern(5, "ping")).unwrap();
        assert_eq!(modern_ping["error"]["code"], -32601);
    }

    #[test]
    fn modern_lines_are_the_core_in_every_state() {
        let server = legacy_server(&["2025-11-25"]);
        let mut session = Session::new(&server);
        let probe = modern(1, "tools/list").to_string();
        let expected = server.respond(probe.as_bytes()).unwrap();
        for line in [None, Some(initialize(2, "2025-11-25")), Some(initialized())] {
            if let Some(line) = line {
                send(&mut session, &line);
            }
            let mut out = Vec::new();
            session.handle(probe.as_bytes(), &mut out);
            assert_eq!(out, expected);
        }
    }

    #[test]
    fn era_of_a_request() {
        let meta = |m: Value| json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": m}});
        let server = legacy_server(&["2025-11-25"]);
        for (line, era) in [
            (
                meta(json!({"io.modelcontextprotocol/protocolVersion": 5})),
                Era::Modern,
            ),
            (
                meta(json!({"io.modelcontextprotocol/clientCapabilities": {}})),
                Era::Modern,
            ),
            (
                meta(json!({"io.modelcontextprotocol/logLevel": "info"})),
                Era::Modern,
            ),
            (meta(json!({"progressToken": 1})), Era::Legacy),
            (meta(json!({})), Era::Legacy),
            (
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
                Era::Legacy,
            ),
            (
                json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}),
                Era::Legacy,
            ),
        ] {
            let text = line.to_string();
            let Line::Message(Message::Request { method, params, .. }) =
                server.read(text.as_bytes())
            else {
                panic!("not a request: {text}");
            };
            assert_eq!(era_of(&method, params.as_ref()), era, "{text}");
        }
    }

    #[test]
    fn legacy_meta_must_be_an_object() {
        let server = legacy_server(&["2025-11-25"]);
        let mut session = Session::new(&server);
        send(&mut session, &initialize(1, "2025-11-25"));
        let reply = send(&mut session, &legacy(2, "tools/list", json!({"_meta": 1}))).unwrap();
        assert_eq!(reply["error"]["code"], -32602);
    }
}
