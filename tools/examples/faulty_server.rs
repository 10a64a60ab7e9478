//! A test fixture: the reference core behind a stdio loop that breaks one
//! rule per flag, so the tests of `check` and `diff` can assert that each
//! fault is found, and only it. Not a server anyone should run.
//!
//! ```text
//! faulty_server [FAULT...]
//!   --wrong-id              echoes integer ids beyond 64 bits as floats (the
//!                           classic "parse the id into a double" bug)
//!   --answer-notifications  answers every notification with an error
//!   --skip-version-check    serves any protocol version as 2026-07-28
//!   --no-result-type        leaves resultType out of every result
//!   --restyle               not a fault of the specification: another
//!                           wording for every error, an error.data member
//!                           (keeping the versions it names),
//!                           a further _meta member in every result, the
//!                           top-level members in reverse order
//!   --deep-as-invalid       answers a line nested 128 levels deep or more
//!                           with -32600 instead of -32700
//!   --depth-limit N         reads nesting up to N - 1 levels, as a port on
//!                           a parser with another limit than the
//!                           reference's does: a line nested N levels or
//!                           more gets -32700; one the reference refuses as
//!                           too deep but nested fewer than N levels is
//!                           answered as the reference answers it with each
//!                           value past the levels the reference reads
//!                           read as null (a port that reads the line and
//!                           finds the deep member irrelevant)
//!   --silent-on-non-objects answers nothing to a line whose JSON is not an
//!                           object (a batch, a scalar), as the ports on
//!                           the official SDKs drop what their message
//!                           schema refuses
//!   --parse-error-as-invalid
//!                           answers every line that is not JSON with
//!                           -32600 instead of -32700 (an error with id
//!                           null still: JRPC-03 holds; row E1's code does
//!                           not)
//!   --silent-on-parse-errors
//!                           answers no line that is not JSON, as the ports
//!                           on the official SDKs do (JRPC-03)
//!   --version-once          checks the protocol version only until a
//!                           request of another method than
//!                           server/discover has got a result, and serves
//!                           any version as 2026-07-28 after that, as a
//!                           port on the official TypeScript SDK 2.4 does
//!                           (BASE-21 and VER-01)
//!   --leak-forbidden        shows any existing order, whoever owns it
//!   --drop-at-eof           exits at end-of-file without answering what is
//!                           still queued (each request takes 20 ms)
//!   --log-on-stdout         prints a log line on stdout at start-up
//!   --slow-start MS         sleeps MS milliseconds before reading stdin
//!   --hang-on METHOD        blocks forever on a request for METHOD
//!   --drop METHOD           never answers a request for METHOD that would
//!                           get a result, as a handler that never returns;
//!                           errors found before the handler runs (a bad
//!                           version, a missing _meta) are still answered,
//!                           and so is every other method
//!   --server-info-without-version
//!                           leaves version out of the serverInfo of every
//!                           result's _meta (its name kept)
//!   --exit-status N         exits with status N at end-of-file (after
//!                           answering everything)
//!   --stray-at-eof          at end-of-file, writes an error response to an
//!                           id no request carried before exiting
//!   --exit-on-notifications exits (status 101, as a panic does) on the
//!                           first notification it reads, before reading
//!                           further
//!   --hang-on-notifications blocks forever on the first notification it
//!                           reads, answering nothing after it
//!   --stderr-noise          writes 1 MiB to stderr at start-up and a line
//!                           per message
//!   --late-tool-calls       holds the reply to each tools/call (one with a
//!                           non-null id) back until the next line has been
//!                           handled and answered, as a server answering
//!                           concurrently may; not a fault: the replies are
//!                           right
//!   --first-line-decides    takes the era of the connection from its first
//!                           line, as the official Python SDK 2.3 does: when
//!                           that line carries no modern _meta, every later
//!                           request that does gets -32600, and every other
//!                           request but initialize -32601 (BASE-21: no
//!                           context from earlier requests)
//!   --no-version-list       sends every -32022 without its data (the
//!                           versions served and the one asked for, which
//!                           VER-01 requires)
//!   --resource-not-found-32002
//!                           answers resources/read of a resource that does
//!                           not exist with -32002 (the code of earlier
//!                           revisions) instead of -32602
//!   --empty-contents        answers resources/read of a resource that does
//!                           not exist with a result whose contents is empty
//!   --complete-leaks        completion of order_id also suggests the orders
//!                           of other users that match the prefix
//!   --complete-counts-leaks completion of order_id suggests only the user's
//!                           own orders, but its total also counts the other
//!                           users' orders that match the prefix
//!   --list-varies           once a resources/read has been answered,
//!                           resources/list leaves its last resource out
//!   --ignore-state          answers every request as if it carried no
//!                           requestState (a multi round-trip server that
//!                           never checks its state: MRTR-07)
//!   --unasked-log           writes a notifications/message before the
//!                           response to every tools/call, asked for or
//!                           not (LOG-04)
//!   --drop-notifications    writes no notification a request asked for
//!                           (progress, log) before its response (rows T12,
//!                           T13)
//!   --notifications-backwards writes those notifications in reverse order
//!                           (progress 100, 50, 0: PROG-03)
//!   --no-request-state      leaves the requestState out of an
//!                           InputRequiredResult (a chain's next round has
//!                           nothing to carry: rows I4, I9, I12)
//!   --accept-any-state      a tools/call whose requestState is none it
//!                           issued is answered with the last one it issued
//!                           instead, as a server that never verifies its
//!                           state (MRTR-07: check --call's
//!                           call.state-tampered, call.state-truncated)
//!   --ask-undeclared        a tools/call declaring no capabilities is
//!                           answered as if it declared them all (MRTR-11:
//!                           call.input-capabilities)
//!   --ask-unnarrowed        a tools/call declaring elicitation without url
//!                           (or sampling without tools) is answered as if
//!                           it declared url (tools) too (ELICIT-04,
//!                           SAMPLING-01: call.input-capabilities)
//!   --request-on-input      writes an elicitation/create request of its
//!                           own before every InputRequiredResult (MRTR-01:
//!                           call.server-requests)
//!   --accept-declined       a tools/call whose inputResponses decline or
//!                           cancel an elicitation gets the last complete
//!                           result of that tool (ELICIT-02: call.decline,
//!                           call.cancel)
//!   --accept-malformed      a tools/call whose inputResponses hold a value
//!                           that is not an object gets the last complete
//!                           result of that tool (MRTR-13:
//!                           call.answers-malformed)
//!   --error-on-unanswered   a tools/call with a requestState and no
//!                           inputResponses gets -32602 instead of being
//!                           asked again (MRTR-16: call.retry-unanswered)
//!   --progress-wrong-token  every progress notification names another
//!                           token than the request's (PROG-05:
//!                           call.progress)
//!   --progress-unasked      a tools/call without a progressToken is
//!                           answered as if it carried one, progress
//!                           notifications included (PROG-05:
//!                           call.progress-unasked)
//!   --random-order          answers each request with a non-null id from a
//!                           thread of its own, after a random pause of 0 to
//!                           8 ms, so replies come in a different order on
//!                           every run, as from a server answering
//!                           concurrently; not a fault either
//! ```
//!
//! The configuration comes from `MCP_REFERENCE_CONFIG`, as for the real
//! binary, else the textbook defaults.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::Duration;

use mcp_reference::Order;
use mcp_reference::{Config, Direct, Disposition, Server};
use mcp_reference_testkit::model::MAX_DEPTH;
use serde_json::Value;

#[path = "faulty/call.rs"]
mod call;
use call::{Before, call_after, call_before};

#[derive(Default)]
struct Faults {
    wrong_id: bool,
    answer_notifications: bool,
    skip_version_check: bool,
    no_result_type: bool,
    deep_as_invalid: bool,
    depth_limit: Option<usize>,
    silent_on_non_objects: bool,
    parse_error_as_invalid: bool,
    silent_on_parse_errors: bool,
    version_once: bool,
    restyle: bool,
    leak_forbidden: bool,
    drop_at_eof: bool,
    log_on_stdout: bool,
    slow_start: Option<u64>,
    hang_on: Option<String>,
    drop: Option<String>,
    stderr_noise: bool,
    late_tool_calls: bool,
    random_order: bool,
    first_line_decides: bool,
    no_version_list: bool,
    resource_not_found_32002: bool,
    empty_contents: bool,
    complete_leaks: bool,
    complete_counts_leaks: bool,
    list_varies: bool,
    exit_on_notifications: bool,
    exit_status: Option<u8>,
    server_info_without_version: bool,
    stray_at_eof: bool,
    hang_on_notifications: bool,
    drop_notifications: bool,
    notifications_backwards: bool,
    no_request_state: bool,
    ignore_state: bool,
    unasked_log: bool,
    accept_any_state: bool,
    ask_undeclared: bool,
    ask_unnarrowed: bool,
    request_on_input: bool,
    accept_declined: bool,
    accept_malformed: bool,
    error_on_unanswered: bool,
    progress_wrong_token: bool,
    progress_unasked: bool,
    /// With --accept-any-state: every requestState issued.
    issued: std::cell::RefCell<Vec<String>>,
    /// With --accept-declined: each tool's last complete result.
    accepted: std::cell::RefCell<std::collections::HashMap<String, Value>>,
    /// With --list-varies: whether a resources/read has been answered.
    read_seen: std::cell::Cell<bool>,
}

fn parse() -> Result<Faults, String> {
    let mut f = Faults::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--wrong-id" => f.wrong_id = true,
            "--answer-notifications" => f.answer_notifications = true,
            "--skip-version-check" => f.skip_version_check = true,
            "--no-result-type" => f.no_result_type = true,
            "--deep-as-invalid" => f.deep_as_invalid = true,
            "--depth-limit" => {
                let n = args
                    .next()
                    .ok_or("--depth-limit needs a number of levels")?;
                f.depth_limit = Some(
                    n.parse()
                        .map_err(|_| "--depth-limit needs a number of levels")?,
                );
            }
            "--silent-on-non-objects" => f.silent_on_non_objects = true,
            "--parse-error-as-invalid" => f.parse_error_as_invalid = true,
            "--version-once" => f.version_once = true,
            "--silent-on-parse-errors" => f.silent_on_parse_errors = true,
            "--restyle" => f.restyle = true,
            "--leak-forbidden" => f.leak_forbidden = true,
            "--drop-at-eof" => f.drop_at_eof = true,
            "--log-on-stdout" => f.log_on_stdout = true,
            "--stderr-noise" => f.stderr_noise = true,
            "--late-tool-calls" => f.late_tool_calls = true,
            "--random-order" => f.random_order = true,
            "--first-line-decides" => f.first_line_decides = true,
            "--no-version-list" => f.no_version_list = true,
            "--resource-not-found-32002" => f.resource_not_found_32002 = true,
            "--empty-contents" => f.empty_contents = true,
            "--complete-leaks" => f.complete_leaks = true,
            "--complete-counts-leaks" => f.complete_counts_leaks = true,
            "--list-varies" => f.list_varies = true,
            "--exit-on-notifications" => f.exit_on_notifications = true,
            "--stray-at-eof" => f.stray_at_eof = true,
            "--server-info-without-version" => f.server_info_without_version = true,
            "--exit-status" => {
                let n = args.next().ok_or("--exit-status needs a number")?;
                f.exit_status = Some(n.parse().map_err(|_| "--exit-status needs 0 to 255")?);
            }
            "--hang-on-notifications" => f.hang_on_notifications = true,
            "--drop-notifications" => f.drop_notifications = true,
            "--notifications-backwards" => f.notifications_backwards = true,
            "--no-request-state" => f.no_request_state = true,
            "--ignore-state" => f.ignore_state = true,
            "--accept-any-state" => f.accept_any_state = true,
            "--ask-undeclared" => f.ask_undeclared = true,
            "--ask-unnarrowed" => f.ask_unnarrowed = true,
            "--request-on-input" => f.request_on_input = true,
            "--accept-declined" => f.accept_declined = true,
            "--accept-malformed" => f.accept_malformed = true,
            "--error-on-unanswered" => f.error_on_unanswered = true,
            "--progress-wrong-token" => f.progress_wrong_token = true,
            "--progress-unasked" => f.progress_unasked = true,
            "--unasked-log" => f.unasked_log = true,
            "--slow-start" => {
                let ms = args.next().ok_or("--slow-start needs milliseconds")?;
                f.slow_start = Some(ms.parse().map_err(|_| "--slow-start needs milliseconds")?);
            }
            "--hang-on" => f.hang_on = Some(args.next().ok_or("--hang-on needs a method")?),
            "--drop" => f.drop = Some(args.next().ok_or("--drop needs a method")?),
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok(f)
}

fn main() -> ExitCode {
    let faults = match parse() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("faulty_server: {e}");
            return ExitCode::from(2);
        }
    };
    let config = match std::env::var_os("MCP_REFERENCE_CONFIG") {
        Some(path) => match Config::load(path.as_ref()) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("faulty_server: {e}");
                return ExitCode::from(2);
            }
        },
        None => Config::default(),
    };
    let config = if faults.leak_forbidden {
        // Every order becomes the user's own: the ownership check is gone.
        let user = config.user().to_string();
        let orders: Vec<Order> = config
            .orders()
            .iter()
            .cloned()
            .map(|mut o| {
                o.owner = user.clone();
                o
            })
            .collect();
        match config.with_orders(orders) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("faulty_server: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        config
    };
    let server = Server::new(config);
    if faults.stderr_noise {
        let noise =
            "faulty_server: noise noise noise noise noise noise noise noise\n".repeat(16 * 1024);
        let _ = io::stderr().write_all(noise.as_bytes());
    }
    if let Some(ms) = faults.slow_start {
        thread::sleep(Duration::from_millis(ms));
    }
    let stdout = Arc::new(Mutex::new(io::stdout()));
    if faults.log_on_stdout
        && let Ok(mut out) = stdout.lock()
    {
        let _ = writeln!(out, "faulty_server: starting up, reading stdin");
        let _ = out.flush();
    }
    // A reader thread feeds the lines to the handler through a channel, so
    // that end-of-file can be seen while requests are still queued.
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let drop_at_eof = faults.drop_at_eof;
    let out_for_reader = Arc::clone(&stdout);
    thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        loop {
            let mut line = Vec::new();
            match stdin.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if line.last() == Some(&b'\n') {
                        line.pop();
                    }
                    if tx.send(line).is_err() {
                        return;
                    }
                }
            }
        }
        if drop_at_eof {
            // Holding the stdout lock, so no reply is cut in half.
            let _guard = out_for_reader.lock();
            std::process::exit(0);
        }
    });
    let write = |reply: &str| {
        if let Ok(mut out) = stdout.lock() {
            let _ = out.write_all(reply.as_bytes());
            let _ = out.flush();
        }
    };
    let mut held: Option<String> = None;
    let mut pending = Vec::new();
    // With --first-line-decides: whether the first line made this a
    // connection of the handshake era.
    let mut handshake_era: Option<bool> = None;
    // With --version-once: whether a request of another method than
    // server/discover has got a result, after which no version is checked.
    let mut version_seen = false;
    for line in rx {
        let parsed = serde_json::from_slice::<Value>(&line).ok();
        let modern = parsed
            .as_ref()
            .and_then(|v| v.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion"))
            .is_some();
        let notification = parsed.as_ref().is_some_and(|v| {
            v.get("method").is_some_and(Value::is_string) && v.get("id").is_none()
        });
        if notification && faults.exit_on_notifications {
            return ExitCode::from(101);
        }
        if notification && faults.hang_on_notifications {
            loop {
                thread::sleep(Duration::from_secs(3600));
            }
        }
        let handshake = faults.first_line_decides && *handshake_era.get_or_insert(!modern);
        let id = parsed.as_ref().and_then(|v| v.get("id").cloned());
        let method = parsed
            .as_ref()
            .and_then(|v| v.get("method").and_then(Value::as_str).map(str::to_owned));
        // On a connection of the handshake era: a modern request is
        // refused, and any other request but initialize is an unknown
        // method there (the core would say -32602 for a missing _meta).
        let refusal = match (&id, method.as_deref()) {
            (Some(_), Some(m)) if handshake && (modern || m != "initialize") => Some(if modern {
                (-32600, "this connection serves the handshake era")
            } else {
                (-32601, "Method not found")
            }),
            _ => None,
        };
        let reply = match refusal {
            Some((code, message)) => Some(format!(
                "{}\n",
                serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
            )),
            None => handle(&server, &faults, &line, version_seen),
        };
        if faults.version_once
            && method.as_deref().is_some_and(|m| m != "server/discover")
            && reply.as_deref().is_some_and(|r| {
                serde_json::from_str::<Value>(r).is_ok_and(|v| v.get("result").is_some())
            })
        {
            version_seen = true;
        }
        // Only a reply with an id can be told from the others when late.
        let late = faults.late_tool_calls
            && serde_json::from_slice::<Value>(&line)
                .is_ok_and(|v| v.get("method") == Some(&Value::from("tools/call")))
            && reply.as_ref().is_some_and(|r| {
                serde_json::from_str::<Value>(r)
                    .is_ok_and(|v| v.get("id").is_some_and(|id| !id.is_null()))
            });
        let earlier = held.take();
        let has_id = |r: &str| {
            serde_json::from_str::<Value>(r)
                .is_ok_and(|v| v.get("id").is_some_and(|id| !id.is_null()))
        };
        match reply {
            Some(reply) if faults.random_order && has_id(&reply) => {
                let out = Arc::clone(&stdout);
                let pause = Duration::from_millis(random() % 9);
                pending.push(thread::spawn(move || {
                    thread::sleep(pause);
                    if let Ok(mut out) = out.lock() {
                        let _ = out.write_all(reply.as_bytes());
                        let _ = out.flush();
                    }
                }));
            }
            Some(reply) if late => held = Some(reply),
            Some(reply) => write(&reply),
            None => {}
        }
        if let Some(earlier) = earlier {
            write(&earlier);
        }
    }
    if let Some(earlier) = held {
        write(&earlier);
    }
    for reply in pending {
        let _ = reply.join();
    }
    if faults.stray_at_eof {
        write(
            "{\"jsonrpc\":\"2.0\",\"id\":\"faulty-never-sent\",\"error\":{\"code\":-32603,\"message\":\"Internal error\"}}\n",
        );
    }
    match faults.exit_status {
        Some(n) => ExitCode::from(n),
        None => ExitCode::SUCCESS,
    }
}

/// How deep the brackets of `line` nest (outside its strings), and the
/// line with each array or object that would sit deeper than `keep`
/// levels written as `null`.
fn cut_deep(line: &[u8], keep: usize) -> (usize, Vec<u8>) {
    let mut out = Vec::with_capacity(line.len());
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    // While cutting: the depth at which the cut value opened.
    let mut cutting: Option<usize> = None;
    for &b in line {
        match (in_string, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (true, false, _) => {}
            (false, _, b'"') => in_string = true,
            (false, _, b'[' | b'{') => {
                depth += 1;
                max = max.max(depth);
                if depth > keep && cutting.is_none() {
                    cutting = Some(depth);
                    out.extend_from_slice(b"null");
                }
            }
            (false, _, b']' | b'}') => {
                if cutting == Some(depth) {
                    cutting = None;
                    depth = depth.saturating_sub(1);
                    continue;
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        if cutting.is_none() {
            out.push(b);
        }
    }
    (max, out)
}

/// A number that differs from run to run (the standard library's
/// randomly keyed hasher).
fn random() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(0);
    h.finish()
}

/// The reply to one line, newline included, as the faults make it.
fn handle(server: &Server, faults: &Faults, line: &[u8], version_seen: bool) -> Option<String> {
    let cut;
    let line = match faults.depth_limit {
        Some(limit) => {
            let (depth, shallow) = cut_deep(line, MAX_DEPTH);
            if depth >= limit {
                return Some(
                    "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\n"
                        .into(),
                );
            }
            cut = shallow;
            &cut[..]
        }
        None => line,
    };
    let parsed: Option<Value> = serde_json::from_slice(line).ok();
    if faults.silent_on_non_objects && parsed.as_ref().is_some_and(|v| !v.is_object()) {
        return None;
    }
    let method = parsed
        .as_ref()
        .and_then(|v| v.get("method"))
        .and_then(Value::as_str);
    if faults.stderr_noise {
        eprintln!("faulty_server: got a line of {} bytes", line.len());
    }
    if faults.silent_on_parse_errors && parsed.is_none() {
        return None;
    }
    if (faults.deep_as_invalid || faults.parse_error_as_invalid)
        && serde_json::from_slice::<Value>(line).is_err_and(|e| {
            faults.parse_error_as_invalid || e.to_string().contains("recursion limit")
        })
    {
        return Some(
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"}}\n"
                .into(),
        );
    }
    if let (Some(hang), Some(method)) = (&faults.hang_on, method)
        && hang == method
        && parsed.as_ref().is_some_and(|v| v.get("id").is_some())
    {
        loop {
            thread::sleep(Duration::from_secs(3600));
        }
    }
    if faults.drop_at_eof {
        thread::sleep(Duration::from_millis(20));
    }
    let rewritten;
    let line = match (faults.skip_version_check || version_seen, &parsed) {
        (true, Some(v)) => {
            match v["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"].as_str() {
                Some(asked) if !server.config().versions().iter().any(|s| s == asked) => {
                    // The version is swapped for a served one, as a server that
                    // never looks at it would behave.
                    // Only the version's own literal, after its key.
                    let from = Value::from(asked).to_string();
                    let to = Value::from("2026-07-28").to_string();
                    let text = String::from_utf8_lossy(line).into_owned();
                    let key = "\"io.modelcontextprotocol/protocolVersion\"";
                    let at = text.find(key).and_then(|k| {
                        let after = k + key.len();
                        text.get(after..)?.find(&from).map(|i| after + i)
                    });
                    match at {
                        Some(at) => {
                            rewritten = format!(
                                "{}{to}{}",
                                text.get(..at).unwrap_or_default(),
                                text.get(at + from.len()..).unwrap_or_default()
                            )
                            .into_bytes();
                            &rewritten[..]
                        }
                        None => line,
                    }
                }
                _ => line,
            }
        }
        _ => line,
    };
    // --ignore-state: the request as if it carried no requestState.
    let stateless;
    let line = match parsed.as_ref() {
        Some(v) if faults.ignore_state && v.pointer("/params/requestState").is_some() => {
            let mut v = v.clone();
            if let Some(params) = v.get_mut("params").and_then(Value::as_object_mut) {
                params.remove("requestState");
            }
            stateless = v.to_string().into_bytes();
            &stateless[..]
        }
        _ => line,
    };
    // The faults of `check --call`.
    let called;
    let line = match parsed.as_ref().and_then(|v| call_before(faults, v)) {
        Some(Before::Line(l)) => {
            called = l;
            &called[..]
        }
        Some(Before::Reply(r)) => return Some(r),
        None => line,
    };
    // Answered at the time of day, as the binary answers (the states of
    // multi round-trip targets expire).
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut out = Vec::new();
    let answered = matches!(
        server.respond_at(line, &mut out, &mut Direct, now),
        Disposition::Replied
    );
    let reply = match answered.then_some(out) {
        Some(reply)
            if faults.drop.as_deref().is_some_and(|d| Some(d) == method)
                && serde_json::from_slice::<Value>(&reply)
                    .is_ok_and(|v| v.get("result").is_some()) =>
        {
            return None;
        }
        Some(reply) => reply,
        None => {
            let is_notification = parsed
                .as_ref()
                .is_some_and(|v| v.get("method").is_some() && v.get("id").is_none());
            if faults.answer_notifications && is_notification {
                br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}"#
                    .iter()
                    .copied()
                    .chain(*b"\n")
                    .collect()
            } else {
                return None;
            }
        }
    };
    let mut reply = call_after(
        faults,
        parsed.as_ref(),
        String::from_utf8_lossy(&reply).into_owned(),
    );
    if faults.server_info_without_version {
        reply = reply.replace(r#","version":"1.0.0"}"#, "}");
    }
    if faults.unasked_log && method == Some("tools/call") {
        // A log message no request asked for, before the response.
        reply = format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":\"unasked\"}}}}\n{reply}"
        );
    }
    if faults.drop_notifications {
        // Only the response: the lines before it are the notifications
        // the request asked for.
        reply = reply
            .lines()
            .last()
            .map(|r| format!("{r}\n"))
            .unwrap_or_default();
    }
    if faults.notifications_backwards {
        // The notifications (every line before the response) in reverse.
        let mut lines: Vec<&str> = reply.lines().collect();
        if let Some((response, notes)) = lines.split_last_mut() {
            notes.reverse();
            let response = *response;
            reply = notes
                .iter()
                .chain([&response])
                .map(|l| format!("{l}\n"))
                .collect();
        }
    }
    if faults.no_request_state {
        let key = r#","requestState":""#;
        if let Some(at) = reply.find(key)
            && let Some(len) = reply.get(at + key.len()..).and_then(|r| r.find('"'))
        {
            reply.replace_range(at..at + key.len() + len + 1, "");
        }
    }
    if faults.no_result_type {
        reply = reply
            .replace(r#""resultType":"complete","#, "")
            .replace(r#","resultType":"complete""#, "");
    }
    if faults.wrong_id
        && let Some(id) = parsed.as_ref().and_then(|v| v.get("id"))
        && id.is_f64()
        && let Ok(mut value) = serde_json::from_str::<Value>(&reply)
    {
        // The id as a double, the way a JSON library without big integers
        // reads it back.
        value["id"] = id.clone();
        reply = format!("{value}\n");
    }
    if faults.no_version_list {
        reply = without_version_list(&reply).unwrap_or(reply);
    }
    reply = catalog_faults(server, faults, parsed.as_ref(), reply);
    if faults.restyle {
        reply = restyle(&reply).unwrap_or(reply);
    }
    Some(reply)
}

/// A `-32022` without its `data` (`--no-version-list`), the id kept as
/// written; `None` for any other reply.
fn without_version_list(reply: &str) -> Option<String> {
    use serde_json::value::RawValue;
    let members: std::collections::BTreeMap<String, Box<RawValue>> =
        serde_json::from_str(reply).ok()?;
    let mut error: serde_json::Map<String, Value> =
        serde_json::from_str(members.get("error")?.get()).ok()?;
    if error.get("code") != Some(&Value::from(-32022)) {
        return None;
    }
    error.remove("data");
    let id = members.get("id").map_or("null", |r| r.get());
    Some(format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{}}}\n",
        Value::Object(error)
    ))
}

/// The same reply as another implementation might style it (`--restyle`):
/// the id kept as written, everything the specification leaves free
/// changed.
fn restyle(reply: &str) -> Option<String> {
    use serde_json::value::RawValue;
    let members: std::collections::BTreeMap<String, Box<RawValue>> =
        serde_json::from_str(reply).ok()?;
    let mut out = Vec::new();
    for (name, raw) in members.into_iter().rev() {
        let text = match name.as_str() {
            "error" => {
                let mut e: serde_json::Map<String, Value> = serde_json::from_str(raw.get()).ok()?;
                e.insert(
                    "message".into(),
                    Value::from("The request could not be served."),
                );
                // The versions an error names stay (VER-01, VER-07);
                // anything else in `data` is the server's own.
                let mut data = serde_json::Map::new();
                data.insert("detail".into(), Value::from("restyled"));
                for key in ["supported", "requested"] {
                    if let Some(v) = e.get("data").and_then(|d| d.get(key)).cloned() {
                        data.insert(key.into(), v);
                    }
                }
                e.insert("data".into(), Value::Object(data));
                Value::Object(e).to_string()
            }
            "result" => {
                let mut r: Value = serde_json::from_str(raw.get()).ok()?;
                if let Some(meta) = r.get_mut("_meta").and_then(Value::as_object_mut) {
                    meta.insert("example.com/trace".into(), Value::from("t-1"));
                }
                r.to_string()
            }
            _ => raw.get().to_string(),
        };
        out.push(format!("{}:{text}", Value::from(name)));
    }
    Some(format!("{{{}}}\n", out.join(",")))
}

/// The faults of resources, prompts and completion
/// (`--resource-not-found-32002`, `--empty-contents`, `--complete-leaks`,
/// `--complete-counts-leaks`, `--list-varies`), applied to the core's
/// reply to `request`.
fn catalog_faults(
    server: &Server,
    faults: &Faults,
    request: Option<&Value>,
    reply: String,
) -> String {
    let method = request
        .and_then(|v| v.get("method"))
        .and_then(Value::as_str);
    // The core's reply to a resource that does not exist, told by its
    // message (the core's answer to a clean read of a URI naming nothing),
    // so that a request malformed otherwise keeps its own error.
    let not_found = method == Some("resources/read")
        && {
            let probe = r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":"faulty-server://no-such-resource"}}"#;
            let message = |line: &[u8]| {
                serde_json::from_slice::<Value>(line)
                    .ok()
                    .and_then(|v| v.pointer("/error/message").cloned())
            };
            let expected = server.respond(probe.as_bytes()).and_then(|r| message(&r));
            reply.contains(r#""error":{"code":-32602"#)
                && expected.is_some()
                && message(reply.as_bytes()) == expected
        };
    match method {
        Some("resources/read") => {
            faults.read_seen.set(true);
            if not_found && faults.resource_not_found_32002 {
                return reply.replacen(r#""code":-32602"#, r#""code":-32002"#, 1);
            }
            if not_found && faults.empty_contents {
                return with_result(
                    &reply,
                    r#"{"resultType":"complete","contents":[],"ttlMs":0,"cacheScope":"private"}"#,
                )
                .unwrap_or(reply);
            }
            reply
        }
        Some("resources/list") if faults.list_varies && faults.read_seen.get() => {
            fewer_resources(&reply).unwrap_or(reply)
        }
        Some("completion/complete") if faults.complete_leaks || faults.complete_counts_leaks => {
            let argument = request.and_then(|v| v.pointer("/params/argument"));
            if argument.and_then(|a| a.get("name")) != Some(&Value::from("order_id")) {
                return reply;
            }
            let prefix = argument
                .and_then(|a| a.get("value"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            let config = server.config();
            let leaked: Vec<String> = config
                .orders()
                .iter()
                .filter(|o| o.owner != config.user() && o.order_id.starts_with(prefix))
                .map(|o| Value::from(o.order_id.as_str()).to_string())
                .collect();
            if leaked.is_empty() || !reply.contains(r#""values":["#) {
                return reply;
            }
            if faults.complete_counts_leaks {
                // The values stay the user's own; the count gives the
                // others away.
                let Ok(mut value) = serde_json::from_str::<Value>(&reply) else {
                    return reply;
                };
                if let Some(total) = value.pointer_mut("/result/completion/total")
                    && let Some(n) = total.as_u64()
                {
                    *total = Value::from(n + leaked.len() as u64);
                }
                return format!("{value}\n");
            }
            let empty = reply.contains(r#""values":[]"#);
            let inserted = format!(
                r#""values":[{}{}"#,
                leaked.join(","),
                if empty { "" } else { "," }
            );
            reply.replacen(r#""values":["#, &inserted, 1)
        }
        _ => reply,
    }
}

/// The reply with its `error` (or `result`) replaced by the result `result`,
/// the id kept as written.
fn with_result(reply: &str, result: &str) -> Option<String> {
    use serde_json::value::RawValue;
    let members: std::collections::BTreeMap<String, Box<RawValue>> =
        serde_json::from_str(reply).ok()?;
    let id = members.get("id").map_or("null", |r| r.get());
    Some(format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{result}}}\n"
    ))
}

/// A `resources/list` result without its last resource.
fn fewer_resources(reply: &str) -> Option<String> {
    use serde_json::value::RawValue;
    let members: std::collections::BTreeMap<String, Box<RawValue>> =
        serde_json::from_str(reply).ok()?;
    let mut result: Value = serde_json::from_str(members.get("result")?.get()).ok()?;
    result.get_mut("resources")?.as_array_mut()?.pop()?;
    with_result(reply, &result.to_string())
}
