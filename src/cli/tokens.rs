//! The HTTP driver's bounded cache of verified access tokens: a token the
//! binding verified is remembered, under the SHA-256 of its text (the
//! token itself is never kept), with the identity the binding returned,
//! until that identity's `expires` (the token's `exp`: an entry never
//! outlives its token). The binding takes the remembered identity as an
//! input (`Trust::verified`) and checks the expiry itself.
//!
//! An entry also holds the generation of the issuer's key set that verified
//! it ([`super::issuer::KeySource::generation`]): once the driver fetches a
//! new set (a rotation), no entry verified with an older one is taken, so a
//! token signed with a key the issuer withdrew is verified again, and
//! refused, instead of living on in the cache until its `exp`.
//!
//! At most [`CAPACITY`] entries: when full, expired entries go first, and
//! if none has expired the cache starts over (a bound, never a leak; the
//! next requests verify again).
//!
//! Spec: 2026-07-28 `basic/authorization/index.mdx`, "Token Handling"
//! (every request is validated: a cache hit is a token this server
//! validated, for no longer than it is valid); rows A5, A7, A8.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use mcp_reference::http::Identity;
use rsa::sha2::{Digest as _, Sha256};

/// Entries kept at most.
pub(crate) const CAPACITY: usize = 4096;

/// A verified token's identity and the generation of the key set that
/// verified it.
type Entry = (Arc<Identity>, u64);

/// The cache, shared by every connection.
#[derive(Default)]
pub(crate) struct Tokens {
    entries: Mutex<HashMap<[u8; 32], Entry>>,
}

fn key(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

impl Tokens {
    /// The identity remembered for `token`, if it has not expired at `now`
    /// and was verified with the key set of `generation`.
    pub(crate) fn get(&self, token: &str, now: u64, generation: u64) -> Option<Arc<Identity>> {
        let key = key(token);
        let entries = self.entries.lock().ok()?;
        entries
            .get(&key)
            .filter(|(identity, verified_by)| now < identity.expires && *verified_by == generation)
            .map(|(identity, _)| identity.clone())
    }

    /// Remembers `identity` for `token`, verified with the key set of
    /// `generation`.
    pub(crate) fn put(&self, token: &str, identity: Identity, now: u64, generation: u64) {
        let key = key(token);
        let Ok(mut entries) = self.entries.lock() else {
            return;
        };
        if entries.len() >= CAPACITY {
            entries.retain(|_, (identity, verified_by)| {
                now < identity.expires && *verified_by == generation
            });
            if entries.len() >= CAPACITY {
                entries.clear();
            }
        }
        entries.insert(key, (Arc::new(identity), generation));
    }

    /// How many entries there are.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.lock().map_or(0, |e| e.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(expires: u64) -> Identity {
        Identity {
            issuer: "i".into(),
            subject: "mira".into(),
            user: Some("mira".into()),
            expires,
            scopes: Vec::new(),
        }
    }

    #[test]
    fn an_entry_lives_until_its_token_expires_and_the_cache_is_bounded() {
        let tokens = Tokens::default();
        tokens.put("t", identity(100), 10, 0);
        assert!(tokens.get("t", 99, 0).is_some());
        assert!(tokens.get("t", 100, 0).is_none());
        assert!(tokens.get("other", 10, 0).is_none());
        for i in 0..CAPACITY + 10 {
            tokens.put(&i.to_string(), identity(1_000), 10, 0);
        }
        assert!(tokens.len() <= CAPACITY);
    }

    /// At capacity, what goes is exactly what could no longer be taken:
    /// expired entries (an `exp` of now included) and those of an older
    /// key set; the living entries of the current set stay.
    #[test]
    fn at_capacity_only_what_can_no_longer_be_taken_goes() {
        let tokens = Tokens::default();
        let now = 10;
        for i in 0..10 {
            tokens.put(&format!("alive-{i}"), identity(1_000), now, 4);
        }
        for i in 0..5 {
            tokens.put(&format!("ends-now-{i}"), identity(now), now, 4);
        }
        for i in 0..3 {
            tokens.put(&format!("older-set-{i}"), identity(1_000), now, 3);
        }
        for i in 0..CAPACITY - 18 {
            tokens.put(&format!("expired-{i}"), identity(5), now, 4);
        }
        assert_eq!(tokens.len(), CAPACITY);
        tokens.put("new", identity(1_000), now, 4);
        assert_eq!(tokens.len(), 11);
        assert!(tokens.get("alive-0", now, 4).is_some());
        assert!(tokens.get("new", now, 4).is_some());
    }

    #[test]
    fn an_entry_verified_with_an_older_key_set_is_not_taken() {
        let tokens = Tokens::default();
        tokens.put("t", identity(100), 10, 3);
        assert!(tokens.get("t", 11, 3).is_some());
        assert!(tokens.get("t", 11, 4).is_none());
        // At capacity, the entries of older key sets go first.
        for i in 0..CAPACITY - 1 {
            tokens.put(&i.to_string(), identity(1_000), 10, 3);
        }
        tokens.put("new", identity(1_000), 10, 4);
        assert_eq!(tokens.len(), 1);
        assert!(tokens.get("new", 11, 4).is_some());
    }
}
