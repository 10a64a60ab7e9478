//! The cases of `tests/behavior.rs` for the conformance configuration
//! (`data/conformance.json`): rows T10 to T13, P11 to P13, C6 and R8 of
//! docs/behavior.md over the official conformance suite's fixture.

use serde_json::{Value, json};

use super::catalog_cases::NOT_FOUND;
use super::support::{call, line, meta};
use super::{Case, Want, case, err};

/// T10, T11, P11 to P13 and C6, over the conformance configuration's
/// content tools and prompts.
pub(crate) fn conformance_cases() -> Vec<Case> {
    fn is_multiple(r: &Value) {
        let c = &r["result"]["content"];
        assert_eq!(
            c[0],
            json!({"type": "text", "text": "Multiple content types test:"})
        );
        assert_eq!(c[1]["type"], "image");
        assert_eq!(c[1]["mimeType"], "image/png");
        assert_eq!(c[2]["resource"]["uri"], "test://mixed-content-resource");
        assert_eq!(c.as_array().map(Vec::len), Some(3));
        assert_eq!(r["result"]["isError"], false);
        assert!(r["result"].get("structuredContent").is_none());
    }
    fn is_tool_error(r: &Value) {
        assert_eq!(r["result"]["isError"], true);
        assert_eq!(r["result"]["content"][0]["type"], "text");
    }
    fn is_no_arguments(r: &Value) {
        assert_eq!(r["result"]["isError"], true);
        assert_eq!(
            r["result"]["content"][0]["text"],
            "invalid arguments: this tool takes no arguments; call it with arguments {} or without arguments"
        );
    }
    fn is_with_arguments(r: &Value) {
        assert_eq!(
            r["result"]["messages"],
            json!([{"role": "user", "content": {"type": "text", "text": "Prompt with arguments: arg1='a {{arg2}}', arg2='w'"}}])
        );
        assert_eq!(
            r["result"]["description"],
            "A prompt whose text carries its two arguments."
        );
    }
    fn is_embedding(r: &Value) {
        let m = &r["result"]["messages"];
        assert_eq!(
            m[0]["content"]["resource"]["uri"],
            "test://example-resource"
        );
        assert_eq!(m[0]["content"]["type"], "resource");
        assert_eq!(m[1]["content"]["type"], "text");
    }
    fn is_completion(r: &Value) {
        assert_eq!(
            r["result"]["completion"],
            json!({"values": ["paris", "park", "party"], "total": 3, "hasMore": false})
        );
    }
    let prompt = |args: Value| {
        line(
            json!(31),
            "prompts/get",
            json!({"_meta": meta(), "name": "test_prompt_with_arguments", "arguments": args}),
        )
    };
    let embed = |uri: &str| {
        line(
            json!(32),
            "prompts/get",
            json!({"_meta": meta(), "name": "test_prompt_with_embedded_resource", "arguments": {"resourceUri": uri}}),
        )
    };
    let complete = |argument: &str, value: &str| {
        line(
            json!(33),
            "completion/complete",
            json!({"_meta": meta(), "ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"}, "argument": {"name": argument, "value": value}}),
        )
    };
    fn is_template_read(r: &Value) {
        assert_eq!(
            r["result"]["contents"],
            json!([{"uri": "test://template/123/data", "mimeType": "application/json", "text": "{\"id\":\"123\",\"templateTest\":true,\"data\":\"Data for ID: 123\"}"}])
        );
        assert_eq!(r["result"]["cacheScope"], "public");
    }
    let read = |uri: &str| {
        line(
            json!(34),
            "resources/read",
            json!({"_meta": meta(), "uri": uri}),
        )
    };
    fn is_finished(r: &Value) {
        assert_eq!(r["result"]["isError"], false);
        assert_eq!(r["result"]["content"][0]["type"], "text");
    }
    let asking = |id: u32, tool: &str, extra: Value| {
        let mut m = meta();
        for (k, v) in extra.as_object().into_iter().flatten() {
            m[k] = v.clone();
        }
        line(json!(id), "tools/call", json!({"_meta": m, "name": tool}))
    };
    const P: [&str; 3] = [
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p-1","progress":0,"total":100}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p-1","progress":50,"total":100}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p-1","progress":100,"total":100}}"#,
    ];
    const L: [&str; 3] = [
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"conformance","data":"Tool execution started"}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"conformance","data":"Tool processing data"}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"conformance","data":"Tool execution completed"}}"#,
    ];
    let notice_cases = vec![
        case(
            "T12",
            "progressToken p-1: 0, 50, 100 of 100, then the result",
            asking(
                35,
                "test_tool_with_progress",
                json!({"progressToken": "p-1"}),
            ),
            Want::Notified(P.to_vec(), json!(35), is_finished),
        ),
        case(
            "T12",
            "an integer token is echoed as an integer",
            asking(36, "test_tool_with_progress", json!({"progressToken": 7})),
            Want::Notified(
                P.iter()
                    .map(|l| &*Box::leak(l.replace("\"p-1\"", "7").into_boxed_str()))
                    .collect(),
                json!(36),
                is_finished,
            ),
        ),
        case(
            "T12",
            "no progressToken: no notification",
            asking(37, "test_tool_with_progress", json!({})),
            Want::Result(json!(37), is_finished),
        ),
        case(
            "T13",
            "logLevel debug: the three info messages, then the result",
            asking(
                38,
                "test_logging_tool",
                json!({"io.modelcontextprotocol/logLevel": "debug"}),
            ),
            Want::Notified(L.to_vec(), json!(38), is_finished),
        ),
        case(
            "T13",
            "logLevel info: the same",
            asking(
                39,
                "test_logging_tool",
                json!({"io.modelcontextprotocol/logLevel": "info"}),
            ),
            Want::Notified(L.to_vec(), json!(39), is_finished),
        ),
        case(
            "T13",
            "logLevel warning: above every message, none",
            asking(
                40,
                "test_logging_tool",
                json!({"io.modelcontextprotocol/logLevel": "warning"}),
            ),
            Want::Result(json!(40), is_finished),
        ),
        case(
            "T13",
            "no logLevel: none, ever",
            asking(41, "test_logging_tool", json!({"progressToken": "p"})),
            Want::Result(json!(41), is_finished),
        ),
    ];
    let prompt_cases = vec![
        case(
            "R8",
            "the configured template filled with 123",
            read("test://template/123/data"),
            Want::Result(json!(34), is_template_read),
        ),
        case(
            "R6",
            "a value with a percent escape fills no template",
            read("test://template/%41/data"),
            Want::Error(
                json!(34),
                -32602,
                NOT_FOUND,
                Some(json!({"uri": "test://template/%41/data"})),
            ),
        ),
        case(
            "R6",
            "an empty value fills no template",
            read("test://template//data"),
            Want::Error(
                json!(34),
                -32602,
                NOT_FOUND,
                Some(json!({"uri": "test://template//data"})),
            ),
        ),
        case(
            "P11",
            "a value holding {{arg2}} is copied as sent, never read again",
            prompt(json!({"arg1": "a {{arg2}}", "arg2": "w", "extra": "ignored"})),
            Want::Result(json!(31), is_with_arguments),
        ),
        case(
            "P11",
            "the embedded resource at the uri given",
            embed("test://example-resource"),
            Want::Result(json!(32), is_embedding),
        ),
        case(
            "P12",
            "a required argument missing",
            prompt(json!({"arg1": "a"})),
            err(
                json!(31),
                -32602,
                "Invalid params: a required argument of this prompt is missing; see its arguments in prompts/list",
            ),
        ),
        case(
            "P13",
            "a value that makes the embedded uri no URI",
            embed("not a uri"),
            err(
                json!(32),
                -32602,
                "Invalid params: an argument value makes the uri of this prompt's embedded resource invalid; send a URI such as test://example",
            ),
        ),
        case(
            "C6",
            "arg1's configured completions that start with par",
            complete("arg1", "par"),
            Want::Result(json!(33), is_completion),
        ),
        case(
            "C5",
            "an argument test_prompt_with_arguments does not have",
            complete("arg3", ""),
            err(
                json!(33),
                -32602,
                "Invalid params: the prompt or resource template has no argument of that name",
            ),
        ),
    ];
    let bare = |name: &str| {
        line(
            json!(30),
            "tools/call",
            json!({"_meta": meta(), "name": name}),
        )
    };
    vec![
        case(
            "T10",
            "test_multiple_content_types without arguments",
            bare("test_multiple_content_types"),
            Want::Result(json!(30), is_multiple),
        ),
        case(
            "T10",
            "test_multiple_content_types with {}",
            call(json!(30), meta(), "test_multiple_content_types", json!({})),
            Want::Result(json!(30), is_multiple),
        ),
        case(
            "T10",
            "test_error_handling: a configured tool error",
            bare("test_error_handling"),
            Want::Result(json!(30), is_tool_error),
        ),
        case(
            "T11",
            "test_simple_text with an argument",
            call(json!(30), meta(), "test_simple_text", json!({"x": 1})),
            Want::Result(json!(30), is_no_arguments),
        ),
    ]
    .into_iter()
    .chain(prompt_cases)
    .chain(notice_cases)
    .chain(schema_cases())
    .collect()
}

/// T14: `json_schema_2020_12_tool`, whose configured 2020-12 `inputSchema`
/// the core enforces and `tools/list` shows as configured.
fn schema_cases() -> Vec<Case> {
    const TOOL: &str = "json_schema_2020_12_tool";
    fn ran(r: &Value) {
        assert_eq!(r["result"]["isError"], false, "{r}");
        assert_eq!(
            r["result"]["content"][0]["text"],
            "The contact details satisfy the tool's inputSchema."
        );
    }
    fn refused(r: &Value) {
        assert_eq!(r["result"]["isError"], true, "{r}");
        let text = r["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(
            text.starts_with("invalid arguments: ") && text.contains("inputSchema"),
            "{text}"
        );
    }
    fn listed_as_configured(r: &Value) {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/conformance.json"
        ))
        .unwrap_or_default();
        let config: Value = serde_json::from_str(&text).unwrap_or_default();
        let pick = |tools: &Value| {
            tools
                .as_array()
                .and_then(|t| t.iter().find(|t| t["name"] == TOOL))
                .map(|t| t["inputSchema"].clone())
        };
        let configured = pick(&config["content_tools"]);
        assert!(configured.is_some());
        assert_eq!(pick(&r["result"]["tools"]), configured);
    }
    let with = |args: Value| call(json!(35), meta(), TOOL, args);
    vec![
        case(
            "D2",
            "json_schema_2020_12_tool listed with its configured inputSchema (T14)",
            line(json!(35), "tools/list", json!({"_meta": meta()})),
            Want::Result(json!(35), listed_as_configured),
        ),
        case(
            "T14",
            "an email, no contactMethod: the else branch holds",
            with(json!({"name": "Ada", "email": "ada@example.org"})),
            Want::Result(json!(35), ran),
        ),
        case(
            "T14",
            "contactMethod phone with a phone, and an address by $ref",
            with(
                json!({"contactMethod": "phone", "phone": "1", "address": {"street": "s", "city": "c"}}),
            ),
            Want::Result(json!(35), ran),
        ),
        case(
            "T14",
            "contactMethod phone without a phone: then refuses",
            with(json!({"contactMethod": "phone", "email": "ada@example.org"})),
            Want::Result(json!(35), refused),
        ),
        case(
            "T14",
            "no arguments: anyOf of required phone or email refuses",
            line(
                json!(35),
                "tools/call",
                json!({"_meta": meta(), "name": TOOL}),
            ),
            Want::Result(json!(35), refused),
        ),
        case(
            "T14",
            "an address city that is not a string ($ref into $defs)",
            with(json!({"email": "e", "address": {"city": 7}})),
            Want::Result(json!(35), refused),
        ),
        case(
            "T14",
            "a member the schema does not list (additionalProperties false)",
            with(json!({"email": "e", "fax": "f"})),
            Want::Result(json!(35), refused),
        ),
        case(
            "T14",
            "a contactMethod outside its enum",
            with(json!({"email": "e", "contactMethod": "fax"})),
            Want::Result(json!(35), refused),
        ),
    ]
}
