//! The issuer's verification keys, for the HTTP driver: fixed in the
//! configuration (`http.authorization.jwks`), or fetched from the
//! authorization server: its metadata (RFC 8414 section 3, the
//! path-inserted `/.well-known/oauth-authorization-server`, then OpenID
//! Connect's `/.well-known/openid-configuration`), whose `issuer` must be
//! the configured issuer exactly (RFC 8414 section 3.3), then its
//! `jwks_uri`. A token naming a `kid` the keys lack makes the driver fetch
//! the set again, at most once per [`REFETCH_INTERVAL`] (key rotation,
//! without letting unknown `kid`s drive a fetch per request).
//!
//! Plain `http` only: this build has no TLS client, so an `https` issuer
//! without `jwks` is refused at start in one sentence. The documents are
//! read up to [`MAX_DOCUMENT`] bytes, with [`FETCH_TIMEOUT`].
//!
//! Spec: 2026-07-28 `basic/authorization/authorization-server-discovery.mdx`
//! ("Authorization Server Metadata Discovery"); RFC 8414; RFC 7517.

use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Empty, Limited};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use mcp_reference::OAuthSettings;
use mcp_reference::http::Keys;
use serde_json::Value;
use tokio::net::TcpStream;

/// The least time between two fetches of the key set on unknown `kid`s.
pub(crate) const REFETCH_INTERVAL: Duration = Duration::from_secs(5);
/// The most a metadata document or key set may hold.
const MAX_DOCUMENT: usize = 1024 * 1024;
/// How long one fetch may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// Where the keys come from, and the keys.
pub(crate) struct KeySource {
    jwks_uri: Option<String>,
    keys: RwLock<Arc<Keys>>,
    last: Mutex<Option<Instant>>,
}

impl KeySource {
    /// The keys for `settings` (none without authorization): the fixed set,
    /// or the issuer's, fetched now.
    pub(crate) async fn new(settings: Option<&OAuthSettings>) -> Result<KeySource, String> {
        let fixed = |keys: Keys| KeySource {
            jwks_uri: None,
            keys: RwLock::new(Arc::new(keys)),
            last: Mutex::new(None),
        };
        let Some(settings) = settings else {
            return Ok(fixed(Keys::default()));
        };
        if let Some(jwks) = &settings.jwks {
            let keys =
                Keys::from_jwks(jwks).map_err(|e| format!("http.authorization.jwks: {e}"))?;
            return usable(keys, "http.authorization.jwks").map(fixed);
        }
        let jwks_uri = discover(&settings.issuer).await?;
        let keys = fetch_keys(&jwks_uri).await?;
        Ok(KeySource {
            jwks_uri: Some(jwks_uri),
            keys: RwLock::new(Arc::new(keys)),
            last: Mutex::new(None),
        })
    }

    /// The current keys.
    pub(crate) fn keys(&self) -> Arc<Keys> {
        self.keys
            .read()
            .map_or_else(|_| Arc::new(Keys::default()), |k| k.clone())
    }

    /// The keys for a token naming `kid`: when they lack it and the set is
    /// fetched (not fixed), fetched again, at most once per
    /// [`REFETCH_INTERVAL`]. A failed fetch keeps the old keys.
    pub(crate) async fn keys_for(&self, kid: Option<&str>) -> Arc<Keys> {
        let keys = self.keys();
        let (Some(kid), Some(uri)) = (kid, &self.jwks_uri) else {
            return keys;
        };
        if keys.knows(kid) {
            return keys;
        }
        {
            let Ok(mut last) = self.last.lock() else {
                return keys;
            };
            if last.is_some_and(|t| t.elapsed() < REFETCH_INTERVAL) {
                return keys;
            }
            *last = Some(Instant::now());
        }
        match fetch_keys(uri).await {
            Ok(fresh) => {
                let fresh = Arc::new(fresh);
                if let Ok(mut slot) = self.keys.write() {
                    *slot = fresh.clone();
                }
                fresh
            }
            Err(_) => keys,
        }
    }
}

fn usable(keys: Keys, what: &str) -> Result<Keys, String> {
    if keys.is_empty() {
        return Err(format!("{what} holds no RSA or P-256 signing key"));
    }
    Ok(keys)
}

/// RFC 8414 section 3.1 and OpenID Connect Discovery: the metadata URLs of
/// an issuer, in the order tried.
fn metadata_urls(issuer: &str) -> Vec<String> {
    let scheme = issuer.find("://").map_or(0, |i| i + 3);
    let slash = issuer[scheme..]
        .find('/')
        .map_or(issuer.len(), |i| scheme + i);
    let (origin, path) = issuer.split_at(slash);
    let path = path.trim_end_matches('/');
    vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}/.well-known/openid-configuration{path}"),
        format!("{origin}{path}/.well-known/openid-configuration"),
    ]
}

/// The issuer's `jwks_uri`, from the first metadata document found whose
/// `issuer` is the configured one exactly.
async fn discover(issuer: &str) -> Result<String, String> {
    if !issuer.starts_with("http://") {
        return Err(format!(
            "the issuer {issuer} is not plain http, and this build fetches no https: put its keys in http.authorization.jwks"
        ));
    }
    for url in metadata_urls(issuer) {
        let Ok(document) = get_json(&url).await else {
            continue;
        };
        if document.get("issuer").and_then(Value::as_str) != Some(issuer) {
            return Err(format!(
                "the authorization server metadata at {url} names another issuer than {issuer}"
            ));
        }
        return match document.get("jwks_uri").and_then(Value::as_str) {
            Some(uri) if uri.starts_with("http://") => Ok(uri.to_owned()),
            Some(uri) => Err(format!(
                "the issuer's jwks_uri {uri} is not plain http, and this build fetches no https"
            )),
            None => Err(format!(
                "the authorization server metadata at {url} has no jwks_uri"
            )),
        };
    }
    Err(format!(
        "cannot fetch the authorization server metadata of {issuer}"
    ))
}

async fn fetch_keys(uri: &str) -> Result<Keys, String> {
    let document = get_json(uri).await?;
    let keys = Keys::from_jwks(&document).map_err(|e| format!("the key set at {uri}: {e}"))?;
    usable(keys, &format!("the key set at {uri}"))
}

/// `GET url` (plain http) and its body as JSON, for a 200 only.
async fn get_json(url: &str) -> Result<Value, String> {
    let failed = |why: &dyn std::fmt::Display| format!("cannot fetch {url}: {why}");
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| failed(&"not http"))?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    let fetch = async {
        let stream = TcpStream::connect(authority)
            .await
            .map_err(|e| failed(&e))?;
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| failed(&e))?;
        tokio::spawn(connection);
        let request = hyper::Request::get(path)
            .header(hyper::header::HOST, authority)
            .header(hyper::header::ACCEPT, "application/json")
            .body(Empty::<Bytes>::new())
            .map_err(|e| failed(&e))?;
        let response = sender.send_request(request).await.map_err(|e| failed(&e))?;
        if response.status() != hyper::StatusCode::OK {
            return Err(failed(&response.status()));
        }
        let body = Limited::new(response.into_body(), MAX_DOCUMENT)
            .collect()
            .await
            .map_err(|e| failed(&e))?
            .to_bytes();
        serde_json::from_slice(&body).map_err(|e| failed(&e))
    };
    tokio::time::timeout(FETCH_TIMEOUT, fetch)
        .await
        .map_err(|_| failed(&"timed out"))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_urls_insert_the_issuer_path() {
        assert_eq!(
            metadata_urls("http://as.example/tenant1"),
            [
                "http://as.example/.well-known/oauth-authorization-server/tenant1",
                "http://as.example/.well-known/openid-configuration/tenant1",
                "http://as.example/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            metadata_urls("http://127.0.0.1:9000")[0],
            "http://127.0.0.1:9000/.well-known/oauth-authorization-server"
        );
    }
}
