//! The pure core: one request line in, at most one response line out,
//! after only the notification lines that request's own `_meta` asked for
//! (rows T12 and T13, [`crate::notices`]).
//!
//! [`Server`] is built once from a [`Config`]; after that, answering a line
//! reads nothing but the line and the server, writes nothing but the output
//! buffer, and keeps no state: the same line gives the same bytes, whatever
//! came before. A line walks down the layers once:
//!
//! 1. framing: a trailing `\r` is stripped; a blank line is not a message;
//!    a line over the limit is `-32600` (decision DEC1);
//! 2. [`crate::envelope`]: JSON-RPC classification and id;
//! 3. `initialize` (the legacy handshake) is answered with an error naming
//!    the supported versions ([`crate::meta::Versions::initialize_error`],
//!    row D6); one that carries modern `_meta` is a modern request for a
//!    removed method: `_meta` is checked, then `-32601` naming them (D7);
//!    with the legacy path on, the session ([`crate::session`]) takes
//!    `initialize` and every line without modern `_meta` before the core
//!    sees them, through [`Server::read`] and [`Server::legacy`];
//! 4. [`crate::meta`]: `params`, `_meta` and the protocol version;
//! 5. [`crate::dispatch`]: the method, its params, and the tool.
//!
//! Spec: 2026-07-28 `basic/transports/stdio.mdx` (one message per line, no
//! embedded newlines) and `basic/versioning.mdx` (every request is accepted
//! or rejected on its own; nothing is inferred from earlier requests).

use crate::config::Config;
use crate::dispatch::{Context, Methods};
use crate::envelope::{self, Id, Message, TOO_LONG};
use crate::error::{Code, RpcError};
use crate::legacy::Legacy;
use crate::meta::{MetaField, ParamsField, Versions};
use crate::tools::{Catalog, Direct, Executor};

/// What became of one input line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disposition {
    /// Blank or whitespace-only: not a message, no reply.
    Blank,
    /// One reply line was written, after the notifications the request
    /// asked for, if any (T12, T13).
    Replied,
    /// A notification: no reply, ever.
    Notification,
    /// A response sent by the client: no reply; worth a note on stderr.
    ClientResponse,
}

/// One input line after framing (steps 1 and 2 of the module documentation).
// The decoded message lives on the stack for one line and is consumed at
// once; boxing it to shrink the other variants would allocate per line.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Line<'l> {
    /// Blank or whitespace-only: not a message.
    Blank,
    /// Longer than the limit: answered by [`Server::write_oversized`].
    Oversized,
    /// A decoded JSON-RPC message.
    Message(Message<'l>),
}

/// A configured server: the configuration plus everything rendered from it.
pub struct Server {
    config: Config,
    versions: Versions,
    methods: Methods,
    legacy: Legacy,
}

impl Server {
    /// Builds the server: renders every constant result once.
    pub fn new(config: Config) -> Self {
        let versions = Versions::dual_era(
            config.versions().to_vec(),
            config.legacy_versions().to_vec(),
        );
        let methods = Methods::new(&config, versions.supported());
        let legacy = Legacy::new(&config, methods.catalog());
        Server {
            config,
            versions,
            methods,
            legacy,
        }
    }

    /// The configuration it serves.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The versions a modern request may name.
    pub fn versions(&self) -> &Versions {
        &self.versions
    }

    /// The tool catalog.
    pub fn catalog(&self) -> &Catalog {
        self.methods.catalog()
    }

    /// The legacy renderings, for the session's opt-in legacy path. The
    /// core itself never answers a line with them.
    pub fn legacy(&self) -> &Legacy {
        &self.legacy
    }

    /// Answers one line: the reply line (newline included), or `None`.
    pub fn respond(&self, line: &[u8]) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        match self.respond_into(line, &mut out) {
            Disposition::Replied => Some(out),
            _ => None,
        }
    }

    /// Answers one line, appending the reply (if any) to `out`.
    pub fn respond_into(&self, line: &[u8], out: &mut Vec<u8>) -> Disposition {
        self.respond_with(line, out, &mut Direct)
    }

    /// Answers one line, running tools through `executor`, at the epoch
    /// ([`Server::respond_at`] with `now` 0).
    pub fn respond_with<E: Executor>(
        &self,
        line: &[u8],
        out: &mut Vec<u8>,
        executor: &mut E,
    ) -> Disposition {
        self.respond_at(line, out, executor, 0)
    }

    /// Answers one line at `now` (seconds since 1970-01-01T00:00:00Z), the
    /// time a multi round-trip request's `requestState` is issued and
    /// checked at (rows I2, I8). The time is an input, as everything else
    /// is: the same line at the same `now` gives the same bytes. Only a
    /// configuration with `input_required` targets reads it.
    pub fn respond_at<E: Executor>(
        &self,
        line: &[u8],
        out: &mut Vec<u8>,
        executor: &mut E,
        now: u64,
    ) -> Disposition {
        match self.read(line) {
            Line::Blank => Disposition::Blank,
            Line::Oversized => {
                self.write_oversized(out);
                Disposition::Replied
            }
            Line::Message(message) => self.answer_at(message, out, executor, now),
        }
    }

    /// Frames and decodes one line without answering it: what a session
    /// reads to tell the eras apart before it hands the message back to
    /// [`Server::answer`].
    pub fn read<'l>(&self, line: &'l [u8]) -> Line<'l> {
        if is_blank(line) {
            return Line::Blank;
        }
        // The limit counts every byte before the newline, as the driver does.
        if line.len() > self.config.max_line_bytes() {
            return Line::Oversized;
        }
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        Line::Message(envelope::decode(line))
    }

    /// Answers a decoded message (from [`Server::read`]) under 2026-07-28,
    /// at the epoch.
    pub fn answer<E: Executor>(
        &self,
        message: Message<'_>,
        out: &mut Vec<u8>,
        executor: &mut E,
    ) -> Disposition {
        self.answer_at(message, out, executor, 0)
    }

    /// [`Server::answer`] at `now` (see [`Server::respond_at`]).
    pub fn answer_at<E: Executor>(
        &self,
        message: Message<'_>,
        out: &mut Vec<u8>,
        executor: &mut E,
        now: u64,
    ) -> Disposition {
        match message {
            Message::Notification { .. } => Disposition::Notification,
            Message::ClientResponse => Disposition::ClientResponse,
            Message::Error { id, error } => {
                envelope::write_error(out, id.as_ref(), &error, self.versions.supported_json());
                Disposition::Replied
            }
            Message::Request { id, method, params } => {
                self.answer_request(&id, &method, params.as_ref(), out, executor, now);
                Disposition::Replied
            }
        }
    }

    /// Answers one decoded request, appending the reply line to `out`:
    /// `None` for a result, else the code of the error it sent (what the
    /// HTTP binding takes its status from).
    pub(crate) fn answer_request<E: Executor>(
        &self,
        id: &Id<'_>,
        method: &str,
        params: Option<&ParamsField<'_>>,
        out: &mut Vec<u8>,
        executor: &mut E,
        now: u64,
    ) -> Option<Code> {
        let mut ran = None;
        match self.handle(method, params, executor, now, &mut ran) {
            Ok(body) => {
                // T12, T13: the notifications this request's `_meta` asked
                // of the tool that ran, before its response.
                if let (Some(tool), Some(ParamsField::Object(p))) = (ran, params)
                    && let crate::meta::MetaField::Object(meta) = &p.meta
                {
                    crate::notices::write(out, tool, meta);
                }
                envelope::write_result(out, id, &body);
                None
            }
            Err(error) => {
                envelope::write_error(out, Some(id), &error, self.versions.supported_json());
                Some(error.code)
            }
        }
    }

    /// The reply to a line longer than the limit (`-32600`, id null), for a
    /// driver that skipped the line without buffering it.
    pub fn write_oversized(&self, out: &mut Vec<u8>) {
        envelope::write_error(out, None, &TOO_LONG, self.versions.supported_json());
    }

    fn handle<'s, 'a, E: Executor>(
        &'s self,
        method: &str,
        params: Option<&ParamsField<'a>>,
        executor: &mut E,
        now: u64,
        ran: &mut Option<&'s crate::catalog::ContentTool>,
    ) -> Result<std::borrow::Cow<'s, [u8]>, RpcError<'a>> {
        let modern_initialize = method == "initialize" && Versions::is_modern(params);
        if method == "initialize" && !modern_initialize {
            return Err(self.versions.initialize_error(params));
        }
        self.versions.check(params)?;
        if modern_initialize {
            return Err(crate::meta::INITIALIZE_REMOVED);
        }
        let (method_params, meta) = match params {
            Some(ParamsField::Object(p)) => (&p.method, &p.meta),
            // `check` has refused every other case.
            _ => return Err(crate::meta::NO_PARAMS),
        };
        let declared = match meta {
            MetaField::Object(m) => m.declared,
            _ => 0,
        };
        let context = Context { declared, now };
        self.methods
            .call(method, method_params, context, executor, ran)
    }
}

/// Row F1 (DEC1): a line of nothing but spaces, tabs, carriage returns and
/// newlines is no message, whatever its length. The one statement of the
/// rule: [`Server::read`] asks it, and so does the stdio driver for a line
/// longer than the limit, which it skips without handing it to the core.
pub(crate) fn is_blank(line: &[u8]) -> bool {
    line.iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}
