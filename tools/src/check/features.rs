//! The checks of the three other kinds of capability a server may offer
//! besides tools: resources, prompts and completion. Each runs only when
//! `server/discover` declares its capability (`resources`, `prompts`,
//! `completions`); a server that declares none is never failed for them:
//! the checks are skipped, saying so.
//!
//! What is judged holds for any server offering the capability: that the
//! list methods answer with their list and caching hints, that a list does
//! not change with the requests that came before it, that an unknown
//! resource is `-32602` (never `-32002`, never an empty `contents`), that
//! an unknown prompt or a missing required argument is `-32602`, that a
//! completion holds at most 100 values. Three checks need the book-orders
//! data (whose order is whose) and run only against the book-orders
//! catalog (its order template and `reply_to_customer`): that a completion
//! neither suggests nor counts another user's order (`MUST`: given the
//! data, that is the disclosure COMP-08 forbids), and that another user's
//! order reads and completes exactly as one that does not exist
//! (`TEXTBOOK`, DEC12).
//!
//! Spec: 2026-07-28 `server/resources.mdx`, `server/prompts.mdx`,
//! `server/utilities/completion.mdx`, `server/utilities/caching.mdx`; each
//! check's statement is in [`super::catalog`].

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value, json};

use mcp_reference::Config;
use mcp_reference_testkit::model;

use super::ctx::{Ctx, Results, fail, skip};
use super::report::Outcome;
use super::wire::{self, Reply, cache_hint_problems};

/// A URI no server names: the scheme is this checker's own.
const UNKNOWN_URI: &str = "mcp-reference-check://no-such-resource/0";
/// A prompt name no server offers.
const UNKNOWN_PROMPT: &str = "mcp-reference-check-no-such-prompt";
/// At most this many resources and completion arguments are tried.
const TRIED: usize = 8;

/// The book-orders order template and prompt the `TEXTBOOK` checks need.
const ORDER_TEMPLATE: &str = "book-orders://orders/{order_id}";
const ORDER_PROMPT: &str = "reply_to_customer";
const ORDER_ARGUMENT: &str = "order_id";
/// An order id the book-orders fixtures do not have.
const NO_SUCH_ORDER: &str = "Z-999";

fn params_with(extra: Value) -> Value {
    let mut params = wire::params();
    if let (Some(p), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            p.insert(k.clone(), v.clone());
        }
    }
    params
}

/// One request on the shared process: its line and reply (or the outcome
/// that says why there is none to judge).
struct Asked {
    line: Vec<u8>,
    reply: Result<Reply, Outcome>,
}

fn ask(cx: &mut Ctx, id: &str, method: &str, extra: Value) -> Asked {
    let line = wire::request(&wire::string_id(id), method, &params_with(extra));
    let reply = cx
        .ask(&line, Some(method))
        .map_err(|e| cx.no_reply(&e, &line));
    Asked { line, reply }
}

/// A list result: the array under `key`, with its caching hints checked.
fn list(asked: &Asked, method: &str, key: &str) -> (Outcome, Option<Vec<Value>>) {
    let reply = match &asked.reply {
        Err(outcome) => return (outcome.clone(), None),
        Ok(reply) => reply,
    };
    let Some(result) = reply.result().filter(|r| r.is_object()) else {
        return (
            fail(
                format!("{method} got {}, not a result object", reply.gist()),
                &asked.line,
                Some(reply),
            ),
            None,
        );
    };
    let items = result.get(key).and_then(Value::as_array).cloned();
    let mut problems = cache_hint_problems(result);
    if items.is_none() {
        problems.insert(0, format!("{key} is missing or not an array"));
    }
    let outcome = if problems.is_empty() {
        Outcome::Pass
    } else {
        fail(problems.join("; "), &asked.line, Some(reply))
    };
    (outcome, items)
}

/// Whether a second list equals the first.
fn same_list(first: &Option<Vec<Value>>, again: &Asked, method: &str, key: &str) -> Outcome {
    let Some(first) = first else {
        return skip(&format!(
            "the first {method} gave no {key} array to compare with"
        ));
    };
    match &again.reply {
        Err(outcome) => outcome.clone(),
        Ok(reply) => match reply.result().and_then(|r| r.get(key)) {
            Some(items) if items == &Value::Array(first.clone()) => Outcome::Pass,
            _ => fail(
                format!(
                    "{method} after other requests gave other {key} than the first {method}: \
                     the list varies with earlier requests"
                ),
                &again.line,
                Some(reply),
            ),
        },
    }
}

/// What `resources/read` of a listed resource must hold: a `contents`
/// array of items with a string `uri` and a string `text` or a valid Base64
/// `blob`, and caching hints. `None`: it does.
fn read_problems(result: &Value) -> Option<String> {
    let mut problems = cache_hint_problems(result);
    match result.get("contents").and_then(Value::as_array) {
        None => problems.insert(0, "contents is missing or not an array".into()),
        Some(items) => {
            for item in items {
                if !item.get("uri").is_some_and(Value::is_string) {
                    problems.push("a content has no string uri".into());
                }
                match (item.get("text"), item.get("blob")) {
                    (Some(Value::String(_)), None) => {}
                    (None, Some(Value::String(blob))) => {
                        if STANDARD.decode(blob).is_err() {
                            problems.push("a blob is not valid Base64".into());
                        }
                    }
                    _ => problems.push("a content has neither one string text nor one blob".into()),
                }
            }
        }
    }
    (!problems.is_empty()).then(|| problems.join("; "))
}

/// Every check of this module, by capability.
pub fn features(cx: &mut Ctx) -> Results {
    let caps = cx.facts.capabilities.clone();
    let declared = |name: &str| caps.as_ref().map(|c| c.contains_key(name));
    let mut results = Vec::new();
    let mut again: Vec<Later> = Vec::new();
    match declared("resources") {
        Some(true) => {
            let (now, later) = resources(cx);
            results.extend(now);
            again.push(later);
        }
        other => results.extend(skipped(RESOURCE_CHECKS, "resources", other)),
    }
    match declared("prompts") {
        Some(true) => {
            let (now, later) = prompts(cx);
            results.extend(now);
            again.push(later);
        }
        other => results.extend(skipped(PROMPT_CHECKS, "prompts", other)),
    }
    match declared("completions") {
        Some(true) => results.extend(completion(cx)),
        other => results.extend(skipped(COMPLETION_CHECKS, "completions", other)),
    }
    // The lists again, after every request above.
    for later in again {
        results.extend(later(cx));
    }
    results
}

const RESOURCE_CHECKS: &[&str] = &[
    "resources.list",
    "resources.list-stable",
    "resources.templates-list",
    "resources.read",
    "resources.read-unknown",
    "resources.read-unknown-not-empty",
    "resources.order-not-yours",
];
const PROMPT_CHECKS: &[&str] = &[
    "prompts.list",
    "prompts.list-stable",
    "prompts.get-unknown",
    "prompts.get-missing-argument",
];
const COMPLETION_CHECKS: &[&str] = &[
    "completion.values",
    "completion.unknown-prompt",
    "completion.own-ids-only",
    "completion.foreign-as-none",
];

fn skipped(ids: &[&'static str], capability: &str, declared: Option<bool>) -> Results {
    let why = match declared {
        Some(_) => format!("server/discover declares no {capability} capability"),
        None => format!("server/discover gave no capabilities, so {capability} cannot be told"),
    };
    ids.iter().map(|id| (*id, skip(&why))).collect()
}

type Later = Box<dyn FnOnce(&mut Ctx) -> Results>;

/// The list `method` asked for again, later, and `check`: whether its
/// `key` array is still the first one, `listed`.
fn list_again(
    check: &'static str,
    method: &'static str,
    key: &'static str,
    listed: Option<Vec<Value>>,
) -> Later {
    Box::new(move |cx: &mut Ctx| {
        let again = ask(cx, &format!("{method}-again"), method, json!({}));
        vec![(check, same_list(&listed, &again, method, key))]
    })
}

fn resources(cx: &mut Ctx) -> (Results, Later) {
    let first = ask(cx, "resources-1", "resources/list", json!({}));
    let (list_outcome, listed) = list(&first, "resources/list", "resources");
    let templates = ask(cx, "templates-1", "resources/templates/list", json!({}));
    let (templates_outcome, template_list) = match &templates.reply {
        Ok(reply) if reply.result().is_none() => (
            skip(&format!(
                "resources/templates/list got {}: the server offers no resource templates",
                reply.gist()
            )),
            None,
        ),
        _ => list(&templates, "resources/templates/list", "resourceTemplates"),
    };
    let uris: Vec<String> = listed
        .iter()
        .flatten()
        .filter_map(|r| r.get("uri").and_then(Value::as_str).map(str::to_owned))
        .take(TRIED)
        .collect();
    let mut read_outcome = if uris.is_empty() {
        skip("resources/list named no resource to read")
    } else {
        Outcome::Pass
    };
    for (i, uri) in uris.iter().enumerate() {
        let asked = ask(
            cx,
            &format!("read-{i}"),
            "resources/read",
            json!({"uri": uri}),
        );
        let outcome = match &asked.reply {
            Err(outcome) => outcome.clone(),
            Ok(reply) => match reply.result().filter(|r| r.is_object()) {
                None => fail(
                    format!("resources/read of a listed resource got {}", reply.gist()),
                    &asked.line,
                    Some(reply),
                ),
                Some(result) => match read_problems(result) {
                    None => Outcome::Pass,
                    Some(why) => fail(why, &asked.line, Some(reply)),
                },
            },
        };
        if outcome != Outcome::Pass {
            read_outcome = outcome;
            break;
        }
    }
    let unknown = ask(
        cx,
        "read-unknown",
        "resources/read",
        json!({"uri": UNKNOWN_URI}),
    );
    let (code_outcome, empty_outcome) = match &unknown.reply {
        Err(outcome) => (outcome.clone(), outcome.clone()),
        Ok(reply) => {
            // R6: a resource that does not exist (docs/rows.json).
            let want = super::jsonrpc::code_level("R6").0;
            let code = match reply.error_code() {
                Some(c) if c == want => Outcome::Pass,
                Some(-32002) => fail(
                    "a resource that does not exist got -32002, the code of earlier revisions: \
                     2026-07-28 requires -32602 (clients still accept -32002, servers must not send it)",
                    &unknown.line,
                    Some(reply),
                ),
                _ => fail(
                    format!(
                        "a resource that does not exist got {}, not error {want}",
                        reply.gist()
                    ),
                    &unknown.line,
                    Some(reply),
                ),
            };
            let empty = reply
                .result()
                .and_then(|r| r.get("contents"))
                .and_then(Value::as_array)
                .is_some_and(Vec::is_empty);
            let empty = if empty {
                fail(
                    "a resource that does not exist got a result with an empty contents array",
                    &unknown.line,
                    Some(reply),
                )
            } else {
                Outcome::Pass
            };
            (code, empty)
        }
    };
    let offers_orders = template_list
        .iter()
        .flatten()
        .any(|t| t.get("uriTemplate").and_then(Value::as_str) == Some(ORDER_TEMPLATE));
    let not_yours = if offers_orders {
        order_not_yours(cx)
    } else {
        skip(&format!(
            "the book-orders order template {ORDER_TEMPLATE} is not offered"
        ))
    };
    let now = vec![
        ("resources.list", list_outcome),
        ("resources.templates-list", templates_outcome),
        ("resources.read", read_outcome),
        ("resources.read-unknown", code_outcome),
        ("resources.read-unknown-not-empty", empty_outcome),
        ("resources.order-not-yours", not_yours),
    ];
    let later = list_again(
        "resources.list-stable",
        "resources/list",
        "resources",
        listed,
    );
    (now, later)
}

/// The book-orders catalog fixture's configuration
/// (`vectors/configs/catalog.json`), whose data (which orders exist,
/// whose each is) the book-orders checks hold a server to (`None` only if
/// the committed file stopped loading, which a unit test rules out).
fn fixture() -> Option<Config> {
    super::fixture::config("catalog")
}

/// The ids of the catalog fixture's orders its user may not read: asked
/// of the model.
fn foreign_orders() -> Vec<String> {
    fixture()
        .map(|c| model::catalog::hidden_ids(&c))
        .unwrap_or_default()
}

/// How many of the fixture's user's own orders a completion of `prefix`
/// counts: asked of the model (C1).
fn own_matching(prefix: &str) -> usize {
    fixture().map_or(0, |c| model::catalog::own_matches(&c, prefix).len())
}

/// A reply without its id, for comparing two replies that must be the
/// same apart from it.
fn without_id(reply: &Reply) -> Value {
    let mut value = reply.value.clone();
    if let Some(obj) = value.as_object_mut() {
        obj.remove("id");
    }
    value
}

/// `value` with every string equal to `uri` (the client's own uri, which
/// a reply may echo in `error.data.uri`, row R6) replaced by one marker.
fn uri_masked(mut value: Value, uri: &str) -> Value {
    fn walk(v: &mut Value, uri: &str) {
        match v {
            Value::String(s) if s == uri => *s = "(the asked uri)".into(),
            Value::Array(items) => items.iter_mut().for_each(|i| walk(i, uri)),
            Value::Object(members) => members.values_mut().for_each(|m| walk(m, uri)),
            _ => {}
        }
    }
    walk(&mut value, uri);
    value
}

/// Whether the server holds the catalog fixture's data, as far as a
/// client can see it: each of the fixture user's own orders, read through
/// the order template, gives the fixture's snapshot (the same JSON value).
/// `Err` says why not: whose order is whose is the fixture's data, so on a
/// server with other data no read of a "foreign" id shows that another
/// user's order was read (it may not exist there), and the book-orders
/// checks are not run rather than passed. That the foreign orders exist
/// on the server cannot be seen (they must read as nonexistent ones): it
/// is what the fixture says.
fn holds_fixture_orders(cx: &mut Ctx) -> Result<(), String> {
    let config = fixture().ok_or("the catalog fixture does not load")?;
    let own = model::catalog::own_ids(&config);
    if own.is_empty() {
        return Err("the catalog fixture gives its user no order".into());
    }
    for (i, id) in own.iter().enumerate() {
        let uri = model::catalog::order_uri(&config, id).unwrap_or_default();
        let asked = ask(
            cx,
            &format!("order-own-{i}"),
            "resources/read",
            json!({"uri": uri}),
        );
        let want = model::catalog::snapshot_text(&config, id)
            .and_then(|t| serde_json::from_str::<Value>(&t).ok());
        let got = asked
            .reply
            .as_ref()
            .ok()
            .and_then(Reply::result)
            .and_then(|r| r.pointer("/contents/0/text"))
            .and_then(Value::as_str)
            .and_then(|t| serde_json::from_str::<Value>(t).ok());
        if want.is_none() || got != want {
            let shown = match &asked.reply {
                Ok(reply) => wire::show(&reply.line, 300),
                Err(_) => "no reply".into(),
            };
            return Err(format!(
                "the server offers {ORDER_TEMPLATE}, but its user's order {id} does not read as \
                 the catalog fixture's (vectors/configs/catalog.json) does ({shown}): whose order \
                 is whose is that fixture's data, so no other user's order was shown to be read. \
                 Run the server with that configuration to run this check"
            ));
        }
    }
    Ok(())
}

/// `resources.order-not-yours`: another user's order through the template
/// gets the same reply, apart from the id and the asked uri echoed (R6's
/// `data.uri`, the client's own input), as an order that does not exist;
/// not run on a server without the fixture's data ([`holds_fixture_orders`]).
fn order_not_yours(cx: &mut Ctx) -> Outcome {
    if let Err(why) = holds_fixture_orders(cx) {
        return Outcome::NotRun(why);
    }
    let uri = |id: &str| ORDER_TEMPLATE.replace("{order_id}", id);
    let none = ask(
        cx,
        "order-none",
        "resources/read",
        json!({"uri": uri(NO_SUCH_ORDER)}),
    );
    let none_reply = match &none.reply {
        Err(outcome) => return outcome.clone(),
        Ok(reply) => reply.clone(),
    };
    for (i, id) in foreign_orders().iter().enumerate() {
        let asked = ask(
            cx,
            &format!("order-foreign-{i}"),
            "resources/read",
            json!({"uri": uri(id)}),
        );
        match &asked.reply {
            Err(outcome) => return outcome.clone(),
            Ok(reply)
                if uri_masked(without_id(reply), &uri(id))
                    != uri_masked(without_id(&none_reply), &uri(NO_SUCH_ORDER)) =>
            {
                return fail(
                    format!(
                        "another user's order ({id}) got another reply than an order that does not \
                         exist ({NO_SUCH_ORDER}), which got: {}",
                        wire::show(&none_reply.line, 300)
                    ),
                    &asked.line,
                    Some(reply),
                );
            }
            Ok(_) => {}
        }
    }
    Outcome::Pass
}

fn prompts(cx: &mut Ctx) -> (Results, Later) {
    let first = ask(cx, "prompts-1", "prompts/list", json!({}));
    let (list_outcome, listed) = list(&first, "prompts/list", "prompts");
    let names: Vec<&str> = listed
        .iter()
        .flatten()
        .filter_map(|p| p.get("name").and_then(Value::as_str))
        .collect();
    let mut unknown_name = UNKNOWN_PROMPT.to_string();
    while names.contains(&unknown_name.as_str()) {
        unknown_name.push('-');
    }
    let unknown = ask(
        cx,
        "prompt-unknown",
        "prompts/get",
        json!({"name": unknown_name}),
    );
    let unknown_outcome = expect_invalid_params(&unknown, "prompts/get of a prompt not listed");
    // A listed prompt with a required argument, asked for without any.
    let required = listed.iter().flatten().find(|p| {
        p.get("arguments")
            .and_then(Value::as_array)
            .is_some_and(|a| {
                a.iter()
                    .any(|arg| arg.get("required") == Some(&Value::Bool(true)))
            })
    });
    let missing_outcome = match required.and_then(|p| p.get("name")).and_then(Value::as_str) {
        None => skip("prompts/list names no prompt with a required argument"),
        Some(name) => {
            let asked = ask(
                cx,
                "prompt-missing",
                "prompts/get",
                json!({"name": name, "arguments": {}}),
            );
            expect_invalid_params(&asked, "prompts/get without a required argument")
        }
    };
    let now = vec![
        ("prompts.list", list_outcome),
        ("prompts.get-unknown", unknown_outcome),
        ("prompts.get-missing-argument", missing_outcome),
    ];
    let later = list_again("prompts.list-stable", "prompts/list", "prompts", listed);
    (now, later)
}

/// The reply is the error of invalid params: the code rows P7 (a prompt
/// not offered), P9 (a required argument missing) and C4 (completion of a
/// prompt not offered) fix, asked of docs/rows.json.
fn expect_invalid_params(asked: &Asked, what: &str) -> Outcome {
    let want = super::jsonrpc::code_level("P7").0;
    match &asked.reply {
        Err(outcome) => outcome.clone(),
        Ok(reply) if reply.error_code() == Some(want) => Outcome::Pass,
        Ok(reply) => fail(
            format!("{what} got {}, not error {want}", reply.gist()),
            &asked.line,
            Some(reply),
        ),
    }
}

/// The items of a list reply's `key` array (none when it has none).
fn items<'a>(asked: &'a Asked, key: &str) -> impl Iterator<Item = &'a Value> {
    asked
        .reply
        .as_ref()
        .ok()
        .and_then(|r| r.result())
        .and_then(|r| r.get(key))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// The references completion is tried on: each listed prompt's arguments
/// and each listed template's variables (as the lists give them, at most
/// [`TRIED`]).
fn references(cx: &mut Ctx) -> Vec<(Value, String)> {
    let mut refs = Vec::new();
    let prompts = ask(cx, "complete-prompts", "prompts/list", json!({}));
    {
        for p in items(&prompts, "prompts") {
            let Some(name) = p.get("name").and_then(Value::as_str) else {
                continue;
            };
            for arg in p
                .get("arguments")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(arg) = arg.get("name").and_then(Value::as_str) {
                    refs.push((json!({"type": "ref/prompt", "name": name}), arg.to_owned()));
                }
            }
        }
    }
    let templates = ask(
        cx,
        "complete-templates",
        "resources/templates/list",
        json!({}),
    );
    {
        for t in items(&templates, "resourceTemplates") {
            let Some(template) = t.get("uriTemplate").and_then(Value::as_str) else {
                continue;
            };
            for var in variables(template) {
                refs.push((json!({"type": "ref/resource", "uri": template}), var));
            }
        }
    }
    refs.truncate(TRIED);
    refs
}

/// The variable names of an RFC 6570 template (`{name}`, `{+name}`,
/// `{name,other}`, ...).
fn variables(template: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest.get(open..).and_then(|r| r.find('}')) else {
            break;
        };
        let inner = rest.get(open + 1..open + close).unwrap_or_default();
        let inner = inner.trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
        for name in inner.split(',') {
            let name = name.trim_end_matches('*');
            let name = name.split(':').next().unwrap_or_default();
            if !name.is_empty() {
                out.push(name.to_owned());
            }
        }
        rest = rest.get(open + close + 1..).unwrap_or_default();
    }
    out
}

fn complete(cx: &mut Ctx, id: &str, reference: &Value, argument: &str, value: &str) -> Asked {
    ask(
        cx,
        id,
        "completion/complete",
        json!({"ref": reference, "argument": {"name": argument, "value": value}}),
    )
}

fn completion(cx: &mut Ctx) -> Results {
    let refs = references(cx);
    let mut values_outcome = if refs.is_empty() {
        skip("no listed prompt argument or template variable to complete")
    } else {
        Outcome::Pass
    };
    // A listed reference answered with an error is no completion to judge:
    // completion.mdx names no reference a server must complete (it lets a
    // server offer suggestions, and its Error Handling is a SHOULD), and
    // the MUST here is the result's (at most 100 string values). Judged are
    // the references answered with a result; when every one was an error,
    // nothing was judged (skipped, never passed).
    let mut errors = 0usize;
    let mut judged = 0usize;
    for (i, (reference, argument)) in refs.iter().enumerate() {
        let asked = complete(cx, &format!("complete-{i}"), reference, argument, "");
        let outcome = match &asked.reply {
            Err(outcome) => outcome.clone(),
            Ok(reply) if reply.result().is_none() && reply.error_code().is_some() => {
                errors += 1;
                continue;
            }
            Ok(reply) => {
                judged += 1;
                let values = reply.result().and_then(|r| r.pointer("/completion/values"));
                match values.and_then(Value::as_array) {
                    None => fail(
                        format!(
                            "completion/complete got {}, not a completion with values",
                            reply.gist()
                        ),
                        &asked.line,
                        Some(reply),
                    ),
                    Some(v) if v.len() > 100 => fail(
                        format!("completion/complete gave {} values, more than 100", v.len()),
                        &asked.line,
                        Some(reply),
                    ),
                    Some(v) if !v.iter().all(Value::is_string) => fail(
                        "completion/complete gave values that are not strings",
                        &asked.line,
                        Some(reply),
                    ),
                    Some(_) => Outcome::Pass,
                }
            }
        };
        if outcome != Outcome::Pass {
            values_outcome = outcome;
            break;
        }
    }
    if values_outcome == Outcome::Pass && judged == 0 && errors > 0 {
        values_outcome = skip(&format!(
            "each of the {errors} listed prompt arguments and template variables asked was \
             answered with an error, which completion.mdx allows: no completion to judge"
        ));
    }
    let unknown = complete(
        cx,
        "complete-unknown",
        &json!({"type": "ref/prompt", "name": UNKNOWN_PROMPT}),
        "x",
        "",
    );
    let unknown_outcome =
        expect_invalid_params(&unknown, "completion/complete for a prompt not listed");
    let book: Vec<&(Value, String)> = refs
        .iter()
        .filter(|(r, a)| {
            a == ORDER_ARGUMENT
                && (r.get("name").and_then(Value::as_str) == Some(ORDER_PROMPT)
                    || r.get("uri").and_then(Value::as_str) == Some(ORDER_TEMPLATE))
        })
        .collect();
    let (own_only, as_none) = if book.is_empty() {
        let why = skip(&format!(
            "neither the book-orders prompt {ORDER_PROMPT} nor its order template {ORDER_TEMPLATE} is offered"
        ));
        (why.clone(), why)
    } else {
        own_ids_only(cx, &book)
    };
    vec![
        ("completion.values", values_outcome),
        ("completion.unknown-prompt", unknown_outcome),
        ("completion.own-ids-only", own_only),
        ("completion.foreign-as-none", as_none),
    ]
}

/// `completion.own-ids-only` (MUST, COMP-08) and
/// `completion.foreign-as-none` (TEXTBOOK): completing `order_id` from
/// nothing and from each of another user's ids neither suggests such an
/// order nor counts it (`total` at most the user's own ids that match:
/// whose order is whose is the fixture's data, and given it, a value or a
/// count that shows another user's order is the disclosure the statement
/// forbids); and a prefix of another user's order gets the same
/// completion as a prefix of no order (DEC12).
fn own_ids_only(cx: &mut Ctx, refs: &[&(Value, String)]) -> (Outcome, Outcome) {
    let foreign = foreign_orders();
    let (mut own_only, mut as_none) = (Outcome::Pass, Outcome::Pass);
    for (i, (reference, argument)) in refs.iter().enumerate() {
        let none = complete(
            cx,
            &format!("complete-none-{i}"),
            reference,
            argument,
            NO_SUCH_ORDER,
        );
        let none_reply = none.reply.as_ref().ok().cloned();
        let prefixes = std::iter::once("").chain(foreign.iter().map(String::as_str));
        for (j, prefix) in prefixes.enumerate() {
            let asked = complete(
                cx,
                &format!("complete-foreign-{i}-{j}"),
                reference,
                argument,
                prefix,
            );
            let reply = match &asked.reply {
                Err(outcome) => return (outcome.clone(), outcome.clone()),
                Ok(reply) => reply,
            };
            let completion = reply.result().and_then(|r| r.get("completion"));
            let values = completion
                .and_then(|c| c.get("values"))
                .and_then(Value::as_array);
            // From nothing, every one of the fixture user's own ids (the
            // first 100) is suggested, or the server's data is not the
            // fixture's: whose order is whose is then unknown, and neither
            // check is run.
            let suggested = |id: &String| {
                values.is_some_and(|v| v.iter().any(|s| s.as_str() == Some(id.as_str())))
            };
            let own: Vec<String> = fixture()
                .map(|c| model::catalog::own_matches(&c, ""))
                .unwrap_or_default();
            if prefix.is_empty() && (own.is_empty() || !own.iter().take(100).all(suggested)) {
                let why = Outcome::NotRun(format!(
                    "completing {argument} from nothing did not suggest every order of the catalog \
                     fixture's user ({}), so the server's data is not that fixture's \
                     (vectors/configs/catalog.json): whose order is whose is unknown, and no \
                     other user's order was shown to be withheld. Run the server with that \
                     configuration to run this check",
                    own.join(", ")
                ));
                return (why.clone(), why);
            }
            let mine = own_matching(prefix);
            let leaked = foreign.iter().find(|id| {
                values.is_some_and(|v| v.iter().any(|s| s.as_str() == Some(id.as_str())))
            });
            let total = completion.and_then(|c| c.get("total"));
            let why = match (leaked, total) {
                (Some(leaked), _) => Some(format!(
                    "completion of {argument} from {prefix:?} suggests {leaked}, another user's order"
                )),
                (None, Some(total)) if total.as_u64().is_none_or(|t| t > mine as u64) => {
                    Some(format!(
                        "completion of {argument} from {prefix:?} counts {total} orders where the user has {mine} that match: the count shows another user's orders"
                    ))
                }
                _ => None,
            };
            if let Some(why) = why
                && own_only == Outcome::Pass
            {
                own_only = fail(why, &asked.line, Some(reply));
            }
            if prefix.is_empty() || as_none != Outcome::Pass {
                continue;
            }
            as_none = match &none_reply {
                None => none.reply.clone().err().unwrap_or(Outcome::Pass),
                Some(none_reply) if without_id(reply) != without_id(none_reply) => fail(
                    format!(
                        "completing {argument} from {prefix} (another user's order) got another \
                         reply than from {NO_SUCH_ORDER} (no order), which got: {}",
                        wire::show(&none_reply.line, 300)
                    ),
                    &asked.line,
                    Some(reply),
                ),
                Some(_) => Outcome::Pass,
            };
        }
    }
    (own_only, as_none)
}

/// The capabilities object of a discover result, for [`features`].
pub(crate) fn capabilities(result: &Value) -> Option<Map<String, Value>> {
    result
        .get("capabilities")
        .and_then(Value::as_object)
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixture_has_orders_of_another_user() {
        let foreign = foreign_orders();
        assert!(foreign.contains(&"B-205".to_owned()), "{foreign:?}");
        assert!(!foreign.contains(&"A-104".to_owned()), "{foreign:?}");
        assert!(!foreign.iter().any(|id| id == NO_SUCH_ORDER));
        assert!(fixture().is_some());
        assert_eq!(own_matching(""), 2);
        assert_eq!(own_matching("A-1"), 2);
        assert_eq!(own_matching("B"), 0);
    }

    #[test]
    fn template_variables() {
        assert_eq!(variables("book-orders://orders/{order_id}"), ["order_id"]);
        assert_eq!(variables("file:///{+path}{?a,b*}"), ["path", "a", "b"]);
        assert_eq!(variables("x://{a:3}/{"), ["a"]);
        assert!(variables("x://plain").is_empty());
    }

    #[test]
    fn read_results_are_judged_by_their_contents() {
        let hints = json!({"ttlMs": 0, "cacheScope": "public"});
        let with = |contents: Value| {
            let mut r = hints.clone();
            r["contents"] = contents;
            r
        };
        assert_eq!(
            read_problems(&with(json!([{"uri": "a:b", "text": "t"}]))),
            None
        );
        assert_eq!(
            read_problems(&with(json!([{"uri": "a:b", "blob": "aGk="}]))),
            None
        );
        assert!(read_problems(&with(json!([{"uri": "a:b", "blob": "not base64!"}]))).is_some());
        assert!(read_problems(&with(json!([{"uri": "a:b"}]))).is_some());
        assert!(read_problems(&json!({"contents": []})).is_some_and(|p| p.contains("ttlMs")));
    }
}
