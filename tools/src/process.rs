//! One run of the server under test, for `check`, `diff` and the vector
//! replayer alike: a child process whose stdin is fed by a writer thread
//! and whose stdout and stderr are drained by reader threads, so the caller
//! never blocks on a pipe, whatever the server does.
//!
//! - **Writing.** Lines go through a channel to a writer thread. A server
//!   that stops reading (hung, or slow to start) blocks that thread, never
//!   the caller; closing the channel closes the server's stdin once what
//!   was queued has been written.
//! - **Reading.** stdout is split on `\n` by a reader thread. A line longer
//!   than [`MAX_LINE`] keeps its first [`MAX_LINE`] bytes and its length, so
//!   a server that never writes a newline cannot exhaust memory. The channel
//!   is bounded: a server that floods stdout is slowed down, not buffered.
//! - **stderr** is read and kept only as a short tail, for failure reports:
//!   a noisy server can neither fill the pipe nor the caller's memory.
//! - **Waiting** always has a deadline. Dropping a [`Proc`] kills the
//!   process and reaps it, and on Unix kills its process group too, even
//!   when the process has exited: a launcher such as `npx` or `uv run`
//!   leaves neither its real server behind nor anything it detached.
//!
//! Spec: 2026-07-28 `basic/transports/stdio.mdx`: the client launches the
//! server as a subprocess, writes to its stdin, reads its stdout, MAY
//! capture its stderr, and shuts it down by closing stdin, waiting, then
//! terminating it ("Shutdown").

use std::ffi::OsString;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Longest stdout line kept whole; longer lines keep this much and their length.
pub const MAX_LINE: usize = 16 * 1024 * 1024;

/// How much of stderr is kept for reports.
const STDERR_TAIL: usize = 2048;

/// How many stdout lines may wait in the channel before the reader stops reading.
const QUEUE: usize = 1024;

/// The command to launch.
#[derive(Debug, Clone)]
pub struct Launch {
    /// Program and arguments.
    pub argv: Vec<OsString>,
    /// Extra environment variables.
    pub env: Vec<(OsString, OsString)>,
    /// Variables removed from the inherited environment.
    pub env_remove: Vec<OsString>,
}

impl Launch {
    /// The command as a POSIX shell would need it typed: each argument
    /// that holds anything but letters, digits and `@%+=:,./_-` in single
    /// quotes (an empty one as `''`), so it can be pasted back.
    pub fn display(&self) -> String {
        self.argv
            .iter()
            .map(|a| shell_quote(&a.to_string_lossy()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// `arg` quoted for a POSIX shell.
pub fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "@%+=:,./_-".contains(c));
    if plain {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// One line read from stdout.
#[derive(Debug, Clone)]
pub struct Line {
    /// The bytes, without the newline (at most [`MAX_LINE`] of them).
    pub bytes: Vec<u8>,
    /// The line's full length, newline excluded.
    pub len: usize,
}

impl Line {
    /// Whether the line was longer than [`MAX_LINE`].
    pub fn truncated(&self) -> bool {
        self.len > self.bytes.len()
    }
}

enum Event {
    Line(Line),
    Closed,
}

/// What waiting for the next stdout line gave.
#[derive(Debug)]
pub enum Next {
    /// A line.
    Line(Line),
    /// Nothing before the deadline.
    Timeout,
    /// stdout is closed (the process exited or closed it).
    Closed,
}

#[derive(Default)]
struct Tail {
    bytes: Vec<u8>,
    total: u64,
}

/// A running server.
pub struct Proc {
    child: Child,
    pid: u32,
    input: Option<Sender<Vec<u8>>>,
    events: Receiver<Event>,
    closed: bool,
    stderr: Arc<Mutex<Tail>>,
    status: Option<ExitStatus>,
}

impl Proc {
    /// Starts the command with piped stdin, stdout and stderr.
    pub fn spawn(launch: &Launch) -> Result<Proc, String> {
        let (program, args) = launch
            .argv
            .split_first()
            .ok_or_else(|| "no command to run".to_string())?;
        let mut command = Command::new(program);
        for key in &launch.env_remove {
            command.env_remove(key);
        }
        command
            .args(args)
            .envs(launch.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        isolate(&mut command);
        let mut child = command.spawn().map_err(|e| {
            format!(
                "cannot start {}: {}",
                program.to_string_lossy(),
                match e.kind() {
                    ErrorKind::NotFound => "no such program".to_string(),
                    ErrorKind::PermissionDenied => "permission denied".to_string(),
                    _ => e.to_string(),
                }
            )
        })?;
        let pid = child.id();
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("the child's standard streams were not piped".into());
        };
        let (input, lines) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || write_all(stdin, lines));
        let (tx, events) = mpsc::sync_channel(QUEUE);
        thread::spawn(move || read_lines(stdout, tx));
        let tail = Arc::new(Mutex::new(Tail::default()));
        let sink = Arc::clone(&tail);
        thread::spawn(move || read_tail(stderr, sink));
        Ok(Proc {
            child,
            pid,
            input: Some(input),
            events,
            closed: false,
            stderr: tail,
            status: None,
        })
    }

    /// Queues bytes for the server's stdin (the caller adds the newlines).
    /// Bytes sent after the input was closed, or to a server that stopped
    /// reading for good, are dropped.
    pub fn send(&self, bytes: Vec<u8>) {
        if let Some(input) = &self.input {
            let _ = input.send(bytes);
        }
    }

    /// Closes the server's stdin once everything queued is written.
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// The next stdout line, waiting until `deadline` at most.
    pub fn next(&mut self, deadline: Instant) -> Next {
        if self.closed {
            return Next::Closed;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(Event::Line(line)) => Next::Line(line),
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Next::Closed
            }
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
        }
    }

    /// A line already read, if any, without waiting.
    pub fn try_next(&mut self) -> Option<Line> {
        if self.closed {
            return None;
        }
        match self.events.try_recv() {
            Ok(Event::Line(line)) => Some(line),
            Ok(Event::Closed) | Err(TryRecvError::Disconnected) => {
                self.closed = true;
                None
            }
            Err(TryRecvError::Empty) => None,
        }
    }

    /// Waits until the process exits or `deadline` passes.
    pub fn wait_exit(&mut self, deadline: Instant) -> Option<ExitStatus> {
        loop {
            if let Some(status) = self.exited() {
                return Some(status);
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            thread::sleep((deadline - now).min(Duration::from_millis(5)));
        }
    }

    /// The exit status, if the process has exited.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            self.status = self.child.try_wait().ok().flatten();
        }
        self.status
    }

    /// The end of what the server wrote on stderr, and how many bytes it
    /// wrote in all.
    pub fn stderr_tail(&self) -> (String, u64) {
        match self.stderr.lock() {
            Ok(tail) => (
                String::from_utf8_lossy(&tail.bytes).trim_end().to_string(),
                tail.total,
            ),
            Err(_) => (String::new(), 0),
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.input = None;
        // The whole group, always: whatever the server started goes too,
        // even a process it detached from its pipes and left running
        // after it exited itself.
        kill_group(self.pid);
        if self.exited().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(unix)]
fn isolate(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // Its own process group, so that everything it starts can be stopped.
    command.process_group(0);
}

#[cfg(not(unix))]
fn isolate(_: &mut Command) {}

/// Kills the process group led by the child (Unix), best effort. The group
/// id is the child's pid, which cannot be reused while the group exists.
#[cfg(unix)]
fn kill_group(pid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pid}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

#[cfg(not(unix))]
fn kill_group(_: u32) {}

fn write_all(mut stdin: ChildStdin, lines: Receiver<Vec<u8>>) {
    for bytes in lines {
        if stdin
            .write_all(&bytes)
            .and_then(|()| stdin.flush())
            .is_err()
        {
            // The server closed its stdin or exited: nothing more can go in.
            return;
        }
    }
}

fn read_lines(stdout: impl Read, events: SyncSender<Event>) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut line = Line {
        bytes: Vec::new(),
        len: 0,
    };
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) => break,
            Ok(chunk) => chunk,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let (piece, used, end) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (chunk.get(..i).unwrap_or_default(), i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(line.bytes.len());
        line.bytes
            .extend_from_slice(piece.get(..room.min(piece.len())).unwrap_or_default());
        line.len += piece.len();
        reader.consume(used);
        if end {
            let done = std::mem::replace(
                &mut line,
                Line {
                    bytes: Vec::new(),
                    len: 0,
                },
            );
            if events.send(Event::Line(done)).is_err() {
                return;
            }
        }
    }
    if line.len > 0 {
        let _ = events.send(Event::Line(line));
    }
    let _ = events.send(Event::Closed);
}

fn read_tail(mut stderr: impl Read, tail: Arc<Mutex<Tail>>) {
    let mut buf = [0u8; 8192];
    loop {
        let n = match stderr.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        let Ok(mut tail) = tail.lock() else { return };
        tail.total += n as u64;
        tail.bytes
            .extend_from_slice(buf.get(..n).unwrap_or_default());
        let excess = tail.bytes.len().saturating_sub(STDERR_TAIL);
        if excess > 0 {
            tail.bytes.drain(..excess);
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> Launch {
        Launch {
            argv: vec!["sh".into(), "-c".into(), script.into()],
            env: Vec::new(),
            env_remove: Vec::new(),
        }
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(10)
    }

    #[test]
    fn lines_are_split_and_the_last_one_kept() {
        let mut p = Proc::spawn(&sh("printf 'a\\nbb\\nccc'")).unwrap();
        let mut got = Vec::new();
        while let Next::Line(line) = p.next(soon()) {
            got.push(line.bytes);
        }
        assert_eq!(got, [b"a".to_vec(), b"bb".to_vec(), b"ccc".to_vec()]);
        assert!(p.wait_exit(soon()).is_some());
    }

    #[test]
    fn input_is_echoed_and_closing_it_ends_cat() {
        let mut p = Proc::spawn(&sh("cat")).unwrap();
        p.send(b"one\ntwo\n".to_vec());
        p.close_input();
        let mut got = Vec::new();
        while let Next::Line(line) = p.next(soon()) {
            got.push(line.bytes);
        }
        assert_eq!(got, [b"one".to_vec(), b"two".to_vec()]);
        assert!(p.wait_exit(soon()).unwrap().success());
    }

    #[test]
    fn a_silent_server_times_out_and_stderr_is_kept() {
        let mut p = Proc::spawn(&sh("echo oops >&2; exec sleep 30")).unwrap();
        let deadline = Instant::now() + Duration::from_millis(50);
        assert!(matches!(p.next(deadline), Next::Timeout));
        let until = Instant::now() + Duration::from_secs(10);
        while p.stderr_tail().1 == 0 && Instant::now() < until {
            thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(p.stderr_tail(), ("oops".to_string(), 5));
        // Dropping kills it rather than waiting 30 seconds.
    }

    #[test]
    fn commands_are_quoted_as_a_shell_needs_them() {
        let launch = Launch {
            argv: vec![
                "./server".into(),
                "--name".into(),
                "two words".into(),
                "it's".into(),
                "".into(),
            ],
            env: Vec::new(),
            env_remove: Vec::new(),
        };
        assert_eq!(
            launch.display(),
            r"./server --name 'two words' 'it'\''s' ''"
        );
    }

    #[test]
    fn a_missing_program_is_a_sentence() {
        let launch = Launch {
            argv: vec!["/nonexistent/server".into()],
            env: Vec::new(),
            env_remove: Vec::new(),
        };
        let err = Proc::spawn(&launch).err().unwrap();
        assert_eq!(err, "cannot start /nonexistent/server: no such program");
    }
}
