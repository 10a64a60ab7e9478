//! Which line each of the command's replies belongs to, by id as well as
//! by order.
//!
//! A server may answer the lines of one stdio connection concurrently
//! (JSON-RPC 2.0 §6 lets responses come in any order; the official Python
//! SDK answers each request in a task of its own), so a reply can come
//! after the reply to a later line. The pairing:
//!
//! - a reply whose id is the id of a reply the reference wrote to a line,
//!   and that line has no reply of the command with that id yet, is that
//!   line's (on a reused process the line last written first; else, among
//!   the lines waiting for that id, the first whose reference reply it is
//!   equivalent to, then the earliest);
//! - any other reply (a notification, an id that is `null`, unreadable,
//!   or no reference reply's) goes by order: on a reused process to the
//!   line whose window it came in (the lines after the sync request that
//!   closes a line's window go to the last line); on a fresh process
//!   ([`Pairing::in_order`]), in the order the command wrote them, each to
//!   the first unpaired reference reply it is equivalent to at or after
//!   the reference reply paired just before it came (then anywhere), and
//!   the replies left over to the first unpaired reference reply at or
//!   after that place, else to the first line after that place the
//!   reference wrote nothing to (a notification the command answered),
//!   else to the last line. So a request's notifications before its
//!   response (rows T12, T13) are that request's, and a reply the
//!   reference does not write never takes the place of a later line's
//!   reply that the command did write.
//!
//! Ids are read with the test kit's reply reader ([`model::read_reply`]);
//! a reply that reader refuses (another member order, say) has its id read
//! by the model's JSON reader ([`model::parse`]). String ids are compared
//! as the strings they decode to, integer ids digit for digit, as
//! `compare` does. Owns no rule of `docs/behavior.md`: what the reference
//! answers is the core's, and whether two replies differ is `compare`'s.

use crate::diff::compare;
use mcp_reference_testkit::model;

/// The id of a reply line (without its newline), as a key: `s` and the
/// string for a string id, `n` and the digits for any other; `None` for
/// a `null` id, no id, or a line that is not a JSON object.
pub(crate) fn reply_key(line: &[u8]) -> Option<String> {
    let mut framed = line.to_vec();
    framed.push(b'\n');
    let raw = match model::read_reply(&framed) {
        Ok(read) => read.id,
        Err(_) => match model::parse(line).ok()?.ids.as_slice() {
            [id] => id.clone(),
            _ => return None,
        },
    };
    key(&raw)
}

fn key(raw: &str) -> Option<String> {
    if raw == "null" {
        None
    } else if raw.starts_with('"') {
        serde_json::from_str::<String>(raw)
            .ok()
            .map(|s| format!("s{s}"))
    } else {
        Some(format!("n{raw}"))
    }
}

/// Lines of text, without their newlines.
pub(crate) type Lines = Vec<Vec<u8>>;

/// One reply of the reference: its line, its id key, and whether a reply
/// of the command is paired with it.
struct Slot {
    line: usize,
    /// Its place among the reference's replies to that line.
    nth: usize,
    key: Option<String>,
    paired: bool,
}

/// The pairing of one case: the reference's replies per line, and the
/// command's, each with the place it came in.
pub(crate) struct Pairing {
    reference: Vec<Vec<Vec<u8>>>,
    slots: Vec<Slot>,
    command: Vec<Vec<(usize, Vec<u8>)>>,
    arrived: usize,
}

impl Pairing {
    /// A pairing for lines whose reference replies are `reference` (one
    /// entry per line).
    pub(crate) fn new(reference: Vec<Vec<Vec<u8>>>) -> Pairing {
        let slots = reference
            .iter()
            .enumerate()
            .flat_map(|(line, replies)| {
                replies.iter().enumerate().map(move |(nth, r)| Slot {
                    line,
                    nth,
                    key: reply_key(r),
                    paired: false,
                })
            })
            .collect();
        let command = vec![Vec::new(); reference.len()];
        Pairing {
            reference,
            slots,
            command,
            arrived: 0,
        }
    }

    /// The place of the next reply to come.
    fn next_place(&mut self) -> usize {
        let at = self.arrived;
        self.arrived += 1;
        at
    }

    fn push(&mut self, line: usize, at: usize, reply: Vec<u8>) {
        let last = self.command.len().saturating_sub(1);
        if let Some(replies) = self.command.get_mut(line.min(last)) {
            replies.push((at, reply));
        }
    }

    /// Pairs `reply` by its id, preferring line `current` (the line last
    /// written, on a reused process) and then the earliest line up to it;
    /// gives the reply back when no line is waiting for its id.
    /// Gives the index of the reference reply it is paired with.
    pub(crate) fn by_id(
        &mut self,
        reply: Vec<u8>,
        current: Option<usize>,
    ) -> Result<usize, Vec<u8>> {
        let at = self.next_place();
        let Some(key) = reply_key(&reply) else {
            return Err(reply);
        };
        let upto = current.unwrap_or(usize::MAX);
        let waiting = |s: &Slot| !s.paired && s.line <= upto && s.key.as_deref() == Some(&key);
        // Among lines waiting for the same id (a client that reuses an id
        // while it is in flight), the first whose reference reply this
        // reply is equivalent to, so that arrival order decides nothing
        // when the command is right.
        let equivalent = |s: &Slot| {
            waiting(s)
                && self
                    .reference
                    .get(s.line)
                    .and_then(|r| r.get(s.nth))
                    .is_some_and(|r| compare::line_difference(r, &reply).is_none())
        };
        let found = current
            .and_then(|n| self.slots.iter().position(|s| s.line == n && waiting(s)))
            .or_else(|| self.slots.iter().position(equivalent))
            .or_else(|| self.slots.iter().position(waiting));
        let Some((i, slot)) = found.and_then(|i| Some((i, self.slots.get_mut(i)?))) else {
            return Err(reply);
        };
        slot.paired = true;
        let line = slot.line;
        self.push(line, at, reply);
        Ok(i)
    }

    /// Pairs `reply` by order with line `line` (its first unpaired
    /// reference reply, if any).
    pub(crate) fn by_order(&mut self, line: usize, reply: Vec<u8>) {
        if let Some(slot) = self.slots.iter_mut().find(|s| s.line == line && !s.paired) {
            slot.paired = true;
        }
        let at = self.next_place();
        self.push(line, at, reply);
    }

    /// A fresh process (no windows): the results of every
    /// [`Pairing::by_id`] call of this pairing, in the order the command
    /// wrote the replies (so the `k`th came `k`th): paired by id (`Ok`, the
    /// reference reply's index) or not (`Err`). The replies not paired go
    /// by order, as the module's header says.
    pub(crate) fn in_order(&mut self, arrivals: Vec<Result<usize, Vec<u8>>>) {
        // Where the reference reply paired last before a reply came ends:
        // the place that reply belongs at or after.
        let mut after = 0;
        let mut left = Vec::new();
        for (at, arrival) in arrivals.into_iter().enumerate() {
            let reply = match arrival {
                Ok(i) => {
                    after = i + 1;
                    continue;
                }
                Err(reply) => reply,
            };
            let equivalent = |(_, s): &(usize, &Slot)| {
                !s.paired
                    && self
                        .reference
                        .get(s.line)
                        .and_then(|r| r.get(s.nth))
                        .is_some_and(|r| compare::line_difference(r, &reply).is_none())
            };
            let found = self
                .slots
                .iter()
                .enumerate()
                .skip(after)
                .find(equivalent)
                .or_else(|| self.slots.iter().enumerate().find(equivalent))
                .map(|(i, _)| i);
            match found {
                Some(i) => {
                    self.pair_slot(i, at, reply);
                    after = i + 1;
                }
                None => left.push((after, at, reply)),
            }
        }
        for (after, at, reply) in left {
            match self.slots.iter().skip(after).position(|s| !s.paired) {
                Some(i) => self.pair_slot(after + i, at, reply),
                None => {
                    // The first line after the reference reply paired last
                    // that the reference wrote nothing to (a notification
                    // the command answered), else the last line.
                    let from = after
                        .checked_sub(1)
                        .and_then(|i| self.slots.get(i))
                        .map_or(0, |s| s.line + 1);
                    let line = (from..self.reference.len())
                        .find(|l| self.reference.get(*l).is_some_and(Vec::is_empty))
                        .unwrap_or(self.reference.len().saturating_sub(1));
                    self.push(line, at, reply);
                }
            }
        }
    }

    fn pair_slot(&mut self, i: usize, at: usize, reply: Vec<u8>) {
        if let Some(slot) = self.slots.get_mut(i) {
            slot.paired = true;
            let line = slot.line;
            self.push(line, at, reply);
        }
    }

    /// Whether a reference reply to line `line` with an id still has no
    /// reply of the command.
    pub(crate) fn owes_by_id(&self, line: usize) -> bool {
        self.slots
            .iter()
            .any(|s| s.line == line && !s.paired && s.key.is_some())
    }

    /// The id keys of line `line`'s reference replies still unpaired.
    pub(crate) fn owed_keys_of(&self, line: usize) -> Vec<String> {
        self.slots
            .iter()
            .filter(|s| s.line == line && !s.paired)
            .filter_map(|s| s.key.clone())
            .collect()
    }

    /// Per line: the reference's replies and the command's, in the order
    /// they came.
    pub(crate) fn lines(self) -> Vec<(Lines, Lines)> {
        self.reference
            .into_iter()
            .zip(self.command)
            .map(|(reference, mut command)| {
                command.sort_by_key(|(at, _)| *at);
                (reference, command.into_iter().map(|(_, r)| r).collect())
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(id: &str) -> Vec<u8> {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#).into_bytes()
    }

    #[test]
    fn ids_are_read_as_compare_reads_them() {
        assert_eq!(reply_key(&reply("7")).as_deref(), Some("n7"));
        assert_eq!(
            reply_key(&reply(r#""\u00e9""#)),
            reply_key(&reply(r#""é""#))
        );
        assert_eq!(reply_key(&reply("null")), None);
        assert_eq!(
            reply_key(br#"{"result":{},"id":"a","jsonrpc":"2.0"}"#).as_deref(),
            Some("sa")
        );
        assert_eq!(reply_key(b"starting up"), None);
    }

    #[test]
    fn a_reply_that_overtakes_is_paired_by_its_id() {
        let mut p = Pairing::new(vec![vec![reply("1")], vec![], vec![reply("2")]]);
        // Line 3's reply first, then line 1's, on a fresh process.
        let arrivals = [reply("2"), reply("1")].map(|r| p.by_id(r, None));
        p.in_order(arrivals.into());
        assert!(!p.owes_by_id(0) && !p.owes_by_id(2));
        let lines = p.lines();
        assert_eq!(lines[0].1, vec![reply("1")]);
        assert!(lines[1].1.is_empty());
        assert_eq!(lines[2].1, vec![reply("2")]);
    }

    #[test]
    fn by_order_fills_what_ids_cannot() {
        let mut p = Pairing::new(vec![vec![reply("null")], vec![reply("3")]]);
        let stray = b"log".to_vec();
        assert!(p.by_id(stray.clone(), Some(0)).is_err());
        p.by_order(0, stray.clone());
        assert!(p.by_id(reply("5"), Some(1)).is_err());
        assert!(p.owes_by_id(1));
        assert!(!p.owes_by_id(0), "a null id is never owed by id");
        assert_eq!(p.lines()[0].1, vec![stray]);
    }

    fn error(code: i64) -> Vec<u8> {
        format!(r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":{code},"message":"m"}}}}"#)
            .into_bytes()
    }

    fn pair_fresh(reference: Vec<Vec<Vec<u8>>>, came: Vec<Vec<u8>>) -> Vec<(Lines, Lines)> {
        let mut p = Pairing::new(reference);
        let arrivals = came.into_iter().map(|r| p.by_id(r, None)).collect();
        p.in_order(arrivals);
        p.lines()
    }

    #[test]
    fn an_answered_notification_takes_no_later_lines_reply() {
        // A notification, a request, a line that is not JSON: the command
        // answers the notification too (id null), before anything else.
        let lines = pair_fresh(
            vec![vec![], vec![reply("1")], vec![error(-32700)]],
            vec![error(-32601), reply("1"), error(-32700)],
        );
        assert_eq!(lines[0].1, vec![error(-32601)]);
        assert_eq!(lines[1].1, vec![reply("1")]);
        assert_eq!(lines[2].1, vec![error(-32700)]);
    }

    #[test]
    fn notifications_before_a_response_are_its_requests() {
        let progress = br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}"#.to_vec();
        // Line 2's reply overtakes line 1's notification and response.
        let lines = pair_fresh(
            vec![vec![progress.clone(), reply("1")], vec![reply("2")]],
            vec![reply("2"), progress.clone(), reply("1")],
        );
        assert_eq!(lines[0].1, vec![progress.clone(), reply("1")]);
        assert_eq!(lines[1].1, vec![reply("2")]);
        // A stray line before everything stays first on the line it is
        // charged to.
        let lines = pair_fresh(
            vec![vec![error(-32600)]],
            vec![b"starting up".to_vec(), error(-32600)],
        );
        assert_eq!(lines[0].1, vec![b"starting up".to_vec(), error(-32600)]);
    }
}
