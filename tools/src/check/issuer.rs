//! The loopback authorization server of `check --http URL --auth`: it
//! publishes the test issuer's ([`mcp_reference_testkit::issuer`])
//! metadata and keys so that the server under test can verify the tokens
//! the checks mint. It mints no token over HTTP and has no authorization
//! or token endpoint that works: the checks mint their tokens themselves.
//!
//! Served, for GET (and HEAD) only, every response `Connection: close`:
//!
//! | path | body |
//! | --- | --- |
//! | `/.well-known/oauth-authorization-server` | RFC 8414 metadata: `issuer`, `jwks_uri`, `authorization_endpoint`, `token_endpoint`, `response_types_supported`, `grant_types_supported`, `code_challenge_methods_supported` |
//! | `/.well-known/openid-configuration` | the same document (the second URL a client tries for an issuer without a path) |
//! | `/jwks` | the JWK Set |
//!
//! Spec: 2026-07-28 `basic/authorization/authorization-server-discovery.mdx`
//! ("Authorization Server Metadata Discovery": for an issuer URL without a
//! path a client tries the RFC 8414 well-known URL, then the OpenID
//! Connect one).

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{Value, json};

/// A running loopback issuer; stops when dropped.
pub struct LoopbackIssuer {
    url: String,
    stop: Arc<AtomicBool>,
    fetches: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
}

impl LoopbackIssuer {
    /// Listens on `addr` (`127.0.0.1:9000`; port 0 picks a free one) and
    /// serves `jwks`. Only loopback addresses are accepted.
    pub fn start(addr: &str, jwks: &Value) -> Result<LoopbackIssuer, String> {
        let listener = TcpListener::bind(addr)
            .map_err(|e| format!("the issuer cannot listen on {addr}: {e}"))?;
        let local = listener
            .local_addr()
            .map_err(|e| format!("the issuer's address is unknown: {e}"))?;
        if !local.ip().is_loopback() {
            return Err(format!(
                "the issuer listens on loopback only, and {addr} is not a loopback address"
            ));
        }
        listener
            .set_nonblocking(true)
            .map_err(|e| format!("the issuer cannot listen on {addr}: {e}"))?;
        let url = format!("http://{local}");
        let stop = Arc::new(AtomicBool::new(false));
        let fetches = Arc::new(AtomicUsize::new(0));
        let metadata = json!({
            "issuer": url,
            "jwks_uri": format!("{url}/jwks"),
            "authorization_endpoint": format!("{url}/authorize"),
            "token_endpoint": format!("{url}/token"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "client_credentials"],
            "code_challenge_methods_supported": ["S256"],
        })
        .to_string();
        let keys = jwks.to_string();
        let (flag, count) = (stop.clone(), fetches.clone());
        let thread = std::thread::spawn(move || {
            while !flag.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let _ = answer(stream, &metadata, &keys, &count);
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(10)),
                }
            }
        });
        Ok(LoopbackIssuer {
            url,
            stop,
            fetches,
            thread: Some(thread),
        })
    }

    /// The issuer identifier: `http://127.0.0.1:PORT`, no trailing slash.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// How many times the JWK Set was fetched.
    pub fn jwks_fetches(&self) -> usize {
        self.fetches.load(Ordering::SeqCst)
    }
}

impl Drop for LoopbackIssuer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Answers one request on `stream`.
fn answer(
    stream: TcpStream,
    metadata: &str,
    jwks: &str,
    fetches: &AtomicUsize,
) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut header = String::new();
    while reader.read_line(&mut header).is_ok_and(|n| n > 2) && header.len() < 65536 {
        header.clear();
    }
    let mut words = line.split(' ');
    let method = words.next().unwrap_or_default();
    let path = words.next().unwrap_or_default();
    let path = path.split('?').next().unwrap_or_default();
    let (status, body) = match (method, path) {
        ("GET" | "HEAD", "/.well-known/oauth-authorization-server")
        | ("GET" | "HEAD", "/.well-known/openid-configuration") => ("200 OK", metadata),
        ("GET" | "HEAD", "/jwks") => {
            fetches.fetch_add(1, Ordering::SeqCst);
            ("200 OK", jwks)
        }
        ("GET" | "HEAD", _) => ("404 Not Found", ""),
        _ => ("405 Method Not Allowed", ""),
    };
    let mut out = &stream;
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if method != "HEAD" {
        out.write_all(body.as_bytes())?;
    }
    out.flush()
}
