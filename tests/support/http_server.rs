//! `mcp-reference serve --http` as a subprocess for the tests that speak
//! HTTP to the real binary (`tests/http_binary.rs`,
//! `tests/http_state_machine.rs`, `tests/sdk_http.rs`, `tests/oidc.rs`,
//! `tests/sdk_oauth.rs`), through `#[path]`: starting it on a free loopback
//! port (or one the test chose), connecting, reading one HTTP/1.1
//! response, and SIGTERM. Every wait has a deadline (a hang guard, not a
//! performance threshold).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::net::TcpStream;
use std::process::{Child, ChildStderr, Command, Stdio};
use std::time::{Duration, Instant};

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
        let mut child = Command::new(BIN)
            .args(["serve", "--http", addr])
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
        let pid = self.child.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .unwrap()
                .success()
        );
    }

    /// Sends SIGTERM (again, if it was sent already) and waits: the exit
    /// code, and the rest of stderr.
    pub(crate) fn terminate(mut self) -> (Option<i32>, String) {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
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
