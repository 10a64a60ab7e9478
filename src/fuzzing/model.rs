//! The structured request model of the `respond_structured` and `session`
//! fuzz targets: an [`arbitrary`]-derived description of one request line,
//! its rendering to JSON text, and an oracle that says what the core must
//! answer to it.
//!
//! Every enum lists its well-formed choice first, so that the empty input
//! decodes to a well-formed `tools/call get_order` request and short inputs
//! stay close to the interesting paths; the other choices break one thing
//! each (a wrong id kind, a malformed `_meta`, a duplicate member, a cut
//! line, ...). The oracle follows the order of checks of BRIEF decision 9
//! and the module docs of [`crate::envelope`], [`crate::meta`] and
//! [`crate::dispatch`]; where it cannot tell (nesting near the depth limit)
//! it says [`Expect::Unknown`] and only the generic invariants apply.
//!
//! Spec: the rules the oracle restates are those of `docs/behavior.md`
//! (2026-07-28 `basic/index.mdx`, `basic/versioning.mdx`,
//! `server/tools.mdx`; JSON-RPC 2.0 sections 4 and 5).

use arbitrary::Arbitrary;

use crate::config::Config;
use crate::dispatch;
use crate::envelope;
use crate::error::RpcError;
use crate::meta;

/// JSON text built member by member, so that duplicates and raw escapes can
/// be written (a `serde_json::Value` would merge them).
#[derive(Debug, Clone, PartialEq)]
pub enum J {
    /// Raw JSON text, written as is (numbers, literals, escaped strings).
    Raw(String),
    /// A string, escaped by serde_json.
    Str(String),
    /// An array.
    Arr(Vec<J>),
    /// An object, members in order, duplicates allowed.
    Obj(Vec<(String, J)>),
}

impl J {
    /// Appends the JSON text.
    pub fn render(&self, out: &mut String) {
        match self {
            J::Raw(raw) => out.push_str(raw),
            J::Str(s) => out.push_str(&json_string(s)),
            J::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.render(out);
                }
                out.push(']');
            }
            J::Obj(members) => {
                out.push('{');
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&json_string(key));
                    out.push(':');
                    value.render(out);
                }
                out.push('}');
            }
        }
    }

    /// Whether any object, at any depth, names a member twice.
    pub fn has_duplicate(&self) -> bool {
        match self {
            J::Raw(_) | J::Str(_) => false,
            J::Arr(items) => items.iter().any(J::has_duplicate),
            J::Obj(members) => {
                let mut seen = std::collections::BTreeSet::new();
                members.iter().any(|(k, _)| !seen.insert(k.as_str()))
                    || members.iter().any(|(_, v)| v.has_duplicate())
            }
        }
    }

    /// Nesting depth: 1 for a scalar inside nothing, +1 per array/object.
    pub fn depth(&self) -> usize {
        match self {
            J::Raw(raw) => raw_depth(raw),
            J::Str(_) => 0,
            J::Arr(items) => 1 + items.iter().map(J::depth).max().unwrap_or(0),
            J::Obj(members) => 1 + members.iter().map(|(_, v)| v.depth()).max().unwrap_or(0),
        }
    }

    fn get(&self, key: &str) -> Option<&J> {
        match self {
            J::Obj(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn count(&self, key: &str) -> usize {
        match self {
            J::Obj(members) => members.iter().filter(|(k, _)| k == key).count(),
            _ => 0,
        }
    }
}

/// Depth of a raw text made only of brackets around a literal.
fn raw_depth(raw: &str) -> usize {
    let mut depth = 0usize;
    let mut max = 0usize;
    for b in raw.bytes() {
        match b {
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// A JSON string literal for `s`.
pub fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// `s` with every character written as a `\uXXXX` escape (surrogate pairs
/// beyond the BMP): the same string, spelled differently on the wire.
fn escaped_string(s: &str) -> String {
    let mut out = String::from("\"");
    let mut buf = [0u16; 2];
    for c in s.chars() {
        for unit in c.encode_utf16(&mut buf) {
            out.push_str(&format!("\\u{unit:04x}"));
        }
    }
    out.push('"');
    out
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
    fn json(&self) -> J {
        J::Raw(match self {
            NonString::Null => "null".into(),
            NonString::Bool(b) => b.to_string(),
            NonString::Int(i) => i.to_string(),
            NonString::Float => "1.5".into(),
            NonString::Array => "[1]".into(),
            NonString::Object => "{}".into(),
        })
    }
    fn is_integer(&self) -> bool {
        matches!(self, NonString::Int(_))
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
    fn json(&self) -> J {
        match self {
            NonObject::Null => J::Raw("null".into()),
            NonObject::Bool(b) => J::Raw(b.to_string()),
            NonObject::Int(i) => J::Raw(i.to_string()),
            NonObject::Str(s) => J::Str(s.0.clone()),
            NonObject::Array => J::Raw("[]".into()),
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
    fn json(&self) -> J {
        match self {
            Filler::Str(s) => J::Str(s.0.clone()),
            Filler::Int(i) => J::Raw(i.to_string()),
            Filler::Other(v) => v.json(),
            Filler::Obj(k, v) => J::Obj(vec![(k.0.clone(), J::Str(v.0.clone()))]),
            Filler::Nested(n) => {
                let n = usize::from(*n) + 1;
                J::Raw(format!("{}{}", "[".repeat(n), "]".repeat(n)))
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

fn push_extras(members: &mut Vec<(String, J)>, extras: &[Extra]) {
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
    /// The raw text of the id member, `None` when absent.
    pub fn raw(&self) -> Option<String> {
        Some(match self {
            IdModel::Int(i) => i.to_string(),
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
                s
            }
            IdModel::Str(s) => json_string(&s.0),
            IdModel::Escaped(s) => escaped_string(&s.0),
            IdModel::LoneSurrogate => "\"\\ud800\"".into(),
            IdModel::Missing => return None,
            IdModel::Null => "null".into(),
            IdModel::Fraction => "1.5".into(),
            IdModel::Exponent => "1e3".into(),
            IdModel::PointZero => "1.0".into(),
            IdModel::Bool(b) => b.to_string(),
            IdModel::Array => "[1]".into(),
            IdModel::Object => "{\"id\":1}".into(),
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
    fn json(&self) -> Option<J> {
        match self {
            VersionModel::Missing => None,
            VersionModel::NotString(v) => Some(v.json()),
            _ => self.string().map(J::Str),
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
    fn is_defined(&self) -> bool {
        !matches!(self, CapName::Other(_))
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
    fn json(&self) -> Option<J> {
        match self {
            ClientInfoModel::Absent => None,
            ClientInfoModel::Valid {
                name,
                version,
                title,
            } => {
                let mut m = vec![
                    ("name".into(), J::Str(name.name())),
                    ("version".into(), J::Str(version.0.clone())),
                ];
                if let Some(t) = title {
                    m.push(("title".into(), J::Str(t.0.clone())));
                }
                Some(J::Obj(m))
            }
            ClientInfoModel::Broken(b) => {
                let name = ("name".to_string(), J::Str("client".into()));
                let version = ("version".to_string(), J::Str("1.0".into()));
                Some(match b {
                    Broken::NoName => J::Obj(vec![version]),
                    Broken::NoVersion => J::Obj(vec![name]),
                    Broken::NameNotString(v) => J::Obj(vec![("name".into(), v.json()), version]),
                    Broken::TitleNotString(v) => {
                        J::Obj(vec![name, version, ("title".into(), v.json())])
                    }
                    Broken::IconsNotArray => {
                        J::Obj(vec![name, version, ("icons".into(), J::Raw("{}".into()))])
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
    pub fn json(&self) -> Option<J> {
        match self {
            ToolName::GetOrder => Some(J::Str("get_order".into())),
            ToolName::LookupStock => Some(J::Str("lookup_stock".into())),
            ToolName::CancelOrder => Some(J::Str("cancel_order".into())),
            ToolName::Missing => None,
            ToolName::Other(s) => Some(J::Str(s.0.clone())),
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
pub fn order_id(config: &Config, r: &OrderRef) -> Option<J> {
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
        OrderRef::Readable(n) => Some(J::Str(pick(true, *n))),
        OrderRef::Forbidden(n) => Some(J::Str(pick(false, *n))),
        OrderRef::Other(s) => Some(J::Str(s.0.clone())),
        OrderRef::Missing => None,
        OrderRef::NotString(v) => Some(v.json()),
    }
}

/// An order id no fixture has.
pub const NONEXISTENT_ORDER: &str = "Z-000-no-such-order";

fn product_id(config: &Config, r: &ProductRef) -> Option<J> {
    match r {
        ProductRef::Missing => None,
        ProductRef::Known(n) => {
            let ids: Vec<&str> = config
                .stock()
                .unwrap_or_default()
                .iter()
                .map(|s| s.product_id.as_str())
                .collect();
            Some(J::Str(match ids.len() {
                0 => "no-such-product".into(),
                len => ids
                    .get(usize::from(*n) % len)
                    .map(|s| s.to_string())
                    .unwrap_or_default(),
            }))
        }
        ProductRef::Other(s) => Some(J::Str(s.0.clone())),
        ProductRef::NotString(v) => Some(v.json()),
    }
}

fn duplicate(members: &mut Vec<(String, J)>, key: &str) {
    if let Some(pos) = members.iter().position(|(k, _)| k == key) {
        let copy = members.get(pos).cloned();
        if let Some(copy) = copy {
            members.push(copy);
        }
    }
}

impl Request {
    /// The message as a JSON tree, for a server with `config`.
    pub fn tree(&self, config: &Config) -> J {
        let dup = self.duplicate;
        let mut top = Vec::new();
        match &self.jsonrpc {
            JsonRpc::Two => top.push(("jsonrpc".into(), J::Str("2.0".into()))),
            JsonRpc::Missing => {}
            JsonRpc::Wrong(s) => top.push(("jsonrpc".into(), J::Str(s.0.clone()))),
            JsonRpc::NotString(v) => top.push(("jsonrpc".into(), v.json())),
        }
        if let Some(raw) = self.id.raw() {
            top.push(("id".into(), J::Raw(raw)));
        }
        match &self.method {
            MethodModel::Missing => {}
            MethodModel::NotString(v) => top.push(("method".into(), v.json())),
            m => top.push(("method".into(), J::Str(m.name().unwrap_or_default()))),
        }
        match &self.params {
            ParamsModel::Missing => {}
            ParamsModel::NotObject(v) => top.push(("params".into(), v.json())),
            ParamsModel::Object(p) => top.push(("params".into(), self.params_tree(config, p))),
        }
        match self.response {
            None => {}
            Some(ResponseMember::Result) => top.push(("result".into(), J::Raw("{}".into()))),
            Some(ResponseMember::Error) => top.push((
                "error".into(),
                J::Raw("{\"code\":-32601,\"message\":\"m\"}".into()),
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
        J::Obj(top)
    }

    fn params_tree(&self, config: &Config, p: &ParamsObject) -> J {
        let dup = self.duplicate;
        let mut members = Vec::new();
        match &p.meta {
            MetaModel::Missing => {}
            MetaModel::NotObject(v) => members.push(("_meta".into(), v.json())),
            MetaModel::Object(m) => {
                let mut meta = Vec::new();
                if let Some(v) = m.version.json() {
                    meta.push((meta::PROTOCOL_VERSION.to_string(), v));
                }
                match &m.caps {
                    CapsModel::Missing => {}
                    CapsModel::Empty => {
                        meta.push((meta::CLIENT_CAPABILITIES.into(), J::Obj(Vec::new())))
                    }
                    CapsModel::NotObject(v) => {
                        meta.push((meta::CLIENT_CAPABILITIES.into(), v.json()))
                    }
                    CapsModel::Members(caps) => {
                        let members = caps
                            .iter()
                            .take(4)
                            .map(|(name, value)| {
                                let v = match value {
                                    None => J::Obj(Vec::new()),
                                    Some(v) => v.json(),
                                };
                                (name.name(), v)
                            })
                            .collect();
                        meta.push((meta::CLIENT_CAPABILITIES.into(), J::Obj(members)))
                    }
                }
                if let Some(info) = m.client_info.json() {
                    meta.push((meta::CLIENT_INFO.into(), info));
                }
                match &m.log_level {
                    LogLevelModel::Absent => {}
                    LogLevelModel::Valid(n) => {
                        let level = meta::LOG_LEVELS
                            .get(usize::from(*n) % meta::LOG_LEVELS.len())
                            .copied()
                            .unwrap_or("info");
                        meta.push((meta::LOG_LEVEL.into(), J::Str(level.into())))
                    }
                    LogLevelModel::Invalid(s) => {
                        meta.push((meta::LOG_LEVEL.into(), J::Str(s.0.clone())))
                    }
                    LogLevelModel::NotString(v) => meta.push((meta::LOG_LEVEL.into(), v.json())),
                }
                match &m.token {
                    TokenModel::Absent => {}
                    TokenModel::Str(s) => meta.push(("progressToken".into(), J::Str(s.0.clone()))),
                    TokenModel::Int(i) => {
                        meta.push(("progressToken".into(), J::Raw(i.to_string())))
                    }
                    TokenModel::Big => meta.push((
                        "progressToken".into(),
                        J::Raw("123456789012345678901234567890".into()),
                    )),
                    TokenModel::Other(v) => meta.push(("progressToken".into(), v.json())),
                }
                push_extras(&mut meta, &m.extra);
                if let Some(DupSpot::Version) = dup {
                    duplicate(&mut meta, meta::PROTOCOL_VERSION);
                }
                members.push(("_meta".into(), J::Obj(meta)));
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
                members.push(("arguments".into(), J::Obj(args)));
            }
        }
        if let Some(c) = &p.cursor {
            members.push(("cursor".into(), J::Str(c.0.clone())));
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
        J::Obj(members)
    }

    /// The message's JSON text, before framing.
    pub fn json(&self, config: &Config) -> String {
        let mut s = String::new();
        self.tree(config).render(&mut s);
        s
    }

    /// The line as sent (framing applied, no newline).
    pub fn line(&self, config: &Config) -> Vec<u8> {
        let mut line = self.json(config).into_bytes();
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

/// What the oracle expects of a tool call that reached its tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolOutcome {
    /// `get_order` of an order the user may read: its snapshot.
    Snapshot(String),
    /// `get_order` of an order the user may not read, or none: the
    /// forbidden result, identical to the one for a nonexistent id.
    Forbidden,
    /// `lookup_stock` of a product in the table: its stock.
    Stock(String, u64),
    /// `lookup_stock` of an unknown product.
    UnknownProduct,
    /// arguments that break the `inputSchema`: an `isError` result, the
    /// tool not run.
    InvalidArguments,
}

/// What the core must answer to a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// No reply.
    Silence,
    /// An error with this id (raw text; `None`: null), code and message.
    Error {
        /// raw id text, or null
        id: Option<String>,
        /// the code
        code: i32,
        /// the message
        message: &'static str,
        /// `data.requested`, for `-32022`
        requested: Option<String>,
    },
    /// A result with this id.
    Result {
        /// raw id text
        id: String,
        /// which method's result
        method: &'static str,
        /// for `tools/call`: what the tool gave
        tool: Option<(&'static str, ToolOutcome)>,
    },
    /// The oracle cannot tell: generic invariants only.
    Unknown,
}

impl Expect {
    /// How many times a tool must have been executed.
    pub fn runs(&self) -> Option<usize> {
        match self {
            Expect::Unknown => None,
            Expect::Result {
                tool: Some((_, outcome)),
                ..
            } => Some(usize::from(*outcome != ToolOutcome::InvalidArguments)),
            _ => Some(0),
        }
    }
}

fn err(id: Option<String>, e: RpcError<'static>) -> Expect {
    Expect::Error {
        id,
        code: e.code.value(),
        message: e.message,
        requested: None,
    }
}

impl Request {
    /// The oracle: what a [`crate::Server`] with `config` must answer to
    /// [`Request::line`].
    pub fn expect(&self, config: &Config) -> Expect {
        let json = self.json(config);
        let line = self.line(config);
        if line
            .iter()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        {
            return Expect::Silence;
        }
        if line.len() > config.max_line_bytes() {
            return err(None, envelope::TOO_LONG);
        }
        match self.framing {
            Framing::Truncated(_) if line.len() < json.len() => {
                return err(None, envelope::PARSE_ERROR);
            }
            Framing::Junk(b) if !matches!(b, b' ' | b'\t' | b'\r' | b'\n') => {
                return err(None, envelope::PARSE_ERROR);
            }
            _ => {}
        }
        let tree = self.tree(config);
        let depth = tree.depth();
        if depth > 140 {
            return err(None, envelope::TOO_DEEP);
        }
        if depth > 100 {
            return Expect::Unknown;
        }
        if matches!(self.id, IdModel::LoneSurrogate) {
            return err(None, envelope::PARSE_ERROR);
        }
        let id_dup = tree.count("id") > 1;
        let id = match self.id.is_valid() && !id_dup {
            true => self.id.raw(),
            false => None,
        };
        if tree.get("method").is_none() && self.response.is_some() {
            return Expect::Silence;
        }
        if tree.has_duplicate() {
            return err(id, envelope::DUPLICATE);
        }
        if !matches!(self.jsonrpc, JsonRpc::Two) {
            return err(id, envelope::BAD_VERSION);
        }
        if !matches!(self.id, IdModel::Missing) && !self.id.is_valid() {
            return err(None, envelope::BAD_ID);
        }
        let method = match &self.method {
            MethodModel::Missing => return err(id, envelope::NO_METHOD),
            MethodModel::NotString(_) => return err(id, envelope::METHOD_NOT_STRING),
            m => m.name().unwrap_or_default(),
        };
        let Some(id) = id else {
            return Expect::Silence;
        };
        let some = Some(id.clone());
        if method == "initialize" {
            let requested = match &self.params {
                ParamsModel::Object(p) => p.protocol_version.as_ref().and_then(|v| v.string()),
                _ => None,
            };
            return match requested {
                Some(v) => Expect::Error {
                    id: some,
                    code: -32022,
                    message: meta::NO_HANDSHAKE,
                    requested: Some(v),
                },
                None => Expect::Error {
                    id: some,
                    code: -32602,
                    message: "Invalid params: initialize needs a string protocolVersion, and this \
                              server has no initialize handshake; use one of data.supported",
                    requested: None,
                },
            };
        }
        let p = match &self.params {
            ParamsModel::Missing => return err(some, meta::NO_PARAMS),
            ParamsModel::NotObject(_) => return err(some, meta::PARAMS_NOT_OBJECT),
            ParamsModel::Object(p) => p,
        };
        let m = match &p.meta {
            MetaModel::Missing => return err(some, meta::NO_META),
            MetaModel::NotObject(_) => return err(some, meta::META_NOT_OBJECT),
            MetaModel::Object(m) => m,
        };
        let version = match &m.version {
            VersionModel::Missing => return err(some, meta::NO_VERSION),
            VersionModel::NotString(_) => return err(some, meta::VERSION_NOT_STRING),
            v => v.string().unwrap_or_default(),
        };
        if !config.versions().contains(&version) {
            return Expect::Error {
                id: some,
                code: -32022,
                message: meta::UNSUPPORTED,
                requested: Some(version),
            };
        }
        match &m.caps {
            CapsModel::Missing => return err(some, meta::NO_CAPABILITIES),
            CapsModel::NotObject(_) => return err(some, meta::BAD_CAPABILITIES),
            CapsModel::Empty => {}
            CapsModel::Members(caps) => {
                if caps
                    .iter()
                    .take(4)
                    .any(|(name, value)| name.is_defined() && value.is_some())
                {
                    return err(some, meta::BAD_CAPABILITIES);
                }
            }
        }
        if matches!(m.client_info, ClientInfoModel::Broken(_)) {
            return err(some, meta::BAD_CLIENT_INFO);
        }
        if matches!(
            m.log_level,
            LogLevelModel::NotString(_) | LogLevelModel::Invalid(_)
        ) {
            let valid = match &m.log_level {
                LogLevelModel::Invalid(s) => meta::LOG_LEVELS.contains(&s.0.as_str()),
                _ => false,
            };
            if !valid {
                return err(some, meta::BAD_LOG_LEVEL);
            }
        }
        match &m.token {
            TokenModel::Big => return err(some, meta::BAD_PROGRESS_TOKEN),
            TokenModel::Other(v) if !v.is_integer() => {
                return err(some, meta::BAD_PROGRESS_TOKEN);
            }
            _ => {}
        }
        self.dispatch(config, &method, p, id)
    }

    fn dispatch(&self, config: &Config, method: &str, p: &ParamsObject, id: String) -> Expect {
        let some = Some(id.clone());
        let result = |method: &'static str, tool| Expect::Result {
            id: id.clone(),
            method,
            tool,
        };
        match method {
            "server/discover" => result("server/discover", None),
            "tools/list" if p.cursor.is_some() => err(some, dispatch::INVALID_CURSOR),
            "tools/list" => result("tools/list", None),
            "tools/call" => {
                let name = match p.name.json() {
                    Some(J::Str(name)) => name,
                    _ => return err(some, dispatch::NO_NAME),
                };
                let args = match &p.arguments {
                    ArgsModel::NotObject(_) => return err(some, dispatch::ARGS_NOT_OBJECT),
                    ArgsModel::Missing => None,
                    ArgsModel::Object(a) => Some(a),
                };
                let member = |key: &str| -> Option<J> {
                    let a = args?;
                    match key {
                        "order_id" => order_id(config, &a.order_id),
                        _ => product_id(config, &a.product_id),
                    }
                };
                let count = args.map_or(0, |a| {
                    usize::from(!matches!(a.order_id, OrderRef::Missing))
                        + usize::from(!matches!(a.product_id, ProductRef::Missing))
                        + a.extra.len().min(4)
                });
                match name.as_str() {
                    "get_order" => {
                        let outcome = match member("order_id") {
                            Some(J::Str(oid)) => {
                                let readable = config
                                    .orders()
                                    .iter()
                                    .any(|o| o.order_id == oid && o.owner == config.user());
                                match readable {
                                    true => ToolOutcome::Snapshot(oid),
                                    false => ToolOutcome::Forbidden,
                                }
                            }
                            _ => ToolOutcome::InvalidArguments,
                        };
                        result("tools/call", Some(("get_order", outcome)))
                    }
                    "lookup_stock" if config.stock().is_some() => {
                        let outcome = match member("product_id") {
                            Some(J::Str(pid)) if count == 1 => {
                                match config
                                    .stock()
                                    .unwrap_or_default()
                                    .iter()
                                    .find(|s| s.product_id == pid)
                                {
                                    Some(s) => ToolOutcome::Stock(pid, s.stock),
                                    None => ToolOutcome::UnknownProduct,
                                }
                            }
                            _ => ToolOutcome::InvalidArguments,
                        };
                        result("tools/call", Some(("lookup_stock", outcome)))
                    }
                    _ => err(some, dispatch::UNKNOWN_TOOL),
                }
            }
            "ping"
            | "logging/setLevel"
            | "notifications/initialized"
            | "notifications/roots/list_changed" => err(some, dispatch::REMOVED_METHOD),
            _ => err(some, dispatch::METHOD_NOT_FOUND),
        }
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
