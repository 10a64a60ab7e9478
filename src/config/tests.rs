//! Unit tests of the configuration file: loading, defaults and every
//! refusal at load (`super`).

use super::*;

#[test]
fn default_is_the_textbook() {
    let c = Config::default();
    assert_eq!(c.user(), "mira");
    assert_eq!(c.identity().name, "book-orders");
    assert_eq!(c.identity().version, "1.0.0");
    assert!(c.stock().is_none());
    assert_eq!(c.orders().len(), 2);
    assert_eq!(c.orders()[0].order_id, "A-104");
    assert_eq!(c.orders()[0].owner, "mira");
    assert_ne!(c.orders()[1].owner, "mira");
    assert_eq!(c.versions(), ["2026-07-28"]);
    assert!(c.validate().is_ok());
}

#[test]
fn to_json_reads_back() {
    let c = Config::default()
        .with_stock(Some(vec![StockItem {
            product_id: "p".into(),
            stock: 3,
        }]))
        .unwrap()
        .with_legacy_versions(vec!["2025-11-25".into()])
        .unwrap();
    assert_eq!(Config::from_json(c.to_json().as_bytes()).unwrap(), c);
    let d = Config::default();
    assert_eq!(Config::from_json(d.to_json().as_bytes()).unwrap(), d);
}

#[test]
fn the_http_member_is_checked_at_load() {
    let refused = |json: &str, expected: &str| match Config::from_json(json.as_bytes()) {
        Ok(_) => panic!("{json} was accepted"),
        Err(e) => assert!(e.to_string().contains(expected), "{json}: {e}"),
    };
    for endpoint in ["mcp", "/mcp?x", "/mcp#f", "/m cp", ""] {
        let json = format!(r#"{{"http":{{"endpoint":{endpoint:?}}}}}"#);
        refused(&json, "is not a path such as /mcp");
    }
    for field in ["allowed_origins", "allowed_hosts"] {
        for entry in ["", "a b", "h\u{e9}"] {
            let json = format!(r#"{{"http":{{"{field}":["ok",{entry:?}]}}}}"#);
            refused(&json, &format!("http.{field} holds"));
        }
    }
    // The authorization settings are checked against the endpoint.
    refused(
        r#"{"http":{"endpoint":"/other","authorization":{"resource":"http://127.0.0.1:8080/mcp","issuer":"http://127.0.0.1:9000"}}}"#,
        "http.authorization",
    );
    let ok = r#"{"http":{"endpoint":"/rpc","allowed_origins":["http://localhost:8080"],"allowed_hosts":["mcp.example:80"],"authorization":{"resource":"http://127.0.0.1:8080/rpc","issuer":"http://127.0.0.1:9000"}}}"#;
    let config = Config::from_json(ok.as_bytes()).unwrap();
    assert_eq!(config.http().endpoint, "/rpc");
}

#[test]
fn empty_file_means_defaults() {
    assert_eq!(Config::from_json(b"{}").unwrap(), Config::default());
}

#[test]
fn refuses_bad_files_with_a_reason() {
    let cases: &[(&str, &str)] = &[
        ("[", "not valid JSON"),
        ("[]", "wrong shape"),
        (r#"{"usr":"x"}"#, "unknown field"),
        (r#"{"a\nb\r\u2028":1}"#, "unknown field `a\\nb\\r\\u{2028}`"),
        (
            r#"{"orders":[{"order_id":"A","status":"s","as_of":"2026-09-14T00:00:00Z","source_version":"v"}]}"#,
            "missing field `owner`",
        ),
        (
            r#"{"orders":[{"order_id":"A","owner":"","status":"s","as_of":"2026-09-14T00:00:00Z","source_version":"v"}]}"#,
            "empty owner",
        ),
        (
            r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"2026-09-14T00:00:00Z","source_version":"v"},{"order_id":"A","owner":"p","status":"s","as_of":"2026-09-14T00:00:00Z","source_version":"v"}]}"#,
            "appears more than once",
        ),
        (
            r#"{"orders":[{"order_id":"A","owner":"o","status":"s","as_of":"yesterday","source_version":"v"}]}"#,
            "not an RFC 3339",
        ),
        (
            r#"{"stock":[{"product_id":"p","stock":1},{"product_id":"p","stock":2}]}"#,
            "more than once",
        ),
        (
            r#"{"stock":[{"product_id":"p","stock":-1}]}"#,
            "wrong shape at stock[0].stock (",
        ),
        // A shape error names its member, not only a position (issue 49,
        // item 5: a negative state_ttl_seconds named line 1 column 6327).
        (
            r#"{"input_required":{"state_ttl_seconds":-1}}"#,
            "wrong shape at input_required.state_ttl_seconds (invalid value: integer `-1`",
        ),
        (
            r#"{"user":"u","orders":[{"order_id":"A","owner":"o","status":"s","as_of":"2026-09-14T00:00:00Z","source_version":"v","colour":1}]}"#,
            "wrong shape at orders[0].colour (unknown field `colour`",
        ),
        (
            r#"{"max_line_bytes":"big"}"#,
            "wrong shape at max_line_bytes (",
        ),
        (
            r#"{"server":{"name":"","version":"1"}}"#,
            "server.name and server.version must not be empty",
        ),
        (
            r#"{"server":{"name":"n","version":""}}"#,
            "server.name and server.version must not be empty",
        ),
        (r#"{"protocol_versions":["1900-01-01"]}"#, "does not serve"),
        (r#"{"protocol_versions":[]}"#, "at least one"),
        (r#"{"legacy_versions":["2026-07-28"]}"#, "does not serve"),
        (r#"{"user":""}"#, "must not be empty"),
        (r#"{"max_line_bytes":10}"#, "at least 1024"),
        // T14, DEC50: a schema the core could not enforce never loads.
        (
            r#"{"content_tools":[{"name":"t","description":"d","content":[{"type":"text","text":"x"}],"inputSchema":{"type":"object","properties":{"a":{"pattern":"x"}}}}]}"#,
            "keyword \"pattern\" at /properties/a",
        ),
        (
            r##"{"content_tools":[{"name":"t","description":"d","content":[{"type":"text","text":"x"}],"inputSchema":{"type":"object","$defs":{"n":{"properties":{"c":{"$ref":"#/$defs/n"}}}},"properties":{"a":{"$ref":"#/$defs/n"}}}}]}"##,
            "cycle",
        ),
    ];
    for (json, expected) in cases {
        let err = Config::from_json(json.as_bytes()).expect_err(json);
        assert!(err.to_string().contains(expected), "{json}: {err}");
        assert!(!err.to_string().contains('\n'), "one line: {err}");
    }
}

#[test]
fn errors_escape_each_control_and_separator_alone() {
    // One character per file, one of each kind `one_line` escapes: a C0
    // control, DEL, a C1 control, a line separator.
    for (name, escaped) in [
        (r"\u0001", r"\u{1}"),
        ("\u{7f}", r"\u{7f}"),
        (r"\u0085", r"\u{85}"),
        (r"\u2029", r"\u{2029}"),
    ] {
        let json = format!(r#"{{"a{name}":1}}"#);
        let err = Config::from_json(json.as_bytes())
            .expect_err(&json)
            .to_string();
        assert!(err.contains(&format!("`a{escaped}`")), "{json}: {err}");
    }
    // Characters beside them (U+00A9, U+2014, with the same first
    // bytes as a C1 control and a separator) stay as they are.
    let err = Config::from_json("{\"\u{a9}\u{2014}\":1}".as_bytes()).unwrap_err();
    assert!(err.to_string().contains("`\u{a9}\u{2014}`"), "{err}");
}

#[test]
fn load_names_the_file() {
    let err = Config::load(Path::new("/nonexistent/cfg.json")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot read config file /nonexistent/cfg.json: no such file"
    );
}

#[test]
fn io_errors_are_worded_for_a_person() {
    use std::io::Error;
    // As the operating system reports them (ENOENT, EACCES), whose own
    // wording names the error number.
    assert_eq!(io_reason(&Error::from_raw_os_error(2)), "no such file");
    assert_eq!(
        io_reason(&Error::from_raw_os_error(13)),
        "permission denied"
    );
    let other = Error::other("disk on fire");
    assert_eq!(io_reason(&other), "disk on fire");
}

#[test]
fn rfc3339_shapes() {
    for ok in [
        "2026-09-14T00:00:00Z",
        "2026-09-14t00:00:00.5+02:00",
        "2024-02-29T23:59:59Z",
        "2000-02-29T00:00:00Z",
        // A leap year whose century is not a multiple of four (found
        // by cargo-mutants: the year read as `century + 100 + year`).
        "2104-02-29T00:00:00Z",
        // Years below 100: year 4 is a leap year, and so is year 0 (a
        // multiple of 400). Found by cargo-mutants: the year read as
        // `century * 100 - year` tells the same leap years, but
        // overflows below 100 (a panic where overflow checks are on,
        // as in the mutation profile).
        "0004-02-29T00:00:00Z",
        "0000-02-29T00:00:00Z",
    ] {
        assert!(is_rfc3339_utc(ok), "{ok}");
    }
    for bad in [
        "",
        "2026-09-14",
        "2026-13-14T00:00:00Z",
        "2026-09-14T00:00:00",
        "2026-09-14T00:00:00.Z",
        "2026-09-14T00:00:00Zx",
        "२०२६-09-14T00:00:00Z",
        "2026-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "0001-02-29T00:00:00Z",
        "2026-04-31T00:00:00Z",
        "2026-12-31T23:59:60Z",
        // Each separator and each part of the offset, one at a time
        // (found by cargo-mutants: `&&` to `||` in the checks).
        "2026X09-14T00:00:00Z",
        "2026-09X14T00:00:00Z",
        "2026-09-14X00:00:00Z",
        "2026-09-14T00X00:00Z",
        "2026-09-14T00:00X00Z",
        "2026-09-14T00:00:00+02:00x",
        "2026-09-14T00:00:00+0200",
        "2026-09-14T00:00:00+02X00",
        "2026-09-14T00:00:00+2:00",
        "2026-09-14T00:00:00+02:0",
        "2026-06-31T00:00:00Z",
        "2026-09-31T00:00:00Z",
        "2026-11-31T00:00:00Z",
        "2026-09-14T24:00:00Z",
        "2026-09-14T00:60:00Z",
    ] {
        assert!(!is_rfc3339_utc(bad), "{bad}");
    }
}

/// The default line limit is the one the README's configuration table
/// documents (row F3 says 4 MiB), whether the configuration is the
/// default or a file that leaves the member out (found by
/// cargo-mutants: `4 + 1024 * 1024` passed every other test, since the
/// model reads the limit from the same configuration).
#[test]
fn the_default_line_limit_is_the_documented_one() {
    let readme = include_str!("../../README.md");
    let documented: usize = readme
        .lines()
        .find_map(|l| l.strip_prefix("| `max_line_bytes` |"))
        .and_then(|row| row.rsplit('|').nth(1))
        .map(str::trim)
        .and_then(|cell| cell.parse().ok())
        .expect("the README documents max_line_bytes' default");
    assert_eq!(documented, 4 * 1024 * 1024);
    assert_eq!(Config::default().max_line_bytes(), documented);
    assert_eq!(
        Config::from_json(b"{}").unwrap().max_line_bytes(),
        documented
    );
}

#[test]
fn example_config_offers_both_tools() {
    let bytes = include_bytes!("../../data/config.example.json");
    let c = Config::from_json(bytes).unwrap();
    let stock = c.stock().unwrap();
    assert!(
        stock
            .iter()
            .any(|s| s.product_id == "python-book" && s.stock == 3)
    );
}

#[test]
fn param_headers_are_checked_at_load() {
    // H14, TOOLS-08: each refusal beside a neighbour that loads.
    let file = |tool: &str, param: &str, header: &str| {
        serde_json::json!({"param_headers": {tool: {param: header}}}).to_string()
    };
    for (tool, param, header) in [
        ("get_order", "order_id", "Order-Id"),
        ("lookup_stock", "product_id", "P"),
        ("get_order", "order_id", "a0!#$%&'*+-.^_`|~Z9"),
    ] {
        let json = file(tool, param, header);
        Config::from_json(json.as_bytes()).unwrap_or_else(|e| panic!("{json}: {e}"));
    }
    let (mirror, token) = (
        "not a tool parameter that can be mirrored",
        "not an HTTP field-name token",
    );
    for (tool, param, header, reason) in [
        ("get_order", "status", "Status", mirror),
        ("lookup_order", "order_id", "Order-Id", mirror),
        ("get_order", "order_id", "", token),
        ("get_order", "order_id", "Order Id", token),
        ("get_order", "order_id", "Order:Id", token),
        ("get_order", "order_id", "Order-Idé", token),
        ("get_order", "order_id", "(Id)", token),
    ] {
        let json = file(tool, param, header);
        let err = Config::from_json(json.as_bytes()).expect_err(&json);
        assert!(err.to_string().contains(reason), "{json}: {err}");
    }
}
