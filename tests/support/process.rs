//! Running the real `mcp-reference` binary as a subprocess, as a host does:
//! stdin fed from a writer thread, stdout and stderr drained by reader
//! threads, so no test can deadlock on a full pipe, and every wait has a
//! deadline, so a hung server fails the test instead of hanging it.
//!
//! Used by `tests/binary.rs` through `#[path]`; it is not part of
//! `support/mod.rs`, so tests that do not spawn processes do not compile it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long any single wait may take before the test fails. Generous on
/// purpose: it catches a hang, it is not a performance threshold.
pub(crate) const DEADLINE: Duration = Duration::from_secs(10);

/// The binary under test.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_mcp-reference");

/// A running `mcp-reference`.
pub(crate) struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Option<ChildStdout>,
    lines: Option<Receiver<Vec<u8>>>,
    stderr: Option<JoinHandle<Vec<u8>>>,
    closed_at: Option<Instant>,
    waited: bool,
}

/// How a process ended.
#[derive(Debug)]
pub(crate) struct Exit {
    /// Its exit status.
    pub status: ExitStatus,
    /// Everything it wrote on stderr.
    pub stderr: String,
    /// Time from closing its stdin to seeing it exit, when stdin was closed
    /// by the test.
    pub after_eof: Option<Duration>,
}

impl Proc {
    /// Starts the binary with `args` and `env`; the caller's own
    /// `MCP_REFERENCE_*` variables are removed so they cannot leak in.
    pub(crate) fn spawn(args: &[&str], env: &[(&str, &str)]) -> Proc {
        let mut command = Command::new(BIN);
        command
            .args(args)
            .env_remove("MCP_REFERENCE_CONFIG")
            .env_remove("MCP_REFERENCE_USER")
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let stderr = thread::spawn(move || {
            let mut all = Vec::new();
            let _ = stderr.read_to_end(&mut all);
            all
        });
        Proc {
            child,
            stdin,
            stdout,
            lines: None,
            stderr: Some(stderr),
            closed_at: None,
            waited: false,
        }
    }

    /// Starts a thread that hands each stdout line (newline included; a last
    /// line without one as it is) to [`Proc::next_line`] and [`Proc::rest`].
    fn reader(&mut self) -> &Receiver<Vec<u8>> {
        if self.lines.is_none() {
            let stdout = self.stdout.take().expect("stdout was closed by the test");
            let (tx, rx) = mpsc::channel();
            thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let mut line = Vec::new();
                    match reader.read_until(b'\n', &mut line) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
            self.lines = Some(rx);
        }
        self.lines.as_ref().expect("just set")
    }

    /// Starts reading stdout now rather than at the first read, for a test
    /// that sends many lines before it reads any reply: the server never
    /// blocks on a full stdout pipe while the test blocks on a full stdin.
    pub(crate) fn read_from_now(&mut self) {
        self.reader();
    }

    /// The process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Closes the test's end of the server's stdout: the server's next write
    /// finds no reader.
    pub(crate) fn close_stdout(&mut self) {
        assert!(self.lines.is_none(), "stdout is already being read");
        drop(self.stdout.take());
    }

    /// Writes `bytes` to the server's stdin.
    pub(crate) fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("write to the server's stdin");
    }

    /// Hands stdin to a writer thread that writes `bytes` and then gives it
    /// back (still open). A server that exits early makes the write fail
    /// with a broken pipe, which the thread reports as `None`.
    pub(crate) fn feed(&mut self, bytes: Vec<u8>) -> JoinHandle<Option<ChildStdin>> {
        let mut stdin = self.stdin.take().expect("stdin is open");
        thread::spawn(move || match stdin.write_all(&bytes) {
            Ok(()) => Some(stdin),
            Err(e) if e.kind() == ErrorKind::BrokenPipe => None,
            Err(e) => panic!("write to the server's stdin: {e}"),
        })
    }

    /// Hands stdin to a writer thread that writes `bytes` and then closes
    /// it, returning when it closed it (`None`: the server had already gone
    /// and the write failed with a broken pipe).
    pub(crate) fn feed_and_close(&mut self, bytes: Vec<u8>) -> JoinHandle<Option<Instant>> {
        let writer = self.feed(bytes);
        thread::spawn(move || {
            let stdin = writer.join().expect("writer thread")?;
            drop(stdin);
            Some(Instant::now())
        })
    }

    /// Takes stdin back from a [`Proc::feed`] thread.
    pub(crate) fn restore_stdin(&mut self, writer: JoinHandle<Option<ChildStdin>>) {
        self.stdin = writer.join().expect("writer thread");
    }

    /// Takes the stdin handle (for a caller that streams on its own thread).
    pub(crate) fn take_stdin(&mut self) -> ChildStdin {
        self.stdin.take().expect("stdin is open")
    }

    /// Closes stdin now: the server sees end-of-file.
    pub(crate) fn close_stdin(&mut self) {
        drop(self.stdin.take());
        self.closed_at = Some(Instant::now());
    }

    /// Records that stdin was closed at `at` by another thread.
    pub(crate) fn stdin_closed_at(&mut self, at: Instant) {
        self.closed_at = Some(at);
    }

    /// The next stdout line; fails the test if none comes within
    /// [`DEADLINE`] or stdout ends first.
    pub(crate) fn next_line(&mut self) -> Vec<u8> {
        match self.reader().recv_timeout(DEADLINE) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                panic!("no reply within {DEADLINE:?} (the server did not flush?)")
            }
            Err(RecvTimeoutError::Disconnected) => panic!("stdout ended while a reply was due"),
        }
    }

    /// Every stdout line until stdout ends (the server exited or closed it);
    /// fails the test if that takes longer than [`DEADLINE`].
    pub(crate) fn rest(&mut self) -> Vec<Vec<u8>> {
        let end = Instant::now() + DEADLINE;
        let mut lines = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.reader().recv_timeout(left) {
                Ok(line) => lines.push(line),
                Err(RecvTimeoutError::Disconnected) => return lines,
                Err(RecvTimeoutError::Timeout) => panic!(
                    "stdout still open after {DEADLINE:?}; {} lines so far",
                    lines.len()
                ),
            }
        }
    }

    /// Peak resident memory so far, in KiB (`VmHWM` of /proc/<pid>/status).
    /// Only meaningful while the process is alive.
    pub(crate) fn peak_rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .expect("the server is still running");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().strip_suffix("kB"))
            .and_then(|v| v.trim().parse().ok())
            .expect("VmHWM in /proc/<pid>/status")
    }

    /// Whether the process exits within `wait` (polling; it is not reaped
    /// for good until [`Proc::wait`]).
    pub(crate) fn exited_within(&mut self, wait: Duration) -> bool {
        let end = Instant::now() + wait;
        loop {
            if self.child.try_wait().expect("try_wait").is_some() {
                return true;
            }
            if Instant::now() >= end {
                return false;
            }
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// Waits for the process to exit, at most [`DEADLINE`] (then kills it
    /// and fails the test), and collects its stderr.
    pub(crate) fn wait(mut self) -> Exit {
        let end = Instant::now() + DEADLINE;
        let status = loop {
            match self.child.try_wait().expect("try_wait") {
                Some(status) => break status,
                None if Instant::now() >= end => {
                    let _ = self.child.kill();
                    panic!("the server did not exit within {DEADLINE:?}");
                }
                None => thread::sleep(Duration::from_millis(1)),
            }
        };
        let exited = Instant::now();
        self.waited = true;
        // Stdin must not outlive the process in the test either.
        drop(self.stdin.take());
        let stderr = self
            .stderr
            .take()
            .expect("stderr reader")
            .join()
            .expect("stderr reader thread");
        Exit {
            status,
            stderr: String::from_utf8(stderr).expect("stderr is UTF-8"),
            after_eof: self
                .closed_at
                .map(|at| exited.saturating_duration_since(at)),
        }
    }
}

impl Drop for Proc {
    /// A test that fails half-way must not leave a server running.
    fn drop(&mut self) {
        if !self.waited {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
