//! Remembered verdicts, so that judging a reply costs bench less than the
//! server spent answering it: a reply that differs from one already judged
//! only in its id gets that one's verdict ([`Verdicts`]). The verdict is
//! still the model's ([`super::workload::Workload::judge`]); this only
//! avoids asking twice.
//!
//! Why this is the same verdict: bench's requests of one kind differ only
//! in their id (an integer, `n + 1` for request `n`), and the model reads
//! an id only to compare the reply's raw id text with the request's (rows
//! E10 and W1 of `docs/behavior.md`). A reply is remembered only when it
//! starts `{"jsonrpc":"2.0","id":` followed by exactly its own request's
//! id and a comma, so the id is the top-level one and is right; the key is
//! the kind of request and every byte after the id (over HTTP also the
//! status and every header but `date` and `content-length`, which change
//! with the clock and the id's length). Any other reply (another member
//! order, a wrong id, an event stream) is judged afresh every time. At
//! most [`CAPACITY`] verdicts are kept, so a server whose every reply
//! differs (a timestamp in each) costs a judgement per reply, never memory.

use std::collections::HashMap;

use mcp_reference_testkit::model::http::HttpRequest;

use super::workload::{Invalid, Workload};

/// The most verdicts kept.
pub const CAPACITY: usize = 256;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    kind: usize,
    head: Vec<u8>,
    rest: Vec<u8>,
}

/// Verdicts already given, for one thread of one round.
#[derive(Debug, Default)]
pub struct Verdicts {
    seen: HashMap<Key, Result<(), Invalid>>,
    /// How many replies were judged afresh.
    pub judged: u64,
}

/// The bytes after a reply's id, when it starts with the canonical
/// envelope and request `n`'s id.
fn after_id(n: u64, reply: &[u8]) -> Option<&[u8]> {
    let rest = reply.strip_prefix(br#"{"jsonrpc":"2.0","id":"#)?;
    let rest = rest.strip_prefix((n + 1).to_string().as_bytes())?;
    rest.starts_with(b",").then_some(rest)
}

impl Verdicts {
    fn remembered(
        &mut self,
        key: Option<Key>,
        judge: impl FnOnce() -> Result<(), Invalid>,
    ) -> Result<(), Invalid> {
        if let Some(verdict) = key.as_ref().and_then(|k| self.seen.get(k)) {
            return verdict.clone();
        }
        self.judged += 1;
        let verdict = judge();
        if let Some(k) = key
            && self.seen.len() < CAPACITY
        {
            self.seen.insert(k, verdict.clone());
        }
        verdict
    }

    /// [`Workload::judge`] of the reply to request `n` (`request`, its
    /// line), remembered.
    pub fn judge(
        &mut self,
        workload: &Workload,
        n: u64,
        request: &[u8],
        reply: &[u8],
    ) -> Result<(), Invalid> {
        let key = after_id(n, reply).map(|rest| Key {
            kind: Workload::kind(n),
            head: Vec::new(),
            rest: rest.to_vec(),
        });
        self.remembered(key, || workload.judge(request, reply))
    }

    /// [`Workload::judge_http`] of the response to request `n`,
    /// remembered.
    #[allow(clippy::too_many_arguments)]
    pub fn judge_http(
        &mut self,
        workload: &Workload,
        n: u64,
        request: &HttpRequest,
        port: u16,
        status: u16,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<(), Invalid> {
        let key = after_id(n, body).map(|rest| {
            let mut head = status.to_string().into_bytes();
            for (name, value) in headers {
                if *name != "date" && *name != "content-length" {
                    head.extend_from_slice(format!("\n{name}: {value}").as_bytes());
                }
            }
            Key {
                kind: Workload::kind(n),
                head,
                rest: rest.to_vec(),
            }
        });
        self.remembered(key, || {
            workload.judge_http(request, port, status, headers, body)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::workload::{Call, DEFAULT_CALL, Valid};
    use mcp_reference::Config;

    fn textbook() -> Workload {
        let call = Call::parse(DEFAULT_CALL).unwrap_or_else(|e| panic!("{e}"));
        Workload::new(Config::default(), call, Valid::Model)
    }

    /// The reference's reply to request `n` of the call, as the book
    /// prints it with that id.
    fn book(id: &str) -> Vec<u8> {
        let line = include_str!("../../../data/example-43.2.response.json").trim_end();
        line.replacen(r#""id":3,"#, &format!(r#""id":{id},"#), 1)
            .into_bytes()
    }

    #[test]
    fn remembered_verdicts_are_the_model_s() {
        let w = textbook();
        let mut v = Verdicts::default();
        // Requests 2, 5, 302 are calls (ids 3, 6, 303): one judgement.
        for n in [2, 5, 302] {
            let id = (n + 1).to_string();
            assert_eq!(v.judge(&w, n, &w.line(n), &book(&id)), Ok(()));
        }
        assert_eq!(v.judged, 1);
        // A reply with another request's id is judged afresh, and wrong.
        assert!(v.judge(&w, 8, &w.line(8), &book("6")).is_err());
        // A broken reply is remembered as broken, and its twin with
        // another id is broken too.
        let broken = |id: &str| {
            String::from_utf8_lossy(&book(id))
                .replace("processing", "shipped")
                .into_bytes()
        };
        assert!(v.judge(&w, 11, &w.line(11), &broken("12")).is_err());
        assert!(v.judge(&w, 14, &w.line(14), &broken("15")).is_err());
        for n in [11, 14, 2] {
            let fresh = w.judge(&w.line(n), &broken(&(n + 1).to_string()));
            assert!(fresh.is_err());
        }
        // Another kind of request with the same bytes after the id is
        // another key: judged afresh.
        let judged = v.judged;
        assert!(v.judge(&w, 3, &w.line(3), &book("4")).is_err());
        assert_eq!(v.judged, judged + 1);
    }

    #[test]
    fn only_a_canonical_start_with_the_right_id_is_a_key() {
        assert_eq!(
            after_id(2, br#"{"jsonrpc":"2.0","id":3,"result":{}}"#),
            Some(&br#","result":{}}"#[..])
        );
        assert_eq!(
            after_id(2, br#"{"jsonrpc":"2.0","id":33,"result":{}}"#),
            None
        );
        assert_eq!(
            after_id(2, br#"{"id":3,"jsonrpc":"2.0","result":{}}"#),
            None
        );
        assert_eq!(
            after_id(2, br#"{"jsonrpc":"2.0","id":"3","result":{}}"#),
            None
        );
        assert_eq!(after_id(2, b""), None);
    }
}
