//! `mcp-reference serve --http` (or `judge --http`) as a subprocess for the
//! tests that speak HTTP to the real binary (`tests/http_binary.rs`,
//! `tests/http_state_machine.rs`, `tests/sdk_http.rs`, `tests/oidc.rs`,
//! `tests/judge_sdk.rs`, `tests/judge_binary.rs`),
//! through `#[path]`: starting it on a free loopback port (or one the test
//! chose), connecting, reading one HTTP/1.1 response (or making one
//! exchange on a connection of its own), and SIGTERM. Every wait has a deadline (a hang guard, not a
//! performance threshold).

#![allow(dead_code)]

#[path = "chunked.rs"]
mod chunked;
use chunked::dechunk;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStderr, Command, Stdio};
use std::time::{Duration, Instant};

/// Sends SIGTERM to `child`.
pub(crate) fn sigterm(child: &Child) {
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
}

/// Starts `mcp-reference PRE... serve --http 127.0.0.1:PORT` on a free
/// port, for options under which no line names the address (`--log-level
/// off`), and connects as soon as it listens: the child (stderr piped),
/// the address and the connection, its read deadline set.
pub(crate) fn start_unannounced(pre: &[&str]) -> (Child, String, TcpStream) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let mut child = Command::new(BIN)
        .args(pre)
        .args(["serve", "--http", &addr])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let stream = loop {
        match TcpStream::connect(&addr) {
            Ok(stream) => break stream,
            Err(_) if start.elapsed() < DEADLINE => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => {
                let _ = child.kill();
                panic!("nothing listens on {addr}: {e}");
            }
        }
    };
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    (child, addr, stream)
}

/// The binary under test.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_mcp-reference");

/// How long any single wait may take.
pub(crate) const DEADLINE: Duration = Duration::from_secs(10);

/// A running `serve --http 127.0.0.1:0`.
pub(crate) struct Server {
    pub(crate) child: Child,
    /// `127.0.0.1:PORT`.
    pub(crate) addr: String,
    pub(crate) stderr: BufReader<ChildStderr>,
}

impl Server {
    /// Starts the server with `args` after `serve --http 127.0.0.1:0`, and
    /// reads the address it listens on from its first line on stderr.
    pub(crate) fn start(args: &[&str]) -> Server {
        Server::start_on("127.0.0.1:0", args)
    }

    /// Starts the server with `args` after `serve --http ADDR` (a port the
    /// test chose, for a configuration that names its own URL).
    pub(crate) fn start_on(addr: &str, args: &[&str]) -> Server {
        Server::start_command("serve", addr, args)
    }

    /// Starts `mcp-reference COMMAND --http ADDR ARGS...`, where `COMMAND`
    /// is `serve` or `judge` (which serves as `serve` does and announces
    /// its address the same way).
    pub(crate) fn start_command(command: &str, addr: &str, args: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .args([command, "--http", addr])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        assert!(line.contains("serving MCP over HTTP"), "{line}");
        let addr = line
            .trim()
            .rsplit("http://")
            .next()
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_default()
            .to_owned();
        Server {
            child,
            addr,
            stderr,
        }
    }

    /// The endpoint URL.
    pub(crate) fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// The port.
    pub(crate) fn port(&self) -> u16 {
        self.addr
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_default()
    }

    /// A connection with the read deadline set.
    pub(crate) fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(&self.addr).unwrap();
        stream.set_read_timeout(Some(DEADLINE)).unwrap();
        stream
    }

    /// Sends SIGTERM.
    pub(crate) fn sigterm(&self) {
        sigterm(&self.child);
    }

    /// Sends SIGTERM and waits: the exit code, and the rest of stderr.
    /// After [`Server::sigterm`], wait with [`Server::exited`] instead: a
    /// second SIGTERM would let a server that ignores the first pass.
    pub(crate) fn terminate(self) -> (Option<i32>, String) {
        self.sigterm();
        self.exited()
    }

    /// Waits for the server to exit, sending nothing: the exit code, and
    /// the rest of stderr (a panic if it does not exit within the
    /// deadline).
    pub(crate) fn exited(mut self) -> (Option<i32>, String) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let mut rest = String::new();
                self.stderr.read_to_string(&mut rest).unwrap();
                return (status.code(), rest);
            }
            if start.elapsed() > DEADLINE {
                let _ = self.child.kill();
                panic!("the server did not exit within {DEADLINE:?} of SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Server {
    /// Never leaves a server running, whatever the test did.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 response: status, lowercase headers, body.
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Reply {
    /// The value of header `name` (lowercase).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
}

/// `METHOD url` with `headers` and `body` on a connection of its own
/// (`Connection: close`), read to its end.
pub(crate) fn exchange(method: &str, url: &str, headers: &[(&str, String)], body: &[u8]) -> Reply {
    let rest = url.strip_prefix("http://").expect("a plain http URL");
    let (authority, target) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let target = if target.is_empty() { "/" } else { target };
    let mut stream = TcpStream::connect(authority).unwrap_or_else(|e| panic!("{url}: {e}"));
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    let mut head = format!(
        "{method} {target} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .unwrap_or_else(|e| panic!("{url}: {e}"));
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("{url}: no response head"));
    let text = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = text.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{url}: no status line"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Reply {
        status,
        headers,
        body,
    }
}

/// Reads one response (its body by `Content-Length`).
pub(crate) fn read_reply(reader: &mut BufReader<TcpStream>) -> Reply {
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status = line.split(' ').nth(1).unwrap().parse().unwrap();
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let (n, v) = l.split_once(':').unwrap();
        headers.push((n.to_ascii_lowercase(), v.trim().to_owned()));
    }
    let len: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .map_or(0, |(_, v)| v.parse().unwrap());
    let mut body = vec![0; len];
    reader.read_exact(&mut body).unwrap();
    Reply {
        status,
        headers,
        body,
    }
}
