//! A multi round-trip request against a plain `tools/call` (issue 38): the
//! cost of the first round of `test_input_required_result_request_state`
//! (the `InputRequiredResult`, its state sealed with HMAC-SHA256), of its
//! retry (the state opened and verified, the answer judged, the tool run),
//! and of the textbook's `tools/call get_order A-104`, each through
//! `Server::respond_at` with one output buffer reused, as the stdio driver
//! does.
//!
//! Before anything is timed each reply is judged (the retry and the first
//! round by the model of multi round-trip requests,
//! `mcp_reference_testkit::model::input`; `get_order` must be a complete
//! result), so no figure comes from a reply that skipped a rule.
//!
//! Run: `cargo bench --bench mrtr` (docs/performance.md, "Multi round-trip
//! requests").

use std::hint::black_box;

use criterion::Criterion;
use mcp_reference::{Config, Direct, Server};
use mcp_reference_testkit::model::input;
use serde_json::{Value, json};

const NOW: u64 = 1_800_000_000;

fn request(id: u64, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "sampling": {}, "roots": {}},
    });
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

fn answer(server: &Server, line: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    server.respond_at(line, &mut out, &mut Direct, NOW);
    out
}

fn main() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/conformance.json");
    let mrtr = Server::new(Config::load(&path).expect("the fixtures load"));
    let textbook = Server::new(Config::default());
    let name = "test_input_required_result_request_state";
    let first = request(1, json!({"name": name, "arguments": {}}));
    let reply: Value =
        serde_json::from_slice(&answer(&mrtr, first.to_string().as_bytes())).unwrap();
    input::check(mrtr.config(), &first, NOW, &reply).expect("the first round is the model's");
    let retry = request(
        2,
        json!({"name": name, "arguments": {},
        "inputResponses": {"confirm": {"action": "accept", "content": {"ok": true}}},
        "requestState": reply["result"]["requestState"]}),
    );
    let done: Value = serde_json::from_slice(&answer(&mrtr, retry.to_string().as_bytes())).unwrap();
    let want = input::check(mrtr.config(), &retry, NOW, &done).expect("the retry is the model's");
    assert!(want.runs, "the retry completes");
    let get_order = request(
        3,
        json!({"name": "get_order", "arguments": {"order_id": "A-104"}}),
    );
    let plain: Value =
        serde_json::from_slice(&answer(&textbook, get_order.to_string().as_bytes())).unwrap();
    assert_eq!(plain["result"]["isError"], json!(false));

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("mrtr");
    for (label, server, line) in [
        ("tools_call_get_order", &textbook, get_order.to_string()),
        ("first_round", &mrtr, first.to_string()),
        ("retry", &mrtr, retry.to_string()),
    ] {
        let mut out = Vec::with_capacity(1024);
        group.bench_function(label, |b| {
            b.iter(|| {
                out.clear();
                server.respond_at(black_box(line.as_bytes()), &mut out, &mut Direct, NOW);
                black_box(out.len())
            })
        });
    }
    group.finish();
    c.final_summary();
}
