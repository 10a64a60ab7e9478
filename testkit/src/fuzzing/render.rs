//! Rendering of the structured request model ([`super::model::Request`])
//! to the one JSON tree for a fixture's configuration: which order and
//! product ids the model's references name, where a duplicate member goes,
//! and the line as sent with its framing; and what follows from the
//! rendered line: the model's expectation ([`Request::expect`]) and whether
//! two variations of a request are comparable. This module depends on
//! [`super::model`], never the other way round.

use super::model::*;
use crate::model::core::{
    CLIENT_CAPABILITIES, CLIENT_INFO, LOG_LEVEL, LOG_LEVELS, PROTOCOL_VERSION,
};
use crate::model::{self as oracle, Expect, Json};
use mcp_reference::Config;

/// The names the data of a configuration gives to [`OrderRef`] and
/// [`ProductRef`].
pub fn order_id(config: &Config, r: &OrderRef) -> Option<Json> {
    let pick = |mine: bool, n: u8| {
        let ids: Vec<&str> = config
            .orders()
            .iter()
            .filter(|o| (o.owner == config.user()) == mine)
            .map(|o| o.order_id.as_str())
            .collect();
        match ids.len() {
            0 => NONEXISTENT_ORDER.to_string(),
            len => ids
                .get(usize::from(n) % len)
                .map(|s| s.to_string())
                .unwrap_or_default(),
        }
    };
    match r {
        OrderRef::Readable(n) => Some(Json::str(pick(true, *n))),
        OrderRef::Forbidden(n) => Some(Json::str(pick(false, *n))),
        OrderRef::Other(s) => Some(Json::str(s.0.clone())),
        OrderRef::Missing => None,
        OrderRef::NotString(v) => Some(v.json()),
    }
}

fn product_id(config: &Config, r: &ProductRef) -> Option<Json> {
    match r {
        ProductRef::Missing => None,
        ProductRef::Known(n) => {
            let ids: Vec<&str> = config
                .stock()
                .unwrap_or_default()
                .iter()
                .map(|s| s.product_id.as_str())
                .collect();
            Some(Json::str(match ids.len() {
                0 => "no-such-product".into(),
                len => ids
                    .get(usize::from(*n) % len)
                    .map(|s| s.to_string())
                    .unwrap_or_default(),
            }))
        }
        ProductRef::Other(s) => Some(Json::str(s.0.clone())),
        ProductRef::NotString(v) => Some(v.json()),
    }
}

fn duplicate(members: &mut Vec<(String, Json)>, key: &str) {
    if let Some(pos) = members.iter().position(|(k, _)| k == key) {
        let copy = members.get(pos).cloned();
        if let Some(copy) = copy {
            members.push(copy);
        }
    }
}

impl Request {
    /// What a [`mcp_reference::Server`] with `config` must answer to
    /// [`Request::line`]: the model's expectation.
    pub fn expect(&self, config: &Config) -> Expect {
        oracle::expect_line(config, &self.line(config))
    }

    /// Whether a variation of this request (another `clientInfo`, another
    /// order id) must get a reply that differs only as the variation says:
    /// true when framing neither cuts nor spoils the line and the line is
    /// well within the limits of length and depth.
    pub fn comparable(&self, config: &Config) -> bool {
        let tree = self.tree(config);
        self.comparable_with(config, &self.framed(tree.render()), &tree)
    }

    /// [`Request::comparable`], given this request's [`Request::tree`] and
    /// [`Request::line`] for `config`.
    pub fn comparable_with(&self, config: &Config, line: &[u8], tree: &Json) -> bool {
        matches!(self.framing, Framing::Plain | Framing::Cr | Framing::Spaces)
            && line.len() + 64 <= config.max_line_bytes()
            && tree.depth() <= 100
    }

    /// The message as a JSON tree, for a server with `config`.
    pub fn tree(&self, config: &Config) -> Json {
        let dup = self.duplicate;
        let mut top = Vec::new();
        match &self.jsonrpc {
            JsonRpc::Two => top.push(("jsonrpc".into(), Json::str("2.0"))),
            JsonRpc::Missing => {}
            JsonRpc::Wrong(s) => top.push(("jsonrpc".into(), Json::str(s.0.clone()))),
            JsonRpc::NotString(v) => top.push(("jsonrpc".into(), v.json())),
        }
        if let Some(raw) = self.id.json() {
            top.push(("id".into(), raw));
        }
        match &self.method {
            MethodModel::Missing => {}
            MethodModel::NotString(v) => top.push(("method".into(), v.json())),
            m => top.push(("method".into(), Json::str(m.name().unwrap_or_default()))),
        }
        match &self.params {
            ParamsModel::Missing => {}
            ParamsModel::NotObject(v) => top.push(("params".into(), v.json())),
            ParamsModel::Object(p) => top.push(("params".into(), self.params_tree(config, p))),
        }
        match self.response {
            None => {}
            Some(ResponseMember::Result) => top.push(("result".into(), obj(Vec::new()))),
            Some(ResponseMember::Error) => top.push((
                "error".into(),
                obj(vec![
                    ("code".into(), Json::int(-32601)),
                    ("message".into(), Json::str("m")),
                ]),
            )),
        }
        push_extras(&mut top, &self.extra);
        match dup {
            Some(DupSpot::Id) => duplicate(&mut top, "id"),
            Some(DupSpot::Method) => duplicate(&mut top, "method"),
            Some(DupSpot::JsonRpc) => duplicate(&mut top, "jsonrpc"),
            Some(DupSpot::Params) => duplicate(&mut top, "params"),
            _ => {}
        }
        obj(top)
    }

    fn params_tree(&self, config: &Config, p: &ParamsObject) -> Json {
        let dup = self.duplicate;
        let mut members = Vec::new();
        match &p.meta {
            MetaModel::Missing => {}
            MetaModel::NotObject(v) => members.push(("_meta".into(), v.json())),
            MetaModel::Object(m) => {
                let mut meta = Vec::new();
                if let Some(v) = m.version.json() {
                    meta.push((PROTOCOL_VERSION.to_string(), v));
                }
                match &m.caps {
                    CapsModel::Missing => {}
                    CapsModel::Empty => meta.push((CLIENT_CAPABILITIES.into(), obj(Vec::new()))),
                    CapsModel::NotObject(v) => meta.push((CLIENT_CAPABILITIES.into(), v.json())),
                    CapsModel::Members(caps) => {
                        let members = caps
                            .iter()
                            .take(4)
                            .map(|(name, value)| {
                                let v = match value {
                                    None => obj(Vec::new()),
                                    Some(v) => v.json(),
                                };
                                (name.name(), v)
                            })
                            .collect();
                        meta.push((CLIENT_CAPABILITIES.into(), obj(members)))
                    }
                }
                if let Some(info) = m.client_info.json() {
                    meta.push((CLIENT_INFO.into(), info));
                }
                match &m.log_level {
                    LogLevelModel::Absent => {}
                    LogLevelModel::Valid(n) => {
                        let level = LOG_LEVELS
                            .get(usize::from(*n) % LOG_LEVELS.len())
                            .copied()
                            .unwrap_or("info");
                        meta.push((LOG_LEVEL.into(), Json::str(level)))
                    }
                    LogLevelModel::Invalid(s) => {
                        meta.push((LOG_LEVEL.into(), Json::str(s.0.clone())))
                    }
                    LogLevelModel::NotString(v) => meta.push((LOG_LEVEL.into(), v.json())),
                }
                match &m.token {
                    TokenModel::Absent => {}
                    TokenModel::Str(s) => {
                        meta.push(("progressToken".into(), Json::str(s.0.clone())))
                    }
                    TokenModel::Int(i) => meta.push(("progressToken".into(), Json::int(i))),
                    TokenModel::Big => meta.push((
                        "progressToken".into(),
                        Json::Num("123456789012345678901234567890".into()),
                    )),
                    TokenModel::Other(v) => meta.push(("progressToken".into(), v.json())),
                }
                push_extras(&mut meta, &m.extra);
                if let Some(DupSpot::Version) = dup {
                    duplicate(&mut meta, PROTOCOL_VERSION);
                }
                members.push(("_meta".into(), obj(meta)));
            }
        }
        if let Some(name) = p.name.json() {
            members.push(("name".into(), name));
        }
        match &p.arguments {
            ArgsModel::Missing => {}
            ArgsModel::NotObject(v) => members.push(("arguments".into(), v.json())),
            ArgsModel::Object(a) => {
                let mut args = Vec::new();
                if let Some(id) = order_id(config, &a.order_id) {
                    args.push(("order_id".into(), id));
                }
                if let Some(id) = product_id(config, &a.product_id) {
                    args.push(("product_id".into(), id));
                }
                push_extras(&mut args, &a.extra);
                if let Some(DupSpot::OrderId) = dup {
                    duplicate(&mut args, "order_id");
                }
                members.push(("arguments".into(), obj(args)));
            }
        }
        if let Some(c) = &p.cursor {
            members.push(("cursor".into(), Json::str(c.0.clone())));
        }
        if let Some(v) = p.protocol_version.as_ref().and_then(VersionModel::json) {
            members.push(("protocolVersion".into(), v));
        }
        push_extras(&mut members, &p.extra);
        match dup {
            Some(DupSpot::Meta) => duplicate(&mut members, "_meta"),
            Some(DupSpot::Name) => duplicate(&mut members, "name"),
            _ => {}
        }
        obj(members)
    }

    /// The line as sent (framing applied, no newline).
    pub fn line(&self, config: &Config) -> Vec<u8> {
        self.framed(self.tree(config).render())
    }

    /// [`Request::line`] from the rendering of [`Request::tree`], for a
    /// caller that has the tree already.
    pub fn framed(&self, mut line: Vec<u8>) -> Vec<u8> {
        match self.framing {
            Framing::Plain => {}
            Framing::Cr => line.push(b'\r'),
            Framing::Spaces => {
                line.insert(0, b' ');
                line.insert(0, b'\t');
                line.push(b' ');
            }
            Framing::Truncated(n) => {
                let keep = usize::from(n) % line.len().max(1);
                line.truncate(keep);
            }
            Framing::Junk(b) => line.push(b),
        }
        line
    }
}
