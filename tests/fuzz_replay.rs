//! Replays every committed fuzz input on stable Rust: each file of
//! `fuzz/corpus/<target>/` (the seed corpora), `fuzz/regressions/<target>/`
//! (inputs that once found a bug) and `fuzz/artifacts/<target>/` (crash
//! artifacts a local campaign left, if any) goes through the same check
//! function as the fuzz target, `mcp_reference_testkit::fuzzing::<target>`, which
//! panics when an invariant breaks. So a bug a fuzzer found stays fixed
//! without nightly, and the seed corpora stay valid inputs.

use std::path::{Path, PathBuf};

use mcp_reference_testkit::fuzzing::{self, TARGETS};

fn inputs(kind: &str, target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind)
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs every input of `target`; a failure names the file.
fn replay(target: &str) -> usize {
    let check = TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .map(|(_, f)| *f)
        .unwrap_or_else(|| panic!("no fuzz target {target}"));
    let mut n = 0;
    for kind in ["corpus", "regressions", "artifacts"] {
        for path in inputs(kind, target) {
            let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let outcome = std::panic::catch_unwind(|| check(&data));
            if let Err(e) = outcome {
                let message = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panic!("{} fails {target}: {message}", path.display());
            }
            n += 1;
        }
    }
    n
}

#[test]
fn every_target_has_a_seed_corpus_and_its_inputs_pass() {
    for (target, _) in TARGETS {
        let seeds = inputs("corpus", target).len();
        assert!(seeds >= 5, "fuzz/corpus/{target} has only {seeds} seeds");
        assert!(replay(target) >= seeds);
    }
}

#[test]
fn the_fuzz_crate_declares_exactly_these_targets() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/Cargo.toml"))
            .expect("fuzz/Cargo.toml");
    for (target, _) in TARGETS {
        assert!(
            manifest.contains(&format!("name = \"{target}\"")),
            "fuzz/Cargo.toml lacks {target}"
        );
        let wrapper = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/fuzz_targets")
            .join(format!("{target}.rs"));
        let text = std::fs::read_to_string(&wrapper).expect("the target's wrapper");
        assert!(
            text.contains(&format!("mcp_reference_testkit::fuzzing::{target}(data)")),
            "{} does not call mcp_reference_testkit::fuzzing::{target}",
            wrapper.display()
        );
    }
    assert_eq!(manifest.matches("[[bin]]").count(), TARGETS.len());
}

/// The empty input (for the structured targets: the textbook `tools/call
/// get_order A-104`) is a valid run of every target.
#[test]
fn the_empty_input_is_a_valid_run_of_every_target() {
    for (_, check) in TARGETS {
        check(&[]);
    }
}

/// The shared checks are not vacuous: wrong replies to real lines are
/// refused (a wrong id, two lines, a leak, a reply to a notification, a
/// code the server may not emit, a text that is not the structured
/// content).
#[test]
fn the_checks_refuse_wrong_replies() {
    let fixture = fuzzing::fixtures().first().expect("the textbook fixture");
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let line = |id: &str, method: &str, extra: &str| {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{meta}{extra}}}}}"#)
    };
    let big = "123456789012345678901234567890";
    let discover = line(big, "server/discover", "");
    let good = fixture
        .server
        .respond(discover.as_bytes())
        .expect("a reply to discover");
    let good = String::from_utf8(good).expect("UTF-8");
    let b205 = line(
        "4",
        "tools/call",
        r#","name":"get_order","arguments":{"order_id":"B-205"}"#,
    );
    let snapshot = r#"{"as_of":"2026-09-12T08:30:00Z","order_id":"B-205","source_version":"ka3-orders-v1","status":"shipped"}"#;
    let leak = format!(
        r#"{{"jsonrpc":"2.0","id":4,"result":{{"content":[{{"type":"text","text":{}}}],"structuredContent":{snapshot},"isError":false,"resultType":"complete","_meta":{{"io.modelcontextprotocol/serverInfo":{{"name":"book-orders","version":"1.0.0"}}}}}}}}"#,
        serde_json::to_string(snapshot).expect("a string")
    );
    let notification = r#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#;
    let a104 = line(
        "3",
        "tools/call",
        r#","name":"get_order","arguments":{"order_id":"A-104"}"#,
    );
    let a104_reply = fixture
        .server
        .respond(a104.as_bytes())
        .expect("a reply to get_order");
    let a104_reply = String::from_utf8(a104_reply).expect("UTF-8");
    // The real replies pass, so each refusal below is for what was changed.
    fuzzing::check_reply(fixture, discover.as_bytes(), Some(good.as_bytes()));
    fuzzing::check_reply(fixture, a104.as_bytes(), Some(a104_reply.as_bytes()));
    let cases: Vec<(&str, String, String)> = vec![
        (
            "the id is the request's",
            discover.clone(),
            good.replace(big, "123456789012345677877719597056"),
        ),
        (
            "one line",
            discover.clone(),
            good.replacen(r#","result":"#, ",\n\"result\":", 1),
        ),
        ("no leak", b205, format!("{leak}\n")),
        (
            "no reply to a notification",
            notification.to_string(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}"#
                .to_string()
                + "\n",
        ),
        (
            "known codes",
            discover,
            format!(r#"{{"jsonrpc":"2.0","id":{big},"error":{{"code":-32000,"message":"x"}}}}"#)
                + "\n",
        ),
        (
            "text is the structured content",
            a104,
            a104_reply.replacen(r#"\"processing\""#, r#"\"done\""#, 1),
        ),
    ];
    for (what, line, reply) in cases {
        // The fixture is only read, so a panic cannot leave it half-changed.
        let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            fuzzing::check_reply(fixture, line.as_bytes(), Some(reply.as_bytes()))
        }))
        .is_err();
        assert!(refused, "{what}: the checks accepted {reply:?} for {line}");
    }
}

// ---------------------------------------------------------------------------
// The seed corpora, regenerated by
// `cargo test --test fuzz_replay -- --ignored regenerate_seed_corpora`.
// Deterministic: the same files every time, so a diff shows what changed.

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn request(id: &str, method: &str, params: &str) -> String {
    let sep = if params.is_empty() { "" } else { "," };
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{META}{sep}{params}}}}}"#)
}

/// Lines for `respond_bytes`: the textbook's recorded run and one line per
/// kind of row of docs/behavior.md, each padded with spaces so its length
/// also picks the fixture named (the target answers with the textbook
/// server and with fixture `len % fixtures`).
fn byte_seeds() -> Vec<(String, Vec<u8>)> {
    let call = |id: &str, name: &str, args: &str| {
        request(
            id,
            "tools/call",
            &format!(r#""name":"{name}","arguments":{args}"#),
        )
    };
    let lines: Vec<(&str, String, &str)> = vec![
        ("textbook-1-discover", request("1", "server/discover", ""), "textbook"),
        ("textbook-2-tools-list", request("2", "tools/list", ""), "textbook"),
        ("textbook-3-get-order-A-104", call("3", "get_order", r#"{"order_id":"A-104"}"#), "textbook"),
        ("textbook-4-get-order-B-205", call("4", "get_order", r#"{"order_id":"B-205"}"#), "textbook"),
        ("textbook-5-cancel-order", call("5", "cancel_order", r#"{"order_id":"A-104"}"#), "textbook"),
        ("get-order-as-tomas", call("6", "get_order", r#"{"order_id":"B-205"}"#), "as tomas"),
        ("lookup-stock", call("7", "lookup_stock", r#"{"product_id":"python-book"}"#), "stock"),
        ("lookup-stock-extra-arg", call("8", "lookup_stock", r#"{"product_id":"x","n":1}"#), "small lines"),
        ("get-order-no-args", call("\"s\"", "get_order", "{}"), "textbook"),
        ("get-order-tricky", call("9", "get_order", r#"{"order_id":"Ä-1\"\\"}"#), "tricky strings"),
        ("administrator-reads-B-205", request("10", "tools/call", r#""name":"get_order","arguments":{"order_id":"B-205"}"#).replace(
            r#"{}}"#,
            r#"{},"io.modelcontextprotocol/clientInfo":{"name":"administrator","version":"1"}}"#,
        ), "textbook"),
        ("big-integer-id", request("123456789012345678901234567890", "server/discover", ""), "legacy"),
        ("catalog-resources-list", request("40", "resources/list", ""), "catalog"),
        ("catalog-templates-list", request("41", "resources/templates/list", ""), "catalog"),
        ("catalog-read-A-104", request("42", "resources/read", r#""uri":"book-orders://orders/A-104""#), "catalog"),
        ("catalog-read-B-205", request("43", "resources/read", r#""uri":"book-orders://orders/B-205""#), "catalog"),
        ("catalog-read-logo", request("44", "resources/read", r#""uri":"book-orders://assets/logo.png""#), "catalog"),
        ("catalog-prompts-list", request("45", "prompts/list", ""), "catalog"),
        ("catalog-prompt-A-104", request("46", "prompts/get", r#""name":"reply_to_customer","arguments":{"order_id":"A-104","tone":"brief"}"#), "catalog"),
        ("catalog-prompt-B-205", request("47", "prompts/get", r#""name":"reply_to_customer","arguments":{"order_id":"B-205"}"#), "catalog"),
        ("catalog-complete-order-id", request("48", "completion/complete", r#""ref":{"type":"ref/resource","uri":"book-orders://orders/{order_id}"},"argument":{"name":"order_id","value":"A"}"#), "catalog"),
        ("catalog-complete-tone", request("49", "completion/complete", r#""ref":{"type":"ref/prompt","name":"reply_to_customer"},"argument":{"name":"tone","value":"f"}"#), "catalog"),
        ("escaped-string-id", request(r#""\u00e9\ud83d\ude00""#, "tools/list", ""), "textbook"),
        ("not-json", "{\"jsonrpc\":".into(), "textbook"),
        ("not-utf8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\u{7f}\"}".into(), "textbook"),
        ("batch", format!("[{}]", request("1", "tools/list", "")), "textbook"),
        ("notification", r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#.into(), "textbook"),
        ("client-response", r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into(), "textbook"),
        ("duplicate-id", r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}"#.into(), "textbook"),
        ("duplicate-in-arguments", call("11", "get_order", r#"{"order_id":"A-104","order_id":"B-205"}"#), "textbook"),
        ("jsonrpc-1", r#"{"jsonrpc":"1.0","id":1,"method":"tools/list"}"#.into(), "textbook"),
        ("id-null", r#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#.into(), "textbook"),
        ("id-fraction", r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#.into(), "textbook"),
        ("no-meta", r#"{"jsonrpc":"2.0","id":12,"method":"tools/list","params":{}}"#.into(), "textbook"),
        ("no-params", r#"{"jsonrpc":"2.0","id":13,"method":"resources/list"}"#.into(), "textbook"),
        ("unsupported-version", request("14", "tools/list", "").replace("2026-07-28", "1900-01-01"), "textbook"),
        ("legacy-version-in-meta", request("15", "tools/list", "").replace("2026-07-28", "2025-11-25"), "legacy"),
        ("initialize", r#"{"jsonrpc":"2.0","id":16,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#.into(), "legacy"),
        ("ping", request("17", "ping", ""), "textbook"),
        ("cursor", request("18", "tools/list", r#""cursor":"abc""#), "textbook"),
        ("bad-client-info", request("19", "tools/list", "").replace(r#"{}}"#, r#"{},"io.modelcontextprotocol/clientInfo":{"name":1}}"#), "textbook"),
        ("bad-log-level", request("20", "tools/list", "").replace(r#"{}}"#, r#"{},"io.modelcontextprotocol/logLevel":"loud"}"#), "textbook"),
        ("deep-nesting", format!(r#"{{"jsonrpc":"2.0","id":21,"method":"tools/list","params":{}{}}}"#, "[".repeat(200), "]".repeat(200)), "textbook"),
        ("crlf", format!("{}\r", request("22", "server/discover", "")), "textbook"),
        ("blank", "  \t ".into(), "textbook"),
        ("long-line", format!(r#"{{"jsonrpc":"2.0","id":23,"method":"tools/list","x":"{}"}}"#, "a".repeat(1100)), "small lines"),
        // Added from the coverage report (docs/fuzzing.md, "Coverage of the
        // core"): every shape a decoded field can have, escaped names and
        // strings, objects past the duplicate check's inline slots.
        ("params-null", r#"{"jsonrpc":"2.0","id":24,"method":"tools/list","params":null}"#.into(), "textbook"),
        ("params-array", r#"{"jsonrpc":"2.0","id":25,"method":"tools/list","params":[1,{"a":1,"a":2}]}"#.into(), "textbook"),
        ("params-true", r#"{"jsonrpc":"2.0","id":26,"method":"tools/list","params":true}"#.into(), "textbook"),
        ("params-negative", r#"{"jsonrpc":"2.0","id":27,"method":"tools/list","params":-1}"#.into(), "textbook"),
        ("params-unsigned", r#"{"jsonrpc":"2.0","id":28,"method":"tools/list","params":18446744073709551615}"#.into(), "textbook"),
        ("params-fraction", r#"{"jsonrpc":"2.0","id":29,"method":"tools/list","params":0.5}"#.into(), "textbook"),
        ("params-string", r#"{"jsonrpc":"2.0","id":30,"method":"tools/list","params":"p"}"#.into(), "textbook"),
        ("params-twice", r#"{"jsonrpc":"2.0","id":63,"method":"tools/list","params":1,"params":{"_meta":1,"_meta":{}}}"#.into(), "textbook"),
        ("meta-null", r#"{"jsonrpc":"2.0","id":31,"method":"tools/list","params":{"_meta":null}}"#.into(), "textbook"),
        ("meta-array", r#"{"jsonrpc":"2.0","id":32,"method":"tools/list","params":{"_meta":[]}}"#.into(), "textbook"),
        ("meta-false", r#"{"jsonrpc":"2.0","id":33,"method":"tools/list","params":{"_meta":false}}"#.into(), "textbook"),
        ("meta-negative", r#"{"jsonrpc":"2.0","id":34,"method":"tools/list","params":{"_meta":-2}}"#.into(), "textbook"),
        ("meta-unsigned", r#"{"jsonrpc":"2.0","id":35,"method":"tools/list","params":{"_meta":2}}"#.into(), "textbook"),
        ("meta-fraction", r#"{"jsonrpc":"2.0","id":36,"method":"tools/list","params":{"_meta":2.5}}"#.into(), "textbook"),
        ("meta-string", r#"{"jsonrpc":"2.0","id":37,"method":"tools/list","params":{"_meta":"m"}}"#.into(), "textbook"),
        ("meta-other-key-duplicate", request("38", "tools/list", "").replace(r#"{}}"#, r#"{},"com.example/x":{"k":1,"k":2}}"#), "textbook"),
        ("capabilities-shapes", request("39", "tools/list", "").replace(r#"Capabilities":{}"#, r#"Capabilities":{"sampling":1,"roots":{},"x":[]}"#), "textbook"),
        ("capabilities-duplicate", request("40", "tools/list", "").replace(r#"Capabilities":{}"#, r#"Capabilities":{"roots":{},"roots":{}}"#), "textbook"),
        ("capabilities-array", request("41", "tools/list", "").replace(r#"Capabilities":{}"#, r#"Capabilities":[{}]"#), "textbook"),
        ("capabilities-true", request("42", "tools/list", "").replace(r#"Capabilities":{}"#, r#"Capabilities":true"#), "textbook"),
        ("capabilities-negative", request("43", "tools/list", "").replace(r#"Capabilities":{}"#, r#"Capabilities":-3"#), "textbook"),
        ("capabilities-unsigned", request("44", "tools/list", "").replace(r#"Capabilities":{}"#, r#"Capabilities":3"#), "textbook"),
        ("capabilities-fraction", request("45", "tools/list", "").replace(r#"Capabilities":{}"#, r#"Capabilities":0.1"#), "textbook"),
        ("capabilities-string", request("46", "tools/list", "").replace(r#"Capabilities":{}"#, r#"Capabilities":"c""#), "textbook"),
        ("client-info-title-number", request("47", "tools/list", "").replace(r#"{}}"#, r#"{},"io.modelcontextprotocol/clientInfo":{"name":"h","version":"1","title":1}}"#), "textbook"),
        ("client-info-icons-object", request("48", "tools/list", "").replace(r#"{}}"#, r#"{},"io.modelcontextprotocol/clientInfo":{"name":"h","version":"1","icons":{}}}"#), "textbook"),
        ("client-info-complete", request("49", "tools/list", "").replace(r#"{}}"#, r#"{},"io.modelcontextprotocol/clientInfo":{"name":"h","version":"1","title":"t","description":"d","websiteUrl":"u","icons":[]}}"#), "textbook"),
        ("progress-token-object", request("50", "tools/list", "").replace(r#"{}}"#, r#"{},"progressToken":{}}"#), "textbook"),
        ("arguments-array", call("51", "get_order", r#"[{"a":1}]"#), "textbook"),
        ("arguments-negative", call("52", "get_order", "-5"), "textbook"),
        ("arguments-unsigned", call("53", "get_order", "5"), "textbook"),
        ("arguments-fraction", call("54", "get_order", "5.5"), "textbook"),
        ("arguments-string", call("55", "get_order", r#""A-104""#), "textbook"),
        ("arguments-escaped-name", call("56", "get_order", r#"{"order_id":"A-104","order_id":"B-205"}"#), "textbook"),
        ("arguments-nine-members", call("57", "get_order", r#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"order_id":"A-104","i":10}"#), "textbook"),
        ("arguments-escaped-after-eight", call("58", "get_order", r#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"order_id":"A-104"}"#), "textbook"),
        ("escaped-method", request("59", r#"tools\/list"#, ""), "textbook"),
        ("method-number", r#"{"jsonrpc":"2.0","id":60,"method":7}"#.into(), "textbook"),
        ("scanned-values", request("61", "tools/list", "").replace(r#"{}}"#, r#"{},"com.example/v":[true,-1,1,1.5,"é",null,{"x":{"y":1,"y":2}}]}"#), "textbook"),
        ("top-level-number", "7".into(), "textbook"),
        ("top-level-string", r#""s""#.into(), "textbook"),
        ("top-level-true", "true".into(), "textbook"),
        ("top-level-null", "null".into(), "textbook"),
        ("top-level-negative", "-7".into(), "textbook"),
        ("top-level-fraction", "7.5".into(), "textbook"),
        ("number-out-of-range", r#"{"jsonrpc":"2.0","id":1e400,"method":"tools/list"}"#.into(), "textbook"),
        ("top-member-escaped", r#"{"jsonrpc":"2.0","id":62,"method":"tools/list","method":"tools/list"}"#.into(), "textbook"),
    ];
    let names: Vec<&str> = fuzzing::fixtures().iter().map(|f| f.name).collect();
    lines
        .into_iter()
        .map(|(file, line, fixture)| {
            let pick = names.iter().position(|n| *n == fixture).expect(fixture);
            let mut bytes = line.into_bytes();
            if file == "not-utf8" {
                bytes.retain(|&b| b != 0x7f);
                let at = bytes.len() - 3;
                bytes.insert(at, 0xff);
            }
            if pick != 0 {
                while bytes.len() % names.len() != pick {
                    bytes.push(b' ');
                }
            }
            (file.to_string(), bytes)
        })
        .collect()
}

/// Configuration files for `config_load`: valid ones that move every
/// member, and one per kind of refusal.
fn config_seeds() -> Vec<(String, Vec<u8>)> {
    let example =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/config.example.json"))
            .expect("data/config.example.json");
    let order = |id: &str, owner: &str| {
        format!(
            r#"{{"order_id":"{id}","owner":"{owner}","status":"processing","as_of":"2026-09-14T00:00:00Z","source_version":"v1"}}"#
        )
    };
    let files: Vec<(&str, String)> = vec![
        ("empty-object", "{}".into()),
        ("user-tomas", r#"{"user":"tomas"}"#.into()),
        ("legacy", r#"{"legacy_versions":["2025-11-25","2025-06-18"]}"#.into()),
        ("stock-only", r#"{"stock":[{"product_id":"p","stock":1}]}"#.into()),
        ("orders", format!(r#"{{"user":"u","orders":[{},{},{}]}}"#, order("A", "u"), order("B", "v"), order("C\u{e9}", "u"))),
        ("identity", r#"{"server":{"name":"n","version":"2","instructions":"hi"},"discover_cache":{"ttl_ms":0,"scope":"private"},"tools_cache":{"ttl_ms":1,"scope":"public"},"max_line_bytes":1024}"#.into()),
        ("not-json", "{\"user\":".into()),
        ("not-object", "[]".into()),
        ("unknown-field", r#"{"usr":"x"}"#.into()),
        ("duplicate-order", format!(r#"{{"orders":[{},{}]}}"#, order("A", "u"), order("A", "v"))),
        ("bad-as-of", r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"yesterday","source_version":"v"}]}"#.into()),
        ("no-versions", r#"{"protocol_versions":[]}"#.into()),
        ("unknown-version", r#"{"protocol_versions":["1900-01-01"]}"#.into()),
        ("small-limit", r#"{"max_line_bytes":10}"#.into()),
        ("negative-stock", r#"{"stock":[{"product_id":"p","stock":-1}]}"#.into()),
        // Added from the coverage report (docs/fuzzing.md, "Coverage of the
        // core"): each refusal of the validation, each branch of the date check.
        ("empty-user", r#"{"user":""}"#.into()),
        ("empty-server-name", r#"{"server":{"name":"","version":"1"}}"#.into()),
        ("empty-order-id", format!(r#"{{"orders":[{}]}}"#, order("", "u"))),
        ("empty-owner", format!(r#"{{"orders":[{}]}}"#, order("A", ""))),
        ("empty-product", r#"{"stock":[{"product_id":"","stock":1}]}"#.into()),
        ("duplicate-product", r#"{"stock":[{"product_id":"p","stock":1},{"product_id":"p","stock":2}]}"#.into()),
        ("version-twice", r#"{"protocol_versions":["2026-07-28","2026-07-28"]}"#.into()),
        ("as-of-leap-day", r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"2024-02-29T12:00:00Z","source_version":"v"}]}"#.into()),
        ("as-of-not-leap", r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"2023-02-29T12:00:00Z","source_version":"v"}]}"#.into()),
        ("as-of-century", r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"2100-02-29T12:00:00Z","source_version":"v"}]}"#.into()),
        ("as-of-fourth-century", r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"2000-02-29T23:59:59.5+01:00","source_version":"v"}]}"#.into()),
        ("as-of-april-31", r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"2026-04-31T00:00:00Z","source_version":"v"}]}"#.into()),
        ("as-of-month-13", r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"2026-13-01T00:00:00Z","source_version":"v"}]}"#.into()),
        ("as-of-bad-separator", r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"2026-09-14X00:00:00Z","source_version":"v"}]}"#.into()),
        ("as-of-bad-time", r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"2026-09-14T00-00:00Z","source_version":"v"}]}"#.into()),
        ("as-of-no-fraction-digits", r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"2026-09-14T00:00:00.Z","source_version":"v"}]}"#.into()),
        ("as-of-offset", r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"2026-09-14t00:00:00-05:30","source_version":"v"}]}"#.into()),
        ("as-of-no-zone", r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"2026-09-14T00:00:00","source_version":"v"}]}"#.into()),
        ("as-of-hour-24", r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"2026-09-14T24:00:00z","source_version":"v"}]}"#.into()),
    ];
    let mut seeds: Vec<(String, Vec<u8>)> = files
        .into_iter()
        .map(|(n, s)| (n.to_string(), s.into_bytes()))
        .collect();
    seeds.push(("example".into(), example));
    seeds
}

/// Inputs for the structured targets: sparse changes to an all-zero input
/// (which decodes to the textbook `tools/call get_order`), kept when they
/// reach an outcome no kept input reached, shortest first.
fn structured_seeds(
    max: usize,
    first: Option<u8>,
    class: &dyn Fn(&[u8]) -> Option<String>,
) -> Vec<(String, Vec<u8>)> {
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut seen = std::collections::BTreeMap::new();
    for _ in 0..200_000 {
        let len = 8 + (next() % 120) as usize;
        let mut data = vec![0u8; len];
        for _ in 0..1 + next() % 8 {
            let at = (next() % len as u64) as usize;
            data[at] = (next() >> 24) as u8;
        }
        if let Some(first) = first {
            data[0] = first;
        }
        if let Some(c) = class(&data) {
            let keep = seen.get(&c).is_none_or(|d: &Vec<u8>| d.len() > data.len());
            if keep {
                seen.insert(c, data);
            }
        }
    }
    let mut all: Vec<(String, Vec<u8>)> = seen.into_iter().collect();
    all.sort_by_key(|(_, d)| d.len());
    all.truncate(max);
    all.into_iter()
        .enumerate()
        .map(|(n, (c, d))| (format!("{n:02}-{}", slug(&c)), d))
        .collect()
}

fn slug(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    out.truncate(60);
    out
}

fn request_class(data: &[u8]) -> Option<String> {
    use fuzzing::model::Request;
    use mcp_reference_testkit::arbitrary::{Arbitrary, Unstructured};
    use mcp_reference_testkit::model::Reply;
    let r = Request::arbitrary_take_rest(Unstructured::new(data)).ok()?;
    let fixtures = fuzzing::fixtures();
    let fixture = fixtures.get(usize::from(r.fixture) % fixtures.len())?;
    let e = r.expect(&fixture.config);
    Some(match &e.reply {
        Reply::Silence => "silence".into(),
        Reply::Unknown => return None,
        Reply::Input { .. } => format!("{} input", e.row),
        Reply::Error { code, message, .. } => format!("{code} {message}"),
        Reply::Result { body, .. } => format!("{} {body:?}", e.row)
            .split('(')
            .next()
            .unwrap_or_default()
            .to_string(),
    })
}

fn session_class(data: &[u8]) -> Option<String> {
    use fuzzing::SessionInput;
    use mcp_reference_testkit::arbitrary::{Arbitrary, Unstructured};
    let input = SessionInput::arbitrary_take_rest(Unstructured::new(data)).ok()?;
    if input.lines.len() < 2 {
        return None;
    }
    // The kinds of the first three lines: which transitions a seed takes.
    let kinds: Vec<String> = input
        .lines
        .iter()
        .take(3)
        .map(|l| {
            format!("{l:?}")
                .split(['(', ' ', '{'])
                .next()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    Some(kinds.join("-"))
}

/// Named inputs of one target.
type Seeds = Vec<(String, Vec<u8>)>;

/// Every seed the generator makes, by target.
/// Seeds of the `http` target, in its input layout
/// (`testkit/src/fuzzing/http.rs`): fixture, flags, method, target, edits
/// (operation, header name, value), body.
fn http_seeds() -> Seeds {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let example = std::fs::read(root.join("data/example-43.2.request.json")).expect("Example 43.2");
    let example = example.strip_suffix(b"\n").unwrap_or(&example).to_vec();
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let discover =
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{meta}}}}}"#)
            .into_bytes();
    let stock = format!(r#"{{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{{"name":"lookup_stock","arguments":{{"product_id":"python-book"}},{meta}}}}}"#).into_bytes();
    let initialize = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#.to_vec();
    // The catalog fixture (3): resources, prompts, completion (issue 32).
    let request = |method: &str, params: &str| {
        format!(r#"{{"jsonrpc":"2.0","id":"c","method":"{method}","params":{{{params},{meta}}}}}"#)
            .into_bytes()
    };
    let read_order = request("resources/read", r#""uri":"book-orders://orders/A-117""#);
    let read_foreign = request("resources/read", r#""uri":"book-orders://orders/B-205""#);
    let read_non_ascii = request("resources/read", r#""uri":"book-orders://orders/Ä-1""#);
    let read_policy = request(
        "resources/read",
        r#""uri":"book-orders://policies/returns""#,
    );
    let get_prompt = request(
        "prompts/get",
        r#""name":"reply_to_customer","arguments":{"order_id":"A-104"}"#,
    );
    let complete = request(
        "completion/complete",
        r#""ref":{"type":"ref/resource","uri":"book-orders://orders/{order_id}"},"argument":{"name":"order_id","value":""}"#,
    );
    let seed = |fixture: u8, flags: u8, method: u8, edits: &[(u8, u8, &[u8])], body: &[u8]| {
        let mut data = vec![fixture, flags, method, 0, edits.len() as u8];
        for (op, name, value) in edits {
            data.extend_from_slice(&[*op, *name, value.len() as u8]);
            data.extend_from_slice(value);
        }
        data.extend_from_slice(body);
        data
    };
    vec![
        ("example-43.2".into(), seed(0, 1, 0, &[], &example)),
        ("example-43.2-order-id".into(), seed(1, 1, 0, &[], &example)),
        ("discover".into(), seed(0, 1, 0, &[], &discover)),
        ("get-405".into(), seed(0, 1, 1, &[], b"")),
        (
            "version-mismatch".into(),
            seed(0, 1, 0, &[(1, 2, b"2025-11-25")], &example),
        ),
        (
            "origin-evil".into(),
            seed(0, 1, 0, &[(0, 7, b"http://evil.example")], &discover),
        ),
        (
            "bad-sentinel".into(),
            seed(1, 1, 0, &[(0, 5, b"=?base64?***?=")], &example),
        ),
        (
            "notification".into(),
            seed(
                0,
                1,
                0,
                &[],
                br#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#,
            ),
        ),
        ("batch".into(), seed(0, 1, 0, &[], b"[]")),
        ("stock-product".into(), seed(2, 1, 0, &[], &stock)),
        ("catalog-read-order".into(), seed(3, 1, 0, &[], &read_order)),
        (
            "catalog-read-foreign".into(),
            seed(3, 1, 0, &[], &read_foreign),
        ),
        (
            "catalog-read-non-ascii".into(),
            seed(3, 1, 0, &[], &read_non_ascii),
        ),
        ("catalog-prompt".into(), seed(3, 1, 0, &[], &get_prompt)),
        ("catalog-complete".into(), seed(3, 1, 0, &[], &complete)),
        (
            "catalog-list".into(),
            seed(3, 1, 0, &[], &request("resources/list", r#""cursor":"x""#)),
        ),
        (
            // Every header by hand, `Mcp-Name` naming another resource
            // than the body's `params.uri` (H12).
            "catalog-name-mismatch".into(),
            seed(
                3,
                0,
                0,
                &[
                    (0, 0, b"127.0.0.1:8080"),
                    (0, 1, b"application/json"),
                    (0, 2, b"2026-07-28"),
                    (0, 3, b"resources/read"),
                    (0, 4, b"book-orders://policies/privacy"),
                ],
                &read_policy,
            ),
        ),
        (
            "initialize".into(),
            seed(
                0,
                0,
                0,
                &[(0, 0, b"127.0.0.1:8080"), (0, 1, b"application/json")],
                &initialize,
            ),
        ),
    ]
}

/// Seeds of the `http_auth` target, in its input layout
/// (`testkit/src/fuzzing/http_auth.rs`): time, credentials, user or
/// change, edits (position, byte), raw header bytes.
fn http_auth_seeds() -> Seeds {
    let seed = |now: u8, kind: u8, who: u8, edits: &[(u16, u8)], rest: &[u8]| {
        let mut data = vec![now, kind, who, edits.len() as u8];
        for (position, byte) in edits {
            data.extend_from_slice(&position.to_le_bytes());
            data.push(*byte);
        }
        data.extend_from_slice(rest);
        data
    };
    let mut seeds: Seeds = vec![
        ("no-credentials".into(), seed(0, 0, 0, &[], b"")),
        ("basic".into(), seed(0, 1, 0, &[], b"Basic dXNlcjpwYXNz")),
        ("bearer-garbage".into(), seed(0, 2, 0, &[], b"a.b.c")),
        ("bearer-spaces".into(), seed(0, 2, 0, &[], b"a b")),
        ("valid-mira-es256".into(), seed(0, 3, 0, &[], b"")),
        ("valid-tomas-rs256".into(), seed(0, 3, 1, &[], b"")),
        ("valid-client".into(), seed(0, 3, 2, &[], b"")),
        ("valid-unknown-user".into(), seed(0, 3, 3, &[], b"")),
        ("expired-by-clock".into(), seed(1, 3, 0, &[], b"")),
        ("edited-header".into(), seed(0, 3, 0, &[(3, b'x')], b"")),
        (
            "edited-signature".into(),
            seed(0, 3, 0, &[(0xffff, b'A')], b""),
        ),
        ("twice".into(), seed(0, 5, 0, &[], b"")),
        ("in-query".into(), seed(0, 6, 0, &[], b"")),
        ("metadata".into(), seed(0, 7, 0, &[], b"")),
    ];
    for i in 0..12u8 {
        seeds.push((format!("changed-{i}"), seed(0, 4, i, &[], b"")));
    }
    seeds
}

/// Seeds of the `mrtr` target, in its input layout
/// (`testkit/src/fuzzing/mrtr.rs`): target, time, capabilities, state,
/// edits (position, byte), then `inputResponses`.
fn mrtr_seeds() -> Seeds {
    let seed = |head: [u8; 4], edits: &[(u8, u8)], rest: &[u8]| {
        let mut data = head.to_vec();
        data.push(edits.len() as u8);
        for (position, byte) in edits {
            data.extend_from_slice(&[*position, *byte]);
        }
        data.extend_from_slice(rest);
        data
    };
    // Targets by index in the fixtures: 0 elicitation, 3 request_state,
    // 5 multi_round, 6 tampered_state, 7 capabilities, 8 missing
    // capability, 10 the prompt. Capabilities 8: all three.
    vec![
        ("first-round".into(), seed([0, 0, 8, 0], &[], b"")),
        ("honest-retry".into(), seed([3, 1, 8, 1], &[], b"\x01{}")),
        (
            "multi-round-retry".into(),
            seed([5, 0, 8, 1], &[], b"\x01{}"),
        ),
        (
            "edited-state".into(),
            seed([6, 0, 8, 2], &[(5, b'A'), (40, b'B'), (58, 0)], b"{}"),
        ),
        (
            "state-as-text".into(),
            seed(
                [3, 0, 8, 3],
                &[],
                b"AQAAAAAAAABrFNayp1mlVmZnDcXPuD4oXCAoaFzKr5V_zMyMQKvwNQCDV1M",
            ),
        ),
        ("state-a-number".into(), seed([6, 0, 8, 4], &[], b"")),
        (
            "other-target-state".into(),
            seed([3, 0, 8, 5], &[], b"\x01{}"),
        ),
        (
            "other-user-state".into(),
            seed([6, 1, 8, 6], &[], b"\x01{}"),
        ),
        ("expired".into(), seed([3, 2, 8, 1], &[], b"\x01{}")),
        (
            "malformed-answer".into(),
            seed([0, 0, 8, 0], &[], br#"{"user_name":12345}"#),
        ),
        (
            "declined".into(),
            seed([0, 0, 8, 0], &[], br#"{"user_name":{"action":"decline"}}"#),
        ),
        ("null-responses".into(), seed([0, 0, 8, 0], &[], b"null")),
        ("no-capabilities".into(), seed([8, 0, 0, 0], &[], b"")),
        ("sampling-only".into(), seed([7, 0, 4, 0], &[], b"")),
        ("prompt".into(), seed([10, 0, 8, 0], &[], b"\x01{}")),
    ]
}

/// Seeds of the `judge` target (`testkit/src/fuzzing/judge.rs`): a mode
/// byte (bit 0 HTTP, bit 1 the fixtures), then messages, one per line.
fn judge_seeds() -> Seeds {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}"#;
    let discover =
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{meta}}}}}"#);
    let call = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"test_input_required_result_elicitation","arguments":{{}},{meta}}}}}"#
    );
    let retry = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"test_input_required_result_elicitation","arguments":{{}},"inputResponses":{{"user_name":{{"action":"accept","content":{{"name":"A"}}}}}},{meta}}}}}"#
    );
    let cancel = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#;
    let seed = |mode: u8, lines: &[&str]| {
        let mut data = vec![mode];
        data.extend_from_slice(lines.join("\n").as_bytes());
        data
    };
    vec![
        ("stdio-correct".into(), seed(0, &[&discover, cancel])),
        (
            "stdio-round-trip".into(),
            seed(2, &[&discover, &call, &retry]),
        ),
        ("stdio-call-twice".into(), seed(2, &[&call, &call])),
        (
            "stdio-garbage".into(),
            seed(
                0,
                &["{", "[]", r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#],
            ),
        ),
        (
            "stdio-response".into(),
            seed(0, &[r#"{"jsonrpc":"2.0","id":1,"result":{}}"#]),
        ),
        ("http-correct".into(), seed(1, &[&discover])),
        ("http-round-trip".into(), seed(3, &[&call, &retry])),
        ("http-bare".into(), seed(1, &[&format!("!{discover}")])),
        ("http-get".into(), seed(1, &["?"])),
    ]
}

fn generated() -> [(&'static str, Seeds); 8] {
    [
        ("judge", judge_seeds()),
        ("http", http_seeds()),
        ("http_auth", http_auth_seeds()),
        ("mrtr", mrtr_seeds()),
        ("respond_bytes", byte_seeds()),
        ("config_load", config_seeds()),
        (
            "respond_structured",
            structured_seeds(40, None, &request_class),
        ),
        ("session", structured_seeds(24, Some(1), &session_class)),
    ]
}

/// The committed corpora are the generator's seeds, byte for byte, plus
/// the `min-*` files kept from campaigns by scripts/fuzz_cmin.sh: a change
/// to the generator (or to the targets' input decoding) that was not
/// followed by regenerating the seeds fails here.
#[test]
fn the_committed_seeds_are_the_generators() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    for (target, seeds) in generated() {
        let dir = root.join(target);
        let mut committed: Vec<String> = std::fs::read_dir(&dir)
            .expect("corpus dir")
            .map(|e| {
                e.expect("corpus entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter(|n| !n.starts_with("min-") && !n.starts_with('.'))
            .collect();
        committed.sort();
        let mut names: Vec<String> = seeds.iter().map(|(n, _)| n.clone()).collect();
        names.sort();
        assert_eq!(
            committed, names,
            "fuzz/corpus/{target}: regenerate the seeds (see above)"
        );
        for (name, data) in &seeds {
            let on_disk = std::fs::read(dir.join(name)).expect("seed");
            assert!(
                on_disk == *data,
                "fuzz/corpus/{target}/{name} is not the generator's"
            );
        }
    }
}

#[test]
#[ignore = "writes fuzz/corpus; run by hand after changing the targets"]
fn regenerate_seed_corpora() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    for (target, seeds) in generated() {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir).expect("corpus dir");
        // The generator owns every file but the `min-*` ones, which
        // scripts/fuzz_cmin.sh keeps from campaigns: regenerating the
        // seeds never drops what a campaign found, and minimizing never
        // drops a generated seed.
        for entry in std::fs::read_dir(&dir).expect("corpus dir") {
            let path = entry.expect("corpus entry").path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if !name.starts_with("min-") {
                std::fs::remove_file(&path).expect("remove old seed");
            }
        }
        let check = TARGETS.iter().find(|(n, _)| *n == target).expect(target).1;
        for (name, data) in seeds {
            check(&data);
            std::fs::write(dir.join(name), data).expect("write seed");
        }
    }
}
