//! A small blocking HTTP/1.1 client for `check --http`: it sends a request
//! exactly as given (method, target, header lines, body) on a fresh
//! connection to an `http://` URL, and reads one response with a deadline
//! and bounded memory. The response head is parsed by `httparse`; the body
//! is read by `Content-Length`, `chunked` transfer coding, or to the end of
//! the connection. A `text/event-stream` body is read into its events, and
//! the JSON-RPC response among them is the reply (a client MUST accept both
//! `application/json` and SSE: `basic/transports/streamable-http.mdx`,
//! "Sending Messages").
//!
//! Only plain `http://` is spoken: the checker is for servers under test on
//! this machine, which is also why it never follows redirects.
//!
//! [`send`] opens a fresh connection per request (what `check` needs:
//! each request judged alone); [`Connection`] keeps one alive, for
//! `bench`.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

/// The most a response may hold before the client stops reading.
const MAX_RESPONSE: usize = 8 * 1024 * 1024;

/// Where a server listens: host and port of the URL, and its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url {
    /// `host:port`, as the `Host` header carries it.
    pub authority: String,
    /// The path (and query), `/mcp` by default.
    pub path: String,
}

impl Url {
    /// Parses `http://host[:port][/path]`.
    pub fn parse(url: &str) -> Result<Url, String> {
        let rest = url.strip_prefix("http://").ok_or_else(|| {
            format!("{url:?} is not an http:// URL (https is not spoken by the checker)")
        })?;
        let (authority, path) = match rest.find('/') {
            Some(i) => rest.split_at(i),
            None => (rest, "/"),
        };
        if authority.is_empty() {
            return Err(format!("{url:?} names no host"));
        }
        let authority = if authority.contains(':') && !authority.ends_with(']') {
            authority.to_owned()
        } else {
            format!("{authority}:80")
        };
        Ok(Url {
            authority,
            path: path.to_owned(),
        })
    }
}

/// One request, sent as is.
#[derive(Debug, Clone)]
pub struct Request {
    /// The method.
    pub method: String,
    /// The request target.
    pub target: String,
    /// Header lines, in order (`Host` and `Content-Length` are added when
    /// missing).
    pub headers: Vec<(String, Vec<u8>)>,
    /// The body.
    pub body: Vec<u8>,
}

/// One response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// Header lines, names lowercase.
    pub headers: Vec<(String, String)>,
    /// The body as received (after de-chunking).
    pub body: Vec<u8>,
}

impl Response {
    /// The first value of header `name` (lowercase).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The media type, lowercase, without parameters.
    pub fn media_type(&self) -> String {
        self.header("content-type")
            .and_then(|v| v.split(';').next())
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase()
    }

    /// The JSON-RPC messages of the body: the one object of an
    /// `application/json` body, or the `data` of each event of a
    /// `text/event-stream` body, in order.
    pub fn messages(&self) -> Vec<serde_json::Value> {
        if self.media_type() == "text/event-stream" {
            let text = String::from_utf8_lossy(&self.body);
            let mut out = Vec::new();
            for event in text.replace("\r\n", "\n").split("\n\n") {
                let data: Vec<&str> = event
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(|d| d.strip_prefix(' ').unwrap_or(d))
                    .collect();
                if let Ok(v) = serde_json::from_str(&data.join("\n")) {
                    out.push(v);
                }
            }
            out
        } else {
            serde_json::from_slice(&self.body).into_iter().collect()
        }
    }

    /// The JSON-RPC response among [`Response::messages`]: the last message
    /// with `result` or `error`.
    pub fn reply(&self) -> Option<serde_json::Value> {
        self.messages()
            .into_iter()
            .rev()
            .find(|m| m.get("result").is_some() || m.get("error").is_some())
    }
}

/// A request's bytes: the request line, `Host` when missing, then
/// `Content-Length` when missing (on a connection that closes after it,
/// only for a body or a POST: [`send`]'s requests are sent as given; on a
/// kept-alive one always, so the server knows where the next request
/// starts) and `Connection: close` for the former, the headers as given,
/// the body.
fn encode(authority: &str, request: &Request, close: bool) -> Vec<u8> {
    let mut head = format!("{} {} HTTP/1.1\r\n", request.method, request.target).into_bytes();
    let has = |name: &str| {
        request
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    };
    if !has("host") {
        head.extend_from_slice(format!("Host: {authority}\r\n").as_bytes());
    }
    let length = !close || !request.body.is_empty() || request.method == "POST";
    if !has("content-length") && length {
        head.extend_from_slice(format!("Content-Length: {}\r\n", request.body.len()).as_bytes());
    }
    if close {
        head.extend_from_slice(b"Connection: close\r\n");
    }
    for (name, value) in &request.headers {
        head.extend_from_slice(name.as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(value);
        head.extend_from_slice(b"\r\n");
    }
    head.extend_from_slice(b"\r\n");
    head.extend_from_slice(&request.body);
    head
}

/// Sends `request` to `url` on a new connection and reads the response,
/// all within `timeout`.
pub fn send(url: &Url, request: &Request, timeout: Duration) -> Result<Response, String> {
    let start = Instant::now();
    let addr = url
        .authority
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {}: {e}", url.authority))?
        .next()
        .ok_or_else(|| format!("{} resolves to no address", url.authority))?;
    let mut stream = TcpStream::connect_timeout(&addr, timeout)
        .map_err(|e| format!("cannot connect to {}: {e}", url.authority))?;
    let _ = stream.set_nodelay(true);
    let head = encode(&url.authority, request, true);
    stream
        .set_write_timeout(Some(timeout))
        .and_then(|()| stream.write_all(&head))
        .map_err(|e| format!("cannot send the request: {e}"))?;
    // A response to HEAD ends with its head, whatever its Content-Length
    // says (RFC 9110 section 9.3.2).
    let head_only = request.method == "HEAD";
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        let left = timeout.saturating_sub(start.elapsed());
        if left.is_zero() {
            return parse(&buf, true, head_only)
                .ok_or_else(|| format!("no complete response within {timeout:?}"));
        }
        let _ = stream.set_read_timeout(Some(left));
        match stream.read(&mut chunk) {
            Ok(0) => {
                return parse(&buf, true, head_only)
                    .ok_or_else(|| "the connection closed before a complete response".into());
            }
            Ok(n) => {
                buf.extend_from_slice(chunk.get(..n).unwrap_or_default());
                if buf.len() > MAX_RESPONSE {
                    return Err(format!("the response is over {MAX_RESPONSE} bytes"));
                }
                if let Some(response) = parse(&buf, false, head_only) {
                    return Ok(response);
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return parse(&buf, true, head_only)
                    .ok_or_else(|| format!("no complete response within {timeout:?}"));
            }
            Err(e) => return Err(format!("reading the response failed: {e}")),
        }
    }
}

/// A kept-alive connection for `bench`: requests go one at a time on the
/// same TCP connection (HTTP/1.1 persistent connections, RFC 9112 section
/// 9.3), which is reopened when the server closed it or said
/// `Connection: close`. Unlike [`send`], the request goes without
/// `Connection: close`, and a response is read by its length (or chunks);
/// a body that ends only with the connection ends the connection too.
#[derive(Debug)]
pub struct Connection {
    url: Url,
    stream: Option<TcpStream>,
    buf: Vec<u8>,
    /// How many times a connection was opened.
    pub opened: u64,
}

impl Connection {
    /// A connection to `url`, opened on the first request.
    pub fn new(url: &Url) -> Connection {
        Connection {
            url: url.clone(),
            stream: None,
            buf: Vec::with_capacity(16 * 1024),
            opened: 0,
        }
    }

    fn open(&mut self, timeout: Duration) -> Result<&mut TcpStream, String> {
        if self.stream.is_none() {
            let addr = self
                .url
                .authority
                .to_socket_addrs()
                .map_err(|e| format!("cannot resolve {}: {e}", self.url.authority))?
                .next()
                .ok_or_else(|| format!("{} resolves to no address", self.url.authority))?;
            let stream = TcpStream::connect_timeout(&addr, timeout)
                .map_err(|e| format!("cannot connect to {}: {e}", self.url.authority))?;
            let _ = stream.set_nodelay(true);
            self.opened += 1;
            self.stream = Some(stream);
        }
        self.stream
            .as_mut()
            .ok_or_else(|| "no connection".to_string())
    }

    /// Sends `wire` (a whole request, as written by
    /// [`Connection::encode`]) and reads one response within `timeout`.
    pub fn exchange(&mut self, wire: &[u8], timeout: Duration) -> Result<Response, String> {
        let start = Instant::now();
        let reused = self.stream.is_some();
        match self.try_exchange(wire, timeout, start) {
            // A kept-alive connection the server closed while idle: once
            // more on a new one.
            Err(_) if reused && start.elapsed() < timeout => {
                self.stream = None;
                self.try_exchange(wire, timeout, start)
            }
            other => other,
        }
    }

    fn try_exchange(
        &mut self,
        wire: &[u8],
        timeout: Duration,
        start: Instant,
    ) -> Result<Response, String> {
        let result = self.round_trip(wire, timeout, start);
        let close = match &result {
            Ok((_, closed)) => *closed,
            Err(_) => true,
        };
        if close {
            self.stream = None;
        }
        result.map(|(response, _)| response)
    }

    fn round_trip(
        &mut self,
        wire: &[u8],
        timeout: Duration,
        start: Instant,
    ) -> Result<(Response, bool), String> {
        self.buf.clear();
        let mut buf = std::mem::take(&mut self.buf);
        let stream = self.open(timeout)?;
        stream
            .set_write_timeout(Some(timeout))
            .and_then(|()| stream.write_all(wire))
            .map_err(|e| format!("cannot send the request: {e}"))?;
        let mut chunk = [0u8; 16 * 1024];
        let outcome = loop {
            let left = timeout.saturating_sub(start.elapsed());
            if left.is_zero() {
                break Err(format!("no complete response within {timeout:?}"));
            }
            let _ = stream.set_read_timeout(Some(left));
            match stream.read(&mut chunk) {
                Ok(0) => {
                    break parse(&buf, true, false)
                        .map(|r| (r, true))
                        .ok_or_else(|| "the connection closed before a complete response".into());
                }
                Ok(n) => {
                    buf.extend_from_slice(chunk.get(..n).unwrap_or_default());
                    if buf.len() > MAX_RESPONSE {
                        break Err(format!("the response is over {MAX_RESPONSE} bytes"));
                    }
                    if let Some(response) = parse(&buf, false, false) {
                        let close = response
                            .header("connection")
                            .is_some_and(|v| v.eq_ignore_ascii_case("close"));
                        break Ok((response, close));
                    }
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    break Err(format!("no complete response within {timeout:?}"));
                }
                Err(e) => break Err(format!("reading the response failed: {e}")),
            }
        };
        self.buf = buf;
        outcome
    }

    /// A request's bytes as [`Connection::exchange`] sends them: the
    /// request line, `Host` and `Content-Length` when missing, the
    /// headers as given, the body.
    pub fn encode(&self, request: &Request) -> Vec<u8> {
        encode(&self.url.authority, request, false)
    }
}

/// A complete response from `buf`, if there is one yet (`closed`: the
/// connection ended, so a body without a length ends here; `head_only`:
/// the answer to a HEAD, whose body is whatever came after the head).
fn parse(buf: &[u8], closed: bool, head_only: bool) -> Option<Response> {
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut parsed = httparse::Response::new(&mut headers);
    let httparse::Status::Complete(head_len) = parsed.parse(buf).ok()? else {
        return None;
    };
    let status = parsed.code?;
    let headers: Vec<(String, String)> = parsed
        .headers
        .iter()
        .map(|h| {
            (
                h.name.to_ascii_lowercase(),
                String::from_utf8_lossy(h.value).trim().to_owned(),
            )
        })
        .collect();
    let rest = buf.get(head_len..)?;
    let get = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let body = if head_only {
        rest.to_vec()
    } else if get("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        dechunk(rest)?
    } else if let Some(len) = get("content-length").and_then(|v| v.parse::<usize>().ok()) {
        rest.get(..len)?.to_vec()
    } else if status == 204 || status == 304 || (100..200).contains(&status) {
        Vec::new()
    } else if closed {
        rest.to_vec()
    } else {
        return None;
    };
    Some(Response {
        status,
        headers,
        body,
    })
}

/// The body of a complete chunked encoding, or `None` while incomplete.
fn dechunk(mut data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = data.windows(2).position(|w| w == b"\r\n")?;
        let size_text = std::str::from_utf8(data.get(..line_end)?).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        data = data.get(line_end + 2..)?;
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(data.get(..size)?);
        data = data.get(size + 2..)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One request line, `Host`, `Content-Length` and `Connection` as each
    /// kind of connection sends them; headers the request gives are never
    /// added again.
    #[test]
    fn requests_are_encoded_for_their_connection() {
        let get = Request {
            method: "GET".into(),
            target: "/mcp".into(),
            headers: vec![("Accept".into(), b"text/event-stream".to_vec())],
            body: Vec::new(),
        };
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap_or_default();
        assert_eq!(
            text(encode("h:1", &get, true)),
            "GET /mcp HTTP/1.1\r\nHost: h:1\r\nConnection: close\r\nAccept: text/event-stream\r\n\r\n"
        );
        assert_eq!(
            text(encode("h:1", &get, false)),
            "GET /mcp HTTP/1.1\r\nHost: h:1\r\nContent-Length: 0\r\nAccept: text/event-stream\r\n\r\n"
        );
        let post = Request {
            method: "POST".into(),
            target: "/mcp".into(),
            headers: vec![("host".into(), b"x".to_vec())],
            body: b"{}".to_vec(),
        };
        assert_eq!(
            text(encode("h:1", &post, true)),
            "POST /mcp HTTP/1.1\r\nContent-Length: 2\r\nConnection: close\r\nhost: x\r\n\r\n{}"
        );
        let empty_post = Request {
            body: Vec::new(),
            ..post
        };
        assert!(text(encode("h:1", &empty_post, true)).contains("Content-Length: 0\r\n"));
    }

    #[test]
    fn urls() {
        let u = Url::parse("http://127.0.0.1:8080/mcp").unwrap();
        assert_eq!(
            (u.authority.as_str(), u.path.as_str()),
            ("127.0.0.1:8080", "/mcp")
        );
        assert_eq!(
            Url::parse("http://localhost").unwrap().authority,
            "localhost:80"
        );
        assert!(Url::parse("https://x/mcp").is_err());
    }

    #[test]
    fn responses_by_length_chunks_and_sse() {
        let r = parse(
            b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
            false,
            false,
        )
        .unwrap();
        assert_eq!(r.body, b"{}");
        assert!(
            parse(
                b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n{}",
                false,
                false
            )
            .is_none()
        );
        let r = parse(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
            false,
            false,
        )
        .unwrap();
        assert_eq!(r.body, b"{}");
        let events = "event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n\r\n: keep\r\n\r\n";
        let sse = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: {}\r\n\r\n{events}",
            events.len()
        );
        let r = parse(sse.as_bytes(), false, false).unwrap();
        assert_eq!(r.reply().unwrap()["id"], 1);
        // A HEAD's response ends with its head, whatever its length says.
        let r = parse(
            b"HTTP/1.1 200 OK\r\nContent-Length: 30\r\n\r\n",
            false,
            true,
        )
        .unwrap();
        assert!(r.body.is_empty());
    }
}
