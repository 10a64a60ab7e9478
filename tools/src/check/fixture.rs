//! Whether a server holds the data of one of the vectors' fixtures
//! (`vectors/configs/NAME.json`, built in), as far as a client can see it:
//! the capabilities its `server/discover` declares include the fixture's,
//! its `tools/list` names exactly the fixture's tools, and each of the
//! fixture user's own orders, read with `get_order`, gives the fixture's
//! snapshot (the same JSON value). What the fixture declares, lists and
//! holds is asked of the test kit's model ([`model::catalog::capabilities`],
//! [`model::tool_names`], [`model::catalog::own_ids`],
//! [`model::catalog::snapshot_text`]) from the committed configuration;
//! nothing here decides a protocol rule.
//!
//! Whose order is whose, which tools exist and what an order holds are the
//! fixture's data: a vector recorded against it says what the reference
//! answered with that data, so on a server with other data its verdict
//! says nothing (a "forbidden" order may not exist there, a resource
//! vector meets a server without resources). `crate::vectors` asks this
//! before a fixture's vectors and reports them NOT RUN, naming the
//! configuration to serve, when a reply shows other data; the catalog
//! checks of [`super::features`] hold the catalog fixture the same way
//! (its orders read through the order template). Only a reply that shows
//! a difference counts: a probe that gets no result (an error, silence)
//! shows nothing of the data, and the vectors run.
//!
//! Spec: 2026-07-28 `server/tools.mdx` (listing and calling tools),
//! `basic/lifecycle.mdx` (`server/discover`'s capabilities); the data is
//! the fixtures' (docs/vectors.md, "Files").

use mcp_reference::Config;
use mcp_reference_testkit::model::{self, Era};
use serde_json::{Value, json};

/// Each fixture's configuration, as committed.
const CONFIGS: [(&str, &str); 8] = [
    (
        "textbook",
        include_str!("../../../vectors/configs/textbook.json"),
    ),
    ("stock", include_str!("../../../vectors/configs/stock.json")),
    (
        "short-lines",
        include_str!("../../../vectors/configs/short-lines.json"),
    ),
    (
        "legacy",
        include_str!("../../../vectors/configs/legacy.json"),
    ),
    (
        "catalog",
        include_str!("../../../vectors/configs/catalog.json"),
    ),
    (
        "conformance",
        include_str!("../../../vectors/configs/conformance.json"),
    ),
    ("http", include_str!("../../../vectors/configs/http.json")),
    (
        "http-auth",
        include_str!("../../../vectors/configs/http-auth.json"),
    ),
];

/// Fixture `name`'s configuration (`None`: no such fixture, or its
/// committed file stopped loading, which a unit test rules out).
pub(crate) fn config(name: &str) -> Option<Config> {
    let (_, text) = CONFIGS.iter().find(|(n, _)| *n == name)?;
    Config::from_json(text.as_bytes()).ok()
}

/// The file a server is started with to hold fixture `name`'s data.
pub(crate) fn file(name: &str) -> String {
    format!("vectors/configs/{name}.json")
}

/// One request of the probe: its line and its id's literal text.
pub(crate) struct Probe {
    /// The request line (no newline).
    pub(crate) line: Vec<u8>,
    /// Its id as written (`"mcp-vectors-fixture-N"`).
    pub(crate) id: String,
    /// What its reply shows.
    what: Shows,
}

enum Shows {
    Capabilities,
    Tools,
    Order(String),
}

/// A valid request of `method` with `params` (and `_meta`), id
/// `"mcp-vectors-fixture-N"`.
fn request(n: usize, method: &str, mut params: Value) -> (Vec<u8>, String) {
    let id = format!("mcp-vectors-fixture-{n}");
    if let Some(p) = params.as_object_mut() {
        p.insert(
            "_meta".into(),
            json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}
            }),
        );
    }
    let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    (line.to_string().into_bytes(), format!("\"{id}\""))
}

/// The probe's requests for `config`: `server/discover`, `tools/list`,
/// and `get_order` of each of the user's own orders.
pub(crate) fn probes(config: &Config) -> Vec<Probe> {
    let mut out = Vec::new();
    let mut push = |method: &str, params: Value, what: Shows| {
        let (line, id) = request(out.len(), method, params);
        out.push(Probe { line, id, what });
    };
    push("server/discover", json!({}), Shows::Capabilities);
    push("tools/list", json!({}), Shows::Tools);
    for order in model::catalog::own_ids(config) {
        let params = json!({"name": model::GET_ORDER, "arguments": {"order_id": order}});
        push("tools/call", params, Shows::Order(order));
    }
    out
}

/// What `reply` (the server's answer to `probe`, `None`: none came) shows
/// of the data: `Err` says how it differs from `config`'s. A reply that
/// is no result shows nothing.
pub(crate) fn judge(config: &Config, probe: &Probe, reply: Option<&Value>) -> Result<(), String> {
    let Some(result) = reply.and_then(|r| r.get("result")) else {
        return Ok(());
    };
    match &probe.what {
        Shows::Capabilities => {
            let want = model::catalog::capabilities(config);
            let want: Vec<&String> = want
                .as_object()
                .into_iter()
                .flat_map(|m| m.keys())
                .collect();
            let got: Vec<&String> = result
                .get("capabilities")
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(|m| m.keys())
                .collect();
            if want.iter().all(|k| got.contains(k)) {
                return Ok(());
            }
            Err(format!(
                "its server/discover declares the capabilities {got:?}, where the fixture's \
                 declare {want:?}"
            ))
        }
        Shows::Tools => {
            let want = model::tool_names(config, Era::Modern);
            let mut got: Vec<&str> = result
                .get("tools")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|t| t.get("name").and_then(Value::as_str))
                .collect();
            got.sort_unstable();
            if got == want {
                return Ok(());
            }
            Err(format!(
                "its tools/list names the tools {got:?}, where the fixture's are {want:?}"
            ))
        }
        Shows::Order(order) => {
            let want = model::catalog::snapshot_text(config, order)
                .and_then(|t| serde_json::from_str::<Value>(&t).ok());
            let got = result.get("structuredContent");
            if want.is_some() && got == want.as_ref() {
                return Ok(());
            }
            let shown = got.map_or_else(|| "no structuredContent".into(), Value::to_string);
            Err(format!(
                "its get_order of the fixture user's own order {order} gives {shown}, where the \
                 fixture's gives {}",
                want.map(|w| w.to_string()).unwrap_or_default()
            ))
        }
    }
}

/// Asks each probe of fixture `name` with `ask` (the reply to a request
/// line with the given id, as JSON; `None`: none came) and judges the
/// replies in order. `Err`: the sentence that says the server's data is
/// not the fixture's and how it shows. A fixture without a configuration
/// here is not probed.
pub(crate) fn holds(
    name: &str,
    ask: &mut dyn FnMut(&[u8], &str) -> Option<Value>,
) -> Result<(), String> {
    let Some(config) = config(name) else {
        return Ok(());
    };
    for probe in probes(&config) {
        let reply = ask(&probe.line, &probe.id);
        judge(&config, &probe, reply.as_ref()).map_err(|how| {
            format!(
                "the server's data is not the {name} fixture's ({}): {how}",
                file(name)
            )
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fixture_configuration_loads() {
        for (name, _) in CONFIGS {
            assert!(config(name).is_some(), "{name}");
        }
    }

    #[test]
    fn the_reference_data_passes_and_other_data_does_not() {
        let textbook = config("textbook").unwrap_or_default();
        let probes = probes(&textbook);
        let discover = json!({"result": {"capabilities": {"tools": {}}}});
        assert!(
            probes
                .first()
                .is_some_and(|p| judge(&textbook, p, Some(&discover)).is_ok())
        );
        let http = config("http").unwrap_or_default();
        let http_probes = super::probes(&http);
        assert!(
            http_probes
                .first()
                .is_some_and(|p| judge(&http, p, Some(&discover)).is_err())
        );
        // No result shows nothing.
        let error = json!({"error": {"code": -32601}});
        assert!(
            http_probes
                .iter()
                .all(|p| judge(&http, p, Some(&error)).is_ok())
        );
        assert!(http_probes.iter().all(|p| judge(&http, p, None).is_ok()));
    }
}
