//! The replay's statelessness probe, run before the vectors: a valid
//! `server/discover` and one without `params` (a missing `_meta`), each as
//! a fresh process's first line and after the other, on two processes of
//! their own. A server that answers the valid one differently in the two
//! places takes context from earlier requests, which BASE-21 forbids (MUST
//! NOT); the answers of the one without `_meta` are shown, not judged
//! (`crate::check::stateless::judge`). Every process of the vectors is
//! opened as a modern client opens one, so their verdicts do not depend on
//! what a process's first line does; this probe is where that is judged.
//! The same two requests as `check`'s `stateless.fresh-and-later`; each
//! answer is read up to the replay's own sync probe (or within the same
//! grace after it), as a single vector's is.
//! `scripts/replay_vectors.py` does the same.
//!
//! Spec: 2026-07-28 `basic/index.mdx#statelessness` (BASE-21 of
//! docs/spec-coverage.md).

use std::time::Instant;

use serde_json::Value;

use super::process::{Options, Process, ask, sync_line};
use crate::check::stateless::{Judged, judge, kind};

/// What the probe found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stateless {
    /// The valid request answered alike in both places.
    Pass,
    /// One was not: how (a MUST failure, counted in the verdict).
    Fail(String),
    /// The probe could not run (the server stopped answering, or the
    /// deadline came): why. Not counted, and never a pass.
    NotRun(String),
}

impl Stateless {
    /// The report's line.
    pub fn line(&self) -> String {
        match self {
            Stateless::Pass => "statelessness (BASE-21, must): pass".into(),
            Stateless::Fail(why) => format!("statelessness (BASE-21, must): FAIL: {why}"),
            Stateless::NotRun(why) => format!("statelessness (BASE-21, must): not run: {why}"),
        }
    }
}

/// The valid request and the one without `_meta`: each line and its id.
fn requests() -> [(Vec<u8>, String); 2] {
    let (valid, id) = sync_line("history", "0");
    let bare = br#"{"jsonrpc":"2.0","id":"mcp-vectors-history-bare","method":"server/discover"}"#;
    [
        (valid, id),
        (bare.to_vec(), "\"mcp-vectors-history-bare\"".into()),
    ]
}

/// Runs the probe; counts the processes it starts. `Err`: the server
/// could not be started at all.
pub(super) fn probe(o: &Options, end: Instant, starts: &mut usize) -> Result<Stateless, String> {
    let [valid, bare] = requests();
    let mut answers = Vec::new();
    for (n, order) in [[&valid, &bare], [&bare, &valid]].into_iter().enumerate() {
        let mut p = Process::start(&o.command)?;
        *starts += 1;
        let mut got = Vec::new();
        for (i, (line, want)) in order.iter().enumerate() {
            // The answer is the line with the request's id (a log line or
            // a stray reply is not), read up to a sync probe.
            let first = match ask(&mut p, (line, want), ("history-sync", n * 2 + i), o, end) {
                Ok(first) => first,
                Err(why) => return Ok(Stateless::NotRun(why)),
            };
            let reply: Option<Value> = first.and_then(|l| serde_json::from_slice(&l).ok());
            got.push(kind(reply.as_ref()));
        }
        answers.push(got);
    }
    // answers[0]: valid first, then bare; answers[1]: bare first, then valid.
    let at = |i: usize, j: usize| {
        answers
            .get(i)
            .and_then(|a| a.get(j))
            .cloned()
            .unwrap_or_default()
    };
    Ok(match judge([at(0, 0), at(1, 1)], [at(1, 0), at(0, 1)]) {
        Judged::Alike => Stateless::Pass,
        Judged::Depends(why) => Stateless::Fail(why),
        Judged::Unobserved(why) => Stateless::NotRun(why),
    })
}
