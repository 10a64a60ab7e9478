//! The model of the catalog beside the tools (issue 32): rows R1 to R7
//! (resources), P1 to P10 (prompts) and C1 to C5 (completion), and the
//! capabilities of D1. It states each rule again, from the configuration's
//! data alone (never the server's decoders or decisions): which methods
//! are offered, which URIs name a resource, which orders the user may read,
//! what a prompt needs and what a completion suggests.
//!
//! [`method`] predicts the reply to one of the catalog's methods;
//! [`check_result`] holds a result to it, value by value (the member order
//! is [`super::canonical`]'s).

use std::collections::BTreeMap;

use mcp_reference::Config;
use mcp_reference::catalog::ContentPrompt;
use serde_json::{Map, Value, json};

use super::expect::{Body, Era, Expect, Reply};
use super::tree::Json;

/// The tones of `reply_to_customer`, the default first, in the order
/// completion lists them.
pub const TONES: [&str; 3] = ["friendly", "formal", "brief"];
/// The prompt that takes an order.
pub const REPLY: &str = "reply_to_customer";
/// The prompt that embeds the returns policy.
pub const RETURNS: &str = "returns_help";
/// The returns policy's URI.
pub const RETURNS_URI: &str = "book-orders://policies/returns";

/// Whether the configuration offers resources (static ones or the
/// template).
pub fn offers_resources(config: &Config) -> bool {
    let c = config.catalog();
    !c.resources.is_empty() || c.order_template.is_some() || !c.content_templates.is_empty()
}

/// Whether it offers prompts.
pub fn offers_prompts(config: &Config) -> bool {
    !config.catalog().prompts.is_empty()
        || !config.catalog().content_prompts.is_empty()
        || config.input().is_some_and(|i| !i.prompts.is_empty())
}

/// Whether it offers `prompt`, coded or configured.
fn offers_prompt(config: &Config, prompt: &str) -> bool {
    config.catalog().prompts.iter().any(|p| p == prompt) || content_prompt(config, prompt).is_some()
}

/// The configured prompt `name` (P11 to P13, C6).
fn content_prompt<'c>(config: &'c Config, name: &str) -> Option<&'c ContentPrompt> {
    config
        .catalog()
        .content_prompts
        .iter()
        .find(|p| p.name == name)
}

/// Whether it offers completion: something to complete (the template,
/// `reply_to_customer`, or a configured prompt with an argument).
pub fn offers_completion(config: &Config) -> bool {
    config.catalog().order_template.is_some()
        || config.catalog().prompts.iter().any(|p| p == REPLY)
        || config
            .catalog()
            .content_prompts
            .iter()
            .any(|p| !p.arguments.is_empty())
}

/// Whether `method` is one of the catalog's, offered by `config`.
pub fn serves(config: &Config, method: &str) -> bool {
    match method {
        "resources/list" | "resources/templates/list" | "resources/read" => {
            offers_resources(config)
        }
        "prompts/list" | "prompts/get" => offers_prompts(config),
        "completion/complete" => offers_completion(config),
        _ => false,
    }
}

/// `capabilities` of `server/discover` (D1).
pub fn capabilities(config: &Config) -> Value {
    let mut caps = Map::new();
    // LOG-03: a server that may emit log messages (T13) declares logging.
    if config
        .catalog()
        .content_tools
        .iter()
        .any(|t| !t.log.is_empty())
    {
        caps.insert("logging".into(), json!({}));
    }
    if offers_completion(config) {
        caps.insert("completions".into(), json!({}));
    }
    if offers_prompts(config) {
        caps.insert("prompts".into(), json!({}));
    }
    if offers_resources(config) {
        caps.insert("resources".into(), json!({}));
    }
    caps.insert("tools".into(), json!({}));
    Value::Object(caps)
}

/// RFC 6570 simple expansion: UTF-8 bytes outside `A-Za-z0-9-._~`
/// percent-encoded, upper-case hex.
pub fn expand(value: &str) -> String {
    value
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// The order ids the user may read, in id order.
pub fn own_ids(config: &Config) -> Vec<String> {
    let mut ids: Vec<String> = config
        .orders()
        .iter()
        .filter(|o| o.owner == config.user())
        .map(|o| o.order_id.clone())
        .collect();
    ids.sort();
    ids
}

/// The user's own order ids that start with `prefix`, in id order: what
/// a completion of `order_id` suggests (the first 100) and counts (C1).
pub fn own_matches(config: &Config, prefix: &str) -> Vec<String> {
    own_ids(config)
        .into_iter()
        .filter(|i| i.starts_with(prefix))
        .collect()
}

/// The order ids the user may not read (another user's), in id order:
/// what no completion may suggest or count (C1, COMP-08).
pub fn hidden_ids(config: &Config) -> Vec<String> {
    let own = own_ids(config);
    let mut ids: Vec<String> = config
        .orders()
        .iter()
        .map(|o| o.order_id.clone())
        .filter(|id| !own.contains(id))
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// The URI of order `id` through the template, if there is one.
pub fn order_uri(config: &Config, id: &str) -> Option<String> {
    let t = config.catalog().order_template.as_ref()?;
    let prefix = t.uri_template.strip_suffix("{order_id}")?;
    Some(format!("{prefix}{}", expand(id)))
}

/// The predicted reply to a catalog method the configuration offers
/// (`params` an object; `_meta` already passed).
pub fn method(config: &Config, id: &str, method: &str, params: &Json) -> Expect {
    let result = |row: &'static str, body: Body| {
        Expect::new(
            row,
            Reply::Result {
                id: id.to_string(),
                era: Era::Modern,
                body,
            },
        )
    };
    let fixed = |row: &'static str| Expect::fixed(row, Some(id.to_string()));
    let cursor = params.get("cursor").is_some();
    match method {
        "resources/list" if cursor => fixed("R3"),
        "resources/list" => result("R1", Body::ResourcesList),
        "resources/templates/list" if cursor => fixed("R3"),
        "resources/templates/list" => result("R2", Body::TemplatesList),
        "resources/read" => read(config, params, result, fixed),
        "prompts/list" if cursor => fixed("P2"),
        "prompts/list" => result("P1", Body::PromptsList),
        "prompts/get" => super::input::generic(config, id, method, params)
            .unwrap_or_else(|| get(config, params, result, fixed)),
        _ => complete(config, params, result, fixed),
    }
}

fn read(
    config: &Config,
    params: &Json,
    result: impl Fn(&'static str, Body) -> Expect,
    fixed: impl Fn(&'static str) -> Expect,
) -> Expect {
    let Some(uri) = params.get("uri").and_then(Json::as_str) else {
        return fixed("R7");
    };
    if config.catalog().resources.iter().any(|r| r.uri == uri) {
        return result("R4", Body::ReadResource(uri.to_string()));
    }
    let own = own_ids(config)
        .into_iter()
        .find(|id| order_uri(config, id).as_deref() == Some(uri));
    // R8: the first configured template (in uriTemplate order) whose
    // PREFIX{name}SUFFIX the uri fills with unreserved characters.
    let templated = config.catalog().content_templates.iter().find_map(|t| {
        let (prefix, rest) = t.uri_template.split_once('{')?;
        let (_, suffix) = rest.split_once('}')?;
        let value = uri.strip_prefix(prefix)?.strip_suffix(suffix)?;
        let ok = !value.is_empty()
            && value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c));
        ok.then(|| (t.uri_template.clone(), value.to_string()))
    });
    match (own, templated) {
        (Some(id), _) => result("R5", Body::ReadOrder(id)),
        (None, Some((template, value))) => {
            result("R8", Body::ReadTemplate(template, value, uri.to_string()))
        }
        (None, None) => {
            // R6: the client's own uri in `data.uri`, nothing else of it.
            let mut expect = fixed("R6");
            if let Reply::Error { data, .. } = &mut expect.reply {
                *data = Some(serde_json::json!({ "uri": uri }));
            }
            expect
        }
    }
}

fn get(
    config: &Config,
    params: &Json,
    result: impl Fn(&'static str, Body) -> Expect,
    fixed: impl Fn(&'static str) -> Expect,
) -> Expect {
    let Some(name) = params.get("name").and_then(Json::as_str) else {
        return fixed("P6");
    };
    let empty = Json::Obj(Vec::new());
    let args = match params.get("arguments") {
        None => &empty,
        Some(a @ Json::Obj(members)) if members.iter().all(|(_, _, v)| v.as_str().is_some()) => a,
        Some(_) => return fixed("P8"),
    };
    if !offers_prompt(config, name) {
        return fixed("P7");
    }
    if let Some(prompt) = content_prompt(config, name) {
        // P12: a required argument missing; P13: a value that makes an
        // embedded uri no URI; P11: the filled messages.
        let given = |n: &str| args.get(n).and_then(Json::as_str).map(str::to_owned);
        if prompt
            .arguments
            .iter()
            .any(|a| a.required && given(&a.name).is_none())
        {
            return fixed("P12");
        }
        let values: BTreeMap<String, String> = prompt
            .arguments
            .iter()
            .map(|a| (a.name.clone(), given(&a.name).unwrap_or_default()))
            .collect();
        if filled_messages(prompt, &values).is_none() {
            return fixed("P13");
        }
        return result("P11", Body::ContentPrompt(prompt.name.clone(), values));
    }
    if name == RETURNS {
        return result("P4", Body::Prompt(RETURNS.into(), None, ""));
    }
    let Some(order_id) = args.get("order_id").and_then(Json::as_str) else {
        return fixed("P9");
    };
    let tone = match args.get("tone").and_then(Json::as_str) {
        None => TONES[0],
        Some(t) => match TONES.iter().find(|x| **x == t) {
            Some(t) => t,
            None => return fixed("P10"),
        },
    };
    if own_ids(config).iter().any(|id| id == order_id) {
        result(
            "P3",
            Body::Prompt(REPLY.into(), Some(order_id.into()), tone),
        )
    } else {
        fixed("P5")
    }
}

fn complete(
    config: &Config,
    params: &Json,
    result: impl Fn(&'static str, Body) -> Expect,
    fixed: impl Fn(&'static str) -> Expect,
) -> Expect {
    let (Some(r @ Json::Obj(_)), Some(a @ Json::Obj(_))) =
        (params.get("ref"), params.get("argument"))
    else {
        return fixed("C3");
    };
    let s = |o: &Json, k: &str| o.get(k).and_then(Json::as_str).map(str::to_owned);
    let (Some(name), Some(value)) = (s(a, "name"), s(a, "value")) else {
        return fixed("C3");
    };
    let arguments: &[&str] = match s(r, "type").as_deref() {
        Some("ref/prompt") => match s(r, "name") {
            None => return fixed("C3"),
            Some(p) if content_prompt(config, &p).is_some() => {
                // C6: a configured prompt's argument: its completions that
                // start with the typed value.
                let prompt = content_prompt(config, &p);
                let argument = prompt.and_then(|p| p.arguments.iter().find(|a| a.name == name));
                let Some(argument) = argument else {
                    return fixed("C5");
                };
                let matches: Vec<String> = argument
                    .completions
                    .iter()
                    .filter(|v| v.starts_with(&value))
                    .cloned()
                    .collect();
                let total = matches.len();
                return result(
                    "C6",
                    Body::Completion(matches.into_iter().take(100).collect(), total),
                );
            }
            Some(p) if p == REPLY && offers_prompt(config, REPLY) => &["order_id", "tone"],
            Some(_) => return fixed("C4"),
        },
        Some("ref/resource") => match s(r, "uri") {
            None => return fixed("C3"),
            Some(u)
                if config
                    .catalog()
                    .order_template
                    .as_ref()
                    .is_some_and(|t| t.uri_template == u) =>
            {
                &["order_id"]
            }
            Some(_) => return fixed("C4"),
        },
        _ => return fixed("C3"),
    };
    if !arguments.contains(&name.as_str()) {
        return fixed("C5");
    }
    let (row, matches): (&'static str, Vec<String>) = if name == "order_id" {
        ("C1", own_matches(config, &value))
    } else {
        let t = TONES.iter().filter(|t| t.starts_with(&value));
        ("C2", t.map(|t| t.to_string()).collect())
    };
    let total = matches.len();
    let values = matches.into_iter().take(100).collect();
    result(row, Body::Completion(values, total))
}

/// The rendering of an order snapshot: `get_order`'s structured output,
/// members in its `outputSchema` order, compact.
pub fn snapshot_text(config: &Config, id: &str) -> Option<String> {
    let o = config.orders().iter().find(|o| o.order_id == id)?;
    let s = |v: &str| serde_json::to_string(v).unwrap_or_default();
    Some(format!(
        "{{\"order_id\":{},\"status\":{},\"as_of\":{},\"source_version\":{}}}",
        s(&o.order_id),
        s(&o.status),
        s(&o.as_of),
        s(&o.source_version)
    ))
}

/// The contents item of a static resource.
fn static_contents(r: &mcp_reference::catalog::Resource) -> Value {
    let mut m = Map::new();
    m.insert("uri".into(), json!(r.uri));
    if let Some(t) = &r.mime_type {
        m.insert("mimeType".into(), json!(t));
    }
    if let Some(t) = &r.text {
        m.insert("text".into(), json!(t));
    }
    if let Some(b) = &r.blob {
        m.insert("blob".into(), json!(b));
    }
    Value::Object(m)
}

/// The contents item of one of the user's orders.
fn order_contents(config: &Config, id: &str) -> Option<Value> {
    Some(json!({
        "uri": order_uri(config, id)?,
        "mimeType": "application/json",
        "text": snapshot_text(config, id)?,
    }))
}

fn hints(want: &mut Map<String, Value>, ttl: u64, scope: &str) {
    want.insert("ttlMs".into(), json!(ttl));
    want.insert("cacheScope".into(), json!(scope));
}

/// Holds a catalog result to the prediction. `want` holds the members
/// every result of its era carries; `Ok(None)`: not a catalog body.
pub fn check_result(
    config: &Config,
    body: &Body,
    mut want: Map<String, Value>,
    result: &Map<String, Value>,
) -> Option<Result<(), String>> {
    let c = config.catalog();
    let public = mcp_reference::CATALOG_CACHE;
    let private = mcp_reference::ORDER_CACHE;
    match body {
        Body::ResourcesList => {
            let list: Vec<Value> = c
                .resources
                .iter()
                .map(|r| serde_json::to_value(r).unwrap_or_default())
                .map(|mut v| {
                    if let Some(m) = v.as_object_mut() {
                        m.remove("text");
                        m.remove("blob");
                    }
                    v
                })
                .collect();
            want.insert("resources".into(), json!(list));
            hints(&mut want, public.ttl_ms, "public");
        }
        Body::TemplatesList => {
            let list: Vec<Value> = c
                .order_template
                .iter()
                .map(|t| serde_json::to_value(t).unwrap_or_default())
                .chain(c.content_templates.iter().map(|t| {
                    let mut v = serde_json::to_value(t).unwrap_or_default();
                    if let Some(m) = v.as_object_mut() {
                        m.remove("text");
                    }
                    v
                }))
                .collect();
            want.insert("resourceTemplates".into(), json!(list));
            hints(&mut want, public.ttl_ms, "public");
        }
        Body::ReadTemplate(template, value, uri) => {
            let t = c
                .content_templates
                .iter()
                .find(|t| &t.uri_template == template)?;
            let (_, name, _) = t.parts()?;
            let text = t.text.replace(&format!("{{{{{name}}}}}"), value);
            want.insert(
                "contents".into(),
                json!([{ "uri": uri, "mimeType": t.mime_type, "text": text }]),
            );
            hints(&mut want, public.ttl_ms, "public");
        }
        Body::ReadResource(uri) => {
            let r = c.resources.iter().find(|r| &r.uri == uri)?;
            want.insert("contents".into(), json!([static_contents(r)]));
            hints(&mut want, public.ttl_ms, "public");
        }
        Body::ReadOrder(id) => {
            want.insert("contents".into(), json!([order_contents(config, id)?]));
            hints(&mut want, private.ttl_ms, "private");
        }
        Body::PromptsList => return Some(check_prompts_list(config, want, result)),
        Body::ContentPrompt(name, values) => {
            let prompt = content_prompt(config, name)?;
            want.insert("description".into(), json!(prompt.description));
            want.insert("messages".into(), json!(filled_messages(prompt, values)?));
        }
        Body::Prompt(name, order, tone) => {
            return Some(check_prompt(
                config,
                name,
                order.as_deref(),
                tone,
                want,
                result,
            ));
        }
        Body::Completion(values, total) => {
            want.insert(
                "completion".into(),
                json!({ "values": values, "total": total, "hasMore": *total > values.len() }),
            );
        }
        _ => return None,
    }
    Some(if *result == want {
        Ok(())
    } else {
        Err(format!("expected the result {}", Value::Object(want)))
    })
}

/// P1: the prompts in name order, each with its arguments (names and
/// `required` exactly; titles and descriptions any strings).
fn check_prompts_list(
    config: &Config,
    mut want: Map<String, Value>,
    result: &Map<String, Value>,
) -> Result<(), String> {
    let got = result.get("prompts").and_then(Value::as_array);
    let inputs = config
        .input()
        .map(|i| i.prompts.as_slice())
        .unwrap_or_default();
    let mut names: Vec<&str> = config
        .catalog()
        .prompts
        .iter()
        .map(String::as_str)
        .chain(inputs.iter().map(|p| p.name.as_str()))
        .collect();
    names.sort();
    let mut list = Vec::new();
    for name in &names {
        // I2: an input prompt is listed as configured (module `input`).
        if let Some(p) = inputs.iter().find(|p| p.name == *name) {
            list.push(super::input::prompt_entry(p));
            continue;
        }
        // Found by name: the configured prompts sort in among them.
        let g = got.and_then(|g| g.iter().find(|p| p.get("name") == Some(&json!(name))));
        let text = |k: &str| g.and_then(|g| g.get(k)).filter(|v| v.is_string()).cloned();
        let mut p = Map::new();
        p.insert("name".into(), json!(name));
        p.insert(
            "title".into(),
            text("title").ok_or("a prompt needs a title")?,
        );
        p.insert(
            "description".into(),
            text("description").ok_or("a prompt needs a description")?,
        );
        if *name == REPLY {
            let args = g.and_then(|g| g.get("arguments")).and_then(Value::as_array);
            let mut a = Vec::new();
            for (j, (arg, required)) in [("order_id", true), ("tone", false)].iter().enumerate() {
                let d = args
                    .and_then(|x| x.get(j))
                    .and_then(|x| x.get("description"))
                    .filter(|v| v.is_string())
                    .cloned()
                    .ok_or("an argument needs a description")?;
                a.push(json!({ "name": arg, "description": d, "required": required }));
            }
            p.insert("arguments".into(), json!(a));
        }
        list.push(Value::Object(p));
    }
    // The configured prompts, as configured (P1, P11).
    for p in &config.catalog().content_prompts {
        let mut d = Map::new();
        d.insert("name".into(), json!(p.name));
        if let Some(t) = &p.title {
            d.insert("title".into(), json!(t));
        }
        d.insert("description".into(), json!(p.description));
        if !p.arguments.is_empty() {
            let arguments = p.arguments.iter().map(|a| {
                let mut m = Map::new();
                m.insert("name".into(), json!(a.name));
                if let Some(x) = &a.description {
                    m.insert("description".into(), json!(x));
                }
                m.insert("required".into(), json!(a.required));
                Value::Object(m)
            });
            d.insert("arguments".into(), Value::Array(arguments.collect()));
        }
        list.push(Value::Object(d));
    }
    list.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    want.insert("prompts".into(), json!(list));
    let public = mcp_reference::CATALOG_CACHE;
    hints(&mut want, public.ttl_ms, "public");
    if *result == want {
        Ok(())
    } else {
        Err(format!("expected the result {}", Value::Object(want)))
    }
}

/// P3, P4: a description, an instruction (naming the tone for
/// `reply_to_customer`), then the resource embedded.
fn check_prompt(
    config: &Config,
    name: &str,
    order: Option<&str>,
    tone: &str,
    mut want: Map<String, Value>,
    result: &Map<String, Value>,
) -> Result<(), String> {
    let embedded = match order {
        Some(id) => order_contents(config, id).ok_or("no such order")?,
        None => {
            let c = config.catalog();
            let r = c.resources.iter().find(|r| r.uri == RETURNS_URI);
            static_contents(r.ok_or("no returns policy")?)
        }
    };
    let text = result
        .get("messages")
        .and_then(|m| m.get(0))
        .and_then(|m| m.pointer("/content/text"))
        .and_then(Value::as_str)
        .ok_or("the first message needs a text block")?;
    if name == REPLY && !text.contains(tone) {
        return Err(format!("the instruction should name the tone {tone}"));
    }
    let description = result
        .get("description")
        .filter(|d| d.is_string())
        .cloned()
        .ok_or("a prompt result needs a description")?;
    want.insert("description".into(), description);
    want.insert(
        "messages".into(),
        json!([
            { "role": "user", "content": { "type": "text", "text": text } },
            { "role": "user", "content": { "type": "resource", "resource": embedded } },
        ]),
    );
    if *result == want {
        Ok(())
    } else {
        Err(format!("expected the result {}", Value::Object(want)))
    }
}

/// The messages of configured prompt `prompt` for argument `values`
/// (P11): every `{{name}}` in a text, or an embedded resource's uri or
/// text, replaced by its value, left to right, the replaced text never
/// read again; `None` when a filled embedded uri is no URI (P13).
pub fn filled_messages(
    prompt: &ContentPrompt,
    values: &BTreeMap<String, String>,
) -> Option<Vec<Value>> {
    fn sub(template: &str, values: &BTreeMap<String, String>) -> String {
        let mut out = String::new();
        let mut rest = template;
        while let Some((before, after)) = rest.split_once("{{") {
            out.push_str(before);
            let Some((name, tail)) = after.split_once("}}") else {
                out.push_str("{{");
                rest = after;
                continue;
            };
            out.push_str(values.get(name).map_or("", String::as_str));
            rest = tail;
        }
        out.push_str(rest);
        out
    }
    let mut messages = Vec::new();
    for m in &prompt.messages {
        let mut content = serde_json::to_value(&m.content).ok()?;
        for pointer in ["/text", "/resource/uri", "/resource/text"] {
            if let Some(v) = content.pointer_mut(pointer)
                && let Some(t) = v.as_str()
            {
                *v = json!(sub(t, values));
            }
        }
        if let Some(uri) = content.pointer("/resource/uri").and_then(Value::as_str)
            && !mcp_reference::catalog::is_uri(uri)
        {
            return None;
        }
        messages.push(json!({ "role": m.role.as_str(), "content": content }));
    }
    Some(messages)
}
