//! `mcp-reference serve --http` as a real process, over real sockets
//! (rows H1 to H17 are the binding's, tested in `tests/http.rs`; here: what
//! the driver adds). Every wait has a deadline, so a hung server fails the
//! test instead of hanging it.

use std::io::{BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

#[path = "support/http_server.rs"]
mod http_server;
use http_server::{BIN, Server, read_reply};
use mcp_reference_testkit::model::http::{HttpExpect, HttpRequest, Listen, expect_http};

fn post(addr: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (n, v) in headers {
        out.push_str(&format!("{n}: {v}\r\n"));
    }
    out.push_str("\r\n");
    [out.as_bytes(), body].concat()
}

const CALL: &[(&str, &str)] = &[
    ("MCP-Protocol-Version", "2026-07-28"),
    ("Mcp-Method", "tools/call"),
    ("Mcp-Name", "get_order"),
];

fn example() -> (Vec<u8>, Vec<u8>) {
    let root = env!("CARGO_MANIFEST_DIR");
    let request = std::fs::read(format!("{root}/data/example-43.2.request.json")).unwrap();
    let reply = std::fs::read(format!("{root}/data/example-43.2.response.json")).unwrap();
    (
        request.strip_suffix(b"\n").unwrap_or(&request).to_vec(),
        reply.strip_suffix(b"\n").unwrap_or(&reply).to_vec(),
    )
}

/// Example 43.2 over a real socket, twice on one kept-alive connection,
/// then SIGTERM: the book's reply byte for byte, and a clean exit 0.
#[test]
fn example_43_2_on_one_kept_alive_connection_then_sigterm() {
    let server = Server::start(&["--log-level", "info"]);
    let (request, reply) = example();
    let stream = server.connect();
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    for _ in 0..2 {
        writer
            .write_all(&post(&server.addr, CALL, &request))
            .unwrap();
        let got = read_reply(&mut reader);
        assert_eq!(got.status, 200);
        assert_eq!(got.header("content-type"), Some("application/json"));
        assert_eq!(got.header("mcp-session-id"), None);
        assert_eq!(got.body, reply, "{}", String::from_utf8_lossy(&got.body));
    }
    let (code, log) = server.terminate();
    assert_eq!(code, Some(0), "{log}");
    assert_eq!(log.matches(" POST /mcp 200").count(), 2, "{log}");
    assert!(log.contains("shutting down"), "{log}");
}

/// What stderr holds at the other levels: at `warn` (the default) the
/// address and nothing per request or at shutdown; at `off` nothing at
/// all, not even the address (the test finds the port it chose).
#[test]
fn quieter_levels_say_less_on_stderr() {
    let (request, reply) = example();
    let server = Server::start(&[]);
    let stream = server.connect();
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    writer
        .write_all(&post(&server.addr, CALL, &request))
        .unwrap();
    assert_eq!(read_reply(&mut reader).body, reply);
    // A connection that speaks no HTTP fails; that is logged at debug only.
    let mut garbage = server.connect();
    garbage.write_all(b"NOT HTTP AT ALL\r\n\r\n").unwrap();
    let _ = std::io::Read::read_to_end(&mut garbage, &mut Vec::new());
    let (code, log) = server.terminate();
    assert_eq!((code, log.as_str()), (Some(0), ""));

    let (child, addr, stream) = http_server::start_unannounced(&["--log-level", "off"]);
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    writer.write_all(&post(&addr, CALL, &request)).unwrap();
    assert_eq!(read_reply(&mut reader).body, reply);
    http_server::sigterm(&child);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// SIGTERM while a request is in flight (its body half sent): the server
/// stops accepting, still answers that request in full, then exits 0.
#[test]
fn sigterm_answers_the_request_in_flight() {
    let server = Server::start(&[]);
    let (request, reply) = example();
    let stream = server.connect();
    let mut writer = stream.try_clone().unwrap();
    let wire = post(&server.addr, CALL, &request);
    let (first, rest) = wire.split_at(wire.len() - 40);
    writer.write_all(first).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    server.sigterm();
    std::thread::sleep(Duration::from_millis(300));
    writer.write_all(rest).unwrap();
    let got = read_reply(&mut BufReader::new(stream));
    assert_eq!(got.status, 200);
    assert_eq!(got.body, reply);
    // One SIGTERM only: the one sent above must end the server.
    let (code, log) = server.exited();
    assert_eq!(code, Some(0), "{log}");
}

/// The driver answers a refused head without waiting for the body: a
/// declared body over the limit gets 413 before a byte of it is sent.
#[test]
fn an_oversized_body_is_refused_unread() {
    let server = Server::start(&[]);
    let mut stream = server.connect();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\r\n",
        server.addr
    );
    stream.write_all(head.as_bytes()).unwrap();
    let got = read_reply(&mut BufReader::new(stream));
    assert_eq!(got.status, 413);
    assert!(got.body.is_empty());
    let (code, _) = server.terminate();
    assert_eq!(code, Some(0));
}

/// The model's answer to a request as `post` writes it (or a GET) to the
/// server at `addr` with the default configuration.
fn model_says(addr: &str, method: &str, headers: &[(&str, &str)], body: &[u8]) -> HttpExpect {
    let port = addr
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    let mut lines: Vec<(String, Vec<u8>)> = vec![("Host".into(), addr.as_bytes().to_vec())];
    if method == "POST" {
        lines.push(("Content-Type".into(), b"application/json".to_vec()));
        lines.push(("Content-Length".into(), body.len().to_string().into_bytes()));
    }
    lines.extend(
        headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.as_bytes().to_vec())),
    );
    let request = HttpRequest {
        method: method.into(),
        target: "/mcp".into(),
        headers: lines,
        body: body.to_vec(),
    };
    let listen = Listen {
        port,
        loopback: true,
    };
    expect_http(&mcp_reference::Config::default(), listen, &request)
}

/// GET gets 405 naming POST; a header that disagrees with the body gets
/// 400 and `-32020`, over the wire as from the binding: each as the model
/// says (rows H2 and H10), no status or code restated here.
#[test]
fn refusals_over_the_wire() {
    let server = Server::start(&[]);
    let mut stream = server.connect();
    let get = format!("GET /mcp HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr);
    stream.write_all(get.as_bytes()).unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let got = read_reply(&mut reader);
    let want = model_says(&server.addr, "GET", &[], &[]);
    assert_eq!(want.row, "H2");
    assert!(want.allow);
    assert_eq!(
        (got.status, got.header("allow")),
        (want.status, Some("POST"))
    );
    let (request, _) = example();
    let mismatch = [
        ("MCP-Protocol-Version", "2025-11-25"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "get_order"),
    ];
    stream
        .write_all(&post(&server.addr, &mismatch, &request))
        .unwrap();
    let got = read_reply(&mut reader);
    let want = model_says(&server.addr, "POST", &mismatch, &request);
    assert_eq!(want.row, "H10");
    let headers: Vec<(&str, &str)> = got
        .headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    if let Err(e) = want.check(
        &mcp_reference::Config::default(),
        got.status,
        &headers,
        &got.body,
    ) {
        panic!("{e}");
    }
    server.terminate();
}

fn refused(args: &[&str]) -> String {
    let out = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

/// What the binding's rules forbid at start is refused in one sentence,
/// exit 2: the legacy era over HTTP, a non-loopback address without
/// configured origins.
#[test]
fn refused_at_start() {
    let legacy = refused(&["serve", "--http", "127.0.0.1:0", "--legacy", "2025-11-25"]);
    assert!(legacy.contains("not served over HTTP"), "{legacy}");
    let open = refused(&["serve", "--http", "0.0.0.0:0"]);
    assert!(open.contains("allowed_origins"), "{open}");
    // With origins but without http.authorization (DEC34), and with
    // authorization settings whose keys would come over plain http from a
    // host that is not loopback (DEC38).
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let origins = dir.join("http-origins-only.json");
    std::fs::write(
        &origins,
        r#"{"http":{"allowed_origins":["https://app.example"]}}"#,
    )
    .unwrap();
    let origins = origins.to_str().unwrap();
    let unauthenticated = refused(&["--config", origins, "serve", "--http", "0.0.0.0:0"]);
    assert!(
        unauthenticated.contains("http.authorization"),
        "{unauthenticated}"
    );
    let keyless = dir.join("http-auth-no-keys.json");
    std::fs::write(
        &keyless,
        r#"{"http":{"authorization":{"resource":"http://127.0.0.1:8080/mcp","issuer":"http://as.example"}}}"#,
    )
    .unwrap();
    let keyless = refused(&[
        "--config",
        keyless.to_str().unwrap(),
        "serve",
        "--http",
        "127.0.0.1:0",
    ]);
    assert!(
        keyless.contains("not loopback") && keyless.contains("jwks"),
        "{keyless}"
    );
}
