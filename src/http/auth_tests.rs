//! Unit tests of the authorization step: every check of [`verify`] on
//! its own, the credentials parser, the challenges and the metadata
//! document. The rows as a whole are held against the model in
//! tests/http_auth.rs.

use super::*;
use crate::config::HttpSettings;
use crate::config::auth::Authorization;
use crate::http::{Binding, Bound};
use serde_json::json;

const RESOURCE: &str = "http://127.0.0.1:8080/mcp";
const ISSUER: &str = "http://127.0.0.1:9000";
const NOW: u64 = 1_800_000_000;

/// An RSA test key made for these tests (`openssl genrsa 2048`): its
/// primes, hex.
const P: &[&str] = &[
    "f83a4d06f8bb50c64f58aa260fbf3225fd7e352b93fe1220bd6dfb37b76d7d32",
    "48f059b46d673437463fb0f7c788c427579b8507ebd7a8ee98e4c610dfe8336b",
    "ed362e9ac8e5d49de925003b6d426dd93d9d53b7d18c65456af29dad1a2178c0",
    "c42ff6fed93072f5b195429076d198d7c028cadef6ab1cf2ffef94f5296246e5",
];
const Q: &[&str] = &[
    "f68bd4d4b11dbf71ddadde64bc063108dc0e80f67b9aa4ffafcc8b615c7a0966",
    "4ada53f35a5cd7f7e365f8ac427238b04679739041e261743cb95b2b7a0e2fa7",
    "3b89f53d67971c6d1db16bd75a5b881e91bd196abef42d39da2c5fdaccb8fbdb",
    "dc9787dde93aae7eb967b291294b9bf63edce518e895ddb4c3c35065c3a4ddcd",
];

fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

fn ec_key() -> p256::ecdsa::SigningKey {
    p256::ecdsa::SigningKey::from_slice(&[7u8; 32]).unwrap()
}

fn rsa_key() -> rsa::PrivateKey {
    let int = |h: &[&str]| {
        let hex = h.concat();
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        rsa::BoxedUint::from_be_slice_vartime(&bytes)
    };
    rsa::PrivateKey::from_p_q(int(P), int(Q), rsa::BoxedUint::from(65537u32)).unwrap()
}

fn jwks() -> Keys {
    use rsa::traits::PublicKeyParts as _;
    let point = ec_key().verifying_key().to_sec1_point(false);
    let bytes = point.as_bytes();
    let rsa = rsa::PublicKey::from(rsa_key());
    Keys::from_jwks(&json!({"keys": [
        {"kty": "EC", "crv": "P-256", "kid": "ec1", "use": "sig",
         "x": b64(&bytes[1..33]), "y": b64(&bytes[33..65])},
        {"kty": "RSA", "kid": "rsa1", "alg": "RS256",
         "n": b64(&rsa.n().to_be_bytes_trimmed_vartime()), "e": b64(&rsa.e().to_be_bytes_trimmed_vartime())},
        {"kty": "oct", "kid": "hmac", "k": "c2VjcmV0"},
    ]}))
    .unwrap()
}

fn sign(header: &Value, claims: &Value) -> String {
    let input = format!(
        "{}.{}",
        b64(header.to_string().as_bytes()),
        b64(claims.to_string().as_bytes())
    );
    let signature = match header["alg"].as_str() {
        Some("RS256") => {
            use rsa::signature::{SignatureEncoding as _, Signer as _};
            let key = rsa::pkcs1v15::SigningKey::<rsa::sha2::Sha256>::new(rsa_key());
            key.sign(input.as_bytes()).to_vec()
        }
        _ => {
            use p256::ecdsa::signature::Signer as _;
            let s: p256::ecdsa::Signature = ec_key().sign(input.as_bytes());
            s.to_bytes().to_vec()
        }
    };
    format!("{input}.{}", b64(&signature))
}

fn header() -> Value {
    json!({"typ": "at+jwt", "alg": "ES256", "kid": "ec1"})
}

fn claims() -> Value {
    json!({"iss": ISSUER, "aud": RESOURCE, "sub": "mira", "exp": NOW + 60,
           "iat": NOW, "scope": "orders:read", "client_id": "c"})
}

fn settings() -> OAuthSettings {
    OAuthSettings::new(RESOURCE, ISSUER)
}

fn check(header: Value, claims: Value) -> Result<Identity, Rejection> {
    verify(&settings(), &jwks(), NOW, &sign(&header, &claims))
}

fn with(mut v: Value, key: &str, value: Value) -> Value {
    v[key] = value;
    v
}

fn without(mut v: Value, key: &str) -> Value {
    v.as_object_mut().unwrap().remove(key);
    v
}

#[test]
fn a_valid_token_names_its_user_with_either_algorithm() {
    let id = check(header(), claims()).unwrap();
    assert_eq!(
        (id.user.as_deref(), id.subject.as_str()),
        (Some("mira"), "mira")
    );
    assert_eq!(id.expires, NOW + 60);
    let rs = json!({"typ": "application/AT+JWT", "alg": "RS256", "kid": "rsa1"});
    assert_eq!(check(rs, claims()).unwrap().user.as_deref(), Some("mira"));
}

#[test]
fn each_check_refuses_on_its_own() {
    use Rejection::*;
    let h = header;
    let c = claims;
    let cases: Vec<(Value, Value, Rejection)> = vec![
        (with(h(), "typ", json!("JWT")), c(), Type),
        (without(h(), "typ"), c(), Type),
        (with(h(), "alg", json!("none")), c(), Algorithm),
        (with(h(), "alg", json!("HS256")), c(), Algorithm),
        (with(h(), "crit", json!(["exp"])), c(), Critical),
        (with(h(), "kid", json!("unknown")), c(), Key),
        (with(h(), "kid", json!("rsa1")), c(), Key),
        (with(h(), "kid", json!(7)), c(), Key),
        (
            h(),
            with(c(), "iss", json!("http://127.0.0.1:9000/")),
            Issuer,
        ),
        (h(), without(c(), "iss"), Issuer),
        (h(), without(c(), "aud"), Audience),
        (
            h(),
            with(c(), "aud", json!("http://127.0.0.1:8080/mcp/")),
            Audience,
        ),
        (h(), with(c(), "aud", json!(["http://other/mcp"])), Audience),
        (h(), with(c(), "aud", json!(null)), Audience),
        (h(), without(c(), "exp"), Expired),
        (h(), with(c(), "exp", json!("1900000000")), Expired),
        (h(), with(c(), "exp", json!(NOW - 30)), Expired),
        (h(), with(c(), "nbf", json!(NOW + 31)), NotYet),
        (h(), with(c(), "nbf", json!("0")), NotYet),
        (h(), without(c(), "sub"), Subject),
        (h(), with(c(), "sub", json!("")), Subject),
    ];
    for (header, claims, want) in cases {
        assert_eq!(
            check(header.clone(), claims.clone()),
            Err(want),
            "{header} {claims}"
        );
    }
}

#[test]
fn the_leeway_and_audience_lists_are_honoured() {
    assert!(check(header(), with(claims(), "exp", json!(NOW - 29))).is_ok());
    assert!(check(header(), with(claims(), "nbf", json!(NOW + 30))).is_ok());
    let list = json!(["http://other/mcp", RESOURCE]);
    assert!(check(header(), with(claims(), "aud", list)).is_ok());
    // Without a kid, the one key that fits the algorithm.
    assert!(check(without(header(), "kid"), claims()).is_ok());
}

/// Without a `kid`, the key is the only one whose type fits the
/// algorithm, even when no key names its `alg`: an RSA key never serves
/// ES256 nor a P-256 key RS256 (DEC33).
#[test]
fn without_a_kid_the_key_is_the_only_one_of_the_algorithm_s_type() {
    let mut set = json!({"keys": []});
    for jwk in [
        json!({"kty": "EC", "crv": "P-256", "x": "", "y": ""}),
        json!({"kty": "RSA", "n": "", "e": ""}),
    ] {
        set["keys"].as_array_mut().unwrap().push(jwk);
    }
    let (ec, rsa) = {
        use rsa::traits::PublicKeyParts as _;
        let point = ec_key().verifying_key().to_sec1_point(false);
        let bytes = point.as_bytes().to_vec();
        let public = rsa::PublicKey::from(rsa_key());
        (
            (b64(&bytes[1..33]), b64(&bytes[33..65])),
            (
                b64(&public.n().to_be_bytes_trimmed_vartime()),
                b64(&public.e().to_be_bytes_trimmed_vartime()),
            ),
        )
    };
    set["keys"][0]["x"] = json!(ec.0);
    set["keys"][0]["y"] = json!(ec.1);
    set["keys"][1]["n"] = json!(rsa.0);
    set["keys"][1]["e"] = json!(rsa.1);
    let keys = Keys::from_jwks(&set).unwrap();
    assert_eq!(keys.len(), 2);
    // What the driver asks before it refetches on an unknown kid.
    // Keys without a kid know none; the named set knows its signing keys'
    // kids, and not the HMAC key's, which it left out.
    let named = jwks();
    assert!(named.knows("ec1") && named.knows("rsa1"));
    assert!(!named.knows("hmac") && !named.knows("rsa2") && !keys.knows("ec1"));
    assert!(!keys.is_empty());
    for alg in ["ES256", "RS256"] {
        let header = json!({"typ": "at+jwt", "alg": alg});
        let token = sign(&header, &claims());
        assert!(verify(&settings(), &keys, NOW, &token).is_ok(), "{alg}");
    }
    // Keys without their material are no keys: an RSA key with an empty
    // modulus or exponent, a P-256 point whose coordinates are not 32
    // bytes each. They are left out, so they neither count nor stand
    // beside the real key as a second candidate.
    let (x, y) = (set["keys"][0]["x"].clone(), set["keys"][0]["y"].clone());
    let (n, e) = (set["keys"][1]["n"].clone(), set["keys"][1]["e"].clone());
    let short = json!(b64(&[1u8; 31]));
    let long = json!(b64(&[1u8; 33]));
    for junk in [
        json!({"kty": "RSA", "n": "", "e": e}),
        json!({"kty": "RSA", "n": n, "e": ""}),
        json!({"kty": "EC", "crv": "P-256", "x": short, "y": y}),
        json!({"kty": "EC", "crv": "P-256", "x": x, "y": long}),
    ] {
        let alone = Keys::from_jwks(&json!({"keys": [junk]})).unwrap();
        assert!(alone.is_empty(), "{junk}");
        let mut with_junk = set.clone();
        with_junk["keys"].as_array_mut().unwrap().push(junk.clone());
        let keys = Keys::from_jwks(&with_junk).unwrap();
        assert_eq!(keys.len(), 2, "{junk}");
        for alg in ["ES256", "RS256"] {
            let token = sign(&json!({"typ": "at+jwt", "alg": alg}), &claims());
            assert!(
                verify(&settings(), &keys, NOW, &token).is_ok(),
                "{alg} {junk}"
            );
        }
    }
}

#[test]
fn a_changed_byte_anywhere_is_refused() {
    let token = sign(&header(), &claims());
    let keys = jwks();
    for i in 0..token.len() {
        let mut bytes = token.clone().into_bytes();
        bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
        let changed = String::from_utf8(bytes).unwrap();
        assert!(
            verify(&settings(), &keys, NOW, &changed).is_err(),
            "byte {i} changed and accepted"
        );
    }
    for bad in ["", "a.b", "a.b.c.d", &format!("{token}=")] {
        assert_eq!(
            verify(&settings(), &keys, NOW, bad).map(|_| ()),
            Err(Rejection::Malformed)
        );
    }
}

#[test]
fn hmac_keyed_with_the_public_key_is_refused() {
    use rsa::traits::PublicKeyParts as _;
    let mut s = settings();
    // Even if HS256 were listed, no key of this set fits it.
    s.algorithms.push("HS256".into());
    let public = rsa::PublicKey::from(rsa_key())
        .n()
        .to_be_bytes_trimmed_vartime();
    let input = format!(
        "{}.{}",
        b64(json!({"typ": "at+jwt", "alg": "HS256", "kid": "rsa1"})
            .to_string()
            .as_bytes()),
        b64(claims().to_string().as_bytes())
    );
    let forged = format!("{input}.{}", b64(&public));
    assert_eq!(
        verify(&s, &jwks(), NOW, &forged).map(|_| ()),
        Err(Rejection::Key)
    );
}

fn request<'a>(headers: &'a [(&'a str, &'a [u8])]) -> Request<'a> {
    Request {
        method: "POST",
        target: "/mcp",
        headers,
        body: b"",
    }
}

#[test]
fn credentials_come_from_one_authorization_header_only() {
    fn one(v: &'static [u8]) -> Credentials<'static> {
        let headers: &'static [(&str, &[u8])] = Box::leak(Box::new([("Authorization", v)]));
        credentials(&request(headers))
    }
    assert_eq!(credentials(&request(&[])), Credentials::Absent);
    assert_eq!(one(b"Basic dXNlcjpwYXNz"), Credentials::Absent);
    assert_eq!(
        one(b"bearer abc.def-_~+/=="),
        Credentials::Bearer("abc.def-_~+/==")
    );
    assert_eq!(one(b"Bearer"), Credentials::Malformed);
    assert_eq!(one(b"Bearer a b"), Credentials::Malformed);
    assert_eq!(one(b"Bearer =="), Credentials::Malformed);
    assert_eq!(one(b"Bearer a\"b"), Credentials::Malformed);
    assert_eq!(one(b"Bearer a=b"), Credentials::Malformed);
    // Every character token68 allows, and none of its neighbours in ASCII
    // (each at the end of a long token: every byte is judged).
    let all = "AZaz09-._~+/MNmn45";
    let leaked: &'static str = Box::leak(format!("Bearer {all}=").into_boxed_str());
    assert_eq!(one(leaked.as_bytes()), Credentials::Bearer(&leaked[7..]));
    for bad in [b'@', b'[', b'`', b'{', b':', b',', b'*', b'\x7f', b'\xc3'] {
        let mut token = format!("Bearer {}", "a".repeat(700)).into_bytes();
        token.push(bad);
        let token: &'static [u8] = Box::leak(token.into_boxed_slice());
        assert_eq!(one(token), Credentials::Malformed, "{bad}");
    }
    let two = credentials(&request(&[
        ("authorization", b"Bearer a"),
        ("Authorization", b"Bearer a"),
    ]));
    assert_eq!(two, Credentials::Malformed);
    // A token in the query string is no token.
    let mut r = request(&[]);
    r.target = "/mcp?access_token=abc";
    assert_eq!(credentials(&r), Credentials::Absent);
}

fn binding() -> Binding {
    let mut s = settings();
    s.users.insert("client-1".into(), "tomas".into());
    let http = HttpSettings {
        authorization: Some(Authorization::OAuth(Box::new(s))),
        ..HttpSettings::default()
    };
    let config = Config::default().with_http(http).unwrap();
    Binding::new(
        Server::new(config),
        Bound {
            port: 8080,
            loopback: true,
        },
    )
}

/// What a driver asks before it looks a token up or fetches keys: on
/// only with settings, off without `http.authorization` and with the word
/// `"none"`.
#[test]
fn a_binding_authorizes_only_with_settings() {
    assert!(binding().authorizes());
    let bound = Bound {
        port: 8080,
        loopback: true,
    };
    let plain = Binding::new(Server::new(Config::default()), bound);
    assert!(!plain.authorizes());
    let none = HttpSettings {
        authorization: Some(Authorization::Word("none".into())),
        ..HttpSettings::default()
    };
    let config = Config::default().with_http(none).unwrap();
    assert!(!Binding::new(Server::new(config), bound).authorizes());
}

#[test]
fn the_metadata_document_is_served_at_both_paths_without_a_token() {
    let b = binding();
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource?x",
    ] {
        let r = Request {
            method: "GET",
            target: path,
            headers: &[],
            body: b"",
        };
        let got = b.respond(&r);
        assert_eq!(got.status, 200);
        assert_eq!(got.header("content-type"), Some("application/json"));
        let doc: Value = serde_json::from_slice(&got.body).unwrap();
        assert_eq!(
            doc,
            json!({"resource": RESOURCE, "authorization_servers": [ISSUER],
            "scopes_supported": ["orders:read"], "bearer_methods_supported": ["header"]})
        );
        let head = b.respond(&Request {
            method: "HEAD",
            ..r
        });
        assert_eq!((head.status, head.body.len()), (200, 0));
        // HEAD: GET's head without its body (RFC 9110 section 9.3.2).
        assert_eq!(head.header("content-type"), Some("application/json"));
        let post = b.respond(&Request {
            method: "POST",
            ..r
        });
        assert_eq!(
            (post.status, post.header("allow")),
            (405, Some("GET, HEAD"))
        );
    }
}

#[test]
fn challenges_say_error_only_when_a_token_came() {
    let b = binding();
    let url =
        "resource_metadata=\"http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp\"";
    let host: (&str, &[u8]) = ("host", b"127.0.0.1:8080");
    let none = b.respond(&request(&[host]));
    assert_eq!(none.status, 401);
    assert_eq!(
        none.challenge.unwrap(),
        format!("Bearer scope=\"orders:read\", {url}")
    );
    let bad = b.respond(&request(&[host, ("authorization", b"Bearer abc")]));
    assert_eq!(bad.status, 401);
    assert_eq!(
        bad.challenge.unwrap(),
        format!("Bearer error=\"invalid_token\", scope=\"orders:read\", {url}")
    );
    let two = b.respond(&request(&[
        host,
        ("authorization", b"Bearer a"),
        ("authorization", b"Bearer a"),
    ]));
    assert_eq!(two.status, 400);
    assert_eq!(
        two.challenge.unwrap(),
        format!("Bearer error=\"invalid_request\", {url}")
    );
    // A foreign Origin is refused before any challenge (DEC31).
    let foreign = b.respond(&request(&[host, ("origin", b"http://evil.example")]));
    assert_eq!((foreign.status, foreign.challenge), (403, None));
}

/// DEC36: a subject not in the `users` map is the user of that name,
/// unless the token is a client acting for itself (`sub` equal to
/// `client_id`, RFC 9068 section 2.2): that is no user unless the map
/// lists it.
#[test]
fn an_unmapped_subject_never_borrows_a_user_s_name() {
    let user_of = |s: &OAuthSettings, sub: &str, client: &str| {
        let claims = with(
            with(claims(), "sub", json!(sub)),
            "client_id",
            json!(client),
        );
        verify(s, &jwks(), NOW, &sign(&header(), &claims))
            .unwrap()
            .user
    };
    let mut s = settings();
    s.users.insert("client-1".into(), "tomas".into());
    assert_eq!(user_of(&s, "mira", "app").as_deref(), Some("mira"));
    assert_eq!(user_of(&s, "mira", "mira"), None);
    assert_eq!(
        user_of(&s, "client-1", "client-1").as_deref(),
        Some("tomas")
    );
    assert_eq!(user_of(&s, "client-1", "app").as_deref(), Some("tomas"));
    s.users.clear();
    assert_eq!(user_of(&s, "mira", "mira"), None);
    assert_eq!(user_of(&s, "client-1", "client-1"), None);
}

#[test]
fn scope_and_user_come_from_the_verified_token() {
    let b = binding();
    let guard = b.auth.as_ref().unwrap();
    let identity = |user: &str, scopes: &[&str]| Identity {
        issuer: ISSUER.into(),
        subject: user.into(),
        user: Some(user.into()),
        expires: NOW,
        scopes: scopes.iter().map(|s| s.to_string()).collect(),
    };
    let refused = guard.admit(&identity("mira", &["other"])).err().unwrap();
    assert_eq!(refused.status, 403);
    assert!(refused.challenge.unwrap().starts_with(
        "Bearer error=\"insufficient_scope\", scope=\"orders:read\", resource_metadata="
    ));
    let mira = guard
        .admit(&identity("mira", &["orders:read"]))
        .ok()
        .unwrap();
    assert_eq!(mira.config().user(), "mira");
    let nobody = guard
        .admit(&identity("eve", &["orders:read"]))
        .ok()
        .unwrap();
    assert!(
        nobody
            .config()
            .orders()
            .iter()
            .all(|o| o.owner != nobody.config().user())
    );
    // The users map: a client's subject mapped to an owner.
    let s = guard.settings();
    let token = sign(&header(), &with(claims(), "sub", json!("client-1")));
    assert_eq!(
        verify(s, &jwks(), NOW, &token).unwrap().user.as_deref(),
        Some("tomas")
    );
}

#[test]
fn a_cached_identity_stands_in_for_its_token_until_it_expires() {
    let b = binding();
    let host: (&str, &[u8]) = ("host", b"127.0.0.1:8080");
    let auth: (&str, &[u8]) = ("authorization", b"Bearer not.a.token");
    let json: (&str, &[u8]) = ("content-type", b"application/json");
    let headers = [host, json, auth];
    let cached = Identity {
        issuer: ISSUER.into(),
        subject: "tomas".into(),
        user: Some("tomas".into()),
        expires: NOW + 10,
        scopes: vec!["orders:read".into()],
    };
    let keys = jwks();
    let at = |now: u64| {
        let trust = Trust {
            keys: &keys,
            now,
            verified: Some(&cached),
        };
        b.head(&request(&headers), &trust)
    };
    let admitted = at(NOW + 9).ok().unwrap();
    assert_eq!(admitted.server.config().user(), "tomas");
    assert!(admitted.identity.is_none());
    // Expired: the token itself is verified again, and refused.
    assert_eq!(at(NOW + 10).err().unwrap().status, 401);
    // A fresh verification hands its identity to the driver.
    let token = sign(&header(), &claims());
    let bearer = format!("Bearer {token}");
    let headers = [host, json, ("authorization", bearer.as_bytes())];
    let trust = Trust {
        keys: &keys,
        now: NOW,
        verified: None,
    };
    let admitted = b.head(&request(&headers), &trust).ok().unwrap();
    assert_eq!(
        admitted.identity.and_then(|i| i.user),
        Some("mira".to_owned())
    );
}

/// `kid_of` reads the header's `kid` and nothing else: what the driver
/// asks before refetching keys (a token's other parts are not read).
#[test]
fn kid_of_reads_the_header_s_kid() {
    let part = |v: serde_json::Value| URL_SAFE_NO_PAD.encode(v.to_string());
    let token = |header: serde_json::Value| format!("{}.e30.c2ln", part(header));
    assert_eq!(
        kid_of(&token(json!({"alg": "RS256", "kid": "rsa1"}))).as_deref(),
        Some("rsa1")
    );
    assert_eq!(
        kid_of(&token(json!({"alg": "RS256", "kid": ""}))).as_deref(),
        Some("")
    );
    assert_eq!(kid_of(&token(json!({"alg": "RS256"}))), None);
    assert_eq!(kid_of(&token(json!({"alg": "RS256", "kid": 7}))), None);
    assert_eq!(kid_of("not base64!.e30.c2ln"), None);
    assert_eq!(
        kid_of(&format!("{}.e30.c2ln", URL_SAFE_NO_PAD.encode("[1"))),
        None
    );
}
