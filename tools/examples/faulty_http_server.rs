//! A test fixture: the reference's HTTP binding behind a small blocking
//! HTTP/1.1 loop that breaks one rule per flag, so the tests of
//! `diff --http` and `check --http` can assert that each fault is found,
//! and only it. Not a server anyone should run.
//!
//! ```text
//! faulty_http_server [--config FILE] [FAULT...]
//!   --trust-headers   answers the body whatever the mirrored headers say
//!                     (MCP-Protocol-Version, Mcp-Method, Mcp-Name,
//!                     Mcp-Param-*): they are replaced by the ones a
//!                     conforming client would send with that body, as a
//!                     server that never validates them behaves
//!   --no-allow        leaves `Allow` out of every 405
//!   --errors-as-200   answers every JSON-RPC error with status 200
//!   --sse             not a fault: every JSON reply is sent as a
//!                     `text/event-stream` of one `message` event
//! ```
//!
//! It listens on 127.0.0.1 at a free port, says `serving MCP over HTTP at
//! http://127.0.0.1:PORT/mcp` on stderr, and answers one connection at a
//! time, one request per connection (`Connection: close`).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::ExitCode;
use std::time::Duration;

use mcp_reference::http::{Binding, Bound, Request};
use mcp_reference::{Config, Server};
use mcp_reference_testkit::http::{conforming, is_mirrored};
use mcp_reference_testkit::model::http::Listen;

#[derive(Default)]
struct Faults {
    trust_headers: bool,
    no_allow: bool,
    errors_as_200: bool,
    sse: bool,
}

fn main() -> ExitCode {
    let mut faults = Faults::default();
    let mut config = Config::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--trust-headers" => faults.trust_headers = true,
            "--no-allow" => faults.no_allow = true,
            "--errors-as-200" => faults.errors_as_200 = true,
            "--sse" => faults.sse = true,
            "--config" => {
                let Some(path) = args.next() else {
                    eprintln!("faulty_http_server: --config needs a file");
                    return ExitCode::from(2);
                };
                match Config::load(std::path::Path::new(&path)) {
                    Ok(c) => config = c,
                    Err(e) => {
                        eprintln!("faulty_http_server: cannot read {path}: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            other => {
                eprintln!("faulty_http_server: unknown flag {other}");
                return ExitCode::from(2);
            }
        }
    }
    let listener = match TcpListener::bind("127.0.0.1:0") {
        Ok(l) => l,
        Err(e) => {
            eprintln!("faulty_http_server: cannot listen: {e}");
            return ExitCode::from(1);
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
    let listen = Listen {
        port,
        loopback: true,
    };
    let binding = Binding::new(
        Server::new(config.clone()),
        Bound {
            port,
            loopback: true,
        },
    );
    eprintln!(
        "serving MCP over HTTP at http://127.0.0.1:{port}{}",
        config.http().endpoint
    );
    for stream in listener.incoming().flatten() {
        let _ = serve(stream, &binding, &config, listen, &faults);
    }
    ExitCode::SUCCESS
}

/// One request head: method, target, header lines, and the bytes read
/// past it.
type Head = (String, String, Vec<(String, Vec<u8>)>, Vec<u8>);

fn read_head(stream: &mut TcpStream) -> Option<Head> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(chunk.get(..n)?);
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut req = httparse::Request::new(&mut headers);
        let httparse::Status::Complete(head) = req.parse(&buf).ok()? else {
            if buf.len() > 1 << 20 {
                return None;
            }
            continue;
        };
        let lines: Vec<(String, Vec<u8>)> = req
            .headers
            .iter()
            .map(|h| (h.name.to_owned(), h.value.to_vec()))
            .collect();
        let method = req.method?.to_owned();
        let target = req.path?.to_owned();
        return Some((method, target, lines, buf.get(head..)?.to_vec()));
    }
}

/// The body: `body` (already read) and the rest of `Content-Length`.
fn read_body(
    stream: &mut TcpStream,
    lines: &[(String, Vec<u8>)],
    mut body: Vec<u8>,
) -> Option<Vec<u8>> {
    let length: usize = lines
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| std::str::from_utf8(v).ok()?.trim().parse().ok())
        .unwrap_or(0);
    let mut chunk = [0u8; 8192];
    while body.len() < length {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(chunk.get(..n)?);
    }
    body.truncate(length);
    Some(body)
}

fn serve(
    mut stream: TcpStream,
    binding: &Binding,
    config: &Config,
    listen: Listen,
    faults: &Faults,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let Some((method, target, mut lines, rest)) = read_head(&mut stream) else {
        return Ok(());
    };
    // The head is judged before the body is read, as the real server does.
    let head: Vec<(&str, &[u8])> = lines
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_slice()))
        .collect();
    let refused = binding.check_head(&Request {
        method: &method,
        target: &target,
        headers: &head,
        body: &[],
    });
    let body = match refused {
        Some(_) => Vec::new(),
        None => match read_body(&mut stream, &lines, rest) {
            Some(body) => body,
            None => return Ok(()),
        },
    };
    if faults.trust_headers {
        lines.retain(|(n, _)| !is_mirrored(n));
        lines.extend(
            conforming(config, listen, &body)
                .into_iter()
                .filter(|(n, _)| is_mirrored(n)),
        );
    }
    let headers: Vec<(&str, &[u8])> = lines
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_slice()))
        .collect();
    let response = match refused {
        Some(response) => response,
        None => binding.respond(&Request {
            method: &method,
            target: &target,
            headers: &headers,
            body: &body,
        }),
    };
    let mut status = response.status;
    let mut out_headers: Vec<(&str, &str)> = response.headers.to_vec();
    let mut out_body = response.body;
    if faults.no_allow {
        out_headers.retain(|(n, _)| !n.eq_ignore_ascii_case("allow"));
    }
    if faults.errors_as_200 && status >= 400 && !out_body.is_empty() {
        status = 200;
    }
    if faults.sse && !out_body.is_empty() {
        out_headers.retain(|(n, _)| !n.eq_ignore_ascii_case("content-type"));
        out_headers.push(("content-type", "text/event-stream"));
        out_body = [b"event: message\ndata: ".as_slice(), &out_body, b"\n\n"].concat();
    }
    let mut head = format!("HTTP/1.1 {status} Status\r\n");
    for (n, v) in out_headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str(&format!(
        "content-length: {}\r\nconnection: close\r\n\r\n",
        out_body.len()
    ));
    stream.write_all(head.as_bytes())?;
    stream.write_all(&out_body)?;
    stream.flush()
}
