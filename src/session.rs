//! What belongs to a stdio process rather than to a request.
//!
//! Modern (2026-07-28) requests carry everything they need and are answered
//! by the stateless core; nothing in this module may change their replies.
//! The session exists for the opt-in legacy `initialize` path, whose
//! handshake is scoped to the process: `(state, configuration, line) ->
//! (state, output)`, pure like the core.
//!
//! With the legacy path off (the default) the session has a single state
//! and hands every line to the core unchanged.
//!
//! Spec: 2026-07-28 `basic/versioning.mdx`, "Backward Compatibility with
//! Initialization-Based Versions": a request carrying modern `_meta` is
//! served statelessly; an `initialize` request selects legacy semantics,
//! scoped to the stdio process.

use crate::server::{Disposition, Server};

/// The per-process state around a [`Server`].
pub struct Session<'s> {
    server: &'s Server,
}

impl<'s> Session<'s> {
    /// A fresh process.
    pub fn new(server: &'s Server) -> Self {
        Session { server }
    }

    /// The server behind the session.
    pub fn server(&self) -> &'s Server {
        self.server
    }

    /// Handles one line, appending the reply (if any) to `out`.
    pub fn handle(&mut self, line: &[u8], out: &mut Vec<u8>) -> Disposition {
        self.server.respond_into(line, out)
    }
}
