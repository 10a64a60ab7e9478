//! A model-based test of `mcp-reference serve --http`: random sequences of
//! HTTP requests (the HTTP generators' requests: conforming, or broken in
//! one place), each on its own connection to one running process, then
//! SIGTERM.
//!
//! The reference state machine holds the configuration (random, with
//! `x-mcp-header` parameters and HTTP settings, given to the binary as a
//! configuration file) and whether the process still runs. The system under
//! test is the process plus the pure binding for the same configuration and
//! the port it listens on. After each request:
//!
//! - **independence**: the process's response (status, the binding's
//!   headers, body) equals, byte for byte, what the pure binding gives for
//!   the same request alone, whatever came before it on the process;
//! - **the model**: that response is the model's (rows H1 to H17; only the
//!   tools the model allows run; nothing of the orders the user may not
//!   read), through `HttpChecker`;
//! - **shutdown**: after SIGTERM the process exits 0.
//!
//! Requests that are not valid HTTP/1.1 on the wire (a header value with a
//! control character, which hyper refuses before the binding sees it) are
//! sent as generated nonetheless only when valid; the binding's own
//! handling of such values is the fuzz target's and `tests/http.rs`'s.
//!
//! Spec: 2026-07-28 `basic/transports/streamable-http.mdx` (each message
//! its own POST; no session: nothing carries over between requests).

#[path = "support/switches.rs"]
mod switches;
use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_reference::http::{Binding, Bound};
use mcp_reference::{Config, Server};
use mcp_reference_testkit::http::{HttpChecker, as_request};
use mcp_reference_testkit::model::http::{HttpRequest, Listen};
use mcp_reference_testkit::strategy::http::{http_config, http_request};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest, prop_state_machine};

#[path = "support/http_server.rs"]
mod http_server;
use http_server::{DEADLINE, Server as HttpServer, read_reply};
/// The port the generators write; replaced by the real one when sent.
const GENERATED: Listen = Listen {
    port: 8080,
    loopback: true,
};

#[derive(Clone, Debug)]
struct Model {
    config: Config,
    running: bool,
}

#[derive(Clone, Debug)]
enum Transition {
    Request(HttpRequest),
    Terminate,
    Exited,
}

struct Reference;

impl ReferenceStateMachine for Reference {
    type State = Model;
    type Transition = Transition;

    fn init_state() -> BoxedStrategy<Model> {
        // A configuration whose input targets issue state answers by the
        // server's clock (a state's expiry), which the binding at the
        // epoch cannot match byte for byte: tests/mrtr_binary.rs holds
        // those over HTTP.
        http_config()
            .prop_filter("the server reads no clock", |c| {
                !c.input().is_some_and(|i| i.issues_state())
            })
            .prop_map(|config| Model {
                config,
                running: true,
            })
            .boxed()
    }

    fn transitions(state: &Model) -> BoxedStrategy<Transition> {
        if !state.running {
            return Just(Transition::Exited).boxed();
        }
        prop_oneof![
            20 => http_request(&state.config, GENERATED).prop_map(Transition::Request),
            1 => Just(Transition::Terminate),
        ]
        .boxed()
    }

    fn apply(mut state: Model, transition: &Transition) -> Model {
        if let Transition::Terminate = transition {
            state.running = false;
        }
        state
    }

    fn preconditions(state: &Model, transition: &Transition) -> bool {
        match transition {
            Transition::Exited => !state.running,
            _ => state.running,
        }
    }
}

struct Sut {
    server: Option<HttpServer>,
    port: u16,
    binding: Binding,
    checker: HttpChecker,
    config_file: std::path::PathBuf,
}

/// The request with the generators' `127.0.0.1:8080` (and `localhost:8080`)
/// written for the real port; `None` when it is not valid HTTP/1.1 on the
/// wire.
fn on_wire(request: &HttpRequest, port: u16) -> Option<HttpRequest> {
    let mut r = request.clone();
    for (name, value) in &mut r.headers {
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_".contains(&b))
        {
            return None;
        }
        let text = String::from_utf8(value.clone()).ok()?;
        if text.bytes().any(|b| b < 0x20 || b == 0x7f) || text.trim() != text {
            return None;
        }
        *value = text.replace(":8080", &format!(":{port}")).into_bytes();
    }
    // hyper reads the body by Content-Length: the generators' declared
    // length must be the body's, or the test would wait for bytes.
    if r.headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("content-length"))
    {
        return None;
    }
    if !matches!(r.method.as_str(), "POST" | "GET" | "DELETE" | "PUT") {
        return None;
    }
    Some(r)
}

/// One exchange on a fresh connection: status, lowercase headers, body.
fn exchange(port: u16, r: &HttpRequest) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    let mut head = format!("{} {} HTTP/1.1\r\n", r.method, r.target).into_bytes();
    for (n, v) in &r.headers {
        head.extend_from_slice(format!("{n}: ").as_bytes());
        head.extend_from_slice(v);
        head.extend_from_slice(b"\r\n");
    }
    head.extend_from_slice(
        format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            r.body.len()
        )
        .as_bytes(),
    );
    head.extend_from_slice(&r.body);
    stream.write_all(&head).unwrap();
    let reply = read_reply(&mut BufReader::new(stream));
    (reply.status, reply.headers, reply.body)
}

/// The process is killed and the configuration file removed however the
/// case ends: a failing case panics before its teardown, and a process left
/// running would outlive the test.
impl Drop for Sut {
    fn drop(&mut self) {
        // `Server`'s own drop kills the process.
        drop(self.server.take());
        let _ = std::fs::remove_file(&self.config_file);
    }
}

static FILES: AtomicUsize = AtomicUsize::new(0);

struct Process;

impl StateMachineTest for Process {
    type SystemUnderTest = Sut;
    type Reference = Reference;

    fn init_test(model: &Model) -> Sut {
        let config_file = std::env::temp_dir().join(format!(
            "mcp-reference-http-state-machine-{}-{}.json",
            std::process::id(),
            FILES.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::write(&config_file, model.config.to_json()).unwrap();
        let config_arg = config_file.to_str().unwrap_or_default().to_owned();
        let server = HttpServer::start(&["--config", &config_arg]);
        let port = server.port();
        let listen = Listen {
            port,
            loopback: true,
        };
        Sut {
            server: Some(server),
            port,
            binding: Binding::new(
                Server::new(model.config.clone()),
                Bound {
                    port,
                    loopback: true,
                },
            ),
            checker: HttpChecker::new(&model.config, listen),
            config_file,
        }
    }

    fn apply(mut sut: Sut, _model: &Model, transition: Transition) -> Sut {
        match transition {
            Transition::Request(generated) => {
                if let Some(r) = on_wire(&generated, sut.port) {
                    let (status, headers, body) = exchange(sut.port, &r);
                    let pairs: Vec<(&str, &[u8])> = r
                        .headers
                        .iter()
                        .map(|(n, v)| (n.as_str(), v.as_slice()))
                        .collect();
                    let alone = sut.binding.respond(&as_request(&r, &pairs));
                    assert_eq!(status, alone.status, "{r:?}");
                    for name in ["content-type", "allow"] {
                        let got = headers
                            .iter()
                            .find(|(n, _)| n == name)
                            .map(|(_, v)| v.as_str());
                        assert_eq!(got, alone.header(name), "{name} for {r:?}");
                    }
                    assert_eq!(
                        String::from_utf8_lossy(&body),
                        String::from_utf8_lossy(&alone.body),
                        "{r:?}"
                    );
                    if let Err(e) = sut.checker.check(&r) {
                        panic!("{e}\n{r:?}");
                    }
                }
            }
            Transition::Terminate => {
                let server = sut.server.take().unwrap();
                let (code, log) = server.terminate();
                assert_eq!(code, Some(0), "exit after SIGTERM; stderr: {log}");
            }
            Transition::Exited => assert!(sut.server.is_none()),
        }
        sut
    }

    fn teardown(sut: Sut, _model: Model) {
        drop(sut);
    }
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: switches::cases(switches::FLOOR),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/http_state_machine.txt",
        ))),
        ..ProptestConfig::default()
    }
}

prop_state_machine! {
    #![proptest_config(config())]

    #[test]
    fn the_http_server_is_the_binding_request_by_request(sequential 1..25 => Process);
}
