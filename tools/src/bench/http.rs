//! One bench round over Streamable HTTP: `connections` threads, each with
//! one kept-alive connection ([`crate::http_client::Connection`]) and one
//! request in flight at a time, taking request numbers from one shared
//! counter so that the mix stays the same however the threads interleave.
//! Also the reference's HTTP server for the whole run ([`Reference`]):
//! `mcp-reference serve --http 127.0.0.1:0`, whose first stderr line
//! announces the URL it listens on; and the loopback rule for `--http`
//! ([`loopback`]).
//!
//! A request's latency is the time from writing its bytes to having read
//! its whole response, in its connection's thread.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read};
use std::net::IpAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use mcp_reference_testkit::model::http::HttpRequest;

use crate::check::wire;
use crate::http_client::{Connection, Request, Url};

use super::plan::{Plan, Start};
use super::stats::Round;
use super::verdicts::Verdicts;
use super::workload::Workload;

/// Whether `url`'s host is loopback: `localhost`, or an IP address in
/// 127.0.0.0/8 or `::1`. A name other than `localhost` is not resolved
/// (what it resolves to is the resolver's choice, and may change), so it
/// counts as remote.
pub fn loopback(url: &Url) -> bool {
    let host = match url.authority.rsplit_once(':') {
        Some((host, port)) if port.parse::<u16>().is_ok() => host,
        _ => url.authority.as_str(),
    };
    let host = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The port of `url` (80 when it names none).
pub fn port(url: &Url) -> u16 {
    url.authority
        .rsplit_once(':')
        .and_then(|(_, p)| p.parse().ok())
        .unwrap_or(80)
}

fn wire_request(request: &HttpRequest) -> Request {
    Request {
        method: request.method.clone(),
        target: request.target.clone(),
        headers: request.headers.clone(),
        body: request.body.clone(),
    }
}

/// Sends one request and judges its response.
fn exchange(
    conn: &mut Connection,
    verdicts: &mut Verdicts,
    url: &Url,
    workload: &Workload,
    n: u64,
    timeout: Duration,
) -> (Instant, Instant, Result<(), (&'static str, String)>) {
    let request = workload.http_request(&url.authority, &url.path, n);
    let bytes = conn.encode(&wire_request(&request));
    let sent = Instant::now();
    let response = conn.exchange(&bytes, timeout);
    let arrived = Instant::now();
    let verdict = match response {
        Err(e) => Err(("transport error", e)),
        Ok(r) => {
            let headers: Vec<(&str, &str)> = r
                .headers
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_str()))
                .collect();
            verdicts
                .judge_http(
                    workload,
                    n,
                    &request,
                    port(url),
                    r.status,
                    &headers,
                    &r.body,
                )
                .map_err(|e| (e.kind, e.detail))
        }
    };
    (sent, arrived, verdict)
}

/// Runs one round against the server at `url`.
pub fn round(url: &Url, workload: &Workload, plan: &Plan) -> Result<Round, Start> {
    // The first request: the server is reachable when it is answered.
    let mut first = Connection::new(url);
    let (_, _, verdict) = exchange(
        &mut first,
        &mut Verdicts::default(),
        url,
        workload,
        0,
        plan.start_timeout,
    );
    let mut round = Round::default();
    match verdict {
        Err(("transport error", e)) => {
            return Err(Start(format!(
                "the server at http://{}{} could not be reached: {e}",
                url.authority, url.path
            )));
        }
        Err((kind, detail)) => round.error(kind, || detail),
        Ok(()) => {}
    }
    drop(first);
    let start = Instant::now();
    let warm_end = start + plan.warmup;
    let end = warm_end + plan.duration;
    let counter = AtomicU64::new(1);
    let measured = AtomicU64::new(0);
    let parts: Vec<Round> = thread::scope(|s| {
        let handles: Vec<_> = (0..plan.connections)
            .map(|_| {
                s.spawn(|| {
                    let mut part = Round::default();
                    let mut conn = Connection::new(url);
                    let mut verdicts = Verdicts::default();
                    let mut last = warm_end;
                    loop {
                        let now = Instant::now();
                        if now >= end {
                            break;
                        }
                        let is_measured = now >= warm_end;
                        if is_measured
                            && let Some(cap) = plan.requests
                            && measured.fetch_add(1, Ordering::Relaxed) >= cap
                        {
                            break;
                        }
                        let n = counter.fetch_add(1, Ordering::Relaxed);
                        let (sent, arrived, verdict) =
                            exchange(&mut conn, &mut verdicts, url, workload, n, plan.timeout);
                        match verdict {
                            Ok(()) if sent >= warm_end => {
                                part.requests += 1;
                                let ns = arrived.saturating_duration_since(sent).as_nanos();
                                part.latencies.push(u64::try_from(ns).unwrap_or(u64::MAX));
                                last = last.max(arrived);
                            }
                            Ok(()) => {}
                            // A connection ends at its first transport
                            // error: the server closed it and could not be
                            // reached again, so one error is counted, not
                            // one per attempt to reconnect.
                            Err(("transport error", detail)) => {
                                part.error("transport error", || detail);
                                break;
                            }
                            Err((kind, detail)) => part.error(kind, || detail),
                        }
                    }
                    part.elapsed = last.saturating_duration_since(warm_end);
                    part
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    for part in parts {
        round.merge(part);
    }
    round.finish();
    Ok(round)
}

/// The reference's HTTP server, started for the run and killed when
/// dropped.
pub struct Reference {
    child: Child,
    /// The URL it announced.
    pub url: Url,
    /// Its command line, for the report.
    pub command: String,
}

impl Drop for Reference {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Reference {
    /// Starts `program serve --http 127.0.0.1:0 ARGS...` and reads the URL
    /// it announces within `wait`.
    pub fn start(
        program: &OsString,
        args: &[OsString],
        wait: Duration,
    ) -> Result<Reference, Start> {
        let mut argv: Vec<OsString> = vec!["serve".into(), "--http".into(), "127.0.0.1:0".into()];
        argv.extend(args.iter().cloned());
        let command = std::iter::once(program)
            .chain(argv.iter())
            .map(|a| crate::process::shell_quote(&a.to_string_lossy()))
            .collect::<Vec<_>>()
            .join(" ");
        let mut child = Command::new(program)
            .args(&argv)
            .env_remove("MCP_REFERENCE_CONFIG")
            .env_remove("MCP_REFERENCE_USER")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Start(format!("cannot start the reference ({command}): {e}")))?;
        let Some(stderr) = child.stderr.take() else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Start("the reference's stderr was not piped".into()));
        };
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut line = String::new();
            let _ = reader.read_line(&mut line);
            let _ = tx.send(line);
            // The rest is drained, so the pipe never fills.
            let mut sink = [0u8; 4096];
            while reader.read(&mut sink).is_ok_and(|n| n > 0) {}
        });
        let line = rx.recv_timeout(wait).unwrap_or_default();
        let announced = line.trim().rsplit(' ').next().unwrap_or_default();
        match Url::parse(announced) {
            Ok(url) => Ok(Reference {
                child,
                url,
                command,
            }),
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(Start(format!(
                    "the reference ({command}) announced no URL within {} s{}",
                    wait.as_secs(),
                    if line.trim().is_empty() {
                        String::new()
                    } else {
                        format!(": {}", wire::show(line.trim().as_bytes(), 300))
                    }
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts() {
        for url in [
            "http://127.0.0.1:8080/mcp",
            "http://127.1.2.3:1/",
            "http://localhost:8080/mcp",
            "http://LOCALHOST/mcp",
            "http://[::1]:8080/mcp",
        ] {
            assert!(loopback(&Url::parse(url).unwrap()), "{url}");
        }
        for url in [
            "http://10.0.0.1:8080/mcp",
            "http://example.com/mcp",
            "http://localhost.example.com:80/",
            "http://[::2]:8080/mcp",
            "http://0.0.0.0:8080/mcp",
        ] {
            assert!(!loopback(&Url::parse(url).unwrap()), "{url}");
        }
        assert_eq!(port(&Url::parse("http://127.0.0.1:9/mcp").unwrap()), 9);
        assert_eq!(port(&Url::parse("http://localhost/mcp").unwrap()), 80);
    }
}
