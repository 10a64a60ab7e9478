//! The HTTP binding against the core on the same body: what the binding's
//! own rules (path, method, origin, host, content type, size, the mirrored
//! headers) cost on top of `Server::respond`, as a ratio measured in one
//! run.
//!
//! Two groups, each with two functions on the same bytes:
//!
//! - `tools_call`: Example 43.2's request, with the headers a conforming
//!   client sends (`get_order`'s `order_id` mirrored as `Order-Id`, so the
//!   `Mcp-Param-*` check runs);
//! - `discover`: `server/discover`, with its headers;
//! - in each, `core`: `Server::respond_into` of the body into a reused
//!   buffer (what the stdio driver does); `binding`: `Binding::respond` of
//!   the whole request (what `serve --http` does per request).
//!
//! Before anything is timed, both responses are checked against the model
//! (`mcp_reference_testkit::http::HttpChecker`). Run: `cargo bench --bench
//! http`; the ratio `binding / core` is in criterion's report and in
//! docs/performance.md.

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::Criterion;
use mcp_reference::Config;
use mcp_reference_testkit::http::{HttpChecker, as_request, conforming};
use mcp_reference_testkit::model::http::{HttpRequest, Listen};

const LISTEN: Listen = Listen {
    port: 8080,
    loopback: true,
};

fn config() -> Config {
    let headers = BTreeMap::from([(
        "get_order".to_owned(),
        BTreeMap::from([("order_id".to_owned(), "Order-Id".to_owned())]),
    )]);
    Config::default()
        .with_param_headers(headers)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn request(config: &Config, body: Vec<u8>) -> HttpRequest {
    HttpRequest {
        method: "POST".into(),
        target: "/mcp".into(),
        headers: conforming(config, LISTEN, &body),
        body,
    }
}

fn main() {
    let config = config();
    let checker = HttpChecker::new(&config, LISTEN);
    let root = env!("CARGO_MANIFEST_DIR");
    let example = std::fs::read(format!("{root}/data/example-43.2.request.json"))
        .unwrap_or_else(|e| panic!("Example 43.2: {e}"));
    let example = example.strip_suffix(b"\n").unwrap_or(&example).to_vec();
    let discover = br#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#.to_vec();
    let mut criterion = Criterion::default().configure_from_args();
    for (name, body) in [("tools_call", example), ("discover", discover)] {
        let http = request(&config, body);
        let (expect, _) = checker
            .check(&http)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            expect.row, "H15",
            "{name}: the bench request must reach the core"
        );
        let headers: Vec<(&str, &[u8])> = http
            .headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_slice()))
            .collect();
        let req = as_request(&http, &headers);
        let binding = checker.binding();
        let server = binding.server();
        let mut group = criterion.benchmark_group(name);
        let mut out = Vec::new();
        group.bench_function("core", |b| {
            b.iter(|| {
                out.clear();
                black_box(server.respond_into(black_box(&http.body), &mut out));
            })
        });
        group.bench_function("binding", |b| {
            b.iter(|| black_box(binding.respond(black_box(&req))))
        });
        group.finish();
    }
    criterion.final_summary();
}
