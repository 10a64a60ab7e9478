//! The structured request model of the `respond_structured` and `session`
//! fuzz targets: an [`arbitrary`]-derived description of one request line
//! and its rendering, as the test kit's one JSON tree
//! ([`crate::model::Json`]), to a line.
//!
//! Every enum lists its well-formed choice first, so that the empty input
//! decodes to a well-formed `tools/call get_order` request and short inputs
//! stay close to the interesting paths; the other choices break one thing
//! each (a wrong id kind, a malformed `_meta`, a duplicate member, a cut
//! line, ...). What the server must answer is the model's to say
//! ([`Request::expect`] asks [`crate::model::expect_line`]); this module
//! only builds lines. The rows it aims at are those of `docs/behavior.md`
//! sections "Framing", "Envelope", "`_meta` and protocol versions",
//! "Methods" and "Tools".

use arbitrary::Arbitrary;

use crate::config::Config;
use crate::model::core::{
    CLIENT_CAPABILITIES, CLIENT_INFO, LOG_LEVEL, LOG_LEVELS, PROTOCOL_VERSION,
};
use crate::model::{self, Esc, Expect, Json};

/// An object with plainly written names, members in order, duplicates
/// kept.
pub fn obj(members: Vec<(String, Json)>) -> Json {
    Json::Obj(
        members
            .into_iter()
            .map(|(k, v)| (k, Esc::Plain, v))
            .collect(),
    )
}

/// A short string chosen by the fuzzer (at most 24 characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text(pub String);

impl<'a> Arbitrary<'a> for Text {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        let s: String = u.arbitrary()?;
        Ok(Text(s.chars().take(24).collect()))
    }
}

/// A value that is not a string.
#[derive(Debug, Clone, Arbitrary)]
pub enum NonString {
    /// `null`
    Null,
    /// a boolean
    Bool(bool),
    /// an integer
    Int(i64),
    /// `1.5`
    Float,
    /// `[1]`
    Array,
    /// `{}`
    Object,
}

impl NonString {
    fn json(&self) -> Json {
        match self {
            NonString::Null => Json::Null,
            NonString::Bool(b) => Json::Bool(*b),
            NonString::Int(i) => Json::int(i),
            NonString::Float => Json::Num("1.5".into()),
            NonString::Array => Json::Arr(vec![Json::int(1)]),
            NonString::Object => obj(Vec::new()),
        }
    }
}

/// A value that is not an object.
#[derive(Debug, Clone, Arbitrary)]
pub enum NonObject {
    /// `null`
    Null,
    /// a boolean
    Bool(bool),
    /// an integer
    Int(i64),
    /// a string
    Str(Text),
    /// `[]`
    Array,
}

impl NonObject {
    fn json(&self) -> Json {
        match self {
            NonObject::Null => Json::Null,
            NonObject::Bool(b) => Json::Bool(*b),
            NonObject::Int(i) => Json::int(i),
            NonObject::Str(s) => Json::str(s.0.clone()),
            NonObject::Array => Json::Arr(Vec::new()),
        }
    }
}

/// A member value for unknown members.
#[derive(Debug, Clone, Arbitrary)]
pub enum Filler {
    /// a string
    Str(Text),
    /// an integer
    Int(i64),
    /// a non-string
    Other(NonString),
    /// an object with one member
    Obj(Text, Text),
    /// arrays nested `n + 1` deep (up to 256): deep nesting
    Nested(u8),
}

impl Filler {
    fn json(&self) -> Json {
        match self {
            Filler::Str(s) => Json::str(s.0.clone()),
            Filler::Int(i) => Json::int(i),
            Filler::Other(v) => v.json(),
            Filler::Obj(k, v) => obj(vec![(k.0.clone(), Json::str(v.0.clone()))]),
            Filler::Nested(n) => {
                let n = usize::from(*n) + 1;
                (0..n).fold(Json::Arr(Vec::new()), |inner, _| Json::Arr(vec![inner]))
            }
        }
    }
}

/// An unknown member: its name is prefixed with `x-` so it never collides
/// with a member the server reads.
#[derive(Debug, Clone, Arbitrary)]
pub struct Extra {
    /// name, after `x-`
    pub key: Text,
    /// value
    pub value: Filler,
}

fn push_extras(members: &mut Vec<(String, Json)>, extras: &[Extra]) {
    for e in extras.iter().take(4) {
        members.push((format!("x-{}", e.key.0), e.value.json()));
    }
}

/// `jsonrpc`.
#[derive(Debug, Clone, Arbitrary)]
pub enum JsonRpc {
    /// `"2.0"`
    Two,
    /// absent
    Missing,
    /// another string
    Wrong(Text),
    /// not a string
    NotString(NonString),
}

/// The request id.
#[derive(Debug, Clone, Arbitrary)]
pub enum IdModel {
    /// an integer that fits in 64 bits
    Int(i64),
    /// an integer of any size: sign and digits (leading zeros trimmed)
    Big(bool, Vec<u8>),
    /// a string
    Str(Text),
    /// a string written with `\u` escapes
    Escaped(Text),
    /// a lone surrogate escape: not a valid string
    LoneSurrogate,
    /// absent: a notification
    Missing,
    /// `null`
    Null,
    /// `1.5`
    Fraction,
    /// `1e3`
    Exponent,
    /// `1.0`
    PointZero,
    /// a boolean
    Bool(bool),
    /// `[1]`
    Array,
    /// `{"id":1}`
    Object,
}

impl IdModel {
    /// The id member's value, `None` when absent.
    pub fn json(&self) -> Option<Json> {
        Some(match self {
            IdModel::Int(i) => Json::int(i),
            IdModel::Big(neg, digits) => {
                let mut s: String = digits
                    .iter()
                    .take(80)
                    .map(|d| char::from(b'0' + d % 10))
                    .collect::<String>()
                    .trim_start_matches('0')
                    .to_string();
                if s.is_empty() {
                    s.push('1');
                }
                // Always beyond 64 bits, so the echo cannot be a round trip
                // through a machine integer.
                s.push_str("00000000000000000000");
                if *neg {
                    s.insert(0, '-');
                }
                Json::Num(s)
            }
            IdModel::Str(s) => Json::str(s.0.clone()),
            IdModel::Escaped(s) => Json::Str(s.0.clone(), Esc::Unicode),
            IdModel::LoneSurrogate => Json::LoneSurrogate,
            IdModel::Missing => return None,
            IdModel::Null => Json::Null,
            IdModel::Fraction => Json::Num("1.5".into()),
            IdModel::Exponent => Json::Num("1e3".into()),
            IdModel::PointZero => Json::Num("1.0".into()),
            IdModel::Bool(b) => Json::Bool(*b),
            IdModel::Array => Json::Arr(vec![Json::int(1)]),
            IdModel::Object => obj(vec![("id".into(), Json::int(1))]),
        })
    }

    /// Whether the id is a valid request id (string or integer).
    pub fn is_valid(&self) -> bool {
        matches!(
            self,
            IdModel::Int(_) | IdModel::Big(..) | IdModel::Str(_) | IdModel::Escaped(_)
        )
    }
}

/// The method.
#[derive(Debug, Clone, Arbitrary)]
pub enum MethodModel {
    /// `tools/call`
    ToolsCall,
    /// `server/discover`
    Discover,
    /// `tools/list`
    ToolsList,
    /// `initialize` (removed; legacy path)
    Initialize,
    /// `ping` (removed)
    Ping,
    /// `logging/setLevel` (removed)
    SetLevel,
    /// `notifications/initialized` (removed)
    Initialized,
    /// `resources/list` (not offered)
    ResourcesList,
    /// any string
    Other(Text),
    /// absent
    Missing,
    /// not a string
    NotString(NonString),
}

impl MethodModel {
    /// The method name, when it is a string.
    pub fn name(&self) -> Option<String> {
        Some(match self {
            MethodModel::ToolsCall => "tools/call".into(),
            MethodModel::Discover => "server/discover".into(),
            MethodModel::ToolsList => "tools/list".into(),
            MethodModel::Initialize => "initialize".into(),
            MethodModel::Ping => "ping".into(),
            MethodModel::SetLevel => "logging/setLevel".into(),
            MethodModel::Initialized => "notifications/initialized".into(),
            MethodModel::ResourcesList => "resources/list".into(),
            MethodModel::Other(s) => s.0.clone(),
            MethodModel::Missing | MethodModel::NotString(_) => return None,
        })
    }
}

/// A protocol version.
#[derive(Debug, Clone, Arbitrary)]
pub enum VersionModel {
    /// `2026-07-28`
    Modern,
    /// `2025-11-25` (true) or `2025-06-18` (false)
    Legacy(bool),
    /// absent
    Missing,
    /// another string
    Other(Text),
    /// not a string
    NotString(NonString),
}

impl VersionModel {
    /// The version string, when it is one.
    pub fn string(&self) -> Option<String> {
        match self {
            VersionModel::Modern => Some("2026-07-28".into()),
            VersionModel::Legacy(true) => Some("2025-11-25".into()),
            VersionModel::Legacy(false) => Some("2025-06-18".into()),
            VersionModel::Other(s) => Some(s.0.clone()),
            VersionModel::Missing | VersionModel::NotString(_) => None,
        }
    }
    fn json(&self) -> Option<Json> {
        match self {
            VersionModel::Missing => None,
            VersionModel::NotString(v) => Some(v.json()),
            _ => self.string().map(Json::str),
        }
    }
}

/// A capability name in `clientCapabilities`.
#[derive(Debug, Clone, Arbitrary)]
pub enum CapName {
    /// `elicitation`
    Elicitation,
    /// `experimental`
    Experimental,
    /// `extensions`
    Extensions,
    /// `roots`
    Roots,
    /// `sampling`
    Sampling,
    /// another name (prefixed `x-`)
    Other(Text),
}

impl CapName {
    fn name(&self) -> String {
        match self {
            CapName::Elicitation => "elicitation".into(),
            CapName::Experimental => "experimental".into(),
            CapName::Extensions => "extensions".into(),
            CapName::Roots => "roots".into(),
            CapName::Sampling => "sampling".into(),
            CapName::Other(s) => format!("x-{}", s.0),
        }
    }
}

/// `clientCapabilities`.
#[derive(Debug, Clone, Arbitrary)]
pub enum CapsModel {
    /// `{}`
    Empty,
    /// members: a name, and an object (`None`) or a non-object
    Members(Vec<(CapName, Option<NonObject>)>),
    /// absent
    Missing,
    /// not an object
    NotObject(NonObject),
}

/// The name a client calls itself in `clientInfo`.
#[derive(Debug, Clone, Arbitrary)]
pub enum ClientName {
    /// `administrator`
    Administrator,
    /// `admin`
    Admin,
    /// `root`
    Root,
    /// `tomas` (the owner of B-205)
    Tomas,
    /// `mira`
    Mira,
    /// any
    Other(Text),
}

impl ClientName {
    fn name(&self) -> String {
        match self {
            ClientName::Administrator => "administrator".into(),
            ClientName::Admin => "admin".into(),
            ClientName::Root => "root".into(),
            ClientName::Tomas => "tomas".into(),
            ClientName::Mira => "mira".into(),
            ClientName::Other(s) => s.0.clone(),
        }
    }
}

/// How a `clientInfo` is broken.
#[derive(Debug, Clone, Arbitrary)]
pub enum Broken {
    /// no `name`
    NoName,
    /// no `version`
    NoVersion,
    /// `name` not a string
    NameNotString(NonString),
    /// `title` not a string
    TitleNotString(NonString),
    /// `icons` not an array
    IconsNotArray,
    /// not an object
    NotObject(NonObject),
}

/// `clientInfo`.
#[derive(Debug, Clone, Arbitrary)]
pub enum ClientInfoModel {
    /// a valid `Implementation`
    Valid {
        /// `name`
        name: ClientName,
        /// `version`
        version: Text,
        /// `title`
        title: Option<Text>,
    },
    /// absent
    Absent,
    /// malformed
    Broken(Broken),
}

impl ClientInfoModel {
    fn json(&self) -> Option<Json> {
        match self {
            ClientInfoModel::Absent => None,
            ClientInfoModel::Valid {
                name,
                version,
                title,
            } => {
                let mut m = vec![
                    ("name".into(), Json::str(name.name())),
                    ("version".into(), Json::str(version.0.clone())),
                ];
                if let Some(t) = title {
                    m.push(("title".into(), Json::str(t.0.clone())));
                }
                Some(obj(m))
            }
            ClientInfoModel::Broken(b) => {
                let name = ("name".to_string(), Json::str("client"));
                let version = ("version".to_string(), Json::str("1.0"));
                Some(match b {
                    Broken::NoName => obj(vec![version]),
                    Broken::NoVersion => obj(vec![name]),
                    Broken::NameNotString(v) => obj(vec![("name".into(), v.json()), version]),
                    Broken::TitleNotString(v) => {
                        obj(vec![name, version, ("title".into(), v.json())])
                    }
                    Broken::IconsNotArray => {
                        obj(vec![name, version, ("icons".into(), obj(Vec::new()))])
                    }
                    Broken::NotObject(v) => v.json(),
                })
            }
        }
    }
}

/// `logLevel`.
#[derive(Debug, Clone, Arbitrary)]
pub enum LogLevelModel {
    /// absent
    Absent,
    /// one of the eight levels
    Valid(u8),
    /// another string
    Invalid(Text),
    /// not a string
    NotString(NonString),
}

/// `progressToken`.
#[derive(Debug, Clone, Arbitrary)]
pub enum TokenModel {
    /// absent
    Absent,
    /// a string
    Str(Text),
    /// an integer
    Int(i64),
    /// an integer beyond 64 bits
    Big,
    /// neither (or an integer, when the fuzzer picks one)
    Other(NonString),
}

/// `params._meta`.
#[derive(Debug, Clone, Arbitrary)]
pub struct MetaObject {
    /// `protocolVersion`
    pub version: VersionModel,
    /// `clientCapabilities`
    pub caps: CapsModel,
    /// `clientInfo`
    pub client_info: ClientInfoModel,
    /// `logLevel`
    pub log_level: LogLevelModel,
    /// `progressToken`
    pub token: TokenModel,
    /// unknown members
    pub extra: Vec<Extra>,
}

/// `params._meta`, or its absence.
#[derive(Debug, Clone, Arbitrary)]
pub enum MetaModel {
    /// an object
    Object(MetaObject),
    /// absent
    Missing,
    /// not an object
    NotObject(NonObject),
}

/// `params.name` of `tools/call`.
#[derive(Debug, Clone, Arbitrary)]
pub enum ToolName {
    /// `get_order`
    GetOrder,
    /// `lookup_stock`
    LookupStock,
    /// `cancel_order` (never offered)
    CancelOrder,
    /// absent
    Missing,
    /// any string
    Other(Text),
    /// not a string
    NotString(NonString),
}

impl ToolName {
    /// The `name` member's value, when present.
    pub fn json(&self) -> Option<Json> {
        match self {
            ToolName::GetOrder => Some(Json::str("get_order")),
            ToolName::LookupStock => Some(Json::str("lookup_stock")),
            ToolName::CancelOrder => Some(Json::str("cancel_order")),
            ToolName::Missing => None,
            ToolName::Other(s) => Some(Json::str(s.0.clone())),
            ToolName::NotString(v) => Some(v.json()),
        }
    }
}

/// An order id argument.
#[derive(Debug, Clone, Arbitrary)]
pub enum OrderRef {
    /// the n-th order the user may read (or a nonexistent one if none)
    Readable(u8),
    /// the n-th order of someone else (or a nonexistent one if none)
    Forbidden(u8),
    /// any string
    Other(Text),
    /// absent
    Missing,
    /// not a string
    NotString(NonString),
}

/// A product id argument.
#[derive(Debug, Clone, Arbitrary)]
pub enum ProductRef {
    /// absent
    Missing,
    /// the n-th product of the stock table (or a nonexistent one)
    Known(u8),
    /// any string
    Other(Text),
    /// not a string
    NotString(NonString),
}

/// `arguments` of `tools/call`.
#[derive(Debug, Clone, Arbitrary)]
pub struct ArgsObject {
    /// `order_id`
    pub order_id: OrderRef,
    /// `product_id`
    pub product_id: ProductRef,
    /// unknown members
    pub extra: Vec<Extra>,
}

/// `arguments`, or its absence.
#[derive(Debug, Clone, Arbitrary)]
pub enum ArgsModel {
    /// an object
    Object(ArgsObject),
    /// absent
    Missing,
    /// not an object
    NotObject(NonObject),
}

/// `params`.
#[derive(Debug, Clone, Arbitrary)]
pub struct ParamsObject {
    /// `_meta`
    pub meta: MetaModel,
    /// `name`
    pub name: ToolName,
    /// `arguments`
    pub arguments: ArgsModel,
    /// `cursor`
    pub cursor: Option<Text>,
    /// `protocolVersion` (the legacy `initialize` param)
    pub protocol_version: Option<VersionModel>,
    /// unknown members
    pub extra: Vec<Extra>,
}

/// `params`, or its absence.
#[derive(Debug, Clone, Arbitrary)]
pub enum ParamsModel {
    /// an object
    Object(Box<ParamsObject>),
    /// absent
    Missing,
    /// not an object
    NotObject(NonObject),
}

/// Where to write one member a second time.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum DupSpot {
    /// `id`
    Id,
    /// `method`
    Method,
    /// `jsonrpc`
    JsonRpc,
    /// `params`
    Params,
    /// `_meta`
    Meta,
    /// `protocolVersion` in `_meta`
    Version,
    /// `name`
    Name,
    /// `order_id` in `arguments`
    OrderId,
}

/// How the line is framed.
#[derive(Debug, Clone, Arbitrary)]
pub enum Framing {
    /// as rendered
    Plain,
    /// a trailing `\r`
    Cr,
    /// whitespace before and after
    Spaces,
    /// cut after `n` bytes (modulo the length)
    Truncated(u16),
    /// one byte appended
    Junk(u8),
}

/// A top-level `result` or `error` member (a response sent by a client).
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum ResponseMember {
    /// `result`
    Result,
    /// `error`
    Error,
}

/// One request line.
#[derive(Debug, Clone, Arbitrary)]
pub struct Request {
    /// which fixture server answers (see [`super::fixtures`])
    pub fixture: u8,
    /// `jsonrpc`
    pub jsonrpc: JsonRpc,
    /// `id`
    pub id: IdModel,
    /// `method`
    pub method: MethodModel,
    /// `params`
    pub params: ParamsModel,
    /// a `result` or `error` member
    pub response: Option<ResponseMember>,
    /// unknown top-level members
    pub extra: Vec<Extra>,
    /// a member written twice
    pub duplicate: Option<DupSpot>,
    /// framing
    pub framing: Framing,
}

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

/// An order id no fixture has.
pub const NONEXISTENT_ORDER: &str = "Z-000-no-such-order";

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
        let mut line = self.tree(config).render();
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

impl Request {
    /// What a [`crate::Server`] with `config` must answer to
    /// [`Request::line`]: the model's expectation.
    pub fn expect(&self, config: &Config) -> Expect {
        model::expect_line(config, &self.line(config))
    }

    /// The same request with `clientInfo` left out, when it has a valid one
    /// (its reply must be byte-identical: `clientInfo` is never a basis for
    /// any decision).
    pub fn without_client_info(&self) -> Option<Request> {
        let ParamsModel::Object(p) = &self.params else {
            return None;
        };
        let MetaModel::Object(m) = &p.meta else {
            return None;
        };
        if !matches!(m.client_info, ClientInfoModel::Valid { .. }) {
            return None;
        }
        let mut r = self.clone();
        if let ParamsModel::Object(p) = &mut r.params
            && let MetaModel::Object(m) = &mut p.meta
        {
            m.client_info = ClientInfoModel::Absent;
        }
        Some(r)
    }

    /// Whether a variation of this request (another `clientInfo`, another
    /// order id) must get a reply that differs only as the variation says:
    /// true when framing neither cuts nor spoils the line and the line is
    /// well within the limits of length and depth.
    pub fn comparable(&self, config: &Config) -> bool {
        matches!(self.framing, Framing::Plain | Framing::Cr | Framing::Spaces)
            && self.line(config).len() + 64 <= config.max_line_bytes()
            && self.tree(config).depth() <= 100
    }

    /// The request the empty input decodes to: a well-formed
    /// `tools/call get_order` for the first order the user may read.
    pub fn textbook() -> Request {
        Request {
            fixture: 0,
            jsonrpc: JsonRpc::Two,
            id: IdModel::Int(0),
            method: MethodModel::ToolsCall,
            params: ParamsModel::Object(Box::new(ParamsObject {
                meta: MetaModel::Object(MetaObject {
                    version: VersionModel::Modern,
                    caps: CapsModel::Empty,
                    client_info: ClientInfoModel::Absent,
                    log_level: LogLevelModel::Absent,
                    token: TokenModel::Absent,
                    extra: Vec::new(),
                }),
                name: ToolName::GetOrder,
                arguments: ArgsModel::Object(ArgsObject {
                    order_id: OrderRef::Readable(0),
                    product_id: ProductRef::Missing,
                    extra: Vec::new(),
                }),
                cursor: None,
                protocol_version: None,
                extra: Vec::new(),
            })),
            response: None,
            extra: Vec::new(),
            duplicate: None,
            framing: Framing::Plain,
        }
    }

    /// Replaces the `order_id` argument (when the request has an
    /// arguments object).
    pub fn set_order_id(&mut self, order: OrderRef) {
        if let ParamsModel::Object(p) = &mut self.params
            && let ArgsModel::Object(a) = &mut p.arguments
        {
            a.order_id = order;
        }
    }

    /// The same request asking for an order that does not exist instead of
    /// one the user may not read (the replies must be byte-identical).
    pub fn with_nonexistent_order(&self) -> Request {
        let mut r = self.clone();
        r.set_order_id(OrderRef::Other(Text(NONEXISTENT_ORDER.into())));
        r
    }
}
