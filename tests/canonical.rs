//! Row W1, the canonical output form, as properties of the core: for any
//! configuration and any line, every reply is in canonical form (the
//! model's [`model::canonical::check`]: compact, members in the order of
//! docs/behavior.md's table); and for every successful tool call, the text
//! block is byte for byte the serialization of `structuredContent`, whose
//! members follow the tool's `outputSchema`.
//!
//! 1,000 cases each; failures are kept in
//! `proptest-regressions/canonical.txt` and replayed first on every run.
//! The table itself is the model's; the core states its own where it
//! builds each body, and neither is derived from the other.

use mcp_reference::Server;
use mcp_reference_testkit::model::{self, Json};
use mcp_reference_testkit::strategy;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// The reply line without its newline, and its tree.
fn judge(reply: &[u8]) -> Result<(), String> {
    // The response; the notifications before it (T12, T13) are held to
    // their order by the model's check of the whole reply.
    let reply = mcp_reference_testkit::invariants::response(reply);
    let line = reply.strip_suffix(b"\n").ok_or("no newline")?;
    let parsed = model::parse(line).map_err(|e| format!("not JSON: {e:?}"))?;
    model::canonical::check(&parsed.tree, line, parsed.ids.first().map(String::as_str))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1000,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/canonical.txt",
        ))),
        ..ProptestConfig::default()
    })]

    /// Every reply to any line, for any configuration, is in canonical
    /// form.
    #[test]
    fn every_reply_is_in_canonical_order((config, case) in strategy::scenario()) {
        let server = Server::new(config);
        if let Some(reply) = server.respond(&case.line)
            && let Err(e) = judge(&reply)
        {
            return Err(TestCaseError::fail(format!(
                "{e}\nline: {}\nreply: {}",
                String::from_utf8_lossy(&case.line),
                String::from_utf8_lossy(&reply)
            )));
        }
    }

    /// Every tool call, for any configuration: a success's text block is
    /// byte for byte the serialization of its structuredContent, in
    /// outputSchema order; and the tools' own schemas are in canonical
    /// order.
    #[test]
    fn structured_text_is_byte_equal((config, line) in strategy::config().prop_flat_map(|c| {
        let calls = strategy::tool_call(&c);
        (Just(c), calls)
    })) {
        let server = Server::new(config);
        let line = line.render();
        if let Some(reply) = server.respond(&line) {
            prop_assert_eq!(judge(&reply), Ok(()));
        }
        let list = Json::obj([
            ("jsonrpc", Json::str("2.0")),
            ("id", Json::int(0)),
            ("method", Json::str("tools/list")),
            ("params", Json::obj([("_meta", Json::obj([
                ("io.modelcontextprotocol/protocolVersion", Json::str("2026-07-28")),
                ("io.modelcontextprotocol/clientCapabilities", Json::obj::<&str>([])),
            ]))])),
        ]);
        let reply = server.respond(&list.render()).expect("tools/list is answered");
        prop_assert_eq!(judge(&reply), Ok(()));
    }
}

/// Example 43.2's reply passes the model's check; the same reply with its
/// members sorted (the form before row W1) does not.
#[test]
fn the_book_passes_and_the_sorted_form_does_not() {
    let book = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/example-43.2.response.json"
    ))
    .unwrap();
    assert_eq!(judge(&book), Ok(()));
    let sorted = br#"{"jsonrpc":"2.0","id":3,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"book-orders","version":"1.0.0"}},"content":[{"text":"{\"as_of\":\"2026-09-14T00:00:00Z\",\"order_id\":\"A-104\",\"source_version\":\"ka3-orders-v1\",\"status\":\"processing\"}","type":"text"}],"isError":false,"resultType":"complete","structuredContent":{"as_of":"2026-09-14T00:00:00Z","order_id":"A-104","source_version":"ka3-orders-v1","status":"processing"}}}
"#;
    assert!(judge(sorted).is_err());
}
