//! The issuer's verification keys, for the HTTP driver: fixed in the
//! configuration (`http.authorization.jwks`), or fetched from the
//! authorization server: its metadata (RFC 8414 section 3, the
//! path-inserted `/.well-known/oauth-authorization-server`, then OpenID
//! Connect's `/.well-known/openid-configuration`), whose `issuer` must be
//! the configured issuer exactly (RFC 8414 section 3.3), then its
//! `jwks_uri`. A token naming a `kid` the keys lack makes the driver fetch
//! the set again, at most once per [`REFETCH_INTERVAL`] (key rotation,
//! without letting unknown `kid`s drive a fetch per request), in the
//! background: the request that caused it waits at most [`FETCH_WAIT`].
//!
//! Over `https` (TLS 1.3 or 1.2 through rustls, the certificate checked
//! against the Mozilla roots of `webpki-roots` and the certificates of
//! `serve --http --issuer-ca FILE`), or plain `http` to a loopback host
//! only (DEC38): the security considerations of 2026-07-28 ask that every
//! authorization server endpoint be served over HTTPS, so a key set from a
//! remote host is never taken over a channel anyone on the path could
//! rewrite. The documents are read up to [`MAX_DOCUMENT`] bytes, with
//! [`FETCH_TIMEOUT`].
//!
//! Spec: 2026-07-28 `basic/authorization/authorization-server-discovery.mdx`
//! ("Authorization Server Metadata Discovery"),
//! `basic/authorization/security-considerations.mdx` ("Communication
//! Security"); RFC 8414; RFC 7517.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Empty, Limited};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use mcp_reference::OAuthSettings;
use mcp_reference::http::Keys;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

/// The least time between two fetches of the key set on unknown `kid`s.
pub(crate) const REFETCH_INTERVAL: Duration = Duration::from_secs(5);
/// The most a metadata document or key set may hold.
const MAX_DOCUMENT: usize = 1024 * 1024;
/// How long one fetch may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a request whose token names an unknown `kid` waits for the key
/// set's refetch: the fetch goes on in the background (up to
/// [`FETCH_TIMEOUT`]), and a request not answered by then is judged with
/// the keys at hand, so a stalled issuer never holds a request longer
/// (docs/behavior.md, DEC49).
pub(crate) const FETCH_WAIT: Duration = Duration::from_secs(1);

/// Where the keys come from, and the keys.
pub(crate) struct KeySource {
    client: Client,
    jwks_uri: Option<String>,
    keys: RwLock<Arc<Keys>>,
    /// How many times the keys were replaced by a fetch after the first.
    generation: AtomicU64,
    last: Mutex<Option<Instant>>,
    /// Counts the refetches that ended (new keys or not), for the requests
    /// that wait for one.
    ended: tokio::sync::watch::Sender<u64>,
}

impl KeySource {
    /// The keys for `settings` (none without authorization): the fixed set,
    /// or the issuer's, fetched now.
    pub(crate) async fn new(
        settings: Option<&OAuthSettings>,
        client: Client,
    ) -> Result<KeySource, String> {
        let fixed = |keys: Keys| KeySource {
            client: client.clone(),
            jwks_uri: None,
            keys: RwLock::new(Arc::new(keys)),
            generation: AtomicU64::new(0),
            last: Mutex::new(None),
            ended: tokio::sync::watch::Sender::new(0),
        };
        let Some(settings) = settings else {
            return Ok(fixed(Keys::default()));
        };
        if let Some(jwks) = &settings.jwks {
            let keys =
                Keys::from_jwks(jwks).map_err(|e| format!("http.authorization.jwks: {e}"))?;
            return usable(keys, "http.authorization.jwks").map(fixed);
        }
        let jwks_uri = discover(&client, &settings.issuer).await?;
        let keys = fetch_keys(&client, &jwks_uri).await?;
        Ok(KeySource {
            client,
            jwks_uri: Some(jwks_uri),
            keys: RwLock::new(Arc::new(keys)),
            generation: AtomicU64::new(0),
            last: Mutex::new(None),
            ended: tokio::sync::watch::Sender::new(0),
        })
    }

    /// The generation of the current keys: 0 for the first set, one more
    /// for each set a refetch put in its place. Read it before the keys, so
    /// a token verified while a refetch lands is taken for the older set.
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// The current keys.
    pub(crate) fn keys(&self) -> Arc<Keys> {
        self.keys
            .read()
            .map_or_else(|_| Arc::new(Keys::default()), |k| k.clone())
    }

    /// The keys for a token naming `kid`: when they lack it and the set is
    /// fetched (not fixed), fetched again, at most once per
    /// [`REFETCH_INTERVAL`], in the background: the request waits for the
    /// fetch at most [`FETCH_WAIT`], then goes on with the keys at hand. A
    /// failed fetch keeps the old keys.
    pub(crate) async fn keys_for(self: &Arc<Self>, kid: Option<&str>) -> Arc<Keys> {
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
        let mut ended = self.ended.subscribe();
        let source = Arc::clone(self);
        let uri = uri.clone();
        tokio::spawn(async move {
            if let Ok(fresh) = fetch_keys(&source.client, &uri).await
                && let Ok(mut slot) = source.keys.write()
            {
                *slot = Arc::new(fresh);
                source.generation.fetch_add(1, Ordering::AcqRel);
            }
            source.ended.send_modify(|n| *n += 1);
        });
        let _ = tokio::time::timeout(FETCH_WAIT, ended.changed()).await;
        self.keys()
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
async fn discover(client: &Client, issuer: &str) -> Result<String, String> {
    fetchable(issuer).map_err(|e| format!("the issuer {issuer} is {e}"))?;
    let mut failure = None;
    for url in metadata_urls(issuer) {
        let document = match get_json(client, &url).await {
            Ok(document) => document,
            Err(e) => {
                failure.get_or_insert(e);
                continue;
            }
        };
        if document.get("issuer").and_then(Value::as_str) != Some(issuer) {
            return Err(format!(
                "the authorization server metadata at {url} names another issuer than {issuer}"
            ));
        }
        return match document.get("jwks_uri").and_then(Value::as_str) {
            Some(uri) => fetchable(uri)
                .map(|()| uri.to_owned())
                .map_err(|e| format!("the jwks_uri {uri} at {url} is {e}")),
            None => Err(format!(
                "the authorization server metadata at {url} has no jwks_uri"
            )),
        };
    }
    Err(format!(
        "cannot fetch the authorization server metadata of {issuer} ({})",
        failure.unwrap_or_default()
    ))
}

async fn fetch_keys(client: &Client, uri: &str) -> Result<Keys, String> {
    let document = get_json(client, uri).await?;
    let keys = Keys::from_jwks(&document).map_err(|e| format!("the key set at {uri}: {e}"))?;
    usable(keys, &format!("the key set at {uri}"))
}

/// The TLS client the fetches use: the Mozilla roots, and the certificates
/// of `extra` (PEM), when given.
#[derive(Clone)]
pub(crate) struct Client {
    tls: TlsConnector,
}

impl Client {
    /// A client trusting the built-in roots and the certificates in the PEM
    /// file `extra`.
    pub(crate) fn new(extra: Option<&std::path::Path>) -> Result<Client, String> {
        let mut roots = rustls::RootCertStore::empty();
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        if let Some(path) = extra {
            let shown = path.display();
            let certs = CertificateDer::pem_file_iter(path)
                .map_err(|e| format!("cannot read --issuer-ca {shown}: {e}"))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("--issuer-ca {shown} is not PEM certificates: {e}"))?;
            if certs.is_empty() {
                return Err(format!("--issuer-ca {shown} holds no certificate"));
            }
            for cert in certs {
                roots.add(cert).map_err(|e| {
                    format!("--issuer-ca {shown} holds an unusable certificate: {e}")
                })?;
            }
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("cannot set up TLS: {e}"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(Client {
            tls: TlsConnector::from(Arc::new(config)),
        })
    }
}

/// A URL the driver may fetch keys or metadata from: `https`, or plain
/// `http` to a loopback host (DEC38). The error says what the URL is
/// instead ("… {url} is {error}").
pub(crate) fn fetchable(url: &str) -> Result<(), String> {
    match split(url) {
        Some(parts) if parts.tls => Ok(()),
        Some(parts) if is_loopback(parts.host) => Ok(()),
        Some(_) => Err(
            "plain http to a host that is not loopback (authorization server endpoints are served over https: DEC38)"
                .to_owned(),
        ),
        None => Err("not an http or https URL with a host".to_owned()),
    }
}

/// The parts of an `http` or `https` URL a fetch needs.
struct Parts<'u> {
    tls: bool,
    /// As written, for the `Host` header.
    authority: &'u str,
    host: &'u str,
    port: u16,
    path: &'u str,
}

fn split(url: &str) -> Option<Parts<'_>> {
    let (tls, rest) = match url.split_once("://")? {
        ("https", rest) => (true, rest),
        ("http", rest) => (false, rest),
        _ => return None,
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => {
            let (host, after) = v6.split_once(']')?;
            (host, after.strip_prefix(':'))
        }
        None => match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        },
    };
    let port = match port {
        Some(p) => p.parse().ok()?,
        None if tls => 443,
        None => 80,
    };
    let path = if path.is_empty() { "/" } else { path };
    Some(Parts {
        tls,
        authority,
        host,
        port,
        path,
    })
}

fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// `GET url` and its body as JSON, for a 200 only.
async fn get_json(client: &Client, url: &str) -> Result<Value, String> {
    let failed = |why: &dyn std::fmt::Display| format!("cannot fetch {url}: {why}");
    fetchable(url).map_err(|e| failed(&format!("it is {e}")))?;
    let parts = split(url).ok_or_else(|| failed(&"it is not an http or https URL"))?;
    let fetch = async {
        let stream = TcpStream::connect((parts.host, parts.port))
            .await
            .map_err(|e| failed(&e))?;
        if parts.tls {
            let name = ServerName::try_from(parts.host.to_owned()).map_err(|e| failed(&e))?;
            let stream = client
                .tls
                .connect(name, stream)
                .await
                .map_err(|e| failed(&e))?;
            get(stream, parts.authority, parts.path).await
        } else {
            get(stream, parts.authority, parts.path).await
        }
        .map_err(|e| failed(&e))
    };
    tokio::time::timeout(FETCH_TIMEOUT, fetch)
        .await
        .map_err(|_| failed(&"timed out"))?
}

/// One `GET path` over `io`, its body as JSON, for a 200 only.
async fn get<Io>(io: Io, authority: &str, path: &str) -> Result<Value, String>
where
    Io: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(io))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    let request = hyper::Request::get(path)
        .header(hyper::header::HOST, authority)
        .header(hyper::header::ACCEPT, "application/json")
        .body(Empty::<Bytes>::new())
        .map_err(|e| e.to_string())?;
    let response = sender
        .send_request(request)
        .await
        .map_err(|e| e.to_string())?;
    if response.status() != hyper::StatusCode::OK {
        return Err(response.status().to_string());
    }
    let body = Limited::new(response.into_body(), MAX_DOCUMENT)
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    serde_json::from_slice(&body).map_err(|e| e.to_string())
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
        // The path starts at the first slash after the scheme's, however
        // short the host.
        assert_eq!(
            metadata_urls("https://a/t")[0],
            "https://a/.well-known/oauth-authorization-server/t"
        );
        assert_eq!(
            metadata_urls("http://a")[2],
            "http://a/.well-known/openid-configuration"
        );
    }

    #[test]
    fn https_anywhere_plain_http_only_on_loopback() {
        for ok in [
            "https://as.example",
            "https://as.example:8443/tenant",
            "http://127.0.0.1:9000",
            "http://127.3.4.5/x",
            "http://localhost:1/jwks",
            "http://LOCALHOST",
            "http://[::1]:8080/jwks",
        ] {
            assert_eq!(fetchable(ok), Ok(()), "{ok}");
        }
        for refused in [
            "http://as.example",
            "http://10.0.0.1:9000/jwks",
            "http://[::2]:80",
            "http://localhost.as.example",
            "http://127.0.0.1@as.example/",
            "ftp://127.0.0.1/",
            "127.0.0.1:9000",
            "http://127.0.0.1:notaport/",
            "http:///jwks",
        ] {
            assert!(fetchable(refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn urls_split_into_what_a_fetch_needs() {
        let p = split("https://as.example/jwks?x=1").unwrap();
        assert_eq!(
            (p.tls, p.authority, p.host, p.port, p.path),
            (true, "as.example", "as.example", 443, "/jwks?x=1")
        );
        let p = split("http://[::1]:8080").unwrap();
        assert_eq!(
            (p.tls, p.authority, p.host, p.port, p.path),
            (false, "[::1]:8080", "::1", 8080, "/")
        );
        let p = split("http://127.0.0.1").unwrap();
        assert_eq!((p.host, p.port), ("127.0.0.1", 80));
        // No authority, or one with user information: no URL to fetch.
        for bad in [
            "http:///jwks",
            "http://user@127.0.0.1/jwks",
            "https://@as.example",
        ] {
            assert!(split(bad).is_none(), "{bad}");
        }
    }
}
