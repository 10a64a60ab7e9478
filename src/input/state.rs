//! `requestState`: what a multi round-trip request issues and later takes
//! back, sealed with HMAC-SHA256 (rows I6 to I9 of docs/behavior.md).
//!
//! A state is 59 base64url characters (no padding) of 44 bytes: a format
//! byte (`1`), the round (one byte), the inputs of that round already
//! answered (two bytes, one bit per input in configured order), the expiry
//! (eight bytes, seconds since 1970, big-endian), then the 32-byte tag.
//! The tag is the HMAC-SHA256, under the configured key, of a domain
//! string and, each length-prefixed: the principal (the configured user,
//! which over HTTP is the verified token's user), the method, the tool's or
//! prompt's name, the SHA-256 digest of its arguments (each as name and
//! string value, sorted by name), and the twelve bytes before the tag. So
//! the principal, the method and the salient params are bound without
//! being written into the state, and a state verifies only for the request
//! that earned it, under the key that sealed it (DEC40).
//!
//! [`open`] checks, in this order: the shape (length, base64url, format
//! byte), the tag (compared in constant time by the `hmac` crate), then the
//! expiry against the `now` it is given; the tag and the shape fail with
//! one message, which never says which part of the binding differed. No
//! clock and no randomness: the same inputs seal the same state (DEC41).
//!
//! Spec: 2026-07-28 `basic/patterns/mrtr.mdx`, "Server Requirements" 4
//! (attacker-controlled; integrity, e.g. HMAC, MUST; reject state that
//! fails verification, MUST) and 5 (principal, expiry, method and a digest
//! of the salient params inside the protected payload, SHOULD).

use base64::Engine as _;

use crate::error::RpcError;
use crate::json::Shallow;
use crate::tools::Arguments;

/// `-32602` for a state that is not a string.
pub(crate) const NOT_STRING: RpcError<'static> =
    RpcError::invalid_params("Invalid params: requestState must be a string");
/// `-32602` for a state that does not verify: malformed, or sealed for
/// another key, principal, method, tool, prompt or arguments.
pub(crate) const INVALID: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: requestState does not verify for this request; send the request again without it",
);
/// `-32602` for a state that verifies but has expired.
pub(crate) const EXPIRED: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: requestState has expired; send the request again without it",
);

const FORMAT: u8 = 1;
const DOMAIN: &[u8] = b"mcp-reference requestState v1\0";
const HEADER: usize = 12;
const TAG: usize = 32;

/// The state key, made ready once when the server is built: with the
/// `state` feature, the HMAC-SHA256 state after the key's inner and outer
/// pad blocks (RFC 2104), cloned for each tag, so that a tag costs the
/// compressions of its message only and not the two of the key's pads
/// (issue 47: a quarter of the SHA-256 work of a round of
/// `test_input_required_result_request_state`). The tags are the same
/// bytes as keying a new HMAC each time.
#[derive(Clone)]
pub(crate) struct Key {
    #[cfg(feature = "state")]
    keyed: Option<hmac::Hmac<sha2::Sha256>>,
}

impl Key {
    /// Makes `key` ready (HMAC takes a key of any length, so `keyed` is
    /// always there with the feature; a configuration without
    /// `state_key` has an empty one and issues no state, refused at load
    /// otherwise).
    pub(crate) fn new(key: &[u8]) -> Key {
        #[cfg(feature = "state")]
        {
            use hmac::KeyInit as _;
            Key {
                keyed: hmac::Hmac::<sha2::Sha256>::new_from_slice(key).ok(),
            }
        }
        #[cfg(not(feature = "state"))]
        {
            let _ = key;
            Key {}
        }
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key, nor anything derived from it.
        f.write_str("Key(..)")
    }
}

/// What a state binds: the request it belongs to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bound<'r> {
    /// The authenticated principal.
    pub principal: &'r str,
    /// `tools/call` or `prompts/get`.
    pub method: &'r str,
    /// The tool's or prompt's name.
    pub name: &'r str,
    /// Its arguments.
    pub args: &'r Arguments<'r>,
}

/// What a state carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Progress {
    /// The round the state was issued for (0 is the first).
    pub round: u8,
    /// The inputs of that round already answered (bit i: input i).
    pub answered: u16,
    /// When it stops being accepted, in seconds since 1970.
    pub expires: u64,
}

/// Seals `progress` for `bound` under `key`. `None` only in a build
/// without the `state` feature, whose configurations never issue state.
pub(crate) fn seal(key: &Key, bound: &Bound<'_>, progress: Progress) -> Option<String> {
    let header = header(progress);
    let tag = tag(key, bound, &header)?;
    let mut bytes = Vec::with_capacity(HEADER + TAG);
    bytes.extend_from_slice(&header);
    bytes.extend_from_slice(&tag);
    Some(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// Opens a presented state for `bound` at `now`.
pub(crate) fn open(
    key: &Key,
    bound: &Bound<'_>,
    state: &Shallow<'_>,
    now: u64,
) -> Result<Progress, RpcError<'static>> {
    let Some(text) = state.as_str() else {
        return Err(NOT_STRING);
    };
    // The exact encoded length first, so a long string is never decoded.
    if text.len() != ((HEADER + TAG) * 4).div_ceil(3) {
        return Err(INVALID);
    }
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(text)
        .map_err(|_| INVALID)?;
    let (Some(header), Some(presented)) = (bytes.get(..HEADER), bytes.get(HEADER..)) else {
        return Err(INVALID);
    };
    let mut fixed = [0u8; HEADER];
    fixed.copy_from_slice(header);
    if fixed[0] != FORMAT || !verify(key, bound, &fixed, presented) {
        return Err(INVALID);
    }
    let progress = Progress {
        round: fixed[1],
        answered: u16::from_be_bytes([fixed[2], fixed[3]]),
        expires: u64::from_be_bytes([
            fixed[4], fixed[5], fixed[6], fixed[7], fixed[8], fixed[9], fixed[10], fixed[11],
        ]),
    };
    if now > progress.expires {
        return Err(EXPIRED);
    }
    Ok(progress)
}

fn header(p: Progress) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[0] = FORMAT;
    h[1] = p.round;
    h[2..4].copy_from_slice(&p.answered.to_be_bytes());
    h[4..12].copy_from_slice(&p.expires.to_be_bytes());
    h
}

/// The bytes the tag covers, before the key.
fn message(bound: &Bound<'_>, header: &[u8; HEADER]) -> Vec<u8> {
    let mut m = Vec::with_capacity(128);
    m.extend_from_slice(DOMAIN);
    for field in [bound.principal, bound.method, bound.name] {
        push(&mut m, field.as_bytes());
    }
    push(&mut m, &digest(&arguments(bound.args)));
    m.extend_from_slice(header);
    m
}

/// The arguments, sorted by name, each a length-prefixed name and a typed,
/// length-prefixed value (the input targets accept strings only; any other
/// type is written as its type alone, and never verifies as a string).
fn arguments(args: &Arguments<'_>) -> Vec<u8> {
    let mut members: Vec<_> = args.iter().collect();
    members.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = Vec::new();
    for (name, value) in members {
        push(&mut out, name.as_bytes());
        match value.as_str() {
            Some(s) => {
                out.push(b's');
                push(&mut out, s.as_bytes());
            }
            None => out.push(b'?'),
        }
    }
    out
}

fn push(out: &mut Vec<u8>, bytes: &[u8]) {
    let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(bytes);
}

#[cfg(feature = "state")]
fn digest(bytes: &[u8]) -> Vec<u8> {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes).to_vec()
}

#[cfg(feature = "state")]
fn mac(key: &Key, bound: &Bound<'_>, header: &[u8; HEADER]) -> Option<hmac::Hmac<sha2::Sha256>> {
    use hmac::Mac as _;
    let mut mac = key.keyed.clone()?;
    mac.update(&message(bound, header));
    Some(mac)
}

#[cfg(feature = "state")]
fn tag(key: &Key, bound: &Bound<'_>, header: &[u8; HEADER]) -> Option<Vec<u8>> {
    use hmac::Mac as _;
    Some(mac(key, bound, header)?.finalize().into_bytes().to_vec())
}

#[cfg(feature = "state")]
fn verify(key: &Key, bound: &Bound<'_>, header: &[u8; HEADER], presented: &[u8]) -> bool {
    use hmac::Mac as _;
    mac(key, bound, header).is_some_and(|m| m.verify_slice(presented).is_ok())
}

// Without the feature no configuration issues state (refused at load), so
// nothing is sealed and nothing verifies.
#[cfg(not(feature = "state"))]
fn digest(bytes: &[u8]) -> Vec<u8> {
    bytes.to_vec()
}

#[cfg(not(feature = "state"))]
fn tag(_: &Key, _: &Bound<'_>, _: &[u8; HEADER]) -> Option<Vec<u8>> {
    None
}

#[cfg(not(feature = "state"))]
fn verify(_: &Key, bound: &Bound<'_>, header: &[u8; HEADER], _: &[u8]) -> bool {
    let _ = message(bound, header);
    false
}

#[cfg(all(test, feature = "state"))]
mod tests {
    use super::*;
    use std::borrow::Cow;

    const RAW: &[u8] = b"0123456789abcdef0123456789abcdef";

    fn args(pairs: &[(&'static str, &'static str)]) -> Arguments<'static> {
        let mut a = Arguments::default();
        for (k, v) in pairs {
            a.push(Cow::Borrowed(k), Shallow::Str(Cow::Borrowed(v)));
        }
        a
    }

    fn key() -> Key {
        Key::new(RAW)
    }

    fn state(s: String) -> Shallow<'static> {
        Shallow::Str(Cow::Owned(s))
    }

    #[test]
    fn a_state_opens_only_for_what_sealed_it() {
        let none = args(&[]);
        let bound = Bound {
            principal: "mira",
            method: "tools/call",
            name: "t",
            args: &none,
        };
        let p = Progress {
            round: 2,
            answered: 5,
            expires: 100,
        };
        let sealed = seal(&key(), &bound, p).unwrap();
        assert_eq!(sealed.len(), 59);
        assert_eq!(seal(&key(), &bound, p).unwrap(), sealed, "deterministic");
        assert_eq!(open(&key(), &bound, &state(sealed.clone()), 100), Ok(p));
        assert_eq!(
            open(&key(), &bound, &state(sealed.clone()), 101),
            Err(EXPIRED)
        );
        let other = args(&[("x", "1")]);
        for wrong in [
            Bound {
                principal: "tomas",
                ..bound
            },
            Bound {
                method: "prompts/get",
                ..bound
            },
            Bound { name: "u", ..bound },
            Bound {
                args: &other,
                ..bound
            },
        ] {
            assert_eq!(
                open(&key(), &wrong, &state(sealed.clone()), 0),
                Err(INVALID)
            );
        }
        let other_key = b"1123456789abcdef0123456789abcdef";
        assert_eq!(
            open(&Key::new(other_key), &bound, &state(sealed.clone()), 0),
            Err(INVALID)
        );
        for i in 0..sealed.len() {
            let mut bytes = sealed.clone().into_bytes();
            bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
            let forged = String::from_utf8(bytes).unwrap();
            assert!(open(&key(), &bound, &state(forged), 0).is_err(), "byte {i}");
        }
        assert_eq!(
            open(&key(), &bound, &state(format!("{sealed}-TAMPERED")), 0),
            Err(INVALID)
        );
        assert_eq!(
            open(&key(), &bound, &Shallow::Integer(1i64.into()), 0),
            Err(NOT_STRING)
        );
    }

    #[test]
    fn argument_order_does_not_matter_but_values_do() {
        let ab = args(&[("a", "1"), ("b", "2")]);
        let ba = args(&[("b", "2"), ("a", "1")]);
        assert_eq!(arguments(&ab), arguments(&ba));
        // No two splits of the same characters encode alike.
        assert_ne!(
            arguments(&args(&[("ab", "c")])),
            arguments(&args(&[("a", "bc")]))
        );
    }

    /// A key's debug form shows nothing of it (a configuration or a
    /// server printed for a diagnostic must not carry the secret).
    #[test]
    fn a_key_is_never_shown() {
        assert_eq!(format!("{:?}", key()), "Key(..)");
    }

    /// The key's state made ready once gives the tag a new HMAC keyed for
    /// every tag gives (RFC 2104), over every message length around the
    /// block boundaries, and for a key longer than a block (hashed first).
    #[test]
    fn a_ready_key_tags_as_a_fresh_hmac_does() {
        use hmac::{KeyInit as _, Mac as _};
        let long = [7u8; 100];
        for raw in [RAW, &long[..]] {
            let ready = Key::new(raw);
            for len in [0usize, 1, 55, 56, 63, 64, 65, 119, 128, 300] {
                let name = "n".repeat(len);
                let none = args(&[]);
                let bound = Bound {
                    principal: "mira",
                    method: "tools/call",
                    name: &name,
                    args: &none,
                };
                let header = header(Progress {
                    round: 1,
                    answered: 3,
                    expires: 9,
                });
                let mut fresh = hmac::Hmac::<sha2::Sha256>::new_from_slice(raw).unwrap();
                fresh.update(&message(&bound, &header));
                let want = fresh.finalize().into_bytes().to_vec();
                assert_eq!(tag(&ready, &bound, &header), Some(want), "len {len}");
            }
        }
    }
}
