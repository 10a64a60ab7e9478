//! How long and how hard each bench round runs ([`Plan`]), and the one
//! failure that stops a run ([`Start`]): a server that could not be
//! started or reached. A leaf: every other part of `bench` reads it.

use std::time::Duration;

/// How long each round runs, and how hard it pushes.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Requests in flight at once on one stdio process.
    pub concurrency: usize,
    /// Kept-alive connections over HTTP, one request in flight on each.
    pub connections: usize,
    /// How long a round measures.
    pub duration: Duration,
    /// Stop a round after this many measured requests instead (it still
    /// stops at `duration`).
    pub requests: Option<u64>,
    /// Time at the start of each round whose replies are judged but not
    /// measured.
    pub warmup: Duration,
    /// Rounds per server.
    pub rounds: u32,
    /// How long one reply may take.
    pub timeout: Duration,
    /// How long a server may take to answer its first request.
    pub start_timeout: Duration,
}

/// The server could not be started, or answered nothing: one sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Start(pub String);
