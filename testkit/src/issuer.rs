//! A test issuer: fixed signing keys (ES256 and RS256), their JWK Set,
//! and tokens minted from a header and claims, valid or changed one thing
//! at a time, for the fixed issuer, resource and time of the tests or for
//! any ([`Minting`]: what `check --http --auth` mints for a live server).
//! What the property tests, the fuzz target and `check --auth` sign with;
//! it decides nothing (whether a token is valid is the model's,
//! [`crate::model::auth`]).

use std::sync::OnceLock;

use mcp_reference::{Authorization, Config, HttpSettings, OAuthSettings};
use serde_json::{Value, json};

use crate::model::http::Listen;

/// Where the test configurations' servers listen: loopback port 8080,
/// [`RESOURCE`]'s.
pub const LISTEN: Listen = Listen {
    port: 8080,
    loopback: true,
};

/// The one test issuer of generated cases and fuzz inputs (built once:
/// its RSA key takes a moment).
pub fn issuer() -> &'static Issuer {
    static ISSUER: OnceLock<Issuer> = OnceLock::new();
    ISSUER.get_or_init(Issuer::default)
}

/// The resource URL of the test configurations (port 8080).
pub const RESOURCE: &str = "http://127.0.0.1:8080/mcp";
/// The issuer identifier of the test configurations.
pub const ISSUER: &str = "http://127.0.0.1:9000";
/// The `now` of the tests: 2027-01-15T08:00:00Z.
pub const NOW: u64 = 1_800_000_000;

/// The primes of an RSA-2048 key made for the test kit (`openssl genrsa`).
const P: &[&str] = &[
    "ebc974b51f3b90c8a43ad5038541b1849fd76802772b182ba8ac0d58e7bfa5da",
    "479f8da3b5ea770d58f16c633dcb82408953795038f7a303197a5f1d9bd37cb5",
    "c9b45aea847d5045d47fd70d98c8f6ba18ea19ae02682f921ae38b160d015e32",
    "a7abfa94581e6e4cd370dbe4b42cdaf7e68ed72962ec5b109d3f3e964a886fc5",
];
const Q: &[&str] = &[
    "d455145523b9a99643e26bb448fc8e3902e8e194bb913fa20732d23bd8a958d6",
    "73969e41190e9540752a79623e44478ee856b47d3378b1ad62c191c22e879ec4",
    "4338c4096346a51e4a0364ec38ddeba8ed1bb200ce4cb55ec6f4248288281f0f",
    "a850aa07330bd3314fea461218ff8de217d8d15b4c55e4a47d332ff45ebd37b7",
];

fn b64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

fn hex(parts: &[&str]) -> Vec<u8> {
    let text = parts.concat();
    (0..text.len() / 2)
        .filter_map(|i| u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

/// Who mints, for which resource, when: the `iss`, the `aud` and the
/// clock of the tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Minting {
    /// The issuer identifier (`iss`).
    pub issuer: String,
    /// The resource (`aud`).
    pub resource: String,
    /// The time tokens are minted at, in seconds since the epoch.
    pub now: u64,
}

impl Minting {
    /// The tests' own: [`ISSUER`], [`RESOURCE`], [`NOW`].
    pub fn fixed() -> Minting {
        Minting {
            issuer: ISSUER.into(),
            resource: RESOURCE.into(),
            now: NOW,
        }
    }

    /// An audience that is not this resource: the tests' port 8081, or
    /// (for any other resource) the resource with `-other` appended, which
    /// a prefix comparison would take for it.
    pub fn other_audience(&self) -> String {
        if self.resource == RESOURCE {
            "http://127.0.0.1:8081/mcp".into()
        } else {
            format!("{}-other", self.resource)
        }
    }
}

/// A DER element: tag, definite length, content.
fn der(tag: u8, content: &[u8]) -> Vec<u8> {
    let n = content.len();
    let mut out = vec![tag];
    match n {
        0..=127 => out.push(n as u8),
        128..=255 => out.extend([0x81, n as u8]),
        _ => out.extend([0x82, (n >> 8) as u8, n as u8]),
    }
    out.extend_from_slice(content);
    out
}

/// A DER INTEGER of the unsigned big-endian `bytes`.
fn der_uint(bytes: &[u8]) -> Vec<u8> {
    if bytes.first().is_some_and(|b| b & 0x80 != 0) {
        der(0x02, &[&[0u8][..], bytes].concat())
    } else {
        der(0x02, bytes)
    }
}

/// `der` as a PEM `PUBLIC KEY` block, lines of 64.
fn pem(der: &[u8]) -> Vec<u8> {
    use base64::Engine as _;
    let text = base64::engine::general_purpose::STANDARD.encode(der);
    let mut out = String::from("-----BEGIN PUBLIC KEY-----\n");
    for line in text.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(line));
        out.push('\n');
    }
    out.push_str("-----END PUBLIC KEY-----\n");
    out.into_bytes()
}

/// HMAC-SHA-256 (RFC 2104).
fn hmac_sha256(key: &[u8], message: &[u8]) -> Vec<u8> {
    use rsa::sha2::{Digest as _, Sha256};
    let mut block = if key.len() > 64 {
        Sha256::digest(key).to_vec()
    } else {
        key.to_vec()
    };
    block.resize(64, 0);
    let pad = |byte: u8| block.iter().map(|b| b ^ byte).collect::<Vec<u8>>();
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .to_vec()
}

/// The signing keys and their published JWK Set.
pub struct Issuer {
    ec: Vec<p256::ecdsa::SigningKey>,
    rsa: rsa::pkcs1v15::SigningKey<rsa::sha2::Sha256>,
    /// The RSA public key's modulus and exponent, big-endian.
    rsa_public: (Vec<u8>, Vec<u8>),
    jwks: Value,
}

impl Default for Issuer {
    fn default() -> Self {
        Issuer::new(1)
    }
}

impl Issuer {
    /// An issuer whose EC keys are `ec1` ... `ec{generation}` (a key
    /// rotation adds one) beside the RSA key `rsa1`.
    pub fn new(generation: u8) -> Issuer {
        let ec: Vec<_> = (1..=generation.max(1))
            .filter_map(|g| p256::ecdsa::SigningKey::from_slice(&[g.wrapping_mul(17) | 1; 32]).ok())
            .collect();
        let int = |h: &[&str]| rsa::BoxedUint::from_be_slice_vartime(&hex(h));
        let private = rsa::PrivateKey::from_p_q(int(P), int(Q), rsa::BoxedUint::from(65537u32))
            .expect("the committed primes make a key");
        let public = {
            use rsa::traits::PublicKeyParts as _;
            let key = rsa::PublicKey::from(&private);
            (
                key.n().to_be_bytes_trimmed_vartime(),
                key.e().to_be_bytes_trimmed_vartime(),
            )
        };
        let mut keys: Vec<Value> = ec
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let point = k.verifying_key().to_sec1_point(false);
                let xy = point.as_bytes();
                json!({"kty": "EC", "crv": "P-256", "kid": format!("ec{}", i + 1), "use": "sig",
                       "alg": "ES256", "x": b64(&xy[1..33]), "y": b64(&xy[33..65])})
            })
            .collect();
        keys.push(
            json!({"kty": "RSA", "kid": "rsa1", "use": "sig", "alg": "RS256",
                         "n": b64(&public.0), "e": b64(&public.1)}),
        );
        Issuer {
            ec,
            rsa: rsa::pkcs1v15::SigningKey::new(private),
            rsa_public: (public.0.to_vec(), public.1.to_vec()),
            jwks: json!({ "keys": keys }),
        }
    }

    /// The JWK Set document.
    pub fn jwks(&self) -> &Value {
        &self.jwks
    }

    /// Tokens for `sub` that claim `HS256` and carry an HMAC-SHA-256 keyed
    /// with this issuer's public key material, in each form a confused
    /// verifier might take for a shared secret: a key's PEM
    /// `SubjectPublicKeyInfo`, a key's JWK text, the JWK Set text. Each
    /// comes as `(the form, token)`; the header names the key's `kid`.
    pub fn hmac_with_public_keys(
        &self,
        minting: &Minting,
        sub: &str,
        scope: &str,
    ) -> Vec<(String, String)> {
        let claims = claims_for(minting, sub, scope);
        let mut secrets: Vec<(String, String, Vec<u8>)> = Vec::new();
        let rsa_key = der(
            0x30,
            &[der_uint(&self.rsa_public.0), der_uint(&self.rsa_public.1)].concat(),
        );
        let rsa_oid = der(
            0x30,
            &[&hex(&["06092a864886f70d010101"])[..], &[5, 0]].concat(),
        );
        let rsa_spki = der(
            0x30,
            &[rsa_oid, der(0x03, &[&[0u8][..], &rsa_key].concat())].concat(),
        );
        secrets.push(("the PEM of rsa1".into(), "rsa1".into(), pem(&rsa_spki)));
        for (i, key) in self.ec.iter().enumerate() {
            let point = key.verifying_key().to_sec1_point(false);
            let ec_oid = der(0x30, &hex(&["06072a8648ce3d020106082a8648ce3d030107"]));
            let spki = der(
                0x30,
                &[ec_oid, der(0x03, &[&[0u8][..], point.as_bytes()].concat())].concat(),
            );
            let kid = format!("ec{}", i + 1);
            secrets.push((format!("the PEM of {kid}"), kid, pem(&spki)));
        }
        for key in self.jwks["keys"].as_array().into_iter().flatten() {
            let kid = key["kid"].as_str().unwrap_or_default().to_owned();
            secrets.push((
                format!("the JWK of {kid}"),
                kid,
                key.to_string().into_bytes(),
            ));
        }
        secrets.push((
            "the JWK Set".into(),
            "rsa1".into(),
            self.jwks.to_string().into_bytes(),
        ));
        secrets
            .into_iter()
            .map(|(form, kid, secret)| {
                let h = json!({"typ": "at+jwt", "alg": "HS256", "kid": kid});
                let input = format!(
                    "{}.{}",
                    b64(h.to_string().as_bytes()),
                    b64(claims.to_string().as_bytes())
                );
                let mac = hmac_sha256(&secret, input.as_bytes());
                (form, format!("{input}.{}", b64(&mac)))
            })
            .collect()
    }

    /// Signs `header` and `claims` as a compact JWS, with the key the
    /// header's `alg` and `kid` name (ES256 with `ec1` when they name none
    /// of this issuer's).
    pub fn mint(&self, header: &Value, claims: &Value) -> String {
        let input = format!(
            "{}.{}",
            b64(header.to_string().as_bytes()),
            b64(claims.to_string().as_bytes())
        );
        let signature = if header["alg"] == "RS256" {
            use rsa::signature::{SignatureEncoding as _, Signer as _};
            self.rsa.sign(input.as_bytes()).to_vec()
        } else {
            use p256::ecdsa::signature::Signer as _;
            let index = header["kid"]
                .as_str()
                .and_then(|k| k.strip_prefix("ec"))
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|n| n.checked_sub(1))
                .filter(|n| *n < self.ec.len())
                .unwrap_or(0);
            let s: p256::ecdsa::Signature = self.ec[index].sign(input.as_bytes());
            s.to_bytes().to_vec()
        };
        format!("{input}.{}", b64(&signature))
    }

    /// A valid token for `sub` with `scope`, ES256 or RS256.
    pub fn token(&self, sub: &str, scope: &str, rs256: bool) -> String {
        let header = if rs256 {
            json!({"typ": "at+jwt", "alg": "RS256", "kid": "rsa1"})
        } else {
            header()
        };
        self.mint(&header, &claims(sub, scope))
    }

    /// A valid ES256 token for `sub` with `scope`, as `minting` says.
    pub fn token_for(&self, minting: &Minting, sub: &str, scope: &str) -> String {
        self.mint(&header(), &claims_for(minting, sub, scope))
    }

    /// `token` with one thing changed.
    pub fn changed(&self, sub: &str, change: Change) -> String {
        self.changed_for(&Minting::fixed(), sub, "orders:read", change)
    }

    /// [`Issuer::token_for`] with one thing changed.
    pub fn changed_for(&self, minting: &Minting, sub: &str, scope: &str, change: Change) -> String {
        let mut h = header();
        let mut c = claims_for(minting, sub, scope);
        let now = minting.now;
        match change {
            Change::SignatureByte(i) => {
                let token = self.mint(&h, &c);
                let (input, sig) = token.rsplit_once('.').unwrap_or((&token, ""));
                let mut bytes = sig.as_bytes().to_vec();
                let n = bytes.len().max(1);
                if let Some(b) = bytes.get_mut(usize::from(i) % n) {
                    *b = if *b == b'A' { b'B' } else { b'A' };
                }
                return format!("{input}.{}", String::from_utf8_lossy(&bytes));
            }
            Change::Audience => c["aud"] = json!(minting.other_audience()),
            Change::NoAudience => drop(c.as_object_mut().map(|m| m.remove("aud"))),
            Change::Issuer => c["iss"] = json!(format!("{}/", minting.issuer)),
            Change::Expired => c["exp"] = json!(now.saturating_sub(3600)),
            Change::AlgNone => {
                h["alg"] = json!("none");
                let token = self.mint(&h, &c);
                let input = token.rsplit_once('.').map_or("", |(i, _)| i);
                return format!("{input}.");
            }
            Change::AlgHmac => h["alg"] = json!("HS256"),
            Change::AlgSwap => h["alg"] = json!("RS256"),
            Change::Kid => h["kid"] = json!("unknown"),
            Change::Typ => h["typ"] = json!("JWT"),
            Change::NoSubject => drop(c.as_object_mut().map(|m| m.remove("sub"))),
            Change::NotYet => c["nbf"] = json!(now + 3600),
        }
        let token = self.mint(&h, &c);
        if change == Change::AlgSwap {
            // Claims RS256 over an ES256 signature by ec1.
            let ec = self.mint(&header(), &c);
            let sig = ec.rsplit_once('.').map_or("", |(_, s)| s);
            let input = token.rsplit_once('.').map_or("", |(i, _)| i);
            return format!("{input}.{sig}");
        }
        token
    }
}

/// One change to a valid token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A byte of the signature part replaced.
    SignatureByte(u8),
    /// `aud` another resource.
    Audience,
    /// No `aud`.
    NoAudience,
    /// `iss` another issuer (a trailing slash).
    Issuer,
    /// `exp` an hour ago.
    Expired,
    /// `alg: none` with an empty signature.
    AlgNone,
    /// `alg: HS256`.
    AlgHmac,
    /// `alg: RS256` over an ES256 signature.
    AlgSwap,
    /// An unknown `kid`.
    Kid,
    /// `typ: JWT`.
    Typ,
    /// No `sub`.
    NoSubject,
    /// `nbf` an hour ahead.
    NotYet,
}

/// Every change but the signature byte, and the signature byte at 0.
pub const CHANGES: &[Change] = &[
    Change::SignatureByte(0),
    Change::Audience,
    Change::NoAudience,
    Change::Issuer,
    Change::Expired,
    Change::AlgNone,
    Change::AlgHmac,
    Change::AlgSwap,
    Change::Kid,
    Change::Typ,
    Change::NoSubject,
    Change::NotYet,
];

/// The header of a valid ES256 token.
pub fn header() -> Value {
    json!({"typ": "at+jwt", "alg": "ES256", "kid": "ec1"})
}

/// The claims of a valid token for `sub`.
pub fn claims(sub: &str, scope: &str) -> Value {
    claims_for(&Minting::fixed(), sub, scope)
}

/// The claims of a valid token for `sub`, as `minting` says: valid from
/// ten seconds before its `now` to five minutes after.
pub fn claims_for(minting: &Minting, sub: &str, scope: &str) -> Value {
    json!({"iss": minting.issuer, "aud": minting.resource, "sub": sub,
           "client_id": "test-client", "iat": minting.now.saturating_sub(10),
           "exp": minting.now + 300, "jti": "t1", "scope": scope})
}

/// The settings of the test configurations: `client-7` maps to tomas.
pub fn settings(jwks: &Value) -> OAuthSettings {
    let mut s = OAuthSettings::new(RESOURCE, ISSUER);
    s.users.insert("client-7".into(), "tomas".into());
    s.jwks = Some(jwks.clone());
    s
}

/// `config` with authorization on, at [`RESOURCE`] and [`ISSUER`].
pub fn with_auth(config: Config, settings: OAuthSettings) -> Config {
    let http = HttpSettings {
        authorization: Some(Authorization::OAuth(Box::new(settings))),
        ..config.http().clone()
    };
    config.with_http(http).expect("the test settings are valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 4231 test case 2, and a key longer than the block (case 6).
    #[test]
    fn hmac_sha256_matches_rfc_4231() {
        let mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(
            mac,
            hex(&["5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"])
        );
        let mac = hmac_sha256(
            &[0xaa; 131],
            b"Test Using Larger Than Block-Size Key - Hash Key First",
        );
        assert_eq!(
            mac,
            hex(&["60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"])
        );
    }
}
